// SPDX-License-Identifier: Apache-2.0
/// SystemC model of the TDM tile (rtl/tdm/totex_tdm_tile.sv; its contract in docs/tdm-tile.md):
/// slot counter, slot table, registered router outputs, NIC with one waiting message per
/// destination, registered m_axis delivery. `totex sim --engine systemc --periods K` wires N of
/// them (tdm_network.hpp) as the rtl harness wires the Verilated tiles (sim/tdm_wired_main.cpp).
///
/// Ports as the RTL's (same names without the _i/_o suffixes); the table write data is the
/// EntryW-bit entry as 64-bit words (least significant first), decoded by the library's
/// decode_tdm_entry (the layout of totex/tdm_tables.hpp) when the slot is read.
///
/// Cycle-accurate to the tile's external contract as the first RTL tile (26aa3bb) had it: K =
/// ceil(NodeW/2), PrimeCycles = K + 4. The RTL tile has since moved to toggle bits in block RAM
/// (PrimeCycles 2^NodeW + 4: a reset sweep clears them) and kept the rest of the contract; each
/// harness primes its own model long enough and counts delivery cycles from the first slot, so
/// the digests agree (docs/tdm-runs.md). This model does not follow the RTL's internals.
///   * Priming: after reset or a table write, one load cycle (the slot counter takes
///     period_last), then K + 3 advances of the read-ahead (table read, entry register, K
///     lookup stages, decision) with run low; run high before that is an error.
///   * A cycle with run high executes the next slot; a flit selected in slot s is on out_* from
///     the next cycle on (one register per hop), an ejected flit on m_axis (tvalid one cycle,
///     tid = the entry's eject_src) in the next cycle. run low: a pause.
///   * Inject: the slot executing in cycle E is decided at the edge before E from a view of d's
///     valid bit taken K cycles earlier (when the slot's entry entered the lookup), unless an
///     inject decision still in flight for d (same lookup, or the registered clear) flags it:
///     then it misses (counted in missed), as does a slot whose view shows no message.
///   * Send: s_tready is a register; an accepted offer looks its destination up for K cycles and
///     at the head commits (valid bit set, send buffer written one cycle later) if its view shows
///     the entry free and no offer in flight or just committed has the same destination;
///     otherwise it is parked, s_tready drops from the next cycle, and it commits when a view
///     taken at least one cycle after the park shows the entry free.
/// The lookups are modelled as what they deliver (a K-cycle-old view of the bit plus the conflict
/// flags), not as the RTL's 4:1 mux stages.
#pragma once
#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "model_check.hpp"
#include "totex/tdm_tables.hpp"

namespace totex::sim {

class TdmTile : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  sc_core::sc_in<bool> rst_n;  // asynchronous, active low (control state only, as the RTL)
  sc_core::sc_vector<sc_core::sc_in<bool>> in_valid;             // [P] input link i
  sc_core::sc_vector<sc_core::sc_in<std::uint64_t>> in_data;     // [P]
  sc_core::sc_vector<sc_core::sc_out<bool>> out_valid;           // [P] registered
  sc_core::sc_vector<sc_core::sc_out<std::uint64_t>> out_data;   // [P] registered
  sc_core::sc_in<bool> tbl_we;
  sc_core::sc_in<int> tbl_addr;
  sc_core::sc_vector<sc_core::sc_in<std::uint64_t>> tbl_data;    // [ceil(EntryW/64)]
  sc_core::sc_in<bool> run;
  sc_core::sc_in<int> period_last;
  sc_core::sc_in<bool> s_tvalid;
  sc_core::sc_out<bool> s_tready;  // a register (free)
  sc_core::sc_in<std::uint64_t> s_tdata;
  sc_core::sc_in<int> s_tdest;
  sc_core::sc_out<bool> m_tvalid;  // registered one-cycle pulse
  sc_core::sc_in<bool> m_tready;
  sc_core::sc_out<std::uint64_t> m_tdata;
  sc_core::sc_out<int> m_tid;
  sc_core::sc_out<std::uint64_t> missed;  // MissW = 16 bits, two halves, wraps
  sc_core::sc_out<bool> error;            // sticky

  SC_HAS_PROCESS(TdmTile);
  TdmTile(const sc_core::sc_module_name& name, const TdmTileParams& params, int node, ModelChecks& checks);

  static constexpr int kMissW = 16;  // the RTL's default MissW (the harness instantiates the default)
  /// Lookup stages K = ceil(NodeW/2) (totex_tdm_pkg::lookup_stages).
  [[nodiscard]] static int lookup_stages(int node_bits) { return (node_bits + 1) / 2; }
  /// PrimeCycles = K + 4 (the first RTL tile's; totex_tdm_pkg::prime_cycles is 2^NodeW + 4 now).
  [[nodiscard]] static int prime_cycles(int node_bits) { return lookup_stages(node_bits) + 4; }

 private:
  /// A slot entry in the inject lookup (the decoded table entry travels with it).
  struct InjectStage {
    bool valid = false, key = false;  // key: the entry injects
    int d = 0;                        // inject_dst
    bool view = false, conf = false;  // v[d] when it entered; a conflict flagged on entry
    bool dup = false;                 // two outputs inject
    TdmEntry e;
  };
  /// An accepted offer in the send lookup.
  struct SendStage {
    bool valid = false;
    int d = 0;
    std::uint64_t data = 0;
    bool view = false, conf = false;
  };

  void on_clock();
  void reset_control();
  void edge();
  void publish();
  void fail(const std::string& what);

  const TdmTileParams p_;
  const int node_, ports_, k_, prime_;
  const std::uint64_t mask_;
  ModelChecks& checks_;
  TdmEntry idle_;

  // Slot pipeline control and the slot table (block RAM, registered read).
  bool init_ = true, primed_ = false;
  int pc_ = 0, f_ = 0, r_ = 0;
  std::vector<std::vector<std::uint64_t>> table_;  // [depth][words]
  std::vector<std::uint64_t> rdata_;
  bool rdv_ = false, entv_ = false, ent_inj_ = false, ent_dup_ = false;
  TdmEntry ent_;
  std::vector<InjectStage> inject_;  // [K], K-1 the head

  // NIC: valid bits, registered set/clear, send lookup, park, re-lookup, send buffer.
  std::vector<char> v_;
  bool clr_en_ = false, set_en_ = false;
  int clr_d_ = 0, set_d_ = 0;
  std::vector<SendStage> send_;  // [K]
  bool free_ = true;
  int park_d_ = 0, park_age_ = 0;  // park_age_: edges parked, saturating at K
  std::uint64_t park_data_ = 0;
  std::vector<char> relookup_;  // [K] views of v[park_d], K-1 the oldest
  bool sb_we_ = false;
  int sb_waddr_ = 0;
  std::uint64_t sb_wdata_ = 0, sb_rdata_ = 0;
  std::vector<std::uint64_t> sendbuf_;

  // Execute registers (the decided slot) and the datapath.
  std::vector<int> sel_;  // per output: -1 idle, i < P forward input i, P inject
  int ej_ = -1, ejsrc_ = 0;
  bool has_ = false;
  std::vector<char> out_valid_q_;
  std::vector<std::uint64_t> out_data_q_;
  bool m_valid_q_ = false;
  std::uint64_t m_data_q_ = 0;
  int m_tid_q_ = 0;

  // Counters and checks.
  std::uint64_t missed_lo_ = 0, missed_hi_ = 0;
  bool miss_q_ = false, miss_c_ = false;
  bool err_ = false, ea_ = false, eb_ = false, left_ = false;
};

}  // namespace totex::sim
