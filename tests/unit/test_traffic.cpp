// SPDX-License-Identifier: Apache-2.0
// Traffic (docs/traffic.md): the spec, the readers, the generators by their definitions, the digest.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

#include "totex/error.hpp"
#include "totex/network/spec.hpp"
#include "totex/splitmix.hpp"
#include "totex/traffic/traffic.hpp"
#include "totex/verify/sha256.hpp"

using namespace totex;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "totex-traffic-XXXXXX").string();
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    const fs::path p = path / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
};

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

template <class E>
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "no error of the expected type (" + message_of(f) + ")";
}

Traffic matrix_text(const std::string& text, int nodes) {
  std::istringstream in(text);
  return read_traffic_matrix(in, "m.txt", nodes, "matrix:m.txt");
}

}  // namespace

TEST_CASE("traffic all and all:M are uniform over every node", "[traffic]") {
  const Topology t = parse_topology("torus:4x4");
  const Traffic a = parse_traffic("all", t);
  CHECK(a.is_uniform());
  CHECK(a.kind() == "all");
  CHECK(a.spec() == "all");
  CHECK(a.total_flits() == 16 * 15);
  CHECK(a.pairs() == 16 * 15);
  for (NodeId s = 0; s < 16; ++s)
    for (NodeId d = 0; d < 16; ++d) CHECK(a.flits(s, d) == (s == d ? 0 : 1));
  const Traffic a3 = parse_traffic("all:3", t);
  CHECK(a3.total_flits() == 3 * 16 * 15);
  CHECK(a3.sent(5) == 45);
  CHECK(a3.received(0) == 45);
  CHECK(a3.sha256() != a.sha256());
  // Large networks: all stays O(1) in memory.
  const Topology big = parse_topology("torus:256x256");
  const Traffic ab = parse_traffic("all", big);
  CHECK(ab.total_flits() == std::int64_t{65536} * 65535);
}

TEST_CASE("traffic on a partially populated torus: only processors", "[traffic]") {
  const Topology t = parse_topology("torus:4x4@linear");
  const Traffic a = parse_traffic("all", t);
  const auto p = static_cast<std::int64_t>(t.processor_count());
  CHECK(a.total_flits() == p * (p - 1));
  for (NodeId v = 0; v < t.nodes(); ++v) CHECK(a.sent(v) == (t.is_processor(v) ? p - 1 : 0));
  TempDir dir;
  NodeId router = 0;
  while (t.is_processor(router)) ++router;
  const NodeId proc = t.processors().front();
  const std::string f = dir.write("s.txt", std::to_string(proc) + " " + std::to_string(router) + " 1\n");
  CHECK(error_of<UsageError>([&] { (void)parse_traffic("matrix:" + f, t); }) ==
        "bad traffic 'matrix:" + printable(f) + "': node " + std::to_string(router) + " receives flits but is not a processor of " +
            t.spec());
}

TEST_CASE("traffic matrix files: dense, CSV and sparse agree", "[traffic]") {
  const Traffic dense = matrix_text("# a 4-node matrix\n0 2 0 0\n0 0 3 0   # row 1\n\n0 0 0 1\n5 0 0 0\n", 4);
  const Traffic csv = matrix_text("0,2,0,0\n0,0,3,0\n0,0,0,1\n5,0,0,0\n", 4);
  const Traffic sparse = matrix_text("0 1 2\n1 2 3\n3 0 5\n2 3 1\n", 4);
  const Traffic keyword = matrix_text("sparse\n0 1 2\n1 2 3\n3 0 5\n2 3 1\n", 4);
  CHECK(dense.flits(0, 1) == 2);
  CHECK(dense.flits(1, 2) == 3);
  CHECK(dense.flits(2, 3) == 1);
  CHECK(dense.flits(3, 0) == 5);
  CHECK(dense.total_flits() == 11);
  CHECK(dense.pairs() == 4);
  CHECK(dense.sent(3) == 5);
  CHECK(dense.received(2) == 3);
  CHECK(csv.sha256() == dense.sha256());
  CHECK(sparse.sha256() == dense.sha256());
  CHECK(keyword.sha256() == dense.sha256());
  CHECK(dense.kind() == "matrix");
  // Three nodes: three fields is a dense row unless the file says sparse.
  const Traffic three = matrix_text("0 1 2\n0 0 0\n0 0 0\n", 3);
  CHECK(three.flits(0, 1) == 1);
  CHECK(three.flits(0, 2) == 2);
  const Traffic three_sparse = matrix_text("sparse\n0 1 2\n", 3);
  CHECK(three_sparse.flits(0, 1) == 2);
  CHECK(three_sparse.total_flits() == 2);
}

TEST_CASE("traffic matrix errors name the file and line", "[traffic]") {
  auto err = [](const std::string& text, int nodes) {
    return message_of([&] { (void)matrix_text(text, nodes); });
  };
  CHECK(err("0 1 1\n1 0 1\n", 3) == "m.txt:2: the matrix has 2 rows, expected 3 (one per node)");
  CHECK(err("0 1 1\n1 0\n1 1 0\n", 3) == "m.txt:2: row 1 has 2 entries, expected 3");
  CHECK(err("0 1 1\n1 0 1\n1 1 0\n1 1 0\n", 3) == "m.txt:4: more than 3 rows (the network has 3 nodes)");
  CHECK(err("0 1 -1 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n", 4) == "m.txt:1: negative entry -1");
  CHECK(err("0 1 0 0\n0 2 0 0\n0 0 0 0\n0 0 0 0\n", 4) == "m.txt:2: self-traffic: node 1 sends 2 flits to itself");
  CHECK(err("0 1 x 0\n", 4) == "m.txt:1: entry 'x' is not a non-negative integer");
  CHECK(err("0 1 1.5 0\n", 4) == "m.txt:1: entry '1.5' is not a non-negative integer");
  CHECK(err("0 4 1\n", 4) == "m.txt:1: node 4 is out of range 0..3");
  CHECK(err("# nothing\n", 4) == "m.txt:1: no matrix: the file has no entries (a dense matrix has 4 rows)");
  CHECK(err("0 1 1\n2 2 1\n", 4) == "m.txt:2: self-traffic: node 2 sends 1 flits to itself");
  CHECK(err("0 1 1\n0 1 2\n", 4) == "m.txt:2: node 0 to 1 is given twice (first on line 1)");
  CHECK(err("0 1\n", 4) == "m.txt:1: line has 2 entries; a dense matrix row has 4 (one per node) and a sparse line 3 (src dst flits)");
  CHECK(err("0 1 2\n0 1 2 3\n", 4) == "m.txt:2: a sparse line is 'src dst flits'; this one has 4 fields");
  CHECK(err(std::string("0 1 \x01\n"), 4) == "m.txt:1: flit count '\\x01' is not a non-negative integer");
  // Beyond the limits: a ResourceError ("resources: "), the CLI's exit 3.
  CHECK(error_of<ResourceError>([&] { (void)matrix_text("0 1 99999999999999999999999\n", 4); }) ==
        "resources: m.txt:1: flit count 99999999999999999999999 is above the limit of 16777216");
  CHECK(error_of<ResourceError>([&] { (void)matrix_text("0 1 16777217\n", 4); }) ==
        "resources: m.txt:1: flit count 16777217 is above the limit of 16777216");
  // A long token is cut at 60 characters in the message.
  const std::string longtok(100, 'a');
  CHECK(err("0 1 " + longtok + "\n", 4) == "m.txt:1: flit count '" + std::string(60, 'a') + "...' is not a non-negative integer");
  // A line longer than the limit is refused without reading it whole.
  std::string huge(kMaxTrafficLine + 10, '1');
  CHECK(error_of<ResourceError>([&] { (void)matrix_text(huge, 4); }) == "resources: m.txt:1: line longer than 1 MiB; no traffic line is that long");
  // Too many nodes for an explicit matrix: refused before reading.
  CHECK(error_of<ResourceError>([&] { (void)matrix_text("", kMaxTrafficNodes + 1); }).rfind("resources: a traffic matrix on 4097 nodes", 0) == 0);
}

TEST_CASE("traffic spec errors are UsageErrors naming the accepted grammar", "[traffic]") {
  const Topology t = parse_topology("torus:4x4");
  auto err = [&](const std::string& spec) { return error_of<UsageError>([&] { (void)parse_traffic(spec, t); }); };
  const std::string tail = "; accepted: " + traffic_grammar();
  CHECK(err("bogus") == "bad traffic 'bogus': unknown traffic generator 'bogus'" + tail);
  CHECK(err("all:x") == "bad traffic 'all:x': flits per pair M 'x' is not an integer" + tail);
  CHECK(err("all:0") == "bad traffic 'all:0': flits per pair M 0 is out of range 1..16777216" + tail);
  CHECK(err("all:1:2") == "bad traffic 'all:1:2': all takes one field M (all:M)" + tail);
  CHECK(err("groups:2") == "bad traffic 'groups:2': dimension 2 is out of range 0..1" + tail);
  CHECK(err("groups:0,0") == "bad traffic 'groups:0,0': dimension 0 is given twice" + tail);
  CHECK(err("perm:rotate") == "bad traffic 'perm:rotate': unknown permutation 'rotate' (transpose, bitrev or shift:K)" + tail);
  CHECK(err("perm:shift:16") == "bad traffic 'perm:shift:16': perm:shift:16 moves nothing on 16 nodes" + tail);
  CHECK(err("random:1:1.5:3") ==
        "bad traffic 'random:1:1.5:3': density '1.5' is not a decimal 0..1 with at most six decimals (e.g. 0.25)" + tail);
  CHECK(err("random:x:0.5:3") == "bad traffic 'random:x:0.5:3': seed 'x' is not an integer 0..18446744073709551615" + tail);
  CHECK(err("moe:0:2:4:1") == "bad traffic 'moe:0:2:4:1': EXPERTS 0 is out of range 1..65536" + tail);
  CHECK(err("moe:8:9:4:1") == "bad traffic 'moe:8:9:4:1': TOPK 9 is out of range 1..8" + tail);
  CHECK(err(std::string(100, 'z')) == "bad traffic '" + std::string(60, 'z') + "...': unknown traffic generator '" + std::string(60, 'z') + "...'" + tail);
  CHECK(error_of<UsageError>([&] { (void)parse_traffic("perm:transpose", parse_topology("torus:4x3")); }) ==
        "bad traffic 'perm:transpose': perm:transpose needs a square 2-D network with a processor at every node (e.g. torus:8x8); "
        "torus:4x3 is not one" + tail);
  CHECK(error_of<UsageError>([&] { (void)parse_traffic("perm:bitrev", parse_topology("ring:6")); }) ==
        "bad traffic 'perm:bitrev': perm:bitrev needs a power-of-two number of nodes; ring:6 has 6" + tail);
  CHECK(error_of<UsageError>([&] { (void)parse_traffic("groups:0", parse_topology("metacube:1,2")); }).find("needs a product network") !=
        std::string::npos);
  CHECK(error_of<FileError>([&] { (void)parse_traffic("matrix:/nonexistent/t.txt", t); }) == "/nonexistent/t.txt:0: cannot open file");
  CHECK(error_of<ResourceError>([&] { (void)parse_traffic("all:16777217", t); }) ==
        "resources: traffic 'all:16777217': flits per pair M 16777217 is above the limit of 16777216");
  CHECK(error_of<ResourceError>([&] { (void)parse_traffic("random:1:0.5:2", parse_topology("torus:128x64")); })
            .rfind("resources: traffic 'random:1:0.5:2' on 8192 nodes", 0) == 0);
}

TEST_CASE("traffic groups: along dimensions and from a file", "[traffic]") {
  const Topology t = parse_topology("torus:4x3");
  const Traffic rows = parse_traffic("groups:0", t);
  for (NodeId s = 0; s < t.nodes(); ++s)
    for (NodeId d = 0; d < t.nodes(); ++d) {
      const bool same_line = s != d && t.coordinates(s)[1] == t.coordinates(d)[1];
      CHECK(rows.flits(s, d) == (same_line ? 1 : 0));
    }
  CHECK(rows.total_flits() == 3 * 4 * 3);
  const Traffic cols = parse_traffic("groups:1", t);
  CHECK(cols.total_flits() == 4 * 3 * 2);
  CHECK(cols.flits(0, 4) == 1);
  CHECK(cols.flits(0, 1) == 0);
  // Both dimensions: every node with every other, which is `all` (same digest).
  CHECK(parse_traffic("groups:1,0", t).sha256() == parse_traffic("all", t).sha256());
  // Hypercube dimensions are its bits.
  const Topology h = parse_topology("hypercube:3");
  const Traffic bit1 = parse_traffic("groups:1", h);
  for (NodeId s = 0; s < 8; ++s)
    for (NodeId d = 0; d < 8; ++d) CHECK(bit1.flits(s, d) == ((s ^ d) == 2 ? 1 : 0));

  TempDir dir;
  const std::string f = dir.write("g.txt", "# two groups\n0 1 2\n3,4 # a pair\n\n2 5\n");
  const Traffic g = parse_traffic("groups:" + f, t);
  CHECK(g.kind() == "groups");
  CHECK(g.flits(0, 1) == 1);
  CHECK(g.flits(2, 0) == 1);
  CHECK(g.flits(3, 4) == 1);
  CHECK(g.flits(4, 3) == 1);
  CHECK(g.flits(2, 5) == 1);
  CHECK(g.flits(0, 3) == 0);
  CHECK(g.total_flits() == 6 + 2 + 2);
  // Overlapping groups add up.
  const std::string f2 = dir.write("g2.txt", "0 1\n1 0 2\n");
  CHECK(parse_traffic("groups:" + f2, t).flits(0, 1) == 2);
  CHECK(error_of<FileError>([&] { (void)parse_traffic("groups:" + dir.write("b.txt", "0 1\n1 12\n"), t); }) ==
        (dir.path / "b.txt").string() + ":2: node 12 is out of range 0..11");
  CHECK(error_of<FileError>([&] { (void)parse_traffic("groups:" + dir.write("c.txt", "0 1 0\n"), t); }) ==
        (dir.path / "c.txt").string() + ":1: node 0 appears twice in this group");
  CHECK(error_of<FileError>([&] { (void)parse_traffic("groups:" + dir.write("d.txt", "0 -1\n"), t); }) ==
        (dir.path / "d.txt").string() + ":1: node -1 is out of range 0..11");
  CHECK(error_of<FileError>([&] { (void)parse_traffic("groups:" + dir.write("e.txt", "0 one\n"), t); }) ==
        (dir.path / "e.txt").string() + ":1: node 'one' is not an integer");
}

TEST_CASE("traffic permutations by their definitions", "[traffic]") {
  const Topology t = parse_topology("torus:4x4");
  const Traffic tr = parse_traffic("perm:transpose:3", t);
  for (NodeId v = 0; v < 16; ++v) {
    const auto c = t.coordinates(v);
    const NodeId w = t.node_at({c[1], c[0]});
    CHECK(tr.sent(v) == (v == w ? 0 : 3));
    if (v != w) CHECK(tr.flits(v, w) == 3);
  }
  CHECK(tr.pairs() == 12);
  const Traffic br = parse_traffic("perm:bitrev", t);  // 4 bits: 1 = 0001 -> 1000 = 8
  CHECK(br.flits(1, 8) == 1);
  CHECK(br.flits(8, 1) == 1);
  CHECK(br.flits(3, 12) == 1);
  CHECK(br.sent(6) == 0);  // 0110 is a palindrome
  CHECK(br.sent(9) == 0);  // 1001 too
  CHECK(br.pairs() == 12);
  const Traffic sh = parse_traffic("perm:shift:-3:2", t);
  for (NodeId v = 0; v < 16; ++v) CHECK(sh.flits(v, (v + 13) % 16) == 2);
  CHECK(sh.total_flits() == 32);
  CHECK(sh.kind() == "perm");
}

TEST_CASE("traffic random: the documented draw order, deterministic", "[traffic]") {
  const Topology t = parse_topology("mesh:3x4");
  const Traffic a = parse_traffic("random:42:0.3:5", t);
  const Traffic b = parse_traffic("random:42:0.3:5", t);
  CHECK(a.sha256() == b.sha256());
  CHECK(parse_traffic("random:43:0.3:5", t).sha256() != a.sha256());
  // The definition, written out again: pairs in row-major order; present when the next draw mod
  // 10^6 is below DENSITY * 10^6, then 1 + (next draw mod MAX) flits.
  std::uint64_t state = 42;
  std::int64_t total = 0;
  for (NodeId s = 0; s < 12; ++s)
    for (NodeId d = 0; d < 12; ++d) {
      if (s == d) continue;
      std::int64_t w = 0;
      if (splitmix64(state) % 1000000 < 300000) w = 1 + static_cast<std::int64_t>(splitmix64(state) % 5);
      CHECK(a.flits(s, d) == w);
      total += w;
    }
  CHECK(a.total_flits() == total);
  CHECK(total > 0);
  CHECK(parse_traffic("random:7:0:9", t).total_flits() == 0);
  const Traffic full = parse_traffic("random:7:1:1", t);  // every pair, one flit: all
  CHECK(full.sha256() == parse_traffic("all", t).sha256());
}

TEST_CASE("traffic moe: TOPK distinct experts per token, experts spread over the nodes", "[traffic]") {
  const Topology t = parse_topology("torus:4x4");
  // Fewer experts than nodes (spread, one per host) and more (blocks of experts per node).
  for (const auto& [experts, topk, tokens] : {std::tuple{6, 2, 20}, std::tuple{40, 5, 12}}) {
    INFO(experts << " experts, top-" << topk);
    const std::string spec = "moe:" + std::to_string(experts) + ":" + std::to_string(topk) + ":" + std::to_string(tokens) + ":9";
    const Traffic m = parse_traffic(spec, t);
    CHECK(m.sha256() == parse_traffic(spec, t).sha256());
    CHECK(m.sha256() != parse_traffic(spec + "0", t).sha256());
    CHECK(m.kind() == "moe");
    std::vector<bool> hosts(16, false);
    for (int e = 0; e < experts; ++e) hosts[static_cast<std::size_t>(moe_expert_member(e, experts, 16))] = true;
    // The definition, written out again: a partial Fisher-Yates shuffle of the experts per token,
    // then one flit to every other node hosting a picked expert.
    std::uint64_t state = 9;
    std::int64_t total = 0;
    for (NodeId s = 0; s < 16; ++s) {
      std::vector<std::int64_t> count(16, 0);
      std::vector<int> identity(static_cast<std::size_t>(experts));
      for (int e = 0; e < experts; ++e) identity[static_cast<std::size_t>(e)] = e;
      for (int tok = 0; tok < tokens; ++tok) {
        std::vector<int> a = identity;
        std::vector<bool> hit(16, false);
        for (int k = 0; k < topk; ++k) {
          const int j = k + static_cast<int>(splitmix64(state) % static_cast<std::uint64_t>(experts - k));
          std::swap(a[static_cast<std::size_t>(k)], a[static_cast<std::size_t>(j)]);
          hit[static_cast<std::size_t>(moe_expert_member(a[static_cast<std::size_t>(k)], experts, 16))] = true;
        }
        for (std::size_t v = 0; v < 16; ++v) count[v] += hit[v] ? 1 : 0;
      }
      for (NodeId d = 0; d < 16; ++d) {
        if (d == s) continue;
        CHECK(m.flits(s, d) == count[static_cast<std::size_t>(d)]);
        CHECK(m.flits(s, d) <= tokens);  // a token at most once per node
        if (!hosts[static_cast<std::size_t>(d)]) CHECK(m.flits(s, d) == 0);
        total += count[static_cast<std::size_t>(d)];
      }
    }
    CHECK(m.total_flits() == total);
    CHECK(total > 0);
  }
  CHECK(moe_expert_member(0, 6, 16) == 0);
  CHECK(moe_expert_member(5, 6, 16) == 13);  // floor(5 * 16 / 6)
  CHECK(moe_expert_member(39, 40, 16) == 15);
  CHECK(moe_expert_member(2, 40, 16) == 0);  // experts 0..2 on node 0
}

TEST_CASE("traffic digest: the documented canonical serialisation", "[traffic]") {
  const Traffic dense = matrix_text("0 2 0\n0 0 0\n7 1 0\n", 3);
  const std::string row0 = "0 1:2\n", row2 = "2 0:7 1:1\n";
  CHECK(traffic_row_text(dense, 0) == row0);
  CHECK(traffic_row_text(dense, 1).empty());
  CHECK(traffic_row_text(dense, 2) == row2);
  CHECK(dense.sha256() ==
        sha256_hex("totex-traffic 1\nnodes 3\nsparse\n0 " + sha256_hex(row0) + "\n2 " + sha256_hex(row2) + "\n"));
  const Topology t = parse_topology("ring:5");
  CHECK(parse_traffic("all:2", t).sha256() == sha256_hex("totex-traffic 1\nnodes 5\nuniform 2\nmembers all\n"));
  const Topology p = parse_topology("torus:4x4@linear");
  std::string members;
  for (NodeId v : p.processors()) members += " " + std::to_string(v);
  CHECK(parse_traffic("all", p).sha256() == sha256_hex("totex-traffic 1\nnodes 16\nuniform 1\nmembers" + members + "\n"));
  // Uniform over a subset reads the same from a matrix as from groups.
  const Topology r = parse_topology("ring:4");
  CHECK(matrix_text("0 1 1 0\n1 0 1 0\n1 1 0 0\n0 0 0 0\n", 4).sha256() ==
        sha256_hex("totex-traffic 1\nnodes 4\nuniform 1\nmembers 0 1 2\n"));
  // The order entries are given in does not matter; the file name does not either.
  std::istringstream in("sparse\n2 1 1\n0 1 2\n2 0 7\n");
  CHECK(read_traffic_matrix(in, "other.txt", 3, "matrix:other.txt").sha256() == dense.sha256());
  CHECK(matrix_text("0 0 0\n0 0 0\n0 0 0\n", 3).sha256() == sha256_hex("totex-traffic 1\nnodes 3\nsparse\n"));
  // Written as a sparse file and read again: the same matrix, the same digest.
  for (const char* spec : {"random:4:0.3:9", "all:2", "moe:5:2:7:3", "perm:shift:3"}) {
    const Topology m = parse_topology("mesh:3x4");
    const Traffic a = parse_traffic(spec, m);
    std::ostringstream out;
    write_traffic_matrix(out, a);
    std::istringstream back(out.str());
    const Traffic b = read_traffic_matrix(back, "back", m.nodes(), "matrix:back");
    CHECK(b.sha256() == a.sha256());
    CHECK(b.total_flits() == a.total_flits());
    CHECK(out.str().find("# sha256 " + a.sha256()) != std::string::npos);
  }
}

TEST_CASE("traffic poseidon: platform and channels, B x F flits", "[traffic]") {
  const std::string xml =
      "<?xmlversion=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<!-- a 3x2 bitorus -->\n"
      "<platform width=\"3\" height=\"2\">\n"
      "  <topology type=\"bitorus\" routerDepth=\"2\"></topology>\n"
      "</platform>\n"
      "<communication type=\"custom\" phits=\"3\">\n"
      "  <channel from=\"(0,0)\" to=\"(2,1)\" bandwidth=\"2\" response=\"false\"/>\n"
      "  <channel from=\"(1,0)\" to=\"(0,0)\"/>\n"
      "  <channel from=\"( 1 , 0 )\" to=\"(0,0)\" phits=\"1\"/>\n"
      "</communication>\n";
  std::istringstream in(xml);
  const PoseidonSpec p = read_poseidon_traffic(in, "p.xml", "poseidon:p.xml");
  CHECK(p.width == 3);
  CHECK(p.height == 2);
  CHECK(p.topology_spec == "torus:3x2");
  CHECK(p.router_depth == 2);
  CHECK(p.traffic.flits(0, 5) == 6);  // (2,1) = 2 + 3*1; bandwidth 2 x 3 phits
  CHECK(p.traffic.flits(1, 0) == 3 + 1);
  CHECK(p.traffic.total_flits() == 10);
  CHECK(p.traffic.kind() == "poseidon");

  std::istringstream all2all("<platform width=\"2\" height=\"2\"><topology topoType=\"mesh\"/></platform>"
                             "<communication comType=\"all2all\" phits=\"3\" bandwidth=\"2\"></communication>");
  const PoseidonSpec q = read_poseidon_traffic(all2all, "q.xml", "poseidon:q.xml");
  CHECK(q.topology_spec == "mesh:2x2");
  CHECK(q.traffic.is_uniform());
  CHECK(q.traffic.uniform_flits() == 6);

  std::istringstream custom("<platform width=\"3\" height=\"3\"><topology type=\"custom\">"
                            "<link source=\"(0,1)\" sink=\"(2,1)\"/><link source=\"(0,0)\" sink=\"(0,1)\"/></topology></platform>"
                            "<communication type=\"custom\" reconfig=\"(1,1)\"><channel from=\"(0,0)\" to=\"(1,1)\" bandwidth=\"10\"/>"
                            "</communication>");
  const PoseidonSpec c = read_poseidon_traffic(custom, "c.xml", "poseidon:c.xml");
  CHECK(c.topology_spec.empty());
  REQUIRE(c.links.size() == 2);
  CHECK(c.links[0] == std::pair<NodeId, NodeId>{3, 5});
  CHECK(c.traffic.flits(0, 4) == 10);
  CHECK(c.traffic.flits(4, 0) == 2);  // the reconfiguration master's 2-phit channels
  CHECK(c.traffic.sent(4) == 16);

  // Poseidon's first, single-file format: <topology> with <graph>, and <channels>.
  std::istringstream legacy("<?xml version=\"1.0\"?>\n<topology width=\"3\" height=\"3\">\n<graph type=\"bitorus\" />\n</topology>\n"
                            "<channels type=\"arbitrary\">\n<channel from=\"(0,0)\" to=\"(1,2)\" bandwidth=\"2\" />\n"
                            "<channel from=\"(2,2)\" to=\"(2,0)\" bandwidth=\"4\" /></channels>");
  const PoseidonSpec l = read_poseidon_traffic(legacy, "l.xml", "poseidon:l.xml");
  CHECK(l.topology_spec == "torus:3x3");
  CHECK(l.traffic.flits(0, 7) == 2);
  CHECK(l.traffic.flits(8, 2) == 4);
  CHECK(l.traffic.total_flits() == 6);

  auto err = [](const std::string& text) {
    std::istringstream s(text);
    return message_of([&] { (void)read_poseidon_traffic(s, "e.xml", "poseidon:e.xml"); });
  };
  const std::string plat = "<platform width=\"2\" height=\"2\">\n<topology type=\"bitorus\"/>\n</platform>\n";
  CHECK(err("<communication/>") == "e.xml:1: no <platform> element (Poseidon's platform spec)");
  CHECK(err(plat + "<communication type=\"custom\">\n<channel from=\"(0,0)\" to=\"(0,0)\"/>\n</communication>") ==
        "e.xml:5: self-traffic: a channel from router 0 to itself");
  CHECK(err(plat + "<communication type=\"custom\">\n<channel from=\"(0,0)\" to=\"(2,0)\"/>\n</communication>") ==
        "e.xml:5: router (2,0) is not in the 2x2 platform");
  CHECK(err(plat + "<communication type=\"custom\">\n<channel from=\"(0,0)\" to=\"(1,0)\" bandwidth=\"-2\"/>\n</communication>") ==
        "e.xml:5: negative bandwidth -2");
  CHECK(err(plat + "<communication type=\"custom\">\n<channel from=\"0,0\" to=\"(1,0)\"/>\n</communication>") ==
        "e.xml:5: from '0,0' is not a router '(x,y)'");
  CHECK(err(plat + "<communication type=\"broadcast\"/>") == "e.xml:4: communication type 'broadcast' is not custom or all2all");
  CHECK(err(plat + "<communication type=\"custom\">\n<channel from=\"(0,0)\" to=\"(1,0)\">\n</communication>") ==
        "e.xml:6: closing tag </communication> does not match <channel> on line 5");
  CHECK(err("<platform width=\"2\" height=\"x\"><topology type=\"mesh\"/></platform>") == "e.xml:1: height 'x' is not a non-negative integer");
  CHECK(err("<platform width=\"2\" height=\"2\"><topology type=\"ring\"/></platform>") ==
        "e.xml:1: topology type 'ring' is not bitorus, mesh or custom");
  CHECK(err("<platform width=\"2\"") == "e.xml:1: <platform> is not closed with '>'");
  CHECK(err("<platform width=\"2\" height=\"2\"><topology type=\"mesh\"/>") == "e.xml:1: <platform> is never closed");
  CHECK(error_of<ResourceError>([&] {
          std::istringstream s("<platform width=\"100\" height=\"100\"><topology type=\"mesh\"/></platform>");
          (void)read_poseidon_traffic(s, "e.xml", "poseidon:e.xml");
        }) == "resources: e.xml:1: a 100x100 platform is above the limit of 4096 nodes");

  // Through the spec: the platform must match the network's node count.
  TempDir dir;
  const std::string f = dir.write("p.xml", xml);
  CHECK(parse_traffic("poseidon:" + f, parse_topology("torus:3x2")).flits(0, 5) == 6);
  CHECK(error_of<FileError>([&] { (void)parse_traffic("poseidon:" + f, parse_topology("torus:4x4")); }) ==
        f + ":0: the platform has 3x2 = 6 routers but torus:4x4 has 16 nodes");
}
