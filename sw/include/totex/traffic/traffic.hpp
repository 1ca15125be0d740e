// SPDX-License-Identifier: Apache-2.0
/// Traffic: how many flits every node sends to every other node (issue 49, docs/traffic.md).
/// `all` (one flit to every other node) is today's only pattern; `--traffic T` names any other.
#pragma once
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "totex/network/topology.hpp"

namespace totex {

/// Limits (docs/traffic.md, "Limits"). Beyond them a traffic is refused with ResourceError (the CLI
/// exits 3) as soon as the count is read, before anything is allocated from it.
inline constexpr int kMaxTrafficNodes = 4096;                              // explicit (non-uniform) traffic
inline constexpr std::int64_t kMaxPairFlits = std::int64_t{1} << 24;        // flits from one node to one other
inline constexpr std::int64_t kMaxTrafficFlits = std::int64_t{1} << 36;     // flits in all
inline constexpr std::size_t kMaxTrafficLine = std::size_t{1} << 20;        // bytes in one line of a file
inline constexpr std::size_t kMaxTrafficFileBytes = std::size_t{256} << 20;  // bytes in a matrix/groups/XML file

/// An N x N matrix of non-negative flit counts with a zero diagonal. Two representations: uniform
/// (M flits between every ordered pair of distinct members: `all`, any O(1) memory) and sparse rows
/// (sorted by destination, memory in proportion to the non-zero pairs). Equal matrices have equal
/// digests whichever way they were given (a matrix file of ones off the diagonal is `all`).
class Traffic {
 public:
  struct Entry {
    NodeId dst;
    std::uint32_t flits;  // > 0
  };
  /// (src, dst, flits) with a source line for error messages (0: none).
  struct Triplet {
    NodeId src;
    NodeId dst;
    std::uint32_t flits;  // readers refuse negative and too large counts before they get here
    int line = 0;
  };
  /// How entries given twice for one pair combine: added up (groups, generators, Poseidon channels)
  /// or refused (a matrix file: FileError naming both lines).
  enum class Duplicates { Add, Refuse };

  Traffic() = default;
  /// M flits between every ordered pair of distinct members (`members` empty: every node).
  [[nodiscard]] static Traffic uniform(int nodes, std::int64_t flits, std::vector<NodeId> members, std::string kind, std::string spec);
  /// From entries in any order; zero entries are dropped. Throws FileError (file `source`) on a
  /// node out of range, self-traffic or a refused duplicate, ResourceError beyond the limits.
  /// Stored uniform when its pairs are all ordered pairs of some node set, with one count.
  [[nodiscard]] static Traffic from_triplets(int nodes, std::vector<Triplet> triplets, Duplicates dup, std::string kind,
                                             std::string spec, const std::string& source = "traffic");

  /// From sparse rows: row s is entries[row[s], row[s+1]), destinations increasing, none the source,
  /// counts 1..kMaxPairFlits (a UsageError otherwise: a generator's bug, not the user's input).
  /// Memory: the entries only (generators and dense matrices build these directly).
  [[nodiscard]] static Traffic from_rows(int nodes, std::vector<std::size_t> row, std::vector<Entry> entries, std::string kind,
                                         std::string spec);

  [[nodiscard]] int nodes() const { return nodes_; }
  /// The generator's name: all, groups, matrix, perm, random, moe, poseidon.
  [[nodiscard]] const std::string& kind() const { return kind_; }
  /// The spec as given (`all`, `matrix:t.txt`, `moe:8:2:16:1`).
  [[nodiscard]] const std::string& spec() const { return spec_; }
  /// Lower-case hex SHA-256 of the canonical serialisation (docs/traffic.md, "Digest").
  [[nodiscard]] const std::string& sha256() const { return sha_; }

  [[nodiscard]] bool is_uniform() const { return uniform_; }
  /// The per-pair count of a uniform traffic (0 otherwise).
  [[nodiscard]] std::int64_t uniform_flits() const { return uniform_ ? uniform_flits_ : 0; }
  /// A uniform traffic's members (every node when empty).
  [[nodiscard]] const std::vector<NodeId>& members() const { return members_; }

  [[nodiscard]] std::int64_t flits(NodeId src, NodeId dst) const;
  [[nodiscard]] std::int64_t sent(NodeId src) const { return sent_[static_cast<std::size_t>(src)]; }
  [[nodiscard]] std::int64_t received(NodeId dst) const { return received_[static_cast<std::size_t>(dst)]; }
  [[nodiscard]] std::int64_t total_flits() const { return total_; }
  /// Ordered pairs with at least one flit.
  [[nodiscard]] std::int64_t pairs() const { return pairs_; }

  /// f(dst, flits) for every destination of `src` with flits > 0, in increasing dst.
  template <class F>
  void for_each_in_row(NodeId src, F&& f) const {
    if (uniform_) {
      if (!is_member(src)) return;
      if (members_.empty()) {
        for (NodeId d = 0; d < nodes_; ++d)
          if (d != src) f(d, uniform_flits_);
      } else {
        for (NodeId d : members_)
          if (d != src) f(d, uniform_flits_);
      }
      return;
    }
    const auto s = static_cast<std::size_t>(src);
    for (std::size_t i = row_[s]; i < row_[s + 1]; ++i) f(entries_[i].dst, static_cast<std::int64_t>(entries_[i].flits));
  }
  /// f(src, dst, flits) over every non-zero pair, row by row.
  template <class F>
  void for_each(F&& f) const {
    for (NodeId s = 0; s < nodes_; ++s) for_each_in_row(s, [&](NodeId d, std::int64_t w) { f(s, d, w); });
  }
  [[nodiscard]] bool is_member(NodeId v) const {
    return !uniform_ || members_.empty() || member_[static_cast<std::size_t>(v)];
  }

 private:
  int nodes_ = 0;
  std::string kind_, spec_, sha_;
  bool uniform_ = false;
  std::int64_t uniform_flits_ = 0;
  std::vector<NodeId> members_;
  std::vector<bool> member_;
  std::vector<std::size_t> row_;  // sparse: row s is entries_[row_[s], row_[s+1])
  std::vector<Entry> entries_;
  std::vector<std::int64_t> sent_, received_;
  std::int64_t total_ = 0, pairs_ = 0;
  void finish();  // totals and digest
  static Traffic canonical(Traffic t);  // uniform when it is, then finish()
};

/// A pair and its flits.
struct PairFlits {
  NodeId src = 0, dst = 0;
  std::int64_t flits = 0;
};
/// The pair with the most flits, the first in row order among equals (flits 0 for an empty
/// traffic): what a consumer that carries one flit per pair names when it refuses a traffic.
[[nodiscard]] PairFlits heaviest_pair(const Traffic& t);

/// The canonical serialisation the digest covers for a sparse traffic's row `src` ("" when empty):
/// "s d1:f1 d2:f2 ...\n". Exposed for tests and docs.
[[nodiscard]] std::string traffic_row_text(const Traffic& t, NodeId src);

/// Parses a `--traffic` spec for topology `topo` (docs/traffic.md): all, all:M, groups:D[,D..],
/// groups:FILE, matrix:FILE, perm:transpose|bitrev|shift:K[:M], random:SEED:DENSITY:MAX,
/// moe:EXPERTS:TOPK:TOKENS:SEED, poseidon:FILE.xml. A bad spec is a UsageError, a bad file a
/// FileError (`file:line: what`), a traffic beyond the limits a ResourceError.
/// On a partially populated network only processors may send or receive.
[[nodiscard]] Traffic parse_traffic(std::string_view spec, const Topology& topo);

/// The accepted grammar in one line, for error messages and --help.
[[nodiscard]] std::string traffic_grammar();

/// Readers, one per file kind; `name` is the file name shown in errors, `spec` recorded in the result.
[[nodiscard]] Traffic read_traffic_matrix(std::istream& in, const std::string& name, int nodes, std::string spec);
[[nodiscard]] Traffic read_traffic_groups(std::istream& in, const std::string& name, int nodes, std::string spec);

/// Writes `t` as a sparse matrix file (`matrix:FILE` reads it back to the same digest): a `sparse`
/// line, comments naming the spec and digest, then `src dst flits` per non-zero pair in row order.
void write_traffic_matrix(std::ostream& out, const Traffic& t);

/// Poseidon's platform and communication spec (t-crest/poseidon, src/parser.cpp), docs/traffic.md.
/// Router (x,y) is node x + width*y: the numbering of torus:WIDTHxHEIGHT and mesh:WIDTHxHEIGHT.
struct PoseidonSpec {
  int width = 0, height = 0;
  std::string topology_type;  // bitorus, mesh or custom
  /// totex's spec for the platform: torus:WxH (bitorus), mesh:WxH, "" for custom.
  std::string topology_spec;
  /// A custom platform's links, (source, sink) node ids as written (Poseidon's links are directed).
  std::vector<std::pair<NodeId, NodeId>> links;
  int router_depth = 1, link_depth = 0;
  Traffic traffic;  // channel of bandwidth B and F phits: B x F flits (per period)
};
[[nodiscard]] PoseidonSpec read_poseidon_traffic(std::istream& in, const std::string& name, std::string spec);

/// Named generators (also reachable through parse_traffic), for tests and benches.
/// perm: dst = perm[src] (-1 or src: sends nothing), M flits each.
[[nodiscard]] Traffic permutation_traffic(int nodes, const std::vector<NodeId>& perm, std::int64_t flits, std::string spec);
/// random:SEED:DENSITY:MAX over `members` (every node when empty), DENSITY in millionths.
[[nodiscard]] Traffic random_traffic(int nodes, const std::vector<NodeId>& members, std::uint64_t seed,
                                     std::int64_t density_ppm, std::int64_t max_flits, std::string spec);
/// moe:EXPERTS:TOPK:TOKENS:SEED over `members` (every node when empty): each member's TOKENS tokens
/// pick TOPK distinct experts each; a token goes once to every other node hosting one of them.
[[nodiscard]] Traffic moe_traffic(int nodes, const std::vector<NodeId>& members, int experts, int topk,
                                  std::int64_t tokens, std::uint64_t seed, std::string spec);
/// The node hosting expert e of E among P members: member floor(e * P / E).
[[nodiscard]] int moe_expert_member(int expert, int experts, int members);

}  // namespace totex
