// SPDX-License-Identifier: Apache-2.0
/// SystemC model of one NIC lane of the TDM tiles (rtl/tdm/totex_tdm_nic.sv): the nic and
/// single-port tiles have one, the all-port tile one per output link (docs/tdm-tile.md). A plain
/// class stepped by its tile (tdm_tile.hpp) at each rising edge, to the tile's external contract:
///   * Inject: the slot executing in cycle E is decided at the edge before E from a view of d's
///     valid bit taken K cycles earlier (when the slot's entry entered the lookup), unless an
///     inject decision still in flight for d (same lookup, or the registered clear) flags it:
///     then it misses (a registered miss pulse), as does a slot whose view shows no message.
///   * Send: s_tready is a register; an accepted offer looks its destination up for K cycles and
///     at the head commits (valid bit set, send buffer written one cycle later) if its view shows
///     the entry free and no offer in flight or just committed has the same destination;
///     otherwise it is parked, s_tready drops from the next cycle, and it commits when a view
///     taken at least one cycle after the park shows the entry free.
/// The lookups are modelled as what they deliver (a K-cycle-old view of the bit plus the conflict
/// flags), not as the RTL's mux stages.
#pragma once
#include <cstdint>
#include <vector>

namespace totex::sim {

class TdmNicLane {
 public:
  /// K lookup stages, 2^node_bits destinations.
  TdmNicLane(int lookup_stages, int node_bits);

  /// What the lane sees at one rising edge.
  struct Edge {
    bool adv = false;    // the slot pipeline moves
    bool clear = false;  // the inject lookup empties (a table write, or the load cycle)
    bool key = false;    // the entry entering the inject lookup at adv injects on this lane
    int dst = 0;         // its destination
    bool offer = false;  // s_tvalid (the destination checked in range by the tile)
    int tdest = 0;
    std::uint64_t tdata = 0;
  };

  /// What rst_n resets: the valid bits, the lookups, the park, the decision.
  void reset();
  void edge(const Edge& in);

  [[nodiscard]] bool ready() const { return free_; }               // s_tready
  [[nodiscard]] bool has() const { return has_; }                  // the decided slot injects a message
  [[nodiscard]] std::uint64_t data() const { return sb_rdata_; }   // its payload
  [[nodiscard]] bool miss() const { return miss_q_; }              // the last decision found none

 private:
  /// A slot entry in the inject lookup.
  struct InjectStage {
    bool key = false;
    int d = 0;
    bool view = false, conf = false;  // v[d] when it entered; a conflict flagged on entry
  };
  /// An accepted offer in the send lookup.
  struct SendStage {
    bool valid = false;
    int d = 0;
    std::uint64_t data = 0;
    bool view = false, conf = false;
  };

  const int k_;
  std::vector<InjectStage> inject_;  // [K], K-1 the head
  std::vector<char> v_;              // a message waits for destination d
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
  bool has_ = false, miss_q_ = false;
};

}  // namespace totex::sim
