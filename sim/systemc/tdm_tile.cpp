// SPDX-License-Identifier: Apache-2.0
#include "tdm_tile.hpp"

#include <algorithm>

namespace totex::sim {

namespace {
std::size_t at(int i) { return static_cast<std::size_t>(i); }
int words_of(const TdmTileParams& p) { return (p.entry_bits() + 63) / 64; }
}  // namespace

TdmTile::TdmTile(const sc_core::sc_module_name& name, const TdmTileParams& params, int node, ModelChecks& checks,
                 bool shadow)
    : sc_module(name),
      in_valid("in_valid", at(params.ports)),
      in_data("in_data", at(params.ports)),
      out_valid("out_valid", at(params.ports)),
      out_data("out_data", at(params.ports)),
      tbl_data("tbl_data", at(words_of(params))),
      s_tvalid("s_tvalid", at(params.lanes())),
      s_tready("s_tready", at(params.lanes())),
      s_tdata("s_tdata", at(params.lanes())),
      s_tdest("s_tdest", at(params.lanes())),
      m_tvalid("m_tvalid", at(params.lanes())),
      m_tready("m_tready", at(params.lanes())),
      m_tdata("m_tdata", at(params.lanes())),
      m_tid("m_tid", at(params.lanes())),
      m_tlast("m_tlast", at(params.lanes())),
      sh_data("sh_data", at(words_of(params))),
      link_cnt("link_cnt", at(params.ports)),
      p_(params),
      shadow_(shadow),
      node_(node),
      ports_(params.ports),
      lanes_(params.lanes()),
      mask_(params.payload_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << params.payload_bits) - 1),
      checks_(checks),
      idle_(decode_tdm_entry(std::vector<std::uint64_t>(at(words_of(params)), 0), params)),
      table_(at(params.depth) * (shadow ? 2U : 1U), std::vector<std::uint64_t>(at(words_of(params)), 0)),
      rdata_(at(words_of(params)), 0),
      pre_(idle_),
      ent_(idle_),
      ent_inj_(at(lanes_), 0),
      queued_(params.queue_depth > 1),
      nic_(queued_ ? 0 : at(lanes_), TdmNicLane(params.node_bits)),
      qnic_(queued_ ? at(lanes_) : 0, TdmNicQueueLane(params.node_bits, params.queue_depth)),
      sel_(at(params.ports), -1),
      ej_(at(lanes_), -1),
      ejsrc_(at(lanes_), 0),
      ejlast_(at(lanes_), 1),
      relay_valid_(at(params.kind == TileKind::SinglePort ? params.buffer_words : 0), 0),
      relay_data_(at(params.kind == TileKind::SinglePort ? params.buffer_words : 0), 0),
      out_valid_q_(at(params.ports), 0),
      m_valid_q_(at(lanes_), 0),
      out_data_q_(at(params.ports), 0),
      m_data_q_(at(lanes_), 0),
      m_tid_q_(at(lanes_), 0),
      m_tlast_q_(at(lanes_), 1),
      miss_q_(at(lanes_), 0),
      left_q_(at(params.ports), 0),
      left_qq_(at(params.ports), 0),
      cnt_(at(params.ports), 0),
      cnt_vis_(at(params.ports), 0) {
  if (shadow && params.kind != TileKind::Nic) fail("the shadow bank is the nic tile's (the ctl tile)");
  SC_METHOD(on_clock);  // also runs once at initialisation: publishes the reset values
  sensitive << clk.pos() << rst_n.neg();
}

void TdmTile::fail(const std::string& what) {
  checks_.fail("tdm tile " + std::to_string(node_) + ": " + what);
}

void TdmTile::on_clock() {
  if (!rst_n.read()) reset_control();
  else if (clk.posedge()) edge();
  publish();
}

/// What rst_ni resets in the RTL: control state only (the load count, priming, the entry flags
/// and keys, the NIC lanes' control, counters, the sticky error); the datapath (the relay buffer
/// included) keeps its contents.
void TdmTile::reset_control() {
  swc_ = 1;
  init_ = true;
  primed_ = false;
  pc_ = 0;
  rdv_ = prev_ = entv_ = false;
  std::fill(ent_inj_.begin(), ent_inj_.end(), 0);
  dec_q_ = dup_h_ = false;
  for (TdmNicLane& lane : nic_) lane.reset();
  for (TdmNicQueueLane& lane : qnic_) lane.reset();
  std::fill(sel_.begin(), sel_.end(), -1);
  std::fill(ej_.begin(), ej_.end(), -1);
  send_port_ = recv_port_ = -1;
  send_src_ = recv_act_ = 0;
  std::fill(out_valid_q_.begin(), out_valid_q_.end(), 0);
  std::fill(m_valid_q_.begin(), m_valid_q_.end(), 0);
  missed_lo_ = missed_hi_ = miss_c_ = 0;
  std::fill(miss_q_.begin(), miss_q_.end(), 0);
  miss_n_ = 0;
  err_ = ea_ = eb_ = left_ = false;
  bank_ = armed_ = hit_ = eq_ = late_ = behind_ = arm_d_ = arm_dd_ = swap_ = wrap_ = false;
  nxt_ = 1;
  arm_q_ = 0;
  nxt_s_ = 1;
  arm_s_ = 0;
  std::fill(cnt_.begin(), cnt_.end(), 0);
  std::fill(cnt_vis_.begin(), cnt_vis_.end(), 0);
}

/// The datapath of the executing slot (the decided selects, registered at the previous advance),
/// from the values before the edge; reports a flit left on an input.
TdmTile::Exec TdmTile::execute(bool exec) {
  Exec x{std::vector<char>(at(ports_), 0), std::vector<char>(at(lanes_), 0),
         std::vector<std::uint64_t>(at(ports_), 0), std::vector<std::uint64_t>(at(lanes_), 0)};
  x.left_in.assign(at(ports_), 0);
  auto left = [&](int i, const char* what) {
    if (!exec || !in_valid[at(i)].read()) return;
    x.left = true;
    x.left_in[at(i)] = 1;
    fail("a flit left on input link " + std::to_string(i) + " (" + what + ")");
  };
  if (p_.kind == TileKind::SinglePort) {
    const bool rcv_v = recv_port_ >= 0 && in_valid[at(recv_port_)].read();
    const std::uint64_t rcv_d = recv_port_ >= 0 ? input(recv_port_) : 0;
    for (int i = 0; i < ports_; ++i)
      if (i != recv_port_) left(i, "the slot does not receive it");
    bool send_v = false;
    std::uint64_t send_d = 0;
    if (send_src_ == 0) {
      send_v = lane_has(0);
      send_d = lane_data(0);
    } else if (send_src_ == 1) {
      send_v = rcv_v;
      send_d = rcv_d;
    } else if (send_src_ == 2) {
      send_v = relay_valid_[at(send_buf_)] != 0;
      send_d = relay_data_[at(send_buf_)];
    }
    for (int o = 0; o < ports_; ++o) {  // one data register drives every output
      x.out_valid[at(o)] = o == send_port_ && send_v ? 1 : 0;
      x.out_data[at(o)] = send_d;
    }
    x.m_valid[0] = exec && recv_act_ == 1 && rcv_v ? 1 : 0;
    x.m_data[0] = rcv_d;
    x.relay_store = exec && recv_act_ == 2;
    x.relay_word = recv_buf_;
    x.relay_valid = rcv_v;
    x.relay_data = rcv_d;
    return x;
  }
  for (int o = 0; o < ports_; ++o) {
    const int s = sel_[at(o)];
    if (s >= 0 && s < ports_) {
      x.out_valid[at(o)] = in_valid[at(s)].read() ? 1 : 0;
      x.out_data[at(o)] = input(s);
    } else if (s == ports_) {  // inject: the nic tile's one lane, the all-port tile's lane o
      const int lane = p_.kind == TileKind::AllPort ? o : 0;
      x.out_valid[at(o)] = lane_has(lane) ? 1 : 0;
      x.out_data[at(o)] = lane_data(lane);
    }
  }
  for (int l = 0; l < lanes_; ++l) {
    const int i = ej_[at(l)];
    x.m_valid[at(l)] = exec && i >= 0 && in_valid[at(i)].read() ? 1 : 0;
    x.m_data[at(l)] = i >= 0 ? input(i) : 0;
  }
  for (int i = 0; i < ports_; ++i)
    if (std::find(ej_.begin(), ej_.end(), i) == ej_.end() && std::find(sel_.begin(), sel_.end(), i) == sel_.end())
      left(i, "no output and no eject selects it");
  return x;
}

/// The execute registers of the decided slot (an invalid entry: idle).
void TdmTile::decide(bool valid, const TdmEntry& entry) {
  const TdmEntry& e = valid ? entry : idle_;
  if (p_.kind == TileKind::SinglePort) {
    send_port_ = e.send_port - 1;
    send_src_ = e.send_src;
    send_buf_ = e.send_buf;
    recv_port_ = e.recv_port - 1;
    recv_act_ = e.recv_act;
    recv_buf_ = e.recv_buf;
    ejsrc_[0] = e.eject_src;
    ejlast_[0] = p_.last_bit() ? (entry.eject_last ? 1 : 0) : 1;  // the RTL holds the entry's bit, valid or not
    return;
  }
  for (int o = 0; o < ports_; ++o) {
    const int s = e.out_sel[at(o)];
    sel_[at(o)] = s >= 1 && s <= ports_ + 1 ? s - 1 : -1;
  }
  if (p_.kind == TileKind::AllPort) {
    for (int i = 0; i < ports_; ++i) {
      ej_[at(i)] = e.eject_srcs[at(i)] >= 0 ? i : -1;
      ejsrc_[at(i)] = std::max(0, e.eject_srcs[at(i)]);
      // The entry's last bit of input link i (held valid or not, as the RTL).
      ejlast_[at(i)] = !p_.last_bit() || (at(i) < entry.eject_lasts.size() && entry.eject_lasts[at(i)] != 0) ? 1 : 0;
    }
  } else {
    ej_[0] = e.eject_sel >= 1 && e.eject_sel <= ports_ ? e.eject_sel - 1 : -1;
    ejsrc_[0] = e.eject_src;
    ejlast_[0] = p_.last_bit() ? (entry.eject_last ? 1 : 0) : 1;  // the RTL holds the entry's bit, valid or not
  }
}

/// Whether an entry injects on a lane (all-port: lane o on output o; else any output).
bool TdmTile::injects(const TdmEntry& e, int lane) const {
  return p_.kind == TileKind::AllPort ? e.out_sel[at(lane)] == ports_ + 1 : e.injections() > 0;
}

/// The destination a lane reads its toggle bits at for an entry.
int TdmTile::inject_dst(const TdmEntry& e, int lane) const {
  return p_.kind == TileKind::AllPort ? e.inject_dsts[at(lane)] : e.inject_dst;
}

/// One rising edge: every register's next value from the values before the edge (the inputs as
/// sampled at the edge), then all assigned.
void TdmTile::edge() {
  const bool we = tbl_we.read();
  const bool run_in = run.read();
  const int plast = period_last.read();
  const bool flush = we;
  // The slot pipeline moves: run (once primed) or a priming advance (prm_q = ~primed & ~init).
  const bool prm = !primed_ && !init_;
  const bool adv = ((run_in && primed_) || prm) && !flush;
  const bool look_next = run_in || !primed_;  // the lanes read the next slot's bits

  bool pending = false;  // a decided injection waits on some lane
  for (int l = 0; l < lanes_; ++l) pending = pending || lane_has(l);
  // The datapath takes run alone, as the RTL's (the same as run && primed under the contract).
  const Exec x = execute(run_in);
  bool err_overrun = false;
  for (int l = 0; l < lanes_; ++l) err_overrun = err_overrun || (m_valid_q_[at(l)] && !m_tready[at(l)].read());
  const bool err_early = run_in && !primed_;
  const bool err_lost = we && pending;
  const bool err_dup = dec_q_ && dup_h_;  // one cycle after the decision
  if (err_overrun) fail("m_axis tvalid while tready is low (receive overrun)");
  if (err_early) fail("run high before the slot pipeline is primed");
  if (err_lost) fail("table write while a decided injection is pending");
  if (err_dup) fail("table entry with two injecting outputs");

  // Slot control: 2^NodeW load cycles after reset or a table write (swc_ counts them from 1), then
  // four priming advances (pc_ 0..3).
  const int nodes = 1 << p_.node_bits;
  const bool init_old = init_, primed_old = primed_;
  if (flush) {
    swc_ = 1;
    init_ = true;
    primed_ = false;
    pc_ = 0;
  } else {
    init_ = swc_ < nodes;
    if (swc_ < nodes) ++swc_;
    if (!init_old && !primed_old) {
      primed_ = pc_ == 3;
      ++pc_;
    }
  }
  const int f_old = f_;
  const bool f_last = r_ == 0;  // the counter's last-slot flag: the next step wraps
  if (init_old) {
    f_ = 0;
    r_ = plast;
  } else if (adv) {
    const bool wrap = r_ == 0;
    f_ = wrap ? 0 : f_ + 1;
    r_ = wrap ? plast : r_ - 1;
  }

  // Slot table (registered read of the word before this edge's write), the pre-entry and entry
  // registers, their valid flags (set by the priming advances, cleared by a table write) and the
  // decision's key and double-inject flag beside the entry.
  const std::vector<std::uint64_t> rdata_old = rdata_;
  const int read_base = shadow_ && bank_ ? p_.depth : 0;
  if (adv) rdata_ = table_[at(read_base + f_old % p_.depth)];
  if (shadow_) {
    if (sh_we.read()) {
      const int a = sh_addr.read();
      if (a >= 0 && a < p_.depth)
        for (std::size_t w = 0; w < sh_data.size(); ++w) table_[at((bank_ ? 0 : p_.depth) + a)][w] = sh_data[w].read();
    }
    shadow_edge(flush, run_in, f_last, init_old, primed_old);
  } else if (we) {
    const int a = tbl_addr.read();
    if (a >= 0 && a < p_.depth)
      for (std::size_t w = 0; w < tbl_data.size(); ++w) table_[at(a)][w] = tbl_data[w].read();
  }
  const bool rdv_old = rdv_, prev_old = prev_, entv_old = entv_, ent_dup_old = ent_dup_;
  const std::vector<char> ent_inj_old = ent_inj_;
  const TdmEntry pre_old = pre_, ent_old = ent_;
  rdv_ = !flush && (rdv_old || prm);
  prev_ = !flush && (prev_old || (prm && rdv_old));
  entv_ = !flush && (entv_old || (prm && prev_old));
  for (int l = 0; l < lanes_; ++l) {
    if (flush) ent_inj_[at(l)] = 0;
    else if (adv) ent_inj_[at(l)] = prev_old && injects(pre_old, l) ? 1 : 0;
  }
  if (adv) {
    pre_ = decode_tdm_entry(rdata_old, p_);
    ent_ = pre_old;
    ent_dup_ = p_.kind != TileKind::AllPort && pre_old.injections() > 1;  // the all-port tile injects on every lane
    dup_h_ = entv_old && ent_dup_old;
  }
  dec_q_ = adv;

  // The lanes: each reads its toggle bits at the next slot's inject destination, decides the
  // entry's slot and takes an offer.
  std::vector<char> miss_old(at(lanes_), 0);  // the lanes' miss pulses before the edge
  for (int l = 0; l < lanes_; ++l) miss_old[at(l)] = lane_miss(l) ? 1 : 0;
  for (int l = 0; l < lanes_; ++l) {
    TdmNicLane::Edge in;
    in.adv = adv;
    in.look_next = look_next;
    in.pre_dst = inject_dst(pre_old, l);
    in.ent_dst = inject_dst(ent_old, l);
    in.key = ent_inj_old[at(l)] != 0;
    in.offer = s_tvalid[at(l)].read();
    in.tdest = s_tdest[at(l)].read();
    in.tdata = s_tdata[at(l)].read() & mask_;
    if (in.offer && (in.tdest < 0 || in.tdest >= nodes)) {
      fail("s_axis tdest " + std::to_string(in.tdest) + " out of range on lane " + std::to_string(l));
      in.offer = false;
    }
    if (queued_) qnic_[at(l)].edge(in);
    else nic_[at(l)].edge(in);
  }

  // Execute registers; the relay buffer's store (after the send read the word's old flit).
  const std::vector<int> ejsrc_old = ejsrc_;  // m_tid takes the executing slot's source
  const std::vector<char> ejlast_old = ejlast_;
  if (adv) decide(entv_old, ent_old);
  if (x.relay_store) {
    relay_valid_[at(x.relay_word)] = x.relay_valid ? 1 : 0;
    relay_data_[at(x.relay_word)] = x.relay_data;
  }

  // Datapath registers.
  if (run_in) {
    out_valid_q_ = x.out_valid;
    out_data_q_ = x.out_data;
    m_data_q_ = x.m_data;
    m_tid_q_ = ejsrc_old;
    m_tlast_q_ = ejlast_old;
  }
  m_valid_q_ = x.m_valid;

  // Counters and the sticky error (totex_tdm_status). One lane: its pulse counted at this edge.
  // More lanes: the pulses registered, then their count, then added (two edges later).
  constexpr int lo_w = kMissW / 2;
  int misses = 0;
  if (lanes_ == 1) {
    misses = miss_old[0];
  } else {
    misses = miss_n_;
    miss_n_ = static_cast<int>(std::count(miss_q_.begin(), miss_q_.end(), 1));
    miss_q_ = miss_old;
  }
  const std::uint64_t lo_sum = missed_lo_ + static_cast<std::uint64_t>(misses);
  const std::uint64_t carry_old = miss_c_;
  miss_c_ = lo_sum >> lo_w;
  missed_lo_ = lo_sum & ((std::uint64_t{1} << lo_w) - 1);
  missed_hi_ = (missed_hi_ + carry_old) & ((std::uint64_t{1} << (kMissW - lo_w)) - 1);
  const bool ea_old = ea_, eb_old = eb_, left_old = left_;
  ea_ = err_overrun || err_early;
  eb_ = err_lost || err_dup;
  left_ = x.left;
  err_ = err_ || ea_old || eb_old || left_old;
  // The link counters count the left flags registered twice (the ctl tile's left_q, then
  // link_err_q, then the count); the port reads the count one cycle later (totex_tdm_axil: the
  // low half delayed beside the high half, which adds the low half's registered carry-out).
  for (int i = 0; i < ports_; ++i) {
    cnt_vis_[at(i)] = cnt_[at(i)];
    if (left_qq_[at(i)]) cnt_[at(i)] = (cnt_[at(i)] + 1U) & ((1U << kCntW) - 1U);
    left_qq_[at(i)] = left_q_[at(i)];
    left_q_[at(i)] = x.left_in[at(i)];
  }
}

/// The shadow bank's control at an edge (totex_tdm_slot_pipe gen_shadow), from the values before it.
void TdmTile::shadow_edge(bool flush, bool run_in, bool f_last, bool init_old, bool primed_old) {
  constexpr int per_mask = (1 << kPerW) - 1;
  const bool arm_in = arm.read();
  const bool bank_en = flush || (hit_ && f_last && run_in);
  const bool armed_old = armed_, swap_old = swap_, wrap_old = wrap_, arm_d_old = arm_d_, arm_dd_old = arm_dd_,
             behind_old = behind_;
  const int nxt_s_old = nxt_s_, arm_s_old = arm_s_;
  const int nxt_old = nxt_, arm_old = arm_q_;
  if (bank_en) bank_ = !bank_;
  swap_ = bank_en && !flush;
  wrap_ = f_last && (run_in || !primed_old) && !init_old;
  if (init_old) nxt_ = 1;
  else if (wrap_old) nxt_ = (nxt_old + 1) & per_mask;
  if (arm_in) {
    armed_ = true;
    arm_q_ = arm_per.read() & per_mask;
  } else if (flush || swap_old) {
    armed_ = false;
  }
  const bool eq_old = eq_;
  eq_ = nxt_old == arm_old;  // the rtl's eq_q: the compare registered, hit_ a cycle later
  hit_ = armed_old && !arm_in && !arm_d_old && !flush && !init_old && primed_old && eq_old;
  // The late flag: the operands copied (nxt_s_q, arm_s_q), then the difference's sign.
  nxt_s_ = nxt_old;
  arm_s_ = arm_old;
  behind_ = (((arm_s_old - nxt_s_old) & per_mask) >> (kPerW - 1)) != 0;
  arm_d_ = arm_in;
  arm_dd_ = arm_d_old;
  late_ = armed_old && !arm_in && !arm_d_old && !arm_dd_old && behind_old;
}

void TdmTile::publish() {
  for (int o = 0; o < ports_; ++o) {
    out_valid[at(o)].write(out_valid_q_[at(o)] != 0);
    out_data[at(o)].write(out_data_q_[at(o)]);
  }
  for (int l = 0; l < lanes_; ++l) {
    s_tready[at(l)].write(lane_ready(l));
    m_tvalid[at(l)].write(m_valid_q_[at(l)] != 0);
    m_tdata[at(l)].write(m_data_q_[at(l)]);
    m_tid[at(l)].write(m_tid_q_[at(l)]);
    m_tlast[at(l)].write(m_tlast_q_[at(l)] != 0);
  }
  missed.write((missed_hi_ << (kMissW / 2)) | missed_lo_);
  error.write(err_);
  bank.write(bank_);
  armed.write(armed_);
  late.write(late_);
  next_per.write(nxt_);
  for (int i = 0; i < ports_; ++i) link_cnt[at(i)].write(cnt_vis_[at(i)]);
}

}  // namespace totex::sim
