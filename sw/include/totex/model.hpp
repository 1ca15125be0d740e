// SPDX-License-Identifier: Apache-2.0
/// The three communication models (docs/models.md).
#pragma once
#include <string>
#include <string_view>

namespace totex {

enum class Model { SinglePort, AllPort, Nic };

[[nodiscard]] std::string to_string(Model m);
/// Parses `single-port`, `all-port` or `nic`; throws UsageError naming the accepted values.
[[nodiscard]] Model parse_model(std::string_view text);
/// Whether a message may wait at a relay node between steps.
[[nodiscard]] constexpr bool allows_relay_buffering(Model m) { return m == Model::SinglePort; }

}  // namespace totex
