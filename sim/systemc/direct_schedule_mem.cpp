// SPDX-License-Identifier: Apache-2.0
#include "direct_schedule_mem.hpp"

namespace totex::sim {

DirectScheduleMem::DirectScheduleMem(const sc_core::sc_module_name& name, const DirectLayout& layout, int node)
    : sc_module(name),
      act("act", static_cast<std::size_t>(layout.ports)),
      lane_valid("lane_valid", static_cast<std::size_t>(layout.lanes)),
      lane_port("lane_port", static_cast<std::size_t>(layout.lanes)),
      lane_slot("lane_slot", static_cast<std::size_t>(layout.lanes)),
      layout_(layout),
      node_(static_cast<std::uint64_t>(node)),
      mem_(static_cast<std::size_t>(layout.params.depth) * static_cast<std::size_t>(layout.words), 0U) {
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
  SC_METHOD(read);
  sensitive << step << active << written_;
}

void DirectScheduleMem::on_clock() {
  if (cfg_we.read()) (void)store(layout_.fields(cfg_addr.read()), cfg_data.read());
}

bool DirectScheduleMem::store(const LoadAddress& a, std::uint64_t data) {
  if (a.region != DirectLayout::kRegionTable || a.node != node_) return false;
  const std::uint64_t word = a.index & low_mask(layout_.word_bits);
  const std::uint64_t entry = a.index >> layout_.word_bits;
  const auto words = static_cast<std::uint64_t>(layout_.words);
  if (word >= words || entry >= static_cast<std::uint64_t>(layout_.params.depth)) return false;
  // The last word holds only the entry's remaining bits.
  const int bits = word + 1 == words ? layout_.entry_bits - DirectLayout::kWordBits * (layout_.words - 1) : DirectLayout::kWordBits;
  mem_[entry * words + word] = static_cast<std::uint32_t>(data & low_mask(bits));
  written_.notify(sc_core::SC_ZERO_TIME);
  return true;
}

std::uint64_t DirectScheduleMem::field(std::size_t entry, int lsb, int width) const {
  std::uint64_t v = 0;
  const std::size_t base = entry * static_cast<std::size_t>(layout_.words);
  for (int i = 0; i < width; ++i) {
    const int b = lsb + i;
    v |= static_cast<std::uint64_t>((mem_[base + static_cast<std::size_t>(b / DirectLayout::kWordBits)] >> (b % DirectLayout::kWordBits)) & 1U) << i;
  }
  return v;
}

void DirectScheduleMem::read() {
  const int s = step.read();
  const bool in_range = s >= 0 && s < layout_.params.depth;
  const auto e = static_cast<std::size_t>(in_range ? s : 0);
  const int p = layout_.ports;
  for (int i = 0; i < p; ++i)
    act[static_cast<std::size_t>(i)].write(
        in_range ? static_cast<int>(field(e, i * layout_.act_bits, layout_.act_bits)) : DirectLayout::kActNone);
  const int lane_bits = layout_.route_bits + layout_.slot_bits;
  for (int l = 0; l < layout_.lanes; ++l) {
    const int base = p * layout_.act_bits + l * lane_bits;
    const auto route = in_range ? static_cast<int>(field(e, base, layout_.route_bits)) : DirectLayout::kRouteIdle;
    const auto i = static_cast<std::size_t>(l);
    lane_valid[i].write(active.read() && route != DirectLayout::kRouteIdle);
    lane_port[i].write(route - DirectLayout::kRoutePort0);
    lane_slot[i].write(static_cast<int>(field(e, base + layout_.route_bits, layout_.slot_bits)));
  }
  store_entry.write(static_cast<int>(field(e, p * layout_.act_bits + layout_.lanes * lane_bits, layout_.buffer_bits)));
}

}  // namespace totex::sim
