// SPDX-License-Identifier: Apache-2.0
/// The controller side of the MIN hardware (rtl/totex_min_top.sv): the load-port address map and
/// the writes that program a run. The same code drives the Verilator RTL and the SystemC model.
#pragma once
#include <cstdint>
#include <vector>

#include "totex/load_port.hpp"
#include "totex/network/min_network.hpp"
#include "totex/rtl_constants.hpp"  // generated from rtl/totex_pkg.sv
#include "totex/schedule.hpp"

namespace totex {

/// How switches get their states: a per-switch table of one state per step, or only M^0 with
/// each switch adding the step's base-d digit (paper 002's phase logic).
enum class MinConfigMode { Table, Computed };

/// Field widths of totex_min_top for given parameters (its localparams; tests/rtl/test_min.cpp runs
/// the controller's writes on the RTL).
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
  /// The fields of an address: the inverse of address() (harnesses and models decode the load
  /// port with it).
  struct AddressFields {
    int region;
    std::uint64_t index, entry;
  };
  [[nodiscard]] AddressFields fields(std::uint64_t addr) const;
  /// Width of a message inside the network, {src, dst, step, payload}: the RTL NIC's and banyan's W.
  [[nodiscard]] int message_bits() const { return 2 * terminal_bits + step_bits + payload_bits; }
  /// The RTL's Mode parameter (rtl/totex_pkg.sv MODE_*) for a configuration mode.
  [[nodiscard]] static int mode_code(MinConfigMode mode);
  /// Width of the region field (rtl/totex_pkg.sv: REGION_* are logic [1:0]).
  static constexpr int kRegionBits = 2;
  /// Region numbers (generated from rtl/totex_pkg.sv REGION_*).
  static constexpr int kRegionSwitchTable = rtl::totex_pkg::REGION_SWITCH_TABLE;
  static constexpr int kRegionM0 = rtl::totex_pkg::REGION_M0;
  static constexpr int kRegionSendQueue = rtl::totex_pkg::REGION_SEND_QUEUE;
  static constexpr int kRegionControl = rtl::totex_pkg::REGION_CONTROL;
  /// Control register CONTROL_LAST_STEP: number of steps of the next run minus one.
  static constexpr int kControlSteps = rtl::totex_pkg::CONTROL_LAST_STEP;
  /// Control register CONTROL_REPEAT: 1 when pairs may repeat in a run (a traffic's configurations).
  static constexpr int kControlRepeat = rtl::totex_pkg::CONTROL_REPEAT;
};

/// Writes that load the switch configuration: every switch's state for every step (table), or
/// M^0 (computed; the schedule must be paper 002's M^x family), plus the run's step count, and for
/// a traffic's configurations (MinSchedule::traffic) the repeat flag.
/// Throws UsageError when the schedule cannot run in that mode.
[[nodiscard]] std::vector<LoadWrite> min_configuration_writes(const MinNetwork& net, const MinSchedule& s,
                                                              MinConfigMode mode, const MinPortLayout& layout);

/// Writes that fill every NIC's send queue from phase 1's send order (order[s][x] = destination of
/// s in step x, -1 = idle): slot x of terminal s = {idle, dst, payload_of(s, dst, k)}, the k-th
/// slot of s for dst carrying flit k (k = 0 when every pair is sent once).
[[nodiscard]] std::vector<LoadWrite> min_send_queue_writes(const std::vector<std::vector<int>>& order,
                                                           const MinPortLayout& layout);

}  // namespace totex
