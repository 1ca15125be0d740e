// SPDX-License-Identifier: Apache-2.0
#include "route_packing.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

namespace totex {
namespace {
std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }
}  // namespace

RoutePacking::RoutePacking(const MoveTable& moves, Model m, std::vector<int> resource, int resources, int nic_slots)
    : moves_(moves), model_(m), resource_(std::move(resource)), resources_(resources), nic_slots_(nic_slots) {}

void RoutePacking::clear() {
  busy_.clear();
  busy_count_.clear();
  inject_.clear();
  eject_.clear();
}

void RoutePacking::grow(std::int64_t step) {
  while (static_cast<std::int64_t>(busy_.size()) <= step) {
    busy_.emplace_back(at(resources_), 0);
    busy_count_.push_back(0);
    inject_.resize(inject_.size() + at(nic_slots_), 0);
    eject_.resize(eject_.size() + at(nic_slots_), 0);
  }
}

std::size_t RoutePacking::slot(std::int64_t step, int key) const { return at(step) * at(nic_slots_) + at(key); }

void RoutePacking::place_earliest(RouteItem& item, std::int64_t& work) {
  const MoveFree is_free = [&](std::int64_t step, NodeId v, int dim, int delta) {
    grow(step);
    const int cls = moves_.move_class(dim, delta);
    return busy_[at(step)][at(resource(v, cls))] == 0;
  };
  for (std::int64_t start = 0;; ++start) {
    grow(start + item.hops);
    if (model_ == Model::Nic && (inject_[slot(start, item.inject)] || eject_[slot(start + item.hops - 1, item.eject)]))
      continue;
    if (busy_count_[at(start)] == resources_) continue;  // nothing free for the first move
    // Counted before the test below, as the search it saves was: the work, and so every
    // work-limited search's result, stay what they were.
    ++work;
    // The first move leaves the source on a link of a needed dimension: when all of them are
    // busy at `start`, no word fits (a cheap test before the search; on a 20x20 mesh most starts
    // fail here).
    bool first_free = false;
    for (const DimNeed& d : item.needs)
      for (int ch = 0; ch < d.choices && !first_free; ++ch)
        first_free = busy_[at(start)][at(resource(item.src, moves_.move_class(d.dim, d.delta[at(ch)])))] == 0;
    if (!first_free) continue;
    if (!find_word(moves_, item.src, item.needs, start, is_free, item.word)) continue;
    item.start = start;
    mark(item, 1);
    return;
  }
}

void RoutePacking::restore(const RouteItem& item) {
  grow(item.start + item.hops);
  mark(item, 1);
}

void RoutePacking::mark(const RouteItem& item, std::uint8_t value) {
  NodeId v = item.src;
  for (std::size_t j = 0; j < item.word.moves.size(); ++j) {
    const int cls = moves_.move_class(item.word.moves[j].first, item.word.moves[j].second);
    std::uint8_t& cell = busy_[at(item.start) + j][at(resource(v, cls))];
    busy_count_[at(item.start) + j] += value - cell;
    cell = value;
    v = moves_.next(v, cls);
  }
  inject_[slot(item.start, item.inject)] = value;
  eject_[slot(item.start + item.hops - 1, item.eject)] = value;
}

std::int64_t packed_makespan(const std::vector<RouteItem>& items) {
  std::int64_t steps = 0;
  for (const RouteItem& it : items) steps = std::max(steps, it.start + it.hops);
  return steps;
}

namespace {
/// What the searches minimize: makespan, then items ending in the last step, then the sum of end
/// steps (so that plateaus are crossed).
std::tuple<std::int64_t, std::int64_t, std::int64_t> packing_score(const std::vector<RouteItem>& items) {
  const std::int64_t steps = packed_makespan(items);
  std::int64_t ends = 0, last = 0;
  for (const RouteItem& it : items) {
    ends += it.start + it.hops;
    last += it.start + it.hops == steps;
  }
  return {steps, last, ends};
}

void pack_in_order(RoutePacking& packing, std::vector<RouteItem>& items, const std::vector<std::size_t>& order,
                   std::int64_t& work) {
  packing.clear();
  for (std::size_t i : order) packing.place_earliest(items[i], work);
}
}  // namespace

std::int64_t order_search(RoutePacking& packing, std::vector<RouteItem>& items, std::vector<std::size_t> order,
                          std::int64_t bound, std::int64_t work_limit, std::int64_t& work, std::mt19937_64& rng,
                          const std::function<bool()>& stop) {
  pack_in_order(packing, items, order, work);
  auto current = packing_score(items);
  std::vector<RouteItem> best = items, trial = items;
  std::int64_t tries = 1;
  std::uniform_int_distribution<std::size_t> pick(0, order.size() - 1);
  bool packed_best = true;  // the packing holds `best`
  while (std::get<0>(current) > bound && work < work_limit && order.size() > 1 && !stop()) {
    std::vector<std::size_t> next = order;
    const std::size_t from = pick(rng), to = pick(rng);
    const std::size_t moved = next[from];
    next.erase(next.begin() + static_cast<std::ptrdiff_t>(from));
    next.insert(next.begin() + static_cast<std::ptrdiff_t>(to), moved);
    pack_in_order(packing, trial, next, work);
    ++tries;
    const auto sc = packing_score(trial);
    packed_best = sc <= current;
    if (packed_best) {
      current = sc;
      order.swap(next);
      best = trial;
    }
  }
  items = std::move(best);
  if (!packed_best) {
    packing.clear();
    for (const RouteItem& it : items) packing.restore(it);
  }
  return tries;
}

std::int64_t lns_improve(RoutePacking& packing, std::vector<RouteItem>& items, std::vector<RouteItem>& best,
                         std::int64_t bound, std::int64_t work_limit, std::int64_t& work, std::mt19937_64& rng,
                         const std::function<bool()>& stop) {
  auto current = packing_score(items);
  std::int64_t best_steps = packed_makespan(best);
  std::int64_t rounds = 0;
  std::vector<std::size_t> taken;
  std::vector<std::pair<std::size_t, RouteItem>> saved;
  std::uniform_int_distribution<std::size_t> any(0, items.size() - 1);
  while (best_steps > bound && work < work_limit && items.size() > 1) {
    if ((rounds & 63) == 0 && stop()) break;
    ++rounds;
    const std::int64_t steps = std::get<0>(current);
    taken.clear();
    for (std::size_t i = 0; i < items.size(); ++i)
      if (items[i].start + items[i].hops == steps) taken.push_back(i);
    if (rng() % 4 == 0) {  // or every item starting in a short random window: a coherent hole
      const std::int64_t width = 2 + static_cast<std::int64_t>(rng() % 6);
      const std::int64_t from = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(std::max<std::int64_t>(1, steps)));
      for (std::size_t i = 0; i < items.size() && taken.size() < 64; ++i)
        if (items[i].start >= from && items[i].start < from + width && items[i].start + items[i].hops != steps)
          taken.push_back(i);
    }
    const std::size_t extra = 1 + rng() % 6;
    for (std::size_t e = 0; e < extra; ++e) {
      std::size_t i = any(rng);
      if (rng() % 2 == 0)  // prefer one that ends near the end
        for (int again = 0; again < 8 && items[i].start + 3 * items[i].hops < steps; ++again) i = any(rng);
      if (std::find(taken.begin(), taken.end(), i) == taken.end()) taken.push_back(i);
    }
    saved.clear();
    for (std::size_t i : taken) {
      saved.emplace_back(i, items[i]);
      packing.remove(items[i]);
    }
    std::shuffle(taken.begin(), taken.end(), rng);
    if (rng() % 2 == 0)
      std::stable_sort(taken.begin(), taken.end(), [&](std::size_t a, std::size_t b) { return items[a].hops > items[b].hops; });
    for (std::size_t i : taken) packing.place_earliest(items[i], work);
    const auto next = packing_score(items);
    if (next <= current) {
      current = next;
      if (std::get<0>(next) < best_steps) {
        best_steps = std::get<0>(next);
        best = items;
      }
      continue;
    }
    for (std::size_t i : taken) packing.remove(items[i]);  // worse: the old placements back
    for (auto& [i, item] : saved) {
      items[i] = std::move(item);
      packing.restore(items[i]);
    }
  }
  return rounds;
}

}  // namespace totex
