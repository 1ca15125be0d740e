// SPDX-License-Identifier: Apache-2.0
// The --traffic spec and the generators (docs/traffic.md, "Kinds").
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>

#include "totex/error.hpp"
#include "totex/splitmix.hpp"
#include "totex/network/spec.hpp"
#include "totex/traffic/traffic.hpp"
#include "traffic_internal.hpp"

namespace totex {
namespace {

[[noreturn]] void bad(std::string_view spec, const std::string& why) {
  throw UsageError("bad traffic '" + printable(spec) + "': " + why + "; accepted: " + traffic_grammar());
}

/// A decimal integer in lo..hi; above `hi` a ResourceError when `resource` (a size), else a UsageError.
std::int64_t number(std::string_view text, std::string_view spec, const char* what, std::int64_t lo, std::int64_t hi,
                    bool resource = false) {
  const std::size_t sign = !text.empty() && text[0] == '-' ? 1 : 0;
  const bool digits = text.size() > sign && text.find_first_not_of("0123456789", sign) == std::string_view::npos;
  if (!digits) bad(spec, std::string(what) + " '" + printable(text) + "' is not an integer");
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  const bool over = ec == std::errc::result_out_of_range ? sign == 0 : v > hi;
  if (over && resource)
    throw ResourceError("resources: traffic '" + printable(spec) + "': " + what + " " + printable(text) + " is above the limit of " +
                        std::to_string(hi));
  if (over || (ec == std::errc::result_out_of_range) || v < lo)
    bad(spec, std::string(what) + " " + printable(text) + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  return v;
}

std::uint64_t seed_of(std::string_view text, std::string_view spec) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    bad(spec, "seed '" + printable(text) + "' is not an integer 0.." + std::to_string(UINT64_MAX));
  return v;
}

/// DENSITY: 0..1 with at most six decimals, in millionths.
std::int64_t density_ppm(std::string_view text, std::string_view spec) {
  const std::string why = "density '" + printable(text) + "' is not a decimal 0..1 with at most six decimals (e.g. 0.25)";
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view frac = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  if ((whole.empty() && frac.empty()) || frac.size() > 6 || whole.size() > 1 ||
      whole.find_first_not_of("01") != std::string_view::npos || frac.find_first_not_of("0123456789") != std::string_view::npos ||
      (dot != std::string_view::npos && frac.empty()))
    bad(spec, why);
  std::int64_t ppm = whole == "1" ? 1000000 : 0;
  std::int64_t scale = 100000;
  for (char c : frac) {
    ppm += (c - '0') * scale;
    scale /= 10;
  }
  if (ppm > 1000000) bad(spec, why);
  return ppm;
}

std::ifstream open(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw FileError(path, 0, "is a directory, not a traffic file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FileError(path, 0, "cannot open file");
  return in;
}

/// Processor ranks as nodes: every node when the network is not partially populated.
std::vector<NodeId> members_of(const Topology& t) { return t.is_partial() ? t.processors() : std::vector<NodeId>{}; }

void check_explicit_size(const Topology& t, std::string_view spec) {
  if (t.nodes() > kMaxTrafficNodes)
    throw ResourceError("resources: traffic '" + printable(spec) + "' on " + std::to_string(t.nodes()) +
                        " nodes: a traffic other than all/all:M is limited to " + std::to_string(kMaxTrafficNodes) + " nodes");
}

/// The coordinates a traffic is named in: a degraded product keeps its base's (its failed links and
/// nodes change the routes, not the rows and columns).
const Topology& shape_of(const Topology& t) { return t.is_degraded() && t.base() != nullptr ? *t.base() : t; }

Traffic groups_by_dimension(const Topology& t, std::string_view args, std::string_view spec) {
  const Topology& shape = shape_of(t);
  if (!shape.is_product()) bad(spec, "groups:D needs a product network (torus, mesh, hypercube, ...); " + t.spec() + " is not one");
  const int dims = static_cast<int>(shape.factors().size());
  std::vector<bool> along(static_cast<std::size_t>(dims), false);
  for (std::string_view part : split_fields(args, ',')) {
    const auto d = static_cast<std::size_t>(number(part, spec, "dimension", 0, dims - 1));
    if (along[d]) bad(spec, "dimension " + std::to_string(d) + " is given twice");
    along[d] = true;
  }
  check_explicit_size(t, spec);
  // Nodes agreeing in every other dimension form a group; all-to-all inside each, one flit per pair
  // (processors only: a failed node sends and receives nothing).
  std::vector<std::int64_t> key(static_cast<std::size_t>(t.nodes()));
  std::vector<std::vector<int>> coords(static_cast<std::size_t>(t.nodes()));
  for (NodeId v = 0; v < t.nodes(); ++v) {
    coords[static_cast<std::size_t>(v)] = shape.coordinates(v);
    std::int64_t k = 0;
    for (int d = dims - 1; d >= 0; --d)
      k = k * shape.factors()[static_cast<std::size_t>(d)].size + (along[static_cast<std::size_t>(d)] ? 0 : coords[static_cast<std::size_t>(v)][static_cast<std::size_t>(d)]);
    key[static_cast<std::size_t>(v)] = k;
  }
  std::vector<NodeId> order;
  for (NodeId v = 0; v < t.nodes(); ++v)
    if (t.is_processor(v)) order.push_back(v);
  std::stable_sort(order.begin(), order.end(), [&](NodeId a, NodeId b) { return key[static_cast<std::size_t>(a)] < key[static_cast<std::size_t>(b)]; });
  std::vector<Traffic::Triplet> triplets;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j < order.size() && key[static_cast<std::size_t>(order[j])] == key[static_cast<std::size_t>(order[i])]) ++j;
    for (std::size_t a = i; a < j; ++a)
      for (std::size_t b = i; b < j; ++b)
        if (a != b) triplets.push_back({order[a], order[b], 1, 0});
    i = j;
  }
  return Traffic::from_triplets(t.nodes(), std::move(triplets), Traffic::Duplicates::Refuse, "groups", std::string(spec));
}

Traffic parse_perm(const Topology& t, const std::vector<std::string_view>& f, std::string_view spec) {
  if (f.size() < 2) bad(spec, "perm needs a permutation: perm:transpose|bitrev|shift:K[:M]");
  const std::string_view which = f[1];
  std::size_t next = 2;
  std::int64_t shift = 0;
  if (which == "shift") {
    if (f.size() < 3) bad(spec, "perm:shift needs K (perm:shift:K[:M])");
    shift = number(f[2], spec, "shift", -kMaxNodes, kMaxNodes);
    next = 3;
  } else if (which != "transpose" && which != "bitrev") {
    bad(spec, "unknown permutation '" + printable(which) + "' (transpose, bitrev or shift:K)");
  }
  if (f.size() > next + 1) bad(spec, "unexpected '" + printable(f[next + 1]) + "' after the flit count");
  const std::int64_t m = f.size() > next ? number(f[next], spec, "flits per pair M", 1, kMaxPairFlits, true) : 1;
  check_explicit_size(t, spec);
  const std::vector<NodeId>& procs = t.processors();
  const auto p = static_cast<int>(procs.size());
  std::vector<NodeId> perm(static_cast<std::size_t>(t.nodes()), -1);
  if (which == "transpose") {
    const Topology& shape = shape_of(t);
    if (!shape.is_product() || shape.factors().size() != 2 || shape.factors()[0].size != shape.factors()[1].size || t.is_partial() ||
        !t.failed_nodes().empty())
      bad(spec, "perm:transpose needs a square 2-D network with a processor at every node (e.g. torus:8x8); " + t.spec() +
                    " is not one");
    for (NodeId v = 0; v < t.nodes(); ++v) {
      const std::vector<int> c = shape.coordinates(v);
      perm[static_cast<std::size_t>(v)] = shape.node_at({c[1], c[0]});
    }
  } else if (which == "bitrev") {
    if ((p & (p - 1)) != 0) bad(spec, "perm:bitrev needs a power-of-two number of nodes; " + t.spec() + " has " + std::to_string(p));
    int bits = 0;
    while ((1 << bits) < p) ++bits;
    for (int i = 0; i < p; ++i) {
      int r = 0;
      for (int b = 0; b < bits; ++b) r |= ((i >> b) & 1) << (bits - 1 - b);
      perm[static_cast<std::size_t>(procs[static_cast<std::size_t>(i)])] = procs[static_cast<std::size_t>(r)];
    }
  } else {
    const std::int64_t k = ((shift % p) + p) % p;
    if (k == 0) bad(spec, "perm:shift:" + std::to_string(shift) + " moves nothing on " + std::to_string(p) + " nodes");
    for (int i = 0; i < p; ++i)
      perm[static_cast<std::size_t>(procs[static_cast<std::size_t>(i)])] = procs[static_cast<std::size_t>((i + k) % p)];
  }
  return permutation_traffic(t.nodes(), perm, m, std::string(spec));
}

/// On a partially populated network only processors may send or receive.
void check_processors(const Topology& t, const Traffic& tr, std::string_view spec) {
  if (!t.is_partial()) return;
  for (NodeId v = 0; v < t.nodes(); ++v)
    if (!t.is_processor(v) && (tr.sent(v) > 0 || tr.received(v) > 0))
      throw UsageError("bad traffic '" + printable(spec) + "': node " + std::to_string(v) + (tr.sent(v) > 0 ? " sends" : " receives") +
                       " flits but is not a processor of " + t.spec());
}

}  // namespace

std::string traffic_grammar() {
  return "all | all:M | groups:D[,D..] | groups:FILE | matrix:FILE | perm:transpose[:M] | perm:bitrev[:M] | "
         "perm:shift:K[:M] | random:SEED:DENSITY:MAX | moe:EXPERTS:TOPK:TOKENS:SEED | poseidon:FILE.xml";
}

Traffic permutation_traffic(int nodes, const std::vector<NodeId>& perm, std::int64_t flits, std::string spec) {
  std::vector<Traffic::Triplet> triplets;
  for (std::size_t s = 0; s < perm.size(); ++s)
    if (perm[s] >= 0 && perm[s] != static_cast<NodeId>(s)) triplets.push_back({static_cast<NodeId>(s), perm[s], static_cast<std::uint32_t>(flits), 0});
  return Traffic::from_triplets(nodes, std::move(triplets), Traffic::Duplicates::Refuse, "perm", std::move(spec));
}

Traffic random_traffic(int nodes, const std::vector<NodeId>& members_in, std::uint64_t seed, std::int64_t density_ppm,
                       std::int64_t max_flits, std::string spec) {
  std::vector<NodeId> members = members_in;
  if (members.empty())
    for (NodeId v = 0; v < nodes; ++v) members.push_back(v);
  std::uint64_t state = seed;
  std::vector<std::size_t> row(static_cast<std::size_t>(nodes) + 1, 0);
  std::vector<Traffic::Entry> entries;
  for (NodeId s : members) {
    for (NodeId d : members) {
      if (s == d) continue;
      if (static_cast<std::int64_t>(splitmix64(state) % 1000000) >= density_ppm) continue;
      const std::uint64_t w = 1 + splitmix64(state) % static_cast<std::uint64_t>(max_flits);
      entries.push_back({d, static_cast<std::uint32_t>(w)});
    }
    row[static_cast<std::size_t>(s) + 1] = entries.size();
  }
  for (std::size_t v = 1; v < row.size(); ++v) row[v] = std::max(row[v], row[v - 1]);  // rows of non-members are empty
  return Traffic::from_rows(nodes, std::move(row), std::move(entries), "random", std::move(spec));
}

int moe_expert_member(int expert, int experts, int members) {
  return static_cast<int>(static_cast<std::int64_t>(expert) * members / experts);
}

Traffic moe_traffic(int nodes, const std::vector<NodeId>& members_in, int experts, int topk, std::int64_t tokens,
                    std::uint64_t seed, std::string spec) {
  std::vector<NodeId> members = members_in;
  if (members.empty())
    for (NodeId v = 0; v < nodes; ++v) members.push_back(v);
  const int p = static_cast<int>(members.size());
  std::vector<NodeId> host(static_cast<std::size_t>(experts));  // floor(e * P / E): spread, or blocks of E/P
  for (int e = 0; e < experts; ++e) host[static_cast<std::size_t>(e)] = members[static_cast<std::size_t>(moe_expert_member(e, experts, p))];
  std::uint64_t state = seed;
  std::vector<int> pick(static_cast<std::size_t>(experts));
  for (int e = 0; e < experts; ++e) pick[static_cast<std::size_t>(e)] = e;
  std::vector<std::int64_t> count(static_cast<std::size_t>(nodes), 0);
  std::vector<std::pair<int, int>> swaps;
  std::vector<std::size_t> row(static_cast<std::size_t>(nodes) + 1, 0);
  std::vector<Traffic::Entry> entries;
  std::vector<std::int64_t> stamp(static_cast<std::size_t>(nodes), -1);
  std::int64_t token_id = 0;
  for (NodeId s : members) {
    for (std::int64_t tok = 0; tok < tokens; ++tok, ++token_id) {
      swaps.clear();
      for (int k = 0; k < topk; ++k) {  // partial Fisher-Yates: TOPK distinct experts
        const int j = k + static_cast<int>(splitmix64(state) % static_cast<std::uint64_t>(experts - k));
        std::swap(pick[static_cast<std::size_t>(k)], pick[static_cast<std::size_t>(j)]);
        swaps.emplace_back(k, j);
        // One copy of the token per node hosting any of its experts (as a dispatch per rank sends it).
        const auto node = static_cast<std::size_t>(host[static_cast<std::size_t>(pick[static_cast<std::size_t>(k)])]);
        if (stamp[node] != token_id) {
          stamp[node] = token_id;
          ++count[node];
        }
      }
      for (auto it = swaps.rbegin(); it != swaps.rend(); ++it)
        std::swap(pick[static_cast<std::size_t>(it->first)], pick[static_cast<std::size_t>(it->second)]);
    }
    count[static_cast<std::size_t>(s)] = 0;  // a token for an expert on its own node stays there
    for (NodeId d : members) {
      if (count[static_cast<std::size_t>(d)] > 0) entries.push_back({d, static_cast<std::uint32_t>(count[static_cast<std::size_t>(d)])});
      count[static_cast<std::size_t>(d)] = 0;
    }
    row[static_cast<std::size_t>(s) + 1] = entries.size();
  }
  for (std::size_t v = 1; v < row.size(); ++v) row[v] = std::max(row[v], row[v - 1]);
  return Traffic::from_rows(nodes, std::move(row), std::move(entries), "moe", std::move(spec));
}

constexpr int kMaxExperts = 1 << 16;

Traffic parse_traffic(std::string_view spec, const Topology& t) {
  if (spec.size() > 4096) bad(spec.substr(0, 60), "longer than 4096 characters");
  const std::size_t colon = spec.find(':');
  const std::string_view kind = spec.substr(0, colon);
  const std::string_view rest = colon == std::string_view::npos ? std::string_view() : spec.substr(colon + 1);
  const std::vector<std::string_view> f = split_fields(spec, ':');
  const std::string spec_s(spec);
  if (colon != std::string_view::npos && rest.empty() && kind != "all") bad(spec, "nothing after '" + printable(kind) + ":'");
  Traffic out;
  if (kind == "all") {
    if (f.size() > 2) bad(spec, "all takes one field M (all:M)");
    const std::int64_t m = f.size() == 2 ? number(f[1], spec, "flits per pair M", 1, kMaxPairFlits, true) : 1;
    return Traffic::uniform(t.nodes(), m, members_of(t), "all", spec_s);
  }
  if (kind == "groups") {
    if (colon == std::string_view::npos) bad(spec, "groups needs dimensions or a file (groups:0,1 or groups:FILE)");
    if (rest.find_first_not_of("0123456789,") == std::string_view::npos) {
      out = groups_by_dimension(t, rest, spec);
    } else {
      check_explicit_size(t, spec);
      std::ifstream in = open(std::string(rest));
      out = read_traffic_groups(in, std::string(rest), t.nodes(), spec_s);
    }
  } else if (kind == "matrix") {
    if (colon == std::string_view::npos) bad(spec, "matrix needs a file (matrix:FILE)");
    check_explicit_size(t, spec);
    std::ifstream in = open(std::string(rest));
    out = read_traffic_matrix(in, std::string(rest), t.nodes(), spec_s);
  } else if (kind == "perm") {
    out = parse_perm(t, f, spec);
  } else if (kind == "random") {
    if (f.size() != 4) bad(spec, "random takes three fields (random:SEED:DENSITY:MAX, e.g. random:1:0.25:4)");
    const std::uint64_t seed = seed_of(f[1], spec);
    const std::int64_t ppm = density_ppm(f[2], spec);
    const std::int64_t max = number(f[3], spec, "MAX", 1, kMaxPairFlits, true);
    check_explicit_size(t, spec);
    out = random_traffic(t.nodes(), members_of(t), seed, ppm, max, spec_s);
  } else if (kind == "moe") {
    if (f.size() != 5) bad(spec, "moe takes four fields (moe:EXPERTS:TOPK:TOKENS:SEED, e.g. moe:16:2:64:1)");
    const int p = t.processor_count();
    const auto experts = static_cast<int>(number(f[1], spec, "EXPERTS", 1, kMaxExperts));
    const auto topk = static_cast<int>(number(f[2], spec, "TOPK", 1, experts));
    const std::int64_t tokens = number(f[3], spec, "TOKENS", 1, kMaxPairFlits, true);
    const std::uint64_t seed = seed_of(f[4], spec);
    check_explicit_size(t, spec);
    if (tokens * topk > (std::int64_t{1} << 31) / p)
      throw ResourceError("resources: traffic '" + printable(spec) + "': " + std::to_string(p) + " nodes x " + std::to_string(tokens) +
                          " tokens x " + std::to_string(topk) + " experts is above the limit of 2^31 draws");
    out = moe_traffic(t.nodes(), members_of(t), experts, topk, tokens, seed, spec_s);
  } else if (kind == "poseidon") {
    if (colon == std::string_view::npos) bad(spec, "poseidon needs a file (poseidon:FILE.xml)");
    check_explicit_size(t, spec);
    const std::string path(rest);
    std::ifstream in = open(path);
    PoseidonSpec p = read_poseidon_traffic(in, path, spec_s);
    if (p.width * p.height != t.nodes())
      throw FileError(path, 0, "the platform has " + std::to_string(p.width) + "x" + std::to_string(p.height) + " = " +
                                   std::to_string(p.width * p.height) + " routers but " + t.spec() + " has " + std::to_string(t.nodes()) +
                                   " nodes");
    out = std::move(p.traffic);
  } else {
    bad(spec, "unknown traffic generator '" + printable(kind) + "'");
  }
  check_processors(t, out, spec);
  return out;
}

}  // namespace totex
