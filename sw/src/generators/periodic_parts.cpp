// SPDX-License-Identifier: Apache-2.0
// Periodic (TDM) schedules: routes packed modulo the period (docs/periodic.md).
#include "periodic.hpp"
#include "periodic_flow.hpp"
#include "pattern_schedule.hpp"
#include "hypercube_doubling.hpp"
#include "hypercube_pipeline.hpp"
#include "mesh_fit.hpp"
#include "octant_pipelines.hpp"
#include "ring_product.hpp"
#include "torus_rotation.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <numeric>
#include <queue>
#include <stdexcept>

#include "totex/error.hpp"
#include "totex/progress.hpp"
#include "totex/generators/periodic.hpp"

namespace totex {
namespace periodic {
namespace {

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

/// The dimension orders tried: every permutation of up to 3 dimensions, else the rotations.
std::vector<std::vector<int>> dimension_orders(const std::vector<int>& dims) {
  std::vector<std::vector<int>> out;
  if (dims.size() <= 3) {
    std::vector<int> p = dims;
    std::sort(p.begin(), p.end());
    do out.push_back(p);
    while (std::next_permutation(p.begin(), p.end()));
  } else {
    for (std::size_t r = 0; r < dims.size(); ++r) {
      std::vector<int> p;
      for (std::size_t i = 0; i < dims.size(); ++i) p.push_back(dims[(i + r) % dims.size()]);
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace

int max_len(const Item& it) {
  int m = 0;
  for (const Candidate& c : it.cands) {
    for (const Use& u : c.uses) m = std::max(m, u.offset + 1);
  }
  return m;
}

std::optional<std::vector<Placement>> greedy_pack(const Problem& p, int period, std::vector<int> order) {
  const auto P = at(period);
  if (order.empty()) {
    order.resize(p.items.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return max_len(p.items[at(a)]) > max_len(p.items[at(b)]); });
  }
  std::vector<std::uint8_t> busy(at(p.resources) * P, 0);
  std::vector<Placement> out(p.items.size());
  for (int i : order) {
    const Item& it = p.items[at(i)];
    bool placed = false;
    for (std::size_t s = 0; s < P && !placed; ++s) {
      for (std::size_t c = 0; c < it.cands.size() && !placed; ++c) {
        const auto& uses = it.cands[c].uses;
        bool ok = true;
        for (const Use& u : uses)
          if (busy[at(u.res) * P + (s + at(u.offset)) % P]) {
            ok = false;
            break;
          }
        // A candidate that holds one resource twice in a slot (longer than the period) never fits.
        if (ok) {
          for (const Use& u : uses) {
            std::uint8_t& b = busy[at(u.res) * P + (s + at(u.offset)) % P];
            if (b) ok = false;
            b = 1;
          }
          if (!ok) {
            for (const Use& u : uses) busy[at(u.res) * P + (s + at(u.offset)) % P] = 0;  // were all free
            continue;  // holds one resource twice in a slot (a route longer than the period)
          }
          out[at(i)] = {static_cast<int>(c), static_cast<int>(s)};
          placed = true;
        }
      }
    }
    if (!placed) return std::nullopt;
  }
  return out;
}

std::optional<std::vector<Placement>> local_search_pack(const Problem& p, int period, const std::vector<Placement>& start,
                                                       std::int64_t work, std::uint64_t seed) {
  const auto P = at(period);
  std::vector<std::int32_t> occ(at(p.resources) * P, 0);
  // Breakout (Morris, AAAI 1993): a move's cost weighs each (resource, slot) it would share, and
  // at a local minimum (no position cheaper than staying) the weights of the (resource, slot)s
  // left held twice grow by one, so the search climbs out of the plateaus where plain
  // min-conflicts circles (mesh:7x7: 88 with min-conflicts, noise and restarts; its bound 84 with
  // weights; docs/periodic.md).
  std::vector<std::int64_t> weight(occ.size(), 1);
  std::vector<Placement> cur = start;
  std::uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 1;
  auto next = [&] {  // xorshift64*
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717ULL;
  };
  auto cell = [&](std::size_t i, const Use& u) { return at(u.res) * P + (at(cur[i].slot) + at(u.offset)) % P; };
  auto apply = [&](std::size_t i, int delta) {
    for (const Use& u : p.items[i].cands[at(cur[i].cand)].uses) occ[cell(i, u)] += delta;
  };
  for (std::size_t i = 0; i < p.items.size(); ++i) {
    cur[i].slot = static_cast<int>(at(cur[i].slot) % P);
    apply(i, +1);
  }
  auto conflicted = [&](std::size_t i) {
    for (const Use& u : p.items[i].cands[at(cur[i].cand)].uses)
      if (occ[cell(i, u)] > 1) return true;
    return false;
  };
  // The conflicted items, listed afresh every kRefresh moves (a full scan; items conflicted since
  // wait for the next one, items no longer conflicted are passed over).
  constexpr int kRefresh = 200;
  std::vector<std::size_t> bad;
  std::vector<Placement> best_pos;
  for (std::int64_t move = 0; work > 0; ++move) {
    if (move % kRefresh == 0) {
      bad.clear();
      for (std::size_t i = 0; i < p.items.size(); ++i)
        if (conflicted(i)) bad.push_back(i);
      work -= static_cast<std::int64_t>(p.items.size()) * 8;
      if (bad.empty()) return cur;
    }
    const std::size_t i = bad[next() % bad.size()];
    if (!conflicted(i)) continue;
    apply(i, -1);
    const Item& it = p.items[i];
    std::int64_t best = -1;
    best_pos.clear();
    for (std::size_t c = 0; c < it.cands.size(); ++c) {
      const auto& uses = it.cands[c].uses;
      for (std::size_t sl = 0; sl < P; ++sl) {
        std::int64_t cost = 0;
        for (const Use& u : uses) {
          const std::size_t x = at(u.res) * P + (sl + at(u.offset)) % P;
          cost += weight[x] * occ[x];
        }
        if (best < 0 || cost < best) {
          best = cost;
          best_pos.clear();
        }
        if (cost == best) best_pos.push_back({static_cast<int>(c), static_cast<int>(sl)});
      }
      work -= static_cast<std::int64_t>(P * uses.size());
    }
    std::int64_t here = 0;  // the cost of staying
    for (const Use& u : it.cands[at(cur[i].cand)].uses) here += weight[cell(i, u)] * occ[cell(i, u)];
    cur[i] = best_pos[next() % best_pos.size()];
    apply(i, +1);
    if (best >= here)  // a local minimum: no move makes the item cheaper
      for (const Use& u : it.cands[at(cur[i].cand)].uses)
        if (occ[cell(i, u)] > 1) ++weight[cell(i, u)];
  }
  return std::nullopt;
}

namespace {

/// Local search one period down at a time from `period` (packed by `best`) to `lowest`, passing
/// over the periods `skip` names, until a call fails within `work`: the lowest period packed, with
/// `best` its packing.
int local_search_descend(const Problem& p, std::vector<Placement>& best, int period, int lowest, std::int64_t work,
                         const std::function<bool(int)>& skip = {}) {
  for (int P = period - 1; P >= lowest; --P) {
    if (skip && skip(P)) continue;
    auto ls = local_search_pack(p, P, best, work, static_cast<std::uint64_t>(P));
    if (!ls) break;
    best = std::move(*ls);
    period = P;
  }
  return period;
}

}  // namespace

SatOutcome sat_pack(const Problem& p, int period, std::int64_t conflicts, std::chrono::steady_clock::time_point end,
                    std::vector<Placement>& out, std::int64_t* variables, SatHint hint) {
  const auto P = at(period);
  CaDiCaL::Solver solver;
  if (hint == SatHint::LikelySat) solver.configure("sat");  // CaDiCaL's preset for satisfiable instances
  Cnf cnf(solver);
  std::vector<std::vector<int>> holders(at(p.resources) * P);
  std::vector<std::vector<std::vector<int>>> var(p.items.size());
  for (std::size_t i = 0; i < p.items.size(); ++i) {
    const Item& it = p.items[i];
    var[i].assign(it.cands.size(), std::vector<int>(P, 0));
    std::vector<int> all;
    for (std::size_t c = 0; c < it.cands.size(); ++c) {
      bool fits = true;  // a candidate longer than the period would hold a resource twice
      for (std::size_t a = 0; a < it.cands[c].uses.size() && fits; ++a)
        for (std::size_t b = a + 1; b < it.cands[c].uses.size(); ++b)
          if (it.cands[c].uses[a].res == it.cands[c].uses[b].res &&
              at(it.cands[c].uses[a].offset) % P == at(it.cands[c].uses[b].offset) % P) {
            fits = false;
            break;
          }
      if (!fits) continue;
      for (std::size_t s = 0; s < P; ++s) {
        if (i == 0 && s != 0) continue;  // every packing shifts to one with item 0 in slot 0
        const int v = cnf.var();
        var[i][c][s] = v;
        all.push_back(v);
        for (const Use& u : it.cands[c].uses) holders[at(u.res) * P + (s + at(u.offset)) % P].push_back(v);
      }
    }
    if (all.empty()) return SatOutcome::Unsat;
    cnf.exactly_one(all);
  }
  if (variables) *variables = cnf.vars();
  for (const auto& h : holders)
    if (h.size() > 1) cnf.at_most(h, 1);
  // A resource every packing fills (each item holds it a fixed number of times, P in all) is held
  // in every slot: redundant at-least-one clauses that propagate where the tracks are full.
  std::vector<std::int64_t> fixed_total(at(p.resources), 0);
  std::vector<bool> fixed(at(p.resources), true);
  for (const Item& it : p.items) {
    std::vector<std::vector<int>> count(it.cands.size(), std::vector<int>(at(p.resources), 0));
    for (std::size_t c = 0; c < it.cands.size(); ++c)
      for (const Use& u : it.cands[c].uses) ++count[c][at(u.res)];
    for (std::size_t r = 0; r < at(p.resources); ++r) {
      for (std::size_t c = 1; c < it.cands.size(); ++c)
        if (count[c][r] != count[0][r]) fixed[r] = false;
      if (!it.cands.empty()) fixed_total[r] += count[0][r];
    }
  }
  for (std::size_t r = 0; r < at(p.resources); ++r)
    if (fixed[r] && fixed_total[r] == static_cast<std::int64_t>(P))
      for (std::size_t sl = 0; sl < P; ++sl) cnf.clause(holders[r * P + sl]);
  std::vector<int> group_of(at(p.resources), -1);
  for (std::size_t g = 0; g < p.groups.size(); ++g) {
    for (int r : p.groups[g]) group_of[at(r)] = static_cast<int>(g);
    std::int64_t total = 0;
    bool same = true;
    for (const Item& it : p.items) {
      int first = -1;
      for (const Candidate& c : it.cands) {
        int n = 0;
        for (const Use& u : c.uses) n += group_of[at(u.res)] == static_cast<int>(g) ? 1 : 0;
        if (first < 0) first = n;
        same = same && n == first;
      }
      total += std::max(first, 0);
    }
    if (same && total == static_cast<std::int64_t>(p.groups[g].size() * P))
      for (int r : p.groups[g])
        for (std::size_t sl = 0; sl < P; ++sl) cnf.clause(holders[at(r) * P + sl]);
  }
  holders.clear();
  holders.shrink_to_fit();
  std::int64_t used = 0;
  const SatOutcome r = solve_limited(solver, conflicts, end, used);
  if (r != SatOutcome::Sat) return r;
  out.assign(p.items.size(), {});
  for (std::size_t i = 0; i < p.items.size(); ++i)
    for (std::size_t c = 0; c < var[i].size(); ++c)
      for (std::size_t s = 0; s < P; ++s)
        if (var[i][c][s] != 0 && solver.val(var[i][c][s]) > 0) out[i] = {static_cast<int>(c), static_cast<int>(s)};
  return r;
}

namespace {

/// A translation-invariant route's uses: hop j on its port's track in slot j; under nic the
/// inject track (`deg`) at the first hop and the eject track (`deg` + 1) at the last.
std::vector<Use> route_uses(const std::vector<Port>& ports, int deg, bool nic) {
  std::vector<Use> uses;
  for (std::size_t j = 0; j < ports.size(); ++j) uses.push_back({ports[j], static_cast<int>(j)});
  if (nic) {
    uses.push_back({deg, 0});
    uses.push_back({deg + 1, static_cast<int>(ports.size()) - 1});
  }
  return uses;
}

}  // namespace

Problem translation_invariant_problem(const Topology& t, bool nic, bool detours) {
  const auto& f = t.factors();
  const std::size_t dims = f.size();
  std::vector<int> base(dims, 0);
  for (std::size_t d = 1; d < dims; ++d) base[d] = base[d - 1] + (f[d - 1].size == 2 ? 1 : 2);
  Problem p;
  const int deg = t.degree(0);
  p.resources = deg + (nic ? 2 : 0);
  std::vector<int> ties(dims, 0);
  for (NodeId r = 1; r < t.nodes(); ++r) {
    Item it;
    it.offset = t.coordinates(r);
    std::vector<std::pair<Port, int>> seg(dims, {0, 0});
    std::vector<int> used_dims;
    for (std::size_t d = 0; d < dims; ++d) {
      const int k = f[d].size, o = it.offset[d];
      if (o == 0) continue;
      used_dims.push_back(static_cast<int>(d));
      if (k == 2) {
        seg[d] = {base[d], 1};
      } else if (2 * o < k) {
        seg[d] = {base[d], o};
      } else if (2 * o > k) {
        seg[d] = {base[d] + 1, k - o};
      } else {  // a tie at k/2: alternate the two ways round over the offsets that have it
        seg[d] = {base[d] + (ties[d]++ % 2), o};
      }
    }
    const auto add = [&](std::vector<Port> ports) {
      Candidate c;
      c.uses = route_uses(ports, deg, nic);
      c.ports = std::move(ports);
      it.cands.push_back(std::move(c));
    };
    for (const auto& order : dimension_orders(used_dims)) {
      std::vector<Port> ports;
      for (int d : order)
        for (int h = 0; h < seg[at(d)].second; ++h) ports.push_back(seg[at(d)].first);
      add(ports);
      if (!detours) continue;
      // Two hops more: one step out in a ring dimension first and back last. The route runs one
      // row over, so it meets the destination only at its end; in a dimension it uses, only the
      // step against its own way (the other would overshoot through the destination).
      for (std::size_t d = 0; d < dims; ++d) {
        if (f[d].size <= 2) continue;
        const bool used = it.offset[d] != 0;
        for (int way = 0; way < 2; ++way) {
          if (used && base[d] + way == seg[d].first) continue;
          std::vector<Port> around{static_cast<Port>(base[d] + way)};
          around.insert(around.end(), ports.begin(), ports.end());
          around.push_back(static_cast<Port>(base[d] + 1 - way));
          add(std::move(around));
        }
      }
      // The long way round one used dimension of odd size (k - 2o hops more, an odd number).
      for (int d : order) {
        const int k = f[at(d)].size;
        if (k % 2 == 0 || k <= 2) continue;
        std::vector<Port> longway;
        for (int e : order) {
          const auto [port, hops] = seg[at(e)];
          if (e != d) {
            for (int h = 0; h < hops; ++h) longway.push_back(port);
          } else {
            const Port other = static_cast<Port>(port == base[at(d)] ? base[at(d)] + 1 : base[at(d)]);
            for (int h = 0; h < k - hops; ++h) longway.push_back(other);
          }
        }
        add(std::move(longway));
      }
    }
    p.items.push_back(std::move(it));
  }
  return p;
}

namespace {

// The quarter turn sigma(x, y) = (-y, x) on the ports of a 2-D torus (0 +x, 1 -x, 2 +y, 3 -y):
// +x -> +y -> -x -> -y -> +x; kTurns[p] is the j with p = sigma^j(+x).
constexpr std::array<Port, 4> kTurnPort{2, 3, 1, 0};
constexpr std::array<int, 4> kTurns{0, 2, 1, 3};

}  // namespace

std::optional<QuarterTurn> quarter_turn_quotient(const Topology& t, const Problem& full, int period, bool nic) {
  const auto& f = t.factors();
  if (f.size() != 2 || f[0].kind != FactorKind::Ring || f[0].size != f[1].size || f[0].size % 2 == 0 ||
      f[0].size < 3 || period % 4 != 0)
    return std::nullopt;
  const int k = f[0].size, quarter = period / 4;
  std::vector<int> item_of(at(k) * at(k), -1);
  for (std::size_t i = 0; i < full.items.size(); ++i)
    item_of[at(full.items[i].offset[0] + k * full.items[i].offset[1])] = static_cast<int>(i);
  QuarterTurn q;
  q.quotient.resources = nic ? 3 : 1;
  std::vector<bool> seen(full.items.size(), false);
  for (std::size_t i = 0; i < full.items.size(); ++i) {
    if (seen[i]) continue;
    std::array<int, 4> orbit{};
    int x = full.items[i].offset[0], y = full.items[i].offset[1];
    for (int j = 0; j < 4; ++j) {
      orbit[at(j)] = item_of[at(x + k * y)];
      seen[at(orbit[at(j)])] = true;
      const int nx = (k - y) % k;
      y = x;
      x = nx;
    }
    Item rep;
    rep.offset = full.items[i].offset;
    for (const Candidate& c : full.items[i].cands) {
      Candidate qc;
      qc.ports = c.ports;
      for (const Use& u : c.uses) {
        if (u.res < 4) {
          qc.uses.push_back({0, u.offset + period - kTurns[at(u.res)] * quarter});
        } else {
          for (int j = 0; j < 4; ++j) qc.uses.push_back({u.res - 3, u.offset + j * quarter});
        }
      }
      rep.cands.push_back(std::move(qc));
    }
    q.quotient.items.push_back(std::move(rep));
    q.rep_item.push_back(static_cast<int>(i));
    q.orbit_item.push_back(orbit);
  }
  return q;
}

std::pair<Problem, std::vector<Placement>> quarter_turn_unfold(const Problem& full, const QuarterTurn& q,
                                                               const std::vector<Placement>& pl, int period, bool nic) {
  Problem out;
  out.resources = full.resources;
  out.items.resize(full.items.size());
  std::vector<Placement> placed(full.items.size());
  for (std::size_t i = 0; i < q.rep_item.size(); ++i) {
    std::vector<Port> ports = full.items[at(q.rep_item[i])].cands[at(pl[i].cand)].ports;
    for (int j = 0; j < 4; ++j) {
      const auto item = at(q.orbit_item[i][at(j)]);
      out.items[item].offset = full.items[item].offset;
      Candidate c;
      c.ports = ports;
      c.uses = route_uses(ports, 4, nic);
      out.items[item].cands.push_back(std::move(c));
      placed[item] = {0, (pl[i].slot + j * (period / 4)) % period};
      for (Port& p : ports) p = kTurnPort[at(p)];
    }
  }
  return {std::move(out), std::move(placed)};
}

namespace {

/// The dimension-order walks from a to b (every order of the dimensions; a ring tie both ways).
std::vector<std::vector<NodeId>> dimension_order_paths(const Topology& t, NodeId a, NodeId b) {
  const auto& f = t.factors();
  const std::vector<int> ca = t.coordinates(a), cb = t.coordinates(b);
  std::vector<int> used;
  for (std::size_t d = 0; d < f.size(); ++d)
    if (ca[d] != cb[d]) used.push_back(static_cast<int>(d));
  std::vector<std::vector<NodeId>> out;
  for (const auto& order : dimension_orders(used)) {
    // Per used dimension the directions that are shortest (two at a ring's tie).
    std::vector<std::vector<int>> dirs;
    for (int d : order) {
      const Factor& fd = f[at(d)];
      const int k = fd.size, fwd = ((cb[at(d)] - ca[at(d)]) % k + k) % k;
      if (fd.kind == FactorKind::Ring && k > 2) {
        if (2 * fwd < k) dirs.push_back({+1});
        else if (2 * fwd > k) dirs.push_back({-1});
        else dirs.push_back({+1, -1});
      } else if (fd.kind == FactorKind::Path) {
        dirs.push_back({cb[at(d)] > ca[at(d)] ? +1 : -1});
      } else {
        dirs.push_back({0});  // complete graph or K2: one hop straight there
      }
    }
    std::vector<std::size_t> pick(order.size(), 0);
    while (true) {
      std::vector<int> c = ca;
      std::vector<NodeId> path{a};
      for (std::size_t i = 0; i < order.size(); ++i) {
        const std::size_t d = at(order[i]);
        const int k = f[d].size, dir = dirs[i][pick[i]];
        while (c[d] != cb[d]) {
          c[d] = dir == 0 ? cb[d] : ((c[d] + dir) % k + k) % k;
          path.push_back(t.node_at(c));
        }
      }
      out.push_back(std::move(path));
      std::size_t i = 0;
      while (i < pick.size() && ++pick[i] == dirs[i].size()) pick[i++] = 0;
      if (i == pick.size()) break;
    }
  }
  return out;
}

/// A message's candidate along `path`: its links in hop order, the source's inject port at the
/// start and the destination's eject port at the last hop (`nic`).
Candidate path_candidate(const Topology& t, std::vector<NodeId> path, bool nic) {
  Candidate c;
  for (std::size_t j = 0; j + 1 < path.size(); ++j)
    c.uses.push_back({t.link_id(path[j], *t.port_to(path[j], path[j + 1])), static_cast<int>(j)});
  if (nic) {
    c.uses.push_back({t.links() + path.front(), 0});
    c.uses.push_back({t.links() + t.nodes() + path.back(), static_cast<int>(path.size()) - 2});
  }
  c.path = std::move(path);
  return c;
}

}  // namespace

Problem node_problem(const Topology& t, bool nic, bool all_shortest, bool detours) {
  const int n = t.nodes();
  Problem p;
  const int links = t.links();
  p.resources = links + (nic ? 2 * n : 0);
  all_shortest = all_shortest || detours;
  std::vector<std::vector<int>> dist;
  if (all_shortest || !t.is_product()) {
    dist.assign(at(n), std::vector<int>(at(n), -1));
    for (NodeId s = 0; s < n; ++s) {
      std::queue<NodeId> q;
      dist[at(s)][at(s)] = 0;
      q.push(s);
      while (!q.empty()) {
        const NodeId v = q.front();
        q.pop();
        for (Port pt = 0; pt < t.degree(v); ++pt) {
          const NodeId w = t.neighbor(v, pt);
          if (dist[at(s)][at(w)] < 0) {
            dist[at(s)][at(w)] = dist[at(s)][at(v)] + 1;
            q.push(w);
          }
        }
      }
    }
  }
  for (NodeId a : t.processors())
    for (NodeId b : t.processors()) {
      if (a == b) continue;
      Item it;
      it.msg = {a, b};
      std::vector<std::vector<NodeId>> paths;
      if (all_shortest || !t.is_product()) {
        // The paths of `hops` hops from a to b that visit no node twice (depth first, neighbours
        // in port order), at most `cap` of them: with hops = dist(a, b) every shortest path.
        std::vector<NodeId> path{a};
        const auto paths_of = [&](std::size_t hops, std::size_t cap) {
          const std::size_t first = paths.size();
          std::function<void()> walk = [&] {
            if (paths.size() - first >= cap) return;
            const NodeId v = path.back();
            if (v == b) {
              if (path.size() == hops + 1) paths.push_back(path);
              return;
            }
            const int left = static_cast<int>(hops + 1 - path.size()) - 1;  // hops after the next one
            for (Port pt = 0; pt < t.degree(v); ++pt) {
              const NodeId w = t.neighbor(v, pt);
              if (dist[at(b)][at(w)] > left || std::find(path.begin(), path.end(), w) != path.end()) continue;
              path.push_back(w);
              walk();
              path.pop_back();
            }
          };
          walk();
        };
        if (const int d = dist[at(a)][at(b)]; d >= 0) {
          paths_of(at(d), 512);
          if (detours) paths_of(at(d) + 2, 256);
        }
      } else {
        paths = dimension_order_paths(t, a, b);
      }
      for (auto& path : paths) it.cands.push_back(path_candidate(t, std::move(path), nic));
      p.items.push_back(std::move(it));
    }
  // Cut groups of a product: per dimension, boundary between coordinates b and b+1 (of a path)
  // and direction, the links crossing it; a minimal route crosses each at most once.
  if (t.is_product()) {
    const auto& f = t.factors();
    for (std::size_t d = 0; d < f.size(); ++d) {
      if (f[d].kind != FactorKind::Path) continue;
      for (int b = 0; b + 1 < f[d].size; ++b)
        for (int dir : {+1, -1}) {
          std::vector<int> g;
          for (NodeId v = 0; v < n; ++v) {
            const std::vector<int> c = t.coordinates(v);
            if (c[d] != (dir > 0 ? b : b + 1)) continue;
            std::vector<int> w = c;
            w[d] += dir;
            g.push_back(t.link_id(v, *t.port_to(v, t.node_at(w))));
          }
          p.groups.push_back(std::move(g));
        }
    }
  }
  return p;
}

Schedule expand_translation_invariant(const Topology& t, Model m, const Problem& p, const std::vector<Placement>& pl,
                                      int period) {
  Schedule s{t.spec(), m, "periodic-ti", {}};
  s.period = period;
  const auto& f = t.factors();
  for (NodeId v = 0; v < t.nodes(); ++v) {
    const std::vector<int> cv = t.coordinates(v);
    for (std::size_t i = 0; i < p.items.size(); ++i) {
      const Item& it = p.items[i];
      const Candidate& c = it.cands[at(pl[i].cand)];
      std::vector<int> cd = cv;
      for (std::size_t d = 0; d < f.size(); ++d) cd[d] = (cv[d] + it.offset[d]) % f[d].size;
      const NodeId dst = t.node_at(cd);
      NodeId cur = v;
      for (std::size_t j = 0; j < c.ports.size(); ++j) {
        const std::size_t step = at(pl[i].slot) + j;
        if (s.steps.size() <= step) s.steps.resize(step + 1);
        s.steps[step].push_back({{v, dst}, cur, c.ports[j]});
        cur = t.neighbor(cur, c.ports[j]);
      }
    }
  }
  return s;
}

Schedule expand_node(const Topology& t, Model m, const Problem& p, const std::vector<Placement>& pl, int period) {
  Schedule s{t.spec(), m, "periodic-node", {}};
  s.period = period;
  for (std::size_t i = 0; i < p.items.size(); ++i) {
    const Item& it = p.items[i];
    const Candidate& c = it.cands[at(pl[i].cand)];
    for (std::size_t j = 0; j + 1 < c.path.size(); ++j) {
      const std::size_t step = at(pl[i].slot) + j;
      if (s.steps.size() <= step) s.steps.resize(step + 1);
      s.steps[step].push_back({it.msg, c.path[j], *t.port_to(c.path[j], c.path[j + 1])});
    }
  }
  return s;
}

namespace {

/// The quotient of the per-message problem by a group of node automorphisms that acts freely on
/// the messages (no element but the identity fixes one): one item per orbit, whose candidates hold
/// the images' links and NIC ports, element j's in slots moved by shift[j].
NodeOrbits orbit_quotient(const Topology& t, const Problem& full, std::vector<std::vector<NodeId>> element,
                          std::vector<int> shift, bool nic) {
  NodeOrbits q;
  q.element = std::move(element);
  q.shift = std::move(shift);
  const auto n = at(t.nodes());
  std::vector<int> item_of(n * n, -1);
  for (std::size_t i = 0; i < full.items.size(); ++i)
    item_of[at(full.items[i].msg.src) * n + at(full.items[i].msg.dst)] = static_cast<int>(i);
  std::vector<bool> seen(full.items.size(), false);
  q.quotient.resources = full.resources;
  q.quotient.groups = full.groups;  // a cut's orbit is a union of cuts: each candidate holds it equally often
  for (std::size_t i = 0; i < full.items.size(); ++i) {
    if (seen[i]) continue;
    std::vector<int> orbit;
    for (const auto& g : q.element) {
      const int img = item_of[at(g[at(full.items[i].msg.src)]) * n + at(g[at(full.items[i].msg.dst)])];
      orbit.push_back(img);
      seen[at(img)] = true;
    }
    Item item;
    item.msg = full.items[i].msg;
    for (const Candidate& c : full.items[i].cands) {
      Candidate oc;
      oc.path = c.path;
      for (std::size_t j = 0; j < q.element.size(); ++j) {
        std::vector<NodeId> moved;
        for (NodeId v : c.path) moved.push_back(q.element[j][at(v)]);
        for (const Use& u : path_candidate(t, std::move(moved), nic).uses)
          oc.uses.push_back({u.res, u.offset + q.shift[j]});
      }
      item.cands.push_back(std::move(oc));
    }
    q.quotient.items.push_back(std::move(item));
    q.orbit_item.push_back(std::move(orbit));
  }
  return q;
}

std::vector<NodeId> node_image(const Topology& t, const std::function<std::vector<int>(std::vector<int>)>& move) {
  std::vector<NodeId> image(at(t.nodes()));
  for (NodeId v = 0; v < t.nodes(); ++v) image[at(v)] = t.node_at(move(t.coordinates(v)));
  return image;
}

}  // namespace

std::optional<NodeOrbits> mesh_mirror_quotient(const Topology& t, const Problem& full, int period, bool nic) {
  const auto& f = t.factors();
  if (!t.is_product() || t.is_partial() || t.processor_count() != t.nodes() ||
      !std::all_of(f.begin(), f.end(), [](const Factor& x) { return x.kind == FactorKind::Path; }))
    return std::nullopt;
  std::vector<std::size_t> even;  // a mirror of an even side fixes no coordinate
  for (std::size_t d = 0; d < f.size(); ++d)
    if (f[d].size % 2 == 0) even.push_back(d);
  if (even.empty()) {
    // Every side odd: the half turn fixes the centre node but no message; its two images of a
    // message from the centre share the centre's NIC, so they are half a period apart.
    if (period % 2 != 0) return std::nullopt;
    std::vector<std::vector<NodeId>> element{node_image(t, [](std::vector<int> c) { return c; }),
                                             node_image(t, [&](std::vector<int> c) {
                                               for (std::size_t d = 0; d < c.size(); ++d) c[d] = f[d].size - 1 - c[d];
                                               return c;
                                             })};
    return orbit_quotient(t, full, std::move(element), {0, period / 2}, nic);
  }
  std::vector<std::vector<NodeId>> element;
  for (std::size_t mask = 0; mask < (std::size_t{1} << even.size()); ++mask)
    element.push_back(node_image(t, [&](std::vector<int> c) {
      for (std::size_t b = 0; b < even.size(); ++b)
        if ((mask >> b) & 1) c[even[b]] = f[even[b]].size - 1 - c[even[b]];
      return c;
    }));
  const std::size_t order = element.size();
  return orbit_quotient(t, full, std::move(element), std::vector<int>(order, 0), nic);
}

std::optional<NodeOrbits> half_translation_quotient(const Topology& t, const Problem& full, bool nic) {
  const auto& f = t.factors();
  if (!t.is_product() || t.is_partial() || t.processor_count() != t.nodes()) return std::nullopt;
  // Two translations of order 2, each half of a ring of even size, or on a hypercube a pair of its
  // dimensions (the image of torus:4x4's half-ring translations in the 4-cube: SAT in seconds there,
  // where single dimensions stayed unknown).
  std::vector<std::vector<std::size_t>> moves;
  const bool cube = std::all_of(f.begin(), f.end(), [](const Factor& x) { return x.size == 2; });
  if (cube) {
    for (std::size_t d = 0; d + 1 < f.size() && moves.size() < 2; d += 2) moves.push_back({d, d + 1});
  } else {
    for (std::size_t d = 0; d < f.size() && moves.size() < 2; ++d)
      if (f[d].kind == FactorKind::Ring && f[d].size % 2 == 0) moves.push_back({d});
  }
  if (moves.size() < 2) return std::nullopt;
  std::vector<std::vector<NodeId>> element;
  for (int mask = 0; mask < 4; ++mask)
    element.push_back(node_image(t, [&](std::vector<int> c) {
      for (std::size_t b = 0; b < 2; ++b)
        if ((mask >> b) & 1)
          for (std::size_t d : moves[b]) c[d] = (c[d] + f[d].size / 2) % f[d].size;
      return c;
    }));
  return orbit_quotient(t, full, std::move(element), std::vector<int>(4, 0), nic);
}

std::pair<Problem, std::vector<Placement>> orbit_unfold(const Topology& t, const Problem& full, const NodeOrbits& q,
                                                        const std::vector<Placement>& pl, int period, bool nic) {
  Problem out;
  out.resources = full.resources;
  out.items.resize(full.items.size());
  std::vector<Placement> placed(full.items.size());
  for (std::size_t i = 0; i < q.quotient.items.size(); ++i)
    for (std::size_t j = 0; j < q.element.size(); ++j) {
      const auto item = at(q.orbit_item[i][j]);
      std::vector<NodeId> moved;
      for (NodeId v : q.quotient.items[i].cands[at(pl[i].cand)].path) moved.push_back(q.element[j][at(v)]);
      out.items[item].msg = full.items[item].msg;
      out.items[item].cands = {path_candidate(t, std::move(moved), nic)};
      placed[item] = {0, (pl[i].slot + q.shift[j]) % period};
    }
  return {std::move(out), std::move(placed)};
}

}  // namespace periodic

bool periodic_translation_invariant_applies(const Topology& t, Model m) {
  if (m == Model::SinglePort || !t.is_product() || t.is_partial()) return false;
  for (const Factor& f : t.factors())  // rings, and single links (a hypercube's complete:2 factors)
    if (f.kind != FactorKind::Ring && f.size != 2) return false;
  return true;
}

namespace {

std::string terms_at(const LowerBound& lb) {
  std::string names;
  for (const BoundTerm& term : lb.terms)
    if (term.value == lb.steps) names += (names.empty() ? "" : ", ") + term.name;
  return names;
}

/// Seconds since `t0`, as the search log writes them ("1.234 s").
std::string seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()).substr(0, 5) + " s";
}

/// A SAT call's outcome for the search log: "SAT, 954 variables, 0.065 s".
std::string sat_result(SatOutcome o, std::int64_t vars, std::chrono::steady_clock::time_point t0) {
  return std::string(outcome_word(o)) + ", " +
         std::to_string(vars) + " variables, " + seconds_since(t0);
}

std::int64_t candidate_vars(const periodic::Problem& p, int period) {
  std::int64_t c = 0;
  for (const auto& it : p.items) c += static_cast<std::int64_t>(it.cands.size());
  return c * period;
}

}  // namespace

PeriodicOutcome periodic_schedule(const Topology& t, Model m, const PeriodicRequest& r) {
  using Clock = std::chrono::steady_clock;
  if (m == Model::SinglePort)
    throw UsageError("--periodic: applies to the nic and all-port models (single-port buffers at relays), not single-port");
  if (t.is_partial()) throw UsageError("--periodic: a partially populated torus is not supported");
  const std::string& algo = r.algorithm.empty() ? std::string("auto") : r.algorithm;
  if (algo != "auto" && algo != "greedy" && algo != "exact" && algo != "rotation" && algo != "pipeline" && algo != "product" &&
      algo != "octant")
    throw UsageError("--algo '" + printable(algo) +
                     "' is not available with --periodic: expected auto | greedy | exact | rotation | pipeline | product | octant");
  const bool nic = m == Model::Nic;
  PeriodicOutcome out;
  out.bound = periodic_lower_bound(lower_bound(t, m));
  const int bound = static_cast<int>(out.bound.steps);
  // The quarter-turn construction (torus_rotation.hpp) where it applies (K >= 11 other than
  // 12): at the bound on odd sides, within 2.5 % on even ones, in a second; the packings below
  // scored 1.07-1.09 of the bound on torus:13x13..16x16 in a default budget (docs/periodic.md), so
  // auto stops here.
  // A period at the bound is optimal, whatever the routes (the bound holds for every schedule).
  const auto prove_if_at_bound = [&](int period) {
    if (period != bound) return;
    out.proven_optimal = true;
    out.proof_general = true;
    out.proof_scope = "general";
    out.proof = "proven optimal: equals the period bound " + std::to_string(bound) + " (" + terms_at(out.bound) + ")";
  };
  // A construction's patterns as the outcome (translation-invariant).
  const auto constructed = [&](std::vector<PlacedPattern> patterns, const std::string& algorithm, int period) {
    out.algorithm = algorithm;
    out.translation_invariant = true;
    out.schedule = pattern_schedule_of(t, m, std::move(patterns), algorithm);
    out.schedule.period = period;
    prove_if_at_bound(period);
    return out;
  };
  // The pipeline construction on nic hypercubes (hypercube_pipeline.hpp): period N - 1, the bound,
  // with detours where minimal routes cannot add up to it; the packing below stops at N (slot sums).
  const bool pipeline_applies = nic && hypercube_doubling_applies(t);
  if (algo == "pipeline" && !pipeline_applies)
    throw UsageError("--periodic --algo pipeline needs a hypercube with a processor at every node, under nic (" + t.spec() + ")");
  if ((algo == "auto" || algo == "pipeline") && pipeline_applies) {
    if (auto patterns = hypercube_pipeline_periodic_patterns(t)) {
      const int period = t.nodes() - 1;
      out.log.push_back("pipeline: period " + std::to_string(period) + " (every NIC injects and ejects in every slot)");
      return constructed(std::move(*patterns), "periodic-pipeline", period);
    }
    if (algo == "pipeline")
      throw UsageError("--periodic --algo pipeline found no schedule of period N - 1 for " + t.spec() +
                       " (hypercube:4: the detours fill every link; past hypercube:11 not run); use --algo auto");
    out.log.push_back("pipeline: no schedule of period N - 1; the packing follows");
  }
  if (algo == "rotation" && !rotation_why_not(t).empty())
    throw UsageError("--periodic --algo rotation " + rotation_why_not(t) + " (" + t.spec() + ")");
  if ((algo == "auto" || algo == "rotation") && rotation_why_not(t).empty()) {
    RotationPlan plan = rotation_patterns(t, m, true);
    const std::int64_t period = plan.steps;
    for (const std::string& line : plan.log) out.log.push_back("rotation: " + line);
    out.log.push_back("rotation: period " + std::to_string(period) + " (" + std::to_string(plan.tail_routes) +
                      " offset(s) beyond the core, " +
                      (plan.repaired ? std::string("placed by the SAT repair at the bound")
                                     : "fitted around the core, " + std::to_string(plan.idle_routes) +
                                           " core slot(s) idle") +
                      ")");
    return constructed(std::move(plan.patterns), "periodic-rotation", static_cast<int>(period));
  }
  const double budget = r.budget_seconds > 0 ? r.budget_seconds : 4.0;
  const auto t0 = Clock::now();
  const auto end = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(budget * 3 + 5));
  // Progress on stderr: a line as a stage starts, once the run or the stage may be long enough to
  // wonder about (as the one-shot scheduler's per generator).
  const auto stage = [&](const std::string& what, double may_take) {
    const double so_far = std::chrono::duration<double>(Clock::now() - t0).count();
    if (so_far > Progress::kQuietSeconds || may_take > Progress::kQuietSeconds)
      std::fprintf(stderr, "schedule --periodic %s: %s (%.0f s so far)\n", t.spec().c_str(), what.c_str(), so_far);
  };
  // The ring product (ring_product.hpp) on tori of three or more dimensions: a ring times a
  // translation-invariant schedule of the other dimensions, at the bound on torus:8x8x8 in about a
  // second where the packing below starts from a first fit of 617. Kept unless the packing does
  // better.
  // Built under nic for all-port too (a nic schedule keeps all-port's rules modulo the period),
  // where nic's period bound is all-port's, so that the product can reach it: torus:8x8x8 at 512
  // in a second (the packing: 540 in 38 s); not torus:4x4x4 (nic 64, all-port 32).
  const std::string product_why_not =
      m == Model::AllPort && periodic_lower_bound(lower_bound(t, Model::Nic)).steps > bound
          ? std::string("reaches at best nic's period bound, above all-port's here")
          : ring_product_why_not(t, m);
  if (algo == "product" && !product_why_not.empty())
    throw UsageError("--periodic --algo product " + product_why_not + " (" + t.spec() + ")");
  RingProductPlan product;
  if ((algo == "auto" || algo == "product") && product_why_not.empty()) {
    stage("ring product", budget);
    product = ring_product_periodic(t, m, budget);
    for (const std::string& line : product.log) out.log.push_back("product: " + line);
    // (also where the packing below would refuse the size)
    if (product.period > 0 && (algo == "product" || product.period == bound || t.nodes() > 1024))
      return constructed(std::move(product.patterns), "periodic-product", product.period);
    if (algo == "product")
      throw UsageError("--periodic --algo product found no period for " + t.spec() + " within its budget; use --algo auto");
  }
  // Cubes KxKxK past the translation-invariant packing's 1024 nodes (or named): the octant
  // pipelines' one-shot schedule of T steps repeated every T steps. Its hops all lie in steps
  // 0 .. T-1 and its starts and ends are distinct there, so each slot modulo T holds each link
  // class and NIC port once: torus:12x12x12 period 2639, torus:16x16x16 8214 (period bounds 2592
  // and 8192), where --periodic refused.
  const std::string octant_why = octant_why_not(t, m);
  if (algo == "octant" && !octant_why.empty())
    throw UsageError("--periodic --algo octant " + octant_why + " (" + t.spec() + ")");
  if ((algo == "octant" || (algo == "auto" && t.nodes() > 1024)) && octant_why.empty()) {
    stage("octant pipelines' one-shot schedule, repeated every period", budget);
    std::vector<std::string> lines;
    out.schedule = octant_schedule(t, m, budget, lines);
    out.schedule.period = static_cast<int>(out.schedule.step_count());
    for (std::string& line : lines) out.log.push_back(line);
    out.log.push_back("octant: period " + std::to_string(out.schedule.period) + " (its one-shot steps)");
    out.algorithm = "periodic-octant";
    out.translation_invariant = true;
    prove_if_at_bound(out.schedule.period);
    return out;
  }
  const bool ti_applies = periodic_translation_invariant_applies(t, m);
  const bool ti = algo != "exact" && ti_applies;
  out.translation_invariant = ti;
  constexpr std::int64_t kMaxSatVars = 4'000'000;
  // Every shortest path per message up to this many nodes (mesh:8x8 did worse with them: 132
  // against 131 with XY and YX, its SAT models beyond kMaxSatVars).
  constexpr int kAllPathsNodes = 36;
  // 2-D and 3-D meshes past the per-message packing's size: xyfit's one-shot schedule of T steps
  // repeated every T steps (its hops all lie in steps 0 .. T-1, so each slot modulo T holds each
  // link and port once): mesh:32x32 period 8317 against the period bound 8192, where --periodic
  // refused.
  if (algo == "auto" && !ti && t.nodes() > 256 && mesh_fit_why_not(t).empty()) {
    stage("xyfit's one-shot schedule, repeated every period", 0);
    std::vector<std::string> lines;
    out.schedule = mesh_fit_schedule(t, m, lines);
    out.schedule.period = static_cast<int>(out.schedule.step_count());
    for (std::string& line : lines) out.log.push_back(line);
    out.log.push_back("xyfit: period " + std::to_string(out.schedule.period) + " (its one-shot steps)");
    out.algorithm = "periodic-xyfit";
    prove_if_at_bound(out.schedule.period);
    return out;
  }
  // The packings scan every slot for every item: refused up front where that is hours of work.
  if (algo != "exact" && t.nodes() > (ti ? 1024 : 256))
    throw ResourceError("resources: --periodic on " + t.spec() + ": " +
                        (product.log.empty() ? std::string()
                                             : "the ring product found no period within its budget (" +
                                                   product.log.back() + "), and ") +
                        "the " +
                        std::string(ti ? "translation-invariant packing handles at most 1024 nodes" :
                                         "per-message packing handles at most 256 nodes") +
                        " (its first fit scans every slot for every item)");
  periodic::Problem prob;
  if (algo == "exact") {
    if (static_cast<std::int64_t>(t.processor_count()) * t.processor_count() > 4096)
      throw UsageError("--periodic --algo exact: " + t.spec() + " is too large (at most 64 nodes)");
    prob = periodic::node_problem(t, nic, true);
  } else {
    // Per message: every shortest path up to 36 nodes (mesh:6x6), the dimension orders above.
    prob = ti ? periodic::translation_invariant_problem(t, nic) : periodic::node_problem(t, nic, t.nodes() <= kAllPathsNodes);
  }
  const std::string model_searched =
      algo == "exact" ? "every minimal route and slot of every message"
      : ti ? "translation-invariant schedules with minimal dimension-ordered routes (ties at k/2 alternated)"
      : t.nodes() <= kAllPathsNodes ? "schedules whose messages take minimal routes"
                        : "schedules whose messages take dimension-ordered minimal routes";
  out.algorithm = algo == "exact" ? "periodic-exact" : ti ? "periodic-ti" : "periodic-node";
  bool node_level = !ti;          // the packing is per message (expand_node)
  constexpr int kDetourNodes = 16;  // the per-message detour search (below) up to this many nodes
  std::vector<periodic::Placement> best;
  int best_period = 0;
  // Meshes with an even side, above 36 nodes (where `prob` has the XY and YX routes): first fit and
  // local search on the mirror quotient (a quarter of the items; try_mesh_mirrors below), one
  // period down at a time from the first fit until a call runs out of work; the per-message search
  // then goes on from it. At --budget 8: mesh:8x8 128 (the bound) in 5 s, mesh:16x16 1040 in 68 s.
  // Odd meshes' half turn (slots moved by P/2) packs worse than the per-message search (mesh:15x15
  // 1144), so not there.
  if (!ti && algo == "auto" && t.nodes() > kAllPathsNodes) {
    const auto q = periodic::mesh_mirror_quotient(t, prob, bound, nic);
    if (q && std::all_of(q->shift.begin(), q->shift.end(), [](int x) { return x == 0; })) {
      const auto s0 = Clock::now();
      stage("first fit and local search on the mirror quotient (" + std::to_string(q->quotient.items.size()) + " orbits)", budget);
      std::vector<periodic::Placement> qbest;
      int qperiod = 0;
      // The first fit at the bound and then in steps of 2 % (a pass that fails costs a whole scan).
      for (int P = bound; P <= 4 * bound + t.nodes() + 8 && qperiod == 0; P += std::max(1, bound / 50))
        if (auto g = periodic::greedy_pack(q->quotient, P)) {
          qbest = std::move(*g);
          qperiod = P;
        }
      const int first_fit = qperiod;
      if (qperiod > 0)
        qperiod = periodic::local_search_descend(q->quotient, qbest, qperiod, bound,
                                                 static_cast<std::int64_t>(budget * periodic::kLookupsPerSecond));
      if (qperiod > 0) {
        // Each image of a quotient route is one of the message's own candidates (a mirror keeps
        // the order of the dimensions), so the per-message search continues with every route.
        const auto [unfolded, placed] = periodic::orbit_unfold(t, prob, *q, qbest, qperiod, nic);
        best.assign(prob.items.size(), {});
        for (std::size_t i = 0; i < prob.items.size(); ++i) {
          const auto& cands = prob.items[i].cands;
          const auto& path = unfolded.items[i].cands[0].path;
          const auto c = std::find_if(cands.begin(), cands.end(), [&](const periodic::Candidate& x) { return x.path == path; });
          if (c == cands.end()) throw std::logic_error("mirror quotient: an image route that is not a candidate");
          best[i] = {static_cast<int>(c - cands.begin()), placed[i].slot};
        }
        best_period = qperiod;
        out.log.push_back("mirror quotient (" + std::to_string(q->quotient.items.size()) + " orbits): first fit " +
                          std::to_string(first_fit) + ", local search down to " + std::to_string(qperiod) + ", " +
                          seconds_since(s0));
      }
    }
  }
  if (best_period == 0) {
    // First fit, period by period from the bound (a route never holds a track twice: P >= hops).
    int longest = 0;
    for (const auto& it : prob.items) longest = std::max(longest, periodic::max_len(it));
    for (int P = std::max(bound, longest); P <= 4 * bound + t.nodes() + 8; ++P) {
      if (auto g = periodic::greedy_pack(prob, P)) {
        best = std::move(*g);
        best_period = P;
        out.log.push_back("greedy first fit: period " + std::to_string(P));
        break;
      }
    }
    if (best_period == 0) throw UsageError("--periodic: the first-fit packing found no period for " + t.spec());
  }
  // Products packed per message beyond kAllPathsNodes (meshes from 7x7): no SAT on the whole model;
  // the local search gets the SAT's allowance (budget x 3) instead.
  const bool per_message_large = !ti && algo != "exact" && t.is_product() && t.nodes() > kAllPathsNodes;
  // Local search down from `best_period` while it packs within its work (logged), the bound
  // included (SAT may have left it unknown, or not have been run).
  auto local_search_down = [&](const std::function<bool(int)>& skip) {
    const auto work = static_cast<std::int64_t>(budget * (per_message_large ? 3 : 1) * periodic::kLookupsPerSecond);
    const int ls_from = best_period;
    if (best_period > bound) stage("local search below period " + std::to_string(best_period), 0);
    best_period = periodic::local_search_descend(prob, best, best_period, bound, work, skip);
    if (best_period < ls_from)
      out.log.push_back("local search: periods " + std::to_string(ls_from - 1) + ".." + std::to_string(best_period) +
                        " packed" +
                        (best_period > bound ? ", none of " + std::to_string(best_period - 1) + " within its work" : ""));
    else if (best_period > bound)
      out.log.push_back("local search: none of period " + std::to_string(best_period - 1) + " within its work");
  };
  if (algo == "exact") local_search_down([](int) { return false; });
  std::vector<periodic::Placement> greedy_best = best;
  const int greedy_period = best_period;
  if (algo == "exact") best_period = 0;
  // One SAT call on `p` at period P, logged as "SAT period P<label>: outcome, variables, seconds".
  const auto sat_logged = [&](const periodic::Problem& p, int P, const std::string& label, std::int64_t conflicts,
                              Clock::time_point stop, std::vector<periodic::Placement>& pl, periodic::SatHint hint) {
    std::int64_t vars = 0;
    const auto s0 = Clock::now();
    const double may_take = std::chrono::duration<double>(stop - s0).count();
    stage("SAT on period " + std::to_string(P) + label + ", stopped after " + std::to_string(conflicts) +
              " conflicts or " + std::to_string(static_cast<long long>(may_take + 0.5)) + " s",
          may_take);
    const SatOutcome o = periodic::sat_pack(p, P, conflicts, stop, pl, &vars, hint);
    out.log.push_back("SAT period " + std::to_string(P) + label + ": " + sat_result(o, vars, s0));
    return o;
  };
  // One SAT call: Sat (best updated), Unsat or Unknown, logged.
  const std::int64_t per_node = static_cast<std::int64_t>(t.processor_count()) - 1;
  std::vector<int> slot_sum_refuted, sat_tried;  // periods refuted by slot sums; periods given to SAT
  auto try_period = [&](int P, double share) -> SatOutcome {
    if (std::find(sat_tried.begin(), sat_tried.end(), P) != sat_tried.end()) return SatOutcome::Unknown;
    sat_tried.push_back(P);
    if (nic && P == per_node) {
      // Slot sums: with P = N-1 every slot of every NIC injects once and ejects once, so summed
      // over all messages (eject - inject) = sum (hops - 1) is 0 mod P. Candidates have one length.
      std::int64_t sum = 0;
      bool fixed = true;
      for (const auto& it : prob.items) {
        const int len = periodic::max_len(it);
        for (const auto& c : it.cands) fixed = fixed && !c.uses.empty() && c.uses.back().offset + 1 == len;
        sum += len - 1;
      }
      if (fixed && sum % P != 0) {
        out.log.push_back("period " + std::to_string(P) + ": infeasible by the slot-sum argument (every slot injects and " +
                          "ejects, so the hops minus one, " + std::to_string(sum) + ", must be 0 mod " + std::to_string(P) + ")");
        slot_sum_refuted.push_back(P);
        return SatOutcome::Unsat;
      }
    }
    if (per_message_large) {
      out.log.push_back("SAT period " + std::to_string(P) + ": skipped (per-message model above " +
                        std::to_string(kAllPathsNodes) + " nodes: unknown on every mesh measured, 7x7 to 9x9, at 0.7 " +
                        "to 4.2 M variables and up to 9.5 GB; the local search has the time)");
      return SatOutcome::Unknown;
    }
    if (candidate_vars(prob, P) > kMaxSatVars) {
      out.log.push_back("SAT period " + std::to_string(P) + ": skipped (" + std::to_string(candidate_vars(prob, P)) +
                        " variables, more than " + std::to_string(kMaxSatVars) + ")");
      return SatOutcome::Unknown;
    }
    const double left = std::chrono::duration<double>(end - Clock::now()).count();
    if (left <= 0.05) {
      out.log.push_back("SAT period " + std::to_string(P) + ": no time left");
      return SatOutcome::Unknown;
    }
    std::vector<periodic::Placement> pl;
    const auto stop = std::min(end, Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(left * share)));
    const SatOutcome o =
        sat_logged(prob, P, "", static_cast<std::int64_t>(budget * 2e5), stop, pl, periodic::SatHint::None);
    if (o == SatOutcome::Sat) {
      best = std::move(pl);
      best_period = P;
    }
    return o;
  };
  // Slot sums refute the bound for minimal routes only: with P = N - 1 a schedule needs the hops
  // minus one to add up to a multiple of P, which detours (two hops more, or the long way round an
  // odd ring) can make. One SAT call on the bound with them (tori k = 5, 6, 7; the hypercubes have
  // their own construction, above).
  // A packing found at the bound replaces the search's: the problem it packs (per message when
  // `per_message`) and its placements.
  const auto adopt = [&](periodic::Problem packed, std::vector<periodic::Placement> placed, bool per_message) {
    prob = std::move(packed);
    best = std::move(placed);
    best_period = bound;
    node_level = per_message;
    if (!per_message) out.translation_invariant = true;
  };
  // Nothing at the bound yet (0: --algo exact, before its first SAT period).
  const auto open_at_bound = [&] { return best_period == 0 || best_period > bound; };
  // Per message, detours where they help, at the bound (up to 16 nodes; try_detours says why).
  const auto try_node_detours = [&] {
    if (t.nodes() > kDetourNodes || r.translation_invariant_only) return;
    periodic::Problem node = periodic::node_problem(t, nic, true, true);
    if (auto q = periodic::half_translation_quotient(t, node, nic)) {
      std::vector<periodic::Placement> pl;
      // Its own safety stop (the run's allowance again): the translation-invariant calls before
      // it may have spent the run's, and its conflicts bound it (torus:4x4: about 3 s).
      const auto stop = std::max(end, Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                         std::chrono::duration<double>(budget * 3 + 5)));
      const SatOutcome o = sat_logged(q->quotient, bound, " per message with detours, symmetric under half-ring translations",
                                      static_cast<std::int64_t>(budget * 2e5), stop, pl, periodic::SatHint::LikelySat);
      if (o == SatOutcome::Sat) {
        auto [unfolded, placed] = periodic::orbit_unfold(t, node, *q, pl, bound, nic);
        adopt(std::move(unfolded), std::move(placed), true);
      }
    }
  };
  const auto try_detours = [&] {
    if (ti_applies && nic && algo != "greedy" && open_at_bound() &&
        std::find(slot_sum_refuted.begin(), slot_sum_refuted.end(), bound) != slot_sum_refuted.end()) {
      const auto& f = t.factors();
      const bool cube4 = f.size() == 4 && std::all_of(f.begin(), f.end(), [](const Factor& x) { return x.size == 2; });
      if (cube4)
        out.log.push_back("translation-invariant detours skipped: no translation-invariant schedule of period 15 "
                          "exists on the 4-cube (each dimension would need 15 hops, an odd number; docs/periodic.md)");
      periodic::Problem with = periodic::translation_invariant_problem(t, nic, true);
      // First the quarter-turn quotient (k x k, k odd, 4 | P): a quarter of the items and one link
      // track, which CaDiCaL settles where the full model stays unknown (torus:7x7 at 48).
      if (auto q = periodic::quarter_turn_quotient(t, with, bound, nic)) {
        std::vector<periodic::Placement> pl;
        const SatOutcome o = sat_logged(q->quotient, bound, " with detours, quarter-turn symmetric",
                                        static_cast<std::int64_t>(budget * 2e5), end, pl, periodic::SatHint::LikelySat);
        if (o == SatOutcome::Sat) {
          auto [unfolded, placed] = periodic::quarter_turn_unfold(with, *q, pl, bound, nic);
          adopt(std::move(unfolded), std::move(placed), false);
        }
      }
      const double left = std::chrono::duration<double>(end - Clock::now()).count();
      if (open_at_bound() && !cube4 && candidate_vars(with, bound) <= kMaxSatVars && left > 0.05) {
        std::vector<periodic::Placement> pl;
        // A tenth of the packing's conflicts (deterministic; the wall clock only as the safety stop):
        // torus:4x4 stays unknown and would otherwise spend seconds here.
        const SatOutcome o = sat_logged(with, bound, " with detours", static_cast<std::int64_t>(budget * 2e4), end, pl,
                                        periodic::SatHint::None);
        if (o == SatOutcome::Sat) adopt(std::move(with), std::move(pl), false);
      }
      // Not translation-invariant: per message, detours where they help. Slot sums need few of
      // them (torus:4x4 and hypercube:4: 14 of 240 messages two hops longer, where a
      // translation-invariant schedule needs one per offset at every node and fills every link),
      // so CaDiCaL finds period N - 1 where the translation-invariant models are unknown.
      // The search is the quotient by the translations by half of two rings (a quarter of the
      // items; its detours come in fours, 44 on torus:4x4, still far from filling the links).
      if (open_at_bound()) try_node_detours();
    }
  };
  // Meshes: first the mirror quotient at the bound (a quarter of the items on a 2-D mesh of even
  // sides), which CaDiCaL settles where the per-message model stays unknown (docs/periodic.md).
  // Dimension-ordered routes (XY and YX): mesh:6x6's quotient has 58 k variables with them.
  const auto try_mesh_mirrors = [&] {
    if (ti || algo == "greedy" || !open_at_bound()) return;
    // Small quotients only: mesh:6x6's (58 k variables) is SAT in about 26 s; mesh:8x8's at 130
    // (465 k) stayed unknown after 255 s, mesh:7x7's half turn (344 k) after 73 s, time the
    // per-message search below uses better. Not built at all where even a group of four and one
    // route per message would pass it eight times (mesh:16x16: 33 M).
    constexpr std::int64_t kMaxQuotientVars = 100'000;
    const auto messages = static_cast<std::int64_t>(t.nodes()) * (t.nodes() - 1);
    if (messages / 4 * bound > 8 * kMaxQuotientVars) return;
    periodic::Problem xy = periodic::node_problem(t, nic, false);
    auto q = periodic::mesh_mirror_quotient(t, xy, bound, nic);
    if (!q) return;
    const double left = std::chrono::duration<double>(end - Clock::now()).count();
    if (candidate_vars(q->quotient, bound) > kMaxQuotientVars || left <= 0.05) return;
    std::vector<periodic::Placement> pl;
    // At least 45 s (three quarters of the run's time when that is more): a small mesh at its
    // bound is worth it (mesh:6x6: 26 s), and the conflicts bound it; the wall clock is the
    // safety stop.
    const auto stop =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::max(left * 0.75, 45.0)));
    const std::string group = q->shift[1] != 0 ? "the half turn" : "the mirrors of the even sides";
    const SatOutcome o = sat_logged(q->quotient, bound, ", symmetric under " + group,
                                    static_cast<std::int64_t>(budget * 5e6), stop, pl, periodic::SatHint::LikelySat);
    if (o != SatOutcome::Sat) return;
    auto [unfolded, placed] = periodic::orbit_unfold(t, xy, *q, pl, bound, nic);
    adopt(std::move(unfolded), std::move(placed), true);
  };
  std::vector<SatOutcome> at_period;  // index P - bound: what is known of period P
  std::vector<int> every_route_unsat;  // periods no schedule has, whatever its routes
  constexpr std::int64_t kMaxEveryRouteVars = 2'000'000;
  const auto try_every_route = [&](int P) -> SatOutcome {
    const std::int64_t vars = periodic::every_route_vars(t, P);
    if (vars > kMaxEveryRouteVars) {
      out.log.push_back("SAT period " + std::to_string(P) + " with every route: skipped (" + std::to_string(vars) +
                        " crossing variables, more than " + std::to_string(kMaxEveryRouteVars) + ")");
      return SatOutcome::Unknown;
    }
    const auto s0 = Clock::now();
    const auto stop = std::max(end, s0 + std::chrono::seconds(1));
    stage("SAT on period " + std::to_string(P) + " with every route (time-expanded), stopped after " +
              std::to_string(static_cast<std::int64_t>(budget * 2e5)) + " conflicts",
          std::chrono::duration<double>(stop - s0).count());
    periodic::Problem packed;
    std::vector<periodic::Placement> placed;
    std::int64_t used_vars = 0;
    const SatOutcome o = periodic::every_route_sat(t, P, static_cast<std::int64_t>(budget * 2e5), stop, packed, placed, &used_vars);
    out.log.push_back("SAT period " + std::to_string(P) + " with every route: " + sat_result(o, used_vars, s0));
    if (o == SatOutcome::Sat) {
      prob = std::move(packed);
      best = std::move(placed);
      best_period = P;
      node_level = true;
    } else if (o == SatOutcome::Unsat) {
      every_route_unsat.push_back(P);
    }
    return o;
  };
  if (algo == "exact") {
    // Period by period from the bound: the first SAT is optimal for the model searched when all
    // below were UNSAT.
    // A period left unknown (budget) is passed over: the schedule found above it is then not proven.
    // Up to the local search's period: that one is then optimal if all below are UNSAT.
    // Where minimal routes do not make period P, the every-route model (nic) decides it for any
    // routes: a detour may make it (torus:3x3 at 8), or nothing does (a proof for every schedule).
    for (int P = bound; best_period == 0 && P < greedy_period; ++P) {
      const SatOutcome o = try_period(P, 0.5);
      at_period.push_back(o);
      if (o == SatOutcome::Sat) break;
      if (P == bound && nic) {  // auto's detour and symmetric searches first: seconds where they apply
        try_detours();            // tori: translation-invariant, then per message (torus:3x4 11, 4x4 15)
        if (!ti_applies && best_period != bound) try_node_detours();
        if (best_period != bound) try_mesh_mirrors();  // mesh:4x4 16
        if (best_period == bound) break;
      }
      if (nic && try_every_route(P) == SatOutcome::Sat) break;
      if (o == SatOutcome::Unknown && std::chrono::duration<double>(end - Clock::now()).count() < 0.1) break;
    }
    if (best_period == 0) {  // none below the local search's period
      best = std::move(greedy_best);
      best_period = greedy_period;
      if (greedy_period > bound)
        out.log.push_back("exact: no period below " + std::to_string(best_period) + " found within the budget; the local search's kept");
    }
  } else if (algo != "greedy" && best_period > bound) {
    at_period.assign(static_cast<std::size_t>(best_period - bound), SatOutcome::Unknown);
    auto known = [&](int P) { return at_period[static_cast<std::size_t>(P - bound)]; };
    // The bound first (a quarter of the time; the period above it when slot sums refute it).
    // Per message, the local search before SAT: it reaches the bound in milliseconds where SAT on
    // the bound stays unknown for seconds and gigabytes (mesh:3x12: 108 by the local search in
    // 0.5 s; SAT at 108, 1.9 M variables, unknown after 20 s and 4.8 GB).
    try_mesh_mirrors();
    if (!ti) local_search_down([](int) { return false; });
    if (best_period > bound) at_period[0] = try_period(bound, 0.5);
    try_detours();  // before bound + 1: where it finds the bound, the search below has nothing left to do
    if (at_period[0] == SatOutcome::Unsat && best_period > bound + 1) at_period[1] = try_period(bound + 1, 0.4);
    if (ti) local_search_down([&](int P) { return known(P) == SatOutcome::Unsat; });
    // SAT down from there while SAT.
    for (int P = best_period - 1; best_period > bound && P > bound; --P) {
      if (known(P) != SatOutcome::Unknown) continue;
      const SatOutcome o = try_period(P, 0.5);
      at_period[static_cast<std::size_t>(P - bound)] = o;
      if (o != SatOutcome::Sat) break;
    }
    // Below a proven-infeasible period, the periods not yet decided (for an optimality proof).
    if (best_period > bound && known(best_period - 1) == SatOutcome::Unsat)
      for (int P = best_period - 2; P > bound; --P)
        if (known(P) == SatOutcome::Unknown) {
          at_period[static_cast<std::size_t>(P - bound)] = try_period(P, 0.5);
          if (known(P) != SatOutcome::Unsat) break;
        }
  }
  bool all_unsat_below = best_period > bound;
  for (int P = bound; P < best_period; ++P)
    all_unsat_below = all_unsat_below && static_cast<std::size_t>(P - bound) < at_period.size() &&
                      at_period[static_cast<std::size_t>(P - bound)] == SatOutcome::Unsat;
  if (product.period > 0 && product.period < best_period)
    return constructed(std::move(product.patterns), "periodic-product", product.period);
  if (node_level && ti) {  // the per-message detour search replaced the translation-invariant packing
    out.translation_invariant = false;
    out.algorithm = "periodic-node";
  }
  out.schedule = !node_level ? periodic::expand_translation_invariant(t, m, prob, best, best_period)
                             : periodic::expand_node(t, m, prob, best, best_period);
  out.schedule.algorithm = out.algorithm;
  prove_if_at_bound(best_period);
  if (best_period > bound && static_cast<int>(every_route_unsat.size()) == best_period - bound) {
    out.proven_optimal = true;
    out.proof_general = true;
    out.proof_scope = "general";
    out.proof = "optimal: periods " + std::to_string(bound) + ".." + std::to_string(best_period - 1) +
                " are infeasible for every route (the time-expanded SAT model with any walk per message is UNSAT)";
  } else if (all_unsat_below && static_cast<int>(slot_sum_refuted.size()) == best_period - bound) {
    // Every period below refuted by slot sums, which hold for any schedule whose routes are minimal.
    out.proven_optimal = true;
    out.proof_scope = "minimal routes";
    out.proof = "optimal among schedules with minimal routes: periods " + std::to_string(bound) + ".." +
                std::to_string(best_period - 1) + " are infeasible for them by the slot-sum argument (with P = N-1 " +
                "every slot injects and ejects once per node, so the hops minus one must sum to 0 mod P); the period " +
                "bound " + std::to_string(bound) + " is not reached";
  } else if (all_unsat_below) {
    out.proven_optimal = true;
    out.proof_scope = "model searched";
    out.proof = "optimal among " + model_searched + ": periods " + std::to_string(bound) + ".." +
                std::to_string(best_period - 1) + " infeasible (the period bound " + std::to_string(bound) +
                " is not reached; the proof holds for that model only)";
  }
  return out;
}

}  // namespace totex
