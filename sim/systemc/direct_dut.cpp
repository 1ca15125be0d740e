// SPDX-License-Identifier: Apache-2.0
#include "direct_dut.hpp"

#include <systemc>
#include <utility>

#include "direct_network.hpp"
#include "totex/error.hpp"

namespace totex::sim {

namespace {

/// Elaborates the network, then runs it one clock period per tick (the clock is driven here:
/// low for 5 ns, then high for 5 ns), the harness writing the inputs between ticks.
class ScDirectDut final : public DirectDut {
 public:
  ScDirectDut(const Topology& t, const DirectLayout& layout, const std::string& wave, const std::string& engine,
              DirectRouterFactory router, DirectDynRouterFactory dyn_router, std::function<int()> other_failures,
              const std::function<void()>& elaborated)
      : layout_(layout), checks_(engine), other_failures_(std::move(other_failures)) {
    if (!wave.empty() && (wave.size() < 4 || wave.substr(wave.size() - 4) != ".vcd"))
      throw UsageError("the SystemC models trace VCD; --wave must end in .vcd, got '" + wave + "'");
    net_ = std::make_unique<DirectNetwork>("top", t, layout, checks_, std::move(router), std::move(dyn_router));
    if (!wave.empty()) {
      trace_ = sc_core::sc_create_vcd_trace_file(wave.substr(0, wave.size() - 4).c_str());
      trace_->set_time_unit(1, sc_core::SC_NS);
      net_->trace(trace_, wave);
    }
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    if (elaborated) elaborated();
    // Two edges in reset, as the Verilator harnesses do (only Verilated parts have a reset).
    tick();
    tick();
    net_->bus.rst_n.write(true);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }
  ScDirectDut(const ScDirectDut&) = delete;
  ScDirectDut& operator=(const ScDirectDut&) = delete;
  ~ScDirectDut() override {
    if (trace_) sc_core::sc_close_vcd_trace_file(trace_);
  }

  void set_layout(int, int, int node_bits, int payload_bits) override { fmt_ = {node_bits, payload_bits}; }
  std::uint32_t signature() override { return layout_.signature(); }
  void write(std::uint64_t addr, std::uint64_t data) override {
    net_->bus.cfg_we_in.write(true);
    net_->bus.cfg_addr.write(addr);
    net_->bus.cfg_data.write(static_cast<std::uint32_t>(data));
    tick();
    net_->bus.cfg_we_in.write(false);
  }
  bool backdoor_write(std::uint64_t addr, std::uint64_t data) override { return net_->backdoor_write(addr, data); }
  void set_start(bool start) override { net_->bus.start.write(start); }
  /// Low phase first: what the harness wrote since the last tick (load port, start) settles
  /// through the combinational logic before the rising edge samples it.
  void tick() override {
    net_->bus.clk.write(false);
    sc_core::sc_start(kHalfPeriod, sc_core::SC_NS);
    net_->bus.clk.write(true);
    sc_core::sc_start(kHalfPeriod, sc_core::SC_NS);
    ++edges_;
  }
  bool busy() override { return net_->bus.busy.read(); }
  bool done() override { return net_->bus.done.read(); }
  bool error() override { return net_->bus.error.read(); }
  void ejects(std::vector<Eject>& out) override {
    net_->visit_ejects([&](int lane, std::uint64_t m) { out.push_back({lane, fmt_.src(m), fmt_.dst(m), fmt_.payload(m)}); });
  }
  int assertion_failures() override { return checks_.count() + (other_failures_ ? other_failures_() : 0); }
  std::uint64_t edges() override { return edges_; }

 private:
  static constexpr double kHalfPeriod = 5;
  const DirectLayout& layout_;
  DirectChecks checks_;
  std::function<int()> other_failures_;
  MsgFormat fmt_;
  std::unique_ptr<DirectNetwork> net_;
  sc_core::sc_trace_file* trace_ = nullptr;
  std::uint64_t edges_ = 0;
};

}  // namespace

std::unique_ptr<DirectDut> make_direct_dut(const Topology& t, const DirectLayout& layout, const std::string& wave,
                                           const std::string& engine, DirectRouterFactory router,
                                           DirectDynRouterFactory dyn_router, std::function<int()> other_failures,
                                           const std::function<void()>& elaborated) {
  return std::make_unique<ScDirectDut>(t, layout, wave, engine, std::move(router), std::move(dyn_router),
                                       std::move(other_failures), elaborated);
}

std::unique_ptr<DirectDut> make_systemc_direct_dut(const Topology& t, const DirectLayout& layout,
                                                   const std::string& wave) {
  return make_direct_dut(t, layout, wave, "systemc", make_systemc_router, make_systemc_dyn_router);
}

}  // namespace totex::sim
