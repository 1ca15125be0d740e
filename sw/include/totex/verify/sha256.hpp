// SPDX-License-Identifier: Apache-2.0
/// SHA-256 (FIPS 180-4), for delivery-trace digests.
#pragma once
#include <string>
#include <string_view>

namespace totex {

/// Lower-case hex digest of `data`.
[[nodiscard]] std::string sha256_hex(std::string_view data);

}  // namespace totex
