// SPDX-License-Identifier: Apache-2.0
/// Simulation engines behind `totex sim`: they all take a verified schedule and report the same result.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "totex/network/min_network.hpp"
#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"
#include "totex/verify/trace.hpp"

namespace totex {

/// The `totex sim` JSON of README.md ("Commands"), engine-independent.
struct SimResult {
  std::string engine;
  std::int64_t cycles = 0;           // cycles from start to the last delivery, inclusive
  std::int64_t expected_cycles = 0;  // what the schedule predicts
  std::int64_t delivered = 0;
  std::int64_t expected_delivered = 0;
  std::vector<std::string> errors;
  double wall_seconds = 0;
  std::uint64_t simulated_cycles = 0;  // every clock edge simulated, load phases included (0 for ref)
  std::uint64_t run_edges = 0;         // of those, the exchange's: from each start edge to the run's end
  double run_seconds = 0;              // their wall time (0 for ref)
  double load_seconds = 0;             // wall time of the load writes, port or backdoor (0: not measured)
  std::string trace_sha256;
  std::string wave;  // waveform file written, if any
  std::vector<std::int64_t> deliveries_per_cycle;  // from the scoreboard; empty from an older harness
  std::string recovery;  // --recover: the JSON object of totex/link_recovery.hpp's recovery_json, else empty
  /// Dynamic runs of a traffic: flits that arrived before an earlier flit of their pair (adaptive
  /// routing may reorder; dimension order may not, its scoreboard fails instead); -1: not counted.
  std::int64_t reordered = -1;
  /// Simulated clock cycles (all of them, loading included) per wall-clock second.
  [[nodiscard]] double cycles_per_second() const {
    const auto simulated = simulated_cycles > 0 ? static_cast<double>(simulated_cycles) : static_cast<double>(cycles);
    return wall_seconds > 0 ? simulated / wall_seconds : 0;
  }
  /// The exchange's clock edges per wall-clock second, loading excluded (0 when not measured).
  [[nodiscard]] double run_cycles_per_second() const {
    return run_seconds > 0 ? static_cast<double>(run_edges) / run_seconds : 0;
  }
  [[nodiscard]] bool ok() const {
    return errors.empty() && cycles == expected_cycles && delivered == expected_delivered;
  }
};

/// The sim keys of a result as one JSON object (the harnesses print it, the CLI extends it).
[[nodiscard]] std::string sim_result_json(const SimResult& r);
/// The inverse; throws std::runtime_error when a key is missing or has the wrong type.
[[nodiscard]] SimResult parse_sim_result(const std::string& json);

/// Fills cycles, delivered, errors and the digest from a finished scoreboard.
void fill_from_scoreboard(SimResult& r, Scoreboard& board, std::int64_t expected_cycles);

/// The reference step model: paper 002's two phases for a MIN (labels, then personalized
/// messages), or the transfers of a direct-network schedule executed hop by hop (a transfer moves
/// a message only from the node it is at; one that is elsewhere or delivered moves nothing).
/// `claimed_steps` is the step count the schedule's file declares; the run must take exactly that
/// many cycles (without it, the count the schedule itself implies).
[[nodiscard]] SimResult run_reference(const MinNetwork& net, const MinSchedule& s,
                                      std::optional<std::int64_t> claimed_steps = std::nullopt);
[[nodiscard]] SimResult run_reference(const Topology& t, const Schedule& s,
                                      std::optional<std::int64_t> claimed_steps = std::nullopt);

}  // namespace totex
