// SPDX-License-Identifier: Apache-2.0
#include "tdm_nic_lane.hpp"

namespace totex::sim {

namespace {
std::size_t at(int i) { return static_cast<std::size_t>(i); }
}  // namespace

TdmNicLane::TdmNicLane(int node_bits)
    : nw_(node_bits),
      nodes_(1 << node_bits),
      s_(at(nodes_), 0),
      r_(at(nodes_), 0),
      sendbuf_(2 * at(nodes_), 0) {}

void TdmNicLane::reset() {
  const Regs held = q_;
  q_ = Regs{};
  // No reset in the RTL, but loaded at every edge in reset (the harness clocks in reset): the
  // buffer's write enable and the forward flag with go low, la with hd = 0.
  q_.s_i = held.s_i;
  q_.r_i = held.r_i;
  q_.s_s = held.s_s;
  q_.r_s = held.r_s;
  q_.eq1 = held.eq1;
  q_.f2 = held.f2;
  q_.rq = held.rq;
  q_.dec_d = held.dec_d;
  q_.hdata = held.hdata;
  q_.fq_r = held.fq_r;
  q_.ps = held.ps;
  q_.pf = held.pf;
  q_.pr = held.pr;
  q_.sb_wa = held.sb_wa;
  q_.sb_wd = held.sb_wd;
}

/// Every flip-flop's next value from the values before the edge (o), as totex_tdm_nic.sv.
void TdmNicLane::edge(const Edge& in) {
  const Regs o = q_;
  Regs& n = q_;
  const int mask = nodes_ - 1;
  const int tdest = in.tdest & mask;
  const bool sweep = o.sw < nodes_;  // the clearing sweep after reset (sw's top bit low)

  // The memories' addresses: the inject side reads the next slot's destination when the pipeline
  // moves (else the decided slot's again, so that a commit made meanwhile is seen); the send side
  // reads an offer's destination at its acceptance, else the park's.
  const int ia = in.look_next ? in.pre_dst : in.ent_dst;
  const int ra = o.rdy ? tdest : o.la;

  // Inject side: a slot after one of the two decided before it for the same destination that
  // sent misses (their R writes may not be in its read).
  const bool dec_x = in.key && !o.f2 && !(o.eq1 && o.has);
  const bool dec_has = dec_x && o.s_i != o.r_i;
  // R write in the cycle after a decision that sent (and the sweep): R[d] := ~R[d].
  const bool rw_we = sweep || (o.dec && o.has);
  const int rw_a = sweep ? o.sw & mask : o.dec_d;
  const bool rw_d = !sweep && !o.rq;

  // Send side: the head placed in this cycle (go) commits or parks; S[d] := ~R[d] as read, which
  // flips S exactly when the read shows the entry free and rewrites it otherwise.
  const bool go = o.hvh && !o.pv;
  const bool occ = o.s_s != o.r_s;
  const bool s_we = sweep || (o.pv ? o.vq : o.hvh);
  const int s_wa = o.pv ? o.la : o.hd;
  const bool s_wd = !sweep && !o.r_s;
  const bool pk_now = o.pv ? !o.vq : (o.hvh && o.fq);  // parks whatever the bits show
  const bool pk_occ = o.pv || o.hvh;                   // parks if they show the entry occupied
  const bool rdy_k = !o.pv && !(o.hv && (o.vq || o.fq));
  // The placed head's free word: ~S[d] as read, or the previous head's write at the read's edge.
  const bool px = o.pf ? o.pr : !o.ps;

  // Registered reads (the old contents: read before write), then the writes.
  n.s_i = s_[at(ia)] != 0;
  n.r_i = r_[at(ia)] != 0;
  n.s_s = s_[at(ra)] != 0;
  n.r_s = r_[at(ra)] != 0;
  if (in.adv) sb_rdata_ = sendbuf_[at(((o.s_i ? 1 : 0) << nw_) | in.ent_dst)];
  if (o.sb_we) sendbuf_[at(((px ? 1 : 0) << nw_) | o.sb_wa)] = o.sb_wd;
  if (s_we) s_[at(s_wa)] = s_wd ? 1 : 0;
  if (rw_we) r_[at(rw_a)] = rw_d ? 1 : 0;

  // Inject side's flip-flops.
  if (in.adv) {
    n.eq1 = in.pre_dst == in.ent_dst;
    n.f2 = in.pre_dst == o.dec_d && o.has;
    n.dec_d = in.ent_dst;
    n.rq = o.r_i;
    n.has = dec_has;
    n.key_h = in.key;
  }
  n.dec = in.adv;

  // Send side's flip-flops. s_tready returns one cycle after a park commits (not from the commit's
  // own read).
  n.rdy = rdy_k && !(o.hvh && occ);
  if (o.rdy) n.hv = in.offer;
  else if (sweep && !o.swn) n.hv = false;  // the sweep's last cycle
  n.pv = pk_now || (pk_occ && occ);
  n.vq = o.pv || o.swn;
  n.hvh = (o.rdy ? in.offer : o.hv) && (o.rdy || (!o.pv && o.hv && o.lih));
  n.lih = !o.pv && !o.rdy && !o.swn;
  if (o.rdy) n.hd = tdest;
  else if (sweep) n.hd = (o.hd + 1) & mask;  // the sweep's S address
  if (o.rdy) n.hdata = in.tdata;
  if (!o.pv) n.la = o.hd;
  n.fq = go && tdest == o.hd;
  n.fq_r = o.r_s;
  if (!o.pv) {
    n.ps = o.s_s;
    n.pf = o.fq;
    n.pr = o.fq_r;
  }
  n.sb_we = go;
  n.sb_wa = o.hd;
  n.sb_wd = o.hdata;
  // swn: not the sweep's last two cycles (a sweep of two cycles at NodeW 1).
  n.swn = sweep && nw_ > 1 && ((o.sw & mask) >> 1) != (mask >> 1);
  if (sweep) n.sw = o.sw + 1;
}

}  // namespace totex::sim
