// SPDX-License-Identifier: Apache-2.0
/// Recovery from a failed link on the TDM nic network (`totex sim --periods K --fault-at F:A-B
/// --recover`, docs/tdm-runs.md "Recovery from a stuck link", issue 47 item 4).
///
/// The story, the same on every engine:
///   * run       the healthy nic tables, period P_old, K periods of messages (cycle 0 = slot 0);
///   * fault     from cycle F * P_old on, link A-B is stuck in both directions: each receiver's input
///               from the other end reads a valid flit of all-ones payload in every cycle. Its slots
///               that take that input forward or eject the stuck flit in place of the message (which
///               is lost); every other slot leaves it (the tile's left-flit flag, counted per input
///               link by the control port);
///   * detect    the controller polls every tile's STATUS and link error counters through its
///               AXI4-Lite port at the start of every period (every S-th when the period is shorter
///               than the poll; one read per three cycles); the first poll that reads a count names
///               the link (its receivers' inputs);
///   * plan      it schedules the degraded network T~fail:A-B with the library's periodic generators
///               (periodic_schedule, auto: counted work), the schedule's own period P_new the table's
///               (its routes may cross the period boundary), rotates the table by the fewest slots
///               that leave every destination's slots at least kTdmTileMinPeriod cycles apart across
///               the swap (none: one idle period under the new table first), and maps its ports onto
///               the tiles' (the degraded network numbers ports without the failed one);
///   * swap      it writes the P_new entries into every tile's shadow bank (one write per cycle, all
///               tiles in parallel), arms the swap for the first period far enough ahead (A), and
///               drives period_last_i = P_new - 1 from the middle of period A-1 (the slot counter
///               samples it at its wrap into A); from cycle B = A * P_old the tiles run the degraded
///               table, period P_new, and the cores offer period A on in its order.
/// What is lost: every message of a period before A whose route has a hop on the stuck link in a
/// cycle >= F * P_old, and every message of period A-1 or earlier still in flight at B (its next
/// hop runs under the new table). The stuck flits and the flits in flight at B may be delivered
/// with a wrong payload (corrupted) or under another source's label (the new table's ejection):
/// the reference model (run_recovery_reference, a table-level flit model) predicts each.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "totex/network/topology.hpp"
#include "totex/schedule.hpp"
#include "totex/tdm_tables.hpp"
#include "totex/verify/reference_engine.hpp"
#include "totex/verify/trace.hpp"

namespace totex {

/// --fault-at PERIOD:A-B: link A-B (both directions) sticks from the start of period PERIOD.
struct LinkFault {
  int period = 0;
  NodeId a = 0, b = 0;
  [[nodiscard]] std::string text() const;  // "PERIOD:A-B"
};

/// What a recovery harness takes besides the TDM run's arguments (schema::TdmHarnessArgs): the
/// fault (`--fault-at PERIOD:A-B`) and the degraded search's budget (`--recover-budget B`, about
/// seconds of counted work; 0, not written: the default).
struct RecoveryArgs {
  std::string fault_at;
  double budget_seconds = 0;
};
/// The harness arguments of `a` (the budget written so that it reads back exactly).
[[nodiscard]] std::vector<std::string> recovery_argv(const RecoveryArgs& a);
/// A recovery harness's argv split: its own arguments (recovery_argv's) returned, every other
/// argument appended to `rest`, the TDM harness's argv. UsageError for a budget that is not a plain
/// decimal number.
[[nodiscard]] RecoveryArgs take_recovery_args(int argc, char** argv, std::vector<char*>& rest);

/// Parses and checks --fault-at against the network and K (UsageError naming the flag and what it
/// accepts: a period 1..K-1, two adjacent nodes of t).
[[nodiscard]] LinkFault parse_fault_at(const std::string& text, const Topology& t, int periods);

/// The healthy tables as a recovery run's tiles hold them: Depth doubled (one more slot-address
/// bit), room for a degraded period up to twice the healthy one's power of two, since the degraded
/// schedule is not known when the tiles are built (torus:4x4: 17 -> 16 slots in a 64-slot table).
[[nodiscard]] TdmTables recovery_tiles(TdmTables healthy);

/// Throws UsageError unless the recovery can run on these healthy tables: nic tiles, one link per
/// pair of neighbours, a period long enough for the controller's poll.
void check_recovery_tables(const Topology& t, const TdmTables& healthy);

/// The controller's poll: one AXI4-Lite read per three cycles (AR, R two cycles later, taken),
/// STATUS then links 0..P-1, from the first cycle of every S-th period (S = recover_poll_stride:
/// 1 unless the period is shorter than the poll).
inline constexpr int kRecoverReadCycles = 3;
[[nodiscard]] inline int recover_poll_cycles(int ports) { return kRecoverReadCycles * (ports + 1); }
[[nodiscard]] inline int recover_poll_stride(int ports, int period) {
  return (recover_poll_cycles(ports) + 2 + period - 1) / period;
}
/// Cycles from the arm write to the fetch boundary it may name (docs/tdm-tile.md: four cycles at
/// least), plus the fetch counter's four-slot lead and a margin.
inline constexpr int kRecoverArmLead = 12;

/// What the controller does once the counters have named link a-b at the poll of period `detect`.
struct RecoveryPlan {
  NodeId a = 0, b = 0;
  int detect_period = 0;
  std::string degraded_spec;      // T~fail:a-b
  std::string degraded_algorithm;  // the periodic generator that made it (PeriodicOutcome::algorithm)
  double degraded_budget = 0;      // the budget its search was given (--recover-budget; 0: the default)
  std::int64_t degraded_steps = 0;  // one period's makespan (its routes may cross the period boundary)
  std::int64_t degraded_bound = 0;  // the periodic bound of T~fail:a-b, nic (PeriodicOutcome::bound)
  int rotation = 0;               // slots the degraded table is rotated by
  TdmTables tables;               // the degraded tables, rotated, on the tiles' ports (tile = the healthy one's)
  int old_period = 0, new_period = 0;
  std::int64_t write_cycle = 0;   // the first shadow write (every tile at once)
  int writes = 0;                 // AXI writes per tile before the arm (entries, TBL_HI where needed)
  std::int64_t arm_cycle = 0;     // the arm write
  int swap_period = 0;            // A: the first period under the new table
  std::int64_t swap_cycle = 0;    // B = A * P_old
  /// No rotation keeps the NIC's spacing across the swap: the first P_new slots after B inject
  /// nothing (the cores offer period A only after each destination's slot in them).
  bool idle_transition = false;
  std::int64_t new_start = 0;     // the first cycle of period A under the new table: B, or B + P_new
  std::int64_t period_change_cycle = 0;  // period_last_i = P_new - 1 from this cycle
  /// Node v's injection slot for each destination in the healthy table (-1 none): [v][d].
  std::vector<std::vector<int>> old_inject_slot;
};

/// Plans the recovery of the healthy `tables` of t after the poll of period `detect` named link
/// a-b; the degraded network's periodic search takes `budget_seconds` of counted work
/// (`--recover-budget`; 0: the default). Throws UsageError when the degraded network is
/// partitioned, its periodic search stopped at a wall-clock cap (another engine's plan could
/// differ) or its period does not fit the tiles' table depth.
[[nodiscard]] RecoveryPlan plan_link_recovery(const Topology& t, const TdmTables& healthy, NodeId a, NodeId b,
                                              int detect_period, double budget_seconds = 0);

/// Which period a delivery of the new regime belongs to: k >= A when (src, dst) of period k is due at
/// that step under the new table with that payload; nullopt otherwise.
[[nodiscard]] std::optional<std::int64_t> period_after_swap(const RecoveryPlan& plan, const Delivery& d, int periods);

/// The reference model's run and what it predicts.
struct RecoveryReference {
  LinkFault fault;
  TdmTables healthy;  // the tables before the swap
  RecoveryPlan plan;
  std::vector<Delivery> trace;  // every delivery: step = the ejecting cycle - 1 (as the trace of every TDM run)
  std::int64_t expected_cycles = 0;  // the last delivery's step + 1 of an intact message
  std::int64_t intact = 0;           // messages delivered intact
  std::int64_t messages = 0;         // K * N * (N-1)
  std::vector<std::string> lost;     // every lost message, named with why
  std::vector<std::int64_t> lost_per_period;  // [k]
  std::int64_t corrupted = 0;        // deliveries of a stuck or stray flit (a wrong payload or label)
  /// Per node and input link: the left flits (the link error counter's count) over the run.
  std::vector<std::vector<std::int64_t>> left;
  /// The cycles a harness runs with run_i high: K-1's last slot, the new schedule's drain, a margin.
  std::int64_t run_cycles = 0;
  std::vector<std::string> errors;   // the model against the schedules (must be empty)
  [[nodiscard]] std::string digest_after(int periods) const;  // SHA-256 of the deliveries of periods >= A
};

/// The table-level flit model of the whole run (nic tiles, one register per hop, the stuck link,
/// the poll, the swap): deterministic, no clock. `run_cycles` = the cycles a harness runs. It plans
/// with plan_link_recovery at `budget_seconds`, as the harness's controller must.
[[nodiscard]] RecoveryReference run_recovery_reference(const Topology& t, const TdmTables& healthy,
                                                       const LinkFault& fault, int periods, double budget_seconds = 0);

/// Compares an engine's deliveries with the model's, delivery by delivery (up to a few named).
[[nodiscard]] std::vector<std::string> compare_recovery_trace(const RecoveryReference& ref,
                                                              const std::vector<Delivery>& observed);

/// The `recovery` object of a run's JSON (fault, detection, degraded schedule and bound, swap,
/// periods lost, every lost message, digests), as text.
[[nodiscard]] std::string recovery_json(const RecoveryReference& ref, const std::vector<Delivery>& observed, int periods);

/// Fills a SimResult from the model and an engine's deliveries (ref: its own trace).
void fill_recovery_result(SimResult& r, const RecoveryReference& ref, const std::vector<Delivery>& observed, int periods);

}  // namespace totex
