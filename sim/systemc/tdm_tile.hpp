// SPDX-License-Identifier: Apache-2.0
/// SystemC model of the TDM tiles (docs/tdm-tile.md): the nic tile (rtl/tdm/totex_tdm_tile.sv),
/// the all-port tile (rtl/tdm/totex_tdm_allport_tile.sv: a NIC lane and s_axis stream per output
/// link, an m_axis lane per input link) and the single-port tile (rtl/tdm/totex_tdm_single_tile.sv:
/// one send and one receive per slot, waiting flits in a relay buffer), chosen by TdmTileParams.
/// Slot counter, slot table, registered router outputs, the NIC lanes (tdm_nic_lane.hpp),
/// registered m_axis delivery. `totex sim --engine systemc --periods K` wires N of them
/// (tdm_network.hpp) as the rtl harness wires the Verilated tiles (sim/tdm_wired_main.cpp).
///
/// Ports as the RTL's (same names without the _i/_o suffixes; s_* and m_* are vectors of lanes);
/// the table write data is the EntryW-bit entry as 64-bit words (least significant first),
/// decoded by the library's decode_tdm_entry (the layout of totex/tdm_tables.hpp) when the slot
/// is read.
///
/// Cycle-exact to the RTL tiles (docs/tdm-runs.md; the tdm.systemc.agree_* tests compare the two):
///   * Priming: after reset or a table write, 2^NodeW load cycles (the slot counter takes
///     period_last; after reset the NIC lanes clear their toggle bits meanwhile), then four
///     advances of the read-ahead (table read, pre-entry register, entry register with the lanes'
///     toggle-bit reads, decision) with run low: PrimeCycles = 2^NodeW + 4
///     (totex_tdm_pkg::prime_cycles); run high before that is an error.
///   * A cycle with run high executes the next slot; a flit selected in slot s is on out_* from
///     the next cycle on (one register per hop), an ejected flit on m_axis (tvalid one cycle,
///     tid = the entry's eject source) in the next cycle. run low: a pause.
///   * Inject and send: per lane, as tdm_nic_lane.hpp (the RTL NIC's registers), or with a queue
///     per destination (TdmTileParams::queue_depth > 1, every tile) as tdm_nic_queue_lane.hpp;
///     m_tlast the entry's last bit of the lane (held as m_tid), constant high without a queue.
///   * missed: the RTL's totex_tdm_status (one lane: the pulse counted at the next edge; more
///     lanes: the pulses and their count registered first, two edges later).
///   * Single-port relay buffer: a flit the slot stores is in its word from the next slot on; a
///     slot that sends a word and stores into it sends the word's old flit.
///   * The ctl tile's additions (rtl/tdm/totex_tdm_ctl_tile.sv; the constructor's `shadow`, nic
///     tile only): two banks (totex_tdm_slot_pipe's Shadow), sh_we writing the bank not read;
///     tbl_we swaps the banks at once (no write) and restarts priming; arm / arm_per arm the swap
///     into a period (the next wrap's period count nxt, hit registered, the swap at the wrap of the
///     fetch counter, armed cleared a cycle later, late when the armed period is behind); the
///     per-input-link error counters (the left flag registered, then counted: CntW = 16 bits,
///     wrapping; the port reads the count one cycle later, the rtl's two halves) and STATUS's bank, armed, late and next period as outputs. The AXI4-Lite port
///     itself is not modelled: its writes and reads are the harness's timed register accesses.
#pragma once
#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "model_check.hpp"
#include "tdm_nic_lane.hpp"
#include "tdm_nic_queue_lane.hpp"
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
  sc_core::sc_vector<sc_core::sc_in<bool>> s_tvalid;             // [lanes()]
  sc_core::sc_vector<sc_core::sc_out<bool>> s_tready;            // [lanes()] a register (free)
  sc_core::sc_vector<sc_core::sc_in<std::uint64_t>> s_tdata;     // [lanes()]
  sc_core::sc_vector<sc_core::sc_in<int>> s_tdest;               // [lanes()]
  sc_core::sc_vector<sc_core::sc_out<bool>> m_tvalid;            // [lanes()] registered one-cycle pulse
  sc_core::sc_vector<sc_core::sc_in<bool>> m_tready;             // [lanes()]
  sc_core::sc_vector<sc_core::sc_out<std::uint64_t>> m_tdata;    // [lanes()]
  sc_core::sc_vector<sc_core::sc_out<int>> m_tid;                // [lanes()]
  sc_core::sc_vector<sc_core::sc_out<bool>> m_tlast;             // [lanes()] (m_axis_tlast)
  sc_core::sc_out<std::uint64_t> missed;  // MissW = 16 bits, two halves, wraps
  sc_core::sc_out<bool> error;            // sticky
  // The ctl tile's (shadow): bound and idle on the other tiles.
  sc_core::sc_in<bool> sh_we;
  sc_core::sc_in<int> sh_addr;
  sc_core::sc_vector<sc_core::sc_in<std::uint64_t>> sh_data;    // [ceil(EntryW/64)]
  sc_core::sc_in<bool> arm;
  sc_core::sc_in<int> arm_per;
  sc_core::sc_out<bool> bank, armed, late;
  sc_core::sc_out<int> next_per;                                  // the period the next wrap starts
  sc_core::sc_vector<sc_core::sc_out<std::uint32_t>> link_cnt;   // [P] left flits per input link

  SC_HAS_PROCESS(TdmTile);
  TdmTile(const sc_core::sc_module_name& name, const TdmTileParams& params, int node, ModelChecks& checks,
          bool shadow = false);

  static constexpr int kPerW = 8;   // the ctl tile's PerW: periods numbered modulo 256
  static constexpr int kCntW = 16;  // its CntW: the link counters' width

  static constexpr int kMissW = 16;  // the RTL's default MissW (the harness instantiates the default)
  /// PrimeCycles = 2^NodeW + 4 (totex_tdm_pkg::prime_cycles: the load as long as the NIC's sweep,
  /// four advances).
  [[nodiscard]] static int prime_cycles(int node_bits) { return (1 << node_bits) + 4; }

 private:
  /// The datapath's next values for one executing cycle.
  struct Exec {
    std::vector<char> out_valid, m_valid;
    std::vector<std::uint64_t> out_data, m_data;
    bool left = false;         // a flit left on an input
    std::vector<char> left_in{};  // [P] which inputs
    bool relay_store = false;  // single-port: the received flit goes to relay word relay_word
    int relay_word = 0;
    bool relay_valid = false;
    std::uint64_t relay_data = 0;
  };

  void on_clock();
  void reset_control();
  void edge();
  Exec execute(bool exec);
  void decide(bool valid, const TdmEntry& e);
  [[nodiscard]] bool injects(const TdmEntry& e, int lane) const;
  [[nodiscard]] int inject_dst(const TdmEntry& e, int lane) const;
  void publish();
  void shadow_edge(bool flush, bool run_in, bool f_last, bool init_old, bool primed_old);
  // The lane models: the queue-less one or the queue (queued_).
  [[nodiscard]] bool lane_has(int l) const { return queued_ ? qnic_[at_(l)].has() : nic_[at_(l)].has(); }
  [[nodiscard]] std::uint64_t lane_data(int l) const { return queued_ ? qnic_[at_(l)].data() : nic_[at_(l)].data(); }
  [[nodiscard]] bool lane_miss(int l) const { return queued_ ? qnic_[at_(l)].miss() : nic_[at_(l)].miss(); }
  [[nodiscard]] bool lane_ready(int l) const { return queued_ ? qnic_[at_(l)].ready() : nic_[at_(l)].ready(); }
  static std::size_t at_(int i) { return static_cast<std::size_t>(i); }
  void fail(const std::string& what);
  [[nodiscard]] std::uint64_t input(int i) const { return in_data[static_cast<std::size_t>(i)].read() & mask_; }

  const TdmTileParams p_;
  const bool shadow_;
  const int node_, ports_, lanes_;
  const std::uint64_t mask_;
  ModelChecks& checks_;
  TdmEntry idle_;

  // Slot pipeline control (totex_tdm_slot_pipe): the load count, priming, the slot counter; the
  // slot table (block RAM, registered read), the pre-entry and entry registers and their flags.
  int swc_ = 1, pc_ = 0, f_ = 0, r_ = 0;
  bool init_ = true, primed_ = false;
  std::vector<std::vector<std::uint64_t>> table_;  // [depth][words]
  std::vector<std::uint64_t> rdata_;
  bool rdv_ = false, prev_ = false, entv_ = false;
  TdmEntry pre_, ent_;
  std::vector<char> ent_inj_;  // [lanes_] the decision's key: ent_ injects on the lane and is valid
  bool ent_dup_ = false;       // nic: ent_ has two injecting outputs
  bool dec_q_ = false, dup_h_ = false;  // the decision's double-inject flag, checked a cycle later
  const bool queued_;                  // a queue per destination (queue_depth > 1)
  std::vector<TdmNicLane> nic_;        // [lanes_] without a queue
  std::vector<TdmNicQueueLane> qnic_;  // [lanes_] with one

  // Execute registers (the decided slot).
  std::vector<int> sel_;     // nic, all-port: per output, -1 idle, i < P forward input i, P inject
  std::vector<int> ej_;      // per m_axis lane: the input link ejected, -1 none
  std::vector<int> ejsrc_;   // per m_axis lane: the source of the flit ejected
  std::vector<char> ejlast_; // per m_axis lane: its last flag (m_tlast)
  int send_port_ = -1, send_src_ = -1, send_buf_ = 0;  // single-port: the send
  int recv_port_ = -1, recv_act_ = 0, recv_buf_ = 0;   // single-port: the receive
  std::vector<char> relay_valid_;                      // single-port relay buffer
  std::vector<std::uint64_t> relay_data_;

  // Datapath registers.
  std::vector<char> out_valid_q_, m_valid_q_;
  std::vector<std::uint64_t> out_data_q_, m_data_q_;
  std::vector<int> m_tid_q_;
  std::vector<char> m_tlast_q_;

  // Counters and checks.
  std::uint64_t missed_lo_ = 0, missed_hi_ = 0, miss_c_ = 0;
  std::vector<char> miss_q_;  // more lanes: the lanes' pulses registered, then their count
  int miss_n_ = 0;
  bool err_ = false, ea_ = false, eb_ = false, left_ = false;

  // Shadow (totex_tdm_slot_pipe gen_shadow) and the link counters (totex_tdm_axil).
  bool bank_ = false, armed_ = false, hit_ = false, eq_ = false, late_ = false, behind_ = false, arm_d_ = false,
       arm_dd_ = false, swap_ = false, wrap_ = false;
  int nxt_ = 1, arm_q_ = 0;
  int nxt_s_ = 1, arm_s_ = 0;  // the late flag's operand copies (rtl: no reset; masked by arm_dd_)
  std::vector<char> left_q_;         // [P]
  std::vector<char> left_qq_;        // [P]: the ctl tile's link_err_q
  std::vector<std::uint32_t> cnt_;   // [P]
  std::vector<std::uint32_t> cnt_vis_;  // [P]: the count as the port reads it (one cycle later)
};

}  // namespace totex::sim
