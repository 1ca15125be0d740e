// SPDX-License-Identifier: Apache-2.0
/// N SystemC TDM tiles (tdm_tile.hpp) wired by the topology as the rtl harness wires the
/// Verilated ones (sim/tdm_wired_main.cpp): input link i of node v is the link arriving from
/// neighbor(v, i), i.e. in_*[v][i] = out_*[u][port_to(u, v)] with u = neighbor(v, i); a port a node
/// does not have (a mesh's border) reads idle. Clock, reset, run, period_last, the table write
/// enable and address are shared; every tile has its own table data, s_axis and m_axis signals (one
/// per lane: P on the all-port tile, else 1).
///
/// With `shadow` (the recovery run, sim/systemc/tdm_recover.cpp) the tiles are the ctl tiles' model
/// (tdm_tile.hpp: shadow bank, armed swap, link counters): sh_we, sh_addr, arm and arm_per are
/// shared, sh_data per tile. With `stuck` (nodes a, b) the inputs of link a-b at both receivers
/// read `stuck_on ? a valid all-ones flit : the link` (the harness's force of the rtl run; the
/// tiles are not faulty).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <systemc>
#include <vector>

#include "model_check.hpp"
#include "tdm_tile.hpp"
#include "totex/network/topology.hpp"
#include "totex/tdm_tables.hpp"

namespace totex::sim {

class TdmNetwork : public sc_core::sc_module {
 public:
  TdmNetwork(const sc_core::sc_module_name& name, const Topology& t, const TdmTileParams& params, ModelChecks& checks,
             bool shadow = false, std::optional<std::pair<NodeId, NodeId>> stuck = std::nullopt);
  SC_HAS_PROCESS(TdmNetwork);

  // Shared control.
  sc_core::sc_signal<bool> clk{"clk", false};
  sc_core::sc_signal<bool> rst_n{"rst_n", true};
  sc_core::sc_signal<bool> run{"run", false};
  sc_core::sc_signal<int> period_last{"period_last", 0};
  sc_core::sc_signal<bool> tbl_we{"tbl_we", false};
  sc_core::sc_signal<int> tbl_addr{"tbl_addr", 0};
  sc_core::sc_signal<bool> m_tready{"m_tready", true};  // the network never stalls
  sc_core::sc_signal<bool> sh_we{"sh_we", false};
  sc_core::sc_signal<int> sh_addr{"sh_addr", 0};
  sc_core::sc_signal<bool> arm{"arm", false};
  sc_core::sc_signal<int> arm_per{"arm_per", 0};
  sc_core::sc_signal<bool> stuck_on{"stuck_on", false};

  /// Per node v: index v; v * words() + w for the table data; v * lanes() + l for s_* and m_*.
  sc_core::sc_vector<sc_core::sc_signal<std::uint64_t>> tbl_data;
  sc_core::sc_vector<sc_core::sc_signal<bool>> s_tvalid, s_tready;
  sc_core::sc_vector<sc_core::sc_signal<std::uint64_t>> s_tdata;
  sc_core::sc_vector<sc_core::sc_signal<int>> s_tdest;
  sc_core::sc_vector<sc_core::sc_signal<bool>> m_tvalid;
  sc_core::sc_vector<sc_core::sc_signal<std::uint64_t>> m_tdata;
  sc_core::sc_vector<sc_core::sc_signal<int>> m_tid;
  sc_core::sc_vector<sc_core::sc_signal<bool>> m_tlast;
  sc_core::sc_vector<sc_core::sc_signal<std::uint64_t>> missed;
  sc_core::sc_vector<sc_core::sc_signal<bool>> error;
  sc_core::sc_vector<sc_core::sc_signal<std::uint64_t>> sh_data;  // [v * words() + w]
  sc_core::sc_vector<sc_core::sc_signal<bool>> bank, armed, late;  // [v]
  sc_core::sc_vector<sc_core::sc_signal<int>> next_per;            // [v]
  sc_core::sc_vector<sc_core::sc_signal<std::uint32_t>> link_cnt;  // [v * P + i]

  [[nodiscard]] int words() const { return words_; }
  [[nodiscard]] int lanes() const { return lanes_; }
  /// m_tlast of lane q (v * lanes() + l) as the scoreboard takes it: 0 or 1 (the RTL's
  /// m_axis_tlast, every tile).
  [[nodiscard]] int last_of(int q) const { return m_tlast[static_cast<std::size_t>(q)].read() ? 1 : 0; }

 private:
  int n_, p_, words_, lanes_;
  /// Output port o of node v drives link v * P + o (every port, linked or not).
  sc_core::sc_vector<sc_core::sc_signal<bool>> link_valid_;
  sc_core::sc_vector<sc_core::sc_signal<std::uint64_t>> link_data_;
  sc_core::sc_signal<bool> idle_valid_{"idle_valid", false};
  sc_core::sc_signal<std::uint64_t> idle_data_{"idle_data", 0};
  std::vector<std::unique_ptr<TdmTile>> tiles_;
  // The stuck link's two receiving inputs: the link they read, and what they are given.
  std::vector<int> stuck_from_;  // [2] the link (u * P + o) each forced input reads when not stuck
  sc_core::sc_vector<sc_core::sc_signal<bool>> forced_valid_;
  sc_core::sc_vector<sc_core::sc_signal<std::uint64_t>> forced_data_;
  std::uint64_t ones_ = 0;
  void force_stuck();
};

}  // namespace totex::sim
