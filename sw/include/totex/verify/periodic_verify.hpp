// SPDX-License-Identifier: Apache-2.0
/// The periodic (TDM) verifier: checks a Schedule whose steps repeat every `period` steps, with
/// every link and port taken modulo the period (docs/periodic.md). Independent of any generator.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"
#include "totex/verify/message_index.hpp"
#include "totex/verify/verify.hpp"

namespace totex {

struct PeriodicReport {
  bool ok = false;
  int period = 0;                 // the period checked
  std::int64_t steps = 0;         // makespan of one period's messages: last busy step + 1
  std::int64_t latency_max = 0;   // most steps from a message's injection to its ejection, both counted
  std::int64_t delivered = 0;     // distinct messages delivered
  std::int64_t expected = 0;      // N(N-1) over the processors
  std::int64_t violation_count = 0;
  std::vector<Violation> violations;  // the first kMaxReported
  static constexpr std::size_t kMaxReported = 20;
};

/// Checks `s` as a periodic schedule of period `period` (0: s.period). Every message (src, dst),
/// src != dst, must be injected in a step < period and delivered exactly once along a valid path,
/// one hop per step, with no relay buffering under nic and all-port; modulo the period every
/// directed link carries at most one message per slot, and per slot each node: nic: injects at
/// most one and ejects at most one; single-port: sends at most one and receives at most one.
/// Throws UsageError when neither `period` nor s.period is positive.
/// `traffic` (null: all) is what one period must deliver, one message per flit.
[[nodiscard]] PeriodicReport verify_periodic(const Topology& t, const Schedule& s, int period = 0, const Traffic* traffic = nullptr);

}  // namespace totex
