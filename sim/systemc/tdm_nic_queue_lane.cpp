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
  skid_.clear();
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
  // Send side: the head commits when its queue has room as the send side sees it (commits up to
  // the last edge, injections up to the edge before: o.linj, the destination injected at the
  // last edge); the oldest skid entry moves to the head when it is free or commits.
  const int h_view = cnt_[at(hd_)] + (o.linj == hd_ ? 1 : 0);
  const bool commit = o.hv && h_view != depth_;
  const bool accept = in.offer && o.rdy;
  const bool move = !skid_.empty() && (!o.hv || commit);

  // The send buffer: registered read at the decision (of the words before this edge's write).
  if (in.adv) sb_rdata_ = sendbuf_[at((l_rd << nw_) | in.ent_dst)];
  if (commit) sendbuf_[at((wr_[at(hd_)] << nw_) | hd_)] = hdata_;

  // Read-ahead registers (of the state before this edge's updates, plus this edge's flags).
  n.lc = cnt_[at(la)];
  n.lr = rd_[at(la)];
  n.lc1 = commit && hd_ == la;
  n.li1 = inject && in.ent_dst == la;
  // Per-destination state.
  if (commit) {
    ++cnt_[at(hd_)];
    wr_[at(hd_)] = (wr_[at(hd_)] + 1) & ptr;
  }
  if (inject) {
    --cnt_[at(in.ent_dst)];
    rd_[at(in.ent_dst)] = (l_rd + 1) & ptr;
  }
  // The head, the skid, s_tready.
  n.hv = move || (o.hv && !commit);
  if (move) {
    hd_ = skid_.front().first;
    hdata_ = skid_.front().second;
    skid_.pop_front();
  }
  if (accept) skid_.emplace_back(tdest, in.tdata);
  n.rdy = skid_.size() <= 1 && edges_ >= nodes_ - 1;  // the RTL's sweep: no offer before its last cycle
  if (edges_ < nodes_) ++edges_;
  n.linj = inject ? in.ent_dst : -1;
  // Decision registers.
  n.dec = in.adv;
  if (in.adv) {
    n.has = dec_has;
    n.key_h = in.key;
  }
}

}  // namespace totex::sim
