// SPDX-License-Identifier: Apache-2.0
// totex/hw_schema.hpp: what every side produces from a field table agrees with what the other side
// parses (argv round trips for the three harness kinds), the -G/-D/cache-key/.svh outputs follow
// the rows, and the environment is checked the same way for every value.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "totex/hw_schema.hpp"

using namespace totex;
using namespace totex::schema;

namespace {

/// Parses `args` (as to_argv wrote them) the way a harness main does.
template <class S>
S parse_back(const std::vector<std::string>& args) {
  std::vector<std::string> words = {"harness"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  return parse_argv<S>(static_cast<int>(argv.size()), argv.data(), "harness");
}

HwEnvironment env_of(const std::map<std::string, std::string>& vars) {
  return read_hw_environment([&](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

}  // namespace

TEST_CASE("schema: every harness kind's argv parses back to the same values", "[schema]") {
  DirectHarnessArgs d;
  d.topo = "torus:4x4";
  d.mode = DirectMode::Dynamic;
  d.routing = DynamicRouting::Dor;
  d.fifo_depth = 2;
  d.load = LoadPath::Backdoor;
  d.skip_quiet = false;
  d.wave = "a b.fst";  // one argument, spaces and all: no shell between
  const std::vector<std::string> argv = to_argv(d);
  CHECK(argv.front() == "direct");
  const DirectHarnessArgs d2 = parse_back<DirectHarnessArgs>(argv);
  CHECK(to_argv(d2) == argv);
  CHECK(d2.fifo_depth == 2);
  CHECK(d2.load == LoadPath::Backdoor);
  CHECK_FALSE(d2.skip_quiet);
  CHECK(d2.wave == "a b.fst");

  MinHarnessArgs m;
  m.schedule = "m.cfg";
  m.max_steps = 32;
  m.min_mode = MinConfigMode::Computed;
  CHECK(to_argv(parse_back<MinHarnessArgs>(to_argv(m))) == to_argv(m));

  TdmHarnessArgs t;
  t.topo = "ring:5";
  t.schedule = "r.sched";
  t.periods = 3;
  t.period = 7;
  t.payload = 16;
  t.fault = TdmFault::Pauses;
  const TdmHarnessArgs t2 = parse_back<TdmHarnessArgs>(to_argv(t));
  CHECK(t2.fault == TdmFault::Pauses);
  CHECK(t2.payload == 16);
  CHECK(to_argv(t2) == to_argv(t));
}

TEST_CASE("schema: a harness refuses what its table does not hold", "[schema]") {
  CHECK_THROWS_WITH(parse_back<TdmHarnessArgs>({"tdm", "--topo", "ring:5", "--bogus", "1"}),
                    Catch::Contains("unexpected argument '--bogus'"));
  CHECK_THROWS_WITH(parse_back<TdmHarnessArgs>({"tdm", "--topo", "ring:5", "--schedule", "f"}),
                    Catch::Contains("--periods is required"));
  CHECK_THROWS_WITH(parse_back<TdmHarnessArgs>({"tdm", "--topo", "r", "--schedule", "f", "--periods", "0"}),
                    Catch::Contains("--periods 0: accepted values are 1 to 1000000"));
  CHECK_THROWS_WITH(parse_back<TdmHarnessArgs>({"tdm", "--topo", "r", "--schedule", "f", "--periods", "1", "--fault", "x"}),
                    Catch::Contains("--fault x: accepted values are none, eject, pause, pauses"));
  CHECK_THROWS_WITH(parse_back<TdmHarnessArgs>({"min", "--schedule", "f"}), Catch::Contains("usage: harness tdm"));
}

TEST_CASE("schema: -G, -D, cache key and .svh follow the rows", "[schema]") {
  TdmTileParams p;
  p.kind = TileKind::SinglePort;
  p.ports = 4;
  p.payload_bits = 16;
  p.node_bits = 4;
  p.depth = 32;
  p.buffer_words = 8;
  CHECK(cache_key("tdm", p) == "tdm_single_port_p4_w16_n4_d32_b8");
  CHECK(verilog_params(p) ==
        std::vector<std::string>{"-GNumPorts=4", "-GPayloadW=16", "-GNodeW=4", "-GDepth=32", "-GBufDepth=8"});
  CHECK(cpp_defines(p) == "-DTOTEX_TDM_KIND=2 -DTOTEX_TDM_PORTS=4 -DTOTEX_TDM_PAYLOAD=16 -DTOTEX_TDM_NODE_BITS=4 "
                          "-DTOTEX_TDM_DEPTH=32 -DTOTEX_TDM_BUFFER=8 -DTOTEX_TDM_QUEUE=1");
  p.kind = TileKind::Nic;  // the relay buffer is the single-port tile's only
  CHECK(cache_key("tdm", p) == "tdm_nic_p4_w16_n4_d32");
  CHECK(verilog_params(p).size() == 4);
  TdmTileParams q = p;
  CHECK(same_build(p, q));
  q.depth = 64;
  CHECK_FALSE(same_build(p, q));
  // The NIC queue (multi-flit traffic) keys its own models; depth 1 keys and builds as before.
  q = p;
  q.queue_depth = 4;
  CHECK(cache_key("tdm", q) == "tdm_nic_p4_w16_n4_d32_q4");
  CHECK(verilog_params(q).back() == "-GQueueDepth=4");
  CHECK_FALSE(same_build(p, q));

  WiredTileParams w;
  w.nodes = 16;
  w.ports = 4;
  w.num_links = 64;
  w.signature = 0xabcdef01u;
  const std::string svh = svh_params(w);
  CHECK(svh.find("  parameter int unsigned N           = 32'd16,\n") != std::string::npos);
  CHECK(svh.find("  parameter int unsigned NumLinks    = 32'd64,\n") != std::string::npos);
  CHECK(svh.find("  parameter logic [31:0] Signature   = 32'habcdef01,\n") != std::string::npos);
  w.num_links = 0;  // the tile has no NumLinks
  for (const std::string& g : verilog_params(w)) CHECK(g.rfind("-GNumLinks", 0) == std::string::npos);
  CHECK(cache_key("tile", w).rfind("tile_scheduled_n16_p4_", 0) == 0);
}

TEST_CASE("schema: the environment is read once and checked the same way", "[schema]") {
  const HwEnvironment unset = env_of({});
  CHECK(unset.rtl_build == RtlBuild::Auto);
  CHECK(unset.rtl_threads == 1);
  CHECK(unset.wired_skip_quiet);
  CHECK(unset.tdm_fault == TdmFault::None);
  CHECK_FALSE(unset.cache_dir.empty());
  const HwEnvironment set = env_of({{"TOTEX_RTL_BUILD", "hier"}, {"TOTEX_RTL_THREADS", "2"},
                                    {"TOTEX_WIRED_SKIP_QUIET", "0"}, {"TOTEX_TDM_FAULT", "eject"},
                                    {"TOTEX_CACHE_DIR", "/tmp/totex-cache-test"}});
  CHECK(set.rtl_build == RtlBuild::Hier);
  CHECK(set.rtl_threads == 2);
  CHECK_FALSE(set.wired_skip_quiet);
  CHECK(set.tdm_fault == TdmFault::Eject);
  CHECK(set.cache_dir == "/tmp/totex-cache-test");
  CHECK_THROWS_WITH(env_of({{"TOTEX_RTL_BUILD", "auto"}}),
                    Catch::Contains("TOTEX_RTL_BUILD=auto: accepted values are wired, hier and flat"));
  CHECK_THROWS_WITH(env_of({{"TOTEX_RTL_THREADS", "65"}}), Catch::Contains("TOTEX_RTL_THREADS=65: accepted values are 1 to 64"));
  CHECK_THROWS_WITH(env_of({{"TOTEX_TDM_FAULT", "none"}}),
                    Catch::Contains("TOTEX_TDM_FAULT=none: accepted values are eject, pause and pauses"));
  CHECK_THROWS_WITH(env_of({{"TOTEX_TDM_SYNTH", "/nonexistent/x.sh"}}), Catch::Contains("no such file"));
}
