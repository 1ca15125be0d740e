// SPDX-License-Identifier: Apache-2.0
/// The traffic readers (docs/traffic.md): matrix:FILE, groups:FILE and poseidon:FILE.xml. The input
/// is a header line "matrix N", "groups N" or "poseidon" (N: nodes, 1..64) and the file after it.
/// Any bytes either read or raise FileError/ResourceError (UsageError too); a traffic that reads is
/// consistent (totals, rows, digest), survives a round trip through the sparse matrix form with
/// the same digest, and its lower bound on a ring (no LP) is computed without a fault.
#include <sstream>

#include "fuzz_common.hpp"
#include "totex/network/spec.hpp"
#include "totex/traffic/traffic.hpp"
#include "totex/traffic/traffic_bounds.hpp"

namespace {

void check(const totex::Traffic& t) {
  using namespace totex;
  std::int64_t total = 0, pairs = 0;
  std::vector<std::int64_t> in(static_cast<std::size_t>(t.nodes()), 0);
  for (NodeId s = 0; s < t.nodes(); ++s) {
    std::int64_t out = 0;
    NodeId last = -1;
    t.for_each_in_row(s, [&](NodeId d, std::int64_t w) {
      fuzz::require(d > last && d != s && d < t.nodes(), "row not increasing, or self-traffic");
      fuzz::require(w > 0 && w <= kMaxPairFlits, "entry out of range");
      fuzz::require(t.flits(s, d) == w, "flits() disagrees with the row");
      last = d;
      out += w;
      in[static_cast<std::size_t>(d)] += w;
      ++pairs;
    });
    fuzz::require(out == t.sent(s), "sent() is not the row sum");
    total += out;
  }
  for (NodeId d = 0; d < t.nodes(); ++d) fuzz::require(in[static_cast<std::size_t>(d)] == t.received(d), "received() is not the column sum");
  fuzz::require(total == t.total_flits() && pairs == t.pairs(), "totals");
  fuzz::require(t.sha256().size() == 64, "digest");
  std::ostringstream sparse;
  write_traffic_matrix(sparse, t);
  std::istringstream again(sparse.str());
  const Traffic t2 = read_traffic_matrix(again, "again", t.nodes(), "matrix:again");
  fuzz::require(t2.sha256() == t.sha256(), "the digest changed in a round trip through the sparse form");
  if (t.nodes() >= 3 && t.nodes() <= 64) {
    const Topology ring = parse_topology("ring:" + std::to_string(t.nodes()));
    TrafficBoundOptions o;
    o.congestion_lp = false;
    const LowerBound lb = traffic_lower_bound(ring, Model::Nic, t, o);
    std::int64_t max_in = 0;
    for (NodeId d = 0; d < t.nodes(); ++d) max_in = std::max(max_in, t.received(d));
    fuzz::require(lb.steps >= max_in, "the bound is below a NIC's ejections");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace totex;
  if (size > 16384) return 0;
  const std::string input = fuzz::bytes(data, size);
  const std::size_t nl = input.find('\n');
  if (nl == std::string::npos) return 0;
  std::istringstream header(input.substr(0, nl));
  std::string kind;
  int nodes = 0;
  header >> kind >> nodes;
  std::istringstream body(input.substr(nl + 1));
  try {
    if (kind == "matrix" && nodes >= 1 && nodes <= 64) {
      check(read_traffic_matrix(body, "fuzz", nodes, "matrix:fuzz"));
    } else if (kind == "groups" && nodes >= 1 && nodes <= 64) {
      check(read_traffic_groups(body, "fuzz", nodes, "groups:fuzz"));
    } else if (kind == "poseidon") {
      const PoseidonSpec p = read_poseidon_traffic(body, "fuzz", "poseidon:fuzz");
      fuzz::require(p.traffic.nodes() == p.width * p.height, "platform size");
      for (const auto& [a, b] : p.links) fuzz::require(a >= 0 && b >= 0 && a < p.traffic.nodes() && b < p.traffic.nodes() && a != b, "link");
      if (p.traffic.nodes() <= 64) check(p.traffic);
    }
  } catch (const FileError&) {
  } catch (const UsageError&) {
  } catch (const ResourceError&) {
  }
  return 0;
}
