// SPDX-License-Identifier: Apache-2.0
/// SystemC model of the NIC lane with a queue per destination (rtl/tdm/totex_tdm_nic_queue.sv:
/// the nic tile with QueueDepth > 1, multi-flit traffic; docs/tdm-tile.md, "Traffic"). A plain
/// class stepped by its tile (tdm_tile.hpp) at each rising edge, with the same inputs and outputs
/// as TdmNicLane (the queue-less lane).
///
/// Register for register the RTL: counts per destination modulo 2 * QueueDepth (wr committed, rd
/// injected) reset to 0; the head (an offer accepted at an edge) commits in the next cycle when its
/// destination's queue has room, writing the send buffer at {wr[d] mod Q, d}; s_tready for the
/// next cycle is high when the next head (if any) finds room with the counts after the edge; a
/// decision at an advance sends iff wr[d] != rd[d], rd[d] + 1 at the same edge, the payload read
/// at {rd[d] mod Q, d} at that edge.
#pragma once
#include <cstdint>
#include <vector>

#include "tdm_nic_lane.hpp"

namespace totex::sim {

class TdmNicQueueLane {
 public:
  /// 2^node_bits destinations, `depth` (a power of two >= 2) waiting messages each.
  TdmNicQueueLane(int node_bits, int depth);

  void reset();
  void edge(const TdmNicLane::Edge& in);

  [[nodiscard]] bool ready() const { return rdy_; }
  [[nodiscard]] bool has() const { return has_; }
  [[nodiscard]] std::uint64_t data() const { return sb_rdata_; }
  [[nodiscard]] bool miss() const { return dec_ && key_h_ && !has_; }

 private:
  /// Messages waiting for d (the counts' difference modulo 2 * depth).
  [[nodiscard]] int waiting(int d) const { return (wr_[static_cast<std::size_t>(d)] - rd_[static_cast<std::size_t>(d)]) & cmask_; }

  const int nw_, nodes_, depth_, cmask_;
  std::vector<int> wr_, rd_;               // [2^NodeW] counts modulo 2 * depth
  bool hv_ = false, rdy_ = false;          // the head is valid; s_tready
  int hd_ = 0;                             // the head's destination (no reset in the RTL)
  std::uint64_t hdata_ = 0;
  bool dec_ = false, has_ = false, key_h_ = false;
  std::vector<std::uint64_t> sendbuf_;     // [depth * 2^NodeW], word {count mod depth, d}
  std::uint64_t sb_rdata_ = 0;
};

}  // namespace totex::sim
