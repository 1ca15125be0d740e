// SPDX-License-Identifier: Apache-2.0
/// The engine factory and the `ref` engine (the hardware engines are rtl_engine.cpp,
/// systemc_engine.cpp and cosim_engine.cpp).
#include "totex/engines.hpp"

#include "harness.hpp"
#include "totex/error.hpp"

namespace totex {
namespace {

/// The reference step model (reference_engine.cpp in totex_core): no clock, no hardware options.
class ReferenceEngine final : public Engine {
 public:
  [[nodiscard]] std::string name() const override { return "ref"; }

 protected:
  [[nodiscard]] SimResult run_min(const MinNetwork& net, const MinSchedule& s, const RunOptions& o) const override {
    refuse_hardware_options(o);
    return run_reference(net, s, o.claimed_steps);
  }
  [[nodiscard]] SimResult run_direct(const Topology& t, const Schedule& s, const RunOptions& o) const override {
    refuse_hardware_options(o);
    return run_reference(t, s, o.claimed_steps);
  }

 private:
  static void refuse_hardware_options(const RunOptions& o) {
    if (o.mode == DirectMode::Dynamic) throw UsageError("--mode dynamic needs a hardware engine (rtl), not ref");
    if (!o.wave.empty()) throw UsageError("--wave needs a hardware engine (rtl), not ref");
  }
};

}  // namespace

SimResult Engine::run(const Network& net, const AnySchedule& schedule, const RunOptions& options) const {
  if (options.backdoor_load && name() != "rtl")
    throw UsageError("--load backdoor needs --engine rtl (the Verilated model's public memories); --engine " + name() +
                     " accepts --load port");
  if (const auto* min = std::get_if<MinNetwork>(&net)) return run_min(*min, std::get<MinSchedule>(schedule), options);
  return run_direct(std::get<Topology>(net), std::get<Schedule>(schedule), options);
}

const std::vector<std::string>& engine_names() {
  static const std::vector<std::string> names = {"ref", "rtl", "systemc", "cosim"};
  return names;
}

std::unique_ptr<Engine> make_engine(const std::string& name) {
  if (name == "ref") return std::make_unique<ReferenceEngine>();
  if (name == "rtl") return hw::make_rtl_engine();
  if (name == "systemc") return hw::make_systemc_engine();
  if (name == "cosim") return hw::make_cosim_engine();
  std::string accepted;
  for (const std::string& n : engine_names()) accepted += (accepted.empty() ? "" : " | ") + n;
  throw UsageError("engine '" + printable(name) + "' is not accepted; accepted: " + accepted);
}

}  // namespace totex
