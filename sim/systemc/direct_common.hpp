// SPDX-License-Identifier: Apache-2.0
/// Shared pieces of the SystemC direct-network models (sim/systemc/direct_*.hpp): the message
/// format of the links, the load-port address type and the model-check counter.
///
/// The models are written from the contract in sw/hw/include/totex/direct_controller.hpp (load-port
/// address map, table-entry layout, timing; docs/load-port.md) and docs/models.md, independently of the RTL, so that a run
/// on them cross-checks the RTL run of the same controller writes.
#pragma once
#include <cstdint>
#include <string>
#include <utility>

#include "model_check.hpp"
#include "totex/direct_controller.hpp"

namespace totex::sim {

/// Low `width` bits set.
[[nodiscard]] constexpr std::uint64_t low_mask(int width) {
  return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}

/// A message on a link: {src, dst, payload} packed like the RTL's MW-bit bus (payload lowest).
struct MsgFormat {
  int node_bits = 1;
  int payload_bits = 1;
  [[nodiscard]] std::uint64_t pack(std::uint64_t src, std::uint64_t dst, std::uint64_t payload) const {
    return (src << (node_bits + payload_bits)) | (dst << payload_bits) | (payload & low_mask(payload_bits));
  }
  [[nodiscard]] std::uint64_t src(std::uint64_t m) const { return (m >> (node_bits + payload_bits)) & low_mask(node_bits); }
  [[nodiscard]] std::uint64_t dst(std::uint64_t m) const { return (m >> payload_bits) & low_mask(node_bits); }
  [[nodiscard]] std::uint64_t payload(std::uint64_t m) const { return m & low_mask(payload_bits); }
};

/// A load-port address {region[1:0], node[IW], index[XW]} taken apart by the library's decoder
/// (DirectLayout::fields), the one the RTL harnesses use.
using LoadAddress = DirectLayout::AddressFields;

/// The model checks of every module (the RTL's assertions).
using DirectChecks = ModelChecks;

}  // namespace totex::sim
