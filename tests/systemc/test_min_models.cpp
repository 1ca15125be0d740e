// SPDX-License-Identifier: Apache-2.0
/// The SystemC MIN models against the paper's definitions, cycle by cycle: a shift switch in
/// state k connects input u to output (u + k) mod d one cycle later, and the banyan delivers
/// input s to MinNetwork::route(config, s) n cycles later. SystemC elaborates once per process:
/// CTest runs every TEST_CASE in its own process, and each one elaborates everything it needs once.
#include <systemc>

#include <catch2/catch.hpp>
#include <memory>
#include <random>
#include <vector>

#include "min_banyan.hpp"
#include "min_shift_switch.hpp"
#include "model_check.hpp"

// libsystemc's main() references sc_main; Catch2 provides main() here.
int sc_main(int, char**) { return 0; }

namespace {

using totex::sim::MinFlit;
using Signals = sc_core::sc_vector<sc_core::sc_signal<MinFlit>>;

constexpr double kPeriodNs = 10;

MinFlit flit(std::uint32_t src, std::uint32_t seq) { return {true, src, 0, seq, src * 7 + seq}; }

}  // namespace

TEST_CASE("SystemC shift switch: output (u + k) mod d carries input u, one cycle later", "[systemc]") {
  sc_core::sc_clock clk("clk", kPeriodNs, sc_core::SC_NS, 0.5, kPeriodNs / 2, sc_core::SC_NS, true);
  sc_core::sc_signal<bool> rst_n("rst_n", true);
  const std::vector<int> radices = {2, 3, 4, 8};
  std::vector<std::unique_ptr<totex::sim::MinShiftSwitch>> switches;
  std::vector<std::unique_ptr<Signals>> ins, outs;
  std::vector<std::unique_ptr<sc_core::sc_signal<unsigned>>> states;
  for (const int d : radices) {
    const auto du = static_cast<std::size_t>(d);
    auto& sw = switches.emplace_back(std::make_unique<totex::sim::MinShiftSwitch>(("sw" + std::to_string(d)).c_str(), d));
    ins.push_back(std::make_unique<Signals>(("in" + std::to_string(d)).c_str(), du));
    outs.push_back(std::make_unique<Signals>(("out" + std::to_string(d)).c_str(), du));
    states.push_back(std::make_unique<sc_core::sc_signal<unsigned>>(("k" + std::to_string(d)).c_str()));
    sw->clk(clk);
    sw->rst_n(rst_n);
    sw->state(*states.back());
    for (std::size_t u = 0; u < du; ++u) {
      sw->in[u]((*ins.back())[u]);
      sw->out[u]((*outs.back())[u]);
    }
  }
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  std::mt19937 rng(7);
  for (std::uint32_t cycle = 0; cycle < 64; ++cycle) {
    std::vector<unsigned> k(radices.size());
    for (std::size_t i = 0; i < radices.size(); ++i) {
      k[i] = static_cast<unsigned>(rng() % static_cast<unsigned>(radices[i]));
      states[i]->write(k[i]);
      for (std::size_t u = 0; u < static_cast<std::size_t>(radices[i]); ++u)
        (*ins[i])[u].write(rng() % 4 == 0 ? MinFlit{} : flit(static_cast<std::uint32_t>(u), cycle));
    }
    sc_core::sc_start(kPeriodNs, sc_core::SC_NS);
    for (std::size_t i = 0; i < radices.size(); ++i) {
      const int d = radices[i];
      for (int u = 0; u < d; ++u) {
        const auto v = static_cast<std::size_t>((u + static_cast<int>(k[i])) % d);
        CHECK((*outs[i])[v].read() == (*ins[i])[static_cast<std::size_t>(u)].read());
      }
    }
  }
  CHECK(totex::sim::min_checks().count() == 0);
}

TEST_CASE("SystemC banyan: input s reaches MinNetwork::route(config, s) after n cycles", "[systemc]") {
  // One network per wiring, each under random configurations held for n + 1 cycles.
  const std::vector<totex::MinNetwork> nets = {totex::MinNetwork(27, 3, totex::Wiring::Omega),
                                               totex::MinNetwork(16, 2, totex::Wiring::Baseline),
                                               totex::MinNetwork(64, 4, totex::Wiring::Butterfly)};
  sc_core::sc_clock clk("clk", kPeriodNs, sc_core::SC_NS, 0.5, kPeriodNs / 2, sc_core::SC_NS, true);
  sc_core::sc_signal<bool> rst_n("rst_n", true), step_valid("step_valid", true);
  sc_core::sc_signal<unsigned> step("step", 0);
  struct Bench {
    std::unique_ptr<totex::sim::MinBanyan> banyan;
    std::unique_ptr<sc_core::sc_vector<sc_core::sc_signal<unsigned>>> state;
    std::unique_ptr<Signals> in, out;
    std::unique_ptr<sc_core::sc_vector<sc_core::sc_signal<bool>>> stage_valid;
    std::unique_ptr<sc_core::sc_vector<sc_core::sc_signal<unsigned>>> stage_step;
    std::unique_ptr<sc_core::sc_signal<bool>> out_valid;
    std::unique_ptr<sc_core::sc_signal<unsigned>> out_step;
  };
  std::vector<Bench> benches;
  for (std::size_t b = 0; b < nets.size(); ++b) {
    const totex::MinNetwork& net = nets[b];
    const std::string p = "b" + std::to_string(b) + "_";
    const auto n = static_cast<std::size_t>(net.terminals());
    Bench x;
    x.banyan = std::make_unique<totex::sim::MinBanyan>((p + "banyan").c_str(), net);
    x.state = std::make_unique<sc_core::sc_vector<sc_core::sc_signal<unsigned>>>((p + "state").c_str(),
                                                                                 static_cast<std::size_t>(net.switches()));
    x.in = std::make_unique<Signals>((p + "in").c_str(), n);
    x.out = std::make_unique<Signals>((p + "out").c_str(), n);
    x.stage_valid = std::make_unique<sc_core::sc_vector<sc_core::sc_signal<bool>>>((p + "sv").c_str(),
                                                                                   static_cast<std::size_t>(net.stages()));
    x.stage_step = std::make_unique<sc_core::sc_vector<sc_core::sc_signal<unsigned>>>((p + "ss").c_str(),
                                                                                      static_cast<std::size_t>(net.stages()));
    x.out_valid = std::make_unique<sc_core::sc_signal<bool>>((p + "ov").c_str());
    x.out_step = std::make_unique<sc_core::sc_signal<unsigned>>((p + "os").c_str());
    auto& m = *x.banyan;
    m.clk(clk);
    m.rst_n(rst_n);
    m.step_valid(step_valid);
    m.step(step);
    m.out_step_valid(*x.out_valid);
    m.out_step(*x.out_step);
    for (std::size_t g = 0; g < x.state->size(); ++g) m.state[g]((*x.state)[g]);
    for (std::size_t j = 0; j < x.stage_valid->size(); ++j) {
      m.stage_step_valid[j]((*x.stage_valid)[j]);
      m.stage_step[j]((*x.stage_step)[j]);
    }
    for (std::size_t t = 0; t < n; ++t) {
      m.inject[t]((*x.in)[t]);
      m.eject[t]((*x.out)[t]);
    }
    benches.push_back(std::move(x));
  }
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  std::mt19937 rng(11);
  for (std::uint32_t trial = 0; trial < 8; ++trial) {
    std::vector<totex::MinConfiguration> configs;
    for (std::size_t b = 0; b < nets.size(); ++b) {
      totex::MinConfiguration c(static_cast<std::size_t>(nets[b].switches()));
      for (auto& k : c) k = static_cast<std::uint8_t>(rng() % static_cast<unsigned>(nets[b].radix()));
      for (std::size_t g = 0; g < c.size(); ++g) (*benches[b].state)[g].write(c[g]);
      for (std::size_t s = 0; s < benches[b].in->size(); ++s)
        (*benches[b].in)[s].write(flit(static_cast<std::uint32_t>(s), trial));
      configs.push_back(c);
    }
    step.write(trial);
    // Inputs and states held: after n edges (not earlier) the new messages are at the outputs.
    for (int edge = 0; edge < 4; ++edge) {
      sc_core::sc_start(kPeriodNs, sc_core::SC_NS);
      for (std::size_t b = 0; b < nets.size(); ++b) {
        if (edge + 1 < nets[b].stages())
          for (std::size_t t = 0; t < benches[b].out->size(); ++t) {
            const MinFlit& f = (*benches[b].out)[t].read();
            CHECK_FALSE((f.valid && f.seq == trial));
          }
        if (edge + 1 != nets[b].stages()) continue;
        for (int s = 0; s < nets[b].terminals(); ++s)
          CHECK((*benches[b].out)[static_cast<std::size_t>(nets[b].route(configs[b], s))].read() ==
                flit(static_cast<std::uint32_t>(s), trial));
        CHECK(benches[b].out_step->read() == trial);
      }
    }
  }
  CHECK(totex::sim::min_checks().count() == 0);
}
