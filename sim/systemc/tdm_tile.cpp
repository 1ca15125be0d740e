// SPDX-License-Identifier: Apache-2.0
#include "tdm_tile.hpp"

#include <algorithm>

namespace totex::sim {

namespace {
std::size_t at(int i) { return static_cast<std::size_t>(i); }
int words_of(const TdmTileParams& p) { return (p.entry_bits() + 63) / 64; }
}  // namespace

TdmTile::TdmTile(const sc_core::sc_module_name& name, const TdmTileParams& params, int node, ModelChecks& checks)
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
      p_(params),
      node_(node),
      ports_(params.ports),
      lanes_(params.lanes()),
      k_(lookup_stages(params.node_bits)),
      prime_(prime_cycles(params.node_bits)),
      mask_(params.payload_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << params.payload_bits) - 1),
      checks_(checks),
      idle_(decode_tdm_entry(std::vector<std::uint64_t>(at(words_of(params)), 0), params)),
      table_(at(params.depth), std::vector<std::uint64_t>(at(words_of(params)), 0)),
      rdata_(at(words_of(params)), 0),
      ent_(idle_),
      stages_(at(k_)),
      nic_(at(lanes_), TdmNicLane(k_, params.node_bits)),
      sel_(at(params.ports), -1),
      ej_(at(lanes_), -1),
      ejsrc_(at(lanes_), 0),
      relay_valid_(at(params.single_port ? params.buffer_words : 0), 0),
      relay_data_(at(params.single_port ? params.buffer_words : 0), 0),
      out_valid_q_(at(params.ports), 0),
      m_valid_q_(at(lanes_), 0),
      out_data_q_(at(params.ports), 0),
      m_data_q_(at(lanes_), 0),
      m_tid_q_(at(lanes_), 0) {
  for (Stage& s : stages_) s.e = idle_;
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

/// What rst_ni resets in the RTL: control state only (slot counters, valid bits, counters, the
/// sticky error); the datapath (the relay buffer included) keeps its contents.
void TdmTile::reset_control() {
  init_ = true;
  primed_ = false;
  pc_ = 0;
  rdv_ = entv_ = false;
  for (Stage& s : stages_) s.valid = false;
  for (TdmNicLane& lane : nic_) lane.reset();
  std::fill(sel_.begin(), sel_.end(), -1);
  std::fill(ej_.begin(), ej_.end(), -1);
  send_port_ = recv_port_ = -1;
  send_src_ = recv_act_ = 0;
  std::fill(out_valid_q_.begin(), out_valid_q_.end(), 0);
  std::fill(m_valid_q_.begin(), m_valid_q_.end(), 0);
  missed_lo_ = missed_hi_ = 0;
  miss_c_ = false;
  err_ = ea_ = eb_ = left_ = false;
}

/// The datapath of the executing slot (the decided selects, registered at the previous advance),
/// from the values before the edge; reports a flit left on an input.
TdmTile::Exec TdmTile::execute(bool exec) {
  Exec x{std::vector<char>(at(ports_), 0), std::vector<char>(at(lanes_), 0),
         std::vector<std::uint64_t>(at(ports_), 0), std::vector<std::uint64_t>(at(lanes_), 0)};
  auto left = [&](int i, const char* what) {
    if (!exec || !in_valid[at(i)].read()) return;
    x.left = true;
    fail("a flit left on input link " + std::to_string(i) + " (" + what + ")");
  };
  if (p_.single_port) {
    const bool rcv_v = recv_port_ >= 0 && in_valid[at(recv_port_)].read();
    const std::uint64_t rcv_d = recv_port_ >= 0 ? input(recv_port_) : 0;
    for (int i = 0; i < ports_; ++i)
      if (i != recv_port_) left(i, "the slot does not receive it");
    bool send_v = false;
    std::uint64_t send_d = 0;
    if (send_src_ == 0) {
      send_v = nic_[0].has();
      send_d = nic_[0].data();
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
      const TdmNicLane& lane = nic_[at(p_.all_port ? o : 0)];
      x.out_valid[at(o)] = lane.has() ? 1 : 0;
      x.out_data[at(o)] = lane.data();
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

/// The execute registers of the slot at the head of the lookup (an invalid head: idle).
void TdmTile::decide(const Stage& head) {
  const TdmEntry& e = head.valid ? head.e : idle_;
  if (p_.single_port) {
    send_port_ = e.send_port - 1;
    send_src_ = e.send_src;
    send_buf_ = e.send_buf;
    recv_port_ = e.recv_port - 1;
    recv_act_ = e.recv_act;
    recv_buf_ = e.recv_buf;
    ejsrc_[0] = e.eject_src;
    return;
  }
  for (int o = 0; o < ports_; ++o) {
    const int s = e.out_sel[at(o)];
    sel_[at(o)] = s >= 1 && s <= ports_ + 1 ? s - 1 : -1;
  }
  if (p_.all_port) {
    for (int i = 0; i < ports_; ++i) {
      ej_[at(i)] = e.eject_srcs[at(i)] >= 0 ? i : -1;
      ejsrc_[at(i)] = std::max(0, e.eject_srcs[at(i)]);
    }
  } else {
    ej_[0] = e.eject_sel >= 1 && e.eject_sel <= ports_ ? e.eject_sel - 1 : -1;
    ejsrc_[0] = e.eject_src;
  }
}

/// One rising edge: every register's next value from the values before the edge (the inputs as
/// sampled at the edge), then all assigned.
void TdmTile::edge() {
  const bool we = tbl_we.read();
  const bool run_in = run.read();
  const int plast = period_last.read();
  const bool flush = we;
  const bool adv = (run_in || !primed_) && !init_ && !flush;  // the slot pipeline moves
  const bool exec = run_in && primed_;                         // a slot executes in this cycle
  const Stage head = stages_[at(k_ - 1)];

  bool pending = false;  // a decided injection waits on some lane
  for (const TdmNicLane& lane : nic_) pending = pending || lane.has();
  const Exec x = execute(exec);
  bool err_overrun = false;
  for (int l = 0; l < lanes_; ++l) err_overrun = err_overrun || (m_valid_q_[at(l)] && !m_tready[at(l)].read());
  const bool err_early = run_in && !primed_;
  const bool err_lost = we && pending;
  const bool err_dup = adv && head.valid && head.dup;
  if (err_overrun) fail("m_axis tvalid while tready is low (receive overrun)");
  if (err_early) fail("run high before the slot pipeline is primed");
  if (err_lost) fail("table write while a decided injection is pending");
  if (err_dup) fail("table entry with two injecting outputs");

  // Slot control.
  const bool init_old = init_, primed_old = primed_;
  if (flush) {
    init_ = true;
    primed_ = false;
    pc_ = 0;
  } else {
    init_ = false;
    if (!init_old && !primed_old) {
      primed_ = pc_ == prime_ - 2;
      ++pc_;
    }
  }
  const int f_old = f_;
  if (init_old) {
    f_ = 0;
    r_ = plast;
  } else if (adv) {
    const bool wrap = r_ == 0;
    f_ = wrap ? 0 : f_ + 1;
    r_ = wrap ? plast : r_ - 1;
  }

  // Slot table (registered read of the word before this edge's write), entry register.
  const std::vector<std::uint64_t> rdata_old = rdata_;
  if (adv) rdata_ = table_[at(f_old % p_.depth)];
  if (we) {
    const int a = tbl_addr.read();
    if (a >= 0 && a < p_.depth)
      for (std::size_t w = 0; w < tbl_data.size(); ++w) table_[at(a)][w] = tbl_data[w].read();
  }
  const bool rdv_old = rdv_, entv_old = entv_, ent_dup_old = ent_dup_;
  const TdmEntry ent_old = ent_;
  if (flush || init_old) {
    rdv_ = entv_ = false;
  } else if (adv) {
    rdv_ = true;
    entv_ = rdv_old;
  }
  if (adv) {
    ent_ = decode_tdm_entry(rdata_old, p_);
    ent_dup_ = !p_.all_port && ent_.injections() > 1;  // the all-port tile injects on every lane
  }

  // The lookup: the entry enters; each lane looks up its own inject destination and takes an offer.
  const bool clear = flush || init_old;
  if (clear) {
    for (Stage& s : stages_) s.valid = false;
  } else if (adv) {
    for (int s = k_ - 1; s > 0; --s) stages_[at(s)] = std::move(stages_[at(s - 1)]);
    stages_[0] = {entv_old, ent_dup_old, ent_old};
  }
  int misses = 0;  // the lanes' registered miss pulses, counted at this edge
  for (const TdmNicLane& lane : nic_) misses += lane.miss() ? 1 : 0;
  const int destinations = 1 << p_.node_bits;
  for (int l = 0; l < lanes_; ++l) {
    TdmNicLane::Edge in;
    in.adv = adv;
    in.clear = clear;
    in.key = entv_old && (p_.all_port ? ent_old.out_sel[at(l)] == ports_ + 1 : ent_old.injections() > 0);
    in.dst = p_.all_port ? ent_old.inject_dsts[at(l)] : ent_old.inject_dst;
    in.offer = s_tvalid[at(l)].read();
    in.tdest = s_tdest[at(l)].read();
    in.tdata = s_tdata[at(l)].read() & mask_;
    if (in.offer && (in.tdest < 0 || in.tdest >= destinations)) {
      fail("s_axis tdest " + std::to_string(in.tdest) + " out of range on lane " + std::to_string(l));
      in.offer = false;
    }
    nic_[at(l)].edge(in);
  }

  // Execute registers; the relay buffer's store (after the send read the word's old flit).
  const std::vector<int> ejsrc_old = ejsrc_;  // m_tid takes the executing slot's source
  if (adv) decide(head);
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
  }
  m_valid_q_ = x.m_valid;

  // Counters and the sticky error (as registered as the RTL's).
  constexpr int lo_w = kMissW / 2;
  const std::uint64_t lo_sum = missed_lo_ + static_cast<std::uint64_t>(misses);
  const bool carry_old = miss_c_;
  miss_c_ = (lo_sum >> lo_w) != 0;
  missed_lo_ = lo_sum & ((std::uint64_t{1} << lo_w) - 1);
  missed_hi_ = (missed_hi_ + (carry_old ? 1U : 0U)) & ((std::uint64_t{1} << (kMissW - lo_w)) - 1);
  const bool ea_old = ea_, eb_old = eb_, left_old = left_;
  ea_ = err_overrun || err_early;
  eb_ = err_lost || err_dup;
  left_ = x.left;
  err_ = err_ || ea_old || eb_old || left_old;
}

void TdmTile::publish() {
  for (int o = 0; o < ports_; ++o) {
    out_valid[at(o)].write(out_valid_q_[at(o)] != 0);
    out_data[at(o)].write(out_data_q_[at(o)]);
  }
  for (int l = 0; l < lanes_; ++l) {
    s_tready[at(l)].write(nic_[at(l)].ready());
    m_tvalid[at(l)].write(m_valid_q_[at(l)] != 0);
    m_tdata[at(l)].write(m_data_q_[at(l)]);
    m_tid[at(l)].write(m_tid_q_[at(l)]);
  }
  missed.write((missed_hi_ << (kMissW / 2)) | missed_lo_);
  error.write(err_);
}

}  // namespace totex::sim
