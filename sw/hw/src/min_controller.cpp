// SPDX-License-Identifier: Apache-2.0
#include "totex/min_controller.hpp"

#include <algorithm>
#include <unordered_map>

#include "totex/error.hpp"
#include "totex/generators/generators.hpp"
#include "totex/verify/trace.hpp"

namespace totex {
MinPortLayout::MinPortLayout(const MinNetwork& net, int max_steps, int payload)
    : terminal_bits(idx_width(net.terminals())),
      step_bits(idx_width(max_steps)),
      index_bits(idx_width(std::max(net.switches(), net.terminals()))),
      payload_bits(payload),
      state_bits(idx_width(net.radix())),
      count_bits(idx_width(net.terminals() + 1)) {}

std::uint64_t MinPortLayout::address(int region, std::uint64_t index, std::uint64_t entry) const {
  return (static_cast<std::uint64_t>(region) << (index_bits + step_bits)) | (index << step_bits) | entry;
}

MinPortLayout::AddressFields MinPortLayout::fields(std::uint64_t addr) const {
  const auto low = [](int w) { return (std::uint64_t{1} << w) - 1; };
  return {static_cast<int>((addr >> (index_bits + step_bits)) & low(kRegionBits)),
          (addr >> step_bits) & low(index_bits), addr & low(step_bits)};
}

// The enums the RTL mirrors: their order is the RTL's parameter codes.
static_assert(static_cast<int>(Wiring::Omega) == rtl::totex_pkg::WIRING_OMEGA);
static_assert(static_cast<int>(Wiring::Baseline) == rtl::totex_pkg::WIRING_BASELINE);
static_assert(static_cast<int>(Wiring::Butterfly) == rtl::totex_pkg::WIRING_BUTTERFLY);

int MinPortLayout::mode_code(MinConfigMode mode) {
  return mode == MinConfigMode::Table ? rtl::totex_pkg::MODE_TABLE : rtl::totex_pkg::MODE_COMPUTED;
}

std::vector<LoadWrite> min_configuration_writes(const MinNetwork& net, const MinSchedule& s, MinConfigMode mode,
                                                const MinPortLayout& layout) {
  const auto steps = static_cast<std::int64_t>(s.configurations.size());
  if (steps == 0) throw UsageError("the schedule has no configurations");
  if (steps > (std::int64_t{1} << layout.step_bits))
    throw UsageError("the schedule has " + std::to_string(steps) + " configurations; the hardware holds at most " +
                     std::to_string(std::int64_t{1} << layout.step_bits));
  std::vector<LoadWrite> writes;
  if (mode == MinConfigMode::Computed) {
    // Computed mode regenerates M^x from M^0, so the schedule must be exactly that family.
    const bool derived = !s.m0.empty() && steps == net.terminals() &&
                         std::all_of(s.idle.begin(), s.idle.end(), [](const auto& v) { return v.empty(); });
    bool same = derived;
    for (int x = 0; same && x < steps; ++x)
      same = configuration_from_m0(net, s.m0, x) == s.configurations[static_cast<std::size_t>(x)];
    if (!same)
      throw UsageError("--min-mode computed runs paper 002's M^x schedules (algorithm latin) only; this is '" +
                       s.algorithm + "': use --min-mode table");
    for (int g = 0; g < net.switches(); ++g)
      writes.push_back({layout.address(MinPortLayout::kRegionM0, static_cast<std::uint64_t>(g), 0),
                        s.m0[static_cast<std::size_t>(g)]});
  } else {
    for (int g = 0; g < net.switches(); ++g)
      for (std::int64_t x = 0; x < steps; ++x)
        writes.push_back({layout.address(MinPortLayout::kRegionSwitchTable, static_cast<std::uint64_t>(g),
                                         static_cast<std::uint64_t>(x)),
                          s.configurations[static_cast<std::size_t>(x)][static_cast<std::size_t>(g)]});
  }
  writes.push_back({layout.address(MinPortLayout::kRegionControl, MinPortLayout::kControlSteps, 0),
                    static_cast<std::uint64_t>(steps - 1)});
  if (!s.traffic.is_all()) writes.push_back({layout.address(MinPortLayout::kRegionControl, MinPortLayout::kControlRepeat, 0), 1});
  return writes;
}

std::vector<LoadWrite> min_send_queue_writes(const std::vector<std::vector<int>>& order, const MinPortLayout& layout) {
  std::vector<LoadWrite> writes;
  const std::uint64_t idle = std::uint64_t{1} << (layout.terminal_bits + layout.payload_bits);
  for (std::size_t src = 0; src < order.size(); ++src) {
    std::unordered_map<int, std::int32_t> sent;  // flits of (src, dst) queued so far
    for (std::size_t x = 0; x < order[src].size(); ++x) {
      const int dst = order[src][x];
      const std::uint64_t data = dst < 0 ? idle
                                         : static_cast<std::uint64_t>(dst) << layout.payload_bits |
                                               payload_of(static_cast<NodeId>(src), dst, sent[dst]++);
      writes.push_back({layout.address(MinPortLayout::kRegionSendQueue, src, x), data});
    }
  }
  return writes;
}

}  // namespace totex
