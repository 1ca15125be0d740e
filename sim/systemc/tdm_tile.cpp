// SPDX-License-Identifier: Apache-2.0
#include "tdm_tile.hpp"

#include <algorithm>

namespace totex::sim {

namespace {
std::size_t at(int i) { return static_cast<std::size_t>(i); }
}  // namespace

TdmTile::TdmTile(const sc_core::sc_module_name& name, const TdmTileParams& params, int node, ModelChecks& checks)
    : sc_module(name),
      in_valid("in_valid", at(params.ports)),
      in_data("in_data", at(params.ports)),
      out_valid("out_valid", at(params.ports)),
      out_data("out_data", at(params.ports)),
      tbl_data("tbl_data", at((params.entry_bits() + 63) / 64)),
      p_(params),
      node_(node),
      ports_(params.ports),
      k_(lookup_stages(params.node_bits)),
      prime_(prime_cycles(params.node_bits)),
      mask_(params.payload_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << params.payload_bits) - 1),
      checks_(checks),
      idle_{std::vector<int>(at(params.ports), 0), 0, 0, 0, {}, {}},
      table_(at(params.depth), std::vector<std::uint64_t>(at((params.entry_bits() + 63) / 64), 0)),
      rdata_(at((params.entry_bits() + 63) / 64), 0),
      ent_(idle_),
      inject_(at(k_)),
      v_(std::size_t{1} << params.node_bits, 0),
      send_(at(k_)),
      relookup_(at(k_), 0),
      sendbuf_(std::size_t{1} << params.node_bits, 0),
      sel_(at(params.ports), -1),
      out_valid_q_(at(params.ports), 0),
      out_data_q_(at(params.ports), 0) {
  for (InjectStage& s : inject_) s.e = idle_;
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
/// sticky error); the datapath keeps its contents.
void TdmTile::reset_control() {
  init_ = true;
  primed_ = false;
  pc_ = 0;
  rdv_ = entv_ = false;
  for (InjectStage& s : inject_) s.valid = s.key = false;
  for (SendStage& s : send_) s.valid = false;
  std::fill(v_.begin(), v_.end(), 0);
  clr_en_ = set_en_ = sb_we_ = false;
  free_ = true;
  std::fill(sel_.begin(), sel_.end(), -1);
  ej_ = -1;
  has_ = false;
  std::fill(out_valid_q_.begin(), out_valid_q_.end(), 0);
  m_valid_q_ = false;
  missed_lo_ = missed_hi_ = 0;
  miss_q_ = miss_c_ = false;
  err_ = ea_ = eb_ = left_ = false;
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

  // Inject side: the decision for the slot at the head of the lookup.
  const InjectStage head = inject_[at(k_ - 1)];
  const bool dec_has = head.key && head.view && !head.conf;
  const bool dec_miss = head.key && !(head.view && !head.conf);

  // Send side: the offer at the head, the park.
  const SendStage shead = send_[at(k_ - 1)];
  const bool head_ok = shead.valid && !shead.view && !shead.conf;
  const bool park_v = !free_;
  const bool head_commit = free_ && head_ok;
  const bool rl_view = relookup_[at(k_ - 1)] != 0;
  const bool park_full = park_age_ >= k_;
  const bool park_commit = park_v && park_full && !rl_view;

  // Datapath of the executing slot (the decided selects, registered at the previous advance).
  std::vector<char> ov(at(ports_), 0);
  std::vector<std::uint64_t> od(at(ports_), 0);
  for (int o = 0; o < ports_; ++o) {
    const int s = sel_[at(o)];
    if (s >= 0 && s < ports_) {
      ov[at(o)] = in_valid[at(s)].read() ? 1 : 0;
      od[at(o)] = in_data[at(s)].read() & mask_;
    } else if (s == ports_) {
      ov[at(o)] = has_ ? 1 : 0;
      od[at(o)] = sb_rdata_;
    }
  }
  const bool m_valid_d = exec && ej_ >= 0 && in_valid[at(ej_)].read();
  const std::uint64_t m_data_d = ej_ >= 0 ? in_data[at(ej_)].read() & mask_ : 0;
  bool left_d = false;
  for (int i = 0; i < ports_; ++i) {
    const bool used = ej_ == i || std::find(sel_.begin(), sel_.end(), i) != sel_.end();
    if (exec && in_valid[at(i)].read() && !used) {
      left_d = true;
      fail("a flit left on input link " + std::to_string(i) + " (no output and no eject selects it)");
    }
  }
  const bool err_overrun = m_valid_q_ && !m_tready.read();
  const bool err_early = run_in && !primed_;
  const bool err_lost = we && has_;
  const bool err_dup = adv && head.valid && head.dup;
  if (err_overrun) fail("m_axis tvalid while tready is low (receive overrun)");
  if (err_early) fail("run high before the slot pipeline is primed");
  if (err_lost) fail("table write while a decided injection is pending");
  if (err_dup) fail("table entry with two injecting outputs");

  // The valid bits: clear and set decided one edge earlier.
  std::vector<char> v_next = v_;
  if (clr_en_) v_next[at(clr_d_)] = 0;
  if (set_en_) v_next[at(set_d_)] = 1;

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
  const bool rdv_old = rdv_, entv_old = entv_, ent_inj_old = ent_inj_, ent_dup_old = ent_dup_;
  const TdmEntry ent_old = ent_;
  if (flush || init_old) {
    rdv_ = entv_ = false;
  } else if (adv) {
    rdv_ = true;
    entv_ = rdv_old;
  }
  if (adv) {
    ent_ = decode_tdm_entry(rdata_old, p_);
    int injecting = 0;
    for (int s : ent_.out_sel) injecting += s == ports_ + 1 ? 1 : 0;
    ent_inj_ = injecting > 0;
    ent_dup_ = injecting > 1;
  }

  // Inject lookup: the entry enters with v[inject_dst] as it is now and its conflict flags (an
  // injecting entry ahead of it for the same destination, or the clear just decided).
  if (flush || init_old) {
    for (InjectStage& s : inject_) s.valid = s.key = false;
  } else if (adv) {
    InjectStage in;
    in.valid = entv_old;
    in.key = entv_old && ent_inj_old;
    in.d = ent_old.inject_dst;
    in.view = v_[at(in.d)] != 0;
    in.conf = clr_en_ && clr_d_ == in.d;
    for (const InjectStage& s : inject_) in.conf = in.conf || (s.key && s.d == in.d);
    in.dup = ent_dup_old;
    in.e = ent_old;
    for (int s = k_ - 1; s > 0; --s) inject_[at(s)] = std::move(inject_[at(s - 1)]);
    inject_[0] = std::move(in);
  }

  // Decision (execute) registers, the send-buffer read of the decided destination, the clear.
  const int ejsrc_old = ejsrc_;  // m_tid takes the executing slot's source
  clr_en_ = adv && dec_has;
  clr_d_ = head.d;
  if (adv) {
    for (int o = 0; o < ports_; ++o) {
      const int s = head.valid ? head.e.out_sel[at(o)] : 0;
      sel_[at(o)] = s >= 1 && s <= ports_ + 1 ? s - 1 : -1;
    }
    const int e = head.valid ? head.e.eject_sel : 0;
    ej_ = e >= 1 && e <= ports_ ? e - 1 : -1;
    has_ = dec_has;
    ejsrc_ = head.e.eject_src;
    sb_rdata_ = sendbuf_[at(head.d)];
  }
  if (sb_we_) sendbuf_[at(sb_waddr_)] = sb_wdata_;
  const bool miss_old = miss_q_;
  miss_q_ = adv && dec_miss;

  // Send lookup: moves while the park is empty; an offer enters when s_tvalid && s_tready.
  const int park_d_old = park_d_;
  const std::uint64_t park_data_old = park_data_;
  if (free_) {
    SendStage in;
    in.valid = s_tvalid.read();
    in.d = s_tdest.read();
    in.data = s_tdata.read() & mask_;
    if (in.d < 0 || in.d >= static_cast<int>(v_.size())) {
      if (in.valid) fail("s_axis tdest " + std::to_string(in.d) + " out of range");
      in.d = 0;
      in.valid = false;
    }
    in.view = v_[at(in.d)] != 0;
    in.conf = set_en_ && set_d_ == in.d;
    for (const SendStage& s : send_) in.conf = in.conf || (s.valid && s.d == in.d);
    for (int s = k_ - 1; s > 0; --s) send_[at(s)] = send_[at(s - 1)];
    send_[0] = in;
  }
  // The re-lookup of the parked destination runs every cycle.
  for (int s = k_ - 1; s > 0; --s) relookup_[at(s)] = relookup_[at(s - 1)];
  relookup_[0] = v_[at(park_d_old)];
  const bool free_old = free_;
  free_ = free_old ? !(shead.valid && (shead.view || shead.conf)) : (park_full && !rl_view);
  if (free_old) {  // the park follows the head while it is free
    park_d_ = shead.d;
    park_data_ = shead.data;
    park_age_ = 0;
  } else {
    park_age_ = std::min(park_age_ + 1, k_);
  }
  // Commit: the valid bit set and the send buffer written at the next edge.
  set_en_ = head_commit || park_commit;
  set_d_ = park_v ? park_d_old : shead.d;
  sb_we_ = set_en_;
  sb_waddr_ = set_d_;
  sb_wdata_ = park_v ? park_data_old : shead.data;

  v_ = std::move(v_next);

  // Datapath registers.
  if (run_in) {
    for (int o = 0; o < ports_; ++o) {
      out_valid_q_[at(o)] = ov[at(o)];
      out_data_q_[at(o)] = od[at(o)];
    }
    m_data_q_ = m_data_d;
    m_tid_q_ = ejsrc_old;
  }
  m_valid_q_ = m_valid_d;

  // Counters and the sticky error (as registered as the RTL's).
  constexpr int lo_w = kMissW / 2;
  const std::uint64_t lo_sum = missed_lo_ + (miss_old ? 1U : 0U);
  const bool carry_old = miss_c_;
  miss_c_ = (lo_sum >> lo_w) != 0;
  missed_lo_ = lo_sum & ((std::uint64_t{1} << lo_w) - 1);
  missed_hi_ = (missed_hi_ + (carry_old ? 1U : 0U)) & ((std::uint64_t{1} << (kMissW - lo_w)) - 1);
  const bool ea_old = ea_, eb_old = eb_, left_old = left_;
  ea_ = err_overrun || err_early;
  eb_ = err_lost || err_dup;
  left_ = left_d;
  err_ = err_ || ea_old || eb_old || left_old;
}

void TdmTile::publish() {
  for (int o = 0; o < ports_; ++o) {
    out_valid[at(o)].write(out_valid_q_[at(o)] != 0);
    out_data[at(o)].write(out_data_q_[at(o)]);
  }
  s_tready.write(free_);
  m_tvalid.write(m_valid_q_);
  m_tdata.write(m_data_q_);
  m_tid.write(m_tid_q_);
  missed.write((missed_hi_ << (kMissW / 2)) | missed_lo_);
  error.write(err_);
}

}  // namespace totex::sim
