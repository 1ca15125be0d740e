// SPDX-License-Identifier: Apache-2.0
/// What the MIN and direct-network controllers share: the load port's write and the RTL's field
/// width function (docs/load-port.md).
#pragma once
#include <cstdint>

namespace totex {

/// Bits to index n things, at least 1: the RTL's totex_pkg::idx_width, for every port layout.
[[nodiscard]] int idx_width(std::int64_t n);

/// One load-port write.
struct LoadWrite {
  std::uint64_t addr;
  std::uint64_t data;
  bool operator==(const LoadWrite& o) const { return addr == o.addr && data == o.data; }
};

}  // namespace totex
