// SPDX-License-Identifier: Apache-2.0
/// Co-simulation of rtl/totex_min_top.sv behind the MinDut interface; the run itself (controller,
/// paper 002's two phases, scoreboard) is sim/min_run.cpp. Built per parameter set by
/// `totex sim --engine rtl`, which passes TOTEX_N, TOTEX_D, TOTEX_WIRING, TOTEX_MODE,
/// TOTEX_MAX_STEPS and TOTEX_PW; usage: see min_run.hpp.
#include <filesystem>
#include <fstream>

#include "Vtotex_min_top.h"
#include "min_run.hpp"
#include "totex/error.hpp"
#include "totex/io/output_file.hpp"
#include "vl_harness.hpp"

namespace {

using totex::sim::bits;
using totex::sim::set_port;

class VerilatedMin final : public totex::sim::MinDut {
 public:
  VerilatedMin(const totex::MinNetwork& net, const totex::MinPortLayout& layout, const std::string& wave)
      : net_(net), layout_(layout), dut_(wave) {}
  void write(std::uint64_t addr, std::uint64_t data) override {
    auto& top = dut_.top();
    top.cfg_we_i = 1;
    set_port(top.cfg_addr_i, addr);
    set_port(top.cfg_data_i, data);
    dut_.tick();
    top.cfg_we_i = 0;
  }
  /// Switch tables (region 0, table mode) and send queues (region 2) through their public
  /// memories (rtl/totex_backdoor.vlt); registers, and anything the port would flag, through the port.
  bool backdoor_write(std::uint64_t addr, std::uint64_t data) override {
    const auto [region, index, entry] = layout_.fields(addr);
    if (tables_.empty() && queues_.empty()) find_memories();
    if (region == totex::MinPortLayout::kRegionSwitchTable && index < tables_.size() &&
        entry < tables_[index].size() && data < static_cast<std::uint64_t>(net_.radix())) {
      tables_[index].write(entry, data);
      return true;
    }
    if (region == totex::MinPortLayout::kRegionSendQueue && index < queues_.size() && entry < queues_[index].size()) {
      queues_[index].write(entry, data);
      return true;
    }
    return false;
  }
  void set_start(bool start, int phase) override {
    dut_.top().start_i = start ? 1 : 0;
    dut_.top().phase_i = static_cast<std::uint8_t>(phase);
  }
  void tick() override { dut_.tick(); }
  bool busy() override { return dut_.top().busy_o; }
  bool done() override { return dut_.top().done_o; }
  bool error() override { return dut_.top().error_o; }
  void ejects(std::vector<totex::sim::MinEject>& out) override {
    const auto& top = dut_.top();
    const int iw = layout_.terminal_bits, sw = layout_.step_bits, pw = layout_.payload_bits;
    const int mw = 2 * iw + sw + pw;
    for (int t = 0; t < net_.terminals(); ++t) {
      if (!bits(top.eject_valid_o, t, 1)) continue;
      const int base = t * mw;
      out.push_back({t, bits(top.eject_data_o, base + iw + sw + pw, iw), bits(top.eject_data_o, base + sw + pw, iw),
                     bits(top.eject_data_o, base + pw, sw), bits(top.eject_data_o, base, pw)});
    }
  }
  int assertion_failures() override { return dut_.assertion_failures(); }
  std::uint64_t edges() override { return dut_.edges(); }

 private:
  /// Switch g = j*(N/d) + i is gen_state_stage[j].gen_state_switch[i] (rtl/totex_min_top.sv).
  void find_memories() {
    const std::string top = "top.totex_min_top.";
    const int per_stage = net_.terminals() / net_.radix();
    if (TOTEX_MODE == 0)
      for (int g = 0; g < net_.stages() * per_stage; ++g)
        tables_.emplace_back(dut_.context(),
                             top + "gen_state_stage[" + std::to_string(g / per_stage) + "].gen_state_switch[" +
                                 std::to_string(g % per_stage) + "].u_state.gen_table",
                             "table_q");
    for (int t = 0; t < net_.terminals(); ++t)
      queues_.emplace_back(dut_.context(), top + "gen_nic[" + std::to_string(t) + "].u_nic", "queue_q");
  }

  totex::MinNetwork net_;
  totex::MinPortLayout layout_;
  totex::sim::ClockedModel<Vtotex_min_top> dut_;
  std::vector<totex::sim::PublicMemory> tables_, queues_;
};

/// A GTKWave view of the run next to the dump (`<wave>.gtkw`): control, load port, the first
/// terminals' injected destination and ejected messages, and some switch states, grouped.
void write_gtkw(const std::string& wave, const totex::MinNetwork& net, const totex::MinPortLayout& l) {
  totex::OutputFile file(wave + ".gtkw");  // checked: "PATH: OS error", no half file
  std::ostream& out = file.stream();
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
  file.commit();
}

}  // namespace

int main(int argc, char** argv) {
  return totex::sim::min_main(
      argc, argv, "rtl",
      [](const totex::MinNetwork& net, const totex::sim::MinBuild& build,
         const std::string& wave) -> std::unique_ptr<totex::sim::MinDut> {
        const int mode = totex::MinPortLayout::mode_code(build.mode);
        if (net.terminals() != TOTEX_N || net.radix() != TOTEX_D || static_cast<int>(net.wiring()) != TOTEX_WIRING ||
            mode != TOTEX_MODE || build.max_steps != TOTEX_MAX_STEPS || build.payload_bits != TOTEX_PW)
          throw totex::UsageError("this model was built for other parameters than " + net.spec());
        const totex::MinPortLayout layout(net, build.max_steps, build.payload_bits);
        if (!wave.empty()) write_gtkw(wave, net, layout);
        return std::make_unique<VerilatedMin>(net, layout, wave);
      },
      "RTL");
}
