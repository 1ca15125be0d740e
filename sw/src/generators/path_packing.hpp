// SPDX-License-Identifier: Apache-2.0
/// List scheduling of fixed paths: each message on a given path, its hops on consecutive steps
/// (so no relay ever buffers: valid under all three models), placed at the earliest start step
/// where every hop fits the model's per-step limits. Shared by the pairwise and the
/// dimension-order generators.
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "totex/model.hpp"
#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"

namespace totex {

/// The hops (node, port) of one path, in order.
using Hops = std::vector<std::pair<NodeId, Port>>;

/// Per-step resource use of a schedule being packed.
class PathPacker {
 public:
  PathPacker(const Topology& t, Model m, std::string algorithm);
  /// Whether `hops` of `msg` fit with hop h in step start + h.
  [[nodiscard]] bool fits(const Message& msg, const Hops& hops, std::size_t start);
  /// The earliest start >= `from` at which the path fits.
  [[nodiscard]] std::size_t earliest(const Message& msg, const Hops& hops, std::size_t from);
  /// Places the path with hop h in step start + h (the caller checked that it fits).
  void place(const Message& msg, const Hops& hops, std::size_t start);
  [[nodiscard]] Schedule take() { return std::move(schedule_); }

 private:
  struct Step {
    std::vector<bool> link, send, recv, inject, eject;
  };
  Step& at(std::size_t step);
  const Topology& t_;
  Model model_;
  std::vector<Step> steps_;
  Schedule schedule_;
};

}  // namespace totex
