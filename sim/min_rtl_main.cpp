// SPDX-License-Identifier: Apache-2.0
/// Co-simulation of rtl/totex_min_top.sv: the sw/ controller loads a configuration-matrix file
/// through the load port, runs paper 002's two phases (labels, then personalized messages) and a
/// scoreboard checks every delivery. Built per parameter set by `totex sim --engine rtl`, which
/// passes TOTEX_N, TOTEX_D, TOTEX_WIRING, TOTEX_MODE, TOTEX_MAX_STEPS and TOTEX_PW.
/// Usage: min_rtl <schedule-file> [<wave.fst|wave.vcd>]; prints one JSON object.
#include <chrono>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "Vtotex_min_top.h"
#include "totex/engine.hpp"
#include "totex/error.hpp"
#include "totex/generators.hpp"
#include "totex/min_controller.hpp"
#include "totex/schedule_io.hpp"
#include "totex/spec.hpp"
#include "vl_harness.hpp"

namespace {

using totex::sim::bits;
using totex::sim::set_port;

class MinRun {
 public:
  MinRun(const totex::MinNetwork& net, const totex::MinSchedule& s, const std::string& wave)
      : net_(net), s_(s), layout_(net, TOTEX_MAX_STEPS, TOTEX_PW), dut_(wave) {}

  totex::SimResult run() {
    const auto start = std::chrono::steady_clock::now();
    const auto mode = TOTEX_MODE == 0 ? totex::MinConfigMode::Table : totex::MinConfigMode::Computed;
    load(totex::min_configuration_writes(net_, s_, mode, layout_));
    // Phase 1: labels. Label s arriving at output t in step x: s sends its message for t in step x.
    std::vector<std::vector<int>> order(static_cast<std::size_t>(net_.terminals()),
                                        std::vector<int>(s_.configurations.size(), -1));
    run_phase(0, [&](std::int64_t, int at, const Fields& m) {
      if (m.src < order.size() && m.seq < s_.configurations.size() && s_.sends(m.seq, static_cast<int>(m.src)))
        order[m.src][m.seq] = at;
    });
    load(totex::min_send_queue_writes(order, layout_));
    // Phase 2: personalized messages, checked by the scoreboard.
    totex::Scoreboard board(net_.terminals(), totex::expected_deliveries(net_, s_));
    const std::int64_t busy = run_phase(1, [&](std::int64_t cycle, int at, const Fields& m) {
      board.observe(cycle - 1, at, static_cast<totex::NodeId>(m.src), static_cast<totex::NodeId>(m.dst),
                    static_cast<std::int64_t>(m.seq), static_cast<std::uint32_t>(m.payload));
    });
    totex::SimResult r;
    r.engine = "rtl";
    totex::fill_from_scoreboard(r, board, s_.steps(net_));
    if (busy != r.expected_cycles)
      r.errors.push_back("busy_o was high for " + std::to_string(busy) + " cycles, expected " +
                         std::to_string(r.expected_cycles));
    if (dut_.top().error_o) r.errors.push_back("a NIC receive check (error_o) fired");
    if (dut_.assertion_failures() > 0)
      r.errors.push_back(std::to_string(dut_.assertion_failures()) + " RTL assertion(s) fired");
    r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }
  [[nodiscard]] std::uint64_t simulated_cycles() const { return dut_.edges(); }

 private:
  struct Fields {
    std::uint64_t src, dst, seq, payload;
  };

  void load(const std::vector<totex::LoadWrite>& writes) {
    auto& top = dut_.top();
    for (const totex::LoadWrite& w : writes) {
      top.cfg_we_i = 1;
      set_port(top.cfg_addr_i, w.addr);
      set_port(top.cfg_data_i, w.data);
      dut_.tick();
    }
    top.cfg_we_i = 0;
  }

  /// Starts a run and reports every ejected message with the cycle it is visible in; returns the
  /// number of cycles busy_o was high.
  template <class OnEject>
  std::int64_t run_phase(int phase, OnEject on_eject) {
    auto& top = dut_.top();
    top.start_i = 1;
    top.phase_i = static_cast<std::uint8_t>(phase);
    dut_.tick();  // edge 0
    top.start_i = 0;
    const int iw = layout_.terminal_bits, sw = layout_.step_bits, pw = layout_.payload_bits;
    const int mw = 2 * iw + sw + pw;
    std::int64_t busy = 0;
    const std::int64_t limit = static_cast<std::int64_t>(s_.configurations.size()) + net_.stages() + 8;
    for (std::int64_t cycle = 0; cycle < limit; ++cycle) {
      busy += top.busy_o ? 1 : 0;
      for (int t = 0; t < net_.terminals(); ++t) {
        if (!bits(top.eject_valid_o, t, 1)) continue;
        const int base = t * mw;
        on_eject(cycle, t,
                 Fields{bits(top.eject_data_o, base + iw + sw + pw, iw), bits(top.eject_data_o, base + sw + pw, iw),
                        bits(top.eject_data_o, base + pw, sw), bits(top.eject_data_o, base, pw)});
      }
      const bool done = top.done_o;
      dut_.tick();
      if (done) break;
    }
    return busy;
  }

  const totex::MinNetwork& net_;
  const totex::MinSchedule& s_;
  totex::MinPortLayout layout_;
  totex::sim::ClockedModel<Vtotex_min_top> dut_;
};

/// A GTKWave view of the run next to the dump (`<wave>.gtkw`): control, load port, the first
/// terminals' injected destination and ejected messages, and some switch states, grouped.
void write_gtkw(const std::string& wave, const totex::MinNetwork& net, const totex::MinPortLayout& l) {
  std::ofstream out(wave + ".gtkw");
  const std::string top = "top.totex_min_top.";
  auto range = [](int bits) { return "[" + std::to_string(bits - 1) + ":0]"; };
  const std::string iw = range(l.terminal_bits), sxw = range(l.step_bits);
  auto group = [&](const std::string& name, const std::vector<std::pair<std::string, std::string>>& signals) {
    out << "@800200\n-" << name << '\n';
    for (const auto& [format, signal] : signals) out << format << '\n' << top << signal << '\n';
    out << "@1000200\n-" << name << '\n';
  };
  out << "[*] totex MIN view, written by `totex sim --engine rtl --wave`\n"
      << "[dumpfile] \"" << std::filesystem::path(wave).filename().string() << "\"\n[size] 1400 800\n"
      << "[signals_width] 330\n[sst_width] 200\n";
  group("control", {{"@28", "clk_i"}, {"@28", "start_i"}, {"@28", "phase_i"}, {"@28", "busy_o"}, {"@28", "done_o"},
                    {"@28", "error_o"}, {"@24", "step_o" + sxw}, {"@24", "last_step_q" + sxw}});
  group("load port", {{"@28", "cfg_we_i"}, {"@24", "cfg_region[1:0]"}, {"@24", "cfg_index" + range(l.index_bits)},
                      {"@24", "cfg_entry" + sxw}, {"@22", "cfg_data_i" + range(1 + l.terminal_bits + l.payload_bits)}});
  for (int t = 0; t < std::min(4, net.terminals()); ++t) {
    const std::string nic = "gen_nic[" + std::to_string(t) + "].u_nic.";
    group("terminal " + std::to_string(t) + ": injects for inj_dst, receives ej_src",
          {{"@28", nic + "inj_valid_o"}, {"@24", nic + "inj_dst" + iw}, {"@28", nic + "ej_valid_i"},
           {"@24", nic + "ej_src" + iw}, {"@24", nic + "ej_dst" + iw}, {"@24", nic + "ej_seq" + sxw},
           {"@24", nic + "recv_count_o" + range(l.count_bits)}});
  }
  std::vector<std::pair<std::string, std::string>> states;
  for (int j = 0; j < net.stages(); ++j)
    states.emplace_back("@24", "gen_state_stage[" + std::to_string(j) + "].gen_state_switch[0].u_state.state_o" +
                                   range(l.state_bits));
  group("switch 0 of every stage: shift state", states);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: " << argv[0] << " <configuration-matrix file> [<wave.fst|wave.vcd>]\n";
    return 2;
  }
  try {
    const totex::LoadedSchedule loaded = totex::read_schedule_file(argv[1]);
    const auto* s = std::get_if<totex::MinSchedule>(&loaded.schedule);
    if (!s) throw totex::UsageError("the MIN RTL runs configuration-matrix files");
    const totex::MinNetwork net = std::get<totex::MinNetwork>(totex::parse_spec(s->topology));
    if (net.terminals() != TOTEX_N || net.radix() != TOTEX_D || static_cast<int>(net.wiring()) != TOTEX_WIRING)
      throw totex::UsageError("this model was built for other parameters than " + s->topology);
    const std::string wave = argc == 3 ? argv[2] : "";
    MinRun run(net, *s, wave);
    if (!wave.empty()) write_gtkw(wave, net, totex::MinPortLayout(net, TOTEX_MAX_STEPS, TOTEX_PW));
    const totex::SimResult r = run.run();
    totex::SimResult printed = r;
    printed.simulated_cycles = run.simulated_cycles();
    std::cout << "TOTEX-RESULT " << totex::sim_result_json(printed) << '\n';  // RTL assertions also print to stdout
    return r.ok() ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "min_rtl: " << e.what() << '\n';
    return 2;
  }
}
