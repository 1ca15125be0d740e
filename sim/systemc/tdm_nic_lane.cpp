// SPDX-License-Identifier: Apache-2.0
#include "tdm_nic_lane.hpp"

#include <algorithm>

namespace totex::sim {

namespace {
std::size_t at(int i) { return static_cast<std::size_t>(i); }
}  // namespace

TdmNicLane::TdmNicLane(int lookup_stages, int node_bits)
    : k_(lookup_stages),
      inject_(at(lookup_stages)),
      v_(std::size_t{1} << node_bits, 0),
      send_(at(lookup_stages)),
      relookup_(at(lookup_stages), 0),
      sendbuf_(std::size_t{1} << node_bits, 0) {}

void TdmNicLane::reset() {
  for (InjectStage& s : inject_) s.key = false;
  for (SendStage& s : send_) s.valid = false;
  std::fill(v_.begin(), v_.end(), 0);
  clr_en_ = set_en_ = sb_we_ = false;
  free_ = true;
  has_ = miss_q_ = false;
}

/// Every register's next value from the values before the edge, then all assigned.
void TdmNicLane::edge(const Edge& in) {
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

  // The valid bits: clear and set decided one edge earlier.
  std::vector<char> v_next = v_;
  if (clr_en_) v_next[at(clr_d_)] = 0;
  if (set_en_) v_next[at(set_d_)] = 1;

  // Inject lookup: the entry enters with v[dst] as it is now and its conflict flags (an injecting
  // entry ahead of it for the same destination, or the clear just decided).
  if (in.clear) {
    for (InjectStage& s : inject_) s.key = false;
  } else if (in.adv) {
    InjectStage e;
    e.key = in.key;
    e.d = in.dst;
    e.view = v_[at(e.d)] != 0;
    e.conf = clr_en_ && clr_d_ == e.d;
    for (const InjectStage& s : inject_) e.conf = e.conf || (s.key && s.d == e.d);
    for (int s = k_ - 1; s > 0; --s) inject_[at(s)] = inject_[at(s - 1)];
    inject_[0] = e;
  }

  // The decision, the send-buffer read of the decided destination, the clear.
  clr_en_ = in.adv && dec_has;
  clr_d_ = head.d;
  if (in.adv) {
    has_ = dec_has;
    sb_rdata_ = sendbuf_[at(head.d)];
  }
  if (sb_we_) sendbuf_[at(sb_waddr_)] = sb_wdata_;
  miss_q_ = in.adv && dec_miss;

  // Send lookup: moves while the park is empty; an offer enters when s_tvalid && s_tready.
  const int park_d_old = park_d_;
  const std::uint64_t park_data_old = park_data_;
  if (free_) {
    SendStage e;
    e.valid = in.offer;
    e.d = in.offer ? in.tdest : 0;
    e.data = in.tdata;
    e.view = v_[at(e.d)] != 0;
    e.conf = set_en_ && set_d_ == e.d;
    for (const SendStage& s : send_) e.conf = e.conf || (s.valid && s.d == e.d);
    for (int s = k_ - 1; s > 0; --s) send_[at(s)] = send_[at(s - 1)];
    send_[0] = e;
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
}

}  // namespace totex::sim
