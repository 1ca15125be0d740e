// SPDX-License-Identifier: Apache-2.0
// Schedules for any traffic: the list scheduler everywhere, and where the traffic decomposes a
// fast path built from today's optimal `all` schedules (docs/traffic.md, "Schedules").
#include "totex/generators/traffic_schedule.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <numeric>
#include <functional>
#include <optional>
#include <tuple>

#include "totex/error.hpp"
#include "totex/generators/exact.hpp"
#include "totex/generators/periodic.hpp"
#include "totex/traffic/traffic_bounds.hpp"
#include "totex/verify/message_index.hpp"
#include "totex/verify/periodic_verify.hpp"
#include "totex/verify/verify.hpp"
#include "periodic_flow.hpp"

namespace totex {
namespace {

constexpr int kRoutes = 6;
/// The default --budget in seconds; the list's default: 1 s (of nominal work, kTrafficLookupsPerSecond)
/// per 500 flits, from kDefaultBudget to kMaxDefaultBudget, or kMaxDefaultBudgetLarge on networks
/// of more than kLargeNodes nodes (issue 49 asks N <= 256 in 60 s, N = 1024 in 5 minutes; measured
/// 2026-11-29 on this machine, torus:32x32 random:1:0.1:2 periodic: 754 at 60, 726 at 240 in 155 s
/// of wall time beside a bench run).
constexpr double kDefaultBudget = 4.0;
constexpr double kMaxDefaultBudget = 60.0;
constexpr double kMaxDefaultBudgetLarge = 240.0;
constexpr int kLargeNodes = 256;
/// The list's one-shot search also starts from Poseidon's greedy where its work is below this
/// many look-ups per hop the traffic needs (S_w; list_schedule's greedy_start): the negotiation's
/// cost grows with the hops, and where it has the work a shorter greedy start ended longer.
constexpr double kGreedyStartWorkPerHop = 5000.0;
/// Lines up to this many nodes also get the exact periodic search when auto is not at the bound.
constexpr int kLineExactNodes = 32;
/// The exact candidate (one-shot, nic and all-port): at most this many flits times directed links,
/// so that an encoding is built in seconds (the distance pruning keeps it far below flits x links
/// x steps: torus:8x8 perm:shift:3:4, 65,536, at T=8 198 k variables, 2 s). Was 8,192, which left
/// torus:8x8 perm:shift:5:2 (32,768) unproven where T=5 is UNSAT in 0.01 s.
constexpr std::int64_t kExactMaxFlitLinks = 65536;
/// The periodic exact candidate (every route, periodic_flow.hpp): at most this many flits x
/// directed links x period crossing variables (torus:8x8 perm:shift:3 at period 2: 32,768).
constexpr std::int64_t kExactMaxPeriodicVars = 1'500'000;
/// route-sat: SAT work (conflicts x clauses) per budget second (cnf.hpp's kConflictClausesPerSecond),
/// lengths tried above the bound when it runs alone, and the largest encoding.
constexpr double kConflictWorkPerSecond = 6.0e8;
constexpr std::int64_t kRouteSatLengths = 4;
constexpr std::int64_t kRouteSatMaxClauses = 4'000'000;
/// route-sat's default budget (seconds of SAT work): its path-graph models need tens of thousands
/// of conflicts on about 10^5 clauses (torus:8x8 perm:transpose:4 at period 5, the bound: 35,611
/// conflicts on 82,257 clauses, about 5 s).
constexpr double kRouteSatDefaultBudget = 20.0;
/// split: at most this many divisors tried, on traffic of at most kSplitMaxFlits flits (each try
/// is a whole auto run on its part: torus:16x16 perm:transpose:8, 1,920 flits, 23 s in all).
constexpr int kSplitTries = 3;
constexpr std::int64_t kSplitMaxFlits = 16384;

using Clock = std::chrono::steady_clock;

/// `all:M` over every processor (M >= 1): the flits per pair, else 0.
std::int64_t repeat_count(const Topology& t, const Traffic& traffic) {
  if (!traffic.is_uniform() || t.is_one_way()) return 0;  // the all generators need links both ways
  if (traffic.members().empty() ? t.is_partial() : traffic.members() != t.processors()) return 0;
  return traffic.uniform_flits();
}

/// The dimensions D of a product such that the traffic is one flit between every two distinct nodes
/// that differ only in a coordinate of some d in D (groups:D), D sorted; empty when it is not.
std::vector<int> line_dimensions(const Topology& t, const Traffic& traffic) {
  if (!t.is_product() || t.is_partial() || traffic.nodes() != t.nodes()) return {};
  const int dims = static_cast<int>(t.factors().size());
  std::vector<int> dimensions;
  const std::vector<int> c0 = t.coordinates(0);
  traffic.for_each_in_row(0, [&](NodeId d, std::int64_t) {
    const std::vector<int> c = t.coordinates(d);
    int differ = -1, count = 0;
    for (int i = 0; i < dims; ++i)
      if (c[static_cast<std::size_t>(i)] != c0[static_cast<std::size_t>(i)]) differ = i, ++count;
    if (count == 1 && std::find(dimensions.begin(), dimensions.end(), differ) == dimensions.end()) dimensions.push_back(differ);
  });
  std::sort(dimensions.begin(), dimensions.end());
  if (dimensions.empty()) return {};
  bool exact = true;
  for (NodeId s = 0; s < t.nodes() && exact; ++s) {
    const std::vector<int> cs = t.coordinates(s);
    std::int64_t want = 0;
    for (int d : dimensions) want += t.factors()[static_cast<std::size_t>(d)].size - 1;
    std::int64_t seen = 0;
    traffic.for_each_in_row(s, [&](NodeId d, std::int64_t w) {
      const std::vector<int> c = t.coordinates(d);
      int differ = -1, count = 0;
      for (int i = 0; i < dims; ++i)
        if (c[static_cast<std::size_t>(i)] != cs[static_cast<std::size_t>(i)]) differ = i, ++count;
      if (w != 1 || count != 1 || !std::binary_search(dimensions.begin(), dimensions.end(), differ)) exact = false;
      ++seen;
    });
    if (seen != want) exact = false;
  }
  return exact ? dimensions : std::vector<int>{};
}

/// Appends `part`'s transfers, shifted by `shift` steps, to `out`, each with the flit index
/// flit_of(its message) (a copy's flits numbered after the copies before it).
template <class FlitOf>
void append_shifted(Schedule& out, const Schedule& part, std::int64_t shift, FlitOf flit_of) {
  part.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
    if (step.empty()) return;
    const auto at = static_cast<std::size_t>(static_cast<std::int64_t>(i) + shift);
    if (out.steps.size() <= at) out.steps.resize(at + 1);
    for (Transfer tr : step) {
      tr.msg.flit = flit_of(tr.msg);
      out.steps[at].push_back(tr);
    }
  });
}

/// `all` schedule of `f`'s graph (a ring, path or clique) embedded into every line of `t` along
/// dimension `dim`: the lines have disjoint links and nodes, so all run at once.
void embed_lines(Schedule& out, const Topology& t, int dim, const Schedule& line, std::int64_t shift) {
  const Topology f = factor_graph(t.factors()[static_cast<std::size_t>(dim)]);
  for (NodeId v = 0; v < t.nodes(); ++v) {
    const std::vector<int> c = t.coordinates(v);
    if (c[static_cast<std::size_t>(dim)] != 0) continue;  // v stands for its line
    std::vector<NodeId> node(static_cast<std::size_t>(f.nodes()));
    for (int x = 0; x < f.nodes(); ++x) {
      std::vector<int> cx = c;
      cx[static_cast<std::size_t>(dim)] = x;
      node[static_cast<std::size_t>(x)] = t.node_at(cx);
    }
    line.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
      if (step.empty()) return;
      const auto at = static_cast<std::size_t>(static_cast<std::int64_t>(i) + shift);
      if (out.steps.size() <= at) out.steps.resize(at + 1);
      for (const Transfer& tr : step) {
        const NodeId from = node[static_cast<std::size_t>(tr.from)];
        const NodeId to = node[static_cast<std::size_t>(f.neighbor(tr.from, tr.port))];
        out.steps[at].push_back({{node[static_cast<std::size_t>(tr.msg.src)], node[static_cast<std::size_t>(tr.msg.dst)], 0}, from,
                                 *t.port_to(from, to)});
      }
    });
  }
}

/// The largest g > 1 that divides every pair's flits (0 when there is none): the traffic is then g
/// times a smaller one.
std::int64_t common_factor(const Traffic& traffic) {
  std::int64_t g = 0;
  traffic.for_each([&](NodeId, NodeId, std::int64_t w) { g = std::gcd(g, w); });
  return g > 1 ? g : 0;
}

/// The traffic with every pair's flits divided by d (d divides them all).
Traffic divided(const Traffic& traffic, std::int64_t d) {
  std::vector<Traffic::Triplet> triplets;
  traffic.for_each([&](NodeId s, NodeId t, std::int64_t w) { triplets.push_back({s, t, static_cast<std::uint32_t>(w / d)}); });
  return Traffic::from_triplets(traffic.nodes(), std::move(triplets), Traffic::Duplicates::Refuse, traffic.kind(),
                                traffic.spec() + " / " + std::to_string(d));
}

struct Candidate {
  std::string name;
  std::function<std::string()> why_not;  // "" when it applies
  std::function<Schedule(double budget, std::vector<std::string>& log)> run;
};

}  // namespace

Schedule unroll_periodic(const Schedule& p) {
  const std::int64_t P = p.period;
  if (P <= 0) throw std::logic_error("unroll_periodic: not a periodic schedule");
  Schedule out{p.topology, p.model, p.algorithm, {}};
  out.traffic = p.traffic;
  // Per message its first step and its hops' span.
  std::map<std::tuple<NodeId, NodeId, std::int32_t>, std::pair<std::int64_t, std::int64_t>> span;
  p.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
    for (const Transfer& tr : step) {
      const auto at = static_cast<std::int64_t>(i);
      auto [it, fresh] = span.try_emplace(std::make_tuple(tr.msg.src, tr.msg.dst, tr.msg.flit), at, at);
      if (!fresh) it->second = {std::min(it->second.first, at), std::max(it->second.second, at)};
    }
  });
  if (span.empty()) return out;
  // The end at rotation r is max over messages of ((s - r) mod P) + span, s the first slot: with
  // A(s) = s + the longest span from slot s, max(max A over s >= r, P + max A over s < r) - r.
  const auto slots = static_cast<std::size_t>(P);
  std::vector<std::int64_t> reach(slots, std::numeric_limits<std::int64_t>::min());  // A(s)
  for (const auto& [msg, fl] : span) {
    const std::int64_t s = fl.first % P;
    reach[static_cast<std::size_t>(s)] = std::max(reach[static_cast<std::size_t>(s)], s + fl.second - fl.first + 1);
  }
  std::vector<std::int64_t> from(slots + 1, std::numeric_limits<std::int64_t>::min());  // max A over s >= r
  for (std::size_t r = slots; r-- > 0;) from[r] = std::max(from[r + 1], reach[r]);
  std::int64_t best_r = 0, best_end = std::numeric_limits<std::int64_t>::max();
  std::int64_t before = std::numeric_limits<std::int64_t>::min();  // max A over s < r
  for (std::size_t r = 0; r < slots; ++r) {
    const std::int64_t end = std::max(from[r], before == std::numeric_limits<std::int64_t>::min() ? before : before + P) -
                             static_cast<std::int64_t>(r);
    if (end < best_end) best_end = end, best_r = static_cast<std::int64_t>(r);
    before = std::max(before, reach[r]);
  }
  out.steps.resize(static_cast<std::size_t>(best_end));
  p.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
    for (const Transfer& tr : step) {
      const std::int64_t first = span[std::make_tuple(tr.msg.src, tr.msg.dst, tr.msg.flit)].first;
      const std::int64_t at = static_cast<std::int64_t>(i) - first + (first % P - best_r + P) % P;
      out.steps[static_cast<std::size_t>(at)].push_back(tr);
    }
  });
  return out;
}

double list_default_budget_seconds(const Topology& t, std::int64_t flits) {
  return std::clamp(static_cast<double>(flits) / 500.0, kDefaultBudget, t.nodes() > kLargeNodes ? kMaxDefaultBudgetLarge : kMaxDefaultBudget);
}

double start_budget_seconds(double budget_seconds) { return budget_seconds > 0 && budget_seconds < kDefaultBudget ? budget_seconds : 0; }

std::string traffic_algorithm_help() {
  return "auto | list (any traffic, any network) | repeat (all:M: M copies of the optimal all schedule) | split (--periodic, "
         "flits per pair with a common factor g: d | g copies of the d-th part's schedule) | lines (groups:D on a "
         "product: every line as its own ring, path or clique) | exact (small instances, SAT, proves optimality: one-shot nic or "
         "all-port; --periodic any model, every walk modulo the period)";
}

TrafficOutcome schedule_traffic(const Topology& t, Model m, const Traffic& traffic, const TrafficRequest& request) {
  if (traffic.nodes() != t.nodes())
    throw UsageError("traffic " + traffic.spec() + " is for " + std::to_string(traffic.nodes()) + " nodes, " + t.spec() + " has " +
                     std::to_string(t.nodes()));
  if (traffic.total_flits() == 0) throw UsageError("traffic " + traffic.spec() + " sends no flit: there is nothing to schedule");
  const double budget = request.budget_seconds > 0 ? request.budget_seconds : kDefaultBudget;
  const bool periodic = request.periodic;
  TrafficOutcome out;
  // One-shot, the time-expanded LP only where a schedule above the other terms is in hand (below).
  TrafficBoundOptions bound_options;
  bound_options.time_expanded = false;
  out.bound = periodic ? traffic_periodic_lower_bound(t, m, traffic) : traffic_lower_bound(t, m, traffic, bound_options);
  bool time_expanded_tried = periodic;
  const std::int64_t repeat = repeat_count(t, traffic);
  const std::vector<int> dims = line_dimensions(t, traffic);

  std::int64_t best_length = -1;         // the shortest verified length so far
  std::int64_t exact_optimal = -1;       // a length the exact search proved optimal
  std::string exact_proof;
  std::vector<Candidate> candidates;
  candidates.push_back({"repeat", [&]() -> std::string {
                          return repeat > 0 ? "" : "needs all:M (M flits between every ordered pair of processors)";
                        },
                        [&](double share, std::vector<std::string>& log) {
                          // The optimal period P of `all`, M times: copy k in slots kP..kP+P-1 (one-shot: unrolled).
                          Schedule s{t.spec(), m, periodic ? "periodic-repeat" : "repeat", {}};
                          if (m == Model::SinglePort) {  // no periodic generator: the one-shot schedule back to back
                            const ScheduleOutcome one = schedule_direct(t, m, ScheduleRequest("auto", share, request.limits));
                            const auto T = static_cast<std::int64_t>(one.report.steps);
                            for (std::int64_t k = 0; k < repeat; ++k)
                              append_shifted(s, one.schedule, k * T, [k](const Message&) { return static_cast<std::int32_t>(k); });
                            s.period = periodic ? static_cast<int>(repeat * T) : 0;
                            log.push_back("repeat: " + std::to_string(repeat) + " x the " + std::to_string(T) + "-step " + one.algorithm +
                                          " schedule");
                          } else {
                            PeriodicRequest pr;
                            pr.budget_seconds = share;
                            const PeriodicOutcome p = periodic_schedule(t, m, pr);
                            for (std::int64_t k = 0; k < repeat; ++k)
                              append_shifted(s, p.schedule, k * p.schedule.period, [k](const Message&) { return static_cast<std::int32_t>(k); });
                            s.period = periodic ? static_cast<int>(repeat * p.schedule.period) : 0;
                            log.push_back("repeat: " + std::to_string(repeat) + " x the period-" + std::to_string(p.schedule.period) + " " +
                                          p.algorithm + " schedule" + (p.proven_optimal ? " (proven optimal)" : ""));
                          }
                          return s;
                        }});
  candidates.push_back({"lines", [&]() -> std::string {
                          return dims.empty() ? "needs groups:D on a product (all-to-all inside every line along dimensions D)" : "";
                        },
                        [&](double share, std::vector<std::string>& log) {
                          // Lines of one dimension are disjoint: all run at once. Dimensions follow one another
                          // (their nodes are shared), except under all-port where only links limit.
                          Schedule s{t.spec(), m, periodic ? "periodic-lines" : "lines", {}};
                          std::int64_t shift = 0, period = 0;
                          for (int d : dims) {
                            const Topology f = factor_graph(t.factors()[static_cast<std::size_t>(d)]);
                            Schedule line;
                            std::int64_t length = 0;
                            std::string how;
                            if (periodic && m != Model::SinglePort) {
                              PeriodicRequest pr;
                              pr.budget_seconds = share / static_cast<double>(dims.size()) / 2;
                              PeriodicOutcome p = periodic_schedule(f, m, pr);
                              if (!p.proof_general && f.nodes() <= kLineExactNodes) {  // small lines: the exact search may close the gap
                                pr.algorithm = "exact";
                                PeriodicOutcome e = periodic_schedule(f, m, pr);
                                if (e.schedule.period > 0 && e.schedule.period < p.schedule.period) p = std::move(e);
                              }
                              length = p.schedule.period;
                              how = p.algorithm + " period " + std::to_string(length) + (p.proven_optimal ? " (proven optimal)" : "");
                              line = std::move(p.schedule);
                            } else {
                              ScheduleOutcome o =
                                  schedule_direct(f, m, ScheduleRequest("auto", share / static_cast<double>(dims.size()), request.limits));
                              length = o.report.steps;
                              how = o.algorithm + " " + std::to_string(length) + " steps" + (o.proven_optimal ? " (proven optimal)" : "");
                              line = std::move(o.schedule);
                            }
                            line.materialize();
                            embed_lines(s, t, d, line, m == Model::AllPort ? 0 : shift);
                            log.push_back("lines: dimension " + std::to_string(d) + " (" + f.spec() + "): " + how);
                            shift += length;
                            period = m == Model::AllPort ? std::max(period, length) : period + length;
                          }
                          s.period = periodic ? static_cast<int>(period) : 0;
                          return s;
                        }});
  candidates.push_back({"list", [&]() -> std::string { return ""; },
                        [&](double share, std::vector<std::string>& log) {
                          // The list's default grows with the flits (9,844 flits: 20 s of nominal work, about
                          // 10 s on the development machine): large link-bound traffic needs the negotiated
                          // placement's rounds.
                          if (request.budget_seconds <= 0) share = list_default_budget_seconds(t, traffic.total_flits());
                          auto work = static_cast<std::int64_t>(share * kTrafficLookupsPerSecond);
                          // Poseidon's greedy as a start where the work is short for the hops, so the
                          // negotiation cannot undo a poor start: b15x15_cf0.50, 0.70 and 0.90 (4.2 k to 2.3 k
                          // look-ups a hop) periodic 716 -> 705, 1000 -> 966, 1279 -> 1236. Where the work
                          // suffices it lost though its start was shorter: b15x15_cf0.30 (6.8 k) 436 -> 442,
                          // cf0.10 162 -> 164, b10x10_cf0.70 280 -> 284, torus:16x16 random:1:0.3:4 (6.1 k)
                          // one-shot 435 -> 438, random:1:0.1:2 (10 k) 93 -> 95.
                          const bool greedy_start =
                              static_cast<double>(work) < kGreedyStartWorkPerHop * static_cast<double>(traffic_status(t, traffic));
                          if (!periodic) {
                            // Orders (at most 8) while half the work lasts, then the negotiated placement under a
                            // horizon with what is left, in one call (one scheduler, its routes built once).
                            std::int64_t spent = 0;
                            Schedule best = list_schedule(t, m, traffic, 0, kRoutes, 8, &spent, work, nullptr, out.bound.steps,
                                                          std::max<std::int64_t>(1, work / 2), &log, greedy_start,
                                                          start_budget_seconds(request.budget_seconds));
                            log.push_back("list: priority orders while half the work lasted, then the negotiated placement; " +
                                          std::to_string(spent) + " look-ups");
                            return best;
                          }
                          // A one-shot schedule of T steps repeated back to back is a periodic one of period T
                          // (every injection is in a step < T): the search starts with that period in hand,
                          // tries the bound, then steps down (periodic_list_search).
                          const std::int64_t lo = std::max<std::int64_t>(1, out.bound.steps);
                          // Orders (at most 8) while a quarter of the work lasts, then the one-shot negotiated
                          // placement up to half, in one call (a third before 2026-11-29 21:50 UTC: with the
                          // searches' steps of 1 %, half gave b15x15_cf0.50 716 against 723, torus:32x32
                          // random:1:0.1:2 754 against 763, and no measured row longer).
                          std::int64_t spent = 0;
                          const double start_budget = start_budget_seconds(request.budget_seconds);
                          Schedule once = list_schedule(t, m, traffic, 0, kRoutes, 8, &spent, work / 2, nullptr, lo, std::max<std::int64_t>(1, work / 4), &log,
                                                        greedy_start, start_budget);
                          std::int64_t T = 0;
                          for (std::size_t i = 0; i < once.steps.size(); ++i)
                            if (!once.steps[i].empty()) T = static_cast<std::int64_t>(i) + 1;
                          once.steps.resize(static_cast<std::size_t>(T));
                          once.period = static_cast<int>(T);
                          once.algorithm = "periodic-list";
                          log.push_back("list: period " + std::to_string(T) + " fits (the one-shot list schedule, back to back)");
                          return periodic_list_search(t, m, traffic, kRoutes, std::move(once), lo, work - spent, &spent, log, start_budget);
                        }});

  candidates.push_back({"route-sat", [&]() -> std::string { return best_length > 0 || request.algorithm == "route-sat" ? "" : "runs after another generator"; },
                        [&](double share, std::vector<std::string>& log) {
                          // The list's routes, placed by SAT: from one below the best so far down while it is SAT
                          // (near the best a model is easy; each success shortens), at most down to the bound.
                          if (request.budget_seconds <= 0) share = std::max(share, kRouteSatDefaultBudget);
                          double work = share * kConflictWorkPerSecond, spent = 0;
                          const std::int64_t lo = std::max<std::int64_t>(1, out.bound.steps);
                          const std::int64_t top = best_length > 0 ? best_length - 1 : lo + kRouteSatLengths - 1;
                          std::optional<Schedule> found;
                          std::optional<CongestionLp> lp;  // solved once for every period tried
                          std::string notes;
                          for (std::int64_t L = top; L >= lo && spent < work; --L) {
                            std::string note;
                            Schedule s = route_sat_schedule(t, m, traffic, periodic ? static_cast<int>(L) : 0, L, kRoutes,
                                                            (work - spent) / 2, kRouteSatMaxClauses, &note, &spent, &lp);
                            log.push_back("route-sat: " + std::string(periodic ? "period " : "") + std::to_string(L) + ": " + note);
                            notes += (notes.empty() ? "" : "; ") + std::to_string(L) + ": " + note;
                            if (s.steps.empty()) break;
                            found = std::move(s);
                          }
                          if (!found) throw UsageError("route-sat: nothing shorter than " + std::to_string(top + 1) + " found (" + notes + ")");
                          return std::move(*found);
                        }});
  // Periodic, flits per pair with a common factor g: a periodic schedule of the traffic divided by
  // d (d | g), d times over, is one of the traffic (copy k in slots kP..kP+P-1, its flits k F/d ..
  // (k+1) F/d - 1; two copies never meet, since modulo P they are the same schedule). The d with
  // the smallest d x (its part's bound) first, a part scheduled by every generator (no split
  // again); only while that product is below the best so far.
  const std::int64_t factor =
      request.split && periodic && !traffic.is_uniform() && traffic.total_flits() <= kSplitMaxFlits ? common_factor(traffic) : 0;
  candidates.push_back({"split", [&]() -> std::string {
                          return factor > 0 ? ""
                                            : "needs --periodic, flits per pair with a common factor (g x a smaller traffic) and at most " +
                                                  std::to_string(kSplitMaxFlits) + " flits";
                        },
                        [&](double share, std::vector<std::string>& log) {
                          struct Try {
                            std::int64_t floor, d;  // d x the part's period bound
                            Traffic part;
                          };
                          std::vector<Try> tries;
                          for (std::int64_t d = 2; d <= factor; ++d)
                            if (factor % d == 0) {
                              Traffic part = divided(traffic, d);
                              const std::int64_t floor = d * traffic_periodic_lower_bound(t, m, part).steps;
                              tries.push_back({floor, d, std::move(part)});
                            }
                          std::sort(tries.begin(), tries.end(), [](const Try& a, const Try& b) { return std::tie(a.floor, b.d) < std::tie(b.floor, a.d); });
                          std::optional<Schedule> found;
                          std::int64_t found_period = best_length;
                          for (std::size_t i = 0; i < tries.size() && static_cast<int>(i) < kSplitTries; ++i) {
                            const std::int64_t d = tries[i].d;
                            const Traffic& part = tries[i].part;
                            if (found_period > 0 && tries[i].floor >= found_period) break;
                            TrafficRequest r = request;
                            r.algorithm = "auto";
                            r.budget_seconds = request.budget_seconds > 0 ? share : 0;
                            r.split = false;
                            const TrafficOutcome o = schedule_traffic(t, m, part, r);
                            const std::int64_t P = o.schedule.period;
                            log.push_back("split: " + std::to_string(d) + " x the period-" + std::to_string(P) + " " + o.algorithm +
                                          " schedule of " + part.spec() + (o.proven_optimal ? " (proven optimal)" : "") + ": period " +
                                          std::to_string(d * P));
                            if (found_period > 0 && d * P >= found_period) continue;
                            Schedule s{t.spec(), m, "periodic-split", {}};
                            for (std::int64_t k = 0; k < d; ++k)
                              append_shifted(s, o.schedule, k * P, [&](const Message& msg) {
                                return static_cast<std::int32_t>(msg.flit + k * part.flits(msg.src, msg.dst));
                              });
                            s.period = static_cast<int>(d * P);
                            found_period = d * P;
                            found = std::move(s);
                          }
                          if (!found) throw UsageError("split: no part's period times its copies is below " + std::to_string(best_length));
                          return std::move(*found);
                        }});
  // The every-route model's crossing variables at period P (flits x directed links x P).
  const auto every_route_vars = [&](std::int64_t P) { return traffic.total_flits() * t.links() * P; };
  // Periodic exact: the every-route model (any walk, periodic_flow.hpp), one message per flit.
  // Below a schedule in hand: down from one below it while SAT; an UNSAT proves the period above
  // optimal. Alone: up from the bound until SAT (optimal when every period below was UNSAT).
  const auto periodic_exact = [&](double share, std::vector<std::string>& log) -> Schedule {
    double pool = share * kConflictWorkPerSecond;
    const std::int64_t bound = std::max<std::int64_t>(1, out.bound.steps);
    const bool down = best_length > 0;
    std::optional<Schedule> found;
    bool all_below_unsat = true;
    for (std::int64_t P = down ? best_length - 1 : bound; down ? P >= bound : !found; P += down ? -1 : 1) {
      if (every_route_vars(P) > kExactMaxPeriodicVars) {
        log.push_back("exact: period " + std::to_string(P) + ": too large for the every-route model");
        break;
      }
      SatLimit limit{std::numeric_limits<std::int64_t>::max() / 4, safety_cap(10 * share + 10), &pool, 1.0};
      SatStats stats;
      Schedule s;
      std::int64_t clauses = 0;
      const SatOutcome o = periodic::every_route_decide(t, m, static_cast<int>(P), limit, &s, &stats, &traffic, &clauses);
      log.push_back("exact: period " + std::to_string(P) + " with every route: " + outcome_word(o) + ", " + std::to_string(clauses) +
                    " clauses, " + std::to_string(stats.conflicts) + " conflicts" + (stats.capped ? std::string(", ") + kCappedNote : ""));
      if (o == SatOutcome::Unknown) {
        all_below_unsat = false;
        break;
      }
      if (o == SatOutcome::Unsat) {
        if (down) {
          exact_optimal = P + 1;
          exact_proof = "period " + std::to_string(P) + " infeasible: UNSAT with every route (" + std::to_string(clauses) + " clauses)";
          break;
        }
        continue;
      }
      s.algorithm = "periodic-exact";
      if (!down && all_below_unsat) {
        exact_optimal = P;
        exact_proof = P == bound ? "meets the lower bound" : "period " + std::to_string(P - 1) + " infeasible: UNSAT with every route";
      }
      found = std::move(s);
      if (!down) break;
    }
    if (!found && down && exact_optimal == best_length)
      throw UsageError("exact: period " + std::to_string(best_length - 1) + " is infeasible: " + std::to_string(best_length) + " is optimal");
    if (!found) throw UsageError("exact: no period decided within the budget (the log says which)");
    return std::move(*found);
  };
  // Periodic: the every-route model's size at its first period, one below the best (from the
  // bound up when it runs alone).
  const auto periodic_exact_vars = [&]() {
    return every_route_vars(best_length > 0 ? best_length - 1 : std::max<std::int64_t>(1, out.bound.steps));
  };
  candidates.push_back({"exact", [&]() -> std::string {
                          if (periodic) {
                            if (best_length > 0 && best_length <= out.bound.steps) return "has nothing below the bound to decide";
                            if (periodic_exact_vars() > kExactMaxPeriodicVars)
                              return "is for small instances (flits x directed links x period <= " + std::to_string(kExactMaxPeriodicVars) +
                                     ", here " + std::to_string(periodic_exact_vars()) + ")";
                            return "";
                          }
                          if (m != Model::Nic && m != Model::AllPort) return "needs the nic or all-port model";
                          if (t.is_one_way()) return "needs links both ways (one-shot; --periodic takes one-way links)";
                          if (traffic.total_flits() * t.links() > kExactMaxFlitLinks)
                            return "is for small instances (flits x directed links <= " + std::to_string(kExactMaxFlitLinks) + ", here " +
                                   std::to_string(traffic.total_flits() * t.links()) + ")";
                          return "";
                        },
                        [&](double share, std::vector<std::string>& log) {
                          if (periodic) return periodic_exact(share, log);
                          // SAT from the bound up (exact.hpp), one message per flit; the best schedule so far is
                          // the incumbent: proven optimal when every shorter length is UNSAT on the full model.
                          ExactOptions o;
                          o.time_budget_seconds = share;
                          o.traffic = &traffic;
                          if (best_length >= 0 && out.schedule.model == m) o.incumbent = out.schedule;
                          const ExactResult r = exact_schedule(t, m, o);
                          for (const std::string& line : r.log) log.push_back("exact: " + line);
                          if (r.status == ExactStatus::Optimal) {
                            exact_optimal = r.steps;
                            exact_proof = r.proof;
                          } else if (!r.stopped_because.empty()) {
                            log.push_back("exact: stopped: " + r.stopped_because);
                          }
                          if (!r.schedule) throw UsageError("exact: no schedule (" + r.stopped_because + ")");
                          return *r.schedule;
                        }});

  const bool automatic = request.algorithm.empty() || request.algorithm == "auto";
  std::string accepted;
  for (const Candidate& c : candidates)
    if (c.why_not().empty()) accepted += (accepted.empty() ? "" : ", ") + c.name;
  if (!automatic) {
    const auto it = std::find_if(candidates.begin(), candidates.end(), [&](const Candidate& c) { return c.name == request.algorithm; });
    if (it == candidates.end())
      throw UsageError("--algo " + request.algorithm + " does not schedule traffic " + traffic.spec() + "; accepted: auto, " + accepted);
    if (const std::string why = it->why_not(); !why.empty())
      throw UsageError("--algo " + request.algorithm + " " + why + "; for " + traffic.spec() + " accepted: auto, " + accepted);
  }
  // A schedule above the bound in hand (one-shot): the time-expanded LP may prove it optimal, or
  // raise the bound the later generators search down to. Once.
  const auto time_expanded = [&]() {
    if (time_expanded_tried || best_length <= out.bound.steps) return;
    time_expanded_tried = true;
    add_time_expanded_bound(out.bound, t, m, traffic, best_length, TrafficBoundOptions{}.time_expanded_max_columns);
  };
  for (const Candidate& c : candidates) {
    if (!(automatic ? c.why_not().empty() : c.name == request.algorithm)) continue;
    time_expanded();
    if (best_length >= 0 && best_length == out.bound.steps) break;
    const auto t0 = Clock::now();
    Attempt a{c.name, 0, false, 0, ""};
    try {
      Schedule s = c.run(budget, out.log);
      s.traffic = traffic_tag(t, &traffic);
      std::int64_t length = 0;
      if (periodic) {
        const PeriodicReport rep = verify_periodic(t, s, 0, &traffic);
        a.verified = rep.ok;
        length = s.period;
        if (!rep.ok) a.note = rep.violations.empty() ? "rejected by the verifier" : rep.violations.front().text;
      } else {
        const VerifyReport rep = verify(t, s, std::nullopt, request.limits, &traffic);
        a.verified = rep.ok;
        length = rep.steps;
        if (!rep.ok) a.note = rep.violations.empty() ? "rejected by the verifier" : rep.violations.front().text;
      }
      a.steps = length;
      if (a.verified && (best_length < 0 || length < best_length)) {
        best_length = length;
        out.schedule = std::move(s);
        out.algorithm = out.schedule.algorithm;
      }
    } catch (const UsageError& e) {
      if (!automatic) throw;
      a.note = e.what();
    }
    a.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    out.tried.push_back(a);
    if (automatic && best_length >= 0 && best_length == out.bound.steps) break;  // at the bound: nothing can do better
  }
  if (best_length < 0) throw UsageError("no generator produced a verified schedule for traffic " + traffic.spec() + " on " + t.spec());
  time_expanded();
  out.length = best_length;
  out.proven_optimal = best_length == out.bound.steps;
  if (out.proven_optimal) {
    std::string binding;
    for (const BoundTerm& term : out.bound.terms)
      if (term.value == out.bound.steps) binding += (binding.empty() ? "" : ", ") + term.name;
    out.proof = "meets the lower bound (" + binding + ")";
  } else if (exact_optimal == best_length) {
    out.proven_optimal = true;
    out.proof = "exact: " + exact_proof;
  }
  return out;
}

}  // namespace totex
