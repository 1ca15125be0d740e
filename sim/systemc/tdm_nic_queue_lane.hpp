// SPDX-License-Identifier: Apache-2.0
/// SystemC model of the NIC lane with a queue per destination (rtl/tdm/totex_tdm_nic_queue.sv:
/// every tile's lanes with QueueDepth > 1, multi-flit traffic; docs/tdm-tile.md, "Traffic"). A plain
/// class stepped by its tile (tdm_tile.hpp) at each rising edge, with the same inputs and outputs
/// as TdmNicLane (the queue-less lane).
///
/// Exact to the cycle at its ports (tests/rtl/tdm/tb_tdm_nic_queue.cpp compares the two every
/// cycle): per destination the messages committed and injected (the RTL's block-RAM counts, read
/// ahead and kept in registers there: exact, so kept here as plain counts); a decision at an
/// advance sends iff its destination has a message and takes it at the same edge; the payload read
/// from the send buffer at the decision, written at the commit. The send side as the RTL's since
/// its timing pass (2026-11-29): a skid FIFO of two accepted offers (s_tready high unless it holds
/// two after the edge, and low during the clearing sweep: the first 2^NodeW - 1 edges after reset)
/// whose oldest moves to the head when the head is free or commits; the head commits from the
/// cycle after its move when its queue has room as the send side sees it (commits up to the last
/// edge, injections up to the edge before), so an offer accepted at edge a commits at a + 2 or
/// later.
#pragma once
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "tdm_nic_lane.hpp"

namespace totex::sim {

class TdmNicQueueLane {
 public:
  /// 2^node_bits destinations, `depth` (a power of two >= 2) waiting messages each.
  TdmNicQueueLane(int node_bits, int depth);

  void reset();
  void edge(const TdmNicLane::Edge& in);

  [[nodiscard]] bool ready() const { return q_.rdy; }
  [[nodiscard]] bool has() const { return q_.has; }
  [[nodiscard]] std::uint64_t data() const { return sb_rdata_; }
  [[nodiscard]] bool miss() const { return q_.dec && q_.key_h && !q_.has; }

 private:
  /// The RTL's control flip-flops (names without _q; reset to these values).
  struct Regs {
    int lc = 0, lr = 0;            // read-ahead of the destination decided next
    bool lc1 = false, li1 = false;
    bool hv = false, rdy = false;
    int linj = -1;                 // the destination injected at the last edge (-1: none)
    bool dec = false, has = false, key_h = false;
  };

  const int nw_, nodes_, depth_;
  int edges_ = 0;                   // edges since reset (the sweep: s_tready low before 2^NodeW - 1)
  std::vector<int> cnt_, wr_, rd_;  // [2^NodeW]
  Regs q_;
  int hd_ = 0;                      // the head's destination (no reset)
  std::uint64_t hdata_ = 0;
  std::deque<std::pair<int, std::uint64_t>> skid_;  // the skid FIFO (at most two), oldest first
  std::vector<std::uint64_t> sendbuf_;  // [depth * 2^NodeW], word {pointer, d}
  std::uint64_t sb_rdata_ = 0;
};

}  // namespace totex::sim
