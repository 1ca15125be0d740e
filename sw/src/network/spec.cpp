// SPDX-License-Identifier: Apache-2.0
#include "totex/network/spec.hpp"

#include <charconv>
#include <cstdint>
#include <vector>

#include "totex/error.hpp"
#include "totex/network/graph.hpp"
#include "totex/network/placement.hpp"

namespace totex {
namespace {

constexpr std::int64_t kMaxLinks = std::int64_t{1} << 24;  // complete:4096, ghc:64x64x..., hypercube:16 fit

/// `why` may quote the user's text: it is shown escaped, and the spec itself cut to 60 characters.
[[noreturn]] void bad(std::string_view spec, std::string_view why) {
  throw UsageError("bad topology '" + printable(spec) + "': " + printable(why, 400) + "; accepted: " + spec_grammar());
}

/// A decimal integer; one too large for any size totex accepts is "out of range", not "not an integer".
int parse_int(std::string_view text, std::string_view spec, std::string_view what) {
  if (!text.empty()) {
    const std::size_t sign = text[0] == '-' ? 1 : 0;
    const bool digits_only = text.size() > sign && text.find_first_not_of("0123456789", sign) == std::string_view::npos;
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (digits_only && ec == std::errc::result_out_of_range)
      bad(spec, std::string(what) + " " + printable(text) + " is out of range (at most " + std::to_string(kMaxNodes) + ")");
    if (ec == std::errc() && end == text.data() + text.size()) return value;
  }
  bad(spec, std::string(what) + " '" + printable(text) + "' is not an integer");
}

std::vector<int> parse_sizes(std::string_view text, std::string_view spec, int min_size) {
  std::vector<int> sizes;
  for (std::string_view part : split_fields(text, 'x')) {
    const int k = parse_int(part, spec, "size");
    if (k < min_size) bad(spec, "size " + std::to_string(k) + " is below " + std::to_string(min_size));
    if (k > kMaxNodes) bad(spec, "size " + std::to_string(k) + " is out of range (at most " + std::to_string(kMaxNodes) + ")");
    sizes.push_back(k);
  }
  return sizes;
}

/// One factor list for "kind:args" (not metacube/min).
std::vector<Factor> parse_factors(std::string_view term, std::string_view spec) {
  if (term.empty())
    bad(spec, "'*' must join two topologies, and one side is empty (a product is A*B, e.g. ring:5*complete:3)");
  const std::size_t colon = term.find(':');
  if (colon == std::string_view::npos) bad(spec, "missing ':' in '" + printable(term) + "'");
  const std::string_view kind = term.substr(0, colon);
  const std::string_view args = term.substr(colon + 1);
  if (const std::size_t extra = args.find(':'); extra != std::string_view::npos && kind != "min")
    bad(spec, "unexpected '" + printable(args.substr(extra)) + "' after '" + printable(term.substr(0, colon + 1 + extra)) +
                  "' (" + printable(kind) + " takes no further ':' field)");
  std::vector<Factor> out;
  if (kind == "ring" || kind == "path" || kind == "complete") {
    const int n = parse_int(args, spec, "size");
    if (n < 2) bad(spec, std::string(kind) + ":N needs N >= 2");
    out.push_back({kind == "ring" ? FactorKind::Ring : kind == "path" ? FactorKind::Path : FactorKind::Complete, n});
  } else if (kind == "torus") {
    for (int k : parse_sizes(args, spec, 2)) out.push_back({FactorKind::Ring, k});
  } else if (kind == "mesh") {  // a mesh is the product of paths: mesh:8x8 == path:8*path:8
    for (int k : parse_sizes(args, spec, 2)) out.push_back({FactorKind::Path, k});
  } else if (kind == "ghc") {
    for (int k : parse_sizes(args, spec, 2)) out.push_back({FactorKind::Complete, k});
  } else if (kind == "hypercube") {
    const int n = parse_int(args, spec, "dimension");
    if (n < 1 || n > 16) bad(spec, "hypercube:n needs 1 <= n <= 16");
    for (int i = 0; i < n; ++i) out.push_back({FactorKind::Complete, 2});
  } else {
    bad(spec, "unknown kind '" + printable(kind) + "'");
  }
  return out;
}

}  // namespace

std::string spec_grammar() {
  return "ring:N | path:N | complete:N | torus:K1xK2[x...] | mesh:A1xA2[x...] | hypercube:n | ghc:M1xM2[x...] | "
         "metacube:K,M | min:N:D[:WIRING] (WIRING = omega (default) | baseline | butterfly) | products A*B of the first seven | "
         "torus:KxK[x...]@linear | torus:KxK[x...]@multiple:T (partially populated, paper 004) | graph:FILE (nodes and links, or "
         "Poseidon's platform .xml) | any of these but min ~fail:LIST (degraded: LIST = links a-b and nodes v, joined by ',')";
}

Network parse_spec(std::string_view spec) {
  if (spec.empty()) bad(spec, "the spec is empty");
  // A degraded network: the base network without the listed links and nodes (docs/networks.md).
  // Its canonical spec lists the failures sorted, so equal networks have equal specs.
  if (const std::size_t tilde = spec.find("~fail:"); tilde != std::string_view::npos) {
    const std::string_view base_spec = spec.substr(0, tilde), list = spec.substr(tilde + 6);
    if (base_spec.empty()) bad(spec, "~fail:LIST follows a network (e.g. torus:8x8~fail:0-1)");
    if (list.find('~') != std::string_view::npos) bad(spec, "one ~fail:LIST only (join every failure into one list with ',')");
    if (list.find('@') != std::string_view::npos)
      bad(spec, "a placement comes before ~fail:LIST (e.g. torus:8x8@linear~fail:0-1)");
    Network net = parse_spec(base_spec);
    const auto* base = std::get_if<Topology>(&net);
    if (!base) bad(spec, "a MIN cannot have failures (~fail and --fail apply to direct networks)");
    FailList f;
    try {
      f = parse_fail_list(list, *base);
    } catch (const UsageError& e) {
      bad(spec, e.what());
    }
    return Topology::degraded(*base, f.links, f.nodes, base->spec() + "~fail:" + to_string(f));
  }
  // The rest of a graph spec is a path, whatever it holds ('*', '@', '~'): read as given, relative
  // to the working directory, and recorded as given in schedule files.
  if (spec.substr(0, 6) == "graph:") {
    if (spec.size() == 6) bad(spec, "graph:FILE needs a file");
    return load_graph(std::string(spec.substr(6)), std::string(spec));
  }
  if (const std::size_t tilde = spec.find('~'); tilde != std::string_view::npos)
    bad(spec, "unknown suffix '" + printable(spec.substr(tilde)) + "' (the one suffix is ~fail:LIST)");
  if (const std::size_t at = spec.find('@'); at != std::string_view::npos) {
    // A placed torus: all k^d routers and links, processors only at the placement's nodes.
    const std::string_view base = spec.substr(0, at);
    Network net = parse_spec(base);
    auto* t = std::get_if<Topology>(&net);
    if (!t) bad(spec, "a placement needs a torus, not a MIN");
    try {
      const Placement p = parse_placement(spec.substr(at + 1));
      t->set_processors(placement_nodes(*t, p), std::string(spec));
    } catch (const UsageError& e) {
      bad(spec, e.what());
    }
    return net;
  }
  if (spec.substr(0, 4) == "min:") {
    const std::vector<std::string_view> p = split_fields(spec, ':');
    if (p.size() != 3 && p.size() != 4) bad(spec, "expected min:N:D[:WIRING]");
    const int n = parse_int(p[1], spec, "N");
    const int d = parse_int(p[2], spec, "D");
    Wiring w{};  // min:N:D without a wiring is omega (paper 002's printed example is omega's)
    if (p.size() == 3 || p[3] == "omega") w = Wiring::Omega;
    else if (p[3] == "baseline") w = Wiring::Baseline;
    else if (p[3] == "butterfly") w = Wiring::Butterfly;
    else bad(spec, "WIRING must be omega | baseline | butterfly");
    try {
      return MinNetwork(n, d, w);
    } catch (const UsageError& e) {
      bad(spec, e.what());
    }
  }
  if (spec.substr(0, 9) == "metacube:") {
    const std::vector<std::string_view> p = split_fields(spec.substr(9), ',');
    if (p.size() != 2) bad(spec, "expected metacube:K,M");
    const int k = parse_int(p[0], spec, "K"), m = parse_int(p[1], spec, "M");
    if (k > 16 || m > 16)  // MC(K,M) has 2^(M 2^K + K) nodes: far beyond kMaxNodes, and 2^K overflows
      bad(spec, "K " + std::to_string(k) + ", M " + std::to_string(m) + " is out of range (at most " +
                    std::to_string(kMaxNodes) + " nodes)");
    try {
      return Topology::metacube(k, m, std::string(spec));
    } catch (const UsageError& e) {
      bad(spec, e.what());
    }
  }
  std::vector<Factor> factors;
  for (std::string_view term : split_fields(spec, '*')) {
    for (const Factor& f : parse_factors(term, spec)) factors.push_back(f);
  }
  // What building the topology costs: one table entry per directed link (nodes x ports) plus the
  // node's coordinates walked once per dimension. complete:65536 would need 4.3e9 links; the cap
  // admits complete:4096 (16.77 M links, about 0.2 s CPU under ASan) and nothing much larger.
  std::int64_t nodes = 1, degree = 0;
  for (const Factor& f : factors) {
    nodes *= f.size;
    if (nodes > kMaxNodes) break;  // Topology::product names it
    degree += f.kind == FactorKind::Complete ? f.size - 1 : f.size == 2 ? 1 : 2;
  }
  if (nodes <= kMaxNodes) {
    const std::int64_t links = nodes * degree;
    const std::int64_t coords = nodes * static_cast<std::int64_t>(factors.size());
    if (links + coords > kMaxLinks)
      bad(spec, std::to_string(links) + " directed links + " + std::to_string(coords) + " node coordinates = " +
                    std::to_string(links + coords) + " table entries to build is out of range (at most " +
                    std::to_string(kMaxLinks) + ")");
  }
  try {
    return Topology::product(std::move(factors), std::string(spec));
  } catch (const UsageError& e) {
    bad(spec, e.what());
  }
}

Topology parse_topology(std::string_view spec) {
  Network n = parse_spec(spec);
  if (auto* t = std::get_if<Topology>(&n)) return std::move(*t);
  throw UsageError("'" + std::string(spec) + "' is a MIN; this needs a direct network (" + spec_grammar() + ")");
}

std::vector<std::string_view> split_fields(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) return parts;
    start = pos + 1;
  }
}

}  // namespace totex
