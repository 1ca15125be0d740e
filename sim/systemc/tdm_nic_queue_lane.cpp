// SPDX-License-Identifier: Apache-2.0
#include "tdm_nic_queue_lane.hpp"

#include <algorithm>

namespace totex::sim {

namespace {
std::size_t at(int i) { return static_cast<std::size_t>(i); }
}  // namespace

TdmNicQueueLane::TdmNicQueueLane(int node_bits, int depth)
    : nw_(node_bits),
      nodes_(1 << node_bits),
      depth_(depth),
      cmask_(2 * depth - 1),
      wr_(at(nodes_), 0),
      rd_(at(nodes_), 0),
      sendbuf_(at(depth) * at(nodes_), 0) {}

void TdmNicQueueLane::reset() {
  std::fill(wr_.begin(), wr_.end(), 0);
  std::fill(rd_.begin(), rd_.end(), 0);
  hv_ = rdy_ = false;
  dec_ = has_ = key_h_ = false;
}

/// Every register's next value from the values before the edge, as totex_tdm_nic_queue.sv.
void TdmNicQueueLane::edge(const TdmNicLane::Edge& in) {
  const int tdest = in.tdest & (nodes_ - 1);
  const bool commit = hv_ && waiting(hd_) != depth_;
  const bool accept = in.offer && rdy_;
  const bool hv_d = accept || (hv_ && !commit);
  const int hd_d = accept ? tdest : hd_;
  const bool dec_has = in.key && waiting(in.ent_dst) != 0;
  const bool inject = in.adv && dec_has;
  // s_tready next: the counts after this edge at the next head's destination.
  int wr_n = wr_[at(hd_d)], rd_n = rd_[at(hd_d)];
  if (commit && hd_ == hd_d) ++wr_n;
  if (inject && in.ent_dst == hd_d) ++rd_n;
  const bool rdy_d = !hv_d || ((wr_n - rd_n) & cmask_) != depth_;

  // The send buffer: registered read at the decision (of the words before this edge's write).
  const int word = (depth_ - 1);
  if (in.adv) sb_rdata_ = sendbuf_[at(((rd_[at(in.ent_dst)] & word) << nw_) | in.ent_dst)];
  if (commit) sendbuf_[at(((wr_[at(hd_)] & word) << nw_) | hd_)] = hdata_;
  if (commit) wr_[at(hd_)] = (wr_[at(hd_)] + 1) & cmask_;
  if (inject) rd_[at(in.ent_dst)] = (rd_[at(in.ent_dst)] + 1) & cmask_;
  hv_ = hv_d;
  rdy_ = rdy_d;
  if (accept) {
    hd_ = tdest;
    hdata_ = in.tdata;
  }
  dec_ = in.adv;
  if (in.adv) {
    has_ = dec_has;
    key_h_ = in.key;
  }
}

}  // namespace totex::sim
