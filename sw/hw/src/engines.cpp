// SPDX-License-Identifier: Apache-2.0
/// The engine factory and the `ref` engine (the hardware engines are rtl_engine.cpp,
/// systemc_engine.cpp and cosim_engine.cpp).
#include "totex/engines.hpp"

#include <algorithm>

#include "harness.hpp"
#include "totex/error.hpp"
#include "totex/tdm_run.hpp"

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
    if (o.periods > 0)  // periodic (TDM): tdm_run.cpp
      return run_reference_periodic(t, s, tdm_tables(t, s, o.period, o.payload_bits > 0 ? o.payload_bits : 32), o.periods);
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
  // The backdoor writes the models' memories directly: the Verilated ones (rtl) and the SystemC
  // direct network's (its MIN model has none).
  const bool backdoor_ok = name() == "rtl" || (name() == "systemc" && std::holds_alternative<Topology>(net));
  if (options.backdoor_load && !backdoor_ok)
    throw UsageError("--load backdoor needs --engine rtl, or --engine systemc on a direct network; --engine " + name() +
                     (std::holds_alternative<MinNetwork>(net) ? " on a MIN" : "") + " accepts --load port");
  if (options.periods > 0 || options.payload_bits > 0 || options.period > 0) {  // periodic TDM runs (tdm_run.hpp)
    const auto& engines = periodic_engine_names();
    std::string accepted;  // "ref, rtl and systemc"
    for (std::size_t i = 0; i < engines.size(); ++i)
      accepted += (i == 0 ? "" : i + 1 == engines.size() ? " and " : ", ") + engines[i];
    if (options.periods <= 0) throw UsageError("--payload and --period apply to periodic runs (--periods K) only");
    const auto& names = periodic_engine_names();
    if (std::find(names.begin(), names.end(), name()) == names.end())
      throw UsageError("--periods: --engine " + name() + " does not run periodic (TDM) exchanges; engines " + accepted +
                       " do");
    if (std::holds_alternative<MinNetwork>(net))
      throw UsageError("--periods applies to direct networks (the TDM router tile), not to a MIN");
    if (options.mode == DirectMode::Dynamic) throw UsageError("--periods runs a schedule; --mode dynamic has none");
    if (options.backdoor_load) throw UsageError("--periods: the TDM tile loads its tables through its write port; --load backdoor does not apply");
  }
  if (const auto* min = std::get_if<MinNetwork>(&net)) return run_min(*min, std::get<MinSchedule>(schedule), options);
  return run_direct(std::get<Topology>(net), std::get<Schedule>(schedule), options);
}

const std::vector<std::string>& periodic_engine_names() {
  static const std::vector<std::string> names = {"ref", "rtl", "systemc"};
  return names;
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
