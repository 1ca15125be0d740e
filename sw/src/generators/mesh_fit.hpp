// SPDX-License-Identifier: Apache-2.0
/// `--algo xyfit` (all-port, nic; 2-D and 3-D meshes): every message on one of its dimension-ordered
/// routes (x then y, or y then x; on three dimensions the six orders), placed longest first at its
/// earliest conflict-free start, with a bitset per link and NIC port. No search: mesh:32x32's million messages in about a second a pass,
/// mesh:64x64's 16.8 million in four minutes; the schedule is lazy past 5e7 transfers (mesh:64x64
/// holds its placements in about 600 MB).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "totex/model.hpp"
#include "totex/network/topology.hpp"
#include "totex/schedule.hpp"

namespace totex {

/// "" when xyfit applies to t (a product of two or three paths, every node a processor), else why not.
[[nodiscard]] std::string mesh_fit_why_not(const Topology& t);

/// The xyfit schedule of t under m (all-port or nic): one pass, and a second one (the messages
/// that ended past the bound first) where the first compared at most 1e9 windows (about 7 s;
/// counted, so the schedule is the same on every machine). A line for `log`. The steps are
/// generated on demand (Schedule::source) past `lazy_above` transfers.
[[nodiscard]] Schedule mesh_fit_schedule(const Topology& t, Model m, std::vector<std::string>& log,
                                         std::int64_t lazy_above = 50'000'000);

}  // namespace totex
