// SPDX-License-Identifier: Apache-2.0
/// Topology spec grammar (README "Topology specs"):
///   ring:N  path:N  complete:N  torus:K1xK2[x...]  hypercube:n  ghc:M1xM2[x...]
///   mesh:A1xA2[x...] (= path:A1*path:A2*...)  metacube:K,M  min:N:D[:WIRING] (omega by default)
///   and products of the first seven joined by '*';
///   torus:KxK[x...]@linear | @multiple:T  (partially populated tori of paper 004: every node has
///   a router, only the placement's nodes have a processor).
#pragma once
#include <string>
#include <vector>
#include <string_view>
#include <variant>

#include "totex/network/min_network.hpp"
#include "totex/network/topology.hpp"

namespace totex {

using Network = std::variant<Topology, MinNetwork>;

/// Throws UsageError with a one-line message naming the accepted form.
[[nodiscard]] Network parse_spec(std::string_view spec);
/// Parses a direct-network spec; a MIN spec is a UsageError.
[[nodiscard]] Topology parse_topology(std::string_view spec);

/// The accepted grammar in one line, for error messages and --help.
[[nodiscard]] std::string spec_grammar();
/// `s` cut at every `sep` (empty parts kept): the fields of a spec such as torus:4x4 or moe:8:2:16:1.
[[nodiscard]] std::vector<std::string_view> split_fields(std::string_view s, char sep);

}  // namespace totex
