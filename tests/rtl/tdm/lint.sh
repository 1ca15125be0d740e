#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Lint gate of the TDM tiles (rtl/tdm/tdm.f): `verilator --lint-only -Wall` of every module as its
# own top at several parameter sets. Waivers: tests/rtl/lint_waivers.vlt (the shared package's
# unused constants). Fails on any warning.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rtl="$(cd "$here/../../../rtl" && pwd)"
mapfile -t files < <("$rtl/filelist.sh" "$rtl/tdm/synth.f")
fail=0
run() {
  local log
  if log=$(verilator --lint-only -Wall --top-module "$@" "$here/../lint_waivers.vlt" "${files[@]}" 2>&1); then
    echo "lint ok   $*"
  else
    echo "lint FAIL $*"; echo "$log"; fail=1
  fi
}
run totex_tdm_ram
run totex_tdm_bits
run totex_tdm_bits -GDepth=16
run totex_tdm_bits -GDepth=16 -GInFlops=1\'b1
run totex_tdm_tile
run totex_tdm_xbar
run totex_tdm_xbar -GNumPorts=6 -GDepth=67 -GPayloadW=8
for d in 2 8 32 256; do run totex_tdm_bits -GDepth=$d; done
run totex_tdm_tile -GNumPorts=1 -GNodeW=1 -GDepth=2
run totex_tdm_tile -GNumPorts=4 -GNodeW=4 -GDepth=18
run totex_tdm_tile -GNumPorts=4 -GNodeW=4 -GDepth=18 -GBitsInFlops=1\'b1
run totex_tdm_tile -GNumPorts=4 -GNodeW=8 -GDepth=526
run totex_tdm_tile -GNumPorts=6 -GNodeW=6 -GDepth=67 -GPayloadW=8
run totex_tdm_slot_pipe
run totex_tdm_slot_pipe -GShadow=1\'b1
run totex_tdm_slot_pipe -GShadow=1\'b1 -GDepth=68 -GPerW=8
run totex_tdm_axil
run totex_tdm_axil -GNumPorts=6 -GEntryW=33 -GSlotW=9
run totex_tdm_ctl_tile
run totex_tdm_ctl_tile -GNumPorts=1 -GNodeW=1 -GDepth=2
run totex_tdm_ctl_tile -GNumPorts=4 -GNodeW=6 -GDepth=68
run totex_tdm_ctl_tile -GNumPorts=6 -GNodeW=6 -GDepth=67 -GPayloadW=8
run totex_tdm_shell -GShadow=1\'b1
run totex_tdm_nic
run totex_tdm_status
run totex_tdm_status -GLanes=4 -GPorts=6 -GMissW=8
run totex_tdm_nic -GNodeW=2 -GBitsInFlops=1\'b1
# The NIC queue (multi-flit traffic) and the nic tile with it (the entry's last bit, m_axis_tlast).
run totex_tdm_nic_queue
run totex_tdm_nic_queue -GNodeW=1 -GQueueDepth=2 -GPayloadW=1
run totex_tdm_nic_queue -GNodeW=4 -GQueueDepth=8
run totex_tdm_nic_queue -GHeadReads=1
run totex_tdm_nic_queue -GNodeW=1 -GQueueDepth=2 -GPayloadW=1 -GHeadReads=1
run totex_tdm_tile -GQueueDepth=2
run totex_tdm_tile -GNumPorts=4 -GNodeW=4 -GDepth=32 -GQueueDepth=4
run totex_tdm_shell -GQueueDepth=2
run totex_synth_tdm -GKind=0 -GQueueDepth=2 -GNodeW=4 -GDepth=32
run totex_tdm_allport_tile
run totex_tdm_allport_tile -GNumPorts=1 -GNodeW=1 -GDepth=2
run totex_tdm_allport_tile -GNumPorts=6 -GNodeW=6 -GDepth=32 -GPayloadW=8
run totex_tdm_allport_tile -GNumPorts=4 -GNodeW=4 -GDepth=8 -GBitsInFlops=1\'b1
run totex_tdm_single_tile
run totex_tdm_single_tile -GNumPorts=1 -GNodeW=1 -GDepth=2 -GBufDepth=1
run totex_tdm_single_tile -GNumPorts=6 -GNodeW=6 -GDepth=200 -GPayloadW=8 -GBufDepth=5
# The all-port and single-port tiles with NIC queues (multi-flit traffic: the entry's last bits,
# m_axis_tlast).
run totex_tdm_allport_tile -GQueueDepth=2
run totex_tdm_allport_tile -GNumPorts=1 -GNodeW=1 -GDepth=2 -GQueueDepth=2
run totex_tdm_allport_tile -GNumPorts=4 -GNodeW=4 -GDepth=32 -GQueueDepth=4
run totex_tdm_single_tile -GQueueDepth=2
run totex_tdm_single_tile -GNumPorts=1 -GNodeW=1 -GDepth=2 -GBufDepth=1 -GQueueDepth=2
run totex_tdm_single_tile -GNumPorts=4 -GNodeW=4 -GDepth=64 -GBufDepth=8 -GQueueDepth=4
run totex_synth_tdm -GKind=1 -GQueueDepth=2 -GNodeW=4 -GDepth=32
run totex_synth_tdm -GKind=2 -GQueueDepth=2 -GNodeW=4 -GDepth=32
run totex_tdm_shell
run totex_tdm_shell -GKind=1 -GNumPorts=3 -GNodeW=2 -GDepth=5
run totex_tdm_shell -GKind=2 -GBufW=3
run totex_tdm_router
run totex_tdm_nic_route
run totex_tdm_nic_route -GNumPorts=1 -GPayloadW=1
run totex_tdm_nic_route -GNumPorts=6 -GPayloadW=8
run totex_tdm_axil_fanout
run totex_tdm_axil_fanout -GN=1 -GAddrW=6
run totex_tdm_axil_fanout -GN=64 -GAddrW=10
run totex_tdm_router -GNumPorts=1 -GPayloadW=1
# The synthesis wrapper around each design (Kind: totex_tdm_pkg::KIND_NIC, _ALLPORT, _SINGLE, _XBAR).
for k in 0 1 2 3; do run totex_synth_tdm -GKind=$k; done
run totex_synth_tdm -GKind=1 -GNumPorts=1 -GNodeW=1 -GDepth=2
exit $fail
