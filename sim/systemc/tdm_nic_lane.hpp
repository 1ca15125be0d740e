// SPDX-License-Identifier: Apache-2.0
/// SystemC model of one NIC lane of the TDM tiles (rtl/tdm/totex_tdm_nic.sv): the nic and
/// single-port tiles have one, the all-port tile one per output link (docs/tdm-tile.md, "How the
/// NIC stays small"). A plain class stepped by its tile (tdm_tile.hpp) at each rising edge.
///
/// Register for register the RTL NIC (exact to the cycle, docs/tdm-runs.md, checked against the
/// Verilated tiles by the tdm.systemc.agree_* tests, 2026-11-26): the pending state as toggle pairs
/// (S flips on a commit, R on an injection; d's message waits iff S[d] != R[d]) in memories with a
/// registered read and read-before-write, each side reading the other's bit one edge late; the
/// send buffer of two words per destination, written one edge after the placement; the head, the
/// park and s_tready (rdy) with the RTL's flip-flops and their reset values, so that a parked
/// offer commits, and s_tready returns, in the RTL's cycle; the inject decision from the bits read
/// one advance ahead, a slot after one of the two decided before it for the same destination that
/// sent missing; the clearing sweep after reset (2^NodeW cycles, s_tready low).
/// Flip-flops without reset keep their values over reset (as the datapath's); the ones the RTL
/// loads with constants at every edge in reset (the send buffer's write enable, the forward flag)
/// are set so.
#pragma once
#include <cstdint>
#include <vector>

namespace totex::sim {

class TdmNicLane {
 public:
  /// 2^node_bits destinations.
  explicit TdmNicLane(int node_bits);

  /// What the lane sees at one rising edge (the RTL NIC's inputs).
  struct Edge {
    bool adv = false;        // the slot pipeline moves (adv_i, adv_buf_i)
    bool look_next = false;  // read the next slot's bits, else reread the decided slot's
    int pre_dst = 0;         // inject destination of the slot after the decided one
    int ent_dst = 0;         // inject destination of the slot decided in this cycle
    bool key = false;        // the slot decided in this cycle injects on this lane
    bool offer = false;      // s_tvalid (the destination checked in range by the tile)
    int tdest = 0;           // taken modulo 2^node_bits, as the RTL's port is that wide
    std::uint64_t tdata = 0;
  };

  /// What rst_n resets (and what the edges in reset load).
  void reset();
  void edge(const Edge& in);

  [[nodiscard]] bool ready() const { return q_.rdy; }            // s_tready
  [[nodiscard]] bool has() const { return q_.has; }              // the decided slot injects a message
  [[nodiscard]] std::uint64_t data() const { return sb_rdata_; }  // its payload
  /// The miss pulse: one cycle after a decision that found no message for an injecting slot.
  [[nodiscard]] bool miss() const { return q_.dec && q_.key_h && !q_.has; }

 private:
  /// The RTL's flip-flops (names without _q).
  struct Regs {
    int sw = 0;                                      // the sweep count, NodeW + 1 bits
    bool swn = true;                                 // the next cycle sweeps too
    bool s_i = false, r_i = false;                   // inject side's reads of S and R
    bool s_s = false, r_s = false;                   // send side's reads
    bool eq1 = false, f2 = false, rq = false;        // inject side
    int dec_d = 0;
    bool dec = false, has = false, key_h = false;
    bool rdy = false, hv = true, pv = false, vq = true, hvh = false, lih = false;  // send side
    int hd = 0, la = 0;
    std::uint64_t hdata = 0;
    bool fq = false, fq_r = false, ps = false, pf = false, pr = false;
    bool sb_we = false;                              // the registered send-buffer write
    int sb_wa = 0;
    std::uint64_t sb_wd = 0;
  };

  const int nw_, nodes_;
  Regs q_;
  std::vector<char> s_, r_;                 // the toggle bits, [2^NodeW] each
  std::vector<std::uint64_t> sendbuf_;      // [2 * 2^NodeW], word {parity, d}
  std::uint64_t sb_rdata_ = 0;              // the send buffer's registered read
};

}  // namespace totex::sim
