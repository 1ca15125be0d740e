// SPDX-License-Identifier: Apache-2.0
#include "cube_compaction.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "totex/splitmix.hpp"

namespace totex {
namespace {

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

constexpr std::int64_t kInf = std::numeric_limits<std::int64_t>::max() / 4;
/// Re-insertions a length may take before it is given up, and the tries (from the last length
/// reached, other random choices) before the pass stops: past these the queue rarely empties.
constexpr std::int64_t kMovesPerTry = 4000;
constexpr int kTries = 10;

/// Who holds each link class, start and end step (-1: nobody).
struct Board {
  std::array<std::vector<int>, 6> cell;
  std::vector<int> inject, eject;
  explicit Board(std::int64_t steps) {
    for (auto& c : cell) c.assign(at(steps + 1), -1);
    inject.assign(at(steps + 1), -1);
    eject.assign(at(steps + 1), -1);
  }
  void set(const CubeRoute& r, int who) {
    for (std::size_t j = 0; j < r.classes.size(); ++j) cell[at(r.classes[j])][at(r.start) + j] = who;
    inject[at(r.start)] = who;
    eject[at(r.start) + r.classes.size()] = who;
  }
};

std::int64_t end_of(const CubeRoute& r) { return r.start + static_cast<std::int64_t>(r.classes.size()); }

std::int64_t length_of(const std::vector<CubeRoute>& routes) {
  std::int64_t t = 0;
  for (const CubeRoute& r : routes) t = std::max(t, end_of(r));
  return t;
}

struct Rng {
  std::uint64_t s;
  std::uint64_t next() { return splitmix64(s); }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
};

/// The link classes a minimal route for v may use per dimension: one, or both where v_d = k/2.
std::vector<std::array<int, 3>> sign_choices(const std::array<int, 3>& v, int k) {
  std::vector<std::array<int, 3>> out{{0, 1, 2}};
  for (int d = 0; d < 3; ++d) {
    const int a = v[at(d)], b = k - v[at(d)];
    if (a == 0) continue;
    if (a < b) continue;  // positive: class d, as set
    if (a > b) {
      for (auto& c : out) c[at(d)] = d + 3;
      continue;
    }
    const std::size_t n = out.size();
    for (std::size_t i = 0; i < n; ++i) {
      auto c = out[i];
      c[at(d)] = d + 3;
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

std::int64_t compact_cube_tail(int k, std::vector<CubeRoute>& routes, std::int64_t work_limit, std::uint64_t seed,
                               std::string& note) {
  const std::int64_t t0 = length_of(routes);
  std::int64_t work = 0;
  Rng rng{seed};
  Board board(t0);
  for (std::size_t i = 0; i < routes.size(); ++i) board.set(routes[i], static_cast<int>(i));
  std::vector<std::int64_t> tabu_until(routes.size(), 0);
  std::int64_t iteration = 0;

  // Moves a route needs per dimension, and its sign choices, fixed per offset.
  std::vector<std::array<int, 3>> need(routes.size());
  std::vector<std::vector<std::array<int, 3>>> signs(routes.size());
  for (std::size_t i = 0; i < routes.size(); ++i) {
    for (int d = 0; d < 3; ++d) need[i][at(d)] = std::min(routes[i].v[at(d)], k - routes[i].v[at(d)]);
    signs[i] = sign_choices(routes[i].v, k);
  }

  // Cost of taking a cell (or a start or end step) held by `who`: 0 if free, kInf under tabu, else
  // 1 + its moves / 4, so that short routes, which find a new place easily, are displaced first (a
  // flat 1 per cell stalled torus:10x10x10 at 1320 where this reaches 1296).
  const auto cost_of = [&](int who) -> std::int64_t {
    if (who < 0) return 0;
    if (tabu_until[at(who)] > iteration) return kInf;
    return 1 + static_cast<std::int64_t>(routes[at(who)].classes.size()) / 4;
  };
  std::vector<std::int64_t> dp;
  std::array<std::vector<std::int64_t>, 3> step_cost;  // per class of the route: the cost of each of its steps
  // The cheapest route for `r` that ends by `limit`; fills `best_classes`, returns its cost and start.
  const auto best_placement = [&](int r, std::int64_t limit, std::vector<int>& best_classes) {
    const auto& nd = need[at(r)];
    const int len = nd[0] + nd[1] + nd[2], ny = nd[1] + 1, nz = nd[2] + 1, states = (nd[0] + 1) * ny * nz;
    dp.assign(at(states), 0);
    std::int64_t best = kInf, best_start = -1;
    std::size_t best_sign = 0;
    std::uint64_t ties = 0;
    for (auto& c : step_cost) c.resize(at(len));
    // The cheapest cost of a route from step s on the classes cls, by time layers (moves made), so
    // that a start is dropped as soon as every partial route costs more than `cap`: most starts in
    // a dense schedule are, within a few layers.
    const auto run = [&](std::int64_t s, const std::array<int, 3>& cls, std::int64_t cap) {
      work += len;  // for the step costs, read layer by layer (a dropped start reads few)
      dp[0] = 0;
      for (int l = 1; l <= len; ++l) {
        std::int64_t layer_min = kInf;
        const auto p = at(l - 1);
        for (int j = 0; j < 3; ++j)
          if (nd[at(j)] > 0) step_cost[at(j)][p] = cost_of(board.cell[at(cls[at(j)])][at(s) + p]);
        for (int x = std::max(0, l - nd[1] - nd[2]); x <= std::min(nd[0], l); ++x)
          for (int y = std::max(0, l - x - nd[2]); y <= std::min(nd[1], l - x); ++y) {
            const int z = l - x - y, i = (x * ny + y) * nz + z;
            std::int64_t c = kInf;
            if (x > 0) c = std::min(c, dp[at(i - ny * nz)] + step_cost[0][p]);
            if (y > 0) c = std::min(c, dp[at(i - nz)] + step_cost[1][p]);
            if (z > 0) c = std::min(c, dp[at(i - 1)] + step_cost[2][p]);
            dp[at(i)] = std::min(c, kInf);
            layer_min = std::min(layer_min, dp[at(i)]);
            ++work;
          }
        if (layer_min > cap) return kInf;
      }
      return dp[at(states - 1)];
    };
    for (std::int64_t s = 0; s + len <= limit && best > 0; ++s) {
      const std::int64_t ends = cost_of(board.inject[at(s)]) + cost_of(board.eject[at(s + len)]);
      if (ends >= kInf || ends > best) continue;
      for (std::size_t si = 0; si < signs[at(r)].size(); ++si) {
        const std::int64_t c = ends + run(s, signs[at(r)][si], best - ends);
        if (c > best) continue;
        if (c < best) {
          best = c;
          ties = 0;
        }
        if (rng.below(++ties) == 0) {  // a random one of the cheapest
          best_start = s;
          best_sign = si;
        }
        if (best == 0) break;  // the earliest free route: nothing to displace
      }
    }
    if (best_start < 0) return std::make_pair(kInf, best_start);
    const auto& cls = signs[at(r)][best_sign];
    run(best_start, cls, kInf);
    best_classes.assign(at(len), 0);
    for (int x = nd[0], y = nd[1], z = nd[2]; x + y + z > 0;) {  // walk back along a cheapest path
      const int i = (x * ny + y) * nz + z;
      const std::size_t pos = at(x + y + z - 1);
      if (x > 0 && dp[at(i - ny * nz)] + step_cost[0][pos] == dp[at(i)]) {
        best_classes[pos] = cls[0];
        --x;
      } else if (y > 0 && dp[at(i - nz)] + step_cost[1][pos] == dp[at(i)]) {
        best_classes[pos] = cls[1];
        --y;
      } else {
        best_classes[pos] = cls[2];
        --z;
      }
    }
    return std::make_pair(best, best_start);
  };

  const auto unset = [&](int who) {
    const CubeRoute& r = routes[at(who)];
    for (std::size_t j = 0; j < r.classes.size(); ++j) board.cell[at(r.classes[j])][at(r.start) + j] = -1;
    board.inject[at(r.start)] = -1;
    board.eject[at(end_of(r))] = -1;
  };

  // Re-inserts the queue, longest first, every route ending by `limit`; a displaced route joins the
  // queue. Returns whether it emptied within kMovesPerTry re-insertions.
  const auto repair = [&](std::vector<int>& queue, std::int64_t limit) {
    std::int64_t moves = 0;
    while (!queue.empty() && moves < kMovesPerTry && work < work_limit) {
      ++moves;
      ++iteration;
      std::size_t pick = 0;
      for (std::size_t q = 1; q < queue.size(); ++q)
        if (routes[at(queue[q])].classes.size() > routes[at(queue[pick])].classes.size()) pick = q;
      const int r = queue[pick];
      queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(pick));
      std::vector<int> classes;
      const std::int64_t start = best_placement(r, limit, classes).second;
      if (start < 0) {  // every place held under tabu: try again after others moved
        queue.push_back(r);
        continue;
      }
      // Displace the holders of what the new route takes.
      std::vector<int> out;
      const auto displace = [&](int who) {
        if (who >= 0 && std::find(out.begin(), out.end(), who) == out.end()) out.push_back(who);
      };
      displace(board.inject[at(start)]);
      displace(board.eject[at(start) + classes.size()]);
      for (std::size_t j = 0; j < classes.size(); ++j) displace(board.cell[at(classes[j])][at(start) + j]);
      for (const int who : out) {
        unset(who);
        queue.push_back(who);
      }
      routes[at(r)].start = start;
      routes[at(r)].classes = classes;
      board.set(routes[at(r)], r);
      tabu_until[at(r)] = iteration + 3 + static_cast<std::int64_t>(rng.below(8));  // not displaced at once
    }
    return queue.empty();
  };

  std::int64_t length = t0;
  int failed_tries = 0;
  while (work < work_limit) {
    const std::int64_t limit = length - 1;
    const std::vector<CubeRoute> saved = routes;
    std::vector<int> queue;  // routes out of the schedule
    for (std::size_t i = 0; i < routes.size(); ++i)
      if (end_of(routes[i]) > limit) {
        unset(static_cast<int>(i));
        queue.push_back(static_cast<int>(i));
      }
    if (!repair(queue, limit)) {  // this length not reached: back to the last one reached
      routes = saved;
      board = Board(t0);
      for (std::size_t i = 0; i < routes.size(); ++i) board.set(routes[i], static_cast<int>(i));
      if (++failed_tries >= kTries) break;
      continue;
    }
    failed_tries = 0;
    length = length_of(routes);
  }
  note = "compaction: " + std::to_string(t0) + " -> " + std::to_string(length) + " steps, " + std::to_string(work) +
         " units of work";
  return work;
}

}  // namespace totex
