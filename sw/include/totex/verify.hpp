// SPDX-License-Identifier: Apache-2.0
/// The reference step model: executes a schedule under its model and reports every violation.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "totex/min_network.hpp"
#include "totex/schedule.hpp"
#include "totex/topology.hpp"

namespace totex {

/// One violation, located as precisely as the kind allows (-1 = not applicable).
struct Violation {
  std::string kind;  // e.g. "link-reuse", "send-limit", "buffering", "lost"
  int step = -1;
  NodeId node = -1;
  std::string link;  // "from->to" when a link is involved
  std::string text;  // full human sentence, starting with the location
};

struct VerifyReport {
  bool ok = false;
  std::int64_t steps = 0;          // steps the schedule takes when executed
  std::int64_t delivered = 0;      // distinct messages delivered
  std::int64_t expected = 0;       // messages that must be delivered
  std::int64_t max_buffered = 0;   // most messages one relay node holds through a step
  std::vector<Violation> violations;
  std::int64_t violation_count = 0;  // all found; `violations` keeps the first kMaxReported
  static constexpr std::size_t kMaxReported = 200;
};

/// Verifies a direct-network schedule. `claimed_steps`, when given, must equal the steps taken.
[[nodiscard]] VerifyReport verify(const Topology& t, const Schedule& s,
                                  std::optional<std::int64_t> claimed_steps = std::nullopt);
/// Verifies a MIN schedule: states < d, and every (s, t) message (self slot included) is
/// delivered exactly once over the configurations.
[[nodiscard]] VerifyReport verify(const MinNetwork& net, const MinSchedule& s,
                                  std::optional<std::int64_t> claimed_steps = std::nullopt);

}  // namespace totex
