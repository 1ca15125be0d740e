// SPDX-License-Identifier: Apache-2.0
// Module testbench of the NIC queue (rtl/tdm/totex_tdm_nic_queue.sv, multi-flit traffic) against
// its SystemC-side model (sim/systemc/tdm_nic_queue_lane.cpp, a plain class) and a scoreboard of
// its own: random offers (held until taken, AXI4-Stream), random slots (destination, inject key)
// moving through the table's output, the next entry and the decided entry at random advances,
// pauses included. Checked every cycle:
// s_axis_tready, has_o, miss_o and data_o (while has_o) equal the model's; every injected payload is
// the oldest accepted one of its destination not yet injected (nothing lost, duplicated or
// reordered); a destination never holds more than QueueDepth committed messages (the RTL would
// overwrite a payload). Usage: tb_tdm_nic_queue CYCLES SEED (TB_NODEW, TB_DEPTH at compile time).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <vector>

#include "Vtotex_tdm_nic_queue.h"
#include "tdm_nic_queue_lane.hpp"
#include "verilated.h"

namespace {
std::uint64_t lcg(std::uint64_t& s) {
  s = s * 6364136223846793005ULL + 1442695040888963407ULL;
  return s >> 33;
}
}  // namespace

int main(int argc, char** argv) {
  const long cycles = argc > 1 ? std::atol(argv[1]) : 20000;
  std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  const int nodes = 1 << TB_NODEW;
  auto ctx = std::make_unique<VerilatedContext>();
  auto dut = std::make_unique<Vtotex_tdm_nic_queue>(ctx.get());
  totex::sim::TdmNicQueueLane model(TB_NODEW, TB_DEPTH);
  std::vector<std::deque<std::uint32_t>> fifo(static_cast<std::size_t>(nodes));  // accepted, not yet injected
  int errors = 0;
  const auto fail = [&](long c, const char* what, long a, long b) {
    if (++errors <= 10) std::printf("cycle %ld: %s: rtl %ld, model %ld\n", c, what, a, b);
  };
  // Reset over two edges.
  dut->rst_ni = 0;
  dut->clk_i = 0;
  dut->eval();
  for (int e = 0; e < 2; ++e) {
    dut->clk_i = 1;
    dut->eval();
    dut->clk_i = 0;
    dut->eval();
  }
  dut->rst_ni = 1;
  model.reset();
  int ent = 0, pre = 0, rd = 0;  // the decided slot's, the next slot's and the one after's destination
  bool ent_key = false, pre_key = false, rd_key = false;
  bool offering = false;
  int tdest = 0;
  std::uint32_t tdata = 0, next_data = 1;
  long injected = 0, accepted = 0;
  bool prev_adv = false;  // the decision made at the last edge: its payload is checked now
  int prev_dst = 0;
  for (long c = 0; c < cycles; ++c) {
    // Inputs of this cycle.
    if (!offering && lcg(seed) % 4 != 0) {
      offering = true;
      tdest = static_cast<int>(lcg(seed) % static_cast<std::uint64_t>(nodes));
      tdata = next_data++;
    }
    const bool adv = lcg(seed) % 8 != 0;  // a pause in about one cycle in eight
    if (c < nodes + 4) ent_key = pre_key = rd_key = false;  // no decision before the tile's priming ends (the sweep)
    totex::sim::TdmNicLane::Edge in;
    in.adv = adv;
    in.look_next = adv;  // as the slot pipeline in its run state: read the next slot's when it moves
    in.pre_dst = pre;
    in.ent_dst = ent;
    in.key = ent_key;
    in.offer = offering;
    in.tdest = tdest;
    in.tdata = tdata;
    dut->adv_i = adv;
    dut->adv_buf_i = adv;
    dut->look_next_i = adv;
    dut->rd_dst_i = static_cast<std::uint8_t>(rd);
    dut->pre_dst_i = static_cast<std::uint8_t>(pre);
    dut->ent_dst_i = static_cast<std::uint8_t>(ent);
    dut->key_i = ent_key;
    dut->s_axis_tvalid = offering;
    dut->s_axis_tdest = static_cast<std::uint8_t>(tdest);
    dut->s_axis_tdata = tdata;
    dut->eval();
    // Outputs before the edge: the RTL against the model.
    if (dut->s_axis_tready != model.ready()) fail(c, "s_axis_tready", dut->s_axis_tready, model.ready());
    if (dut->has_o != model.has()) fail(c, "has_o", dut->has_o, model.has());
    if (dut->miss_o != model.miss()) fail(c, "miss_o", dut->miss_o, model.miss());
    if (prev_adv && dut->has_o) {  // the decision at the last edge injected: its payload, in order
      if (dut->data_o != model.data()) fail(c, "data_o", dut->data_o, static_cast<long>(model.data()));
      auto& q = fifo[static_cast<std::size_t>(prev_dst)];
      if (q.empty()) fail(c, "an injection with nothing accepted for its destination", prev_dst, -1);
      else {
        if (dut->data_o != q.front()) fail(c, "payload out of order", dut->data_o, q.front());
        q.pop_front();
        ++injected;
      }
    }
    // The edge.
    const bool take = offering && dut->s_axis_tready;
    if (take) {
      fifo[static_cast<std::size_t>(tdest)].push_back(tdata);
      ++accepted;
    }
    prev_adv = adv;
    prev_dst = ent;
    dut->clk_i = 1;
    dut->eval();
    dut->clk_i = 0;
    dut->eval();
    model.edge(in);
    if (take) offering = false;
    if (adv) {  // the slot pipeline moves: the next slot is decided next, a new slot behind it
      ent = pre;
      ent_key = pre_key;
      pre = rd;
      pre_key = rd_key;
      rd = static_cast<int>(lcg(seed) % static_cast<std::uint64_t>(nodes));
      rd_key = lcg(seed) % 3 != 0;
    }
    // The NIC holds at most TB_DEPTH committed messages per destination (plus the head and the
    // two skid entries): more accepted and not injected would have overwritten a payload.
    for (const auto& q : fifo)
      if (static_cast<int>(q.size()) > TB_DEPTH + 3) fail(c, "more messages accepted than the queue holds", static_cast<long>(q.size()), TB_DEPTH + 3);
  }
  dut->final();
  std::printf("tb_tdm_nic_queue NodeW=%d QueueDepth=%d seed %s: %ld cycles, %ld accepted, %ld injected, %d errors\n",
              TB_NODEW, TB_DEPTH, argc > 2 ? argv[2] : "1", cycles, accepted, injected, errors);
  if (injected == 0 || accepted == 0) {
    std::printf("FAIL: nothing went through\n");
    return 1;
  }
  return errors == 0 ? 0 : 1;
}
