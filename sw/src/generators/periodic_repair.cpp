// SPDX-License-Identifier: Apache-2.0
#include "periodic_repair.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>

#include "cnf.hpp"
#include "product_routes.hpp"

namespace totex {
namespace {

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

/// What the patterns use modulo the period: link class per slot, starts and ends per slot.
struct Occupancy {
  Occupancy(std::int64_t period, int classes)
      : P(period), C(classes), link(at(period * classes), 0), starts(at(period), 0), ends(at(period), 0) {}
  std::int64_t P;
  int C;
  std::vector<int> link, starts, ends;
  [[nodiscard]] std::size_t slot(std::int64_t s) const { return at(((s % P) + P) % P); }
  [[nodiscard]] int& link_at(std::int64_t s, int cls) { return link[slot(s) * at(C) + at(cls)]; }
  void add(const MoveTable& moves, const PlacedPattern& p) {
    const auto h = static_cast<std::int64_t>(p.word.moves.size());
    ++starts[slot(p.start)];
    ++ends[slot(p.start + h - 1)];
    for (std::int64_t j = 0; j < h; ++j) {
      const auto& [dim, delta] = p.word.moves[at(j)];
      ++link_at(p.start + j, moves.move_class(dim, delta));
    }
  }
  /// A slot where a link class (of `classes`) is idle or used twice, or two patterns start or end.
  [[nodiscard]] bool defect(std::int64_t s, const std::vector<int>& classes) const {
    for (const int c : classes)
      if (link[at(s) * at(C) + at(c)] != 1) return true;
    return starts[at(s)] > 1 || ends[at(s)] > 1;
  }
};

/// One candidate placement of an offset: a start, a sign choice per dimension, and the routes
/// through the free link slots as a layered graph (state (j, i): j hops made, i of them in the
/// first dimension). The start variable is state (0, 0).
struct Candidate {
  NodeId dst = 0;
  std::int64_t start = 0;
  std::array<std::pair<int, int>, 2> move{};  // (dim, delta) of the two dimensions' moves
  struct Edge {
    int j, i, dim_index, var;
  };
  int start_var = 0;
  std::vector<Edge> edges;
};

/// The candidates of `dst` in the free resources of `occ` (free: count 0), their variables and
/// the clauses tying a route's edges to its states; `link_users` gets each edge under its link
/// slot, `start_users` and `end_users` each start variable under its start and end slot.
std::vector<Candidate> candidates_of(const Topology& t, const MoveTable& moves, Occupancy& occ, NodeId dst, Cnf& cnf,
                                     std::vector<std::vector<int>>& link_users, std::vector<std::vector<int>>& start_users,
                                     std::vector<std::vector<int>>& end_users) {
  const std::vector<DimNeed> needs = minimal_needs(t, t.coordinates(0), t.coordinates(dst));
  if (needs.empty() || needs.size() > 2) throw std::logic_error("repair_periodic: needs a 2-D offset");
  const DimNeed none{};
  const DimNeed& n0 = needs[0];
  const DimNeed& n1 = needs.size() > 1 ? needs[1] : none;
  const int c0 = n0.count, c1 = n1.count, h = c0 + c1;
  std::vector<Candidate> out;
  for (int v0 = 0; v0 < n0.choices; ++v0)
    for (int v1 = 0; v1 < std::max(1, n1.choices); ++v1) {
      const std::array<std::pair<int, int>, 2> move{std::pair{n0.dim, n0.delta[at(v0)]},
                                                    std::pair{n1.dim, n1.delta[at(v1)]}};
      const std::array<int, 2> cls{moves.move_class(move[0].first, move[0].second),
                                   c1 > 0 ? moves.move_class(move[1].first, move[1].second) : 0};
      for (std::int64_t s = 0; s < occ.P; ++s) {
        if (occ.starts[occ.slot(s)] || occ.ends[occ.slot(s + h - 1)]) continue;
        // free(j, d): hop j may move in dimension d; alive states: reachable from (0, 0) and to (h, c0).
        const auto free = [&](int j, int d) { return occ.link_at(s + j, cls[at(d)]) == 0; };
        const auto width = at(c0 + 1);
        std::vector<char> fwd(at(h + 1) * width, 0), bwd(at(h + 1) * width, 0);
        const auto id = [&](int j, int i) { return at(j) * width + at(i); };
        const auto valid = [&](int j, int i) { return i >= 0 && i <= c0 && j - i >= 0 && j - i <= c1; };
        fwd[id(0, 0)] = 1;
        for (int j = 0; j < h; ++j)
          for (int i = 0; i <= c0; ++i) {
            if (!valid(j, i) || !fwd[id(j, i)]) continue;
            if (valid(j + 1, i + 1) && free(j, 0)) fwd[id(j + 1, i + 1)] = 1;
            if (valid(j + 1, i) && free(j, 1)) fwd[id(j + 1, i)] = 1;
          }
        bwd[id(h, c0)] = 1;
        for (int j = h - 1; j >= 0; --j)
          for (int i = 0; i <= c0; ++i) {
            if (!valid(j, i)) continue;
            bwd[id(j, i)] = static_cast<char>((valid(j + 1, i + 1) && free(j, 0) && bwd[id(j + 1, i + 1)]) ||
                                              (valid(j + 1, i) && free(j, 1) && bwd[id(j + 1, i)]));
          }
        if (!fwd[id(0, 0)] || !bwd[id(0, 0)] || !fwd[id(h, c0)]) continue;
        Candidate cand{dst, s, move, cnf.var(), {}};
        std::vector<int> state(at(h + 1) * width, 0);
        for (int j = 0; j <= h; ++j)
          for (int i = 0; i <= c0; ++i)
            if (valid(j, i) && fwd[id(j, i)] && bwd[id(j, i)]) state[id(j, i)] = j == 0 ? cand.start_var : cnf.var();
        std::vector<std::vector<int>> out_edges(state.size()), in_edges(state.size());
        for (int j = 0; j < h; ++j)
          for (int i = 0; i <= c0; ++i) {
            if (!valid(j, i) || !state[id(j, i)]) continue;
            for (int d = 0; d < 2; ++d) {
              const int i2 = i + (d == 0 ? 1 : 0);
              if (!valid(j + 1, i2) || !state[id(j + 1, i2)] || !free(j, d)) continue;
              const int e = cnf.var();
              cnf.clause({-e, state[id(j, i)]});
              cnf.clause({-e, state[id(j + 1, i2)]});
              out_edges[id(j, i)].push_back(e);
              in_edges[id(j + 1, i2)].push_back(e);
              link_users[occ.slot(s + j) * at(occ.C) + at(cls[at(d)])].push_back(e);
              cand.edges.push_back({j, i, d, e});
            }
          }
        for (std::size_t x = 0; x < state.size(); ++x) {
          if (!state[x]) continue;
          if (x / width < at(h)) {  // a state left by some edge
            std::vector<int> c = out_edges[x];
            c.insert(c.begin(), -state[x]);
            cnf.clause(c);
          }
          if (x / width > 0) {  // entered by some edge
            std::vector<int> c = in_edges[x];
            c.insert(c.begin(), -state[x]);
            cnf.clause(c);
          }
        }
        start_users[occ.slot(s)].push_back(cand.start_var);
        end_users[occ.slot(s + h - 1)].push_back(cand.start_var);
        out.push_back(std::move(cand));
      }
    }
  return out;
}

/// The route a satisfying assignment gives a candidate: from (0, 0), any true edge out.
PlacedPattern route_of(const Candidate& c, CaDiCaL::Solver& solver) {
  PlacedPattern p{c.dst, c.start, {}, -1};
  int i = 0;
  for (int j = 0;; ++j) {
    const auto e = std::find_if(c.edges.begin(), c.edges.end(), [&](const Candidate::Edge& x) {
      return x.j == j && x.i == i && solver.val(x.var) > 0;
    });
    if (e == c.edges.end()) break;
    p.word.moves.push_back(c.move[at(e->dim_index)]);
    i += e->dim_index == 0 ? 1 : 0;
  }
  return p;
}

/// Sets the decision phases of `c`'s start and edges to route `p`, if `c` can hold it.
bool hint(const Candidate& c, const PlacedPattern& p, const Occupancy& occ, CaDiCaL::Solver& solver) {
  if (occ.slot(c.start) != occ.slot(p.start)) return false;
  std::vector<int> path;
  int i = 0;
  for (std::size_t j = 0; j < p.word.moves.size(); ++j) {
    const int d = p.word.moves[j] == c.move[0] ? 0 : p.word.moves[j] == c.move[1] ? 1 : -1;
    const auto e = std::find_if(c.edges.begin(), c.edges.end(), [&](const Candidate::Edge& x) {
      return x.j == static_cast<int>(j) && x.i == i && x.dim_index == d;
    });
    if (e == c.edges.end()) return false;
    path.push_back(e->var);
    i += d == 0 ? 1 : 0;
  }
  solver.phase(c.start_var);
  for (const int v : path) solver.phase(v);
  return true;
}

}  // namespace

std::optional<std::vector<PlacedPattern>> repair_periodic(const Topology& t, const std::vector<PlacedPattern>& core,
                                                          const std::vector<NodeId>& rest, std::int64_t period,
                                                          double work,
                                                          std::chrono::steady_clock::time_point end,
                                                          std::vector<std::string>& log) {
  const MoveTable moves(t);
  Occupancy all(period, moves.classes());
  for (const PlacedPattern& p : core) all.add(moves, p);
  std::vector<int> classes;  // each ring's two directions (MoveTable's classes also hold complete graphs' moves)
  for (int dim = 0; dim < 2; ++dim)
    for (const int delta : {1, t.factors()[at(dim)].size - 1}) classes.push_back(moves.move_class(dim, delta));
  std::vector<std::int64_t> defects;
  for (std::int64_t s = 0; s < period; ++s)
    if (all.defect(s, classes)) defects.push_back(s);
  if (defects.empty() && rest.empty()) return core;
  // Radius 0 re-places only the patterns through a defect slot; a wider window gives the solver
  // more room but a larger model (torus:16x16: 73 k conflicts at radius 0, 4 k at 2, 52 k at 4;
  // torus:14x14: 44 k at 0, 80 k at 2, 179 k at 4).
  for (const std::int64_t radius : {0, 2}) {
    if (std::chrono::steady_clock::now() >= end) {  // the safety cap fired in the call before
      log.push_back("repair at period " + std::to_string(period) + ", radius " + std::to_string(radius) + ": not run, " +
                    kCappedNote);
      break;
    }
    // The window: slots within `radius` of a defect; every pattern with a hop in it is re-placed.
    std::vector<char> window(at(period), 0);
    for (const std::int64_t d : defects)
      for (std::int64_t x = d - radius; x <= d + radius; ++x) window[all.slot(x)] = 1;
    Occupancy kept(period, moves.classes());
    std::vector<PlacedPattern> keep;
    std::vector<NodeId> items = rest;
    std::vector<const PlacedPattern*> was(rest.size(), nullptr);  // each item's place in `core`, if any
    for (const PlacedPattern& p : core) {
      bool inside = false;
      for (std::int64_t j = 0; j < static_cast<std::int64_t>(p.word.moves.size()) && !inside; ++j)
        inside = window[kept.slot(p.start + j)] != 0;
      if (inside) {
        items.push_back(p.dst);
        was.push_back(&p);
      } else {
        keep.push_back(p);
        kept.add(moves, p);
      }
    }
    // Stage lines (docs/periodic.md): building the model and solving it take seconds to minutes
    // on large sides (torus:64x64).
    std::fprintf(stderr, "schedule --periodic %s: rotation repair at period %lld, radius %lld: building the SAT model of %zu offsets\n",
                 t.spec().c_str(), static_cast<long long>(period), static_cast<long long>(radius), items.size());
    CaDiCaL::Solver solver;
    solver.set("phase", 0);  // unhinted variables start false
    Cnf cnf(solver);
    std::vector<std::vector<int>> link_users(kept.link.size()), start_users(at(period)), end_users(at(period));
    std::vector<std::vector<Candidate>> cands;
    bool each_has_one = true;
    for (const NodeId d : items) {
      cands.push_back(candidates_of(t, moves, kept, d, cnf, link_users, start_users, end_users));
      each_has_one = each_has_one && !cands.back().empty();
    }
    std::string line = "repair at period " + std::to_string(period) + ", radius " + std::to_string(radius) + ": " +
                       std::to_string(items.size()) + " offsets";
    if (!each_has_one) {
      log.push_back(line + ", one has no free route");
      continue;
    }
    // The solver starts from the core: each re-placed pattern where it was (the rest unplaced).
    for (std::size_t x = 0; x < items.size(); ++x)
      if (was[x])
        for (const Candidate& c : cands[x])
          if (hint(c, *was[x], kept, solver)) break;
    for (const auto& cs : cands) {
      std::vector<int> starts;
      for (const Candidate& c : cs) starts.push_back(c.start_var);
      cnf.exactly_one(starts);
    }
    for (auto* users : {&link_users, &start_users, &end_users})
      for (const std::vector<int>& u : *users) cnf.at_most(u, 1);
    // At the link bound the items' hops are exactly the free link slots: each is used (a clause
    // the solver would otherwise have to learn).
    std::int64_t hops = 0, free_links = 0;
    for (const NodeId d : items)
      for (const DimNeed& nd : minimal_needs(t, t.coordinates(0), t.coordinates(d))) hops += nd.count;
    for (std::int64_t s = 0; s < period; ++s)
      for (const int c : classes) free_links += kept.link_at(s, c) == 0 ? 1 : 0;
    if (hops == free_links)
      for (std::int64_t s = 0; s < period; ++s)
        for (const int c : classes)
          if (kept.link_at(s, c) == 0) cnf.clause(link_users[kept.slot(s) * at(kept.C) + at(c)]);
    const auto max_conflicts = static_cast<std::int64_t>(work / static_cast<double>(cnf.clauses()));
    if (max_conflicts < 1000) {
      log.push_back(line + ", no work left for " + std::to_string(cnf.clauses()) + " clauses");
      break;
    }
    std::fprintf(stderr, "schedule --periodic %s: rotation repair at period %lld, radius %lld: SAT on %d variables, %lld clauses, stopped after %lld conflicts\n",
                 t.spec().c_str(), static_cast<long long>(period), static_cast<long long>(radius), cnf.vars(),
                 static_cast<long long>(cnf.clauses()), static_cast<long long>(max_conflicts));
    std::int64_t used = 0;
    bool capped = false;
    const SatOutcome outcome = solve_limited(solver, max_conflicts, end, used, &capped);
    work -= static_cast<double>(used) * static_cast<double>(cnf.clauses());
    line += ", " + std::to_string(cnf.vars()) + " variables, " + std::to_string(cnf.clauses()) + " clauses: " +
            (outcome == SatOutcome::Sat ? "sat" : outcome == SatOutcome::Unsat ? "unsat" : "unknown") + " after " +
            std::to_string(used) + " conflicts" + (capped ? std::string(", ") + kCappedNote : std::string());
    log.push_back(line);
    if (outcome != SatOutcome::Sat) continue;
    for (const auto& cs : cands)
      for (const Candidate& c : cs)
        if (solver.val(c.start_var) > 0) {
          keep.push_back(route_of(c, solver));
          break;
        }
    return keep;
  }
  return std::nullopt;
}

}  // namespace totex
