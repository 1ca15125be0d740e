// SPDX-License-Identifier: Apache-2.0
// Periodic (TDM) schedules (docs/periodic.md): the table of periodic generators, as the one-shot
// scheduler's (scheduler.cpp). auto runs the entries that apply in table order and keeps the
// first that returns a schedule; --algo NAME runs that entry alone. The constructions come first
// (each at or near the bound in seconds where it applies), the packing search last
// (periodic_packing.cpp); its parts are in periodic_parts.cpp.
#include "totex/generators/periodic.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <stdexcept>

#include "cnf.hpp"
#include "hypercube_doubling.hpp"
#include "hypercube_pipeline.hpp"
#include "mesh_fit.hpp"
#include "octant_pipelines.hpp"
#include "periodic_packing.hpp"
#include "ring_product.hpp"
#include "torus_rotation.hpp"
#include "totex/error.hpp"
#include "totex/generators/traffic_schedule.hpp"
#include "totex/traffic/traffic.hpp"

namespace totex {

bool periodic_translation_invariant_applies(const Topology& t, Model m) {
  if (m == Model::SinglePort || !t.is_product() || t.is_partial()) return false;
  for (const Factor& f : t.factors())  // rings, and single links (a hypercube's complete:2 factors)
    if (f.kind != FactorKind::Ring && f.size != 2) return false;
  return true;
}

namespace periodic {

std::string terms_at(const LowerBound& lb) {
  std::string names;
  for (const BoundTerm& term : lb.terms)
    if (term.value == lb.steps) names += (names.empty() ? "" : ", ") + term.name;
  return names;
}

std::string seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()).substr(0, 5) + " s";
}

Run::Run(const Topology& topo, Model model, const PeriodicRequest& r)
    : t(topo),
      m(model),
      request(r),
      algo(r.algorithm.empty() ? std::string("auto") : r.algorithm),
      nic(model == Model::Nic),
      budget(r.budget_seconds > 0 ? r.budget_seconds : 4.0) {
  out.bound = periodic_lower_bound(lower_bound(t, m));
  bound = static_cast<int>(out.bound.steps);
}

void Run::prove_if_at_bound(int period) {
  if (period != bound) return;
  out.proven_optimal = true;
  out.proof_general = true;
  out.proof_scope = "general";
  out.proof = "proven optimal: equals the period bound " + std::to_string(bound) + " (" + terms_at(out.bound) + ")";
}

PeriodicOutcome list_outcome(Run& run, Schedule s) {
  run.out.algorithm = "periodic-list";
  run.out.translation_invariant = false;
  const int period = s.period;
  run.out.schedule = std::move(s);
  run.out.schedule.algorithm = run.out.algorithm;
  run.out.schedule.traffic = {};  // `all`: the file is today's
  run.prove_if_at_bound(period);
  return run.out;
}

PeriodicOutcome Run::constructed(std::vector<PlacedPattern> patterns, const std::string& algorithm, int period) {
  out.algorithm = algorithm;
  out.translation_invariant = true;
  out.schedule = pattern_schedule_of(t, m, std::move(patterns), algorithm);
  out.schedule.period = period;
  prove_if_at_bound(period);
  return out;
}

namespace {

/// A one-shot schedule of T steps repeated every T steps (its hops all lie in steps 0 .. T-1 and
/// its starts and ends are distinct there, so each slot modulo T holds each link and NIC port once).
PeriodicOutcome repeated_one_shot(Run& run, Schedule s, std::vector<std::string>& lines, const std::string& name,
                                  bool translation_invariant) {
  run.out.translation_invariant = translation_invariant;
  run.out.schedule = std::move(s);
  run.out.schedule.period = static_cast<int>(run.out.schedule.step_count());
  for (std::string& line : lines) run.out.log.push_back(line);
  run.out.log.push_back(name + ": period " + std::to_string(run.out.schedule.period) + " (its one-shot steps)");
  run.out.algorithm = "periodic-" + name;
  run.prove_if_at_bound(run.out.schedule.period);
  return run.out;
}

/// One periodic generator: a table entry.
struct PeriodicGenerator {
  std::string name;  // the --algo name (and how the table names it)
  bool named;        // --algo NAME runs it (xyfit and auto's packing are auto's only)
  bool packing;      // one of the packing search's modes (listed first in the --algo error)
  /// Empty when it applies, else why not: --algo NAME then fails with "--periodic --algo NAME
  /// <why> (T)".
  std::function<std::string(const Run&)> why_not;
  /// Whether auto runs it where it applies.
  std::function<bool(const Run&)> in_auto;
  double budget_share;  // of --budget, the counted work it is given (0: a construction, no search)
  /// The outcome, or nullopt when nothing was found and auto goes on (a named run throws instead).
  std::function<std::optional<PeriodicOutcome>(Run&, double budget, bool named)> run;
};

const auto always = [](const Run&) { return true; };
const auto applies = [](const Run&) { return std::string(); };

// The quarter-turn construction (torus_rotation.hpp) where it applies (K >= 11 other than 12): at
// the bound on odd sides and, with the SAT repair, on even ones, in seconds; the packings scored
// 1.07-1.09 of the bound on torus:13x13..16x16 in a default budget (docs/periodic.md), so auto
// stops here.
std::optional<PeriodicOutcome> run_rotation(Run& run, double, bool) {
  // Even sides repair the core by SAT (20 s of counted work); large sides take long to build.
  const int k = run.t.factors().front().size;
  run.stage("rotation construction: four quarter-turned streams" +
                std::string(k % 2 == 0 ? ", then a SAT repair at the bound (about 20 s of work)" : ""),
            k % 2 == 0 || run.t.nodes() > 1024 ? 20.0 : 0.0);
  RotationPlan plan = rotation_patterns(run.t, run.m, true);
  const std::int64_t period = plan.steps;
  for (const std::string& line : plan.log) {
    run.out.log.push_back("rotation: " + line);
    if (line.find(kCappedNote) != std::string::npos) run.capped("rotation: " + line);
  }
  run.out.log.push_back("rotation: period " + std::to_string(period) + " (" + std::to_string(plan.tail_routes) +
                        " offset(s) beyond the core, " +
                        (plan.repaired ? std::string("placed by the SAT repair at the bound")
                                       : "fitted around the core, " + std::to_string(plan.idle_routes) +
                                             " core slot(s) idle") +
                        ")");
  return run.constructed(std::move(plan.patterns), "periodic-rotation", static_cast<int>(period));
}

// The pipeline construction on nic hypercubes (hypercube_pipeline.hpp): period N - 1, the bound,
// with detours where minimal routes cannot add up to it; the packing stops at N (slot sums).
std::optional<PeriodicOutcome> run_pipeline(Run& run, double, bool named) {
  if (auto patterns = hypercube_pipeline_periodic_patterns(run.t)) {
    const int period = run.t.nodes() - 1;
    run.out.log.push_back("pipeline: period " + std::to_string(period) + " (every NIC injects and ejects in every slot)");
    return run.constructed(std::move(*patterns), "periodic-pipeline", period);
  }
  if (named)
    throw UsageError("--periodic --algo pipeline found no schedule of period N - 1 for " + run.t.spec() +
                     " (hypercube:4: the detours fill every link; past hypercube:11 not run); use --algo auto");
  run.out.log.push_back("pipeline: no schedule of period N - 1; the packing follows");
  return std::nullopt;
}

// The ring product (ring_product.hpp) on tori of three or more dimensions: a ring times a
// translation-invariant schedule of the other dimensions, at the bound on torus:8x8x8 in about a
// second where the packing starts from a first fit of 617. Kept unless the packing does better.
// Built under nic for all-port too (a nic schedule keeps all-port's rules modulo the period),
// where nic's period bound is all-port's, so that the product can reach it: torus:8x8x8 at 512 in
// a second (the packing: 540 in 38 s); not torus:4x4x4 (nic 64, all-port 32).
std::string product_why_not(const Run& run) {
  return run.m == Model::AllPort && periodic_lower_bound(lower_bound(run.t, Model::Nic)).steps > run.bound
             ? std::string("reaches at best nic's period bound, above all-port's here")
             : ring_product_why_not(run.t, run.m);
}
std::optional<PeriodicOutcome> run_product(Run& run, double budget, bool named) {
  run.stage("ring product", budget);
  run.product = ring_product_periodic(run.t, run.m, budget);
  for (const std::string& line : run.product.log) run.out.log.push_back("product: " + line);
  if (run.product.capped) run.capped("product: a SAT call was stopped by its wall-clock safety cap");
  // (also where the packing would refuse the size)
  if (run.product.period > 0 && (named || run.product.period == run.bound || run.t.nodes() > 1024))
    return run.constructed(std::move(run.product.patterns), "periodic-product", run.product.period);
  if (named)
    throw UsageError("--periodic --algo product found no period for " + run.t.spec() + " within its budget; use --algo auto");
  return std::nullopt;  // the packing compares its period with the product's
}

// Cubes KxKxK past the translation-invariant packing's 1024 nodes (or named): the octant
// pipelines' one-shot schedule of T steps repeated every T steps: torus:12x12x12 period 2639,
// torus:16x16x16 8214 (period bounds 2592 and 8192), where --periodic refused.
std::optional<PeriodicOutcome> run_octant(Run& run, double budget, bool) {
  run.stage("octant pipelines' one-shot schedule, repeated every period", budget);
  std::vector<std::string> lines;
  Schedule s = octant_schedule(run.t, run.m, budget, lines);
  return repeated_one_shot(run, std::move(s), lines, "octant", true);
}

// 2-D and 3-D meshes past the per-message packing's size: xyfit's one-shot schedule repeated every
// T steps: mesh:32x32 period 8317 against the period bound 8192, where --periodic refused.
std::optional<PeriodicOutcome> run_xyfit(Run& run, double, bool) {
  run.stage("xyfit's one-shot schedule, repeated every period", 0);
  std::vector<std::string> lines;
  Schedule s = mesh_fit_schedule(run.t, run.m, lines);
  return repeated_one_shot(run, std::move(s), lines, "xyfit", false);
}

std::optional<PeriodicOutcome> run_packing(Run& run, double, bool) { return periodic::packing_schedule(run); }

// Networks with failed links or nodes: the traffic list scheduler on `all` (negotiated placement,
// started from the base network's periodic schedule; docs/traffic.md, "Schedules"):
// torus:8x8~fail:0-1 nic period 72 where the per-message packing gives 77 (bound 69). Kept when
// it meets the bound, else the packing compares its period with the list's.
std::optional<PeriodicOutcome> run_list(Run& run, double, bool named) {
  run.stage("the list scheduler on every pair, negotiated placement", run.request.budget_seconds > 0 ? run.request.budget_seconds : 8.0);
  TrafficRequest r;
  r.algorithm = "list";
  r.periodic = true;
  r.budget_seconds = run.request.budget_seconds;  // 0: the list's default, from the flits
  TrafficOutcome o = schedule_traffic(run.t, run.m, parse_traffic("all", run.t), r);
  for (const std::string& line : o.log) run.out.log.push_back(line);
  if (named || o.length == run.bound) return list_outcome(run, std::move(o.schedule));
  run.list = std::move(o.schedule);
  return std::nullopt;
}

const std::vector<PeriodicGenerator>& periodic_generators() {
  static const std::vector<PeriodicGenerator> table = {
      {"rotation", true, false, [](const Run& r) { return rotation_why_not(r.t); }, always, 0, run_rotation},
      {"pipeline", true, false,
       [](const Run& r) {
         return r.nic && hypercube_doubling_applies(r.t) ? std::string()
                                                         : "needs a hypercube with a processor at every node, under nic";
       },
       always, 0, run_pipeline},
      {"product", true, false, product_why_not, always, 1, run_product},
      {"octant", true, false, [](const Run& r) { return octant_why_not(r.t, r.m); },
       [](const Run& r) { return r.t.nodes() > 1024; }, 1, run_octant},
      {"xyfit", false, false,
       [](const Run& r) {
         return !periodic_translation_invariant_applies(r.t, r.m) && r.t.nodes() > 256 ? mesh_fit_why_not(r.t)
                                                                                        : "meshes past 256 nodes only";
       },
       always, 0, run_xyfit},
      {"list", true, false,
       [](const Run& r) { return r.t.is_degraded() ? std::string() : "needs a network with failed links or nodes (~fail:, --fail, graph:)"; },
       always, 1, run_list},
      {"greedy", true, true, applies, [](const Run&) { return false; }, 1, run_packing},
      {"exact", true, true, applies, [](const Run&) { return false; }, 1, run_packing},
      {"packing", false, true, applies, always, 1, run_packing},
  };
  return table;
}

/// "auto | greedy | exact | rotation | pipeline | product | octant": the packing's modes first.
std::string accepted_names() {
  std::string names = "auto";
  for (const bool packing : {true, false})
    for (const PeriodicGenerator& g : periodic_generators())
      if (g.named && g.packing == packing) names += " | " + g.name;
  return names;
}

}  // namespace
}  // namespace periodic

PeriodicOutcome periodic_schedule(const Topology& t, Model m, const PeriodicRequest& r) {
  using periodic::PeriodicGenerator;
  if (m == Model::SinglePort)
    throw UsageError("--periodic: applies to the nic and all-port models (single-port buffers at relays), not single-port");
  if (t.is_partial()) throw UsageError("--periodic: a partially populated torus is not supported");
  t.require_two_way("the periodic all schedules");
  periodic::Run run(t, m, r);
  const auto& table = periodic::periodic_generators();
  if (run.algo != "auto") {
    const auto g = std::find_if(table.begin(), table.end(),
                                [&](const PeriodicGenerator& x) { return x.named && x.name == run.algo; });
    if (g == table.end())
      throw UsageError("--algo '" + printable(run.algo) + "' is not available with --periodic: expected " +
                       periodic::accepted_names());
    if (const std::string why = g->why_not(run); !why.empty())
      throw UsageError("--periodic --algo " + g->name + " " + why + " (" + t.spec() + ")");
    if (auto o = g->run(run, g->budget_share * run.budget, true)) return std::move(*o);
    throw std::logic_error("periodic generator " + g->name + " returned nothing");
  }
  for (const PeriodicGenerator& g : table) {
    if (!g.in_auto(run) || !g.why_not(run).empty()) continue;
    if (auto o = g.run(run, g.budget_share * run.budget, false)) return std::move(*o);
  }
  throw std::logic_error("the periodic packing returned nothing");  // its entry applies everywhere
}

}  // namespace totex
