// SPDX-License-Identifier: Apache-2.0
/// The engine registry, the checks every engine shares, and the `ref` engine (the hardware engines
/// are rtl_engine.cpp, systemc_engine.cpp and cosim_engine.cpp).
#include "totex/engines.hpp"

#include <algorithm>
#include <functional>

#include "harness.hpp"
#include "totex/error.hpp"
#include "totex/link_recovery.hpp"
#include "totex/tdm_run.hpp"
#include "totex/verify/message_index.hpp"

namespace totex {
namespace {

/// The reference step model (reference_engine.cpp in totex_core): no clock, no hardware options.
class ReferenceEngine final : public Engine {
 public:
  [[nodiscard]] std::string name() const override { return "ref"; }
  [[nodiscard]] EngineCaps caps() const override {
    EngineCaps c;
    c.periodic = c.recover = true;
    return c;
  }

 protected:
  [[nodiscard]] SimResult run_min(const MinNetwork& net, const MinSchedule& s, const RunOptions& o) const override {
    return run_reference(net, s, o.claimed_steps);
  }
  [[nodiscard]] SimResult run_direct(const Topology& t, const Schedule& s, const RunOptions& o) const override {
    if (o.recover) {  // the stuck link and the swap: link_recovery.cpp's table-level model is the reference
      const LinkFault fault = parse_fault_at(o.fault_at, t, o.tdm.periods);
      const TdmTables tables = recovery_tiles(tdm_tables(t, s, o.tdm.period, o.tdm.payload));
      const RecoveryReference ref = run_recovery_reference(t, tables, fault, o.tdm.periods, o.recover_budget);
      SimResult r;
      r.engine = "ref";
      fill_recovery_result(r, ref, ref.trace, o.tdm.periods);
      return r;
    }
    if (o.tdm.periods > 0) {  // periodic (TDM): tdm_run.cpp; a traffic schedule's pairs from its recorded traffic
      const std::optional<Traffic> traffic = recorded_traffic(t, s);
      return run_reference_periodic(t, s, tdm_tables(t, s, o.tdm.period, o.tdm.payload), o.tdm.periods,
                                    traffic ? &*traffic : nullptr);
    }
    return run_reference(t, s, o.claimed_steps);
  }
};

/// "a, b and c": the registered engines for which `can` holds.
std::string engines_that(const std::function<bool(const EngineCaps&)>& can) {
  std::vector<std::string> names;
  for (const EngineEntry& e : engine_registry())
    if (can(e.make()->caps())) names.emplace_back(e.name);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

/// The options only a clocked model honours.
void check_hardware_options(const Engine& e, const RunOptions& o) {
  if (e.caps().hardware) return;
  const std::string hw = engines_that([](const EngineCaps& c) { return c.hardware; });
  if (o.mode == DirectMode::Dynamic) throw UsageError("--mode dynamic needs a hardware engine (" + hw + "), not " + e.name());
  if (!o.wave.empty()) throw UsageError("--wave needs a hardware engine (" + hw + "), not " + e.name());
  if (o.env.tdm_fault != schema::TdmFault::None)
    throw UsageError("TOTEX_TDM_FAULT=" + schema::enum_name(o.env.tdm_fault) + " injects a fault into the TDM tiles; --engine " +
                     e.name() + " has none (engines " +
                     engines_that([](const EngineCaps& c) { return c.hardware && c.periodic; }) + " do)");
}

/// --periods: the engine, the network and the options must be ones a periodic run has.
void check_periodic_options(const Engine& e, const Network& net, const RunOptions& o) {
  if (!e.caps().periodic)
    throw UsageError("--periods: --engine " + e.name() + " does not run periodic (TDM) exchanges; engines " +
                     engines_that([](const EngineCaps& c) { return c.periodic; }) + " do");
  if (std::holds_alternative<MinNetwork>(net))
    throw UsageError("--periods applies to direct networks (the TDM router tile), not to a MIN");
  if (o.mode == DirectMode::Dynamic) throw UsageError("--periods runs a schedule; --mode dynamic has none");
  if (o.load == schema::LoadPath::Backdoor)
    throw UsageError("--periods: the TDM tile loads its tables through its write port; --load backdoor does not apply");
  check_periodic_memory(std::get<Topology>(net), o.tdm.periods);
}

/// --recover: an engine that has the controller, a periodic nic run of all-to-all, no other fault.
void check_recover_options(const Engine& e, const Network& net, const AnySchedule& schedule, const RunOptions& o) {
  if (!e.caps().recover)
    throw UsageError("--recover: --engine " + e.name() + " has no control port, shadow bank or swap model; engines " +
                     engines_that([](const EngineCaps& c) { return c.recover; }) + " run it");
  if (o.tdm.periods == 0) throw UsageError("--recover runs the TDM tables periodically: give --periods K (or --periodic)");
  if (o.fault_at.empty()) throw UsageError("--recover needs the fault: --fault-at PERIOD:A-B");
  if (o.env.tdm_fault != schema::TdmFault::None)
    throw UsageError("--recover: TOTEX_TDM_FAULT=" + schema::enum_name(o.env.tdm_fault) +
                     " is another fault; unset it (--fault-at is the recovery run's)");
  const auto& t = std::get<Topology>(net);
  if (recorded_traffic(t, std::get<Schedule>(schedule)))
    throw UsageError("--recover: the controller reschedules all-to-all; a schedule of another traffic is not accepted");
}

}  // namespace

void check_periodic_memory(const Topology& t, int periods) {
  const auto p = static_cast<std::uint64_t>(t.processors().size());
  const auto n = static_cast<std::uint64_t>(t.nodes());
  const auto k = static_cast<std::uint64_t>(std::max(periods, 0));
  const std::uint64_t deliveries = p * (p > 0 ? p - 1 : 0) * k;
  // Per period: every delivery's share, and the tables over all node pairs (the scoreboard's seen
  // flags, the reference engine's message positions: kTdmBytesPerNodePair).
  const std::uint64_t per_period = p * (p > 0 ? p - 1 : 0) * kTdmBytesPerDelivery + n * n * kTdmBytesPerNodePair;
  if (k == 0 || per_period == 0 || k <= kMemoryBudgetBytes / per_period) return;
  throw ResourceError("resources: --periods " + std::to_string(periods) + " on " + t.spec() + " checks " +
                      std::to_string(deliveries) + " deliveries, about " + std::to_string(per_period * k >> 20) +
                      " MiB (" + std::to_string(kTdmBytesPerDelivery) + " bytes per delivery, " +
                      std::to_string(kTdmBytesPerNodePair) + " per node pair and period), more than the " +
                      std::to_string(kMemoryBudgetBytes >> 30) + " GiB totex allows itself; at most --periods " +
                      std::to_string(kMemoryBudgetBytes / per_period) + " on this network");
}

SimResult Engine::run(const Network& net, const AnySchedule& schedule, const RunOptions& options) const {
  check_hardware_options(*this, options);
  const bool is_min = std::holds_alternative<MinNetwork>(net);
  if (options.load == schema::LoadPath::Backdoor && !(is_min ? caps().min_backdoor : caps().direct_backdoor))
    throw UsageError("--load backdoor needs --engine " + engines_that([](const EngineCaps& c) { return c.min_backdoor; }) +
                     ", or --engine " +
                     engines_that([](const EngineCaps& c) { return c.direct_backdoor && !c.min_backdoor; }) +
                     " on a direct network; --engine " + name() + (is_min ? " on a MIN" : "") + " accepts --load port");
  if (options.tdm.periods > 0) check_periodic_options(*this, net, options);
  else if (options.env.tdm_fault != schema::TdmFault::None)
    throw UsageError("TOTEX_TDM_FAULT=" + schema::enum_name(options.env.tdm_fault) +
                     " injects a fault into a periodic run of the TDM tiles: give --periods K, or unset it");
  if (options.recover) check_recover_options(*this, net, schedule, options);
  if (const auto* min = std::get_if<MinNetwork>(&net)) return run_min(*min, std::get<MinSchedule>(schedule), options);
  return run_direct(std::get<Topology>(net), std::get<Schedule>(schedule), options);
}

const std::vector<EngineEntry>& engine_registry() {
  static const std::vector<EngineEntry> registry = {
      {"ref", [] { return std::unique_ptr<Engine>(std::make_unique<ReferenceEngine>()); }},
      {"rtl", &hw::make_rtl_engine},
      {"systemc", &hw::make_systemc_engine},
      {"cosim", &hw::make_cosim_engine},
  };
  return registry;
}

std::vector<std::string> engine_names() {
  std::vector<std::string> names;
  for (const EngineEntry& e : engine_registry()) names.emplace_back(e.name);
  return names;
}

std::unique_ptr<Engine> make_engine(const std::string& name) {
  for (const EngineEntry& e : engine_registry())
    if (name == e.name) return e.make();
  std::string accepted;
  for (const std::string& n : engine_names()) accepted += (accepted.empty() ? "" : " | ") + n;
  throw UsageError("engine '" + printable(name) + "' is not accepted; accepted: " + accepted);
}

}  // namespace totex
