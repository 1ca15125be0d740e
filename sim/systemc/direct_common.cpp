// SPDX-License-Identifier: Apache-2.0
#include "direct_common.hpp"

namespace totex::sim {

LoadAddress decode_address(const DirectLayout& l, std::uint64_t addr) {
  return {static_cast<int>((addr >> (l.node_bits + l.index_bits)) & low_mask(DirectLayout::kRegionBits)), (addr >> l.index_bits) & low_mask(l.node_bits),
          addr & low_mask(l.index_bits)};
}

}  // namespace totex::sim
