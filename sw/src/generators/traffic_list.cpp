// SPDX-License-Identifier: Apache-2.0
// The list scheduler for any traffic (docs/traffic.md, "Schedules"): every flit goes on one of a
// few shortest paths, hops on consecutive steps (so no relay ever buffers, valid under every
// model), at the earliest start where every resource it needs is free. Resources are the
// directed links and, per model, the NIC's inject and eject port or the single-port node's send
// and receive port; a calendar per resource records its busy steps (one-shot) or slots (periodic).
#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>
#include <cstdint>
#include <limits>
#include <cmath>
#include <functional>
#include <numeric>
#include <deque>
#include <queue>
#include <random>
#include <stdexcept>
#include <vector>

#include "totex/error.hpp"
#include "totex/generators/periodic.hpp"
#include "totex/generators/scheduler.hpp"
#include "totex/generators/traffic_schedule.hpp"
#include "totex/splitmix.hpp"
#include "totex/traffic/traffic_bounds.hpp"
#include "totex/traffic/translations.hpp"
#include "totex/verify/message_index.hpp"
#include "base_relabel.hpp"
#include "cnf.hpp"
#include "ilp.hpp"

namespace totex {
namespace {

constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
/// Moves a repaired flit stays put: one per kTenureFlits flits, at least kTenure (torus:8x8~fail:0-1
/// nic, 4,032 flits: 10 gave 76 steps, 20 to 50 give 74; torus:6x6~fail:0-1 all-port, 1,260
/// flits: 10 gives 30, 30 gives 31).
constexpr std::int64_t kTenure = 10;
constexpr std::int64_t kTenureFlits = 128;
/// Look-ups of the min-conflicts repair of a degraded network's base schedule (list_schedule,
/// one-shot), about a second.
constexpr std::int64_t kDegradedRepairWork = 40'000'000;
/// Starting points of that repair while the schedule is above the bound: the base schedule, then
/// relabelled by up to kRelabelStarts - 1 of the base network's symmetries (base_relabel.hpp),
/// each with the work the ones before left (torus:8x8~fail:0-1 nic: 74 from the base as it is,
/// 73 from its reflection in dimension 0).
constexpr std::size_t kRelabelStarts = 4;
/// The negotiated placement gives up after this many rounds without fewer flits on shared slots:
/// with prices that grow slowly (below) the fewest falls in long strides (torus:16x16
/// random:1:0.1:2 nic at period 87: from 21 to 10 in 400 rounds, to 6 in 200 more, to 2 in
/// 800 more); at a period below the best possible it stops falling.
constexpr std::int64_t kStallRounds = 1000;
/// The negotiated placements' prices (PathFinder's present and history factors, both
/// negotiations: place_negotiated and negotiate_quadrants): a shared slot's present price starts
/// at kPresentStart per other flit and grows kPresentGrowth-fold a round up to kPresentMax (a cap
/// keeps the prices finite); a slot shared after a round gets kHistoryStep per extra flit for
/// good. Slow growth, the flits of a round re-placed in a new seeded order: the flits trade slots
/// for many rounds before the prices freeze them (2026-11-30, against growth 2, history 0.5, a
/// fixed order and 120 stall rounds: torus:16x16 random:1:0.1:2 nic periodic 90 -> 88 and
/// one-shot 93 -> 91, mesh:16x16 random:1:0.1:2 periodic 161 -> 158, the bound; docs/traffic.md).
constexpr double kPresentStart = 0.5;
constexpr double kPresentGrowth = 1.05;
constexpr double kPresentMax = 1e4;
constexpr double kHistoryStep = 0.3;
/// A negotiated placement that stalls (kStallRounds) with work left starts again from the same
/// placement with the next seed, at most this many times: the ties fall otherwise, and the paths
/// the stalled runs found stay among the candidate routes (mesh:8x8 random:1:0.1:2 nic one-shot
/// 26 -> 25). Work, not the restarts, stops the large runs.
constexpr int kNegotiationRestarts = 3;
/// The first tie-breaking seed of a negotiation (the restarts continue its splitmix64 sequence).
constexpr std::uint64_t kNegotiationSeed = 0x9a7f1de5;
/// The periodic search's last try at the bound starts its negotiations from this seed instead.
constexpr std::uint64_t kRetrySeed = 0x2545f4914f6cdd1d;
/// Networks up to this many nodes get that repair (the base's auto schedule takes about a second
/// on torus:8x8 nic, 13 s on torus:16x16, where the repair's work is too small to gain anyway).
constexpr int kRepairMaxNodes = 128;
/// The periodic search on a network with failed links starts from the base network's periodic
/// schedule up to this many nodes (torus:16x16's takes 13 s: the rotation's SAT repair).
constexpr int kBaseStartMaxNodes = 256;
/// The negotiated placement prices every shortest path of a pair at once where its shortest-path
/// graph has at most this many nodes (else its candidate routes).
constexpr std::size_t kMaxPathGraph = 512;
/// One-shot under nic on a network with failed links, the negotiated placement also prices every
/// path up to this many hops longer than a shortest one (cheapest_detour), and takes one where it
/// is cheaper: a NIC injects and ejects one flit a step, and a path two hops longer moves a flit's
/// ejection two steps from its injection where no relay may hold it (torus:8x8~fail:0-1 nic 73 ->
/// 72 steps). Not on healthy networks, whose shortest paths are many (torus:16x16 random:1:0.1:2
/// one-shot 91 -> 93 with them, periodic at --budget 40 87 -> 89), nor periodic or all-port,
/// where they took link slots the others needed (torus:8x8~fail:0-1,2-10 all-port one-shot 69 ->
/// 70), nor above kDetourMaxNodes nodes, where a placement over horizons of 550 costs about four
/// times as much and the shortening's work runs out sooner (torus:16x16~fail:0-1,2-18 nic 558 ->
/// 567), measured 2026-12-01.
constexpr int kDetourHops = 2;
constexpr int kDetourMaxNodes = 128;
/// cheapest_detour's graph at most this many (node, hops) places (else shortest paths only).
constexpr std::size_t kMaxDetourGraph = 4 * kMaxPathGraph;
/// The dynamic program over a path graph counts one look-up per this many starts of a hop: its
/// loops over the starts are vectorised adds and compares (measured 2026-11-29 on this machine:
/// the periodic search on torus:16x16 random:1:0.1:2 ran 195 M look-ups a second counting one per
/// start, where the budget's unit is 40 M).
constexpr std::int64_t kStartsPerLookup = 4;
/// route-sat's SAT work counts a conflict as at least this many clauses (cnf.hpp's rate): on a
/// small model with many conflicts the learned clauses, not the model, set a conflict's cost
/// (measured 2026-11-30: 762,836 conflicts on 2,580 clauses took 29 s, 38 us each, as many as
/// 22,800 clauses at that rate; 26,699 on 93,192 clauses 1.8 s). Without it the async.xml
/// 2x2 torus spent 62 s on two small models.
constexpr std::int64_t kConflictCostFloor = 20'000;
/// The work of `conflicts` conflicts on a model of `clauses` clauses (route-sat).
double conflict_work(std::int64_t conflicts, std::int64_t clauses) {
  return static_cast<double>(conflicts) * static_cast<double>(std::max(clauses, kConflictCostFloor));
}
/// The one-shot greedy over every shortest path (place_every_path) may spend what the search
/// spent before it (the balanced routes and the priority orders), and at least this many look-ups.
constexpr std::int64_t kGreedyWork = 50'000'000;
/// Priority orders the periodic search tries at each period before the negotiated placement.
constexpr int kPeriodicOrders = 4;
/// The periodic search and the one-shot shortening step down at most 1/kMaxStepDown of the length
/// in hand at a time, each try with all the work left (it stops when the negotiation stalls):
/// b15x15_cf0.50 periodic 733 -> 723, where steps of 2 % with a third of the work each ended tries
/// that were still converging (729 with 150 flits in conflict, 732 with 68); steps of 4 % had 744.
constexpr std::int64_t kMaxStepDown = 100;
/// The periodic search's first try, at the bound, when the period in hand (the one-shot schedule's
/// length) is more than 5 % above it: the negotiation from the balanced routes' greedy placement
/// gets this fraction of the work. It is hopeless on large traffic where the links bind (torus:16x16
/// random, the b15x15 sets: the same periods with it), and it fits where few flits meet: mesh:6x6
/// perm:transpose:8 period 13 in 40,728 look-ups (14 without: from the schedules of the descent
/// it stalls), torus:8x8 perm:bitrev:4 5 (6).
constexpr std::int64_t kColdBoundShare = 64;
/// repair_by_sat: it takes a placement with at most kRepairMaxConflicted flits on shared slots;
/// attempt a (of kRepairAttempts) frees up to kRepairFlits << a more, in kRepairDepth levels,
/// each freed flit freeing the flits in the way of its 2 << a least blocked choices (those with
/// at most kRepairInWay in the way); the freed pairs get up to kRepairRoutes shortest paths.
constexpr std::size_t kRepairMaxConflicted = 128;
constexpr std::size_t kRepairFlits = 64;
constexpr int kRepairAttempts = 6;
constexpr int kRepairDepth = 3;
constexpr std::size_t kRepairInWay = 2;
constexpr std::size_t kRepairRoutes = 24;
constexpr std::size_t kRepairMaxUses = 1'000'000;
/// The repair takes at most 1/kRepairShare of the work left and kRepairRatio x what the
/// negotiation before it took (torus:8x8 perm:transpose:8 periodic: with all the work left, its
/// SAT models at period 11 spent what the candidate routes' negotiation needs to fit there;
/// mesh:8x8 random:1:0.3:4 periodic: with a quarter, the last try's restarts lost the bound 100;
/// torus:16x16 random:1:0.1:2 periodic: 90 needs 1.3 x).
constexpr std::int64_t kRepairShare = 4;
constexpr std::int64_t kRepairRatio = 2;
/// add_lp_routes: flow below this is rounding; at most this many paths per source.
constexpr double kLpFlowEpsilon = 1e-6;
/// route_sat_schedule solves the congestion LP for its routes up to this many flow variables (the
/// bound's default limit).
constexpr std::int64_t kLpRouteColumns = 65536;
constexpr int kLpPathsPerSource = 256;
/// route_sat_schedule's path-graph stage (place_sat_paths): paths up to this many hops longer
/// than a shortest one.
constexpr int kPathGraphExtra = 4;
/// negotiate_quadrants (prices as place_negotiated's, kPresentStart ...): one in this many flits
/// free of conflicts moved anyway each pass. route_sat_schedule's stage over its directions tries
/// at most kQuadrantTries negotiations (seeds 1, 2, ...), each with kQuadrantLookups look-ups at
/// most (the fewest conflicts come within them: 100 M gave the same directions on torus:16x16
/// perm:transpose:2), on tori of at most kQuadrantMaxDims dimensions (2^dims direction choices
/// a pair, a bit each).
constexpr std::uint64_t kQuadrantRerouteOdds = 8;
constexpr int kQuadrantTries = 4;
constexpr std::int64_t kQuadrantLookups = 20'000'000;
constexpr std::size_t kQuadrantMaxDims = 5;
/// route_sat_schedule's two-turn stage (place_ilp over two_turn_routes, periodic, 1-D and 2-D
/// tori whose traffic some translations keep): CBC's work is counted as kIlpWorkPerElement per
/// nonzero of the program per node, the root (its cuts and feasibility pump) as kIlpRootNodes
/// nodes, in the SAT stages' unit (6e8 a second). Measured 2026-12-01 on this 2-core machine: a
/// root of 0.02-1.3 s on 4,000-52,000 nonzeros (torus:16x16 perm:shift:5:2 at period 7, the
/// bound: 43,414, 1.3 s), up to 11 s on 143,000 (perm:transpose:2 at 7), so at most
/// kIlpMaxElements; a node 16-51 ms on 27,000 (torus:8x8 perm:transpose:8 at 10 and 9). The stage
/// takes at most 1/kIlpShare of the work left for a period.
constexpr double kIlpWorkPerElement = 1200;
constexpr std::int64_t kIlpRootNodes = 15;
constexpr std::int64_t kIlpMaxElements = 60000;
constexpr double kIlpShare = 2;
/// route_sat_schedule's detour stage: at most this many routes per pair.
constexpr std::size_t kDetourRoutes = 48;
/// The look-ups a translation check may take (network nodes x traffic pairs).
constexpr std::int64_t kOrbitCheckWork = 50'000'000;

/// Busy steps per resource. One-shot (period 0): a growing bit set per resource. Periodic: P bits
/// per resource, step t using slot t mod P.
class Calendar {
 public:
  Calendar(std::size_t resources, int period) : period_(period), bits_(resources) {
    if (period_ > 0)
      for (auto& b : bits_) b.assign((static_cast<std::size_t>(period_) + 63) / 64, 0);
  }
  /// The first step >= t the resource is free in (kNever: a periodic resource busy in every slot).
  [[nodiscard]] std::int64_t next_free(std::size_t r, std::int64_t t) const {
    const std::vector<std::uint64_t>& b = bits_[r];
    if (period_ == 0) {
      for (auto w = static_cast<std::size_t>(t) / 64; w < b.size(); ++w) {
        std::uint64_t free = ~b[w];
        if (w == static_cast<std::size_t>(t) / 64) free &= ~std::uint64_t{0} << (t % 64);
        if (free != 0) return static_cast<std::int64_t>(w * 64) + __builtin_ctzll(free);
      }
      return std::max<std::int64_t>(t, static_cast<std::int64_t>(b.size() * 64));
    }
    const std::int64_t P = period_;
    for (std::int64_t d = 0; d < P; ++d) {
      const std::int64_t s = (t + d) % P;
      if (((b[static_cast<std::size_t>(s) / 64] >> (s % 64)) & 1) == 0) return t + d;
    }
    return kNever;
  }
  /// Resource r's words (one-shot: steps 64 w .. 64 w + 63 in word w; steps past them are free).
  [[nodiscard]] const std::vector<std::uint64_t>& row(std::size_t r) const { return bits_[r]; }
  void take(std::size_t r, std::int64_t t) {
    std::vector<std::uint64_t>& b = bits_[r];
    const auto s = static_cast<std::size_t>(period_ > 0 ? t % period_ : t);
    if (s / 64 >= b.size()) b.resize(s / 64 + 1 + b.size() / 2, 0);
    b[s / 64] |= std::uint64_t{1} << (s % 64);
  }

 private:
  int period_;
  std::vector<std::vector<std::uint64_t>> bits_;
};

/// One resource a path needs, `offset` steps after its start.
struct Use {
  std::uint32_t resource;
  std::int32_t offset;
};

struct Route {
  std::vector<LinkId> links;
  std::vector<Use> uses;
};

/// A pair (src, dst) with its flits and candidate routes.
struct Pair {
  NodeId src, dst;
  std::int32_t flits;
  std::int32_t dist;
  std::int64_t weight;  // priority: the larger of the source's and the destination's totals
  std::vector<Route> routes;
};

struct Placed {
  std::uint32_t pair;
  std::int32_t route;
  std::int64_t start;
};

/// The translations that map the traffic onto itself (translations.hpp), counted on the list
/// scheduler's resources: a schedule that every translation maps onto itself is given by the
/// routes of one pair per orbit, and it is valid exactly when no two uses fall on one orbit of
/// resources in one slot (a translation other than the identity fixes no node, so no resource).
struct TranslationOrbits {
  Translations group;
  std::vector<std::uint32_t> resource_orbit;  // per resource, its orbit
  std::uint32_t orbits = 0;                   // how many resource orbits
};

class ListScheduler {
 public:
  ListScheduler(const Topology& t, Model m, const Traffic& traffic, int routes) : t_(t), m_(m), traffic_(traffic) {
    const int n = t.nodes();
    if (n > kMaxTrafficNodes)
      throw ResourceError("resources: the list scheduler takes at most " + std::to_string(kMaxTrafficNodes) + " nodes; " + t.spec() +
                          " has " + std::to_string(n));
    dist_.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), -1);
    std::vector<bool> needed(static_cast<std::size_t>(n), false);
    traffic.for_each([&](NodeId, NodeId d, std::int64_t) { needed[static_cast<std::size_t>(d)] = true; });
    for (NodeId d = 0; d < n; ++d)
      if (needed[static_cast<std::size_t>(d)]) bfs_to(d);
    std::int64_t hops = 0;
    traffic.for_each([&](NodeId s, NodeId d, std::int64_t w) {
      const int k = dist(s, d);
      if (k < 0)
        throw UsageError("traffic " + traffic.spec() + " cannot be delivered on " + t.spec() + ": node " + std::to_string(d) +
                         " cannot be reached from node " + std::to_string(s));
      hops += w * k;
      pairs_.push_back({s, d, static_cast<std::int32_t>(w), k, std::max(traffic.sent(s), traffic.received(d)), {}});
    });
    constexpr std::int64_t kMaxHops = std::int64_t{1} << 27;
    if (hops > kMaxHops)
      throw ResourceError("resources: traffic " + traffic.spec() + " needs " + std::to_string(hops) + " link crossings on " + t.spec() +
                          ", more than the list scheduler's " + std::to_string(kMaxHops));
    for (Pair& p : pairs_) {
      p.routes = candidate_routes(p.src, p.dst, routes);
      first_flit_.push_back(flits_);
      flits_ += static_cast<std::size_t>(p.flits);
    }
  }

  /// A route per flit that keeps the most loaded link low (links only: the NIC and port totals do
  /// not depend on the route). Rip-up and reroute: every flit in turn is taken off and put back on
  /// the cheapest path (Dijkstra, any length) under link costs exp(load / target * ln 64), which
  /// grow fast near the target load (the multiplicative-weights idea of the congestion LP); a new
  /// path joins the pair's candidates. Where pairs x links is past `max_search`, the candidates
  /// alone are compared (busiest link, then total load).
  [[nodiscard]] std::vector<std::int32_t> balanced_routes(int passes, std::int64_t target, std::int64_t max_search, std::int64_t& work) {
    const auto L = static_cast<std::size_t>(t_.links());
    std::vector<std::int64_t> load(L, 0);
    std::vector<std::int32_t> route(flits_, -1);
    const bool search = static_cast<std::int64_t>(pairs_.size()) * static_cast<std::int64_t>(L) <= max_search;
    const double scale = std::log(64.0) / static_cast<double>(std::max<std::int64_t>(1, target));
    std::vector<double> cost(static_cast<std::size_t>(t_.nodes()));
    std::vector<LinkId> via(static_cast<std::size_t>(t_.nodes()));
    // exp(load x scale) per integer load, grown as loads grow (exp was a third of the search's time).
    std::vector<double> exp_of;
    const auto link_cost = [&](std::int64_t x) {
      while (static_cast<std::int64_t>(exp_of.size()) <= x) exp_of.push_back(std::exp(static_cast<double>(exp_of.size()) * scale));
      return exp_of[static_cast<std::size_t>(x)];
    };
    const auto cheapest = [&](Pair& p) -> std::int32_t {
      // Dijkstra from src (dense: networks here have at most a few thousand nodes).
      std::fill(cost.begin(), cost.end(), std::numeric_limits<double>::infinity());
      std::vector<bool> done(cost.size(), false);
      cost[static_cast<std::size_t>(p.src)] = 0;
      using Item = std::pair<double, NodeId>;
      std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
      queue.emplace(0.0, p.src);
      while (!queue.empty()) {
        const auto [c, v] = queue.top();
        queue.pop();
        if (done[static_cast<std::size_t>(v)]) continue;
        done[static_cast<std::size_t>(v)] = true;
        if (v == p.dst) break;
        for (Port q = 0; q < t_.degree(v); ++q) {
          ++work;
          const LinkId l = t_.link_id(v, q);
          const NodeId u = t_.neighbor(v, q);
          const double cu = c + link_cost(load[static_cast<std::size_t>(l)] + 1);
          if (cu < cost[static_cast<std::size_t>(u)]) {
            cost[static_cast<std::size_t>(u)] = cu;
            via[static_cast<std::size_t>(u)] = l;
            queue.emplace(cu, u);
          }
        }
      }
      Route r;
      for (NodeId v = p.dst; v != p.src; v = t_.link_source(via[static_cast<std::size_t>(v)])) r.links.push_back(via[static_cast<std::size_t>(v)]);
      std::reverse(r.links.begin(), r.links.end());
      for (std::size_t i = 0; i < p.routes.size(); ++i)
        if (p.routes[i].links == r.links) return static_cast<std::int32_t>(i);
      add_uses(p.src, p.dst, r);
      p.routes.push_back(std::move(r));
      return static_cast<std::int32_t>(p.routes.size() - 1);
    };
    const auto best_candidate = [&](const Pair& p) {
      std::int32_t best = 0;
      std::int64_t best_max = kNever, best_sum = kNever;
      for (std::size_t r = 0; r < p.routes.size(); ++r) {
        std::int64_t mx = 0, sum = 0;
        for (LinkId l : p.routes[r].links) {
          const std::int64_t x = load[static_cast<std::size_t>(l)] + 1;
          mx = std::max(mx, x);
          sum += x;
        }
        work += static_cast<std::int64_t>(p.routes[r].links.size());
        if (mx < best_max || (mx == best_max && sum < best_sum)) {
          best_max = mx;
          best_sum = sum;
          best = static_cast<std::int32_t>(r);
        }
      }
      return best;
    };
    const auto add = [&](const Pair& p, std::int32_t r, std::int64_t d) {
      for (LinkId l : p.routes[static_cast<std::size_t>(r)].links) load[static_cast<std::size_t>(l)] += d;
    };
    for (int pass = 0; pass <= passes; ++pass)
      for (std::size_t pi = 0; pi < pairs_.size(); ++pi) {
        Pair& p = pairs_[pi];
        for (std::int32_t k = 0; k < p.flits; ++k) {
          std::int32_t& r = route[first_flit_[pi] + static_cast<std::size_t>(k)];
          if (r >= 0) add(p, r, -1);
          r = search && pass > 0 ? cheapest(p) : best_candidate(p);
          add(p, r, +1);
        }
      }
    return route;
  }

  /// Marks the resources `tr` (in step `step`, message's first hop `first`, last `last`) uses.
  void take(Calendar& cal, const Transfer& tr, std::int64_t step, bool first, bool last) const {
    const auto L = static_cast<std::size_t>(t_.links());
    const auto N = static_cast<std::size_t>(t_.nodes());
    const LinkId l = t_.link_id(tr.from, tr.port);
    cal.take(static_cast<std::size_t>(l), step);
    if (m_ == Model::SinglePort) {
      cal.take(L + static_cast<std::size_t>(tr.from), step);
      cal.take(L + N + static_cast<std::size_t>(t_.link_target(l)), step);
    }
    if (m_ == Model::Nic && first) cal.take(L + static_cast<std::size_t>(tr.msg.src), step);
    if (m_ == Model::Nic && last) cal.take(L + N + static_cast<std::size_t>(tr.msg.dst), step);
  }
  [[nodiscard]] Calendar calendar(int period) const { return Calendar(resources(), period); }
  /// The index of `links` among pair pi's routes, added when new.
  std::int32_t route_index(std::size_t pi, const std::vector<LinkId>& links) {
    Pair& p = pairs_[pi];
    for (std::size_t r = 0; r < p.routes.size(); ++r)
      if (p.routes[r].links == links) return static_cast<std::int32_t>(r);
    Route r;
    r.links = links;
    add_uses(p.src, p.dst, r);
    p.routes.push_back(std::move(r));
    return static_cast<std::int32_t>(p.routes.size() - 1);
  }

  /// The routes of every flit balanced (balanced_routes) under the load they aim at: the period,
  /// or one-shot the average link load (all flits' hops over the directed links, rounded up).
  [[nodiscard]] std::vector<std::int32_t> balanced(int period, std::int64_t& work) {
    std::int64_t target = period;
    if (period <= 0) {
      std::int64_t hops = 0;
      for (const Pair& p : pairs_) hops += static_cast<std::int64_t>(p.flits) * p.dist;
      target = (hops + t_.links() - 1) / std::max(1, t_.links());
    }
    return balanced_routes(4, target, std::int64_t{1} << 26, work);
  }

  /// Steps until the last flit of `placed` arrives.
  [[nodiscard]] std::int64_t length(const std::vector<Placed>& placed) const {
    std::int64_t steps = 0;
    for (const Placed& x : placed) steps = std::max(steps, finish(x));
    return steps;
  }
  /// The step after a placed flit's last hop.
  [[nodiscard]] std::int64_t finish(const Placed& x) const {
    return x.start + static_cast<std::int64_t>(pairs_[x.pair].routes[static_cast<std::size_t>(x.route)].links.size());
  }

  [[nodiscard]] std::size_t resources() const {
    return static_cast<std::size_t>(t_.links()) + (m_ == Model::AllPort ? 0 : 2 * static_cast<std::size_t>(t_.nodes()));
  }

  /// Places every flit in `order` (pair, flit) in turn; with `fixed` (per flit, pair_first_[pair] + k)
  /// each on its given route, otherwise on the route that arrives first. False when a periodic
  /// flit does not fit.
  /// `keep_going`: a flit that does not fit is recorded unplaced (route -1) and the rest are still
  /// placed, so `out` matches `order` entry for entry (a start for the repair).
  bool place(int period, const std::vector<std::pair<std::uint32_t, std::int32_t>>& order, const std::vector<std::int32_t>* fixed,
             std::vector<Placed>& out, std::int64_t& work, const Calendar* initial = nullptr, bool keep_going = false) const {
    Calendar cal = initial != nullptr ? *initial : Calendar(resources(), period);
    out.clear();
    out.reserve(order.size());
    bool all_placed = true;
    for (const auto& [pi, k] : order) {
      const Pair& p = pairs_[pi];
      std::int64_t best_finish = kNever, best_start = 0;
      int best_route = -1;
      const std::size_t only = fixed ? static_cast<std::size_t>((*fixed)[first_flit_[pi] + static_cast<std::size_t>(k)]) : 0;
      for (std::size_t r = fixed ? only : 0; r < (fixed ? only + 1 : p.routes.size()); ++r) {
        const std::int64_t start = earliest(cal, p.routes[r], period, work);
        if (start == kNever) continue;
        const std::int64_t finish = start + static_cast<std::int64_t>(p.routes[r].links.size());
        if (finish < best_finish) {
          best_finish = finish;
          best_start = start;
          best_route = static_cast<int>(r);
        }
      }
      if (best_route < 0) {
        if (!keep_going) return false;
        all_placed = false;
        out.push_back({pi, -1, -1});
        continue;
      }
      for (const Use& u : p.routes[static_cast<std::size_t>(best_route)].uses) cal.take(u.resource, best_start + u.offset);
      out.push_back({pi, best_route, best_start});
    }
    return all_placed;
  }

  /// One-shot, every shortest path at once: each flit of `order` at its earliest start over all
  /// the shortest paths of its pair (T-CREST Poseidon's greedy places each channel so, the
  /// longest first). Bit s of a graph node's words is set when a path from the source reaches the
  /// node with each hop h free in step s + h; the earliest start is the destination's lowest bit,
  /// and the path is walked back from it (ties rotated by `seed`, so paths spread). A pair whose
  /// shortest-path graph has more than kMaxPathGraph nodes takes the earliest of its candidate
  /// routes. One look-up per word of starts and hop; false (out incomplete) once it has spent
  /// more than `limit`.
  bool place_every_path(const std::vector<std::pair<std::uint32_t, std::int32_t>>& order, std::vector<Placed>& out,
                        std::int64_t& work, std::int64_t limit, std::uint64_t seed) {
    const std::int64_t work_before = work;
    const auto L = static_cast<std::size_t>(t_.links());
    const auto N = static_cast<std::size_t>(t_.nodes());
    Calendar cal(resources(), 0);
    std::size_t words = 1;  // starts 0 .. 64 words - 1: past every busy step, so a start always fits
    // dst[w] bit j: resource r free in step h + 64 w + j.
    const auto free_from = [&](std::size_t r, std::size_t h, std::uint64_t* dst) {
      const std::vector<std::uint64_t>& b = cal.row(r);
      const std::size_t q = h / 64, sh = h % 64;
      for (std::size_t w = 0; w < words; ++w) {
        const std::uint64_t lo = q + w < b.size() ? b[q + w] : 0;
        const std::uint64_t hi = q + w + 1 < b.size() ? b[q + w + 1] : 0;
        dst[w] = ~(sh == 0 ? lo : (lo >> sh) | (hi << (64 - sh)));
      }
    };
    // Every resource hop h over link l holds, free in acc's starts.
    const auto and_hop = [&](LinkId l, std::size_t h, std::uint64_t* acc, std::vector<std::uint64_t>& tmp) {
      tmp.resize(words);
      for_hop_resources(l, [&](std::size_t r) {
        free_from(r, h, tmp.data());
        for (std::size_t w = 0; w < words; ++w) acc[w] &= tmp[w];
      });
      work += static_cast<std::int64_t>(words);
    };
    const auto lowest = [&](const std::uint64_t* x) -> std::int64_t {
      for (std::size_t w = 0; w < words; ++w)
        if (x[w] != 0) return static_cast<std::int64_t>(w * 64) + __builtin_ctzll(x[w]);
      return kNever;
    };
    std::vector<std::uint64_t> reach, acc, tmp;
    const std::vector<PathHop>& edges = shortest_.hops;
    const std::vector<std::size_t>& layer_edges = layer_edges_;
    out.clear();
    out.reserve(order.size());
    for (const auto& [pi, k] : order) {
      if (work - work_before > limit) return false;
      const Pair& p = pairs_[pi];
      std::int32_t route = -1;
      std::int64_t start = kNever;
      const bool small = path_graph(pi, 0);
      const std::int32_t goal = small ? graph_pos_[static_cast<std::size_t>(p.dst)] : -1;
      if (goal >= 0) {
        const std::size_t W = words;  // fixed for this flit (take grows `words` only below)
        reach.assign(shortest_.node.size() * W, 0);
        if (m_ == Model::Nic) free_from(L + static_cast<std::size_t>(p.src), 0, reach.data());
        else std::fill(reach.begin(), reach.begin() + static_cast<std::ptrdiff_t>(W), ~std::uint64_t{0});
        acc.resize(W);
        for (std::size_t h = 0; h + 1 < layer_edges.size(); ++h)
          for (std::size_t e = layer_edges[h]; e < layer_edges[h + 1]; ++e) {
            const PathHop& x = edges[e];
            std::copy_n(reach.data() + static_cast<std::size_t>(x.from) * W, W, acc.data());
            and_hop(x.link, h, acc.data(), tmp);
            std::uint64_t* to = reach.data() + static_cast<std::size_t>(x.to) * W;
            for (std::size_t w = 0; w < W; ++w) to[w] |= acc[w];
          }
        std::copy_n(reach.data() + static_cast<std::size_t>(goal) * W, W, acc.data());
        if (m_ == Model::Nic) {
          free_from(L + N + static_cast<std::size_t>(p.dst), static_cast<std::size_t>(p.dist - 1), (tmp.resize(W), tmp.data()));
          for (std::size_t w = 0; w < W; ++w) acc[w] &= tmp[w];
        }
        start = lowest(acc.data());
        if (start != kNever) {
          // Back from the destination: an edge into the node in hand from a node reached at `start`.
          std::vector<LinkId> links(static_cast<std::size_t>(p.dist));
          std::int32_t cur = goal;
          for (std::size_t h = static_cast<std::size_t>(p.dist); h > 0; --h) {
            const std::size_t b = layer_edges[h - 1], n = layer_edges[h] - b;
            const std::size_t turn = static_cast<std::size_t>(splitmix64(seed) % std::max<std::size_t>(n, 1));
            for (std::size_t j = 0; j < n; ++j) {
              const PathHop& x = edges[b + (j + turn) % n];
              if (x.to != cur) continue;
              const std::uint64_t* from = reach.data() + static_cast<std::size_t>(x.from) * W;
              const auto st = static_cast<std::size_t>(start);
              const std::int64_t step = start + static_cast<std::int64_t>(h - 1);
              bool ok = ((from[st / 64] >> (st % 64)) & 1) != 0;
              for_hop_resources(x.link, [&](std::size_t r) { ok = ok && cal.next_free(r, step) == step; });
              if (!ok) continue;
              links[h - 1] = x.link;
              cur = x.from;
              break;
            }
          }
          route = route_index(pi, links);
        }
      }
      forget_graph();
      if (route < 0) {  // the candidate routes, each at its earliest start
        std::int64_t best_finish = kNever;
        for (std::size_t r = 0; r < p.routes.size(); ++r) {
          acc.assign(words, ~std::uint64_t{0});
          tmp.resize(words);
          for (const Use& u : p.routes[r].uses) {
            free_from(u.resource, static_cast<std::size_t>(u.offset), tmp.data());
            for (std::size_t w = 0; w < words; ++w) acc[w] &= tmp[w];
            work += static_cast<std::int64_t>(words);
          }
          const std::int64_t s = lowest(acc.data());
          if (s != kNever && s + static_cast<std::int64_t>(p.routes[r].links.size()) < best_finish) {
            best_finish = s + static_cast<std::int64_t>(p.routes[r].links.size());
            route = static_cast<std::int32_t>(r);
            start = s;
          }
        }
      }
      for (const Use& u : pairs_[pi].routes[static_cast<std::size_t>(route)].uses) {
        cal.take(u.resource, start + u.offset);
        words = std::max(words, static_cast<std::size_t>(start + u.offset) / 64 + 2);
      }
      out.push_back({pi, route, start});
    }
    return true;
  }

  /// One-shot placement with repair (min-conflicts; repair_schedule's, under a horizon: periodic
  /// placements negotiate, place_negotiated): every flit ends by step `horizon`. From `initial`
  /// (per flit of `order`, route -1: not placed), a flit that does not fit takes the route and
  /// start with the fewest placed flits in its way, which are taken off and queued again, until
  /// every flit is placed or `limit` look-ups are spent.
  bool place_with_repair(int horizon, const std::vector<std::pair<std::uint32_t, std::int32_t>>& order,
                         const std::vector<std::int32_t>& fixed, std::vector<Placed>& out, std::int64_t& work,
                         std::int64_t limit, const std::vector<Placed>& initial) const {
    const auto P = static_cast<std::size_t>(horizon);
    std::vector<std::int32_t> holder(resources() * P, -1);  // resource slot -> flit (index into `order`)
    std::vector<Placed> at(order.size(), Placed{0, -1, -1});
    std::deque<std::int32_t> waiting;
    std::uint64_t seed = 0x5eed;
    std::vector<std::int32_t> in_way;
    const auto slot_of = [&](const Use& u, std::int64_t start) {
      return static_cast<std::size_t>(u.resource) * P + static_cast<std::size_t>(start + u.offset);
    };
    const auto put = [&](std::int32_t f, std::int32_t r, std::int64_t start) {
      const Pair& p = pairs_[order[static_cast<std::size_t>(f)].first];
      for (const Use& u : p.routes[static_cast<std::size_t>(r)].uses) holder[slot_of(u, start)] = f;
      at[static_cast<std::size_t>(f)] = {order[static_cast<std::size_t>(f)].first, r, start};
    };
    const auto take_off = [&](std::int32_t f) {
      const Placed& x = at[static_cast<std::size_t>(f)];
      for (const Use& u : pairs_[x.pair].routes[static_cast<std::size_t>(x.route)].uses) holder[slot_of(u, x.start)] = -1;
      at[static_cast<std::size_t>(f)].route = -1;
      waiting.push_back(f);
    };
    for (std::size_t i = 0; i < order.size(); ++i) {
      const auto f = static_cast<std::int32_t>(i);
      bool free = initial[i].route >= 0;
      if (free) {  // placed unless something placed before it is in the way
        const Placed& x = initial[i];
        for (const Use& u : pairs_[x.pair].routes[static_cast<std::size_t>(x.route)].uses)
          if (holder[slot_of(u, x.start)] >= 0) free = false;
      }
      if (free) put(f, initial[i].route, initial[i].start);
      else waiting.push_back(f);
    }
    std::int64_t spent = 0, iteration = 0;
    std::vector<std::int64_t> placed_at(order.size(), std::numeric_limits<std::int64_t>::min() / 2);
    const std::int64_t tenure = std::max<std::int64_t>(kTenure, static_cast<std::int64_t>(order.size()) / kTenureFlits);
    while (!waiting.empty()) {
      ++iteration;
      if (spent > limit) {
        work += spent;
        return false;
      }
      const std::int32_t f = waiting.front();
      waiting.pop_front();
      const auto [pi, k] = order[static_cast<std::size_t>(f)];
      const Pair& p = pairs_[pi];
      const auto own = static_cast<std::size_t>(fixed[first_flit_[pi] + static_cast<std::size_t>(k)]);
      // The fewest flits in the way over (route, start); ties broken by a seeded draw.
      std::int64_t best = kNever;
      std::uint64_t best_tie = 0;
      std::int32_t best_route = -1;
      std::int64_t best_start = 0;
      for (std::size_t r = 0; r < p.routes.size(); ++r) {
        const bool preferred = r == own;
        const std::int64_t starts = horizon - static_cast<std::int64_t>(p.routes[r].links.size()) + 1;
        for (std::int64_t start = 0; start < starts; ++start) {
          std::int64_t count = 0;
          in_way.clear();
          for (const Use& u : p.routes[r].uses) {
            ++spent;
            const std::int32_t h = holder[slot_of(u, start)];
            if (h >= 0 && std::find(in_way.begin(), in_way.end(), h) == in_way.end()) {
              in_way.push_back(h);
              // A flit placed in the last `tenure` moves stays (tabu): the repair does not undo itself.
              count += iteration - placed_at[static_cast<std::size_t>(h)] < tenure ? 1000 : 1;
              if (count * 2 > best) break;
            }
          }
          // Off the balanced route a flit pays one more, so routes stay balanced unless that is worse.
          const std::int64_t score = count * 2 + (preferred ? 0 : 1);
          const std::uint64_t tie = splitmix64(seed);
          if (score < best || (score == best && tie < best_tie)) {
            best = score;
            best_tie = tie;
            best_route = static_cast<std::int32_t>(r);
            best_start = start;
          }
        }
      }
      if (best_route < 0) {  // no start fits any route (a horizon shorter than every route)
        work += spent;
        return false;
      }
      in_way.clear();
      for (const Use& u : p.routes[static_cast<std::size_t>(best_route)].uses) {
        const std::int32_t h = holder[slot_of(u, best_start)];
        if (h >= 0 && std::find(in_way.begin(), in_way.end(), h) == in_way.end()) in_way.push_back(h);
      }
      for (std::int32_t h : in_way) take_off(h);
      put(f, best_route, best_start);
      placed_at[static_cast<std::size_t>(f)] = iteration;
    }
    work += spent;
    out = std::move(at);
    return true;
  }

  /// Periodic placement by negotiated congestion (PathFinder, McMurchie and Ebeling 1995, the
  /// FPGA routers' algorithm): every flit takes the (route, start) of least cost, where a
  /// resource slot costs (1 + history) x (1 + present x flits already there); slots may be
  /// shared while the search runs. After each round the shared slots' history grows and
  /// `present` grows, and only the flits on a shared slot are placed again, in a new order each
  /// round, until nothing is shared (true) or `limit` look-ups are spent (false). Unlike the
  /// min-conflicts repair, no flit is ever left out, so the prices, not evictions, decide who
  /// moves. `initial` (per flit of
  /// `order`) is where each flit starts, route -1 for one placed by price first; `no_wrap`: every
  /// flit ends by step `period` (a one-shot horizon). `preferred` routes cost a little less, so
  /// balanced routes stay unless another is cheaper. `seed` breaks the ties; `stalled` says
  /// whether a false came from kStallRounds without progress (not from the work or the horizon);
  /// `closest` gets the placement of the round with the fewest flits on shared slots.
  bool place_negotiated(int period, const std::vector<std::pair<std::uint32_t, std::int32_t>>& order,
                        const std::vector<std::int32_t>& preferred, std::vector<Placed>& out, std::int64_t& work, std::int64_t limit,
                        const std::vector<Placed>& initial, bool no_wrap, bool every_path, std::uint64_t seed,
                        bool* stalled, std::vector<Placed>* closest = nullptr) {
    const auto P = static_cast<std::size_t>(period);
    std::vector<std::int32_t> occupancy(resources() * P, 0);
    std::vector<double> history(resources() * P, 0.0);
    std::vector<Placed> at(order.size(), Placed{0, -1, -1});
    const auto slot_of = [&](const Use& u, std::int64_t start) { return slot_index(u, start, period); };
    const auto route_of = [&](std::size_t f) -> const Route& {
      return pairs_[at[f].pair].routes[static_cast<std::size_t>(at[f].route)];
    };
    double present = kPresentStart;
    // Per resource slot its price, (1 + history) x (1 + present x occupancy), kept up to date.
    std::vector<double> price(resources() * P, 1.0);
    // Kept up to date so a round finds the flits on a shared slot without walking every route:
    // per flit, how many of its uses sit on a slot of occupancy > 1; per slot, the XOR of the
    // flits of its uses, which at occupancy 1 is the lone holder whose count changes at 1 <-> 2.
    // Counted per use, not per flit, so a route with two uses on one slot is counted right too.
    std::vector<std::int32_t> shared(order.size(), 0);
    std::vector<std::uint32_t> holders(resources() * P, 0);
    const auto occupy = [&](std::size_t f, std::int32_t d) {  // d: +1 or -1
      const auto id = static_cast<std::uint32_t>(f);
      for (const Use& u : route_of(f).uses) {
        const std::size_t s = slot_of(u, at[f].start);
        const std::int32_t was = occupancy[s], now = was + d;
        if (std::max(was, now) > 1) shared[f] += d;  // f's use on a shared slot, joining or leaving
        if (std::min(was, now) == 1) shared[holders[s] ^ (d < 0 ? id : 0)] += d;  // 1 <-> 2: the other use
        holders[s] ^= id;
        occupancy[s] = now;
        price[s] = (1.0 + history[s]) * (1.0 + present * occupancy[s]);
      }
    };
    std::int64_t spent = 0;
    if (stalled) *stalled = false;
    // The cheapest (route, start) for flit f with the others where they are: over every shortest
    // path where the pair's shortest-path graph is small enough, else over its candidate routes.
    const auto place_one = [&](std::size_t f) {
      const auto [pi, k] = order[f];
      // Below every_direction_below_ (one-shot), shortest paths alone do not fit: every path each
      // way round each ring instead.
      if (std::int32_t route = -1;
          every_path && pairs_[pi].dist > 0 &&
          (no_wrap && period < every_direction_below_
               ? cheapest_direction(pi, period, price, seed, spent, route, at[f].start)
               : cheapest_shortest_or_detour(pi, period, no_wrap, price, seed, spent, route, at[f].start))) {
        at[f].pair = pi;
        at[f].route = route;
        return true;
      }
      const Pair& p = pairs_[pi];
      const auto own = static_cast<std::size_t>(preferred[first_flit_[pi] + static_cast<std::size_t>(k)]);
      double best = std::numeric_limits<double>::infinity();
      std::uint64_t best_tie = 0;
      std::int32_t best_route = -1;
      std::int64_t best_start = 0;
      for (std::size_t r = 0; r < p.routes.size(); ++r) {
        const std::int64_t starts = no_wrap ? period - static_cast<std::int64_t>(p.routes[r].links.size()) + 1 : period;
        const double bias = r == own ? 0.0 : 0.5;
        for (std::int64_t start = 0; start < starts; ++start) {
          double cost = bias;
          for (const Use& u : p.routes[r].uses) {
            ++spent;
            cost += price[slot_of(u, start)];
            if (cost > best) break;
          }
          if (cost > best) continue;
          const std::uint64_t tie = splitmix64(seed);
          if (cost < best || tie < best_tie) {
            best = cost;
            best_tie = tie;
            best_route = static_cast<std::int32_t>(r);
            best_start = start;
          }
        }
      }
      at[f] = {pi, best_route, best_start};
      return best_route >= 0;
    };
    std::vector<std::size_t> again;
    std::size_t fewest = order.size() + 1;
    std::int64_t round = 0, fewest_round = 0;
    for (std::size_t f = 0; f < order.size(); ++f) {
      if (initial[f].route >= 0) at[f] = initial[f];
      else if (spent > limit || !place_one(f)) return work += spent, false;  // out of work, or no start fits any route (no_wrap)
      occupy(f, +1);
    }
    while (true) {
      // The flits on a shared slot are placed again; the shared slots get dearer for good.
      again.clear();
      for (std::size_t f = 0; f < order.size(); ++f)
        if (shared[f] > 0) again.push_back(f);
      spent += static_cast<std::int64_t>(order.size());  // as the route walk this replaces: searches stop where they did
      if (again.empty()) break;
      // Out of work, or no round in the last kStallRounds left fewer flits sharing: give up.
      if (again.size() < fewest) {
        fewest = again.size(), fewest_round = round;
        if (closest != nullptr) *closest = at;
      }
      if (spent > limit) return work += spent, false;
      if (round - fewest_round > kStallRounds) {
        if (stalled) *stalled = true;
        return work += spent, false;
      }
      ++round;
      present = std::min(present * kPresentGrowth, kPresentMax);
      for (std::size_t s = 0; s < occupancy.size(); ++s) {
        if (occupancy[s] > 1) history[s] += kHistoryStep * (occupancy[s] - 1);
        price[s] = (1.0 + history[s]) * (1.0 + present * occupancy[s]);
      }
      // A new order each round: in one fixed order the same flits take the same slots first.
      std::mt19937_64 reorder(seed + static_cast<std::uint64_t>(round));
      std::shuffle(again.begin(), again.end(), reorder);
      for (std::size_t f : again) {
        if (spent > limit) return work += spent, false;  // a round of a large traffic can cost more than the limit
        occupy(f, -1);
        (void)place_one(f);
        occupy(f, +1);
      }
    }
    work += spent;
    out = std::move(at);
    return true;
  }

  /// The cheapest (path, start) of pair pi over every shortest path at once, under `price` (per
  /// resource, `period` slots): cheapest_on_graph over the pair's shortest-path graph (layer h: the
  /// nodes h hops from the source on a shortest path to the destination). Starts 0..period-1, or
  /// (no_wrap) those that end by step `period`. Ties go to the first found, the ports and the
  /// starts scanned from a seeded place, so paths spread. False (nothing chosen) where the graph
  /// has more than kMaxPathGraph nodes.
  /// `free_routes` (if given): every start whose cheapest path costs nothing (a price of 0 on
  /// every slot it uses) adds that path to the pair's routes instead (route and start unset).
  /// `best_cost`: the chosen path's price.
  bool cheapest_shortest(std::size_t pi, int period, bool no_wrap, const std::vector<double>& price, std::uint64_t& seed,
                         std::int64_t& spent, std::int32_t& route, std::int64_t& start, bool free_routes = false,
                         double* best_cost = nullptr) {
    const Pair& p = pairs_[pi];
    const std::int64_t starts = no_wrap ? period - p.dist + 1 : period;
    if (starts <= 0) return false;
    const auto S = static_cast<std::size_t>(starts);
    const auto turn = static_cast<Port>(splitmix64(seed) % 64);
    const bool small = path_graph(pi, turn);
    forget_graph();
    if (!small) {
      spent += static_cast<std::int64_t>(shortest_.hops.size()) * lookups_per_hop(S);
      return false;
    }
    if (free_routes) {
      (void)splitmix64(seed);  // the draw of cheapest_on_graph's scan, so the later seeds are the same
      price_walks(shortest_, S, static_cast<std::size_t>(period), price, spent);
      const std::size_t goal = shortest_.node.size() - 1;  // the last layer holds the destination alone
      price_ejection(p.dst, static_cast<std::size_t>(p.dist), S, static_cast<std::size_t>(period), price);
      for (std::size_t s = 0; s < S; ++s)
        if (cost_[goal * S + s] + hop_[s] == 0.0) (void)walk_route(shortest_, goal, s, S);
      return true;
    }
    double cost = 0;
    const bool found = cheapest_on_graph(shortest_, kMaxPathGraph, period, S, no_wrap, price, seed, spent, route, start, cost);
    if (best_cost != nullptr) *best_cost = cost;
    return found;
  }

  /// Solves a model of `clauses` clauses with `work` (conflict_work, so the answer does not depend
  /// on the machine); `spent` gets the conflicts used.
  static SatOutcome solve_for_work(CaDiCaL::Solver& solver, double work, std::int64_t clauses, std::int64_t& spent) {
    const auto conflicts = static_cast<std::int64_t>(work / conflict_work(1, clauses));
    if (conflicts <= 0) return SatOutcome::Unknown;
    std::int64_t used = 0;
    const SatOutcome res = solve_limited(solver, conflicts, safety_cap(60 + static_cast<double>(conflicts) / 1000), used);
    spent += used;
    return res;
  }

  /// The choices of the placement models (place_sat, place_ilp): per pair (the leading pair of
  /// each orbit with `orbits`) its allowed routes (`routes_of`: only those; `only`, per flit: the
  /// routes its flits have there) at every start (periodic: 0..period-1; one-shot: every hop before
  /// `horizon`). `add(pair, route, start)` gives the choice its number, which goes into `cells`
  /// (per resource, or its orbit, and slot: the choices holding it); `pair_done(pair, numbers)`
  /// after each pair. False when a pair has fewer choices than flits.
  template <class Add, class PairDone>
  bool for_each_choice(int period, std::int64_t horizon, const std::vector<std::int32_t>* only, const TranslationOrbits* orbits,
                       const std::vector<std::vector<std::int32_t>>* routes_of, std::vector<std::vector<int>>& cells, Add&& add,
                       PairDone&& pair_done) const {
    const bool periodic = period > 0;
    const std::size_t R = orbits != nullptr ? orbits->orbits : resources();
    const auto cell = [&](std::uint32_t resource) -> std::size_t {
      return orbits != nullptr ? orbits->resource_orbit[resource] : resource;
    };
    const std::int64_t slots = periodic ? period : horizon;
    cells.assign(R * static_cast<std::size_t>(slots), {});
    std::vector<int> numbers;
    for (std::size_t pi = 0; pi < pairs_.size(); ++pi) {
      const Pair& p = pairs_[pi];
      if (orbits != nullptr && !orbits->group.leads(p.src)) continue;
      std::vector<char> allowed(p.routes.size(), only == nullptr ? 1 : 0);
      if (routes_of != nullptr) {
        std::fill(allowed.begin(), allowed.end(), 0);
        for (const std::int32_t r : (*routes_of)[pi]) allowed[static_cast<std::size_t>(r)] = 1;
      }
      if (only != nullptr)
        for (std::int32_t k = 0; k < p.flits; ++k) allowed[static_cast<std::size_t>((*only)[first_flit_[pi] + static_cast<std::size_t>(k)])] = 1;
      numbers.clear();
      for (std::size_t r = 0; r < p.routes.size(); ++r) {
        if (!allowed[r]) continue;
        const auto len = static_cast<std::int64_t>(p.routes[r].links.size());
        const std::int64_t last = periodic ? period - 1 : horizon - len;
        for (std::int64_t st = 0; st <= last; ++st) {
          const int c = add(pi, static_cast<std::int32_t>(r), st);
          numbers.push_back(c);
          for (const Use& u : p.routes[r].uses) {
            const std::int64_t t = st + u.offset;
            cells[cell(u.resource) * static_cast<std::size_t>(slots) + static_cast<std::size_t>(periodic ? t % period : t)].push_back(c);
          }
        }
      }
      if (static_cast<std::int64_t>(numbers.size()) < p.flits) return false;
      pair_done(pi, numbers);
    }
    return true;
  }

  /// Placement by SAT over the candidate routes: a variable per (flit, route, start), exactly
  /// one per flit, at most one per resource and slot (periodic: starts 0..period-1, slots mod the
  /// period; one-shot: every hop before `horizon`); the flits of a pair take (route, start)
  /// choices in increasing order (they are interchangeable). UNSAT proves nothing (the routes are
  /// a choice). `phase`: a placement to start the search from (may be empty). `routes_of` (per
  /// pair): only those of its routes.
  SatOutcome place_sat(int period, std::int64_t horizon, double work, const std::vector<Placed>& phase,
                       std::vector<Placed>& out, std::int64_t& clauses_out, std::int64_t& spent,
                       const std::vector<std::int32_t>* only = nullptr, const TranslationOrbits* orbits = nullptr,
                       const std::vector<std::vector<std::int32_t>>* routes_of = nullptr) const {
    CaDiCaL::Solver solver;
    solver.set("quiet", 1);
    Cnf cnf(solver);
    std::vector<std::vector<int>> group;
    std::vector<Placed> choice(1);  // by variable (index 0 unused); auxiliaries get route -1
    const bool complete = for_each_choice(
        period, horizon, only, orbits, routes_of, group,
        [&](std::size_t pi, std::int32_t r, std::int64_t st) {
          const int v = cnf.var();
          if (static_cast<std::size_t>(v) >= choice.size()) choice.resize(static_cast<std::size_t>(v) + 1, {0, -1, 0});
          choice[static_cast<std::size_t>(v)] = {static_cast<std::uint32_t>(pi), r, st};
          return v;
        },
        // A variable per (route, start) of the pair, exactly `flits` of them true: the flits are
        // interchangeable, and two on one route and start would meet on its first link.
        [&](std::size_t pi, const std::vector<int>& vars) {
          if (pairs_[pi].flits == 1) cnf.exactly_one(vars);
          else cnf.exactly(vars, pairs_[pi].flits);
        });
    if (!complete) return SatOutcome::Unsat;
    const int choice_vars = static_cast<int>(choice.size()) - 1;
    for (const auto& g : group) cnf.at_most(g, 1);
    std::vector<std::vector<int>>().swap(group);
    if (!phase.empty()) {
      std::vector<std::vector<std::pair<std::int32_t, std::int64_t>>> want(pairs_.size());
      for (const Placed& x : phase) want[x.pair].emplace_back(x.route, x.start);
      for (auto& w : want) std::sort(w.begin(), w.end());
      for (int v = 1; v <= choice_vars; ++v) {
        const Placed& c = choice[static_cast<std::size_t>(v)];
        if (c.route < 0) continue;
        const auto& w = want[c.pair];
        solver.phase(std::binary_search(w.begin(), w.end(), std::make_pair(c.route, c.start)) ? v : -v);
      }
    }
    clauses_out = cnf.clauses();
    const SatOutcome res = solve_for_work(solver, work, clauses_out, spent);
    if (res != SatOutcome::Sat) return res;
    out.clear();
    for (int v = 1; v <= choice_vars; ++v) {
      const Placed& c = choice[static_cast<std::size_t>(v)];
      if (c.route >= 0 && solver.val(v) > 0) out.push_back(c);
    }
    return res;
  }

  /// The same placement model as a 0-1 program for CBC (solve_binary): a column per (pair, route,
  /// start), the pair's columns summing to its flits, every resource slot at most 1 (a route that
  /// holds one twice counts 2 there). `nodes`: CBC's branch-and-bound nodes after the root.
  /// `elements`: the program's nonzeros (its size, for the work).
  SatOutcome place_ilp(int period, std::int64_t horizon, std::int64_t nodes, std::vector<Placed>& out, std::int64_t& elements,
                       IlpStats& stats, const TranslationOrbits* orbits, const std::vector<std::vector<std::int32_t>>* routes_of) const {
    BinaryProgram program;
    std::vector<std::vector<int>> cells;
    std::vector<Placed> choice;  // by column
    const bool complete = for_each_choice(
        period, horizon, nullptr, orbits, routes_of, cells,
        [&](std::size_t pi, std::int32_t r, std::int64_t st) {
          choice.push_back({static_cast<std::uint32_t>(pi), r, st});
          return static_cast<int>(choice.size()) - 1;
        },
        [&](std::size_t pi, const std::vector<int>& columns) {
          const auto f = static_cast<double>(pairs_[pi].flits);
          program.rows.push_back({columns, std::vector<double>(columns.size(), 1.0), f, f});
        });
    if (!complete) return SatOutcome::Unsat;
    program.columns = static_cast<int>(choice.size());
    for (std::vector<int>& c : cells) {
      if (c.empty()) continue;
      std::sort(c.begin(), c.end());
      BinaryProgram::Row row{{}, {}, 0.0, 1.0};
      for (std::size_t i = 0; i < c.size(); ++i) {
        if (!row.columns.empty() && row.columns.back() == c[i]) row.coefficients.back() += 1.0;
        else row.columns.push_back(c[i]), row.coefficients.push_back(1.0);
      }
      if (row.columns.size() > 1 || row.coefficients.front() > 1.0) program.rows.push_back(std::move(row));
    }
    elements = program.elements();
    std::vector<char> value;
    const SatOutcome res = solve_binary(program, IlpLimit{nodes, 600}, value, stats);
    if (res != SatOutcome::Sat) return res;
    out.clear();
    for (std::size_t c = 0; c < choice.size(); ++c)
      if (value[c] != 0) out.push_back(choice[c]);
    return res;
  }

  /// A pair's paths as a graph for place_sat_paths: nodes (network nodes; node 0 the source), and
  /// links (`h`: the hops before them).
  struct PathHop {
    LinkId link;
    std::int32_t h;
    std::int32_t from, to;  // graph nodes
  };
  struct PathGraph {
    std::size_t pair;
    std::vector<NodeId> node;
    std::vector<PathHop> hops;
  };
  /// Pair pi's layered graph: node (v, h), v reached after h hops, h + dist(v, dst) <= dist + extra.
  [[nodiscard]] PathGraph layered_graph(std::size_t pi, int extra) const {
    const Pair& p = pairs_[pi];
    const int longest = p.dist + extra;
    const auto layers = static_cast<std::size_t>(longest + 1);
    std::vector<std::int32_t> pos(static_cast<std::size_t>(t_.nodes()) * layers, -1);
    PathGraph g{pi, {p.src}, {}};
    std::vector<std::int32_t> layer{0};
    pos[static_cast<std::size_t>(p.src) * layers] = 0;
    for (std::size_t i = 0; i < g.node.size(); ++i) {
      const NodeId v = g.node[i];
      const std::int32_t h = layer[i];
      if (v == p.dst) continue;
      for (Port q = 0; q < t_.degree(v); ++q) {
        const NodeId w = t_.neighbor(v, q);
        const int left = dist(w, p.dst);
        if (w == p.src || left < 0 || h + 1 + left > longest) continue;
        std::int32_t& pw = pos[static_cast<std::size_t>(w) * layers + static_cast<std::size_t>(h + 1)];
        if (pw < 0) {
          pw = static_cast<std::int32_t>(g.node.size());
          g.node.push_back(w);
          layer.push_back(h + 1);
        }
        g.hops.push_back({t_.link_id(v, q), h, static_cast<std::int32_t>(i), pw});
      }
    }
    return g;
  }
  /// cheapest_shortest, and where detour_hops_ is set cheapest_detour too: the cheaper (a tie to
  /// the shortest path).
  bool cheapest_shortest_or_detour(std::size_t pi, int period, bool no_wrap, const std::vector<double>& price, std::uint64_t& seed,
                                   std::int64_t& spent, std::int32_t& route, std::int64_t& start) {
    double cost = std::numeric_limits<double>::infinity(), detour_cost = cost;
    bool found = cheapest_shortest(pi, period, no_wrap, price, seed, spent, route, start, false, &cost);
    std::int32_t detour = -1;
    std::int64_t detour_start = 0;
    if (detour_hops_ > 0 && cheapest_detour(pi, period, no_wrap, price, seed, spent, detour, detour_start, detour_cost) &&
        (!found || detour_cost < cost)) {
      route = detour;
      start = detour_start;
      found = true;
    }
    return found;
  }
  /// The cheapest (path, start) of pair pi over every walk up to detour_hops_ hops longer than a
  /// shortest path (layered_graph's: one may turn back over the link it came by, two link slots
  /// in place of a wait that no relay can hold), by cheapest_on_graph; `cost` gets its price.
  bool cheapest_detour(std::size_t pi, int period, bool no_wrap, const std::vector<double>& price, std::uint64_t& seed,
                       std::int64_t& spent, std::int32_t& route, std::int64_t& start, double& cost) {
    const PathGraph g = layered_graph(pi, detour_hops_);
    spent += static_cast<std::int64_t>(g.hops.size());
    return cheapest_on_graph(g, kMaxDetourGraph, period, static_cast<std::size_t>(period), no_wrap, price, seed, spent, route, start, cost);
  }
  /// The cheapest (walk, start) over a graph of pair g.pair's walks (place 0 its source; every
  /// hop into a place before any hop out of it), where one network node may sit at several hop
  /// counts: a walk of h hops ejects in step start + h - 1. A dynamic program, one cost per start,
  /// a hop at start s priced in its step s + h (mod the period). Starts 0..S-1 (S: `starts`) are
  /// priced and scanned from a seeded place; no_wrap, a walk past step `period` is passed over, so
  /// a tie under a horizon goes to the first start after that place or else from 0. The walk joins
  /// the pair's routes; `cost` gets its price. False where the graph has more than `max_places`
  /// places or reaches no destination.
  bool cheapest_on_graph(const PathGraph& g, std::size_t max_places, int period, std::size_t S, bool no_wrap,
                         const std::vector<double>& price, std::uint64_t& seed, std::int64_t& spent, std::int32_t& route,
                         std::int64_t& start, double& cost) {
    const Pair& p = pairs_[g.pair];
    // Per place its hops from the source; the shortest walk's bounds the starts.
    hops_into_.assign(g.node.size(), 0);
    std::int32_t shortest = std::numeric_limits<std::int32_t>::max();
    for (const PathHop& x : g.hops) {
      hops_into_[static_cast<std::size_t>(x.to)] = x.h + 1;
      if (g.node[static_cast<std::size_t>(x.to)] == p.dst) shortest = std::min(shortest, x.h + 1);
    }
    if (shortest == std::numeric_limits<std::int32_t>::max() || (no_wrap && shortest > period)) return false;
    if (g.node.size() > max_places) {
      spent += static_cast<std::int64_t>(g.hops.size()) * lookups_per_hop(S);
      return false;
    }
    const auto P = static_cast<std::size_t>(period);
    price_walks(g, S, P, price, spent);
    cost = std::numeric_limits<double>::infinity();
    std::size_t best_place = 0, best_s = 0;
    const std::size_t from_s = splitmix64(seed) % S;
    for (std::size_t i = 1; i < g.node.size(); ++i) {  // the destination's places, one per walk length
      if (g.node[i] != p.dst) continue;
      const auto h = static_cast<std::size_t>(hops_into_[i]);
      price_ejection(p.dst, h, S, P, price);
      for (std::size_t j = 0; j < S; ++j) {
        const std::size_t s = (from_s + j) % S;
        if (no_wrap && s + h > P) continue;
        if (const double c = cost_[i * S + s] + hop_[s]; c < cost) {
          cost = c;
          best_place = i;
          best_s = s;
        }
      }
    }
    if (cost == std::numeric_limits<double>::infinity()) return false;
    route = walk_route(g, best_place, best_s, S);
    start = static_cast<std::int64_t>(best_s);
    return true;
  }
  /// Look-ups a hop of the dynamic program costs over S starts.
  static std::int64_t lookups_per_hop(std::size_t S) {
    return (static_cast<std::int64_t>(S) + kStartsPerLookup - 1) / kStartsPerLookup;
  }
  /// The dynamic program of cheapest_on_graph: per (place, start s < S) in cost_ the cheapest
  /// price of a walk into the place, in via_ the hop that gave it (-1: none).
  void price_walks(const PathGraph& g, std::size_t S, std::size_t P, const std::vector<double>& price, std::int64_t& spent) {
    const Pair& p = pairs_[g.pair];
    const auto L = static_cast<std::size_t>(t_.links());
    const std::int64_t per_hop = lookups_per_hop(S);
    cost_.assign(g.node.size() * S, std::numeric_limits<double>::infinity());
    via_.assign(g.node.size() * S, -1);
    hop_.assign(S, 0.0);
    if (m_ == Model::Nic) add_step_prices(hop_, price.data() + (L + static_cast<std::size_t>(p.src)) * P, 0, P);
    std::copy(hop_.begin(), hop_.end(), cost_.begin());
    for (std::size_t e = 0; e < g.hops.size(); ++e) {
      const PathHop& x = g.hops[e];
      std::fill(hop_.begin(), hop_.end(), 0.0);
      for_hop_resources(x.link, [&](std::size_t r) { add_step_prices(hop_, price.data() + r * P, static_cast<std::size_t>(x.h), P); });
      const double* from = cost_.data() + static_cast<std::size_t>(x.from) * S;
      double* to = cost_.data() + static_cast<std::size_t>(x.to) * S;
      std::int32_t* into = via_.data() + static_cast<std::size_t>(x.to) * S;
      for (std::size_t s = 0; s < S; ++s)
        if (const double c = from[s] + hop_[s]; c < to[s]) {
          to[s] = c;
          into[s] = static_cast<std::int32_t>(e);
        }
      spent += per_hop;
    }
  }
  /// hop_[s]: the price of ejecting at `dst` after `h` hops from start s (nothing but under nic).
  void price_ejection(NodeId dst, std::size_t h, std::size_t S, std::size_t P, const std::vector<double>& price) {
    hop_.assign(S, 0.0);
    const auto L = static_cast<std::size_t>(t_.links()), N = static_cast<std::size_t>(t_.nodes());
    if (m_ == Model::Nic) add_step_prices(hop_, price.data() + (L + N + static_cast<std::size_t>(dst)) * P, h - 1, P);
  }
  /// The route index of price_walks' cheapest walk into `place` at start s (added to the pair's routes).
  std::int32_t walk_route(const PathGraph& g, std::size_t place, std::size_t s, std::size_t S) {
    std::vector<LinkId> links;
    for (std::size_t i = place; i != 0;) {
      const PathHop& x = g.hops[static_cast<std::size_t>(via_[i * S + s])];
      links.push_back(x.link);
      i = static_cast<std::size_t>(x.from);
    }
    std::reverse(links.begin(), links.end());
    return route_index(g.pair, links);
  }
  /// Pair pi's paths with at most two turns, every way round each ring, on a torus where the pair
  /// moves in at most two dimensions: per direction choice (as quadrant_graph's), one dimension's
  /// moves split around all of the other's (a^k b^all a^rest, both orders; a straight path where
  /// it moves in one). Added to its routes; their indices. A shift's bound needs pairs the long
  /// way round (torus:16x16 perm:shift:5:2: 22 of a row's 32 flits 5 hops one way, 10 flits 11
  /// hops the other, for 110 of each ring's 112 slots at period 7).
  std::vector<std::int32_t> two_turn_routes(std::size_t pi) {
    const std::vector<int> from = t_.coordinates(pairs_[pi].src), to = t_.coordinates(pairs_[pi].dst);
    const std::vector<std::size_t> dims = moving_dimensions(pi);
    std::vector<std::int32_t> out;
    if (dims.empty() || dims.size() > 2) return out;
    for (std::uint32_t choice = 0; choice < (1U << dims.size()); ++choice) {
      const std::vector<int> sign = ring_signs(dims.size(), choice);
      std::vector<int> moves(dims.size());
      for (std::size_t i = 0; i < dims.size(); ++i) moves[i] = ring_moves(from[dims[i]], to[dims[i]], dims[i], sign[i]);
      // The orders of dimension indices (into dims) to walk.
      std::vector<std::vector<std::size_t>> orders;
      if (dims.size() == 1) {
        orders.emplace_back(static_cast<std::size_t>(moves[0]), 0);
      } else {
        for (std::size_t a = 0; a < 2; ++a)
          for (int k = 0; k <= moves[a]; ++k) {
            std::vector<std::size_t> o(static_cast<std::size_t>(k), a);
            o.insert(o.end(), static_cast<std::size_t>(moves[1 - a]), 1 - a);
            o.insert(o.end(), static_cast<std::size_t>(moves[a] - k), a);
            orders.push_back(std::move(o));
          }
      }
      for (const std::vector<std::size_t>& o : orders) {
        std::vector<int> c = from;
        NodeId v = pairs_[pi].src;
        std::vector<LinkId> links;
        for (const std::size_t i : o) {
          const std::optional<LinkId> l = ring_step(v, c, dims[i], sign[i]);
          if (!l) break;  // no such link (a failed one)
          links.push_back(*l);
          v = t_.link_target(*l);
        }
        if (links.size() != o.size()) continue;
        const std::int32_t r = route_index(pi, links);
        if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
      }
    }
    return out;
  }

  /// A direction choice on a torus (bit i set: the i-th dimension a pair moves in goes down round
  /// its ring): per dimension its step, +1 or -1.
  [[nodiscard]] static std::vector<int> ring_signs(std::size_t dims, std::uint32_t choice) {
    std::vector<int> sign(dims);
    for (std::size_t i = 0; i < dims; ++i) sign[i] = ((choice >> i) & 1U) != 0 ? -1 : 1;
    return sign;
  }
  /// The moves from coordinate `a` to `b` of torus dimension k, in steps of `sign` round its ring.
  [[nodiscard]] int ring_moves(int a, int b, std::size_t k, int sign) const {
    const int K = t_.factors()[k].size;
    return ((sign * (b - a)) % K + K) % K;
  }
  /// The link from v (at coordinates c) one step of `sign` along torus dimension k, with c moved
  /// to its far end; none where that link failed.
  [[nodiscard]] std::optional<LinkId> ring_step(NodeId v, std::vector<int>& c, std::size_t k, int sign) const {
    const int K = t_.factors()[k].size;
    c[k] = ((c[k] + sign) % K + K) % K;
    const std::optional<Port> q = t_.port_to(v, t_.node_at(c));
    if (!q) return std::nullopt;
    return t_.link_id(v, *q);
  }
  /// The dimensions in which pair pi's source and destination differ (a torus): 2^size direction
  /// choices for quadrant_graph.
  [[nodiscard]] std::vector<std::size_t> moving_dimensions(std::size_t pi) const {
    const std::vector<int> from = t_.coordinates(pairs_[pi].src), to = t_.coordinates(pairs_[pi].dst);
    std::vector<std::size_t> dims;
    for (std::size_t k = 0; k < from.size(); ++k)
      if (from[k] != to[k]) dims.push_back(k);
    return dims;
  }
  /// Pair pi's quadrant graph on a torus: per choice of direction in each dimension the pair moves
  /// in, its own copy of the monotone paths that way (the moves left in a dimension: the offset
  /// either way round the ring, so a copy's states are distinct nodes), all from the shared source.
  /// The long way round is what spreads a transpose's load over a torus, which no path a few hops
  /// longer than a shortest one does.
  /// `families`: the direction choices taken (bit c: choice c, bit i of c set when dimension i of
  /// those the pair moves in goes down).
  [[nodiscard]] PathGraph quadrant_graph(std::size_t pi, std::uint32_t families) const {
    const Pair& p = pairs_[pi];
    const std::vector<int> from = t_.coordinates(p.src), to = t_.coordinates(p.dst);
    const std::vector<std::size_t> dims = moving_dimensions(pi);
    PathGraph g{pi, {p.src}, {}};
    std::vector<std::int32_t> hops_to{0};
    std::map<NodeId, std::int32_t> seen;  // network node -> graph node, within one direction choice
    for (std::uint32_t choice = 0; choice < (1U << dims.size()); ++choice) {
      if (((families >> choice) & 1U) == 0) continue;
      const std::vector<int> sign = ring_signs(dims.size(), choice);
      // Moves made in dims[i] at node coordinates c: the ring distance from the source that way.
      const auto made = [&](const std::vector<int>& c, std::size_t i) { return ring_moves(from[dims[i]], c[dims[i]], dims[i], sign[i]); };
      std::vector<int> moves(dims.size());
      for (std::size_t i = 0; i < dims.size(); ++i) moves[i] = made(to, i);
      seen.clear();
      std::vector<std::int32_t> queue{0};
      for (std::size_t qi = 0; qi < queue.size(); ++qi) {
        const std::int32_t at = queue[qi];
        const NodeId v = g.node[static_cast<std::size_t>(at)];
        if (v == p.dst) continue;
        const std::vector<int> c = t_.coordinates(v);
        for (std::size_t i = 0; i < dims.size(); ++i) {
          if (made(c, i) >= moves[i]) continue;
          std::vector<int> next = c;
          const std::optional<LinkId> l = ring_step(v, next, dims[i], sign[i]);
          if (!l) continue;  // no such link (a failed one)
          const NodeId w = t_.link_target(*l);
          auto [it, fresh] = seen.try_emplace(w, static_cast<std::int32_t>(g.node.size()));
          if (fresh) {
            g.node.push_back(w);
            hops_to.push_back(hops_to[static_cast<std::size_t>(at)] + 1);
            queue.push_back(it->second);
          }
          g.hops.push_back({*l, hops_to[static_cast<std::size_t>(at)], at, it->second});
        }
      }
    }
    return g;
  }

  struct QuadrantNegotiation {
    std::vector<std::uint32_t> families;  // per pair, the direction choices its flits took (a bit each)
    /// When a pass left no slot used twice: its placement (per flit its pair, start and links).
    std::vector<std::tuple<std::size_t, std::int64_t, std::vector<LinkId>>> placement;
  };
  /// The direction choices (quadrant_graph's) each leading pair's flits take in a negotiated
  /// translation-invariant placement at `period` (nic or all-port): PathFinder (McMurchie and
  /// Ebeling 1995) on the orbits' resources, each flit in turn on its cheapest (direction choice,
  /// monotone path, start) by a dynamic program over that choice's graph, a resource slot costing
  /// history x (1 + pressure x its other users); after each pass the history of every slot used
  /// twice grows, and the pressure by kPresentGrowth. The choices of the pass with the
  /// fewest slots used twice: its placement is seldom free of conflicts, but its choices are what
  /// a SAT model over them needs (place_sat_paths with `quadrants`). Stops at `limit` look-ups;
  /// no choices at all (empty `families`) when the first pass does not fit in them.
  QuadrantNegotiation negotiate_quadrants(int period, const TranslationOrbits& orbits, std::uint64_t seed, std::int64_t limit,
                                          std::int64_t& work) const {
    const auto P = static_cast<std::size_t>(period);
    const auto L = static_cast<std::size_t>(t_.links());
    const auto N = static_cast<std::size_t>(t_.nodes());
    const bool nic = m_ == Model::Nic;
    const auto slot = [&](std::size_t resource, std::int64_t step) {
      return orbits.resource_orbit[resource] * P + static_cast<std::size_t>(step % period);
    };
    struct Flit {
      std::size_t pair;
      std::uint32_t family = 0;
      std::int64_t start = 0;
      std::vector<LinkId> links;      // last first
      std::vector<std::size_t> used;  // resource slots
    };
    std::vector<std::vector<std::pair<std::uint32_t, PathGraph>>> graphs(pairs_.size());  // per pair, per family
    std::vector<Flit> flits;
    for (std::size_t pi = 0; pi < pairs_.size(); ++pi) {
      if (!orbits.group.leads(pairs_[pi].src)) continue;
      for (std::uint32_t f = 0; f < (1U << moving_dimensions(pi).size()); ++f) {
        PathGraph g = quadrant_graph(pi, 1U << f);
        work += static_cast<std::int64_t>(g.hops.size());
        graphs[pi].emplace_back(f, std::move(g));
      }
      if (work >= limit) return {};
      for (std::int32_t k = 0; k < pairs_[pi].flits; ++k) flits.push_back({pi, 0, 0, {}, {}});
    }
    std::vector<int> users(orbits.orbits * P, 0);
    std::vector<double> history(users.size(), 1.0);
    double pressure = kPresentStart;
    const auto cost = [&](std::size_t x) { return history[x] * (1.0 + pressure * users[x]); };
    std::vector<double> best;
    std::vector<std::int32_t> via;
    const auto route = [&](Flit& fl) {
      const Pair& p = pairs_[fl.pair];
      double cheapest = std::numeric_limits<double>::infinity();
      for (const auto& [family, g] : graphs[fl.pair])
        for (std::int64_t s = 0; s < period; ++s) {
          work += static_cast<std::int64_t>(g.hops.size());
          best.assign(g.node.size(), std::numeric_limits<double>::infinity());
          via.assign(g.node.size(), -1);
          best[0] = nic ? cost(slot(L + static_cast<std::size_t>(p.src), s)) : 0.0;
          std::int32_t end = -1;
          for (std::size_t h = 0; h < g.hops.size(); ++h) {  // hops in the order of their tails (breadth first)
            const PathHop& hop = g.hops[h];
            const double c = best[static_cast<std::size_t>(hop.from)] + cost(slot(static_cast<std::size_t>(hop.link), s + hop.h));
            if (c < best[static_cast<std::size_t>(hop.to)]) best[static_cast<std::size_t>(hop.to)] = c, via[static_cast<std::size_t>(hop.to)] = static_cast<std::int32_t>(h);
            if (g.node[static_cast<std::size_t>(hop.to)] == p.dst) end = hop.to;
          }
          if (end < 0) continue;  // not reached (a family always reaches it)
          const std::int64_t last = g.hops[static_cast<std::size_t>(via[static_cast<std::size_t>(end)])].h;
          const double total = best[static_cast<std::size_t>(end)] + (nic ? cost(slot(L + N + static_cast<std::size_t>(p.dst), s + last)) : 0.0);
          if (!(total < cheapest)) continue;
          cheapest = total;
          fl.family = family;
          fl.start = s;
          fl.links.clear();
          fl.used.clear();
          if (nic) fl.used.push_back(slot(L + static_cast<std::size_t>(p.src), s)), fl.used.push_back(slot(L + N + static_cast<std::size_t>(p.dst), s + last));
          for (std::int32_t at = end; at != 0;) {
            const PathHop& hop = g.hops[static_cast<std::size_t>(via[static_cast<std::size_t>(at)])];
            fl.used.push_back(slot(static_cast<std::size_t>(hop.link), s + hop.h));
            fl.links.push_back(hop.link);
            at = hop.from;
          }
        }
    };
    const auto take = [&](const Flit& fl, int d) {
      for (const std::size_t x : fl.used) users[x] += d;
    };
    QuadrantNegotiation out{std::vector<std::uint32_t>(pairs_.size(), 0), {}};
    std::size_t fewest = std::numeric_limits<std::size_t>::max();
    std::mt19937_64 rng(seed);
    for (Flit& fl : flits) {
      if (work >= limit) return {};
      route(fl);
      take(fl, +1);
    }
    for (;;) {
      std::size_t twice = 0;
      for (const int u : users) twice += static_cast<std::size_t>(std::max(0, u - 1));
      if (twice < fewest) {
        fewest = twice;
        std::fill(out.families.begin(), out.families.end(), 0U);
        for (const Flit& fl : flits) out.families[fl.pair] |= 1U << fl.family;
        if (twice == 0) {
          for (const Flit& fl : flits) out.placement.emplace_back(fl.pair, fl.start, std::vector<LinkId>(fl.links.rbegin(), fl.links.rend()));
          break;
        }
      }
      if (work >= limit) break;
      std::shuffle(flits.begin(), flits.end(), rng);
      for (Flit& fl : flits) {
        bool shared = false;
        for (const std::size_t x : fl.used) shared = shared || users[x] > 1;
        if (!shared && rng() % kQuadrantRerouteOdds != 0) continue;  // now and then a free flit moves too
        take(fl, -1);
        route(fl);
        take(fl, +1);
      }
      for (std::size_t x = 0; x < users.size(); ++x)
        if (users[x] > 1) history[x] += kHistoryStep * (users[x] - 1);
      pressure = std::min(pressure * kPresentGrowth, kPresentMax);
    }
    return out;
  }

  /// Placement by SAT over every simple path of a pair up to `extra` hops longer than a shortest
  /// one, at once, without listing them: per flit a variable per start and per link of the pair's
  /// layered path graph (node (v, h): v reached after h hops, h + dist(v, dst) <= dist + extra), the
  /// chosen links forming one path (one leaves the source; each chosen link into a node has one
  /// chosen out of it, the destination excepted; a node is entered at most once over its layers),
  /// and a use variable per (link, start) set where both are (a link leaving layer h, from start
  /// s, takes slot s + h; the NIC's ejection, the last link's). At most one use per resource and
  /// slot, as in place_sat. Flits of a pair start in increasing order (they are
  /// interchangeable). `orbits`: the orbits' leading pairs only, each resource counted as its
  /// orbit. Unknown without building when the model would have more than `max_clauses` clauses
  /// (`too_large`; `clauses_out`: the estimate then).
  ///
  /// `quadrants` (a torus, every factor a ring; per pair, quadrant_graph's `families`): instead of
  /// those paths, every path that goes one way round each ring, the ways the pair's families say.
  SatOutcome place_sat_paths(int period, std::int64_t horizon, int extra, double work, std::int64_t max_clauses, std::vector<Placed>& out,
                             std::int64_t& clauses_out, std::int64_t& spent, const TranslationOrbits* orbits, bool& too_large,
                             const std::vector<std::uint32_t>* quadrants = nullptr) {
    const bool periodic = period > 0;
    const std::size_t R = orbits != nullptr ? orbits->orbits : resources();
    const auto cell = [&](std::size_t resource) -> std::size_t {
      return orbits != nullptr ? orbits->resource_orbit[resource] : resource;
    };
    const std::int64_t slots = periodic ? period : horizon;
    const auto L = static_cast<std::size_t>(t_.links());
    const auto N = static_cast<std::size_t>(t_.nodes());
    std::vector<PathGraph> graphs;
    std::int64_t estimate = 0;
    for (std::size_t pi = 0; pi < pairs_.size(); ++pi) {
      const Pair& p = pairs_[pi];
      if (orbits != nullptr && !orbits->group.leads(p.src)) continue;
      const std::int64_t starts = periodic ? period : horizon - p.dist + 1;
      if (starts <= 0) return too_large = false, SatOutcome::Unsat;
      PathGraph g = quadrants != nullptr ? quadrant_graph(pi, (*quadrants)[pi]) : layered_graph(pi, extra);
      // Per flit: a use per (link, start) with a clause and about three counter clauses per
      // resource it takes, and the graph's own clauses.
      const std::int64_t per_use = m_ == Model::SinglePort ? 10 : m_ == Model::Nic ? 5 : 4;
      estimate += p.flits * (static_cast<std::int64_t>(g.hops.size()) * (starts * per_use + 6) + 8 * starts);
      graphs.push_back(std::move(g));
      if (estimate > max_clauses) break;  // too large already: the rest need not be built
    }
    clauses_out = estimate;
    too_large = estimate > max_clauses;
    if (too_large) return SatOutcome::Unknown;
    CaDiCaL::Solver solver;
    solver.set("quiet", 1);
    Cnf cnf(solver);
    std::vector<std::vector<int>> group(R * static_cast<std::size_t>(slots));
    const auto take = [&](std::size_t resource, std::int64_t step, int v) {
      group[cell(resource) * static_cast<std::size_t>(slots) + static_cast<std::size_t>(periodic ? step % period : step)].push_back(v);
    };
    struct FlitVars {
      std::size_t graph;
      int first_start;  // variables first_start .. + starts - 1
      std::vector<int> hop;
    };
    std::vector<FlitVars> flits;
    std::vector<std::vector<int>> into, out_of, entering(N);
    for (std::size_t gi = 0; gi < graphs.size(); ++gi) {
      const PathGraph& g = graphs[gi];
      const Pair& p = pairs_[g.pair];
      const std::int64_t starts = periodic ? period : horizon - p.dist + 1;
      for (std::int32_t k = 0; k < p.flits; ++k) {
        FlitVars f{gi, cnf.vars() + 1, {}};
        std::vector<int> start_vars;
        for (std::int64_t s = 0; s < starts; ++s) start_vars.push_back(cnf.var());
        cnf.exactly_one(start_vars);
        if (k > 0)  // not before the flit before it: a start s needs one of its starts <= s
          for (std::int64_t s = 0; s < starts; ++s) {
            std::vector<int> c{-start_vars[static_cast<std::size_t>(s)]};
            for (std::int64_t e = 0; e <= s; ++e) c.push_back(flits.back().first_start + static_cast<int>(e));
            cnf.clause(c);
          }
        if (m_ == Model::Nic)
          for (std::int64_t s = 0; s < starts; ++s) take(L + static_cast<std::size_t>(p.src), s, start_vars[static_cast<std::size_t>(s)]);
        into.assign(g.node.size(), {});
        out_of.assign(g.node.size(), {});
        for (const PathHop& hop : g.hops) {
          const int e = cnf.var();
          f.hop.push_back(e);
          into[static_cast<std::size_t>(hop.to)].push_back(e);
          out_of[static_cast<std::size_t>(hop.from)].push_back(e);
          entering[static_cast<std::size_t>(g.node[static_cast<std::size_t>(hop.to)])].push_back(e);
          const bool last = g.node[static_cast<std::size_t>(hop.to)] == p.dst;
          for (std::int64_t s = 0; s < starts; ++s) {
            const std::int64_t step = s + hop.h;
            if (!periodic && step >= horizon) {  // past the horizon (one-shot): not from this start
              cnf.clause({-e, -start_vars[static_cast<std::size_t>(s)]});
              continue;
            }
            const int u = cnf.var();
            cnf.clause({-e, -start_vars[static_cast<std::size_t>(s)], u});
            take(static_cast<std::size_t>(hop.link), step, u);
            if (m_ == Model::SinglePort) {
              take(L + static_cast<std::size_t>(t_.link_source(hop.link)), step, u);
              take(L + N + static_cast<std::size_t>(t_.link_target(hop.link)), step, u);
            }
            if (m_ == Model::Nic && last) take(L + N + static_cast<std::size_t>(p.dst), step, u);
          }
        }
        cnf.exactly_one(out_of[0]);
        for (std::size_t v = 1; v < g.node.size(); ++v) {
          if (g.node[v] == p.dst) continue;
          cnf.at_most(out_of[v], 1);
          for (const int e : into[v]) {
            std::vector<int> c{-e};
            c.insert(c.end(), out_of[v].begin(), out_of[v].end());
            cnf.clause(c);
          }
        }
        for (auto& x : entering)  // a simple path: each node entered once at most
          if (!x.empty()) {
            if (x.size() > 1) cnf.at_most(x, 1);
            x.clear();
          }
        flits.push_back(std::move(f));
      }
    }
    for (const auto& g : group) cnf.at_most(g, 1);
    std::vector<std::vector<int>>().swap(group);
    clauses_out = cnf.clauses();
    const SatOutcome res = solve_for_work(solver, work, clauses_out, spent);
    if (res != SatOutcome::Sat) return res;
    out.clear();
    for (const FlitVars& f : flits) {
      const PathGraph& g = graphs[f.graph];
      const Pair& p = pairs_[g.pair];
      std::int64_t start = 0;
      while (solver.val(f.first_start + static_cast<int>(start)) <= 0) ++start;
      std::vector<LinkId> links;
      for (std::int32_t at = 0; g.node[static_cast<std::size_t>(at)] != p.dst;) {
        std::size_t j = 0;
        while (j < g.hops.size() && (g.hops[j].from != at || solver.val(f.hop[j]) <= 0)) ++j;
        if (j == g.hops.size()) throw std::logic_error("place_sat_paths: a chosen path ends before its destination");
        links.push_back(g.hops[j].link);
        at = g.hops[j].to;
      }
      out.push_back({static_cast<std::uint32_t>(g.pair), route_index(g.pair, links), start});
    }
    return res;
  }

  [[nodiscard]] const std::vector<Pair>& pairs() const { return pairs_; }
  /// Each pair's index by (source, destination).
  [[nodiscard]] std::map<std::pair<NodeId, NodeId>, std::uint32_t> pair_index() const {
    std::map<std::pair<NodeId, NodeId>, std::uint32_t> out;
    for (std::size_t pi = 0; pi < pairs_.size(); ++pi) out[{pairs_[pi].src, pairs_[pi].dst}] = static_cast<std::uint32_t>(pi);
    return out;
  }
  /// The slot (resource x period + step) a use of a path started at `start` takes, the step
  /// wrapped into the period by a compare (a division per use was a fifth of a large run's time).
  static std::size_t slot_index(const Use& u, std::int64_t start, int period) {
    std::int64_t step = start + u.offset;
    if (step >= period) step %= period;
    return static_cast<std::size_t>(u.resource) * static_cast<std::size_t>(period) + static_cast<std::size_t>(step);
  }
  /// One-shot negotiations under a horizon below `h` place each flit over every path each way round
  /// each ring (cheapest_direction) instead of its shortest paths (a torus of rings; 0: never).
  void set_every_direction_below(std::int64_t h) { every_direction_below_ = h; }
  /// The negotiated placement also over paths up to `hops` longer (cheapest_detour); 0: not.
  void set_detour_hops(int hops) { detour_hops_ = hops; }
  /// Per pair, how many routes it has; keep_routes forgets those added since (the periodic search
  /// starts every period from the candidates and balanced routes, as a new scheduler would).
  [[nodiscard]] std::vector<std::size_t> route_counts() const {
    std::vector<std::size_t> out;
    for (const Pair& p : pairs_) out.push_back(p.routes.size());
    return out;
  }
  void keep_routes(const std::vector<std::size_t>& counts) {
    for (std::size_t pi = 0; pi < pairs_.size(); ++pi) pairs_[pi].routes.resize(counts[pi]);
  }
  /// Whether the flits' routes `only` (per flit) take every route of every pair: place_sat's model
  /// on them is then the one on every route.
  [[nodiscard]] bool every_route_taken(const std::vector<std::int32_t>& only) const {
    for (std::size_t pi = 0; pi < pairs_.size(); ++pi) {
      std::vector<char> taken(pairs_[pi].routes.size(), 0);
      for (std::int32_t k = 0; k < pairs_[pi].flits; ++k) taken[static_cast<std::size_t>(only[first_flit_[pi] + static_cast<std::size_t>(k)])] = 1;
      if (std::find(taken.begin(), taken.end(), 0) != taken.end()) return false;
    }
    return true;
  }

  /// The translations that map the traffic onto itself (traffic_translations) with the orbits
  /// of the resources; none when that is the identity alone.
  [[nodiscard]] std::optional<TranslationOrbits> translation_orbits(std::int64_t max_work, std::int64_t& work) const {
    Translations tr = traffic_translations(t_, traffic_, max_work, &work);
    if (tr.order() < 2) return std::nullopt;
    const std::size_t L = static_cast<std::size_t>(t_.links()), N = static_cast<std::size_t>(t_.nodes());
    TranslationOrbits out;
    out.resource_orbit.resize(resources());
    for (std::size_t r = 0; r < out.resource_orbit.size(); ++r)
      out.resource_orbit[r] = r < L         ? tr.link_orbit[r]
                              : r < L + N   ? tr.link_orbits + tr.node_orbit[r - L]
                                            : tr.link_orbits + tr.node_orbits + tr.node_orbit[r - L - N];
    out.orbits = tr.link_orbits + (out.resource_orbit.size() > L ? 2 * tr.node_orbits : 0);
    out.group = std::move(tr);
    return out;
  }

  /// A placement of the orbits' leading pairs (place_sat with orbits) carried to every pair by
  /// the translations: route links mapped by port, the same start.
  [[nodiscard]] std::vector<Placed> unfold(const std::vector<Placed>& leaders, const TranslationOrbits& o) {
    const std::map<std::pair<NodeId, NodeId>, std::uint32_t> pair_of = pair_index();
    std::vector<Placed> out;
    for (const Placed& x : leaders) {
      const std::vector<LinkId> links = pairs_[x.pair].routes[static_cast<std::size_t>(x.route)].links;
      for (const std::vector<NodeId>& g : o.group.maps) {
        const NodeId src = g[static_cast<std::size_t>(pairs_[x.pair].src)], dst = g[static_cast<std::size_t>(pairs_[x.pair].dst)];
        std::vector<LinkId> moved;
        for (const LinkId l : links) moved.push_back(translate_link(t_, g, l));
        const std::uint32_t pj = pair_of.at({src, dst});
        out.push_back({pj, route_index(pj, moved), x.start});
      }
    }
    return out;
  }

  /// Adds to every pair's candidates its simple paths up to `extra` hops longer than a shortest
  /// one, at most `per_pair` routes in all (add_paths). A periodic schedule at a tight period may
  /// need a detour that changes the slot a flit reaches a link in, which no shortest route does.
  /// `sources` (if not empty): only the pairs from the nodes marked there.
  void add_detours(int extra, std::size_t per_pair, std::int64_t& work, const std::vector<char>& sources = {}) {
    for (std::size_t pi = 0; pi < pairs_.size(); ++pi)
      if (sources.empty() || sources[static_cast<std::size_t>(pairs_[pi].src)]) add_paths(pi, extra, per_pair, work);
  }

  /// Adds to pair pi's candidates its simple paths up to `extra` hops longer than a shortest one,
  /// until it has `per_pair` routes (the shortest and least detoured first: a depth-first search
  /// by length). Counts one unit of `work` per neighbour looked at.
  void add_paths(std::size_t pi, int extra, std::size_t per_pair, std::int64_t& work) {
    const Pair& p = pairs_[pi];
    if (on_path_.empty()) on_path_.assign(static_cast<std::size_t>(t_.nodes()), 0);
    std::vector<LinkId> path;
    for (int len = p.dist; len <= p.dist + extra && pairs_[pi].routes.size() < per_pair; ++len) {
      // Every simple path of exactly `len` hops (dist(v, d) bounds what is left).
      const std::function<void(NodeId)> walk = [&](NodeId v) {
        if (pairs_[pi].routes.size() >= per_pair) return;
        const int left = len - static_cast<int>(path.size());
        if (v == p.dst) {
          if (left == 0) (void)route_index(pi, path);
          return;
        }
        for (Port q = 0; q < t_.degree(v); ++q) {
          ++work;
          const NodeId u = t_.neighbor(v, q);
          const int du = dist(u, p.dst);
          if (on_path_[static_cast<std::size_t>(u)] || du < 0 || du > left - 1) continue;
          on_path_[static_cast<std::size_t>(u)] = 1;
          path.push_back(t_.link_id(v, q));
          walk(u);
          path.pop_back();
          on_path_[static_cast<std::size_t>(u)] = 0;
        }
      };
      on_path_[static_cast<std::size_t>(p.src)] = 1;
      walk(p.src);
      on_path_[static_cast<std::size_t>(p.src)] = 0;
    }
  }

  /// Adds the paths of the congestion LP's optimal flows (congestion_lp with flows) to the pairs'
  /// routes: per source, a path at a time along the links its flow still uses (the most flow
  /// first, no node twice; a cycle met is cancelled), to a destination still owed, taking the
  /// least of the path's flow and that debt, until what is owed is below kLpFlowEpsilon. Per pair,
  /// the indices of its LP paths among its routes. Counts a unit of `work` per link looked at.
  std::vector<std::vector<std::int32_t>> add_lp_routes(const CongestionLp& lp, std::int64_t& work) {
    std::vector<std::vector<std::int32_t>> out(pairs_.size());
    const auto N = static_cast<std::size_t>(t_.nodes());
    const std::map<std::pair<NodeId, NodeId>, std::uint32_t> pair_of = pair_index();
    std::vector<std::int32_t> seen(N, -1);
    for (std::size_t i = 0; i < lp.flow_sources.size(); ++i) {
      const NodeId s = lp.flow_sources[i];
      std::vector<double> flow = lp.flows[i];
      std::vector<double> owed(N, 0.0);
      double left = 0;
      traffic_.for_each_in_row(s, [&](NodeId d, std::int64_t w) { owed[static_cast<std::size_t>(d)] = static_cast<double>(w), left += static_cast<double>(w); });
      for (int round = 0; left > kLpFlowEpsilon && round < kLpPathsPerSource; ++round) {
        std::vector<LinkId> path;
        std::vector<NodeId> at{s};
        std::fill(seen.begin(), seen.end(), -1);
        seen[static_cast<std::size_t>(s)] = 0;
        NodeId v = s;
        while (owed[static_cast<std::size_t>(v)] <= kLpFlowEpsilon || v == s) {
          LinkId best = -1;
          for (Port q = 0; q < t_.degree(v); ++q) {
            ++work;
            const LinkId l = t_.link_id(v, q);
            if (flow[static_cast<std::size_t>(l)] > kLpFlowEpsilon && (best < 0 || flow[static_cast<std::size_t>(l)] > flow[static_cast<std::size_t>(best)])) best = l;
          }
          if (best < 0) break;  // no flow out: what is left is rounding
          const NodeId w = t_.link_target(best);
          if (const std::int32_t back = seen[static_cast<std::size_t>(w)]; back >= 0) {
            // A cycle: w .. v, best. Cancel its least flow and go on from w.
            double least = flow[static_cast<std::size_t>(best)];
            for (std::size_t h = static_cast<std::size_t>(back); h < path.size(); ++h) least = std::min(least, flow[static_cast<std::size_t>(path[h])]);
            flow[static_cast<std::size_t>(best)] -= least;
            for (std::size_t h = static_cast<std::size_t>(back); h < path.size(); ++h) {
              flow[static_cast<std::size_t>(path[h])] -= least;
              seen[static_cast<std::size_t>(at[h + 1])] = -1;
            }
            path.resize(static_cast<std::size_t>(back));
            at.resize(static_cast<std::size_t>(back) + 1);
            v = w;
            continue;
          }
          path.push_back(best);
          at.push_back(w);
          seen[static_cast<std::size_t>(w)] = static_cast<std::int32_t>(path.size());
          v = w;
        }
        if (path.empty() || owed[static_cast<std::size_t>(v)] <= kLpFlowEpsilon) break;
        double take = owed[static_cast<std::size_t>(v)];
        for (LinkId l : path) take = std::min(take, flow[static_cast<std::size_t>(l)]);
        for (LinkId l : path) flow[static_cast<std::size_t>(l)] -= take;
        owed[static_cast<std::size_t>(v)] -= take;
        left -= take;
        if (const auto it = pair_of.find({s, v}); it != pair_of.end()) {
          const std::int32_t r = route_index(it->second, path);
          if (std::find(out[it->second].begin(), out[it->second].end(), r) == out[it->second].end()) out[it->second].push_back(r);
        }
      }
    }
    return out;
  }

  /// Local repair by SAT, a large-neighbourhood search (Shaw 1998): `at` (per flit of `order`,
  /// every flit placed, at a period or under a `no_wrap` horizon) has flits on shared slots, as a
  /// negotiation that stalled leaves it. Those flits are freed with the flits in the way of their
  /// least blocked (route, start) choices, and theirs in turn (kRepairDepth levels); every other
  /// flit stays, and SAT places the freed ones on the slots the others leave, over their pairs'
  /// routes and up to kRepairRoutes shortest paths. Each attempt frees more (kRepairAttempts),
  /// from another seed. True (`at` conflict-free) when one is found within `limit` look-ups.
  /// Only a placement with fewer flits in conflict than `record` is tried (then the new record):
  /// a negotiation restarting many times (the periodic search's last try) repairs its best few.
  bool repair_by_sat(int period, bool no_wrap, const std::vector<std::pair<std::uint32_t, std::int32_t>>& order, std::vector<Placed>& at,
                     std::int64_t& work, std::int64_t limit, std::uint64_t seed, std::size_t& record) {
    const auto P = static_cast<std::size_t>(period);
    const auto slot_of = [&](const Use& u, std::int64_t start) { return slot_index(u, start, period); };
    const auto route_of = [&](const Placed& x) -> const Route& { return pairs_[x.pair].routes[static_cast<std::size_t>(x.route)]; };
    const auto starts = [&](const Route& r) {
      return no_wrap ? period - static_cast<std::int64_t>(r.links.size()) + 1 : static_cast<std::int64_t>(period);
    };
    std::int64_t spent = 0;
    std::vector<std::int32_t> holder(resources() * P, -1);  // a slot's flit; -2: shared
    std::vector<std::size_t> conflicted;
    for (std::size_t f = 0; f < order.size(); ++f)
      for (const Use& u : route_of(at[f]).uses) {
        std::int32_t& h = holder[slot_of(u, at[f].start)];
        h = h == -1 ? static_cast<std::int32_t>(f) : -2;
      }
    for (std::size_t f = 0; f < order.size(); ++f)
      for (const Use& u : route_of(at[f]).uses)
        if (holder[slot_of(u, at[f].start)] == -2) {
          conflicted.push_back(f);
          break;
        }
    spent += 2 * static_cast<std::int64_t>(order.size());
    if (conflicted.size() > kRepairMaxConflicted || conflicted.size() >= record) return work += spent, false;
    record = conflicted.size();
    // The paths added here go again on failure: they would change what the candidate routes'
    // negotiation tries next (negotiate).
    const std::vector<std::size_t> counts = route_counts();
    for (std::size_t f : conflicted)
      for (const Use& u : route_of(at[f]).uses) holder[slot_of(u, at[f].start)] = -1;
    for (std::size_t f : conflicted) add_paths(at[f].pair, 0, kRepairRoutes, spent);
    std::vector<std::int32_t> in_way;
    struct Option {
      std::size_t blocked;
      std::uint64_t tie;
      std::int32_t route;
      std::int64_t start;
    };
    std::vector<Option> options;
    for (int attempt = 0; attempt < kRepairAttempts && spent < limit; ++attempt, seed = splitmix64(seed)) {
      // The neighbourhood: per freed flit, the kept flits in the way of its `keep` least blocked
      // choices are freed too (their slots given back), up to `cap` flits.
      const std::size_t keep = std::size_t{2} << attempt, cap = conflicted.size() + (kRepairFlits << attempt);
      std::vector<std::size_t> free_list = conflicted, frontier = conflicted;
      for (int depth = 0; depth < kRepairDepth && free_list.size() < cap; ++depth) {
        std::vector<std::size_t> next;
        for (std::size_t f : frontier) {
          const Pair& p = pairs_[at[f].pair];
          options.clear();
          for (std::size_t r = 0; r < p.routes.size(); ++r)
            for (std::int64_t st = 0; st < starts(p.routes[r]); ++st) {
              in_way.clear();
              for (const Use& u : p.routes[r].uses) {
                ++spent;
                const std::int32_t h = holder[slot_of(u, st)];
                if (h >= 0 && std::find(in_way.begin(), in_way.end(), h) == in_way.end()) in_way.push_back(h);
                if (in_way.size() > kRepairInWay) break;
              }
              if (in_way.size() <= kRepairInWay) options.push_back({in_way.size(), splitmix64(seed), static_cast<std::int32_t>(r), st});
            }
          const auto chosen = options.begin() + static_cast<std::ptrdiff_t>(std::min(keep, options.size()));
          std::partial_sort(options.begin(), chosen, options.end(),
                            [](const Option& a, const Option& b) { return std::tie(a.blocked, a.tie) < std::tie(b.blocked, b.tie); });
          for (auto o = options.begin(); o != chosen && free_list.size() < cap; ++o)
            for (const Use& u : p.routes[static_cast<std::size_t>(o->route)].uses) {
              const std::int32_t h = holder[slot_of(u, o->start)];
              if (h < 0) continue;
              const auto g = static_cast<std::size_t>(h);
              for (const Use& w : route_of(at[g]).uses) holder[slot_of(w, at[g].start)] = -1;
              free_list.push_back(g);
              next.push_back(g);
            }
        }
        frontier.swap(next);
      }
      // Per freed pair its shortest paths, and per start the path over free slots if there is
      // one (every shortest path at once, cheapest_shortest under a price of 1 per kept flit's slot).
      std::vector<double> kept(holder.size());
      for (std::size_t i = 0; i < holder.size(); ++i) kept[i] = holder[i] >= 0 ? 1.0 : 0.0;
      for (std::size_t f : free_list) {
        add_paths(at[f].pair, 0, kRepairRoutes, spent);
        std::int32_t route = -1;
        std::int64_t start = 0;
        if (pairs_[at[f].pair].dist > 0) (void)cheapest_shortest(at[f].pair, period, no_wrap, kept, seed, spent, route, start, true);
      }
      // SAT: per pair, exactly as many of its (route, start) choices on free slots as it has
      // flits freed; at most one choice per slot. A model past kRepairMaxUses ends the repair:
      // the next neighbourhood's would be larger still.
      std::map<std::uint32_t, std::vector<std::size_t>> flits_of;
      for (std::size_t f : free_list) flits_of[at[f].pair].push_back(f);
      std::vector<Placed> choices;
      std::vector<std::size_t> first_choice;  // per pair of flits_of, its first in `choices`
      std::size_t uses = 0;
      for (const auto& [pi, flits] : flits_of) {
        first_choice.push_back(choices.size());
        const Pair& p = pairs_[pi];
        for (std::size_t r = 0; r < p.routes.size(); ++r)
          for (std::int64_t st = 0; st < starts(p.routes[r]); ++st) {
            bool free = true;
            for (const Use& u : p.routes[r].uses) {
              ++spent;
              if (holder[slot_of(u, st)] >= 0) {
                free = false;
                break;
              }
            }
            if (free) choices.push_back({pi, static_cast<std::int32_t>(r), st}), uses += p.routes[r].uses.size();
          }
      }
      first_choice.push_back(choices.size());
      if (uses > kRepairMaxUses) break;
      CaDiCaL::Solver solver;
      solver.set("quiet", 1);
      Cnf cnf(solver);
      std::vector<int> var_of(choices.size());
      std::vector<std::pair<std::size_t, int>> on_slot;  // (slot, variable) of every choice's uses
      bool short_of_choices = false;
      std::size_t k = 0;
      for (const auto& [pi, flits] : flits_of) {
        std::vector<int> vars;
        for (std::size_t c = first_choice[k]; c < first_choice[k + 1]; ++c) {
          var_of[c] = cnf.var();
          vars.push_back(var_of[c]);
          for (const Use& u : pairs_[pi].routes[static_cast<std::size_t>(choices[c].route)].uses) on_slot.emplace_back(slot_of(u, choices[c].start), var_of[c]);
        }
        ++k;
        if (vars.size() < flits.size()) short_of_choices = true;
        else if (flits.size() == 1) cnf.exactly_one(vars);
        else cnf.exactly(vars, static_cast<int>(flits.size()));
      }
      bool solved = false;
      if (!short_of_choices) {
        std::sort(on_slot.begin(), on_slot.end());
        std::vector<int> vars;
        for (std::size_t i = 0; i < on_slot.size(); ++i) {
          vars.push_back(on_slot[i].second);
          if (i + 1 == on_slot.size() || on_slot[i + 1].first != on_slot[i].first) {
            if (vars.size() > 1) cnf.at_most(vars, 1);
            vars.clear();
          }
        }
        // Work is conflicts x clauses (cnf.hpp), converted to look-ups.
        const double per_conflict = static_cast<double>(std::max<std::int64_t>(1, cnf.clauses())) * kTrafficLookupsPerSecond / kConflictClausesPerSecond;
        const auto conflicts = static_cast<std::int64_t>(static_cast<double>(limit - spent) / per_conflict);
        std::int64_t used = 0;
        SatOutcome res = SatOutcome::Unknown;
        if (conflicts > 0) res = solve_limited(solver, conflicts, safety_cap(60 + static_cast<double>(conflicts) / 1000), used);
        solved = res == SatOutcome::Sat;
        spent += static_cast<std::int64_t>(static_cast<double>(used) * per_conflict);
        if (res == SatOutcome::Unknown) break;  // the work left did not decide it: a larger model would not be either
      }
      if (solved) {
        std::map<std::uint32_t, std::size_t> given;
        for (std::size_t c = 0; c < choices.size(); ++c)
          if (solver.val(var_of[c]) > 0) at[flits_of[choices[c].pair][given[choices[c].pair]++]] = choices[c];
        return work += spent, true;
      }
      // Not this neighbourhood: the flits it freed go back (the conflicted stay out).
      for (std::size_t i = conflicted.size(); i < free_list.size(); ++i) {
        const std::size_t g = free_list[i];
        for (const Use& w : route_of(at[g]).uses) holder[slot_of(w, at[g].start)] = static_cast<std::int32_t>(g);
      }
    }
    keep_routes(counts);
    return work += spent, false;
  }

  /// The schedule of `placed`: flit indices of a pair numbered in arrival order (then start), so a
  /// multi-flit message arrives in order.
  [[nodiscard]] Schedule build(std::vector<Placed> placed, int period) const {
    Schedule s{t_.spec(), m_, period > 0 ? "periodic-list" : "list", {}};
    s.period = period;
    s.traffic = traffic_tag(t_, &traffic_);
    std::sort(placed.begin(), placed.end(), [&](const Placed& a, const Placed& b) {
      const auto arrive = [&](const Placed& x) {
        return x.start + static_cast<std::int64_t>(pairs_[x.pair].routes[static_cast<std::size_t>(x.route)].links.size());
      };
      if (a.pair != b.pair) return a.pair < b.pair;
      if (arrive(a) != arrive(b)) return arrive(a) < arrive(b);
      return a.start < b.start;
    });
    std::int32_t flit = 0;
    for (std::size_t i = 0; i < placed.size(); ++i) {
      const Placed& x = placed[i];
      flit = i > 0 && placed[i - 1].pair == x.pair ? flit + 1 : 0;
      const Pair& p = pairs_[x.pair];
      const Route& r = p.routes[static_cast<std::size_t>(x.route)];
      for (std::size_t h = 0; h < r.links.size(); ++h) {
        const auto step = static_cast<std::size_t>(x.start) + h;
        if (s.steps.size() <= step) s.steps.resize(step + 1);
        const NodeId from = t_.link_source(r.links[h]);
        s.steps[step].push_back({{p.src, p.dst, flit}, from, r.links[h] - t_.link_id(from, 0)});
      }
    }
    return s;
  }

 private:
  // path_graph's shortest-path graph, each node's place in it (-1: not in it) and where each hop
  // count's hops begin in it (those of hop h: layer_edges_[h] .. layer_edges_[h + 1]).
  PathGraph shortest_;
  std::vector<std::int32_t> graph_pos_;
  std::vector<std::size_t> layer_edges_;
  std::int64_t every_direction_below_ = 0;
  int detour_hops_ = 0;
  /// direction()'s, per (pair, direction choice): quadrant_graph's of that choice (no places:
  /// more than kMaxPathGraph).
  std::map<std::pair<std::size_t, std::uint32_t>, PathGraph> direction_graphs_;
  // price_walks' scratch: per (place, start) the cheapest price and the hop into the place, per
  // start a hop's price; cheapest_on_graph's per place its hops from the source.
  std::vector<double> cost_, hop_;
  std::vector<std::int32_t> via_, hops_into_;
  std::vector<char> on_path_;  // add_paths' nodes on the path in hand
  [[nodiscard]] int dist(NodeId from, NodeId to) const {
    return dist_[static_cast<std::size_t>(to) * static_cast<std::size_t>(t_.nodes()) + static_cast<std::size_t>(from)];
  }
  /// The shortest-path graph of pair pi in shortest_ (places in graph_pos_; forget_graph clears
  /// them), hop by hop (layer_edges_), each node's ports scanned from `turn`. False when it has
  /// more than kMaxPathGraph nodes (its hops then the ones found before).
  bool path_graph(std::size_t pi, Port turn) {
    const Pair& p = pairs_[pi];
    if (graph_pos_.empty()) graph_pos_.assign(static_cast<std::size_t>(t_.nodes()), -1);
    shortest_.pair = pi;
    shortest_.node.assign(1, p.src);
    shortest_.hops.clear();
    graph_pos_[static_cast<std::size_t>(p.src)] = 0;
    layer_edges_.assign(1, 0);
    for (std::size_t begin = 0, h = 0; h < static_cast<std::size_t>(p.dist); ++h) {
      const std::size_t end = shortest_.node.size();
      for (std::size_t i = begin; i < end; ++i) {
        const NodeId v = shortest_.node[i];
        const int closer = dist(v, p.dst) - 1;
        const Port degree = t_.degree(v);
        for (Port j = 0; j < degree; ++j) {
          const Port q = static_cast<Port>((j + turn) % degree);
          const NodeId w = t_.neighbor(v, q);
          if (dist(w, p.dst) != closer) continue;
          std::int32_t& at_w = graph_pos_[static_cast<std::size_t>(w)];
          if (at_w < 0) {
            if (shortest_.node.size() >= kMaxPathGraph) return false;
            at_w = static_cast<std::int32_t>(shortest_.node.size());
            shortest_.node.push_back(w);
          }
          shortest_.hops.push_back({t_.link_id(v, q), static_cast<std::int32_t>(h), static_cast<std::int32_t>(i), at_w});
        }
      }
      layer_edges_.push_back(shortest_.hops.size());
      begin = end;
    }
    return true;
  }
  void forget_graph() {
    for (NodeId v : shortest_.node) graph_pos_[static_cast<std::size_t>(v)] = -1;
  }
  /// Adds to hop[s], for every start s, the price in `row` (a resource's P slots) of step h + s,
  /// wrapped at P.
  static void add_step_prices(std::vector<double>& hop, const double* row, std::size_t h, std::size_t P) {
    const std::size_t S = hop.size(), first = std::min(S, P - h % P);  // starts whose step h + s is below P
    for (std::size_t s = 0; s < first; ++s) hop[s] += row[h % P + s];
    for (std::size_t s = first; s < S; ++s) hop[s] += row[s - first];
  }
  /// Pair pi's graph of every path in direction choice `choice` (quadrant_graph's), built once
  /// per pair and choice; none (no places) where it has more than kMaxPathGraph.
  const PathGraph& direction(std::size_t pi, std::uint32_t choice) {
    auto [it, fresh] = direction_graphs_.try_emplace({pi, choice});
    if (fresh) {
      it->second = quadrant_graph(pi, 1U << choice);
      if (it->second.node.size() > kMaxPathGraph) it->second = PathGraph{pi, {}, {}};
    }
    return it->second;
  }
  /// cheapest_on_graph over every direction choice of pair pi (one-shot): the cheapest of them,
  /// the choices scanned from a seeded place.
  bool cheapest_direction(std::size_t pi, int horizon, const std::vector<double>& price, std::uint64_t& seed, std::int64_t& spent,
                          std::int32_t& route, std::int64_t& start) {
    const std::uint32_t choices = 1U << moving_dimensions(pi).size();
    const auto first = static_cast<std::uint32_t>(splitmix64(seed) % choices);
    double best = std::numeric_limits<double>::infinity();
    for (std::uint32_t j = 0; j < choices; ++j) {
      std::int32_t r = -1;
      std::int64_t st = 0;
      double cost = 0;
      if (cheapest_on_graph(direction(pi, (first + j) % choices), kMaxPathGraph, horizon, static_cast<std::size_t>(horizon), true, price, seed,
                            spent, r, st, cost) &&
          cost < best) {
        best = cost;
        route = r;
        start = st;
      }
    }
    return route >= 0;
  }

  /// f(resource) for every resource a hop over link l holds: the link, and under single-port the
  /// sender's send port and the receiver's receive port.
  template <class F>
  void for_hop_resources(LinkId l, F&& f) const {
    f(static_cast<std::size_t>(l));
    if (m_ != Model::SinglePort) return;
    const auto L = static_cast<std::size_t>(t_.links());
    f(L + static_cast<std::size_t>(t_.link_source(l)));
    f(L + static_cast<std::size_t>(t_.nodes()) + static_cast<std::size_t>(t_.link_target(l)));
  }
  /// Distances to d, searched backwards over the links into each node (the same as forwards from
  /// d where links go both ways; Poseidon's one-way custom platforms need the links in).
  void bfs_to(NodeId d) {
    if (into_.empty()) {
      into_.resize(static_cast<std::size_t>(t_.nodes()));
      for (NodeId v = 0; v < t_.nodes(); ++v)
        for (Port p = 0; p < t_.degree(v); ++p) into_[static_cast<std::size_t>(t_.neighbor(v, p))].push_back(v);
    }
    const auto base = static_cast<std::size_t>(d) * static_cast<std::size_t>(t_.nodes());
    std::vector<NodeId> queue{d};
    dist_[base + static_cast<std::size_t>(d)] = 0;
    for (std::size_t i = 0; i < queue.size(); ++i) {
      const NodeId v = queue[i];
      for (const NodeId u : into_[static_cast<std::size_t>(v)]) {
        std::int16_t& du = dist_[base + static_cast<std::size_t>(u)];
        if (du >= 0) continue;
        du = static_cast<std::int16_t>(dist_[base + static_cast<std::size_t>(v)] + 1);
        queue.push_back(u);
      }
    }
  }
  /// Up to `count` distinct shortest paths: lowest port first (dimension order on products),
  /// highest port first, then seeded choices among the ports that get closer.
  [[nodiscard]] std::vector<Route> candidate_routes(NodeId s, NodeId d, int count) const {
    std::vector<Route> out;
    for (int c = 0; c < std::max(1, count) * 3 && static_cast<int>(out.size()) < std::max(1, count); ++c) {
      std::uint64_t seed = (static_cast<std::uint64_t>(s) << 40) ^ (static_cast<std::uint64_t>(d) << 16) ^ static_cast<std::uint64_t>(c);
      Route r;
      NodeId v = s;
      while (v != d) {
        const int here = dist(v, d);
        std::vector<Port> closer;
        for (Port p = 0; p < t_.degree(v); ++p)
          if (dist(t_.neighbor(v, p), d) == here - 1) closer.push_back(p);
        const std::size_t pick = c == 0 ? 0 : c == 1 ? closer.size() - 1 : static_cast<std::size_t>(splitmix64(seed) % closer.size());
        r.links.push_back(t_.link_id(v, closer[pick]));
        v = t_.neighbor(v, closer[pick]);
      }
      if (std::any_of(out.begin(), out.end(), [&](const Route& o) { return o.links == r.links; })) continue;
      add_uses(s, d, r);
      out.push_back(std::move(r));
    }
    return out;
  }
  void add_uses(NodeId s, NodeId d, Route& r) const {
    const auto L = static_cast<std::uint32_t>(t_.links());
    const auto N = static_cast<std::uint32_t>(t_.nodes());
    const auto len = static_cast<std::int32_t>(r.links.size());
    for (std::int32_t h = 0; h < len; ++h) {
      const LinkId l = r.links[static_cast<std::size_t>(h)];
      r.uses.push_back({static_cast<std::uint32_t>(l), h});
      if (m_ == Model::SinglePort) {
        r.uses.push_back({L + static_cast<std::uint32_t>(t_.link_source(l)), h});
        r.uses.push_back({L + N + static_cast<std::uint32_t>(t_.link_target(l)), h});
      }
    }
    if (m_ == Model::Nic) {
      r.uses.push_back({L + static_cast<std::uint32_t>(s), 0});
      r.uses.push_back({L + N + static_cast<std::uint32_t>(d), len - 1});
    }
  }
  /// The earliest start >= 0 at which every use is free (periodic: start < period, else kNever).
  static std::int64_t earliest(const Calendar& cal, const Route& r, int period, std::int64_t& work) {
    std::int64_t start = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (const Use& u : r.uses) {
        ++work;
        const std::int64_t f = cal.next_free(u.resource, start + u.offset);
        if (f == kNever) return kNever;
        if (f != start + u.offset) {
          start = f - u.offset;
          moved = true;
          break;
        }
      }
      if (period > 0 && start >= period) return kNever;
    }
    return start;
  }

  const Topology& t_;
  Model m_;
  const Traffic& traffic_;
  std::vector<std::int16_t> dist_;
  std::vector<std::vector<NodeId>> into_;  // per node, the nodes with a link into it
  std::vector<Pair> pairs_;
  std::vector<std::size_t> first_flit_;  // per pair: its first flit's index in per-flit tables
  std::size_t flits_ = 0;
};

/// Priority orders of the flits. 0: the heaviest endpoints first (the nodes whose totals bind),
/// farther pairs first among equals, a pair's flits together; 1: the same pairs, flits interleaved
/// (every pair's flit k before any flit k+1); 2..: order 0 with seeded ties.
std::vector<std::pair<std::uint32_t, std::int32_t>> flit_order(const std::vector<Pair>& pairs, int which) {
  std::vector<std::uint32_t> idx(pairs.size());
  std::iota(idx.begin(), idx.end(), 0U);
  std::vector<std::uint64_t> tie(pairs.size(), 0);
  if (which >= 2) {
    std::uint64_t seed = 0x9e3779b97f4a7c15ULL * static_cast<unsigned>(which);
    for (auto& x : tie) x = splitmix64(seed);
  }
  std::stable_sort(idx.begin(), idx.end(), [&](std::uint32_t a, std::uint32_t b) {
    const Pair& x = pairs[a];
    const Pair& y = pairs[b];
    if (x.weight != y.weight) return x.weight > y.weight;
    if (which >= 2 && tie[a] != tie[b]) return tie[a] < tie[b];
    return x.dist > y.dist;
  });
  std::vector<std::pair<std::uint32_t, std::int32_t>> out;
  if (which == 1) {
    std::int32_t most = 0;
    for (const Pair& p : pairs) most = std::max(most, p.flits);
    for (std::int32_t k = 0; k < most; ++k)
      for (std::uint32_t i : idx)
        if (k < pairs[i].flits) out.emplace_back(i, k);
    return out;
  }
  for (std::uint32_t i : idx)
    for (std::int32_t k = 0; k < pairs[i].flits; ++k) out.emplace_back(i, k);
  return out;
}

/// T-CREST Poseidon's greedy order (its s_greedy): the longest first, a pair's flit k counted k hops
/// shorter, so the flits of the far pairs interleave; ties in pair order.
std::vector<std::pair<std::uint32_t, std::int32_t>> farthest_first(const std::vector<Pair>& pairs) {
  std::vector<std::pair<std::uint32_t, std::int32_t>> out;
  for (std::uint32_t i = 0; i < pairs.size(); ++i)
    for (std::int32_t k = 0; k < pairs[i].flits; ++k) out.emplace_back(i, k);
  std::stable_sort(out.begin(), out.end(), [&](const auto& a, const auto& b) {
    return pairs[a.first].dist - a.second > pairs[b.first].dist - b.second;
  });
  return out;
}

/// The base network's periodic schedule of `traffic` (t has failed links only) at `budget`
/// (start_budget_seconds), computed once per (network, model, traffic, budget): the periodic
/// search asks for it at every period it tries.
const Schedule& base_periodic_schedule(const Topology& t, Model m, const Traffic& traffic, double budget) {
  static std::mutex lock;
  static std::string cached_key;
  static Schedule cached;
  const std::string key = t.spec() + "|" + to_string(m) + "|" + traffic.sha256() + "|" + std::to_string(budget);
  std::lock_guard<std::mutex> hold(lock);
  if (key != cached_key) {
    const Topology& b = *t.base();
    if (is_all_traffic(t, &traffic)) {
      PeriodicRequest r;
      r.budget_seconds = budget;
      cached = periodic_schedule(b, m, r).schedule;
    } else {
      TrafficRequest r;
      r.periodic = true;
      r.budget_seconds = budget;
      cached = schedule_traffic(b, m, traffic, r).schedule;
    }
    cached.materialize();
    cached_key = key;
  }
  return cached;
}

/// The repair's starting point from a schedule `base` on `b` (t itself, or t's base network when t
/// has failed links): per flit of `order`, its route (links of t) and start mod `period`, or route
/// -1 when its walk crosses a failed link; `preferred` (per flit, first flit of the pair + k) gets
/// those routes. False when nothing is kept.
bool seed_from(ListScheduler& ls, const Topology& t, const Topology& b, const Schedule& base, int period,
               const std::vector<std::pair<std::uint32_t, std::int32_t>>& order, std::vector<Placed>& initial,
               std::vector<std::int32_t>& preferred) {
  const std::map<std::pair<NodeId, NodeId>, std::uint32_t> pair_of = ls.pair_index();
  std::vector<std::size_t> first(ls.pairs().size() + 1, 0);
  for (std::size_t pi = 0; pi < ls.pairs().size(); ++pi) first[pi + 1] = first[pi] + static_cast<std::size_t>(ls.pairs()[pi].flits);
  std::map<std::tuple<NodeId, NodeId, std::int32_t>, std::vector<std::pair<std::int64_t, LinkId>>> walk;
  std::map<std::tuple<NodeId, NodeId, std::int32_t>, bool> lost;
  base.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
    for (const Transfer& tr : step) {
      const auto k = std::make_tuple(tr.msg.src, tr.msg.dst, tr.msg.flit);
      const std::optional<Port> p = t.port_to(tr.from, b.neighbor(tr.from, tr.port));
      if (!p) lost[k] = true;
      else walk[k].emplace_back(static_cast<std::int64_t>(i), t.link_id(tr.from, *p));
    }
  });
  std::vector<Placed> by_flit(first.back(), Placed{0, -1, -1});
  bool any = false;
  for (auto& [k, hops] : walk) {
    if (lost.count(k) != 0) continue;
    const auto it = pair_of.find({std::get<0>(k), std::get<1>(k)});
    if (it == pair_of.end() || std::get<2>(k) >= ls.pairs()[it->second].flits) continue;
    std::sort(hops.begin(), hops.end());
    bool consecutive = true;
    for (std::size_t h = 1; h < hops.size(); ++h) consecutive = consecutive && hops[h].first == hops[0].first + static_cast<std::int64_t>(h);
    if (!consecutive) continue;
    std::vector<LinkId> links;
    for (const auto& h : hops) links.push_back(h.second);
    const std::int32_t r = ls.route_index(it->second, links);
    const std::size_t f = first[it->second] + static_cast<std::size_t>(std::get<2>(k));
    by_flit[f] = {it->second, r, hops.front().first % period};
    preferred[f] = r;
    any = true;
  }
  initial.assign(order.size(), Placed{0, -1, -1});
  for (std::size_t i = 0; i < order.size(); ++i) initial[i] = by_flit[first[order[i].first] + static_cast<std::size_t>(order[i].second)];
  return any;
}

/// Whether the base network's schedule can start a search on t: failed links only (a failed node
/// takes its messages with it), nic or all-port (no relay buffers), at most `max_nodes` nodes.
bool has_base_start(const Topology& t, Model m, int max_nodes) {
  return t.is_degraded() && t.failed_nodes().empty() && t.nodes() <= max_nodes && (m == Model::Nic || m == Model::AllPort);
}

/// Whether the node map `map` maps `traffic` onto itself. A relabelled base schedule delivers the
/// traffic relabelled: only such a symmetry (`all`, uniform groups) gives a start.
bool keeps_traffic(const Traffic& traffic, const std::vector<NodeId>& map) {
  bool same = true;
  traffic.for_each([&](NodeId a, NodeId b, std::int64_t w) {
    same = same && traffic.flits(map[static_cast<std::size_t>(a)], map[static_cast<std::size_t>(b)]) == w;
  });
  return same;
}

/// `placed` (any order) per entry of `order`: a pair's k-th placement for its flit k (the flits
/// of a pair are interchangeable).
std::vector<Placed> aligned(const ListScheduler& ls, const std::vector<std::pair<std::uint32_t, std::int32_t>>& order,
                            const std::vector<Placed>& placed) {
  std::vector<std::vector<Placed>> of_pair(ls.pairs().size());
  for (const Placed& x : placed) of_pair[x.pair].push_back(x);
  std::vector<Placed> out;
  out.reserve(order.size());
  for (const auto& [pi, k] : order) out.push_back(of_pair[pi][static_cast<std::size_t>(k)]);
  return out;
}

/// The shortest placement over `orders` priority orders (even: each flit on the route that arrives
/// first; odd: on its balanced route), from `initial` busy resources when given; its length, or
/// kNever when no order places every flit (periodic). No order after the first starts once `spent`
/// has reached `stop_at`.
std::int64_t best_of_orders(const ListScheduler& ls, int period, int orders, const std::vector<std::int32_t>& balanced,
                            const Calendar* initial, std::vector<Placed>& best, std::int64_t& spent, std::int64_t stop_at = kNever) {
  std::int64_t best_steps = kNever;
  std::vector<Placed> placed;
  for (int o = 0; o < std::max(1, orders) && (o == 0 || spent < stop_at); ++o) {
    if (!ls.place(period, flit_order(ls.pairs(), o / 2), o % 2 == 1 ? &balanced : nullptr, placed, spent, initial)) continue;
    if (const std::int64_t steps = ls.length(placed); steps < best_steps) {
      best_steps = steps;
      best.swap(placed);
    }
  }
  return best_steps;
}

/// The negotiated placement over every shortest path first (torus:16x16 random:1:0.1:2 nic:
/// period 92, against 96 over the candidate routes alone), then, with the work left when that stalls,
/// over the candidate routes (torus:8x8 perm:transpose:8: period 11 there, where every path stalls
/// at 12: the candidates' dimension-ordered paths pack a permutation better). Between the two, the
/// placement every path stalled closest to is repaired locally by SAT (repair_by_sat; torus:16x16
/// random:1:0.1:2 periodic 91 -> 90); `repaired` (if given) gets how many flits in conflict a
/// repair that fitted started from. A try that stalls with work left starts again with the next
/// seed (kNegotiationRestarts).
bool negotiate(ListScheduler& ls, int period, const std::vector<std::pair<std::uint32_t, std::int32_t>>& order,
               const std::vector<std::int32_t>& preferred, std::vector<Placed>& out, std::int64_t& work, std::int64_t limit,
               const std::vector<Placed>& initial, bool no_wrap, std::uint64_t seed = kNegotiationSeed,
               int restarts = kNegotiationRestarts, std::size_t* repaired = nullptr) {
  std::int64_t used = 0;
  std::vector<Placed> closest;
  std::size_t record = std::numeric_limits<std::size_t>::max();
  for (int attempt = 0; attempt <= restarts && used < limit; ++attempt, seed = splitmix64(seed)) {
    bool stalled = false;
    const std::int64_t before = used;
    if (ls.place_negotiated(period, order, preferred, out, used, limit - used, initial, no_wrap, true, seed, &stalled, &closest) ||
        (stalled && ls.repair_by_sat(period, no_wrap, order, closest, used, std::min((limit - used) / kRepairShare, kRepairRatio * (used - before)), seed, record) &&
         (out = closest, repaired != nullptr && (*repaired = record), true)) ||
        (used < limit && ls.place_negotiated(period, order, preferred, out, used, limit - used, initial, no_wrap, false, seed, &stalled))) {
      work += used;
      return true;
    }
    if (!stalled) break;  // out of work, or no start fits (no_wrap)
  }
  work += used;
  return false;
}

/// Whether a periodic schedule of period `held` is a start for the negotiation at `period`: within
/// 5 % of it (every flit at its start mod `period`, so a few flits move, not all).
bool warm_start(std::int64_t held, std::int64_t period) { return held * 20 <= period * 21; }

/// Periodic, no order fits: the negotiated placement at `period`, started from (first that
/// applies) a schedule of a longer period (`warm`, within 5 %: every flit at its start mod this
/// period), the base network's periodic schedule on a network with failed links (every message
/// whose walk avoids them), or the balanced routes' greedy placement (the flits that did not fit
/// placed by price): only the flits in conflict move, not every flit from scratch.
bool negotiate_periodic(ListScheduler& ls, const Topology& t, Model m, const Traffic& traffic, int period,
                        const std::vector<std::pair<std::uint32_t, std::int32_t>>& order, const std::vector<std::int32_t>& balanced,
                        const Schedule* warm, std::int64_t repair_work, std::int64_t& spent, std::vector<Placed>& out,
                        std::uint64_t seed = kNegotiationSeed, int restarts = kNegotiationRestarts, std::size_t* repaired = nullptr,
                        const Schedule* base = nullptr, double start_budget = 0) {
  std::vector<Placed> initial;
  std::vector<std::int32_t> preferred = balanced;
  const bool seeded =
      (base != nullptr && seed_from(ls, t, *t.base(), *base, period, order, initial, preferred)) ||
      (base == nullptr && warm != nullptr && warm_start(warm->period, period) && seed_from(ls, t, t, *warm, period, order, initial, preferred)) ||
      (has_base_start(t, m, kRepairMaxNodes) && seed_from(ls, t, *t.base(), base_periodic_schedule(t, m, traffic, start_budget), period, order, initial, preferred));
  if (!seeded) {
    preferred = balanced;
    (void)ls.place(period, order, &balanced, initial, spent, nullptr, true);
  }
  return negotiate(ls, period, order, preferred, out, spent, repair_work, initial, false, seed, restarts, repaired);
}

/// The next length to try between `failed` (too short, or the bound less one) and `fits` (in
/// hand): halfway, but at most 1/kMaxStepDown of `fits` below it, so that the negotiated
/// placement starts from that schedule with a few flits to move, not all.
std::int64_t step_down(std::int64_t failed, std::int64_t fits) {
  return std::max(failed + (fits - failed) / 2, fits - std::max<std::int64_t>(1, fits / kMaxStepDown));
}

/// Every factor a ring of 3 or more (true for none: callers check for factors themselves).
bool rings_only(const std::vector<Factor>& factors) {
  return std::all_of(factors.begin(), factors.end(), [](const Factor& f) { return f.kind == FactorKind::Ring && f.size >= 3; });
}

/// On a torus of rings, the least load of the busiest link under a routing on shortest paths (the
/// congestion LP over them, congestion_lp's shortest_only): a one-shot schedule of T steps on
/// shortest paths alone has T >= it, and at T = it leaves no slack on that link. 0 on other
/// networks and past kLpRouteColumns flow variables.
double shortest_paths_congestion(const Topology& t, Model m, const Traffic& traffic) {
  const std::vector<Factor>& factors = t.factors();
  if (factors.empty() || factors.size() > kQuadrantMaxDims || !rings_only(factors)) return 0;
  const CongestionLp lp = congestion_lp(t, m, traffic, kLpRouteColumns, true, false, 0, true);
  return lp.solved ? lp.lp_value : 0;
}

/// One-shot: `current` (per flit of `order`, `steps` long) shorter by the negotiated placement
/// under a horizon H (no flit ends past it, place_negotiated's no_wrap), H first `floor` (the
/// lower bound; an eighth of the work), then step_down (all the work left each), each try started
/// from the last placement that fitted. `left`: the work, less what was spent.
void shorten_one_shot(ListScheduler& ls, const std::vector<std::pair<std::uint32_t, std::int32_t>>& order,
                      const std::vector<std::int32_t>& balanced, std::int64_t floor, std::vector<Placed>& current, std::int64_t& steps,
                      std::int64_t& left, std::int64_t& spent) {
  std::vector<Placed> start_from(order.size()), placed;
  std::int64_t lo = floor - 1, hi = steps;
  for (bool first = true; hi - lo > 1 && left > 0; first = false) {
    const std::int64_t H = first ? floor : step_down(lo, hi);
    for (std::size_t i = 0; i < order.size(); ++i) {
      start_from[i] = current[i];
      if (ls.finish(current[i]) > H) start_from[i].route = -1;  // ends past the horizon: placed again
    }
    std::int64_t used = 0;
    const bool ok = negotiate(ls, static_cast<int>(H), order, balanced, placed, used, first ? left / 8 : left, start_from, true);
    left -= used;
    spent += used;
    if (ok) {
      hi = H;
      current = placed;
    } else {
      lo = H;
    }
  }
  steps = hi;
}

/// The repair of `base` (a schedule of t's base network) as a start for the list scheduler: its
/// length, with `current` per flit of `order`, when shorter than `below` (else kNever; also when a
/// flit's walk could not be read back).
std::int64_t repaired_start(ListScheduler& ls, const Topology& t, Model m, const Traffic& traffic, const Schedule& base, int routes,
                            int orders, const std::vector<std::pair<std::uint32_t, std::int32_t>>& order,
                            const std::vector<std::int32_t>& balanced, std::int64_t below, std::vector<Placed>& current,
                            std::int64_t& spent) {
  const Schedule r = repair_schedule(t, m, traffic, base, routes, orders, &spent, nullptr, kDegradedRepairWork);
  std::vector<std::int32_t> routes_of(balanced);
  const auto steps = static_cast<std::int64_t>(r.step_count());
  if (steps < below && seed_from(ls, t, t, r, static_cast<int>(steps) + 1, order, current, routes_of) &&
      std::none_of(current.begin(), current.end(), [](const Placed& x) { return x.route < 0; }))
    return steps;
  current.clear();
  return kNever;
}

}  // namespace

Schedule periodic_list_search(const Topology& t, Model m, const Traffic& traffic, int routes, Schedule found, std::int64_t lo,
                              std::int64_t work, std::int64_t* spent, std::vector<std::string>& log, double start_budget) {
  if (found.period <= lo || work <= 0) return found;  // at the bound, or the one-shot search spent the work
  // One scheduler for every period: its routes and balanced routes are computed once (per period
  // they were most of a try's work on large traffic: b15x15_cf0.50, 76,797 flits, 221 M look-ups
  // of 300 M at period 729).
  ListScheduler ls(t, m, traffic, routes);
  std::int64_t used = 0;
  const std::vector<std::int32_t> balanced = ls.balanced(found.period, used);
  const auto order = flit_order(ls.pairs(), 0);
  // The routes the negotiation finds at one period are not candidates at the next: the placement
  // over the candidate routes packs permutations by their dimension-ordered paths (torus:8x8
  // perm:transpose:8: period 12 with every period's routes kept, 11 without).
  const std::vector<std::size_t> candidates = ls.route_counts();
  // The bound gets an eighth of the work (met at once where only the NICs bind) when it is within
  // 5 % of the period in hand, else a kColdBoundShare-th (its negotiation then starts from the
  // balanced routes' greedy placement); every later try all that is left (kMaxStepDown). The
  // priority orders run until a period needs the negotiation (below that they do not fit either:
  // b15x15_cf0.50, 100 M look-ups a try).
  bool orders_fit = true;
  // On a network with failed links, the base network's periodic schedule and its relabellings by
  // the base's symmetries (the one-shot search's starts), built when first needed.
  const bool base_starts = has_base_start(t, m, kBaseStartMaxNodes);
  std::vector<Schedule> bases;
  const auto base_start = [&](std::size_t g) -> const Schedule* {
    if (!base_starts) return nullptr;
    if (bases.empty()) {
      const Schedule& base = base_periodic_schedule(t, m, traffic, start_budget);
      for (const std::vector<NodeId>& map : factor_symmetries(*t.base(), kRelabelStarts))
        if (keeps_traffic(traffic, map)) bases.push_back(relabel(*t.base(), base, map));
    }
    return g < bases.size() ? &bases[g] : nullptr;
  };
  const auto try_period = [&](std::int64_t P, std::int64_t parts, std::uint64_t seed = kNegotiationSeed,
                              int restarts = kNegotiationRestarts, const Schedule* base = nullptr) {
    const bool warm = warm_start(found.period, P);
    const std::int64_t share = std::max<std::int64_t>(0, (work - used) / (P == lo && !warm ? kColdBoundShare : parts));
    std::vector<Placed> placed;
    ls.keep_routes(candidates);
    bool fits = orders_fit && best_of_orders(ls, static_cast<int>(P), kPeriodicOrders, balanced, nullptr, placed, used) != kNever;
    std::size_t repaired = 0;
    if (!fits && share > 0) {
      fits = negotiate_periodic(ls, t, m, traffic, static_cast<int>(P), order, balanced, &found, share, used, placed, seed, restarts, &repaired,
                                base, start_budget);
      orders_fit = orders_fit && P == lo;
    }
    log.push_back("list: period " + std::to_string(P) + (fits ? " fits" : " does not fit") +
                  (base == nullptr ? "" : base == &bases.front() ? " from the base network's schedule" : " from the base network's schedule relabelled") +
                  (repaired > 0 ? " (a local SAT repair of the " + std::to_string(repaired) + " flits a negotiation left in conflict)" : ""));
    if (fits) found = ls.build(std::move(placed), static_cast<int>(P));
    return fits;
  };
  // The bound counts as failed only when it was negotiated from the schedule in hand; from the
  // greedy placement (a kColdBoundShare-th of the work) the descent comes to it again (mesh:8x8
  // random:1:0.1:2: one-shot 26, period 25, then the bound 24 from there).
  std::int64_t fail_below = lo - 1;
  const bool bound_warm = warm_start(found.period, lo);
  bool at_bound = try_period(lo, 8);
  if (!at_bound && bound_warm) fail_below = lo;
  // With failed links, a bound the schedule in hand missed is tried again from the base network's
  // schedule and each relabelling: the failed links meet other busy slots in each (torus:8x8~fail:0-8
  // all-port: the bound 69 missed from the one-shot schedule's 70, met from the base's).
  for (std::size_t g = 0; !at_bound && bound_warm && base_start(g) != nullptr && used < work; ++g)
    at_bound = try_period(lo, 8, kNegotiationSeed, kNegotiationRestarts, base_start(g));
  while (found.period - fail_below > 1 && used < work) {
    const std::int64_t mid = step_down(fail_below, found.period);
    // With failed links, from the base network's schedule first (half the work: only the flits its
    // failed links carried move), then from the schedule in hand (torus:16x16~fail:0-1 nic: 560
    // from the one-shot schedule alone; 555, 550 and 545 from the base, then 540 from 545's).
    const bool from_base = base_start(0) != nullptr && try_period(mid, 2, kNegotiationSeed, kNegotiationRestarts, base_start(0));
    if (!from_base && !try_period(mid, 1)) fail_below = mid;
  }
  // Every try had all the work left, so a period that did not fit stalled and would again; only
  // the bound had an eighth: when the descent ends one above it, the bound again with the rest,
  // from other seeds (the same ones from the same schedule would stall the same way) and
  // restarting until the work is spent: it is the last try.
  if (found.period == lo + 1 && work > used) (void)try_period(lo, 1, kRetrySeed, std::numeric_limits<int>::max());
  if (spent != nullptr) *spent += used;
  return found;
}

Schedule list_schedule(const Topology& t, Model m, const Traffic& traffic, int period, int routes, int orders, std::int64_t* work,
                       std::int64_t repair_work, const Schedule* warm, std::int64_t floor, std::int64_t orders_work,
                       std::vector<std::string>* log, bool greedy_start, double start_budget) {
  ListScheduler ls(t, m, traffic, routes);
  std::int64_t spent = 0;
  std::vector<Placed> best, placed;
  const std::vector<std::int32_t> balanced = ls.balanced(period, spent);
  std::int64_t best_steps = best_of_orders(ls, period, orders, balanced, nullptr, best, spent, orders_work > 0 ? orders_work : kNever);
  // One-shot, when asked, also Poseidon's greedy: the farthest first, each at its earliest start
  // over every shortest path; the shorter start is kept (b15x15_cf0.70: 992 steps against the
  // orders' 1040). It may spend what the search spent so far, at least kGreedyWork (a scan of
  // every start per hop costs the more the longer the schedule).
  if (period == 0 && greedy_start) {
    std::vector<Placed> every;
    const std::int64_t orders_spent = spent;
    const std::vector<std::size_t> routes_before = ls.route_counts();  // the paths it adds go if it is not kept
    const bool done = ls.place_every_path(farthest_first(ls.pairs()), every, spent, std::max(kGreedyWork, orders_spent), kNegotiationSeed);
    const std::int64_t steps = done ? ls.length(every) : kNever;
    if (log != nullptr)
      log->push_back("list: the greedy over every shortest path, farthest first: " +
                     (done ? std::to_string(steps) + " steps" : "stopped at its work") + " (" + std::to_string(spent - orders_spent) +
                     " look-ups); the priority orders: " + std::to_string(best_steps) + " (" + std::to_string(orders_spent) +
                     ")" + (steps < best_steps ? "; the greedy's kept" : "; theirs kept"));
    if (steps < best_steps) {
      best_steps = steps;
      best.swap(every);
    } else {
      ls.keep_routes(routes_before);
    }
  }
  // With a share for the orders, `repair_work` is the whole call's: the rest after them.
  if (orders_work > 0) repair_work = std::max<std::int64_t>(0, repair_work - spent);
  const auto order = flit_order(ls.pairs(), 0);
  if (best_steps == kNever && period > 0 && repair_work > 0 &&
      negotiate_periodic(ls, t, m, traffic, period, order, balanced, warm, repair_work, spent, placed, kNegotiationSeed,
                         kNegotiationRestarts, nullptr, nullptr, start_budget)) {
    best_steps = 0;
    best.swap(placed);
  }
  if (work != nullptr) *work += spent;
  if (best_steps == kNever) {
    Schedule none{t.spec(), m, "periodic-list", {}};
    none.period = period;
    none.traffic = traffic_tag(t, &traffic);
    return none;
  }
  // One-shot on a network with failed links: also the base network's schedule with the messages
  // that crossed a failed link placed anew (repair_schedule); the shorter is kept, and shortened
  // below (torus:8x8~fail:0-1 nic: the repair's 74 steps, where the list's own were 77).
  std::vector<Placed> current;
  const bool repairable = period == 0 && has_base_start(t, m, kRepairMaxNodes);
  Schedule base;
  if (repairable) {
    const Topology& b = *t.base();
    TrafficRequest r;
    r.budget_seconds = start_budget;
    base = is_all_traffic(t, &traffic) ? schedule_direct(b, m, ScheduleRequest("auto", start_budget)).schedule
                                       : schedule_traffic(b, m, traffic, r).schedule;
    base.materialize();
    if (const std::int64_t steps = repaired_start(ls, t, m, traffic, base, routes, orders, order, balanced, best_steps, current, spent);
        steps != kNever)
      best_steps = steps;
  }
  if (current.empty()) current = aligned(ls, order, best);
  // One-shot with a one-shot `warm` (an unrolled periodic schedule): its placement, when shorter,
  // is where the shortening below starts.
  if (period == 0 && warm != nullptr && warm->period == 0 && static_cast<std::int64_t>(warm->step_count()) < best_steps) {
    std::vector<Placed> from;
    std::vector<std::int32_t> routes_of(balanced);
    const auto steps = static_cast<std::int64_t>(warm->step_count());
    if (seed_from(ls, t, t, *warm, static_cast<int>(steps) + 1, order, from, routes_of) &&
        std::none_of(from.begin(), from.end(), [](const Placed& x) { return x.route < 0; })) {
      current = std::move(from);
      best_steps = steps;
    }
  }
  if (period == 0 && repair_work > 0 && floor > 0 && best_steps > floor) {
    if (m == Model::Nic && t.is_degraded() && t.nodes() <= kDetourMaxNodes) {
      ls.set_detour_hops(kDetourHops);
      if (log != nullptr)
        log->push_back("list: a network with failed links under nic: the shortening also over paths up to " + std::to_string(kDetourHops) +
                       " hops longer than a shortest one, where cheaper");
    }
    // Where shortest paths alone cannot meet the bound, the horizons that leave them no slack are
    // negotiated over every path each way round each ring (torus:16x16 perm:transpose:8: the
    // pairs 1 to 7 diagonals off cross the 32 links between two diagonals 896 times, so 28 steps
    // at least on shortest paths, against the bound 23).
    if (const double need = shortest_paths_congestion(t, m, traffic); need > static_cast<double>(floor) + 1e-9) {
      const auto at_most = static_cast<std::int64_t>(std::floor(need + 1e-9));
      ls.set_every_direction_below(at_most + 1);
      if (log != nullptr)
        log->push_back("list: shortest paths alone load a link " + std::to_string(static_cast<std::int64_t>(std::ceil(need - 1e-9))) +
                       " times at least (the congestion LP over them); horizons up to " + std::to_string(at_most) +
                       " over every path each way round each ring");
    }
    std::int64_t left = repair_work;
    shorten_one_shot(ls, order, balanced, floor, current, best_steps, left, spent);
    // Still above the bound: the work the first start left goes to the base schedule relabelled
    // by the base network's symmetries, each repaired and shortened alike (the failed links meet
    // other busy and idle steps of the base; torus:8x8~fail:0-1 nic: 74 from the base as it is,
    // 73 reflected in dimension 0). The first start is unchanged, so no result gets longer.
    if (repairable) {
      const std::vector<std::vector<NodeId>> symmetries = factor_symmetries(*t.base(), kRelabelStarts);
      for (std::size_t g = 1; g < symmetries.size() && best_steps > floor && left > 0; ++g) {
        if (!keeps_traffic(traffic, symmetries[g])) continue;
        std::vector<Placed> other;
        std::int64_t steps = repaired_start(ls, t, m, traffic, relabel(*t.base(), base, symmetries[g]), routes, orders, order, balanced,
                                            kNever, other, spent);
        if (steps == kNever) continue;
        shorten_one_shot(ls, order, balanced, floor, other, steps, left, spent);
        if (steps < best_steps) {
          best_steps = steps;
          current = std::move(other);
        }
      }
    }
  }
  return ls.build(std::move(current), period);
}

Schedule route_sat_schedule(const Topology& t, Model m, const Traffic& traffic, int period, std::int64_t horizon, int routes,
                            double work, std::int64_t max_clauses, std::string* note, double* spent_work,
                            std::optional<CongestionLp>* lp_cache) {
  ListScheduler ls(t, m, traffic, routes);
  std::int64_t spent = 0;
  // The size before building, about: per (pair, route, start) 3 clauses per resource it uses (the
  // at-most-one counters) and 4 per flit of the pair (the exactly-F counter); checked on the
  // shortest candidates before the balanced routes are searched, then again. With `orbits`, the
  // leading pairs only.
  const auto estimate = [&](const TranslationOrbits* orbits, const std::vector<std::vector<std::int32_t>>* routes_of = nullptr) {
    std::int64_t e = 0;
    for (std::size_t pi = 0; pi < ls.pairs().size(); ++pi) {
      const Pair& p = ls.pairs()[pi];
      if (orbits != nullptr && !orbits->group.leads(p.src)) continue;
      for (std::size_t ri = 0; ri < p.routes.size(); ++ri) {
        const Route& r = p.routes[ri];
        if (routes_of != nullptr && std::find((*routes_of)[pi].begin(), (*routes_of)[pi].end(), static_cast<std::int32_t>(ri)) == (*routes_of)[pi].end())
          continue;
        const std::int64_t starts = period > 0 ? period : std::max<std::int64_t>(0, horizon - static_cast<std::int64_t>(r.links.size()) + 1);
        e += starts * (static_cast<std::int64_t>(r.uses.size()) * 3 + 4 * p.flits);
      }
    }
    return e;
  };
  const auto too_large = [&](std::int64_t e) {
    return "size limit: about " + std::to_string(e) + " clauses, more than " + std::to_string(max_clauses);
  };
  Schedule none{t.spec(), m, period > 0 ? "periodic-route-sat" : "route-sat", {}};
  none.period = period;
  none.traffic = traffic_tag(t, &traffic);
  // On a torus whose traffic some translations map onto itself (one-shot too: a translation keeps
  // the steps), first schedules they map onto itself, one pair per orbit, over path graphs and then
  // on the candidates and detours (models smaller by the group's order, so tried where the whole
  // one is too large; torus:8x8 perm:shift:3 at period 2, the bound, which neither the list nor
  // the unreduced models reach).
  std::int64_t looked = 0;
  std::optional<TranslationOrbits> orbits;
  orbits = ls.translation_orbits(kOrbitCheckWork, looked);
  std::vector<Placed> phase, placed;
  std::string said;
  double spent_here = static_cast<double>(looked);
  // Periodic, first the paths of the congestion LP's optimal flows alone (add_lp_routes; one pair
  // per orbit of the translations where there are some): where the LP's bound binds the period, a
  // schedule at it loads the links about as the LP does, on few routes a pair, so the model is
  // small. (One-shot it found nothing shorter in the tables and took memory: mesh:8x8
  // random:1:0.3:4, 36 -> 624 MB.)
  // A stage's placement found: its schedule (carried to every pair where it is one pair per
  // orbit), with the work and the stages' notes so far.
  const auto found = [&](const TranslationOrbits* o) {
    if (spent_work != nullptr) *spent_work += spent_here;
    if (note != nullptr) *note = said.substr(0, said.size() - 2);
    Schedule s = ls.build(o != nullptr ? ls.unfold(placed, *o) : placed, period);
    s.algorithm = none.algorithm;
    return s;
  };
  std::optional<CongestionLp> own;
  std::optional<CongestionLp>& lp = lp_cache != nullptr ? *lp_cache : own;
  if (period > 0 && !lp) lp = congestion_lp(t, m, traffic, kLpRouteColumns, orbits.has_value(), true);
  if (period > 0 && lp->solved && lp->translations == (orbits ? static_cast<std::int64_t>(orbits->group.order()) : 1)) {
    const std::vector<std::size_t> counts = ls.route_counts();
    looked = 0;
    const std::vector<std::vector<std::int32_t>> lp_routes = ls.add_lp_routes(*lp, looked);
    spent_here += static_cast<double>(looked);
    std::int64_t clauses = 0, used = 0;
    SatOutcome res = SatOutcome::Unknown;
    if (const std::int64_t e = estimate(orbits ? &*orbits : nullptr, &lp_routes); e > max_clauses) {
      said += "LP routes: " + too_large(e) + "; ";
    } else {
      res = ls.place_sat(period, horizon, work / 3, phase, placed, clauses, used, nullptr, orbits ? &*orbits : nullptr, &lp_routes);
      spent_here += conflict_work(used + 200, clauses);
      said += "LP routes " + std::string(outcome_word(res)) + ", " + std::to_string(clauses) + " clauses, " + std::to_string(used) + " conflicts; ";
    }
    if (res == SatOutcome::Sat) return found(orbits ? &*orbits : nullptr);
    ls.keep_routes(counts);
  }
  // Periodic on a 1-D or 2-D torus whose traffic some translations keep: then every pair's paths
  // with at most two turns, every way round each ring (two_turn_routes), as a 0-1 program for CBC
  // (place_ilp). Where the links are nearly full CBC's feasibility pump, rounding the LP
  // relaxation, finds what SAT does not: torus:16x16 perm:shift:5:2 at period 7, its bound, at
  // the root (CaDiCaL: 37,000 to 810,000 conflicts on the same choices as clauses). After stage 0
  // (the LP's routes), which keeps the cases it solves; before the ring directions' negotiations.
  const std::vector<Factor>& factors = t.factors();
  const bool rings = rings_only(factors);
  if (orbits && period > 0 && !factors.empty() && factors.size() <= 2 && rings) {
    const std::vector<std::size_t> counts = ls.route_counts();  // the paths added go again on failure
    std::vector<std::vector<std::int32_t>> two_turn(ls.pairs().size());
    std::int64_t elements = 0;
    for (std::size_t pi = 0; pi < two_turn.size(); ++pi)
      if (orbits->group.leads(ls.pairs()[pi].src)) {
        two_turn[pi] = ls.two_turn_routes(pi);
        for (const std::int32_t r : two_turn[pi])
          elements += period * (static_cast<std::int64_t>(ls.pairs()[pi].routes[static_cast<std::size_t>(r)].uses.size()) + 1);
      }
    const auto nodes =
        static_cast<std::int64_t>((work - spent_here) / kIlpShare / (static_cast<double>(elements) * kIlpWorkPerElement)) - kIlpRootNodes;
    if (elements > kIlpMaxElements) {
      said += "translation-invariant two-turn paths (ILP): about " + std::to_string(elements) + " nonzeros, more than " +
              std::to_string(kIlpMaxElements) + "; ";
    } else if (nodes < 0) {
      said += "translation-invariant two-turn paths (ILP): not within its share; ";
    } else {
      IlpStats stats;
      const SatOutcome res = ls.place_ilp(period, horizon, nodes, placed, elements, stats, &*orbits, &two_turn);
      spent_here += static_cast<double>(elements) * kIlpWorkPerElement * static_cast<double>(kIlpRootNodes + stats.nodes);
      said += "translation-invariant two-turn paths (ILP) " + std::string(outcome_word(res)) + ", " + std::to_string(elements) + " nonzeros, " +
              std::to_string(stats.nodes) + " nodes" + (stats.capped ? std::string(", ") + kCappedNote : "") + "; ";
      if (res == SatOutcome::Sat) return found(&*orbits);
    }
    ls.keep_routes(counts);
  }
  // Periodic (nic or all-port), where translations keep the traffic: the paths one way round each
  // ring (quadrant_graph), in the directions negotiations chose (negotiate_quadrants, kQuadrantTries
  // seeds; the first conflict-free placement is the schedule), then one SAT model over every
  // direction any of them chose, with two thirds of the work left. A transpose's bound needs some
  // pairs the long way round, which no path a few hops longer than a shortest one is; over every
  // direction the model is too hard (torus:16x16 perm:transpose:2 at period 5: unknown after
  // 124,166 conflicts), over one negotiation's directions a quarter of the work was too little
  // (negotiation 2's: SAT after 32,522 conflicts), over the four's at once SAT after 36,380 at the
  // default budget. torus:12x12 perm:transpose:2 at 4, the bound: negotiation 1 fits (0.2 s).
  if (orbits && rings && factors.size() <= kQuadrantMaxDims && period > 0 && (m == Model::Nic || m == Model::AllPort)) {
    const double stage_end = spent_here + (work - spent_here) * 2 / 3;
    std::vector<std::uint32_t> families;  // per pair, every direction choice a negotiation took
    int negotiations = 0;
    bool tried = false;
    for (int k = 1; k <= kQuadrantTries && spent_here < stage_end; ++k) {
      tried = true;
      std::int64_t negotiated = 0;
      const auto negotiation = ls.negotiate_quadrants(static_cast<int>(period), *orbits, static_cast<std::uint64_t>(k), kQuadrantLookups, negotiated);
      spent_here += static_cast<double>(negotiated);
      if (negotiation.families.empty()) break;  // not one pass within its look-ups: nor with another seed
      if (!negotiation.placement.empty()) {     // free of conflicts already
        placed.clear();
        for (const auto& [pi, start, links] : negotiation.placement)
          placed.push_back({static_cast<std::uint32_t>(pi), ls.route_index(pi, links), start});
        said += "translation-invariant paths one way round each ring: negotiation " + std::to_string(k) + " fits; ";
        return found(&*orbits);
      }
      if (families.empty()) families.assign(negotiation.families.size(), 0U);
      for (std::size_t pi = 0; pi < families.size(); ++pi) families[pi] |= negotiation.families[pi];
      ++negotiations;
    }
    if (negotiations == 0) {
      if (tried) said += "translation-invariant paths one way round each ring: no negotiation within its look-ups; ";
    } else {
      std::int64_t clauses = 0, used = 0;
      bool large = false;
      const SatOutcome res = ls.place_sat_paths(static_cast<int>(period), horizon, 0, stage_end - spent_here, max_clauses, placed, clauses, used,
                                                &*orbits, large, &families);
      const std::string what = "translation-invariant paths one way round each ring, the directions of " + std::to_string(negotiations) +
                               " negotiations";
      if (large) {
        said += what + ": " + too_large(clauses) + "; ";
      } else {
        spent_here += conflict_work(used + 200, clauses);
        said += what + " " + outcome_word(res) + ", " + std::to_string(clauses) + " clauses, " + std::to_string(used) + " conflicts; ";
        if (res == SatOutcome::Sat) return found(&*orbits);
      }
    }
  }
  // Then every path of a pair at once (place_sat_paths), no candidate list to miss the paths
  // whose slots line up: one pair per orbit where translations keep the traffic, the shortest
  // paths, then up to kPathGraphExtra hops longer in steps of 2 while the model is UNSAT
  // (torus:16x16 perm:transpose at period 3 and torus:8x8 perm:transpose:4 at 5, both bounds,
  // have no invariant schedule on shortest paths and one within 2 hops more); without such
  // translations the shortest paths of every pair.
  for (int extra = 0; extra <= (orbits ? kPathGraphExtra : 0); extra += 2) {
    std::int64_t clauses = 0, used = 0;
    bool large = false;
    const std::string what = std::string(orbits ? "translation-invariant " : "") +
                             (extra == 0 ? "shortest paths" : "paths up to " + std::to_string(extra) + " hops longer");
    const SatOutcome res = ls.place_sat_paths(static_cast<int>(period), horizon, extra, (work - spent_here) * 2 / 3, max_clauses, placed, clauses,
                                              used, orbits ? &*orbits : nullptr, large);
    if (large) {
      said += what + ": " + too_large(clauses) + "; ";
      break;
    }
    spent_here += conflict_work(used + 200, clauses);
    said += what + " " + std::string(outcome_word(res)) + ", " + std::to_string(clauses) + " clauses, " + std::to_string(used) + " conflicts; ";
    if (res == SatOutcome::Sat) return found(orbits ? &*orbits : nullptr);
    if (res != SatOutcome::Unsat) break;
  }
  if (const std::int64_t e = estimate(nullptr); e > max_clauses && !orbits) {
    if (spent_work != nullptr) *spent_work += spent_here;
    if (note != nullptr) *note = said + too_large(e);
    return none;
  }
  const std::vector<std::int32_t> balanced = ls.balanced(period, spent);
  ls.place(period, flit_order(ls.pairs(), 0), &balanced, phase, spent);
  if (orbits) {
    const std::vector<std::size_t> counts = ls.route_counts();
    looked = 0;
    ls.add_detours(2, kDetourRoutes, looked, orbits->group.leader);
    spent_here += static_cast<double>(looked);
    const std::string what = "translation-invariant (" + std::to_string(orbits->group.order()) + " translations) ";
    if (const std::int64_t e = estimate(&*orbits); e > max_clauses) {
      said += what + too_large(e) + "; ";
    } else {
      std::int64_t clauses = 0, used = 0;
      const SatOutcome res = ls.place_sat(period, horizon, work / 3, phase, placed, clauses, used, nullptr, &*orbits);
      spent_here += conflict_work(used + 200, clauses);
      said += what + outcome_word(res) + ", " + std::to_string(clauses) + " clauses, " + std::to_string(used) + " conflicts; ";
      if (res == SatOutcome::Sat) return found(&*orbits);
    }
    ls.keep_routes(counts);
  }
  if (const std::int64_t e = estimate(nullptr); e > max_clauses) {
    if (spent_work != nullptr) *spent_work += spent_here;
    if (note != nullptr) *note = said + too_large(e);
    return none;
  }
  // First the balanced routes alone (a small model: every pair on the routes its flits were
  // balanced onto), with a third of the work, unless they are every route; then every candidate
  // route, with half the work left when the detours may follow.
  std::int64_t clauses = 0, used = 0;
  SatOutcome res = SatOutcome::Unknown;
  if (ls.every_route_taken(balanced)) {
    said += "balanced routes: every route; ";
  } else {
    res = ls.place_sat(period, horizon, work / 3, phase, placed, clauses, used, &balanced);
    spent_here += conflict_work(used + 200, clauses);
    said += std::string("balanced routes ") + outcome_word(res) + ", " + std::to_string(clauses) + " clauses, " +
            std::to_string(used) + " conflicts; ";
    if (res == SatOutcome::Sat) return found(nullptr);
  }
  // The detours (up to two hops longer) are added once, here, to size their model; every
  // candidate is the model on each pair's routes from before them.
  std::vector<std::vector<std::int32_t>> candidates;
  for (const std::size_t count : ls.route_counts()) {
    candidates.emplace_back(count);
    std::iota(candidates.back().begin(), candidates.back().end(), 0);
  }
  looked = 0;
  ls.add_detours(2, kDetourRoutes, looked);
  spent_here += static_cast<double>(looked);
  const bool detours_may_follow = estimate(nullptr) <= max_clauses;
  used = 0;
  res = ls.place_sat(period, horizon, (work - spent_here) / (detours_may_follow ? 2 : 1), phase, placed, clauses, used, nullptr, nullptr,
                     &candidates);
  spent_here += conflict_work(used + 200, clauses);
  said += "all routes " + std::string(outcome_word(res)) + ", " + std::to_string(clauses) + " clauses, " + std::to_string(used) +
          " conflicts";
  // Not placed on the candidates (infeasible, or undecided: more routes may make it easy): with the
  // detours, while the model stays within the size limit.
  if (res != SatOutcome::Sat && detours_may_follow) {
    used = 0;
    res = ls.place_sat(period, horizon, work - spent_here, phase, placed, clauses, used);
    spent_here += conflict_work(used + 200, clauses);
    said += "; detours " + std::string(outcome_word(res)) + ", " + std::to_string(clauses) + " clauses, " + std::to_string(used) +
            " conflicts";
  } else if (res != SatOutcome::Sat) {
    said += "; detours: beyond the size limit";
  }
  if (spent_work != nullptr) *spent_work += spent_here;
  if (note != nullptr) *note = said;
  if (res != SatOutcome::Sat) return none;
  Schedule s = ls.build(std::move(placed), period);
  s.algorithm = none.algorithm;
  return s;
}

Schedule repair_schedule(const Topology& t, Model m, const Traffic& traffic, const Schedule& base, int routes, int orders,
                         std::int64_t* work, std::int64_t* displaced_flits, std::int64_t repair_work) {
  const Topology* b = t.base();
  if (b == nullptr || b->nodes() != t.nodes() || !t.failed_nodes().empty())
    throw UsageError("repair: needs a network with failed links only (" + t.spec() + ")");
  // The messages whose walk crosses a failed link, and every message's first and last step.
  const auto key = [&](const Message& msg) {
    return ((static_cast<std::int64_t>(msg.src) * t.nodes() + msg.dst) << 24) + msg.flit;
  };
  std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> span;  // message -> first, last step
  std::map<std::int64_t, bool> displaced;
  base.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
    for (const Transfer& tr : step) {
      const std::int64_t k = key(tr.msg);
      const auto it = span.find(k);
      const auto c = static_cast<std::int64_t>(i);
      if (it == span.end()) span.emplace(k, std::make_pair(c, c));
      else it->second.second = std::max(it->second.second, c);
      if (!t.port_to(tr.from, b->neighbor(tr.from, tr.port))) displaced[k] = true;
    }
  });
  std::map<std::pair<NodeId, NodeId>, std::vector<std::int32_t>> missing;  // pair -> its displaced flit indices
  std::vector<Traffic::Triplet> triplets;
  for (const auto& [k, yes] : displaced) {
    const std::int32_t flit = static_cast<std::int32_t>(k & ((std::int64_t{1} << 24) - 1));
    const std::int64_t pair = k >> 24;
    const auto src = static_cast<NodeId>(pair / t.nodes()), dst = static_cast<NodeId>(pair % t.nodes());
    missing[{src, dst}].push_back(flit);
    triplets.push_back({src, dst, 1, 0});
  }
  if (displaced_flits != nullptr) *displaced_flits = static_cast<std::int64_t>(displaced.size());
  Schedule out{t.spec(), m, "repair", {}};
  out.traffic = traffic_tag(t, &traffic);
  std::int64_t kept_steps = 0;
  const auto keep = [&](const std::function<void(std::size_t, const Transfer&, bool, bool)>& f) {
    base.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
      for (const Transfer& tr : step) {
        const std::int64_t k = key(tr.msg);
        if (displaced.count(k) != 0) continue;
        const std::pair<std::int64_t, std::int64_t>& sp = span.at(k);
        const auto c = static_cast<std::int64_t>(i);
        Transfer moved = tr;
        moved.port = *t.port_to(tr.from, b->neighbor(tr.from, tr.port));
        f(i, moved, c == sp.first, c == sp.second);
      }
    });
  };
  keep([&](std::size_t i, const Transfer& tr, bool, bool) {
    if (out.steps.size() <= i) out.steps.resize(i + 1);
    out.steps[i].push_back(tr);
    kept_steps = std::max<std::int64_t>(kept_steps, static_cast<std::int64_t>(i) + 1);
  });
  if (triplets.empty()) return out;
  const Traffic rest = Traffic::from_triplets(t.nodes(), triplets, Traffic::Duplicates::Add, "repair", "repair");
  ListScheduler ls(t, m, rest, routes);
  Calendar cal = ls.calendar(0);
  keep([&](std::size_t i, const Transfer& tr, bool first, bool last) { ls.take(cal, tr, static_cast<std::int64_t>(i), first, last); });
  std::int64_t spent = 0;
  const std::vector<std::int32_t> balanced = ls.balanced(0, spent);
  std::vector<Placed> best;
  (void)best_of_orders(ls, 0, orders, balanced, &cal, best, spent);
  if (work != nullptr) *work += spent;
  const Schedule added = ls.build(std::move(best), 0);
  added.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
    if (out.steps.size() <= i) out.steps.resize(i + 1);
    for (Transfer tr : step) {
      tr.msg.flit = missing.at({tr.msg.src, tr.msg.dst})[static_cast<std::size_t>(tr.msg.flit)];
      out.steps[i].push_back(tr);
    }
  });
  if (repair_work <= 0 || (m != Model::Nic && m != Model::AllPort)) return out;

  // Shorter: the min-conflicts repair on every flit (the kept ones start where the base put
  // them, on their base routes), no flit past a horizon H, H bisected between the base's length
  // and the placement above.
  ListScheduler full(t, m, traffic, routes);
  const std::vector<std::int32_t> preferred_balanced = full.balanced(0, spent);
  const std::map<std::pair<NodeId, NodeId>, std::uint32_t> pair_of = full.pair_index();
  std::vector<std::size_t> first(full.pairs().size() + 1, 0);
  for (std::size_t pi = 0; pi < full.pairs().size(); ++pi) first[pi + 1] = first[pi] + static_cast<std::size_t>(full.pairs()[pi].flits);
  std::map<std::int64_t, std::vector<std::pair<std::int64_t, LinkId>>> walk;  // kept message -> (step, link)
  keep([&](std::size_t i, const Transfer& tr, bool, bool) {
    walk[key(tr.msg)].emplace_back(static_cast<std::int64_t>(i), t.link_id(tr.from, tr.port));
  });
  std::vector<Placed> initial(first.back(), Placed{0, -1, -1});  // per flit (first[pair] + k)
  std::vector<std::int32_t> preferred = preferred_balanced;
  std::int64_t kept_end = 0;
  for (auto& [k, hops_of] : walk) {
    std::sort(hops_of.begin(), hops_of.end());
    const std::int32_t flit = static_cast<std::int32_t>(k & ((std::int64_t{1} << 24) - 1));
    const std::int64_t pair = k >> 24;
    const std::uint32_t pi = pair_of.at({static_cast<NodeId>(pair / t.nodes()), static_cast<NodeId>(pair % t.nodes())});
    std::vector<LinkId> links;
    for (const auto& h : hops_of) links.push_back(h.second);
    const std::int32_t r = full.route_index(pi, links);
    initial[first[pi] + static_cast<std::size_t>(flit)] = {pi, r, hops_of.front().first};
    preferred[first[pi] + static_cast<std::size_t>(flit)] = r;
    kept_end = std::max(kept_end, hops_of.back().first + 1);
  }
  const auto order = flit_order(full.pairs(), 0);
  std::vector<Placed> start_from(order.size());
  // Each horizon starts from the last placement that fitted (at first the kept flits alone).
  std::vector<Placed> current(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) current[i] = initial[first[order[i].first] + static_cast<std::size_t>(order[i].second)];
  std::int64_t lo = std::max<std::int64_t>(kept_end, 1) - 1, hi = static_cast<std::int64_t>(out.step_count());
  Schedule shorter;
  std::int64_t left = repair_work;
  while (hi - lo > 1 && left > 0) {
    const std::int64_t H = lo + (hi - lo) / 2;
    for (std::size_t i = 0; i < order.size(); ++i) {
      Placed x = current[i];
      if (x.route >= 0 && x.start + static_cast<std::int64_t>(full.pairs()[x.pair].routes[static_cast<std::size_t>(x.route)].links.size()) > H)
        x.route = -1;  // ends past the horizon: placed again
      start_from[i] = x;
    }
    std::int64_t used = 0;
    std::vector<Placed> placed_h;
    const bool ok = full.place_with_repair(static_cast<int>(H), order, preferred, placed_h, used, left / 3, start_from);
    left -= used;
    spent += used;
    if (ok) {
      hi = H;
      current = placed_h;
      shorter = full.build(std::move(placed_h), 0);
    } else {
      lo = H;
    }
  }
  if (work != nullptr) *work += spent;
  if (!shorter.steps.empty()) {
    shorter.algorithm = "repair";
    return shorter;
  }
  return out;
}

}  // namespace totex
