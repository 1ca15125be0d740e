// SPDX-License-Identifier: Apache-2.0
// The periodic generators' parts: packings modulo the period, their problems, quotients and
// schedules (docs/periodic.md). The generators themselves: periodic.cpp (the table) and
// periodic_packing.cpp (the packing search).
#include "periodic_parts.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <stdexcept>

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

std::optional<std::vector<Placement>> greedy_pack(const Problem& p, int period, std::vector<int> order, std::int64_t* work) {
  const auto P = at(period);
  if (order.empty()) {
    order.resize(p.items.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return max_len(p.items[at(a)]) > max_len(p.items[at(b)]); });
  }
  std::vector<std::uint8_t> busy(at(p.resources) * P, 0);
  std::vector<Placement> out(p.items.size());
  std::int64_t looked = 0;
  for (int i : order) {
    const Item& it = p.items[at(i)];
    bool placed = false;
    for (std::size_t s = 0; s < P && !placed; ++s) {
      for (std::size_t c = 0; c < it.cands.size() && !placed; ++c) {
        const auto& uses = it.cands[c].uses;
        bool ok = true;
        for (const Use& u : uses) {
          ++looked;
          if (busy[at(u.res) * P + (s + at(u.offset)) % P]) {
            ok = false;
            break;
          }
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
    if (!placed) {
      if (work != nullptr) *work += looked;
      return std::nullopt;
    }
  }
  if (work != nullptr) *work += looked;
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

int local_search_descend(const Problem& p, std::vector<Placement>& best, int period, int lowest, std::int64_t work,
                         const std::function<bool(int)>& skip) {
  for (int P = period - 1; P >= lowest; --P) {
    if (skip && skip(P)) continue;
    auto ls = local_search_pack(p, P, best, work, static_cast<std::uint64_t>(P));
    if (!ls) break;
    best = std::move(*ls);
    period = P;
  }
  return period;
}

SatOutcome sat_pack(const Problem& p, int period, const SatLimit& limit, std::vector<Placement>& out,
                    std::int64_t* variables, SatHint hint, SatStats* stats) {
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
  SatStats own;
  const SatOutcome r = solve_limited(solver, limit, stats != nullptr ? *stats : own, cnf.clauses());
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
          paths_of(at(d), static_cast<std::size_t>(kMaxPathsPerMessage));
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

std::int64_t every_shortest_path_uses(const Topology& t, bool nic) {
  const int n = t.nodes();
  std::vector<int> dist(at(n));
  std::vector<std::int64_t> paths(at(n));  // shortest paths from the source, at most kMaxPathsPerMessage
  std::vector<NodeId> order;                // the nodes in the order the search reached them
  std::int64_t uses = 0;
  for (NodeId a : t.processors()) {
    std::fill(dist.begin(), dist.end(), -1);
    std::fill(paths.begin(), paths.end(), 0);
    order.assign(1, a);
    dist[at(a)] = 0;
    paths[at(a)] = 1;
    for (std::size_t i = 0; i < order.size(); ++i) {
      const NodeId v = order[i];
      for (Port pt = 0; pt < t.degree(v); ++pt) {
        const NodeId w = t.neighbor(v, pt);
        if (dist[at(w)] < 0) {
          dist[at(w)] = dist[at(v)] + 1;
          order.push_back(w);
        }
        if (dist[at(w)] == dist[at(v)] + 1) paths[at(w)] = std::min(kMaxPathsPerMessage, paths[at(w)] + paths[at(v)]);
      }
    }
    for (NodeId b = 0; b < n; ++b)
      if (dist[at(b)] > 0 && t.is_processor(b)) uses += paths[at(b)] * (dist[at(b)] + (nic ? 2 : 0));
  }
  return uses;
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

}  // namespace totex
