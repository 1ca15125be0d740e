// SPDX-License-Identifier: Apache-2.0
/// Co-simulation of a direct network: the generated totex_direct_top (rtl/totex_direct_*.sv,
/// rtl/totex_router*.sv) behind the DirectDut interface; everything else is sim/direct_run.cpp.
/// Built per topology and parameter set by `totex sim --engine rtl` (usage: see direct_run.cpp).
#include "Vtotex_direct_top.h"
#include "direct_backdoor.hpp"
#include "direct_run.hpp"
#include "totex/direct_controller.hpp"
#include "vl_harness.hpp"

namespace {

using totex::sim::bits;
using totex::sim::set_port;

class VerilatedDirect final : public totex::sim::DirectDut {
 public:
  VerilatedDirect(const totex::DirectLayout& layout, const std::string& wave) : layout_(layout), dut_(wave) {}
  void set_layout(int eject_lanes, int msg_bits, int node_bits, int payload_bits) override {
    lanes_ = eject_lanes;
    mw_ = msg_bits;
    iw_ = node_bits;
    pw_ = payload_bits;
  }
  std::uint32_t signature() override { return dut_.top().signature_o; }
  void write(std::uint64_t addr, std::uint64_t data) override {
    auto& top = dut_.top();
    top.cfg_we_i = 1;
    set_port(top.cfg_addr_i, addr);
    set_port(top.cfg_data_i, data);
    dut_.tick();
    top.cfg_we_i = 0;
  }
  /// Schedule tables and payloads (scheduled) or send queues (dynamic) through their public
  /// memories (rtl/totex_backdoor.vlt); control registers and out-of-range writes through the port.
  bool backdoor_write(std::uint64_t addr, std::uint64_t data) override {
    return backdoor_.write(dut_.context(), addr, data);
  }
  void set_start(bool start) override { dut_.top().start_i = start ? 1 : 0; }
  void tick() override { dut_.tick(); }
  bool busy() override { return dut_.top().busy_o; }
  bool done() override { return dut_.top().done_o; }
  bool error() override { return dut_.top().error_o; }
  void ejects(std::vector<totex::sim::Eject>& out) override {
    const auto& top = dut_.top();
    visit(top.eject_valid_o, [&](int k) {
      const int base = k * mw_;
      out.push_back({k, bits(top.eject_data_o, base + iw_ + pw_, iw_), bits(top.eject_data_o, base + pw_, iw_),
                     bits(top.eject_data_o, base, pw_)});
    });
  }
  int assertion_failures() override { return dut_.assertion_failures(); }
  std::uint64_t edges() override { return dut_.edges(); }

 private:
  /// Calls f(k) for every set bit k of a port value (integral or VlWide).
  template <class T, class F>
  static void visit(const T& value, F f) {
    if constexpr (std::is_integral_v<T>) {
      for (auto v = static_cast<std::uint64_t>(value); v; v &= v - 1) f(__builtin_ctzll(v));
    } else {
      for (std::size_t w = 0; w < sizeof(T) / sizeof(std::uint32_t); ++w)  // VlWide: 32-bit words
        for (std::uint32_t v = value[w]; v; v &= v - 1) f(static_cast<int>(w) * 32 + __builtin_ctz(v));
    }
  }

  totex::DirectLayout layout_;
  totex::sim::ClockedModel<Vtotex_direct_top> dut_;
  /// The node modules, named as in rtl/totex_direct_top.sv.
  totex::sim::DirectBackdoor backdoor_{layout_, [mode = layout_.params.mode](int v) {
    return "top.totex_direct_top.gen_node[" + std::to_string(v) + "].u_tile." +
           (mode == totex::DirectMode::Scheduled ? "gen_scheduled" : "gen_dynamic") + ".u_node.";
  }};
  int lanes_ = 1, mw_ = 1, iw_ = 1, pw_ = 1;
};

}  // namespace

int main(int argc, char** argv) {
  return totex::sim::direct_main(
      argc, argv, "rtl",
      [](const totex::Topology&, const totex::DirectLayout& layout, const std::string& wave)
          -> std::unique_ptr<totex::sim::DirectDut> { return std::make_unique<VerilatedDirect>(layout, wave); },
      "RTL");
}
