// SPDX-License-Identifier: Apache-2.0
// The SAT stage of the route packings (route_sat.hpp) and the orbits it packs on
// (mesh_symmetry.hpp): every answer it gives is a packing, it never gives one that cannot exist.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <numeric>
#include <set>
#include <tuple>

#include "generators/mesh_symmetry.hpp"
#include "generators/ilp.hpp"
#include "generators/route_sat.hpp"
#include "totex/network/spec.hpp"

using namespace totex;

namespace {
std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

/// Every message of a topology as an item of the packing on directed links and NICs, placed
/// greedily longest first.
struct MessagePacking {
  explicit MessagePacking(const Topology& t, Model m) : moves(t), packing(moves, m, resources(t, moves), static_cast<int>(t.links()), static_cast<int>(t.nodes())) {
    for (NodeId s = 0; s < t.nodes(); ++s)
      for (NodeId d = 0; d < t.nodes(); ++d) {
        if (s == d) continue;
        RouteItem it;
        it.src = s;
        it.dst = d;
        it.needs = minimal_needs(t, t.coordinates(s), t.coordinates(d));
        for (const DimNeed& n : it.needs) it.hops += n.count;
        it.inject = static_cast<int>(s);
        it.eject = static_cast<int>(d);
        items.push_back(std::move(it));
      }
    std::stable_sort(items.begin(), items.end(), [](const RouteItem& a, const RouteItem& b) { return a.hops > b.hops; });
    std::int64_t work = 0;
    for (RouteItem& it : items) packing.place_earliest(it, work);
  }
  static std::vector<int> resources(const Topology& t, const MoveTable& moves) {
    std::vector<int> r(at(t.nodes()) * at(moves.classes()));
    for (NodeId v = 0; v < t.nodes(); ++v)
      for (int cls = 0; cls < moves.classes(); ++cls) r[at(v) * at(moves.classes()) + at(cls)] = static_cast<int>(std::max<LinkId>(0, moves.link(v, cls)));
    return r;
  }
  MoveTable moves;
  RoutePacking packing;
  std::vector<RouteItem> items;
};

/// Each item on a minimal route to its destination; no link, injection or ejection used twice in a step.
void require_packing(const MessagePacking& p, Model m) {
  std::set<std::pair<std::int64_t, LinkId>> links;
  std::set<std::pair<std::int64_t, NodeId>> injects, ejects;
  for (const RouteItem& it : p.items) {
    REQUIRE(static_cast<int>(it.word.moves.size()) == it.hops);
    REQUIRE(it.start >= 0);
    NodeId v = it.src;
    for (std::size_t j = 0; j < it.word.moves.size(); ++j) {
      const int cls = p.moves.move_class(it.word.moves[j].first, it.word.moves[j].second);
      REQUIRE(links.insert({it.start + static_cast<std::int64_t>(j), p.moves.link(v, cls)}).second);
      v = p.moves.next(v, cls);
    }
    REQUIRE(v == it.dst);
    if (m == Model::Nic) {
      REQUIRE(injects.insert({it.start, it.src}).second);
      REQUIRE(ejects.insert({it.start + it.hops - 1, it.dst}).second);
    }
  }
}

const auto kNoStop = std::chrono::steady_clock::now() + std::chrono::hours(1);
}  // namespace

TEST_CASE("candidate_words: the item's own route, then each dimension order", "[route_sat]") {
  const Topology t = parse_topology("path:4*path:4");
  RouteItem it;
  it.needs = minimal_needs(t, {0, 0}, {2, 1});
  it.word.moves = {{0, 1}, {1, 1}, {0, 1}};
  const std::vector<Word> w = candidate_words(it);
  REQUIRE(w.size() == 3);
  REQUIRE(w[0].moves == it.word.moves);
  REQUIRE(w[1].moves == std::vector<std::pair<int, int>>{{0, 1}, {0, 1}, {1, 1}});
  REQUIRE(w[2].moves == std::vector<std::pair<int, int>>{{1, 1}, {0, 1}, {0, 1}});
  it.word.moves = w[2].moves;  // a dimension order already: not repeated
  REQUIRE(candidate_words(it).size() == 2);
}

TEST_CASE("sat_repack: packings only, the incumbent's length always, nothing shorter than a route", "[route_sat]") {
  for (Model m : {Model::Nic, Model::AllPort}) {
    MessagePacking p(parse_topology("path:3*path:4"), m);
    const std::int64_t steps = packed_makespan(p.items);
    std::int64_t work = 1'000'000'000'000;
    std::vector<RouteItem> same = p.items;
    REQUIRE(sat_repack(p.packing, same, steps, 0, 100000, work, kNoStop) == SatOutcome::Sat);
    std::swap(p.items, same);
    require_packing(p, m);
    REQUIRE(packed_makespan(p.items) <= steps);
    std::vector<RouteItem> too_short = p.items;  // the longest route has 5 hops
    REQUIRE(sat_repack(p.packing, too_short, 4, 0, 100000, work, kNoStop) == SatOutcome::Unsat);
    // The tail stage keeps what it cannot shorten and returns packings.
    work = 200'000'000;
    const std::vector<std::string> log = tail_sat_improve(p.packing, p.items, 1, 100000, work, kNoStop);
    REQUIRE(!log.empty());
    require_packing(p, m);
    REQUIRE(packed_makespan(p.items) <= steps);
  }
}

TEST_CASE("sat_repack: the items before free_from stay where they are", "[route_sat]") {
  MessagePacking p(parse_topology("path:4*path:4"), Model::Nic);
  const std::int64_t steps = packed_makespan(p.items);
  std::int64_t work = 1'000'000'000'000;
  std::vector<RouteItem> repacked = p.items;
  REQUIRE(sat_repack(p.packing, repacked, steps, steps / 2, 100000, work, kNoStop) == SatOutcome::Sat);
  for (std::size_t i = 0; i < repacked.size(); ++i)
    if (p.items[i].start < steps / 2) {
      REQUIRE(repacked[i].start == p.items[i].start);
      REQUIRE(repacked[i].word.moves == p.items[i].word.moves);
    } else {
      REQUIRE(repacked[i].start >= steps / 2);
    }
  std::swap(p.items, repacked);
  require_packing(p, Model::Nic);
}

TEST_CASE("SymmetryOrbits: a quarter of the nodes and links of an even square mesh", "[route_sat]") {
  const Topology t = parse_topology("path:8*path:8");
  const NodeSymmetry g = mesh_rotations(t);
  const SymmetryOrbits o(t, g);
  REQUIRE(o.nodes == 16);
  REQUIRE(o.links == 56);
  for (std::size_t e = 0; e < g.size(); ++e)
    for (LinkId l = 0; l < t.links(); ++l) {
      REQUIRE(t.link_source(o.image[e][at(l)]) == g[e][at(t.link_source(l))]);
      REQUIRE(t.link_target(o.image[e][at(l)]) == g[e][at(t.link_target(l))]);
      REQUIRE(o.link[at(o.image[e][at(l)])] == o.link[at(l)]);
    }
  const SymmetryOrbits none(t, no_symmetry(t));
  REQUIRE(none.nodes == 64);
  REQUIRE(none.links == t.links());
}

TEST_CASE("Cnf::exactly: a model exactly when k of the variables are true", "[route-sat]") {
  // Every assignment of n variables, fixed by unit clauses on a fresh solver: SAT exactly when its
  // count is k (the counter's auxiliaries are free, so this checks both directions).
  for (int n = 1; n <= 6; ++n)
    for (int k = 1; k <= n + 1; ++k)
      for (unsigned mask = 0; mask < (1U << static_cast<unsigned>(n)); ++mask) {
        CaDiCaL::Solver solver;
        Cnf cnf(solver);
        std::vector<int> x;
        for (int i = 0; i < n; ++i) x.push_back(cnf.var());
        cnf.exactly(x, k);
        for (int i = 0; i < n; ++i) cnf.clause({((mask >> static_cast<unsigned>(i)) & 1U) != 0 ? x[at(i)] : -x[at(i)]});
        INFO("n " << n << ", k " << k << ", mask " << mask);
        CHECK((solver.solve() == 10) == (__builtin_popcount(mask) == k));
      }
}

TEST_CASE("solve_binary: a 0-1 program's solution satisfies every row, and none is proven where none exists", "[route-sat]") {
  // Three items, each on exactly one of two slots' choices (columns 2i, 2i+1: item i in slot 0
  // or 1); each slot holds at most `capacity` items.
  const auto program = [](double capacity) {
    BinaryProgram p;
    p.columns = 6;
    for (int i = 0; i < 3; ++i) p.rows.push_back({{2 * i, 2 * i + 1}, {1.0, 1.0}, 1.0, 1.0});
    for (int s = 0; s < 2; ++s) p.rows.push_back({{s, 2 + s, 4 + s}, {1.0, 1.0, 1.0}, 0.0, capacity});
    return p;
  };
  std::vector<char> value;
  IlpStats stats;
  const BinaryProgram fits = program(2.0);
  CHECK(fits.elements() == 12);
  REQUIRE(solve_binary(fits, IlpLimit{100, 600}, value, stats) == SatOutcome::Sat);
  REQUIRE(value.size() == 6);
  for (const BinaryProgram::Row& r : fits.rows) {
    double sum = 0;
    for (std::size_t k = 0; k < r.columns.size(); ++k) sum += r.coefficients[k] * value[static_cast<std::size_t>(r.columns[k])];
    CHECK(sum >= r.lower);
    CHECK(sum <= r.upper);
  }
  CHECK_FALSE(stats.capped);
  // Three items, two slots of one: the pigeonhole, infeasible (its LP relaxation already).
  CHECK(solve_binary(program(1.0), IlpLimit{100, 600}, value, stats) == SatOutcome::Unsat);
  // A coefficient of 2 (a choice holding one slot twice) can never be 1 under a bound of 1.
  BinaryProgram twice;
  twice.columns = 2;
  twice.rows.push_back({{0, 1}, {1.0, 1.0}, 1.0, 1.0});
  twice.rows.push_back({{0}, {2.0}, 0.0, 1.0});
  REQUIRE(solve_binary(twice, IlpLimit{100, 600}, value, stats) == SatOutcome::Sat);
  CHECK(value[0] == 0);
  CHECK(value[1] == 1);
}
