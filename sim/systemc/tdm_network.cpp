// SPDX-License-Identifier: Apache-2.0
#include "tdm_network.hpp"

#include <string>

namespace totex::sim {

namespace {
std::size_t at(int i) { return static_cast<std::size_t>(i); }
}  // namespace

TdmNetwork::TdmNetwork(const sc_core::sc_module_name& name, const Topology& t, const TdmTileParams& params,
                       ModelChecks& checks)
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
      n_(t.nodes()),
      p_(params.ports),
      words_((params.entry_bits() + 63) / 64),
      lanes_(params.lanes()),
      nic_(params.kind == TileKind::Nic),
      link_valid_("link_valid", at(t.nodes()) * at(params.ports)),
      link_data_("link_data", at(t.nodes()) * at(params.ports)) {
  for (int v = 0; v < n_; ++v) {
    tiles_.push_back(std::make_unique<TdmTile>(("tile" + std::to_string(v)).c_str(), params, v, checks));
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
    for (int o = 0; o < p_; ++o) {
      x.out_valid[at(o)](link_valid_[at(v * p_ + o)]);
      x.out_data[at(o)](link_data_[at(v * p_ + o)]);
    }
    for (int i = 0; i < p_; ++i) {
      if (i < t.degree(v)) {
        const NodeId u = t.neighbor(v, i);
        const int link = u * p_ + *t.port_to(u, v);
        x.in_valid[at(i)](link_valid_[at(link)]);
        x.in_data[at(i)](link_data_[at(link)]);
      } else {
        x.in_valid[at(i)](idle_valid_);
        x.in_data[at(i)](idle_data_);
      }
    }
  }
}

}  // namespace totex::sim
