// SPDX-License-Identifier: Apache-2.0
/// The reference step model: executes a schedule under its model and reports every violation.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "totex/network/min_network.hpp"
#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"
#include "totex/verify/message_index.hpp"

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

/// The reference model for a direct network fed one step at a time, in O(transfers) per step:
/// per message only its position and the step it last moved (8 bytes, N^2 of them), per node
/// step-stamped counters, per link the step it was last used. Buffering is counted per node
/// when a node is touched, so no step scans the messages waiting at relays.
class StepVerifier {
 public:
  /// `schedule_topology` is the spec the schedule names ("" = not checked). `traffic` (null: all)
  /// is what must be delivered, one message per flit; `schedule_traffic`, when given, is the tag
  /// the schedule records, checked against it. Throws ResourceError before allocating when the
  /// message table (N^2 entries for all, one per flit otherwise) is beyond the memory budget.
  StepVerifier(const Topology& t, Model model, const std::string& schedule_topology = "", const Traffic* traffic = nullptr,
               const TrafficTag* schedule_traffic = nullptr);
  void step(const Transfer* transfers, std::size_t count);
  void step(const std::vector<Transfer>& transfers) { step(transfers.data(), transfers.size()); }
  /// The report after the last step; `claimed_steps`, when given, must equal the steps taken.
  [[nodiscard]] VerifyReport finish(std::optional<std::int64_t> claimed_steps = std::nullopt);
  /// Bytes the verifier allocates for topology `t` and `traffic` (to estimate before a run).
  [[nodiscard]] static std::uint64_t memory_bytes(const Topology& t, const Traffic* traffic = nullptr);

 private:
  struct MessageState {
    NodeId pos;            // valid once moved
    std::int32_t moved1;   // 1 + step of the last move; 0 = never left its source (calloc's zeros)
  };
  struct FreeDeleter {
    void operator()(MessageState* p) const;
  };
  struct NodeState {
    std::int32_t stamp = -1;  // step the counters below belong to
    std::int32_t sends = 0, receives = 0, injects = 0, ejects = 0;
    std::int32_t held = 0;        // messages waiting at this node as a relay (left source, not delivered)
    std::int32_t held_stamp = -1;  // last step `held` changed in
    std::int32_t stored = 0;       // of `held` at the start of step held_stamp, those that stay
    std::int32_t stored_max_seen = 0;  // most messages it stored through one step so far
  };
  /// Counts a violation; its text (`what()`) and link are built only while `list` has room, so
  /// past the kept ones a violation costs a count, not a string. link_from < 0: no link.
  template <class What>
  void add(std::vector<Violation>& list, const char* kind, int step, NodeId node, NodeId link_from, NodeId link_to,
           const What& what);
  void close_step();
  void wait_violations(std::size_t m, int from_step, int to_step, NodeId at);
  const Topology& t_;
  MessageIndex index_;
  Model model_;
  std::size_t n_;
  bool may_buffer_;
  int step_ = 0;  // index of the next step
  std::int64_t last_busy_step_ = -1;
  std::unique_ptr<MessageState[], FreeDeleter> msg_;  // N^2, zero pages until touched
  std::vector<NodeState> node_;
  std::vector<std::int32_t> link_step_;
  std::vector<std::size_t> link_msg_;
  std::vector<NodeId> touched_;
  VerifyReport report_;
  // Violations in three groups, merged by step at the end: before the steps (topology), found
  // while stepping (stepping_, with buffering_ found out of step order), after (lost, count).
  std::vector<Violation> pre_, stepping_, buffering_;
};

/// Replay speed assumed for estimates (measured: 50-60 M transfers per CPU second, 2-core machine).
inline constexpr double kReplayTransfersPerSecond = 40e6;
/// A lazy schedule whose replay is estimated to take longer is refused (ResourceError, exit 3)
/// before anything is allocated, unless the caller sets another limit (the CLI: TOTEX_MAX_SECONDS).
inline constexpr double kReplaySecondsLimit = 300;
/// What a run may spend where it can estimate its cost beforehand (a lazy replay, a generator's
/// first pass). The caller sets it; the library reads no environment.
struct RunLimits {
  double seconds = kReplaySecondsLimit;
  /// How a refusal names the way to lift the limit (the CLI's environment variable).
  std::string how_to_raise = "raise RunLimits::seconds";
};
/// "300 s", "0.1 s": a limit as the refusals print it.
[[nodiscard]] std::string limit_text(const RunLimits& limits);

/// Verifies a direct-network schedule. `claimed_steps`, when given, must equal the steps taken.
/// A lazy schedule (Schedule::source) is streamed. `traffic` (null: all) is what must be
/// delivered; a schedule whose tag (Schedule::traffic) names another traffic is a violation.
[[nodiscard]] VerifyReport verify(const Topology& t, const Schedule& s,
                                  std::optional<std::int64_t> claimed_steps = std::nullopt, const RunLimits& limits = {},
                                  const Traffic* traffic = nullptr);
/// Verifies a MIN schedule: states < d, and every (s, t) message (self slot included) is
/// delivered exactly once over the configurations. With M^0 set (computed form) the check runs
/// on M^0 alone (verify_min_compact) plus a comparison of each stored configuration with the
/// one M^0 derives; otherwise configuration by configuration (verify_min_expanded). A schedule
/// of a traffic (MinSchedule::traffic) must instead deliver exactly its flits, no self slot:
/// `traffic` (null: the one the schedule records, read again) is what must be delivered, and a
/// schedule recording another is a violation.
[[nodiscard]] VerifyReport verify(const MinNetwork& net, const MinSchedule& s,
                                  std::optional<std::int64_t> claimed_steps = std::nullopt, const Traffic* traffic = nullptr);
/// The configuration-by-configuration check (every permutation routed through the stages).
[[nodiscard]] VerifyReport verify_min_expanded(const MinNetwork& net, const MinSchedule& s,
                                               std::optional<std::int64_t> claimed_steps = std::nullopt);
/// The check from M^0 alone: the N derived configurations' permutations are computed stage by
/// stage over the digits of x (configurations sharing their first digits share the lines up to
/// there), about N^2 d/(d-1) line moves instead of N^2 log_d N; a bitset records deliveries.
/// Ignores s.configurations; applies s.idle. Same report as the expanded check of the derived table.
[[nodiscard]] VerifyReport verify_min_compact(const MinNetwork& net, const MinSchedule& s,
                                              std::optional<std::int64_t> claimed_steps = std::nullopt);

}  // namespace totex
