// SPDX-License-Identifier: Apache-2.0
#include "octant_pipelines.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "cube_compaction.hpp"
#include "pattern_schedule.hpp"
#include "product_routes.hpp"
#include "totex/error.hpp"
#include "totex/splitmix.hpp"

namespace totex {
namespace {

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

/// Walk steps (choices tried, back-tracking included) per second of --budget, measured on the
/// 2-core development machine (torus:12x12x12, eight seeds: 5.8e7 steps in 5.3 s); the budget
/// counts steps so that a schedule is the same on every machine.
constexpr double kStepsPerSecond = 1e7;
/// The compaction's units (states of its dynamic program) per second of --budget, measured on the
/// same machine beside other builds: 1.3e8 (torus:9x9x9) to 2.5e8 (torus:10x10x10) a second.
constexpr double kUnitsPerSecond = 2e8;
/// The seeds tried at most: past a handful the shortest schedule rarely changes.
constexpr int kMaxSeeds = 8;
/// Start nodes and start delays a pipeline tries, and the steps of one walk.
constexpr int kStartNodes = 30;
constexpr int kStartDelays = 30;
constexpr std::int64_t kWalkSteps = 50'000;
/// The steps a pipeline may spend on its start (a pipeline that finds no walk within them is left
/// to the first fit): this bounds one seed's work, and so the first seed's, which always runs.
constexpr std::int64_t kPipelineSteps = 3'000'000;  // two classes; three get kPipelineSteps3
constexpr std::int64_t kPipelineSteps3 = 30'000'000;

using Offset = std::array<int, 3>;
using Gaps = std::array<int, 3>;  // a tuple: the moves a route makes on each class of its pipeline

int dim_of(int c) { return c % 3; }
bool positive(int c) { return c < 3; }
int hops_of(const Offset& v, int k) { return std::min(v[0], k - v[0]) + std::min(v[1], k - v[1]) + std::min(v[2], k - v[2]); }

/// The construction's own generator (splitmix64) and shuffle, so that the schedule does not depend
/// on the standard library.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() { return splitmix64(s); }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
  }
};

struct Pipeline {
  std::vector<int> seats;  // link classes, in the order a route takes them
  std::vector<Gaps> tuples;
  [[nodiscard]] int n() const { return static_cast<int>(seats.size()); }
};

/// The eight octants, two at a time, and the twelve quadrants, three at a time: the pipelines of a
/// phase hold disjoint classes.
const std::vector<std::vector<int>> kOctants = {{0, 1, 2}, {3, 4, 5}, {1, 2, 3}, {4, 5, 0},
                                                {2, 3, 4}, {5, 0, 1}, {0, 2, 4}, {1, 3, 5}};
const std::vector<std::vector<int>> kQuadrants = {{1, 2}, {3, 4}, {5, 0}, {0, 2}, {1, 3}, {4, 5},
                                                  {2, 4}, {3, 5}, {0, 1}, {4, 0}, {5, 1}, {2, 3}};

Offset offset_of(const std::vector<int>& seats, const Gaps& g, int k) {
  Offset v{0, 0, 0};
  for (std::size_t i = 0; i < seats.size(); ++i) v[at(dim_of(seats[i]))] = positive(seats[i]) ? g[i] : k - g[i];
  return v;
}

/// A class of tuples that must go to one pipeline together: the rotations of a tuple holding k/2.
/// Rotation-closed sets keep a pipeline's graph balanced (every node as many edges in as out).
struct TieClass {
  int pipeline = 0;
  std::vector<Gaps> tuples;
  std::vector<Offset> offsets;
  double load = 0;  // moves per class of the pipeline
};

std::vector<TieClass> tie_classes(const std::vector<std::vector<int>>& pipes, int n, int k) {
  const int h = k / 2;
  std::vector<TieClass> out;
  for (std::size_t p = 0; p < pipes.size(); ++p) {
    std::vector<Gaps> seen;
    Gaps g{1, 1, 1};
    int count = 1;
    for (int i = 0; i < n; ++i) count *= h;
    for (int code = 0; code < count; ++code) {
      int c = code;
      for (int i = n - 1; i >= 0; --i) {
        g[at(i)] = c % h + 1;
        c /= h;
      }
      bool has_h = false, all_h = true;
      for (int i = 0; i < n; ++i) {
        has_h = has_h || g[at(i)] == h;
        all_h = all_h && g[at(i)] == h;
      }
      if (!has_h || all_h || std::find(seen.begin(), seen.end(), g) != seen.end()) continue;
      TieClass tc;
      tc.pipeline = static_cast<int>(p);
      Gaps r = g;
      for (int i = 0; i < n; ++i) {
        if (std::find(tc.tuples.begin(), tc.tuples.end(), r) == tc.tuples.end()) {
          tc.tuples.push_back(r);
          seen.push_back(r);
          tc.offsets.push_back(offset_of(pipes[p], r, k));
          tc.load += static_cast<double>(hops_of(tc.offsets.back(), k)) / n;
        }
        std::rotate(r.begin(), r.begin() + 1, r.begin() + n);
      }
      out.push_back(tc);
    }
  }
  return out;
}

/// Chooses tie classes covering every offset of `items` once, the pipelines of each phase as even
/// as the choice allows. Offsets in exactly two classes (one coordinate k/2) make a graph whose
/// classes are 2-coloured component by component; the rest (two coordinates k/2) by a randomised
/// first fit over the classes, the most even of 200 tries. Returns false when the graph is not
/// 2-colourable or no try covers the rest (the ties then go to the first fit of the routes).
bool balanced_cover(const std::vector<TieClass>& cls, const std::vector<Offset>& items, int k,
                    std::vector<double>& load, const std::vector<std::vector<int>>& phases, Rng& rng,
                    std::vector<int>& chosen) {
  const auto code = [k](const Offset& v) { return at((v[0] * k + v[1]) * k + v[2]); };
  std::vector<std::vector<int>> by_item(at(k * k * k));
  for (std::size_t i = 0; i < cls.size(); ++i)
    for (const Offset& v : cls[i].offsets) by_item[code(v)].push_back(static_cast<int>(i));
  std::vector<char> wanted(at(k * k * k), 0);
  for (const Offset& v : items) wanted[code(v)] = 1;
  const auto one_tie_class = [&](std::size_t i) {
    return std::all_of(cls[i].offsets.begin(), cls[i].offsets.end(),
                       [&](const Offset& v) { return wanted[code(v)] && by_item[code(v)].size() == 2; });
  };
  const auto spread = [&](const std::vector<double>& l) {
    double s = 0;
    for (const std::vector<int>& ph : phases) {
      double lo = std::numeric_limits<double>::max(), hi = 0;
      for (const int p : ph) {
        lo = std::min(lo, l[at(p)]);
        hi = std::max(hi, l[at(p)]);
      }
      s += hi - lo + 0.01 * hi;
    }
    return s;
  };
  // Components of the two-class part, each with its 2-colouring.
  std::vector<int> colour(cls.size(), -1);
  std::vector<std::vector<int>> comps;
  for (std::size_t i0 = 0; i0 < cls.size(); ++i0) {
    if (colour[i0] >= 0 || !one_tie_class(i0)) continue;
    colour[i0] = 0;
    std::vector<int> comp{static_cast<int>(i0)}, stack{static_cast<int>(i0)};
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      for (const Offset& v : cls[at(i)].offsets)
        for (const int j : by_item[code(v)]) {
          if (j == i) continue;
          if (colour[at(j)] == colour[at(i)]) return false;
          if (colour[at(j)] < 0) {
            colour[at(j)] = 1 - colour[at(i)];
            comp.push_back(j);
            stack.push_back(j);
          }
        }
    }
    comps.push_back(comp);
  }
  const auto with = [&](const std::vector<double>& l, const std::vector<int>& comp, int c) {
    std::vector<double> r = l;
    for (const int i : comp)
      if (colour[at(i)] == c) r[at(cls[at(i)].pipeline)] += cls[at(i)].load;
    return r;
  };
  std::vector<int> pick(comps.size(), 0);
  for (std::size_t ci = 0; ci < comps.size(); ++ci) {
    const std::vector<double> a = with(load, comps[ci], 0), b = with(load, comps[ci], 1);
    pick[ci] = spread(b) < spread(a) ? 1 : 0;
    load = pick[ci] ? b : a;
  }
  for (bool improved = true; improved;) {  // flip components while the phases get more even
    improved = false;
    for (std::size_t ci = 0; ci < comps.size(); ++ci) {
      std::vector<double> l = load;
      for (const int i : comps[ci]) {
        const double w = cls[at(i)].load;
        l[at(cls[at(i)].pipeline)] += colour[at(i)] == pick[ci] ? -w : w;
      }
      if (spread(l) < spread(load) - 1e-9) {
        load = l;
        pick[ci] = 1 - pick[ci];
        improved = true;
      }
    }
  }
  std::vector<char> covered(at(k * k * k), 0);
  for (std::size_t ci = 0; ci < comps.size(); ++ci)
    for (const int i : comps[ci])
      if (colour[at(i)] == pick[ci]) {
        chosen.push_back(i);
        for (const Offset& v : cls[at(i)].offsets) covered[code(v)] = 1;
      }
  std::vector<Offset> rest;
  for (const Offset& v : items)
    if (!covered[code(v)]) rest.push_back(v);
  if (rest.empty()) return true;
  // The rest: each offset by the first class in a shuffled order that still fits.
  std::vector<int> rest_cls;
  for (std::size_t i = 0; i < cls.size(); ++i)
    if (colour[i] < 0 && std::all_of(cls[i].offsets.begin(), cls[i].offsets.end(), [&](const Offset& v) {
          return wanted[code(v)] && !covered[code(v)];
        }))
      rest_cls.push_back(static_cast<int>(i));
  std::optional<std::pair<double, std::vector<int>>> best;
  for (int attempt = 0; attempt < 200; ++attempt) {
    std::vector<int> order = rest_cls;
    rng.shuffle(order);
    std::vector<char> cov = covered;
    std::vector<int> pickd;
    bool ok = true;
    for (const Offset& v : rest) {  // first class that fits, in the shuffled order
      if (cov[code(v)]) continue;
      bool found = false;
      for (const int i : order) {
        const auto& offs = cls[at(i)].offsets;
        if (std::find(offs.begin(), offs.end(), v) == offs.end()) continue;
        if (std::any_of(offs.begin(), offs.end(), [&](const Offset& w) { return cov[code(w)] != 0; })) continue;
        for (const Offset& w : offs) cov[code(w)] = 1;
        pickd.push_back(i);
        found = true;
        break;
      }
      if (!found) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    std::vector<double> l = load;
    for (const int i : pickd) l[at(cls[at(i)].pipeline)] += cls[at(i)].load;
    if (!best || spread(l) < best->first) best = std::make_pair(spread(l), pickd);
  }
  if (!best) return false;
  for (const int i : best->second) load[at(cls[at(i)].pipeline)] += cls[at(i)].load;
  chosen.insert(chosen.end(), best->second.begin(), best->second.end());
  return true;
}

/// What the placed routes hold: link classes per step, and the steps in which a route starts and
/// in which one has ended (the step after its last move).
struct Occupancy {
  std::array<std::vector<char>, 6> busy;
  std::vector<char> inject, eject;
  void reserve(std::int64_t steps) {
    if (at(steps) <= inject.size()) return;
    const std::size_t n = std::max(at(steps), inject.size() * 2);
    for (auto& b : busy) b.resize(n, 0);
    inject.resize(n, 0);
    eject.resize(n, 0);
  }
  [[nodiscard]] bool injects(std::int64_t t) { reserve(t + 1); return inject[at(t)] != 0; }
  [[nodiscard]] bool ejects(std::int64_t t) { reserve(t + 1); return eject[at(t)] != 0; }
};

using PlacedRoute = CubeRoute;

/// A minimal route for v whose hop j is free in step s + j: every sign of a k/2 coordinate and
/// every interleaving, by a dynamic program over the moves made per dimension. Empty if none.
bool fit_word(Occupancy& occ, const Offset& v, int k, std::int64_t s, std::vector<int>& word) {
  std::array<int, 3> need{};
  for (int d = 0; d < 3; ++d) need[at(d)] = std::min(v[at(d)], k - v[at(d)]);
  const int ny = need[1] + 1, nz = need[2] + 1, states = (need[0] + 1) * ny * nz;
  for (int signs = 0; signs < 8; ++signs) {
    std::array<int, 3> cls{};
    bool ok = true;
    for (int d = 0; d < 3; ++d) {
      const bool neg = (signs >> d) & 1;
      if (2 * v[at(d)] != k && neg != (v[at(d)] > k - v[at(d)])) ok = false;  // only k/2 has two signs
      if (need[at(d)] == 0 && neg) ok = false;
      cls[at(d)] = neg ? d + 3 : d;
    }
    if (!ok) continue;
    std::vector<char> reach(at(states), 0);
    reach[0] = 1;
    for (int x = 0; x <= need[0]; ++x)
      for (int y = 0; y <= need[1]; ++y)
        for (int z = 0; z <= need[2]; ++z) {
          const int i = (x * ny + y) * nz + z;
          if (i == 0) continue;
          const std::size_t step = at(s + x + y + z - 1);
          reach[at(i)] = static_cast<char>((x > 0 && reach[at(i - ny * nz)] && !occ.busy[at(cls[0])][step]) ||
                                           (y > 0 && reach[at(i - nz)] && !occ.busy[at(cls[1])][step]) ||
                                           (z > 0 && reach[at(i - 1)] && !occ.busy[at(cls[2])][step]));
        }
    if (!reach[at(states - 1)]) continue;
    word.assign(at(need[0] + need[1] + need[2]), 0);
    for (int x = need[0], y = need[1], z = need[2]; x + y + z > 0;) {  // walk back
      const int i = (x * ny + y) * nz + z;
      const std::size_t pos = at(x + y + z - 1), step = at(s) + pos;
      if (x > 0 && reach[at(i - ny * nz)] && !occ.busy[at(cls[0])][step]) {
        word[pos] = cls[0];
        --x;
      } else if (y > 0 && reach[at(i - nz)] && !occ.busy[at(cls[1])][step]) {
        word[pos] = cls[1];
        --y;
      } else {
        word[pos] = cls[2];
        --z;
      }
    }
    return true;
  }
  return false;
}

/// Node of a pipeline's graph: the last n - 1 gaps, as an index.
int node_index(const int* g, int n, int base) {
  int x = 0;
  for (int i = 0; i < n - 1; ++i) x = x * base + g[i];
  return x;
}

/// An Eulerian walk over p.tuples from `root` (n - 1 gaps) with its first push in step t0, no push
/// in a step where a placed route starts (for a start) or has ended (for an end). Returns the gaps,
/// or nothing within `steps_left` steps.
std::optional<std::vector<int>> euler_walk(const Pipeline& p, const std::vector<int>& root, std::int64_t t0,
                                           Occupancy& occ, int base, Rng& rng, std::int64_t& work,
                                           std::int64_t steps_left) {
  const int n = p.n();
  const auto total = static_cast<std::int64_t>(p.tuples.size());
  int nodes = 1;
  for (int i = 0; i < n - 1; ++i) nodes *= base;
  std::vector<std::vector<int>> out(at(nodes)), in(at(nodes));
  for (std::size_t e = 0; e < p.tuples.size(); ++e) {
    out[at(node_index(p.tuples[e].data(), n, base))].push_back(static_cast<int>(e));
    in[at(node_index(p.tuples[e].data() + 1, n, base))].push_back(static_cast<int>(e));
  }
  // Last exits: an in-tree toward the root (breadth first over reversed edges, shuffled).
  const int root_node = node_index(root.data(), n, base);
  std::vector<int> last(at(nodes), -1);
  std::vector<char> seen(at(nodes), 0);
  seen[at(root_node)] = 1;
  std::vector<int> queue{root_node};
  for (std::size_t qi = 0; qi < queue.size(); ++qi) {
    std::vector<int> es = in[at(queue[qi])];
    rng.shuffle(es);
    for (const int e : es) {
      const int u = node_index(p.tuples[at(e)].data(), n, base);
      if (seen[at(u)]) continue;
      seen[at(u)] = 1;
      last[at(u)] = e;
      queue.push_back(u);
    }
  }
  for (int u = 0; u < nodes; ++u)
    if (!out[at(u)].empty() && !seen[at(u)]) return std::nullopt;  // not connected
  std::vector<int> gaps = root;
  std::vector<std::int64_t> T{t0};
  for (const int g : gaps) T.push_back(T.back() + g);
  for (std::size_t j = 0; j < T.size(); ++j)
    if (occ.injects(T[j])) return std::nullopt;  // the first pushes are starts only
  std::vector<int> remaining(at(nodes));
  for (int u = 0; u < nodes; ++u) remaining[at(u)] = static_cast<int>(out[at(u)].size());
  std::vector<char> used(p.tuples.size(), 0);
  struct Frame {
    int node;
    std::vector<int> options;  // edges, in the order tried
    std::size_t index;
  };
  std::vector<Frame> stack;
  std::int64_t done = 0, steps = 0;
  const auto options_at = [&](int u) {
    std::vector<int> avail;
    for (const int e : out[at(u)])
      if (!used[at(e)]) avail.push_back(e);
    if (last[at(u)] >= 0 && avail.size() > 1)  // the last exit waits until nothing else is left
      avail.erase(std::remove(avail.begin(), avail.end(), last[at(u)]), avail.end());
    // Push j starts tuple j (j < total) and ends tuple j - n (j >= n).
    const std::int64_t j = static_cast<std::int64_t>(T.size());
    std::vector<std::pair<double, int>> scored;
    for (const int e : avail) {
      const int g = p.tuples[at(e)][at(n - 1)];
      const std::int64_t t = T.back() + g;
      if ((j < total && occ.injects(t)) || (j >= n && occ.ejects(t))) continue;
      const int v = node_index(p.tuples[at(e)].data() + 1, n, base);
      // finish nodes early: the forced last exits then come one at a time, not as a long tail
      const double r = static_cast<double>(rng.next() % 3000) / 1000.0;
      scored.emplace_back(remaining[at(v)] - (v == u ? 1 : 0) + r, e);
    }
    std::sort(scored.begin(), scored.end());
    std::vector<int> es;
    for (const auto& s : scored) es.push_back(s.second);
    return es;
  };
  const auto take = [&](int u, int e) {
    const int g = p.tuples[at(e)][at(n - 1)];
    gaps.push_back(g);
    T.push_back(T.back() + g);
    used[at(e)] = 1;
    --remaining[at(u)];
    ++done;
  };
  const auto untake = [&](int u, int e) {
    gaps.pop_back();
    T.pop_back();
    used[at(e)] = 0;
    ++remaining[at(u)];
    --done;
  };
  while (done < total) {
    if (++steps > steps_left) {
      work += steps;
      return std::nullopt;
    }
    const int u = node_index(gaps.data() + gaps.size() - at(n - 1), n, base);
    std::vector<int> es = options_at(u);
    if (!es.empty()) {
      take(u, es[0]);
      stack.push_back({u, std::move(es), 0});
      continue;
    }
    bool resumed = false;
    while (!stack.empty() && !resumed) {  // back-track to the last choice with an untried edge
      Frame& f = stack.back();
      untake(f.node, f.options[f.index]);
      if (++f.index < f.options.size()) {
        take(f.node, f.options[f.index]);
        resumed = true;
      } else {
        stack.pop_back();
      }
    }
    if (!resumed) {
      work += steps;
      return std::nullopt;
    }
  }
  work += steps;
  return gaps;
}

struct Build {
  std::vector<PlacedRoute> routes;
  std::int64_t steps = 0;
  int walked = 0, left_over = 0;
};

/// One whole construction with this seed; nothing when the work ran out.
std::optional<Build> build(int k, Rng rng, std::int64_t& work, std::int64_t work_limit) {
  const int h = k / 2, even = k % 2 == 0 ? 1 : 0, base_max = (k - 1) / 2, base = h + 1;
  std::vector<Pipeline> oct(kOctants.size()), quad(kQuadrants.size());
  std::vector<char> owned(at(k * k * k), 0);
  const auto code = [k](const Offset& v) { return at((v[0] * k + v[1]) * k + v[2]); };
  for (std::size_t o = 0; o < oct.size(); ++o) {
    oct[o].seats = kOctants[o];
    for (int a = 1; a <= base_max; ++a)
      for (int b = 1; b <= base_max; ++b)
        for (int c = 1; c <= base_max; ++c) {
          oct[o].tuples.push_back({a, b, c});
          owned[code(offset_of(oct[o].seats, {a, b, c}, k))] = 1;
        }
  }
  for (std::size_t q = 0; q < quad.size(); ++q) {
    quad[q].seats = kQuadrants[q];
    for (int a = 1; a <= base_max; ++a)
      for (int b = 1; b <= base_max; ++b) {
        quad[q].tuples.push_back({a, b, 0});
        owned[code(offset_of(quad[q].seats, {a, b, 0}, k))] = 1;
      }
  }
  const std::vector<std::vector<int>> phases3 = {{0, 1}, {2, 3}, {4, 5}, {6, 7}};
  const std::vector<std::vector<int>> phases2 = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}};
  if (even) {  // the offsets with a coordinate k/2: either sign, shared out evenly
    for (int n = 3; n >= 2; --n) {
      std::vector<Pipeline>& pipes = n == 3 ? oct : quad;
      const std::vector<TieClass> cls = tie_classes(n == 3 ? kOctants : kQuadrants, n, k);
      std::vector<Offset> items;
      for (int x = 0; x < k; ++x)
        for (int y = 0; y < k; ++y)
          for (int z = 0; z < k; ++z) {
            const Offset v{x, y, z};
            const int nonzero = (x != 0) + (y != 0) + (z != 0);
            const int ties = (x == h) + (y == h) + (z == h);
            if (nonzero == n && ties >= 1 && ties < n) items.push_back(v);
          }
      std::vector<double> load(pipes.size());
      for (std::size_t p = 0; p < pipes.size(); ++p)
        for (const Gaps& g : pipes[p].tuples) load[p] += static_cast<double>(hops_of(offset_of(pipes[p].seats, g, k), k)) / n;
      std::vector<int> chosen;
      if (!balanced_cover(cls, items, k, load, n == 3 ? phases3 : phases2, rng, chosen)) continue;  // left to first fit
      for (const int i : chosen) {
        const TieClass& tc = cls[at(i)];
        for (std::size_t j = 0; j < tc.tuples.size(); ++j) {
          pipes[at(tc.pipeline)].tuples.push_back(tc.tuples[j]);
          owned[code(tc.offsets[j])] = 1;
        }
      }
    }
  }
  Build b;
  std::vector<Offset> left;  // for the first fit
  Occupancy occ;
  std::array<std::int64_t, 6> free_at{};
  const auto place = [&](Pipeline& p) {
    const int n = p.n();
    // Tuples whose nodes the walk cannot reach from the main part (a class of ties alone) go left.
    {
      std::vector<int> parent(at(base * base));
      std::iota(parent.begin(), parent.end(), 0);
      const auto find = [&](int x) {
        while (parent[at(x)] != x) x = parent[at(x)] = parent[at(parent[at(x)])];
        return x;
      };
      for (const Gaps& g : p.tuples) parent[at(find(node_index(g.data(), n, base)))] = find(node_index(g.data() + 1, n, base));
      const int main_root = find(node_index(std::vector<int>(3, 1).data(), n, base));
      std::vector<Gaps> keep;
      for (const Gaps& g : p.tuples) {
        if (find(node_index(g.data(), n, base)) == main_root) keep.push_back(g);
        else left.push_back(offset_of(p.seats, g, k));
      }
      p.tuples = keep;
    }
    std::vector<std::vector<int>> roots;
    for (const Gaps& g : p.tuples) {
      std::vector<int> r(g.begin(), g.begin() + n - 1);
      if (std::find(roots.begin(), roots.end(), r) == roots.end()) roots.push_back(r);
    }
    rng.shuffle(roots);
    if (roots.size() > at(kStartNodes)) roots.resize(at(kStartNodes));
    std::optional<std::pair<std::int64_t, std::vector<int>>> best;
    const std::int64_t work0 = work;
    for (int delay = 0; delay < kStartDelays && !best && work - work0 < (n == 3 ? kPipelineSteps3 : kPipelineSteps); ++delay)
      for (const std::vector<int>& r : roots) {
        if (work > work_limit) return false;
        std::int64_t t0 = 0, prefix = 0;
        for (int i = 0; i < n; ++i) {
          t0 = std::max(t0, free_at[at(p.seats[at(i)])] - prefix);
          if (i < n - 1) prefix += r[at(i)];
        }
        t0 += delay;
        occ.reserve(t0 + 64 * k);
        auto gaps = euler_walk(p, r, t0, occ, base, rng, work, kWalkSteps);
        if (gaps && (!best || t0 < best->first)) best = std::make_pair(t0, std::move(*gaps));
      }
    if (!best) {
      for (const Gaps& g : p.tuples) left.push_back(offset_of(p.seats, g, k));
      return true;
    }
    ++b.walked;
    const std::vector<int>& gaps = best->second;
    std::vector<std::int64_t> T{best->first};
    for (const int g : gaps) T.push_back(T.back() + g);
    occ.reserve(T.back() + 1);
    for (std::size_t i = 0; i < p.tuples.size(); ++i) {
      PlacedRoute pr;
      Gaps g{0, 0, 0};
      for (int s = 0; s < n; ++s) {
        g[at(s)] = gaps[i + at(s)];
        for (int j = 0; j < g[at(s)]; ++j) pr.classes.push_back(p.seats[at(s)]);
      }
      pr.v = offset_of(p.seats, g, k);
      pr.start = T[i];
      for (std::size_t j = 0; j < pr.classes.size(); ++j) occ.busy[at(pr.classes[j])][at(pr.start) + j] = 1;
      occ.inject[at(pr.start)] = 1;
      occ.eject[at(pr.start) + pr.classes.size()] = 1;
      b.routes.push_back(std::move(pr));
    }
    for (int s = 0; s < n; ++s) free_at[at(p.seats[at(s)])] = T[p.tuples.size() + at(s)];
    return true;
  };
  for (const auto& ph : phases3)
    for (const int o : ph)
      if (!place(oct[at(o)])) return std::nullopt;
  for (const auto& ph : phases2)
    for (const int q : ph)
      if (!place(quad[at(q)])) return std::nullopt;
  // First fit for the rest, longest first: the earliest start with a free start and end step at
  // which some minimal route fits (fit_word).
  for (int x = 0; x < k; ++x)
    for (int y = 0; y < k; ++y)
      for (int z = 0; z < k; ++z)
        if ((x || y || z) && !owned[code({x, y, z})]) left.push_back({x, y, z});
  std::stable_sort(left.begin(), left.end(), [k](const Offset& a, const Offset& c) { return hops_of(a, k) > hops_of(c, k); });
  for (const Offset& v : left) {
    const auto len = static_cast<std::int64_t>(hops_of(v, k));
    bool placed = false;
    for (std::int64_t s = 0; !placed; ++s) {
      occ.reserve(s + len + 1);
      if (occ.inject[at(s)] || occ.eject[at(s + len)]) continue;
      std::vector<int> w;
      if (!fit_word(occ, v, k, s, w)) continue;
      for (std::size_t j = 0; j < w.size(); ++j) occ.busy[at(w[j])][at(s) + j] = 1;
      occ.inject[at(s)] = 1;
      occ.eject[at(s + len)] = 1;
      b.routes.push_back({v, s, w});
      placed = true;
    }
  }
  b.left_over = static_cast<int>(left.size());
  for (const PlacedRoute& r : b.routes)
    b.steps = std::max(b.steps, r.start + static_cast<std::int64_t>(r.classes.size()));
  return b;
}

}  // namespace

std::string octant_why_not(const Topology& t, Model m) {
  if (m == Model::SinglePort) return "schedules nic and all-port";
  if (!t.is_product() || t.is_partial() || t.factors().size() != 3) return "needs a torus KxKxK, every node a processor";
  for (const Factor& f : t.factors())
    if (f.kind != FactorKind::Ring || f.size != t.factors()[0].size) return "needs a torus KxKxK, every node a processor";
  if (t.factors()[0].size < 6) return "needs K >= 6";
  return "";
}

Schedule octant_schedule(const Topology& t, Model m, double budget, std::vector<std::string>& log) {
  if (const std::string why = octant_why_not(t, m); !why.empty()) throw UsageError("--algo octant " + why + " (" + t.spec() + ")");
  const int k = t.factors()[0].size;
  const auto work_limit = static_cast<std::int64_t>(std::max(budget, 0.5) * kStepsPerSecond);
  std::int64_t work = 0;
  std::optional<Build> best;
  for (int seed = 1; seed <= kMaxSeeds && work < work_limit; ++seed) {
    const std::int64_t before = work;
    // The first seed always completes; the budget decides how many more are tried.
    std::optional<Build> b = build(k, Rng{static_cast<std::uint64_t>(seed)}, work,
                                   seed == 1 ? std::numeric_limits<std::int64_t>::max() : work_limit);
    if (!b) {
      log.push_back("octant: seed " + std::to_string(seed) + " stopped by the budget after " + std::to_string(work - before) + " walk steps");
      break;
    }
    log.push_back("octant: seed " + std::to_string(seed) + ": " + std::to_string(b->steps) + " steps, " +
                  std::to_string(b->walked) + " of 20 pipelines walked, " + std::to_string(b->left_over) +
                  " offsets by first fit, " + std::to_string(work - before) + " walk steps");
    if (!best || b->steps < best->steps) best = std::move(b);
  }
  if (!best) return Schedule{t.spec(), m, "octant", {}};
  // Then the budget once more (so octant takes about twice its share) shortens the best seed's
  // schedule (cube_compaction): the seeds' work is as before, so no cube's schedule gets longer,
  // and torus:10x10x10 under auto goes from 1416 to about 1300, where eight seeds gave 1333.
  std::string note;
  compact_cube_tail(k, best->routes, static_cast<std::int64_t>(std::max(budget, 0.5) * kUnitsPerSecond), 1, note);
  log.push_back("octant: " + note);
  std::vector<PlacedPattern> patterns;
  patterns.reserve(best->routes.size());
  for (const PlacedRoute& r : best->routes) {
    Word w;
    for (const int c : r.classes) w.moves.emplace_back(dim_of(c), positive(c) ? 1 : k - 1);
    patterns.push_back({t.node_at({r.v[0], r.v[1], r.v[2]}), r.start, std::move(w), -1});
  }
  return pattern_schedule_of(t, m, std::move(patterns), "octant");
}

}  // namespace totex
