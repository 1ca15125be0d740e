// SPDX-License-Identifier: Apache-2.0
#include "hypercube_doubling.hpp"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <random>

namespace totex {
namespace {

/// Second copies tried per doubling step before giving up.
constexpr int kAttempts = 400;

/// One offset's run: first column and the dimensions crossed, in step order.
struct Run {
  int start = 0;
  std::vector<int> dims;
};
/// Indexed by offset (bit i = dimension i); entry 0 unused.
using Tiling = std::vector<Run>;

Tiling reversed(const Tiling& s, int columns) {
  Tiling r = s;
  for (std::size_t d = 1; d < s.size(); ++d) {
    r[d].start = columns - s[d].start - static_cast<int>(s[d].dims.size());
    std::reverse(r[d].dims.begin(), r[d].dims.end());
  }
  return r;
}

/// Maximum bipartite matching by augmenting paths (breadth-first, so no deep recursion).
/// `options[l]` lists the right vertices left vertex l may take; returns right -> left or -1.
std::vector<int> match(const std::vector<std::vector<int>>& options, int rights) {
  std::vector<int> owner(static_cast<std::size_t>(rights), -1);
  const int lefts = static_cast<int>(options.size());
  std::vector<int> came_from(static_cast<std::size_t>(rights));
  for (int l = 0; l < lefts; ++l) {
    // BFS over right vertices reachable by alternating paths from l.
    std::fill(came_from.begin(), came_from.end(), -2);
    std::vector<int> queue;
    std::vector<int> via_left;  // the left vertex that reached queue[i]
    for (int r : options[static_cast<std::size_t>(l)])
      if (came_from[static_cast<std::size_t>(r)] == -2) {
        came_from[static_cast<std::size_t>(r)] = -1;  // reached from l itself
        queue.push_back(r);
        via_left.push_back(l);
      }
    int free_right = -1;
    std::vector<int> parent_index(queue.size(), -1);
    for (std::size_t i = 0; i < queue.size() && free_right < 0; ++i) {
      const int r = queue[i];
      const int taken_by = owner[static_cast<std::size_t>(r)];
      if (taken_by < 0) {
        free_right = static_cast<int>(i);
        break;
      }
      for (int r2 : options[static_cast<std::size_t>(taken_by)])
        if (came_from[static_cast<std::size_t>(r2)] == -2) {
          came_from[static_cast<std::size_t>(r2)] = r;
          queue.push_back(r2);
          via_left.push_back(taken_by);
          parent_index.push_back(static_cast<int>(i));
        }
    }
    if (free_right < 0) continue;
    // Flip the path: each right vertex on it goes to the left vertex that reached it.
    for (int i = free_right; i >= 0; i = parent_index[static_cast<std::size_t>(i)])
      owner[static_cast<std::size_t>(queue[static_cast<std::size_t>(i)])] = via_left[static_cast<std::size_t>(i)];
  }
  return owner;
}

/// Whether some run starts in column 1 or ends in column `columns` - 2.
bool has_run_touching_second_column(const Tiling& s, int columns) {
  return std::any_of(s.begin() + 1, s.end(), [&](const Run& r) {
    return r.start == 1 || r.start + static_cast<int>(r.dims.size()) == columns - 1;
  });
}

/// The tiling with dimensions renamed by `perm` (an automorphism of Q_k: still a tiling).
Tiling permuted(const Tiling& s, const std::vector<int>& perm) {
  Tiling r(s.size());
  for (std::size_t d = 1; d < s.size(); ++d) {
    std::size_t image = 0;
    for (std::size_t i = 0; i < perm.size(); ++i)
      if ((d >> i) & 1U) image |= std::size_t{1} << perm[i];
    r[image].start = s[d].start;
    for (int dim : s[d].dims) r[image].dims.push_back(perm[static_cast<std::size_t>(dim)]);
  }
  return r;
}

/// Q_k's tiling of `columns` columns and the second copy's (the same tiling, renamed or
/// reversed) -> Q_(k+1)'s of 2 * columns, or nothing.
std::optional<Tiling> double_up(const Tiling& first, const Tiling& second, int k, int columns) {
  const int offsets = static_cast<int>(first.size());  // 2^k, entry 0 unused
  const int width = 2 * columns;
  // The four ways offset d takes the new hop: before or after its run in the first copy
  // (columns start - 1 or end + 1), or in the second copy (shifted by `columns`).
  enum Way { FirstBefore, FirstAfter, SecondBefore, SecondAfter };
  auto column_of = [&](std::size_t d, Way w) {
    const int hops = static_cast<int>(first[d].dims.size());
    switch (w) {
      case FirstBefore: return first[d].start - 1;
      case FirstAfter: return first[d].start + hops;
      case SecondBefore: return columns + second[d].start - 1;
      case SecondAfter: return columns + second[d].start + hops;
    }
    return -1;
  };
  std::vector<std::vector<int>> options(static_cast<std::size_t>(offsets - 1));
  for (std::size_t d = 1; d < static_cast<std::size_t>(offsets); ++d)
    for (Way w : {FirstBefore, FirstAfter, SecondBefore, SecondAfter}) {
      const int c = column_of(d, w);
      if (c >= 0 && c < width) options[d - 1].push_back(c);
    }
  const std::vector<int> owner = match(options, width);
  if (std::count(owner.begin(), owner.end(), -1) != 1) return std::nullopt;

  Tiling out(static_cast<std::size_t>(2 * offsets));
  const std::size_t bit = static_cast<std::size_t>(offsets);
  for (int c = 0; c < width; ++c) {
    const int l = owner[static_cast<std::size_t>(c)];
    if (l < 0) {
      out[bit] = {c, {k}};
      continue;
    }
    const std::size_t d = static_cast<std::size_t>(l) + 1;
    Run in_first = first[d];
    Run in_second = second[d];
    in_second.start += columns;
    Run& moved = c == column_of(d, FirstBefore) || c == column_of(d, FirstAfter) ? in_first : in_second;
    Run& stays = &moved == &in_first ? in_second : in_first;
    if (c < moved.start) {
      moved.dims.insert(moved.dims.begin(), k);
      moved.start = c;
    } else {
      moved.dims.push_back(k);
    }
    out[d | bit] = moved;
    out[d] = stays;
  }
  return out;
}

}  // namespace

bool hypercube_doubling_applies(const Topology& t) {
  if (!t.is_product() || t.is_partial()) return false;
  return std::all_of(t.factors().begin(), t.factors().end(), [](const Factor& f) { return f.size == 2; });
}

std::optional<std::vector<PlacedPattern>> hypercube_doubling_patterns(const Topology& t) {
  if (!hypercube_doubling_applies(t)) return std::nullopt;
  const int n = static_cast<int>(t.factors().size());
  Tiling tiling(2);
  tiling[1] = {0, {0}};
  int columns = 1;
  for (int k = 1; k < n; ++k, columns *= 2) {
    // Each copy as it is or reversed in time, then the second under seeded random renamings of
    // the dimensions, until a perfect matching exists (deterministic: same n, same schedule).
    // Reversing matters at the ends: column 0 of row k needs a run that starts in column 1.
    std::optional<Tiling> next;
    std::vector<int> perm(static_cast<std::size_t>(k));
    std::iota(perm.begin(), perm.end(), 0);
    std::mt19937 rng(static_cast<unsigned>(k));
    const Tiling backwards = reversed(tiling, columns);
    for (int attempt = 0; attempt < kAttempts && !next; ++attempt) {
      if (attempt >= 4) std::shuffle(perm.begin(), perm.end(), rng);
      const Tiling& first = attempt / 2 % 2 ? backwards : tiling;
      const Tiling renamed = permuted(attempt % 2 ? backwards : tiling, perm);
      next = double_up(first, renamed, k, columns);
      // Keep the next doubling possible: its column 0 of the new row needs a run starting in
      // column 1 of the first copy (a run ending next to last, once reversed, serves too).
      if (next && k + 1 < n && !has_run_touching_second_column(*next, 2 * columns)) next.reset();
    }
    if (!next) return std::nullopt;
    tiling = std::move(*next);
  }
  std::vector<PlacedPattern> patterns;
  for (std::size_t d = 1; d < tiling.size(); ++d)
    patterns.push_back(hypercube_pattern(t, static_cast<unsigned>(d), tiling[d].start, tiling[d].dims));
  return patterns;
}

PlacedPattern hypercube_pattern(const Topology& t, unsigned offset, std::int64_t start, const std::vector<int>& dims) {
  const auto n = t.factors().size();
  std::vector<int> coords(n);
  for (std::size_t i = 0; i < n; ++i) coords[i] = static_cast<int>((offset >> i) & 1U);
  PlacedPattern p{t.node_at(coords), start, {}};
  for (int dim : dims) p.word.moves.emplace_back(dim, 1);
  return p;
}

}  // namespace totex
