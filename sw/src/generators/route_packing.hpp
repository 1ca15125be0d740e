// SPDX-License-Identifier: Apache-2.0
/// Routes packed into steps: items (messages, or patterns of a translation-invariant schedule)
/// each at its earliest start with any minimal route whose hops fit on consecutive steps, on a
/// grid of steps x resources (a directed link, or a link class of a pattern model), with one NIC
/// inject slot and one eject slot per item under nic. Items can be taken out and put back, which
/// is what the local searches need: a new order re-places everything, a large neighbourhood
/// search (lns_improve) re-places a few items per round.
#pragma once
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "totex/model.hpp"
#include "product_routes.hpp"

namespace totex {

/// One thing to route: from `src` to `dst` with these needs (a pattern's `dst` is its offset: the
/// destination seen from node 0); under nic it takes NIC slot `inject` in its first step and
/// `eject` in its last. `start` and `word` are set when it is placed.
struct RouteItem {
  NodeId src = 0;
  NodeId dst = 0;
  std::vector<DimNeed> needs;
  int hops = 0;
  int inject = 0;
  int eject = 0;
  std::int64_t start = -1;
  Word word;
};

class RoutePacking {
 public:
  /// resource[v * moves.classes() + cls]: what the move `cls` out of node v uses (0 ..
  /// resources-1); nic_slots: the number of inject (and of eject) keys.
  RoutePacking(const MoveTable& moves, Model m, std::vector<int> resource, int resources, int nic_slots);

  void clear();
  /// Places the item at its earliest start; `work` counts the starts tried (find_word calls).
  void place_earliest(RouteItem& item, std::int64_t& work);
  /// Takes a placed item out, or puts a placement taken out back.
  void remove(const RouteItem& item) { mark(item, 0); }
  void restore(const RouteItem& item);

  [[nodiscard]] const MoveTable& moves() const { return moves_; }
  [[nodiscard]] Model model() const { return model_; }
  /// What the move `cls` out of node v uses, of resources() resources.
  [[nodiscard]] int resource(NodeId v, int cls) const {
    return resource_[static_cast<std::size_t>(v) * static_cast<std::size_t>(moves_.classes()) + static_cast<std::size_t>(cls)];
  }
  [[nodiscard]] int resources() const { return resources_; }
  [[nodiscard]] int nic_slots() const { return nic_slots_; }

 private:
  void grow(std::int64_t step);
  void mark(const RouteItem& item, std::uint8_t value);
  [[nodiscard]] std::size_t slot(std::int64_t step, int key) const;

  const MoveTable& moves_;
  Model model_;
  std::vector<int> resource_;
  int resources_;
  int nic_slots_;
  std::vector<std::vector<std::uint8_t>> busy_;  // [step][resource]
  std::vector<int> busy_count_;                   // resources taken per step
  std::vector<std::uint8_t> inject_, eject_;      // [step * nic_slots + key]
};

/// The wall-clock safety stop of a work-limited search given `budget` seconds of work: far enough
/// out that a slow machine (a sanitizer build, heavy load) still does all the work, so the
/// schedule stays the same; it only catches a work estimate that is badly off.
[[nodiscard]] inline double safety_stop_seconds(double budget) { return 10 * budget + 10; }

/// The last step any item uses, plus one.
[[nodiscard]] std::int64_t packed_makespan(const std::vector<RouteItem>& items);

/// Places the items in `order` (the packing is cleared first), then searches over the order: move
/// one item elsewhere in it, keep the new order unless the packing got worse (makespan, then items
/// in the last step, then the sum of end steps). Stops at `bound`, when `work` reaches
/// `work_limit`, or when `stop()` says so. Ends with `items` and the packing at the best order
/// found; returns the orders tried.
std::int64_t order_search(RoutePacking& packing, std::vector<RouteItem>& items, std::vector<std::size_t> order,
                          std::int64_t bound, std::int64_t work_limit, std::int64_t& work, std::mt19937_64& rng,
                          const std::function<bool()>& stop);

/// Large neighbourhood search on a packing that holds `items`: each round takes out the items that
/// end in the last step and a few others (random, or ending near the end), puts them back in a
/// random order at their earliest fits, and keeps the result unless the packing got worse
/// (makespan, then items in the last step, then the sum of end steps). Stops at `bound`, when
/// `work` reaches `work_limit`, or when `stop()` says so (checked every 64 rounds). `best` gets
/// every improvement of the makespan. Returns the rounds run.
std::int64_t lns_improve(RoutePacking& packing, std::vector<RouteItem>& items, std::vector<RouteItem>& best,
                         std::int64_t bound, std::int64_t work_limit, std::int64_t& work, std::mt19937_64& rng,
                         const std::function<bool()>& stop);

}  // namespace totex
