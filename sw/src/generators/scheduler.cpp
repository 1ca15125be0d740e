// SPDX-License-Identifier: Apache-2.0
#include "totex/generators/scheduler.hpp"
#include "totex/generators/traffic_schedule.hpp"
#include "totex/traffic/traffic.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>

#include "totex/generators/a2.hpp"
#include "totex/bounds/bounds.hpp"
#include "totex/network/distance.hpp"
#include "totex/error.hpp"
#include "totex/generators/exact.hpp"
#include "totex/io/exchange_table.hpp"
#include "totex/generators/generators.hpp"
#include "hypercube_doubling.hpp"
#include "hypercube_pipeline.hpp"
#include "mesh_fit.hpp"
#include "mesh_symmetry.hpp"
#include "totex/generators/metacube.hpp"
#include "pattern_schedule.hpp"
#include "octant_pipelines.hpp"
#include "ring_product.hpp"
#include "torus_rotation.hpp"
#include "totex/network/placement.hpp"
#include "totex/progress.hpp"
#include "product_routes.hpp"
#include "totex/verify/verify.hpp"

namespace totex {
namespace {

using Clock = std::chrono::steady_clock;

/// auto runs the exact solver after the heuristics on networks up to this size (ring:16 takes
/// seconds; torus:8x8 would not finish in a default budget).
constexpr int kAutoExactMaxNodes = 16;
/// Outside the families, one-shot goes through the periodic search (unrolled) when the bound is at
/// least this many times the farthest two processors' distance (torus:16x16~fail:0-1: 529 against
/// 17; torus:8x8~fail:0-1, 69 against 9, keeps the one-shot search: unrolling forced there gave the
/// same 73, period 71 unrolled to 74, measured 2026-11-30).
constexpr std::int64_t kUnrollRatio = 20;

/// auto runs pairwise after a kept schedule on networks outside the families (degraded, graph
/// files) up to this size (torus:32x32~fail:0-1: 34 s, too long for a default run).
constexpr int kAutoPairwiseGraphNodes = 256;

bool is_torus_with_equal_sides(const Topology& t) {
  if (!t.is_product() || t.factors().size() < 2) return false;
  for (const Factor& f : t.factors())
    if (f.kind != FactorKind::Ring || f.size < 3 || f.size != t.factors().front().size) return false;
  return true;
}

/// A generator: whether it applies (empty = yes, else why not) and how to run it.
struct Generator {
  std::string name;
  std::function<std::string(const Topology&, Model)> why_not;
  std::function<Schedule(const Topology&, Model, double budget, std::vector<std::string>& log)> run;
  int weight = 0;  // > 0: searches; auto gives it this share of the budget (its work, not time)
};

std::string needs_full(const Topology& t) {
  return t.is_partial() ? "schedules every node, not the processors of a placed torus" : "";
}

/// The list scheduler's resource look-ups per budget second (traffic_schedule.cpp uses the same).
constexpr double kListLookupsPerSecond = 40e6;

const std::vector<Generator>& generators() {
  static const std::vector<Generator> all = {
      {"table",
       [](const Topology& t, Model m) -> std::string {
         if (m != Model::AllPort) return "is an all-port algorithm (paper 001)";
         if (t.is_partial() || !make_exchange_table(t)) return "covers " + exchange_table_support();
         return "";
       },
       [](const Topology& t, Model, double, std::vector<std::string>&) {
         Schedule s = expand_exchange_table(t, require_exchange_table(t));
         s.algorithm = "table";
         return s;
       }},
      {"a2",
       [](const Topology& t, Model m) -> std::string {
         if (m != Model::SinglePort) return "is a single-port algorithm (paper 000)";
         if (!t.is_product()) return "needs a cartesian product";
         return needs_full(t);
       },
       [](const Topology& t, Model, double, std::vector<std::string>&) { return a2_schedule(t); }},
      {"metacube-firstfit",
       [](const Topology& t, Model m) -> std::string {
         if (m != Model::Nic) return "runs under the nic model (paper 003)";
         if (!t.is_metacube()) return "needs a metacube";
         return "";
       },
       [](const Topology& t, Model, double, std::vector<std::string>&) {
         return metacube_schedule(t, MetacubeOrder::FirstFit);
       }},
      {"metacube",
       [](const Topology& t, Model m) -> std::string {
         if (m != Model::Nic) return "runs under the nic model (paper 003)";
         if (!t.is_metacube()) return "needs a metacube";
         return "";
       },
       [](const Topology& t, Model, double, std::vector<std::string>&) {
         return metacube_schedule(t, MetacubeOrder::Paper);
       }},
      {"doubling",
       [](const Topology& t, Model m) -> std::string {
         if (m != Model::AllPort) return "is an all-port construction";
         if (!hypercube_doubling_applies(t)) return "needs a hypercube with a processor at every node";
         return "";
       },
       [](const Topology& t, Model m, double, std::vector<std::string>& log) {
         const auto patterns = hypercube_doubling_patterns(t);
         if (!patterns) {  // never seen; the verifier would then reject the fallback below
           log.push_back("doubling: no perfect matching at some doubling step");
           return Schedule{t.spec(), m, "doubling", {}};
         }
         return pattern_schedule_of(t, m, std::move(*patterns), "doubling");
       }},
      {"pipeline",
       [](const Topology& t, Model m) -> std::string {
         if (m != Model::Nic) return "is a nic construction";
         return hypercube_pipeline_why_not(t);
       },
       [](const Topology& t, Model m, double, std::vector<std::string>& log) {
         auto patterns = hypercube_pipeline_patterns(t);
         if (!patterns) {  // no seed routed every slot (never seen): the verifier rejects the empty schedule
           log.push_back("pipeline: no route order found for " + t.spec());
           return Schedule{t.spec(), m, "pipeline", {}};
         }
         return pattern_schedule_of(t, m, std::move(*patterns), "pipeline");
       }},
      {"rotation",
       [](const Topology& t, Model m) -> std::string {
         if (m == Model::SinglePort) return "schedules all-port and nic";
         return rotation_why_not(t);
       },
       [](const Topology& t, Model m, double, std::vector<std::string>& log) {
         std::vector<std::string> lines;
         Schedule s = rotation_schedule(t, m, lines);
         for (std::string& line : lines) log.push_back("rotation: " + line);
         return s;
       }},
      {"product",
       [](const Topology& t, Model m) -> std::string { return ring_product_why_not(t, m); },
       [](const Topology& t, Model m, double budget, std::vector<std::string>& log) {
         return ring_product_schedule(t, m, budget, log);
       },
       // Mostly construction: an eighth of pattern's share finds every plan it finds at the
       // default (torus:8x8x8 at budget 0.5: 517 in 1.6 s), and pattern keeps its share where the
       // product finds none (torus:16x16x16).
       1},
      {"octant",
       [](const Topology& t, Model m) -> std::string { return octant_why_not(t, m); },
       [](const Topology& t, Model m, double budget, std::vector<std::string>& log) {
         return octant_schedule(t, m, budget, log);
       },
       // A construction tried with several seeds (about 0.4 to 0.8 s each on torus:12x12x12 and
       // 16x16x16): a share of 3 lets auto try four on torus:12x12x12, where one seed may end
       // 1.022 x the bound and four reach 1.016 (docs/scale.md#octant-pipelines-3-d-cubes).
       3},
      {"pattern",
       [](const Topology& t, Model m) -> std::string {
         if (m == Model::SinglePort) return "schedules all-port and nic";
         if (!pattern_model_applies(t)) return "needs a product of rings and complete graphs, every node a processor";
         return "";
       },
       [](const Topology& t, Model m, double budget, std::vector<std::string>& log) {
         PatternOptions o;
         o.time_budget_seconds = budget;
         PatternResult r = pattern_schedule(t, m, o);
         for (std::string& line : r.log) log.push_back("pattern: " + line);
         return r.schedule;
       },
       7},
      {"xyfit",
       [](const Topology& t, Model m) -> std::string {
         if (m == Model::SinglePort) return "schedules all-port and nic";
         return mesh_fit_why_not(t);
       },
       [](const Topology& t, Model m, double, std::vector<std::string>& log) { return mesh_fit_schedule(t, m, log); }},
      {"greedy",
       [](const Topology& t, Model m) -> std::string {
         if (m == Model::SinglePort) return "schedules all-port and nic";
         if (!t.is_product()) return "needs a cartesian product";
         return "";
       },
       [](const Topology& t, Model m, double budget, std::vector<std::string>&) {
         return flexible_greedy_schedule(t, m, budget, "greedy");
       },
       1},
      {"symmetric",
       [](const Topology& t, Model m) -> std::string {
         if (m == Model::SinglePort) return "schedules all-port and nic";
         if (mesh_rotations(t).size() < 2) return "needs a mesh with an even side, every node a processor";
         return "";
       },
       [](const Topology& t, Model m, double budget, std::vector<std::string>& log) {
         std::vector<std::string> lines;
         Schedule s = flexible_greedy_schedule(t, m, budget, "symmetric", 1, mesh_rotations(t), &lines);
         for (std::string& line : lines) log.push_back("symmetric: " + line);
         return s;
       },
       7},
      {"udr",
       [](const Topology& t, Model) -> std::string {
         return is_torus_with_equal_sides(t) ? "" : "needs a torus KxK[x...] with equal sides K >= 3";
       },
       [](const Topology& t, Model m, double, std::vector<std::string>&) {
         return dimension_order_schedule(t, m, Routing::Udr);
       }},
      {"odr",
       [](const Topology& t, Model) -> std::string {
         return is_torus_with_equal_sides(t) ? "" : "needs a torus KxK[x...] with equal sides K >= 3";
       },
       [](const Topology& t, Model m, double, std::vector<std::string>&) {
         return dimension_order_schedule(t, m, Routing::Odr);
       }},
      {"list",  // networks outside the families (degraded, graph files): docs/traffic.md, "Schedules"
       [](const Topology& t, Model) -> std::string {
         if (t.is_product() || t.is_metacube()) return "schedules networks outside the families (degraded networks, graph files)";
         return t.nodes() <= kMaxTrafficNodes ? "" : "at most " + std::to_string(kMaxTrafficNodes) + " nodes";
       },
       [](const Topology& t, Model m, double budget, std::vector<std::string>& log) {
         const Traffic everyone = parse_traffic("all", t);
         const std::int64_t floor = lower_bound(t, m).steps;
         // Where the bound is long against the routes, the periodic search's schedule unrolled
         // (unroll_periodic: its period plus a few steps) is a shorter start than the one-shot
         // search's: half the budget goes to the periodic search (whose own start is the one-shot
         // list schedule, which the unrolling never exceeds), half to shortening the unrolled
         // schedule. torus:16x16~fail:0-1 nic: 546 steps (period 545 unrolled to 551; bound 529),
         // where the one-shot search alone gave 565.
         if ((m == Model::Nic || m == Model::AllPort) && floor >= kUnrollRatio * farthest_from(t, t.processors(), t.processors())) {
           TrafficRequest periodic;
           periodic.algorithm = "list";
           periodic.periodic = true;
           periodic.budget_seconds = budget / 2;
           TrafficOutcome o = schedule_traffic(t, m, everyone, periodic);
           const Schedule unrolled = unroll_periodic(o.schedule);
           // The other half shortens it: the negotiated placement under a horizon (torus:16x16~fail:0-1,2-18
           // nic: period 559 unrolled to 566, shortened to 556; with 90 % for the periodic search,
           // period 554, 562, and nothing shorter).
           std::int64_t work = 0;
           Schedule s = list_schedule(t, m, everyone, 0, 6, 1, &work, static_cast<std::int64_t>(budget / 2 * kListLookupsPerSecond),
                                      &unrolled, floor, 0, &log, false, start_budget_seconds(budget));
           log.push_back("list: the periodic search's period " + std::to_string(o.length) + ", unrolled: " +
                         std::to_string(unrolled.step_count()) + " steps, shortened: " + std::to_string(s.step_count()));
           s.algorithm = "list";
           return s;
         }
         std::int64_t work = 0;
         Schedule s = list_schedule(t, m, everyone, 0, 6, 1, &work, 0, nullptr, 0, 0, nullptr, false, start_budget_seconds(budget));
         // As many priority orders as the budget's look-ups allow (each costs about the first).
         const auto allowed = static_cast<std::int64_t>(budget * kListLookupsPerSecond);
         const int orders = static_cast<int>(std::min<std::int64_t>(8, std::max<std::int64_t>(1, allowed / 2 / std::max<std::int64_t>(work, 1))));
         // Half the budget for the orders, the rest to shorten the best under a horizon down from the
         // bound (the negotiated placement; torus:8x8~fail:0-1,9-17 nic 76 -> 75).
         const std::int64_t shorten = std::max<std::int64_t>(0, allowed - work * (orders + 1));
         if (orders > 1 || (shorten > 0 && static_cast<std::int64_t>(s.step_count()) > floor))
           s = list_schedule(t, m, everyone, 0, 6, orders, &work, shorten, nullptr, floor, 0, &log, false, start_budget_seconds(budget));
         log.push_back("list: " + std::to_string(orders) + " priority orders, " + std::to_string(work) + " look-ups");
         s.algorithm = "list";
         return s;
       },
       1},
      {"pairwise", [](const Topology&, Model) -> std::string { return ""; },
       [](const Topology& t, Model m, double, std::vector<std::string>&) { return pairwise_schedule(t, m); }},
  };
  return all;
}

/// The cost of a generator's pass that its budget does not limit, estimated before it starts from
/// the total hop count (processor status) times the bound's steps, so that auto can skip and an
/// explicit --algo can refuse a run that would take minutes. Measured (nic, 2-core machine):
///   greedy and symmetric place every message at its earliest fit before any search: about 3.5e8
///   hop-steps per CPU second on square meshes (path:12..20 squared: 0.20 s, 1.8 s, 11 s), four
///   times fewer items for symmetric on a square mesh; on tori fewer, and fewer as they grow
///   (torus:12x12 1.7e8, 16x16 2.0e8 per CPU second; torus:24x24 took 209 s for 6.9e9 on a loaded
///   machine, where 3.5e8 had estimated 20 s), so 1e8 where a factor is a ring;
///   udr and odr build each dimension-order route and pack it step by step: about 7e7 hop-steps
///   per second on tori (12x12 0.56 s, 16x16 5.7 s, 20x20 24.8 s, 32x32 509 s; estimates 0.3, 3.2,
///   23 and 980 s), so the estimate errs long for the largest.
/// 0 for the generators whose every pass the budget limits.
double first_pass_seconds(const std::string& generator, const Topology& t, const LowerBound& lb) {
  constexpr double kGreedyHopStepsPerSecond = 3.5e8;
  constexpr double kGreedyRingHopStepsPerSecond = 1e8;
  constexpr double kDimensionOrderHopStepsPerSecond = 7e7;
  const double hop_steps = static_cast<double>(processor_status(t)) * static_cast<double>(lb.steps);
  if (generator == "udr" || generator == "odr") return hop_steps / kDimensionOrderHopStepsPerSecond;
  const bool has_ring = t.is_product() && std::any_of(t.factors().begin(), t.factors().end(),
                                                      [](const Factor& f) { return f.kind == FactorKind::Ring; });
  if (generator == "greedy") return hop_steps / (has_ring ? kGreedyRingHopStepsPerSecond : kGreedyHopStepsPerSecond);
  // xyfit: 1.4e11 to 2e11 hop-steps per second in its first pass (mesh:32x32 1.3 s, mesh:48x48
  // about 25 s, mesh:64x64 about 240 s, on this 2-core machine); its second pass runs only where
  // the first is short (mesh_fit.hpp). On three dimensions six route orders instead of two:
  // mesh:16x16x16 nic took 172 s (write and verification included), 27 s at the 2-D rate.
  if (generator == "xyfit") return hop_steps / 1.6e11 * (t.factors().size() == 3 ? 6.0 : 1.0);
  if (generator == "symmetric")
    return hop_steps / kGreedyHopStepsPerSecond / static_cast<double>(mesh_rotations(t).size());
  return 0;
}

/// auto leaves out a generator whose schedule would hold more memory than this (issue 29: N = 4096
/// in <= 2 GB): every generator but the constructions below holds each transfer (sizeof(Transfer)
/// bytes, the step vectors about doubling it), at least the processor status of them.
constexpr double kAutoScheduleBytes = 2.0 * (1 << 30);
bool holds_every_transfer(const std::string& generator) {
  return generator != "rotation" && generator != "pattern" && generator != "doubling" && generator != "pipeline" &&
         generator != "a2" && generator != "product" && generator != "octant" && generator != "xyfit" &&
         generator != "table";
}

/// Every schedule of the exchange crosses at least the processor status in links, and each is
/// verified by a replay (kReplayTransfersPerSecond): a network whose replay alone would take more
/// than the run limit is refused before any generator starts, under auto as under a named --algo.
void refuse_past_replay_limit(const Topology& t, const RunLimits& limits) {
  const double transfers = static_cast<double>(processor_status(t));
  const double seconds = transfers / kReplayTransfersPerSecond;
  if (seconds <= limits.seconds) return;
  char text[200];
  std::snprintf(text, sizeof text, "every schedule crosses at least %.3g links (the status), about %.0f s to verify",
                transfers, seconds);
  throw ResourceError("resources: scheduling " + t.spec() + ": " + text + ", more than the " + limit_text(limits) +
                      " totex allows itself; " + limits.how_to_raise + " to run it");
}

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string bound_proof(const LowerBound& lb) {
  for (const BoundTerm& term : lb.terms)
    if (term.value == lb.steps) return "meets the lower bound " + std::to_string(lb.steps) + " (" + term.name + ")";
  return "meets the lower bound " + std::to_string(lb.steps);
}

ScheduleOutcome run_exact(const Topology& t, Model m, const ScheduleRequest& r, const LowerBound& lb,
                          std::optional<Schedule> incumbent) {
  ExactOptions o;
  o.time_budget_seconds = r.budget_seconds;
  o.incumbent = std::move(incumbent);
  const ExactResult e = exact_schedule(t, m, o);
  ScheduleOutcome out;
  out.lower_bound = lb.steps;
  out.log = e.log;
  out.algorithm = e.schedule ? e.schedule->algorithm : "exact";
  Attempt a{"exact", e.steps > 0 ? e.steps : 0, e.schedule.has_value(), e.seconds,
            to_string(e.status) + (e.stopped_because.empty() ? "" : ": " + e.stopped_because)};
  out.tried.push_back(a);
  if (!e.schedule)
    throw UsageError("--algo exact found no schedule within its limits (" +
                     (e.stopped_because.empty() ? to_string(e.status) : e.stopped_because) +
                     "): raise --budget, or use --algo auto");
  out.schedule = *e.schedule;
  out.report = verify(t, out.schedule, std::nullopt, r.limits);
  out.proven_optimal = e.status == ExactStatus::Optimal;
  out.proof = e.proof;
  return out;
}

}  // namespace

std::string direct_algorithm_help() {
  return "auto (default: every generator that applies, best verified kept) | rotation (all-port, nic: tori KxK, K >= 11 "
         "other than 12; four quarter-turned streams, every link busy) | pattern (all-port, nic: tori, rings, hypercubes, "
         "ghc) | product (nic, all-port: tori of 3 or more dimensions; a ring times a periodic schedule of the rest, built "
         "under nic) | octant (nic, all-port: tori KxKxK, K >= 6; Eulerian walks in octant and quadrant pipelines, every link "
         "busy in nearly every step) | xyfit (all-port, nic: 2-D and 3-D meshes; dimension-ordered routes, longest first at the earliest free step) | greedy (all-port, nic: any product, meshes) | symmetric (all-port, nic: meshes with an even side; greedy over rotation orbits, then SAT on the tail) | exact (all-port, nic: "
         "SAT, small networks) | doubling (all-port hypercubes) | pipeline (nic hypercubes: at the nic pipeline bound) | table (all-port: " + exchange_table_support() + ") | a2 (single-port products) | "
         "metacube | metacube-firstfit (nic metacubes) | odr | udr (tori KxK[x...], placed or not) | pairwise (all)";
}

double default_budget_seconds(const Topology& t) {
  // Networks outside the families have the list scheduler alone: its default grows with the flits
  // as for any traffic (torus:16x16~fail:0-1 nic: 565 steps in 16 s, where 8 s gave 590).
  if (!t.is_product() && !t.is_metacube()) {
    const auto n = static_cast<std::int64_t>(t.processor_count());
    return list_default_budget_seconds(t, n * (n - 1));
  }
  return t.nodes() > 128 ? 8.0 : 4.0;
}

ScheduleOutcome schedule_direct(const Topology& t, Model m, const ScheduleRequest& request) {
  t.require_two_way("the all schedules");
  ScheduleRequest r = request;
  if (r.budget_seconds <= 0) r.budget_seconds = default_budget_seconds(t);
  refuse_past_replay_limit(t, r.limits);
  const LowerBound lb = lower_bound(t, m);
  if (r.algorithm == "exact") {  // seeded with what auto finds in a quarter of the budget
    ScheduleRequest quick{"auto", r.budget_seconds / 4, r.limits};
    ScheduleOutcome seed = m == Model::SinglePort ? ScheduleOutcome{} : schedule_direct(t, m, quick);
    ScheduleRequest rest{"exact", r.budget_seconds * 3 / 4, r.limits};
    ScheduleOutcome out = run_exact(t, m, rest, lb, seed.algorithm.empty() ? std::nullopt : std::optional<Schedule>(seed.schedule));
    out.tried.insert(out.tried.begin(), seed.tried.begin(), seed.tried.end());
    return out;
  }
  const bool automatic = r.algorithm.empty() || r.algorithm == "auto";
  const auto t0 = Clock::now();
  ScheduleOutcome out;
  out.lower_bound = lb.steps;
  std::int64_t best = -1;  // steps of the schedule kept
  // auto leaves out a generator whose schedule would hold more than kAutoScheduleBytes.
  const double schedule_bytes = 2.0 * static_cast<double>(sizeof(Transfer)) * static_cast<double>(processor_status(t));
  const auto too_large = [&](const Generator& g) {
    return automatic && holds_every_transfer(g.name) && schedule_bytes > kAutoScheduleBytes;
  };
  int weights = 0;  // of the generators that search and run: the budget is shared in proportion
  for (const Generator& g : generators())
    if (g.weight > 0 && g.why_not(t, m).empty() && (automatic || g.name == r.algorithm) && !too_large(g))
      weights += g.weight;
  // auto ends with the exact solver on small networks (it can prove what the heuristics reach).
  const bool try_exact = automatic && m != Model::SinglePort && t.nodes() <= kAutoExactMaxNodes;

  for (const Generator& g : generators()) {
    if (!automatic && g.name != r.algorithm) continue;
    const std::string why = g.why_not(t, m);
    if (!why.empty()) {
      if (!automatic) throw UsageError("--algo " + g.name + " " + why + " (" + t.spec() + ", " + to_string(m) +
                                       "); accepted: " + direct_algorithm_help());
      continue;
    }
    if (automatic && best == lb.steps) break;  // nothing can beat the bound
    // metacube-firstfit packs the paper's routes at least as tight; udr tries odr's order among its three.
    if (automatic && (g.name == "metacube" || g.name == "odr")) continue;
    // pairwise (N-1 rounds of one offset each) is the fallback: it never beat a kept schedule in
    // the default-at-size sweep (docs/scale.md) and took 17 s of torus:32x32's auto run.
    // Outside the families it runs too up to kAutoPairwiseGraphNodes nodes (its shortest-path DAG
    // search: 0.2 s on torus:16x16~fail:0-1, 581 steps where the list gives 590).
    if (automatic && g.name == "pairwise" && best >= 0 && (t.is_product() || t.is_metacube() || t.nodes() > kAutoPairwiseGraphNodes))
      continue;
    // Past hypercube:6 the table is the doubling grid written as paper 001's table: auto runs
    // doubling itself (the same steps; its schedule, as before the table covered every n).
    if (automatic && g.name == "table" && hypercube_doubling_applies(t) && t.nodes() > 64) continue;
    if (too_large(g)) {
      char note[160];
      std::snprintf(note, sizeof note, "skipped: its schedule would hold about %.1f GB of transfers, more than %.0f GB",
                    schedule_bytes / 1e9, kAutoScheduleBytes / 1e9);
      out.tried.push_back({g.name, 0, false, 0, note});
      continue;
    }
    // A first pass past its limit is refused before it starts: auto skips it (5 budgets at most),
    // an explicit --algo stops with the estimate (TOTEX_MAX_SECONDS lifts the limit).
    if (const double first = first_pass_seconds(g.name, t, lb); first > 0) {
      char estimate[160];
      std::snprintf(estimate, sizeof estimate, "its first pass would take about %.0f s", first);
      // ... unless nothing is kept yet and no later generator can run: then within the run limit
      // it still runs (mesh:64x64: xyfit, where every other generator would hold 23 GB).
      const double auto_limit = std::min(r.limits.seconds, 5 * r.budget_seconds);
      const auto last_resort = [&] {
        const auto later = generators().begin() + (&g - generators().data()) + 1;
        return best < 0 && std::none_of(later, generators().end(), [&](const Generator& h) {
                 return h.why_not(t, m).empty() && !too_large(h) && first_pass_seconds(h.name, t, lb) <= auto_limit;
               });
      };
      if (automatic && first > auto_limit && !(first <= r.limits.seconds && last_resort())) {
        out.tried.push_back({g.name, 0, false, 0, std::string("skipped: ") + estimate + ", more than 5 budgets"});
        continue;
      }
      if (!automatic && first > r.limits.seconds)
        throw ResourceError("resources: --algo " + g.name + " on " + t.spec() + ": " + estimate + ", more than the " +
                            limit_text(r.limits) + " totex allows itself; " + r.limits.how_to_raise +
                            " to run it, or use --algo pairwise");
      if (first > Progress::kQuietSeconds) std::fprintf(stderr, "%s %s: %s\n", g.name.c_str(), t.spec().c_str(), estimate);
    }
    const auto g0 = Clock::now();
    // Shares of the budget, not of the time left, so that the heuristics do the same work on any
    // machine. With the exact solver to come they share half: on these small networks they
    // finish early or stall, and the solver can use the time.
    const double share = g.weight == 0 ? 0.0 : r.budget_seconds * (try_exact ? 0.5 : 1.0) * g.weight / std::max(1, weights);
    // Progress: a line per generator once the run is long enough to wonder about (plot and sim too).
    if (share > Progress::kQuietSeconds || seconds_since(t0) > Progress::kQuietSeconds)
      std::fprintf(stderr, "schedule %s: %s%s (%.0f s so far)\n", t.spec().c_str(), g.name.c_str(),
                   share > 0 ? (" searching, a work budget of about " + std::to_string(static_cast<long long>(share + 0.5)) +
                                " s (calibrated on a quiet torus:8x8; large networks take longer)").c_str() : "",
                   seconds_since(t0));
    Schedule s = g.run(t, m, share, out.log);
    if (!automatic && s.step_count() == 0)  // a construction that found none: say so, not N(N-1) unsent messages
      throw UsageError("--algo " + g.name + " found no schedule for " + t.spec() + " within its budget (" +
                       (out.log.empty() ? std::string("no log") : out.log.back()) +
                       "); try --algo auto or a larger --budget");
    VerifyReport rep = verify(t, s, std::nullopt, r.limits);
    // An empty schedule is a construction that found none within its budget (its log says why).
    out.tried.push_back({g.name, rep.steps, rep.ok, seconds_since(g0),
                         rep.ok ? "" : s.step_count() == 0 ? "found no schedule (the search log says why)" : "failed verification"});
    // A named generator's schedule is returned as it is (the caller reports its violations);
    // auto keeps the shortest verified one.
    if (!automatic || (rep.ok && (best < 0 || rep.steps < best))) {
      out.schedule = std::move(s);
      out.algorithm = g.name;
      best = rep.ok ? rep.steps : -1;
      out.report = std::move(rep);
    }
  }
  if (try_exact && best != lb.steps) {
    const double left = std::max(1.0, r.budget_seconds - seconds_since(t0));
    ScheduleOutcome e;
    try {
      e = run_exact(t, m, {"exact", left, r.limits}, lb, best > 0 ? std::optional<Schedule>(out.schedule) : std::nullopt);
    } catch (const UsageError& err) {  // nothing within its limits: auto keeps what it has
      out.tried.push_back({"exact", 0, false, 0, err.what()});
      e.algorithm.clear();
    }
    out.tried.insert(out.tried.end(), e.tried.begin(), e.tried.end());
    out.log.insert(out.log.end(), e.log.begin(), e.log.end());
    VerifyReport rep = verify(t, e.schedule, std::nullopt, r.limits);
    if (!e.algorithm.empty() && rep.ok && (best < 0 || rep.steps <= best)) {
      if (rep.steps < best || best < 0) out.algorithm = e.algorithm;
      out.schedule = std::move(e.schedule);
      out.report = std::move(rep);
      best = rep.steps;
      out.proven_optimal = e.proven_optimal;
      out.proof = e.proof;
    }
  }
  if (out.algorithm.empty() && !automatic)
    throw UsageError("--algo '" + r.algorithm + "' is not an algorithm; accepted: " + direct_algorithm_help());
  if (out.algorithm.empty()) {
    // Every generator skipped for its estimated time or memory: say so, with the estimates.
    std::string skipped;
    bool all_skipped = !out.tried.empty();
    for (const Attempt& a : out.tried) {
      all_skipped = all_skipped && a.note.rfind("skipped: ", 0) == 0;
      skipped += "; " + a.algorithm + " " + a.note;
    }
    if (all_skipped)
      throw ResourceError("resources: no generator fits " + t.spec() + " within totex's limits" + skipped +
                          " (TOTEX_MAX_SECONDS raises the time limit; --algo NAME runs one generator)");
    // Otherwise every generator failed verification: a bug, reported as such.
    throw std::logic_error("no generator produced a verified schedule for " + t.spec());
  }
  if (best == lb.steps && out.proof.empty()) {
    out.proven_optimal = true;
    out.proof = bound_proof(lb);
  }
  return out;
}

}  // namespace totex
