// SPDX-License-Identifier: Apache-2.0
#include "tdm_network.hpp"

#include <string>

namespace totex::sim {

namespace {
std::size_t at(int i) { return static_cast<std::size_t>(i); }
}  // namespace

TdmNetwork::TdmNetwork(const sc_core::sc_module_name& name, const Topology& t, const TdmTileParams& params,
                       ModelChecks& checks, bool shadow, std::optional<std::pair<NodeId, NodeId>> stuck)
    : sc_module(name),
      tbl_data("tbl_data", at(t.nodes()) * at((params.entry_bits() + 63) / 64)),
      s_tvalid("s_tvalid", at(t.nodes()) * at(params.lanes())),
      s_tready("s_tready", at(t.nodes()) * at(params.lanes())),
      s_tdata("s_tdata", at(t.nodes()) * at(params.lanes())),
      s_tdest("s_tdest", at(t.nodes()) * at(params.lanes())),
      m_tvalid("m_tvalid", at(t.nodes()) * at(params.lanes())),
      m_tdata("m_tdata", at(t.nodes()) * at(params.lanes())),
      m_tid("m_tid", at(t.nodes()) * at(params.lanes())),
      m_tlast("m_tlast", at(t.nodes()) * at(params.lanes())),
      missed("missed", at(t.nodes())),
      error("error", at(t.nodes())),
      sh_data("sh_data", at(t.nodes()) * at((params.entry_bits() + 63) / 64)),
      bank("bank", at(t.nodes())),
      armed("armed", at(t.nodes())),
      late("late", at(t.nodes())),
      next_per("next_per", at(t.nodes())),
      link_cnt("link_cnt", at(t.nodes()) * at(params.ports)),
      n_(t.nodes()),
      p_(params.ports),
      words_((params.entry_bits() + 63) / 64),
      lanes_(params.lanes()),
      link_valid_("link_valid", at(t.nodes()) * at(params.ports)),
      link_data_("link_data", at(t.nodes()) * at(params.ports)),
      forced_valid_("forced_valid", stuck ? 2U : 0U),
      forced_data_("forced_data", stuck ? 2U : 0U),
      ones_(params.payload_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << params.payload_bits) - 1) {
  for (int v = 0; v < n_; ++v) {
    tiles_.push_back(std::make_unique<TdmTile>(("tile" + std::to_string(v)).c_str(), params, v, checks, shadow));
    TdmTile& x = *tiles_.back();
    x.clk(clk);
    x.rst_n(rst_n);
    x.run(run);
    x.period_last(period_last);
    x.tbl_we(tbl_we);
    x.tbl_addr(tbl_addr);
    for (int w = 0; w < words_; ++w) x.tbl_data[at(w)](tbl_data[at(v * words_ + w)]);
    for (int l = 0; l < lanes_; ++l) {
      const std::size_t q = at(v * lanes_ + l);
      x.s_tvalid[at(l)](s_tvalid[q]);
      x.s_tready[at(l)](s_tready[q]);
      x.s_tdata[at(l)](s_tdata[q]);
      x.s_tdest[at(l)](s_tdest[q]);
      x.m_tvalid[at(l)](m_tvalid[q]);
      x.m_tready[at(l)](m_tready);
      x.m_tdata[at(l)](m_tdata[q]);
      x.m_tid[at(l)](m_tid[q]);
      x.m_tlast[at(l)](m_tlast[q]);
    }
    x.missed(missed[at(v)]);
    x.error(error[at(v)]);
    x.sh_we(sh_we);
    x.sh_addr(sh_addr);
    for (int w = 0; w < words_; ++w) x.sh_data[at(w)](sh_data[at(v * words_ + w)]);
    x.arm(arm);
    x.arm_per(arm_per);
    x.bank(bank[at(v)]);
    x.armed(armed[at(v)]);
    x.late(late[at(v)]);
    x.next_per(next_per[at(v)]);
    for (int i = 0; i < p_; ++i) x.link_cnt[at(i)](link_cnt[at(v * p_ + i)]);
    for (int o = 0; o < p_; ++o) {
      x.out_valid[at(o)](link_valid_[at(v * p_ + o)]);
      x.out_data[at(o)](link_data_[at(v * p_ + o)]);
    }
    for (int i = 0; i < p_; ++i) {
      if (i < t.degree(v)) {
        const NodeId u = t.neighbor(v, i);
        const int link = u * p_ + *t.port_to(u, v);
        if (stuck && ((u == stuck->first && v == stuck->second) || (u == stuck->second && v == stuck->first))) {
          const std::size_t k = stuck_from_.size();
          stuck_from_.push_back(link);
          x.in_valid[at(i)](forced_valid_[k]);
          x.in_data[at(i)](forced_data_[k]);
        } else {
          x.in_valid[at(i)](link_valid_[at(link)]);
          x.in_data[at(i)](link_data_[at(link)]);
        }
      } else {
        x.in_valid[at(i)](idle_valid_);
        x.in_data[at(i)](idle_data_);
      }
    }
  }
  if (stuck) {
    SC_METHOD(force_stuck);
    sensitive << stuck_on;
    for (int link : stuck_from_) sensitive << link_valid_[at(link)] << link_data_[at(link)];
  }
}

void TdmNetwork::force_stuck() {
  for (std::size_t k = 0; k < stuck_from_.size(); ++k) {
    const bool on = stuck_on.read();
    forced_valid_[k].write(on || link_valid_[at(stuck_from_[k])].read());
    forced_data_[k].write(on ? ones_ : link_data_[at(stuck_from_[k])].read());
  }
}

}  // namespace totex::sim
