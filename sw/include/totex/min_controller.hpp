// SPDX-License-Identifier: Apache-2.0
/// The controller side of the MIN hardware (rtl/totex_min_top.sv): the load-port address map and
/// the writes that program a run. The same code drives the Verilator RTL and the SystemC model.
#pragma once
#include <cstdint>
#include <vector>

#include "totex/min_network.hpp"
#include "totex/schedule.hpp"

namespace totex {

/// How switches get their states: a per-switch table of one state per step, or only M^0 with
/// each switch adding the step's base-d digit (paper 002's phase logic).
enum class MinConfigMode { Table, Computed };

/// Bits to index n things, at least 1: the RTL's totex_pkg::idx_width, for every port layout.
[[nodiscard]] int idx_width(std::int64_t n);

/// One load-port write.
struct LoadWrite {
  std::uint64_t addr;
  std::uint64_t data;
  bool operator==(const LoadWrite& o) const { return addr == o.addr && data == o.data; }
};

/// Field widths of totex_min_top for given parameters; mirrors its localparams.
struct MinPortLayout {
  MinPortLayout(const MinNetwork& net, int max_steps, int payload_bits);
  int terminal_bits;  // IW = idx_width(N)
  int step_bits;      // SXW = idx_width(MaxSteps)
  int index_bits;     // XW = idx_width(max(switches, N))
  int payload_bits;   // PW
  int state_bits;     // idx_width(d)
  int count_bits;     // CW = idx_width(N + 1), a terminal's receive counter
  /// {region[1:0], index, entry}; entry is step_bits wide.
  [[nodiscard]] std::uint64_t address(int region, std::uint64_t index, std::uint64_t entry) const;
  /// Region numbers (rtl/totex_pkg.sv).
  static constexpr int kRegionSwitchTable = 0;
  static constexpr int kRegionM0 = 1;
  static constexpr int kRegionSendQueue = 2;
  static constexpr int kRegionControl = 3;
  /// Control register index 0: number of steps of the next run minus one.
  static constexpr int kControlSteps = 0;
};

/// Writes that load the switch configuration: every switch's state for every step (table), or
/// M^0 (computed; the schedule must be paper 002's M^x family), plus the run's step count.
/// Throws UsageError when the schedule cannot run in that mode.
[[nodiscard]] std::vector<LoadWrite> min_configuration_writes(const MinNetwork& net, const MinSchedule& s,
                                                              MinConfigMode mode, const MinPortLayout& layout);

/// Writes that fill every NIC's send queue from phase 1's send order (order[s][x] = destination of
/// s in step x, -1 = idle): slot x of terminal s = {idle, dst, payload_of(s, dst)}.
[[nodiscard]] std::vector<LoadWrite> min_send_queue_writes(const std::vector<std::vector<int>>& order,
                                                           const MinPortLayout& layout);

}  // namespace totex
