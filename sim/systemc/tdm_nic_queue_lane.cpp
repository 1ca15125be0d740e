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
      cnt_(at(nodes_), 0),
      wr_(at(nodes_), 0),
      rd_(at(nodes_), 0),
      sendbuf_(at(depth) * at(nodes_), 0) {}

void TdmNicQueueLane::reset() {
  std::fill(cnt_.begin(), cnt_.end(), 0);
  std::fill(wr_.begin(), wr_.end(), 0);
  std::fill(rd_.begin(), rd_.end(), 0);
  q_ = Regs{};
  edges_ = 0;
}

/// Every register's next value from the values before the edge, as totex_tdm_nic_queue.sv.
void TdmNicQueueLane::edge(const TdmNicLane::Edge& in) {
  const Regs o = q_;
  Regs& n = q_;
  const int ptr = depth_ - 1;  // pointers modulo the depth
  const int tdest = in.tdest & (nodes_ - 1);
  // Inject side: the decided destination's count as read ahead, and what the last edge did to it.
  const int la = in.look_next ? in.pre_dst : in.ent_dst;
  const int l_cnt = o.lc + (o.lc1 ? 1 : 0) - (o.li1 ? 1 : 0);
  const bool dec_has = in.key && l_cnt != 0;
  const bool inject = in.adv && dec_has;
  const int l_rd = (o.lr + (o.li1 ? 1 : 0)) & ptr;
  // Send side: the head commits when its queue has room; a new head from the skid or the offer.
  const int h_cnt = o.hc + (o.hc1 ? 1 : 0) - (o.hi1 ? 1 : 0);
  const int h_wr = (o.hw + (o.hc1 ? 1 : 0)) & ptr;
  const bool commit = o.hv && h_cnt != depth_;
  const bool accept = in.offer && o.rdy;
  const bool head_free = !o.hv || commit;
  const bool take = head_free && (o.sv || accept);
  const int cand = o.sv ? sd_ : tdest;

  // The send buffer: registered read at the decision (of the words before this edge's write).
  if (in.adv) sb_rdata_ = sendbuf_[at((l_rd << nw_) | in.ent_dst)];
  if (commit) sendbuf_[at((h_wr << nw_) | hd_)] = hdata_;

  // Read-ahead registers (of the state before this edge's updates, plus this edge's flags).
  n.lc = cnt_[at(la)];
  n.lr = rd_[at(la)];
  n.lc1 = commit && hd_ == la;
  n.li1 = inject && in.ent_dst == la;
  if (take) {
    n.hc = cnt_[at(cand)];
    n.hw = wr_[at(cand)];
    n.hc1 = commit && hd_ == cand;
    n.hi1 = inject && in.ent_dst == cand;
  } else {
    n.hc = h_cnt;
    n.hw = h_wr;
    n.hc1 = false;
    n.hi1 = inject && in.ent_dst == hd_;
  }
  // Per-destination state.
  if (commit) {
    ++cnt_[at(hd_)];
    wr_[at(hd_)] = (h_wr + 1) & ptr;
  }
  if (inject) {
    --cnt_[at(in.ent_dst)];
    rd_[at(in.ent_dst)] = (l_rd + 1) & ptr;
  }
  // The head, the skid, s_tready.
  n.hv = take || (o.hv && !commit);
  n.sv = o.sv ? !head_free : (accept && !head_free);
  n.rdy = !n.sv && edges_ >= nodes_ - 1;  // the RTL's sweep: no offer before its last cycle
  if (edges_ < nodes_) ++edges_;
  if (take) {
    hdata_ = o.sv ? sdata_ : in.tdata;
    hd_ = cand;
  }
  if (accept && !head_free) {
    sd_ = tdest;
    sdata_ = in.tdata;
  }
  // Decision registers.
  n.dec = in.adv;
  if (in.adv) {
    n.has = dec_has;
    n.key_h = in.key;
  }
}

}  // namespace totex::sim
