// SPDX-License-Identifier: Apache-2.0
#include "min_dut.hpp"

#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "min_banyan.hpp"
#include "min_nic.hpp"
#include "totex/error.hpp"
#include "totex/io/output_file.hpp"

namespace totex::sim {
namespace {

/// How many terminals' inject/eject lines the trace and the view show.
constexpr int kTracedTerminals = 16;

class ScMinDut final : public MinDut {
 public:
  ScMinDut(const MinNetwork& net, const MinBuild& build, const std::string& wave,
           const MinTop::MakeNetwork& make_network, const MinTop::MakeNic& make_nic,
           const std::function<void()>& elaborated)
      : net_(net), top_("top", net, build.mode, build.max_steps, build.payload_bits, make_network, make_nic) {
    top_.clk(clk_);
    top_.rst_n(rst_n_);
    top_.cfg_we(cfg_we_);
    top_.cfg_addr(cfg_addr_);
    top_.cfg_data(cfg_data_);
    top_.start(start_);
    top_.phase_in(phase_);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborate before tracing (Verilated parts need it)
    if (!wave.empty()) open_trace(wave);
    if (elaborated) elaborated();
    rst_n_.write(false);
    tick();
    tick();
    rst_n_.write(true);
  }
  ScMinDut(const ScMinDut&) = delete;
  ScMinDut& operator=(const ScMinDut&) = delete;
  ~ScMinDut() override {
    if (trace_) sc_core::sc_close_vcd_trace_file(trace_);
  }

  void write(std::uint64_t addr, std::uint64_t data) override {
    cfg_we_.write(true);
    cfg_addr_.write(addr);
    cfg_data_.write(data);
    tick();
    cfg_we_.write(false);
  }
  void set_start(bool start, int phase) override {
    start_.write(start);
    phase_.write(phase != 0);
  }
  void tick() override {
    sc_core::sc_start(kPeriodNs, sc_core::SC_NS);
    ++edges_;
  }
  bool busy() override { return top_.busy.read(); }
  bool done() override { return top_.done.read(); }
  bool error() override { return top_.error.read(); }
  void ejects(std::vector<MinEject>& out) override {
    for (int t = 0; t < net_.terminals(); ++t) {
      const MinFlit& f = top_.eject[static_cast<std::size_t>(t)].read();
      if (f.valid) out.push_back({t, f.src, f.dst, f.seq, f.payload});
    }
  }
  int assertion_failures() override { return min_checks().count(); }
  std::uint64_t edges() override { return edges_; }

 private:
  static constexpr double kPeriodNs = 10;

  void open_trace(const std::string& wave) {
    const std::filesystem::path p(wave);
    if (p.extension() != ".vcd") throw UsageError("the SystemC models trace VCD; --wave must end in .vcd");
    // sc_create_vcd_trace_file appends ".vcd" itself.
    trace_ = sc_core::sc_create_vcd_trace_file((p.parent_path() / p.stem()).string().c_str());
    trace_->set_time_unit(1, sc_core::SC_NS);
    sc_core::sc_trace(trace_, clk_, "clk");
    sc_core::sc_trace(trace_, rst_n_, "rst_n");
    sc_core::sc_trace(trace_, cfg_we_, "cfg_we");
    sc_core::sc_trace(trace_, cfg_addr_, "cfg_addr");
    sc_core::sc_trace(trace_, cfg_data_, "cfg_data");
    sc_core::sc_trace(trace_, start_, "start");
    const int traced = std::min(kTracedTerminals, net_.terminals());
    top_.trace(trace_, traced);
    write_gtkw(wave, traced);
  }

  /// A GTKWave view: control, load port, the traced terminals, the switch states of stage 0.
  void write_gtkw(const std::string& wave, int traced) const {
    OutputFile file(wave + ".gtkw");  // checked: "PATH: OS error", no half file
    std::ostream& out = file.stream();
    out << "[*] totex MIN view (SystemC top), written by `totex sim --engine systemc|cosim --wave`\n"
        << "[dumpfile] \"" << std::filesystem::path(wave).filename().string() << "\"\n[size] 1400 800\n"
        << "[signals_width] 300\n[sst_width] 200\n";
    // Names as the SystemC VCD writer scopes them; multi-bit signals need their range.
    auto group = [&](const std::string& title, const std::vector<std::pair<std::string, int>>& signals) {
      out << "@800200\n-" << title << '\n';
      for (const auto& [signal, bits] : signals) {
        if (bits == 1) out << "@28\nSystemC." << signal << '\n';
        else out << "@24\nSystemC." << signal << '[' << bits - 1 << ":0]\n";
      }
      out << "@1000200\n-" << title << '\n';
    };
    group("control", {{"clk", 1}, {"rst_n", 1}, {"start", 1}, {"top.busy", 1}, {"top.done", 1}, {"top.error", 1},
                      {"top.phase", 1}, {"top.step", 32}, {"top.last_step", 32}, {"top.out_step", 32}});
    group("load port", {{"cfg_we", 1}, {"cfg_addr", 64}, {"cfg_data", 64}});
    for (int t = 0; t < std::min(traced, 4); ++t) {
      const std::string n = std::to_string(t);
      group("terminal " + n, {{"top.inject_" + n + ".valid", 1}, {"top.inject_" + n + ".dst", 32},
                              {"top.eject_" + n + ".valid", 1}, {"top.eject_" + n + ".src", 32},
                              {"top.eject_" + n + ".seq", 32}, {"top.recv_count_" + n, 32}});
    }
    std::vector<std::pair<std::string, int>> states;
    for (int i = 0; i < net_.switches_per_stage() && i < 8; ++i) states.emplace_back("top.state_" + std::to_string(i), 32);
    group("stage 0 switch states", states);
    file.commit();
  }

  MinNetwork net_;
  sc_core::sc_clock clk_{"clk", kPeriodNs, sc_core::SC_NS, 0.5, kPeriodNs / 2, sc_core::SC_NS, true};
  sc_core::sc_signal<bool> rst_n_{"rst_n", false}, cfg_we_{"cfg_we", false}, start_{"start", false},
      phase_{"phase", false};
  sc_core::sc_signal<std::uint64_t> cfg_addr_{"cfg_addr", 0}, cfg_data_{"cfg_data", 0};
  MinTop top_;
  sc_core::sc_trace_file* trace_ = nullptr;
  std::uint64_t edges_ = 0;
};

}  // namespace

std::unique_ptr<MinDut> make_min_top_dut(const MinNetwork& net, const MinBuild& build, const std::string& wave,
                                         const MinTop::MakeNetwork& make_network, const MinTop::MakeNic& make_nic,
                                         const std::function<void()>& elaborated) {
  return std::make_unique<ScMinDut>(net, build, wave, make_network, make_nic, elaborated);
}

std::unique_ptr<MinDut> make_systemc_min_dut(const MinNetwork& net, const MinBuild& build, const std::string& wave) {
  const MinPortLayout layout(net, build.max_steps, build.payload_bits);
  return make_min_top_dut(
      net, build, wave, [net](const char* name) -> std::unique_ptr<MinNetworkPorts> { return std::make_unique<MinBanyan>(name, net); },
      [net, layout, build](const char* name, int t) -> std::unique_ptr<MinNicPorts> {
        return std::make_unique<MinNic>(name, t, net.terminals(), layout, build.max_steps);
      });
}

}  // namespace totex::sim
