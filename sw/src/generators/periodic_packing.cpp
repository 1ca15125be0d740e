// SPDX-License-Identifier: Apache-2.0
// The periodic packing search (docs/periodic.md, "The generators"): auto's last entry in the
// table of periodic generators (periodic.cpp), and --algo greedy and --algo exact.
//
// Every search here stops at counted work: the first fit and local search at resource look-ups,
// each SAT call at its conflicts, lowered to fit a pool of conflicts x clauses that stands for the
// run's budget (cnf.hpp). The wall clock is a safety cap per SAT call only; when it fires the
// outcome is marked `capped` and the log and stderr say so.
#include "periodic_packing.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <stdexcept>

#include "periodic_flow.hpp"
#include "periodic_parts.hpp"
#include "totex/error.hpp"
#include "totex/network/distance.hpp"
#include "totex/progress.hpp"

namespace totex::periodic {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::int64_t kMaxSatVars = 4'000'000;
// Every shortest path per message up to this many nodes (mesh:8x8 did worse with them: 132
// against 131 with XY and YX, its SAT models beyond kMaxSatVars).
constexpr int kAllPathsNodes = 36;
constexpr int kDetourNodes = 16;  // the per-message detour search up to this many nodes
constexpr std::int64_t kMaxEveryRouteVars = 2'000'000;
/// auto, where the per-message detour search has no quotient: the every-route model at the bound
/// when it has at most this many crossing variables (torus:2x2 at 3: 288, decided at once).
constexpr std::int64_t kSmallEveryRouteVars = 20'000;
// Small mirror quotients only: mesh:6x6's (58 k variables) is SAT in about 26 s; mesh:8x8's at
// 130 (465 k) stayed unknown after 255 s, mesh:7x7's half turn (344 k) after 73 s.
constexpr std::int64_t kMaxQuotientVars = 100'000;

std::int64_t candidate_vars(const Problem& p, int period) {
  std::int64_t c = 0;
  for (const auto& it : p.items) c += static_cast<std::int64_t>(it.cands.size());
  return c * period;
}

// The at-most-one constraints' literals, one per resource a candidate holds in each slot: each
// brings an auxiliary variable and three clauses, about 560 bytes of CaDiCaL's memory
// (torus:8x8~fail:0-1,2-10 nic at 69: 33 M of them, 18.7 GB and 100 s building an unknown
// model). The SAT calls that settled anything measured hold under 0.4 M.
constexpr std::int64_t kMaxSatHolds = 6'000'000;
// The per-message problem of every shortest path (networks outside the products, and products
// up to kAllPathsNodes) is built only up to this many resource uses where the list's period is in
// hand (every_shortest_path_uses counts them first): each is about 20 bytes, and past it the
// packing found nothing the list had not (measured 2026-11-30, nic, default budget:
// torus:12x12~fail:0-1, 14.4 M uses, its first fit none of periods 226..245 within its work beside
// the list's 231; torus:16x16~fail:0-1, 128 M uses, 2.5 GB and 19 s of a 74 s run for one
// first-fit pass at 529 beside the list's 540). Below it: torus:10x10~fail:0-1 3.1 M,
// torus:8x8~fail:0-1 0.5 M, torus:6x6~fail:0-1 58 k (its nic period 36 there is the packing's).
constexpr std::int64_t kMaxPackingUses = 8'000'000;
std::int64_t candidate_holds(const Problem& p, int period) {
  std::int64_t h = 0;
  for (const auto& it : p.items)
    for (const auto& c : it.cands) h += static_cast<std::int64_t>(c.uses.size());
  return h * period;
}

// Why SAT on `p` at `period` is too large to build ("" when it is not).
std::string sat_too_large(const Problem& p, int period) {
  if (const std::int64_t v = candidate_vars(p, period); v > kMaxSatVars)
    return std::to_string(v) + " variables, more than " + std::to_string(kMaxSatVars);
  if (const std::int64_t h = candidate_holds(p, period); h > kMaxSatHolds)
    return std::to_string(h) + " resource holds, more than " + std::to_string(kMaxSatHolds) + " (memory)";
  return "";
}

// Whether every message of `s` takes a shortest route: each hop a transfer of its message.
bool minimal_routes(const Topology& t, const Schedule& s) {
  std::vector<std::vector<int>> dist(static_cast<std::size_t>(t.nodes()));
  std::map<std::pair<NodeId, NodeId>, int> hops;
  s.for_each_step([&](std::size_t, const std::vector<Transfer>& transfers) {
    for (const Transfer& tr : transfers) ++hops[{tr.msg.src, tr.msg.dst}];
  });
  for (const auto& [pair, n] : hops) {
    auto& d = dist[static_cast<std::size_t>(pair.first)];
    if (d.empty()) d = bfs_distances(t, pair.first);
    if (n != d[static_cast<std::size_t>(pair.second)]) return false;
  }
  return true;
}

/// Seconds a SAT call's work may take on a model of about `vars` variables (clauses are a few per
/// variable), its conflicts lowered to its share of a pool: for the stage line only.
double sat_may_take(const SatLimit& limit, std::int64_t vars) {
  double work = static_cast<double>(limit.conflicts) * 4.0 * static_cast<double>(vars);
  if (limit.work != nullptr) work = std::min(work, std::max(*limit.work * limit.share, limit.min_work));
  return work / kConflictClausesPerSecond;
}
/// Work the old wall-clock tests stood for: "no time left" was 0.05 s, the exact search's 0.1 s.
constexpr double kNoWorkLeft = 0.05 * kConflictClausesPerSecond;
constexpr double kExactWorkLeft = 0.1 * kConflictClausesPerSecond;

/// The packing search of one run (Run): its problem, the best packing, what is known per period.
class Packing {
 public:
  explicit Packing(Run& run);
  PeriodicOutcome search();

 private:
  void build_problem();
  void mirror_quotient_start();
  /// True (logged) where the list's period is in hand and the per-message problem of every
  /// shortest path would hold more than kMaxPackingUses resource uses: then it is not built.
  [[nodiscard]] bool beyond_packing_size();
  /// False when the list's schedule is in hand and the first fit spent its work without a period.
  [[nodiscard]] bool first_fit();
  void local_search_down(const std::function<bool(int)>& skip);
  SatOutcome sat_logged(const Problem& p, int P, const std::string& label, const SatLimit& limit,
                        std::vector<Placement>& pl, SatHint hint);
  bool slot_sums_refute(int P);
  SatOutcome try_period(int P, double share);
  void adopt(Problem packed, std::vector<Placement> placed, bool per_message);
  [[nodiscard]] bool open_at_bound() const { return best_period_ == 0 || best_period_ > bound_; }
  void try_node_detours();
  void try_detours();
  void try_mesh_mirrors();
  SatOutcome try_every_route(int P);
  void exact_search();
  void auto_search();
  PeriodicOutcome finish();
  void prove_below(int period, bool minimal, bool in_model);

  Run& run_;
  const Topology& t_;
  const std::string& algo_;
  const bool nic_;
  const double budget_;
  const int bound_;
  PeriodicOutcome& out_;
  bool ti_applies_ = false;
  bool ti_ = false;            // the translation-invariant packing (not with --algo exact)
  bool per_message_large_ = false;
  bool node_level_ = false;    // the packing is per message (expand_node)
  std::string model_searched_;
  Problem prob_;
  std::vector<Placement> best_;
  int best_period_ = 0;
  std::vector<Placement> greedy_best_;  // the first fit and local search's packing
  int greedy_period_ = 0;
  std::vector<int> slot_sum_refuted_, sat_tried_;  // periods refuted by slot sums; periods given to SAT
  std::vector<SatOutcome> at_period_;               // index P - bound: what is known of period P
  std::vector<int> every_route_unsat_;              // periods no schedule has, whatever its routes
  /// The run's SAT work, conflicts x clauses (cnf.hpp): the counted form of the wall-clock
  /// allowance of 3 x budget + 5 s these calls once shared. The calls with an allowance of their
  /// own (the per-message detours, the mesh mirrors) do not draw on it.
  double sat_work_;
};

Packing::Packing(Run& run)
    : run_(run),
      t_(run.t),
      algo_(run.algo),
      nic_(run.nic),
      budget_(run.budget),
      bound_(run.bound),
      out_(run.out),
      sat_work_((run.budget * 3 + 5) * kConflictClausesPerSecond) {
  ti_applies_ = periodic_translation_invariant_applies(t_, run.m);
  ti_ = algo_ != "exact" && ti_applies_;
  out_.translation_invariant = ti_;
  node_level_ = !ti_;
  per_message_large_ = !ti_ && algo_ != "exact" && t_.is_product() && t_.nodes() > kAllPathsNodes;
}

void Packing::build_problem() {
  // The packings scan every slot for every item: refused up front where that is hours of work.
  if (algo_ != "exact" && t_.nodes() > (ti_ ? 1024 : 256))
    throw ResourceError("resources: --periodic on " + t_.spec() + ": " +
                        (run_.product.log.empty() ? std::string()
                                                  : "the ring product found no period within its budget (" +
                                                        run_.product.log.back() + "), and ") +
                        "the " +
                        std::string(ti_ ? "translation-invariant packing handles at most 1024 nodes"
                                        : "per-message packing handles at most 256 nodes") +
                        " (its first fit scans every slot for every item)");
  if (algo_ == "exact") {
    if (static_cast<std::int64_t>(t_.processor_count()) * t_.processor_count() > 4096)
      throw UsageError("--periodic --algo exact: " + t_.spec() + " is too large (at most 64 nodes)");
    prob_ = node_problem(t_, nic_, true);
  } else {
    // Per message: every shortest path up to 36 nodes (mesh:6x6), the dimension orders above.
    prob_ = ti_ ? translation_invariant_problem(t_, nic_) : node_problem(t_, nic_, t_.nodes() <= kAllPathsNodes);
  }
  model_searched_ = algo_ == "exact" ? "every minimal route and slot of every message"
                    : ti_ ? "translation-invariant schedules with minimal dimension-ordered routes (ties at k/2 alternated)"
                    : t_.nodes() <= kAllPathsNodes ? "schedules whose messages take minimal routes"
                                                   : "schedules whose messages take dimension-ordered minimal routes";
  out_.algorithm = algo_ == "exact" ? "periodic-exact" : ti_ ? "periodic-ti" : "periodic-node";
}

// Meshes with an even side, above 36 nodes (where the problem has the XY and YX routes): first fit
// and local search on the mirror quotient (a quarter of the items; try_mesh_mirrors), one period
// down at a time from the first fit until a call runs out of work; the per-message search then
// goes on from it. At --budget 8: mesh:8x8 128 (the bound) in 5 s, mesh:16x16 1040 in 68 s. Odd
// meshes' half turn (slots moved by P/2) packs worse than the per-message search (mesh:15x15
// 1144), so not there.
void Packing::mirror_quotient_start() {
  if (ti_ || algo_ != "auto" || t_.nodes() <= kAllPathsNodes) return;
  const auto q = mesh_mirror_quotient(t_, prob_, bound_, nic_);
  if (!q || !std::all_of(q->shift.begin(), q->shift.end(), [](int x) { return x == 0; })) return;
  const auto s0 = Clock::now();
  run_.stage("first fit and local search on the mirror quotient (" + std::to_string(q->quotient.items.size()) + " orbits)",
             budget_);
  std::vector<Placement> qbest;
  int qperiod = 0;
  // The first fit at the bound and then in steps of 2 % (a pass that fails costs a whole scan).
  for (int P = bound_; P <= 4 * bound_ + t_.nodes() + 8 && qperiod == 0; P += std::max(1, bound_ / 50))
    if (auto g = greedy_pack(q->quotient, P)) {
      qbest = std::move(*g);
      qperiod = P;
    }
  const int first_fit = qperiod;
  if (qperiod > 0)
    qperiod = local_search_descend(q->quotient, qbest, qperiod, bound_, static_cast<std::int64_t>(budget_ * kLookupsPerSecond));
  if (qperiod == 0) return;
  // Each image of a quotient route is one of the message's own candidates (a mirror keeps the
  // order of the dimensions), so the per-message search continues with every route.
  const auto [unfolded, placed] = orbit_unfold(t_, prob_, *q, qbest, qperiod, nic_);
  best_.assign(prob_.items.size(), {});
  for (std::size_t i = 0; i < prob_.items.size(); ++i) {
    const auto& cands = prob_.items[i].cands;
    const auto& path = unfolded.items[i].cands[0].path;
    const auto c = std::find_if(cands.begin(), cands.end(), [&](const Candidate& x) { return x.path == path; });
    if (c == cands.end()) throw std::logic_error("mirror quotient: an image route that is not a candidate");
    best_[i] = {static_cast<int>(c - cands.begin()), placed[i].slot};
  }
  best_period_ = qperiod;
  out_.log.push_back("mirror quotient (" + std::to_string(q->quotient.items.size()) + " orbits): first fit " +
                     std::to_string(first_fit) + ", local search down to " + std::to_string(qperiod) + ", " +
                     seconds_since(s0));
}

bool Packing::beyond_packing_size() {
  const bool every_path = !ti_ && algo_ == "auto" && (!t_.is_product() || t_.nodes() <= kAllPathsNodes);
  if (!every_path || run_.list.period <= 0) return false;
  const std::int64_t uses = every_shortest_path_uses(t_, nic_);
  if (uses <= kMaxPackingUses) return false;
  out_.log.push_back("per-message packing skipped: every shortest path of every message (at most " +
                     std::to_string(kMaxPathsPerMessage) + " each) holds " + std::to_string(uses) +
                     " resource uses, more than " + std::to_string(kMaxPackingUses) + " (memory); the list's period " +
                     std::to_string(run_.list.period) + " kept");
  return true;
}

bool Packing::first_fit() {
  if (best_period_ != 0) return true;
  // First fit, period by period from the bound (a route never holds a track twice: P >= hops).
  // With the list's period in hand (degraded networks) the scan stops once its passes have spent
  // the packing's work: each pass that fails is a whole scan (torus:16x16~fail:0-1: 62 passes,
  // 529..590, were 12 minutes for 591 where the list had 560).
  int longest = 0;
  for (const auto& it : prob_.items) longest = std::max(longest, max_len(it));
  const auto work = static_cast<std::int64_t>(budget_ * kLookupsPerSecond);
  std::int64_t spent = 0;
  for (int P = std::max(bound_, longest); P <= 4 * bound_ + t_.nodes() + 8; ++P) {
    if (auto g = greedy_pack(prob_, P, {}, &spent)) {
      best_ = std::move(*g);
      best_period_ = P;
      out_.log.push_back("greedy first fit: period " + std::to_string(P));
      return true;
    }
    if (run_.list.period > 0 && spent > work) {
      out_.log.push_back("greedy first fit: none of periods " + std::to_string(std::max(bound_, longest)) + ".." +
                         std::to_string(P) + " within its work; the list's period " + std::to_string(run_.list.period) + " kept");
      return false;
    }
  }
  throw UsageError("--periodic: the first-fit packing found no period for " + t_.spec());
}

// Local search down from the best period while it packs within its work (logged), the bound
// included (SAT may have left it unknown, or not have been run). Products packed per message
// beyond kAllPathsNodes (meshes from 7x7) make no SAT call on the whole model, so the local search
// gets the SAT's allowance (budget x 3) instead.
void Packing::local_search_down(const std::function<bool(int)>& skip) {
  const auto work = static_cast<std::int64_t>(budget_ * (per_message_large_ ? 3 : 1) * kLookupsPerSecond);
  const int ls_from = best_period_;
  int first = ls_from - 1;  // the first period the descent tries
  while (first >= bound_ && skip(first)) --first;
  if (first < bound_) return;
  run_.stage("local search below period " + std::to_string(first + 1), 0);
  best_period_ = local_search_descend(prob_, best_, best_period_, bound_, work, skip);
  if (best_period_ < ls_from)
    out_.log.push_back("local search: " +
                       (first == best_period_ ? "period " + std::to_string(first)
                                              : "periods " + std::to_string(first) + ".." + std::to_string(best_period_)) +
                       " packed" +
                       (best_period_ > bound_ ? ", none of " + std::to_string(best_period_ - 1) + " within its work" : ""));
  else
    out_.log.push_back("local search: none of period " + std::to_string(first) + " within its work");
}

// One SAT call on `p` at period P, logged as "SAT period P<label>: outcome, variables, seconds".
SatOutcome Packing::sat_logged(const Problem& p, int P, const std::string& label, const SatLimit& limit,
                               std::vector<Placement>& pl, SatHint hint) {
  const auto s0 = Clock::now();
  run_.stage("SAT on period " + std::to_string(P) + label + ", stopped after " + std::to_string(limit.conflicts) +
                 " conflicts" + (limit.work != nullptr ? " or its share of the run's SAT work" : ""),
             sat_may_take(limit, candidate_vars(p, P)));
  std::int64_t vars = 0;
  SatStats stats;
  const SatOutcome o = sat_pack(p, P, limit, pl, &vars, hint, &stats);
  std::string line = "SAT period " + std::to_string(P) + label + ": " + outcome_word(o) + ", " + std::to_string(vars) +
                     " variables, " + seconds_since(s0);
  if (stats.capped) {
    line += ", " + std::string(kCappedNote);
    run_.capped(line);
  }
  out_.log.push_back(line);
  return o;
}

// Slot sums: with P = N-1 every slot of every NIC injects once and ejects once, so summed over
// all messages (eject - inject) = sum (hops - 1) is 0 mod P. Candidates have one length.
bool Packing::slot_sums_refute(int P) {
  const std::int64_t per_node = static_cast<std::int64_t>(t_.processor_count()) - 1;
  if (!nic_ || P != per_node) return false;
  std::int64_t sum = 0;
  bool fixed = true;
  for (const auto& it : prob_.items) {
    const int len = max_len(it);
    for (const auto& c : it.cands) fixed = fixed && !c.uses.empty() && c.uses.back().offset + 1 == len;
    sum += len - 1;
  }
  if (!fixed || sum % P == 0) return false;
  out_.log.push_back("period " + std::to_string(P) + ": infeasible by the slot-sum argument (every slot injects and " +
                     "ejects, so the hops minus one, " + std::to_string(sum) + ", must be 0 mod " + std::to_string(P) + ")");
  slot_sum_refuted_.push_back(P);
  return true;
}

// One SAT call on the search's problem: Sat (best updated), Unsat or Unknown, logged. It takes
// `share` of the run's SAT work left.
SatOutcome Packing::try_period(int P, double share) {
  if (std::find(sat_tried_.begin(), sat_tried_.end(), P) != sat_tried_.end()) return SatOutcome::Unknown;
  sat_tried_.push_back(P);
  if (slot_sums_refute(P)) return SatOutcome::Unsat;
  if (per_message_large_) {
    out_.log.push_back("SAT period " + std::to_string(P) + ": skipped (per-message model above " +
                       std::to_string(kAllPathsNodes) + " nodes: unknown on every mesh measured, 7x7 to 9x9, at 0.7 " +
                       "to 4.2 M variables and up to 9.5 GB; the local search has the time)");
    return SatOutcome::Unknown;
  }
  if (const std::string large = sat_too_large(prob_, P); !large.empty()) {
    out_.log.push_back("SAT period " + std::to_string(P) + ": skipped (" + large + ")");
    return SatOutcome::Unknown;
  }
  if (sat_work_ <= kNoWorkLeft) {
    out_.log.push_back("SAT period " + std::to_string(P) + ": no SAT work left");
    return SatOutcome::Unknown;
  }
  std::vector<Placement> pl;
  SatLimit limit{static_cast<std::int64_t>(budget_ * 2e5), safety_cap(run_.safety_seconds()), &sat_work_, share};
  const SatOutcome o = sat_logged(prob_, P, "", limit, pl, SatHint::None);
  if (o == SatOutcome::Sat) {
    best_ = std::move(pl);
    best_period_ = P;
  }
  return o;
}

// A packing found at the bound replaces the search's: the problem it packs (per message when
// `per_message`) and its placements.
void Packing::adopt(Problem packed, std::vector<Placement> placed, bool per_message) {
  prob_ = std::move(packed);
  best_ = std::move(placed);
  best_period_ = bound_;
  node_level_ = per_message;
  if (!per_message) out_.translation_invariant = true;
}

// Per message, detours where they help, at the bound (up to 16 nodes; try_detours says why). The
// search is the quotient by the translations by half of two rings (a quarter of the items; its
// detours come in fours, 44 on torus:4x4, still far from filling the links). Its own conflicts,
// not the run's SAT work: the translation-invariant calls before it may have spent that
// (torus:4x4: about 3 s).
void Packing::try_node_detours() {
  if (t_.nodes() > kDetourNodes || run_.request.translation_invariant_only) return;
  Problem node = node_problem(t_, nic_, true, true);
  const auto q = half_translation_quotient(t_, node, nic_);
  if (!q) {
    // No half-ring quotient (torus:2x2: a translation by half a ring of 2 is a whole one): on a
    // small model the every-route model itself (torus:2x2 nic: period 3, the bound, with a route
    // one hop longer, where the packing's minimal routes stop at 4).
    if (nic_ && every_route_vars(t_, bound_) <= kSmallEveryRouteVars) (void)try_every_route(bound_);
    return;
  }
  std::vector<Placement> pl;
  const SatOutcome o = sat_logged(q->quotient, bound_, " per message with detours, symmetric under half-ring translations",
                                  {static_cast<std::int64_t>(budget_ * 2e5), safety_cap(run_.safety_seconds())}, pl,
                                  SatHint::LikelySat);
  if (o != SatOutcome::Sat) return;
  auto [unfolded, placed] = orbit_unfold(t_, node, *q, pl, bound_, nic_);
  adopt(std::move(unfolded), std::move(placed), true);
}

// Slot sums refute the bound for minimal routes only: with P = N - 1 a schedule needs the hops
// minus one to add up to a multiple of P, which detours (two hops more, or the long way round an
// odd ring) can make. One SAT call on the bound with them (tori k = 5, 6, 7; the hypercubes have
// their own construction, the pipeline).
void Packing::try_detours() {
  if (!ti_applies_ || !nic_ || algo_ == "greedy" || !open_at_bound() ||
      std::find(slot_sum_refuted_.begin(), slot_sum_refuted_.end(), bound_) == slot_sum_refuted_.end())
    return;
  const auto& f = t_.factors();
  const bool cube4 = f.size() == 4 && std::all_of(f.begin(), f.end(), [](const Factor& x) { return x.size == 2; });
  if (cube4)
    out_.log.push_back("translation-invariant detours skipped: no translation-invariant schedule of period 15 "
                       "exists on the 4-cube (each dimension would need 15 hops, an odd number; docs/periodic.md)");
  Problem with = translation_invariant_problem(t_, nic_, true);
  // First the quarter-turn quotient (k x k, k odd, 4 | P): a quarter of the items and one link
  // track, which CaDiCaL settles where the full model stays unknown (torus:7x7 at 48).
  if (auto q = quarter_turn_quotient(t_, with, bound_, nic_)) {
    std::vector<Placement> pl;
    const SatOutcome o = sat_logged(q->quotient, bound_, " with detours, quarter-turn symmetric",
                                    {static_cast<std::int64_t>(budget_ * 2e5), safety_cap(run_.safety_seconds()), &sat_work_},
                                    pl, SatHint::LikelySat);
    if (o == SatOutcome::Sat) {
      auto [unfolded, placed] = quarter_turn_unfold(with, *q, pl, bound_, nic_);
      adopt(std::move(unfolded), std::move(placed), false);
    }
  }
  if (open_at_bound() && !cube4 && sat_too_large(with, bound_).empty() && sat_work_ > kNoWorkLeft) {
    std::vector<Placement> pl;
    // A tenth of the packing's conflicts: torus:4x4 stays unknown and would otherwise spend
    // seconds here.
    const SatOutcome o = sat_logged(with, bound_, " with detours",
                                    {static_cast<std::int64_t>(budget_ * 2e4), safety_cap(run_.safety_seconds()), &sat_work_},
                                    pl, SatHint::None);
    if (o == SatOutcome::Sat) adopt(std::move(with), std::move(pl), false);
  }
  // Not translation-invariant: per message, detours where they help. Slot sums need few of them
  // (torus:4x4 and hypercube:4: 14 of 240 messages two hops longer, where a translation-invariant
  // schedule needs one per offset at every node and fills every link), so CaDiCaL finds period
  // N - 1 where the translation-invariant models are unknown.
  if (open_at_bound()) try_node_detours();
}

// Meshes: first the mirror quotient at the bound (a quarter of the items on a 2-D mesh of even
// sides), which CaDiCaL settles where the per-message model stays unknown (docs/periodic.md).
// Dimension-ordered routes (XY and YX): mesh:6x6's quotient has 58 k variables with them. Its own
// conflicts (budget x 5e6), not the run's SAT work: a small mesh at its bound is worth it
// (mesh:6x6: 26 s).
void Packing::try_mesh_mirrors() {
  if (ti_ || algo_ == "greedy" || !open_at_bound()) return;
  // Not built at all where even a group of four and one route per message would pass the
  // quotient limit eight times (mesh:16x16: 33 M).
  const auto messages = static_cast<std::int64_t>(t_.nodes()) * (t_.nodes() - 1);
  if (messages / 4 * bound_ > 8 * kMaxQuotientVars) return;
  Problem xy = node_problem(t_, nic_, false);
  auto q = mesh_mirror_quotient(t_, xy, bound_, nic_);
  if (!q || candidate_vars(q->quotient, bound_) > kMaxQuotientVars || sat_work_ <= kNoWorkLeft) return;
  std::vector<Placement> pl;
  const std::string group = q->shift[1] != 0 ? "the half turn" : "the mirrors of the even sides";
  const SatOutcome o = sat_logged(q->quotient, bound_, ", symmetric under " + group,
                                  {static_cast<std::int64_t>(budget_ * 5e6), safety_cap(run_.safety_seconds())}, pl,
                                  SatHint::LikelySat);
  if (o != SatOutcome::Sat) return;
  auto [unfolded, placed] = orbit_unfold(t_, xy, *q, pl, bound_, nic_);
  adopt(std::move(unfolded), std::move(placed), true);
}

// The every-route model (nic) at period P: a detour may make it (torus:3x3 at 8), or nothing does
// (a proof for every schedule).
SatOutcome Packing::try_every_route(int P) {
  // Proven already (the per-message detour search asks it first where it has no quotient).
  if (std::find(every_route_unsat_.begin(), every_route_unsat_.end(), P) != every_route_unsat_.end()) return SatOutcome::Unsat;
  const std::int64_t vars = every_route_vars(t_, P);
  if (vars > kMaxEveryRouteVars) {
    out_.log.push_back("SAT period " + std::to_string(P) + " with every route: skipped (" + std::to_string(vars) +
                       " crossing variables, more than " + std::to_string(kMaxEveryRouteVars) + ")");
    return SatOutcome::Unknown;
  }
  const auto s0 = Clock::now();
  // The run's SAT work left, and at least a second's worth.
  SatLimit limit{static_cast<std::int64_t>(budget_ * 2e5), safety_cap(run_.safety_seconds()), &sat_work_, 1.0,
                 kConflictClausesPerSecond};
  run_.stage("SAT on period " + std::to_string(P) + " with every route (time-expanded), stopped after " +
                 std::to_string(limit.conflicts) + " conflicts or the run's SAT work",
             sat_may_take(limit, vars));
  Problem packed;
  std::vector<Placement> placed;
  std::int64_t used_vars = 0;
  SatStats stats;
  const SatOutcome o = every_route_sat(t_, P, limit, packed, placed, &used_vars, &stats);
  std::string line = "SAT period " + std::to_string(P) + " with every route: " + outcome_word(o) + ", " +
                     std::to_string(used_vars) + " variables, " + seconds_since(s0);
  if (stats.capped) {
    line += ", " + std::string(kCappedNote);
    run_.capped(line);
  }
  out_.log.push_back(line);
  if (o == SatOutcome::Sat) {
    prob_ = std::move(packed);
    best_ = std::move(placed);
    best_period_ = P;
    node_level_ = true;
  } else if (o == SatOutcome::Unsat) {
    every_route_unsat_.push_back(P);
  }
  return o;
}

// --algo exact: period by period from the bound; the first SAT is optimal for the model searched
// when all below were UNSAT. A period left unknown (work) is passed over: the schedule found above
// it is then not proven. Up to the local search's period: that one is then optimal if all below
// are UNSAT. Where minimal routes do not make period P, the every-route model (nic) decides it.
void Packing::exact_search() {
  for (int P = bound_; best_period_ == 0 && P < greedy_period_; ++P) {
    const SatOutcome o = try_period(P, 0.5);
    at_period_.push_back(o);
    if (o == SatOutcome::Sat) break;
    if (P == bound_ && nic_) {  // auto's detour and symmetric searches first: seconds where they apply
      try_detours();            // tori: translation-invariant, then per message (torus:3x4 11, 4x4 15)
      if (!ti_applies_ && best_period_ != bound_) try_node_detours();
      if (best_period_ != bound_) try_mesh_mirrors();  // mesh:4x4 16
      if (best_period_ == bound_) break;
    }
    if (nic_ && try_every_route(P) == SatOutcome::Sat) break;
    // The run's SAT work spent: the periods above get no SAT call (counted, not timed).
    if (o == SatOutcome::Unknown && sat_work_ < kExactWorkLeft) break;
  }
  if (best_period_ == 0) {  // none below the local search's period
    best_ = std::move(greedy_best_);
    best_period_ = greedy_period_;
    if (greedy_period_ > bound_)
      out_.log.push_back("exact: no period below " + std::to_string(best_period_) + " found within the budget; the local search's kept");
  }
}

void Packing::auto_search() {
  at_period_.assign(static_cast<std::size_t>(best_period_ - bound_), SatOutcome::Unknown);
  const auto known = [&](int P) { return at_period_[static_cast<std::size_t>(P - bound_)]; };
  // The bound first (half the SAT work; the period above it when slot sums refute it). Per
  // message, the local search before SAT: it reaches the bound in milliseconds where SAT on the
  // bound stays unknown for seconds and gigabytes (mesh:3x12: 108 by the local search in 0.5 s;
  // SAT at 108, 1.9 M variables, unknown after 20 s and 4.8 GB).
  try_mesh_mirrors();
  // With the list's period Q in hand (degraded networks, graph files), the descent starts below Q:
  // a period the list has is no news (torus:8x8~fail:27-28 nic: 85 down to 76 was 18 s of a 24 s
  // run, beside the list's 71).
  const int list_q = run_.list.period;
  const auto list_has = [&](int P) { return list_q > 0 && P >= list_q; };
  if (!ti_ && list_q > 0 && list_q < best_period_)
    out_.log.push_back("local search: " +
                       (list_q + 1 == best_period_ ? "period " + std::to_string(list_q)
                                                   : "periods " + std::to_string(list_q) + ".." + std::to_string(best_period_ - 1)) +
                       " skipped, the list's period " + std::to_string(list_q) + " in hand");
  // Slot sums before the local search, which would spend its work on a period they refute
  // (torus:4x4~fail:0-1 nic: 4 s at 15).
  if (!ti_ && best_period_ > bound_ && slot_sums_refute(bound_)) {
    sat_tried_.push_back(bound_);
    at_period_[0] = SatOutcome::Unsat;
  }
  if (!ti_) local_search_down([&](int P) { return list_has(P) || known(P) == SatOutcome::Unsat; });
  if (best_period_ > bound_ && known(bound_) == SatOutcome::Unknown) at_period_[0] = try_period(bound_, 0.5);
  try_detours();  // before bound + 1: where it finds the bound, the search below has nothing left to do
  // The period above a refuted bound, unless the list has it: there a packing only adds the
  // slot-sum proof, which needs minimal routes (torus:4x4~fail:0-1 nic: the list's 16 takes a
  // detour, the packing's 16 does not).
  const bool refuted_by_slot_sums = std::count(slot_sum_refuted_.begin(), slot_sum_refuted_.end(), bound_) > 0;
  if (at_period_[0] == SatOutcome::Unsat && best_period_ > bound_ + 1 &&
      (!list_has(bound_ + 1) || (refuted_by_slot_sums && !minimal_routes(t_, run_.list))))
    at_period_[1] = try_period(bound_ + 1, 0.4);
  if (ti_) local_search_down([&](int P) { return known(P) == SatOutcome::Unsat; });
  // SAT down from there while SAT; with the list's period in hand (degraded networks) from below
  // it: a period the list has is no news (torus:8x8~fail:0-1,2-10 all-port: SAT at 70, where the
  // list had 70, was 61 s of unknown).
  const int below = run_.list.period > 0 ? std::min(best_period_, run_.list.period) : best_period_;
  for (int P = below - 1; best_period_ > bound_ && P > bound_; --P) {
    if (known(P) != SatOutcome::Unknown) continue;
    const SatOutcome o = try_period(P, 0.5);
    at_period_[static_cast<std::size_t>(P - bound_)] = o;
    if (o != SatOutcome::Sat) break;
  }
  // Below a proven-infeasible period, the periods not yet decided (for an optimality proof).
  if (best_period_ > bound_ && known(best_period_ - 1) == SatOutcome::Unsat)
    for (int P = best_period_ - 2; P > bound_; --P)
      if (known(P) == SatOutcome::Unknown) {
        at_period_[static_cast<std::size_t>(P - bound_)] = try_period(P, 0.5);
        if (known(P) != SatOutcome::Unsat) break;
      }
}

PeriodicOutcome Packing::finish() {
  if (run_.product.period > 0 && run_.product.period < best_period_)
    return run_.constructed(std::move(run_.product.patterns), "periodic-product", run_.product.period);
  if (run_.list.period > 0 && run_.list.period < best_period_) {
    (void)list_outcome(run_, std::move(run_.list));  // it sets out_
    // What is known below its period holds whoever found it; "optimal among" the packing's model
    // would not describe the list's routes, so only the general and the minimal-route proofs.
    prove_below(out_.schedule.period, minimal_routes(t_, out_.schedule), false);
    return out_;
  }
  if (node_level_ && ti_) {  // the per-message detour search replaced the translation-invariant packing
    out_.translation_invariant = false;
    out_.algorithm = "periodic-node";
  }
  out_.schedule = !node_level_ ? expand_translation_invariant(t_, run_.m, prob_, best_, best_period_)
                               : expand_node(t_, run_.m, prob_, best_, best_period_);
  out_.schedule.algorithm = out_.algorithm;
  run_.prove_if_at_bound(best_period_);
  prove_below(best_period_, true, true);
  return out_;
}

// The proof of a schedule of `period` from what the search settled below it: every route's model
// UNSAT (general), slot sums (for schedules with minimal routes: `minimal`), or the packing's
// model UNSAT (`in_model`: the schedule is one of that model's).
void Packing::prove_below(int period, bool minimal, bool in_model) {
  bool all_unsat_below = period > bound_;
  for (int P = bound_; P < period; ++P)
    all_unsat_below = all_unsat_below && static_cast<std::size_t>(P - bound_) < at_period_.size() &&
                      at_period_[static_cast<std::size_t>(P - bound_)] == SatOutcome::Unsat;
  const auto count_below = [&](const std::vector<int>& periods) {
    return std::count_if(periods.begin(), periods.end(), [&](int P) { return P < period; });
  };
  const std::string below = std::to_string(bound_) + ".." + std::to_string(period - 1);
  if (period > bound_ && count_below(every_route_unsat_) == period - bound_) {
    out_.proven_optimal = true;
    out_.proof_general = true;
    out_.proof_scope = "general";
    out_.proof = "optimal: periods " + below +
                 " are infeasible for every route (the time-expanded SAT model with any walk per message is UNSAT)";
  } else if (minimal && all_unsat_below && count_below(slot_sum_refuted_) == period - bound_) {
    // Every period below refuted by slot sums, which hold for any schedule whose routes are minimal.
    out_.proven_optimal = true;
    out_.proof_scope = "minimal routes";
    out_.proof = "optimal among schedules with minimal routes: periods " + below +
                 " are infeasible for them by the slot-sum argument (with P = N-1 " +
                 "every slot injects and ejects once per node, so the hops minus one must sum to 0 mod P); the period " +
                 "bound " + std::to_string(bound_) + " is not reached";
  } else if (in_model && all_unsat_below) {
    out_.proven_optimal = true;
    out_.proof_scope = "model searched";
    out_.proof = "optimal among " + model_searched_ + ": periods " + below + " infeasible (the period bound " +
                 std::to_string(bound_) + " is not reached; the proof holds for that model only)";
  }
}

PeriodicOutcome Packing::search() {
  if (beyond_packing_size()) return list_outcome(run_, std::move(run_.list));
  build_problem();
  mirror_quotient_start();
  if (!first_fit()) return list_outcome(run_, std::move(run_.list));
  if (algo_ == "exact") local_search_down([](int) { return false; });
  greedy_best_ = best_;
  greedy_period_ = best_period_;
  if (algo_ == "exact") {
    best_period_ = 0;
    exact_search();
  } else if (algo_ != "greedy" && best_period_ > bound_) {
    auto_search();
  }
  return finish();
}

}  // namespace

void Run::stage(const std::string& what, double may_take) const {
  const double so_far = std::chrono::duration<double>(Clock::now() - t0).count();
  if (so_far > Progress::kQuietSeconds || may_take > Progress::kQuietSeconds)
    std::fprintf(stderr, "schedule --periodic %s: %s (%.0f s so far)\n", t.spec().c_str(), what.c_str(), so_far);
}

void Run::capped(const std::string& what) {
  out.capped = true;
  std::fprintf(stderr, "schedule --periodic %s: %s\n", t.spec().c_str(), what.c_str());
}

PeriodicOutcome packing_schedule(Run& run) { return Packing(run).search(); }

}  // namespace totex::periodic
