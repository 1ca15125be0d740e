// SPDX-License-Identifier: Apache-2.0
/// Minimal routes in cartesian products of rings, paths and complete graphs, as per-dimension
/// needs ("3 moves of +1 in dimension 0, 2 moves of -1 in dimension 1") rather than fixed paths,
/// and a list scheduler that places each message at its earliest start with ANY minimal route
/// whose hops fit (a dynamic program over the interleavings of the moves).
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mesh_symmetry.hpp"
#include "totex/model.hpp"
#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"

namespace totex {

/// What a message needs in one dimension: `count` moves of `delta` (mod the factor size; a ring's
/// -1 is size-1). An antipodal ring offset (k even, offset k/2) may go either way: `choices` = 2,
/// `delta[1]` the other sign.
struct DimNeed {
  int dim = 0;
  int count = 0;
  int choices = 1;
  std::array<int, 2> delta{0, 0};
};

/// The needs of the message from coordinates `from` to `to` (dimensions with no move are left out).
[[nodiscard]] std::vector<DimNeed> minimal_needs(const Topology& t, const std::vector<int>& from,
                                                 const std::vector<int>& to);

/// The node reached from `v` by one move of `delta` in dimension `dim` (no wrap on paths).
[[nodiscard]] NodeId product_step(const Topology& t, NodeId v, int dim, int delta);

/// product_step and the link it crosses, tabulated once per topology (the route search's inner loop).
class MoveTable {
 public:
  explicit MoveTable(const Topology& t);
  /// Index of the move (dim, delta): 0 .. classes()-1.
  [[nodiscard]] int move_class(int dim, int delta) const { return first_[static_cast<std::size_t>(dim)] + delta - 1; }
  [[nodiscard]] int classes() const { return classes_; }
  [[nodiscard]] NodeId next(NodeId v, int cls) const { return next_[index(v, cls)]; }
  /// The directed link crossed, or -1 when the move does not exist there (a path's end).
  [[nodiscard]] LinkId link(NodeId v, int cls) const { return link_[index(v, cls)]; }
  [[nodiscard]] Port port(NodeId v, int cls) const { return port_[index(v, cls)]; }

 private:
  [[nodiscard]] std::size_t index(NodeId v, int cls) const {
    return static_cast<std::size_t>(v) * static_cast<std::size_t>(classes_) + static_cast<std::size_t>(cls);
  }
  std::vector<int> first_;  // per dimension, the class of delta 1
  int classes_ = 0;
  std::vector<NodeId> next_;
  std::vector<LinkId> link_;
  std::vector<Port> port_;
};

/// One chosen route: the sequence of (dimension, delta) moves.
struct Word {
  std::vector<std::pair<int, int>> moves;
};

/// Tells whether the move of `delta` in `dim` out of `node` may be taken in step `step`.
using MoveFree = std::function<bool(std::int64_t step, NodeId node, int dim, int delta)>;

/// A minimal route from `src` with these needs whose hop j fits in step start + j, if one exists.
/// Tries every sign choice of antipodal dimensions and every interleaving (a dynamic program over
/// the per-dimension move counts; the node reached depends only on those counts).
[[nodiscard]] bool find_word(const MoveTable& moves, NodeId src, const std::vector<DimNeed>& needs, std::int64_t start,
                             const MoveFree& is_free, Word& out);

/// Greedy list scheduling on a product (placed tori included) under all-port or nic: messages
/// longest first, each at the earliest start where some minimal route fits (find_word), hops on
/// consecutive steps; then a local search over the order and a large neighbourhood search
/// (route_packing.hpp). `budget_seconds` sets the work (placements tried, about a second each on
/// the development machine), so the schedule does not depend on the machine's load.
/// With a `group` (mesh_symmetry.hpp), one item stands for a message and its images under the
/// group, all placed in the same step on the images of one route: a schedule invariant under the
/// group, with |group| times fewer items to place (`--algo symmetric`); after the searches, SAT
/// re-packs the schedule's tail (route_sat.hpp) with as much work again. `log` (if given) gets a
/// line per stage.
[[nodiscard]] Schedule flexible_greedy_schedule(const Topology& t, Model m, double budget_seconds,
                                                std::string algorithm, std::uint64_t seed = 1,
                                                const NodeSymmetry& group = {},
                                                std::vector<std::string>* log = nullptr);

}  // namespace totex
