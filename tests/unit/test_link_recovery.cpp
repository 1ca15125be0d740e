// SPDX-License-Identifier: Apache-2.0
// Recovery from a stuck link (totex/link_recovery.hpp): the plan's tables avoid the failed link on
// the tiles' ports, and the table-level reference model agrees with the transfer-level periodic
// reference (run_reference_periodic) before the fault.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "totex/error.hpp"
#include "totex/generators/scheduler.hpp"
#include "totex/link_recovery.hpp"
#include "totex/network/spec.hpp"
#include "totex/tdm_run.hpp"
#include "totex/tdm_tables.hpp"

namespace {

using namespace totex;

struct Healthy {
  Topology t;
  Schedule s;
  TdmTables tables;
};

Healthy healthy_4x4() {
  Topology t = parse_topology("torus:4x4");
  Schedule s = schedule_direct(t, Model::Nic, ScheduleRequest("pairwise")).schedule;
  s.materialize();
  TdmTables tables = tdm_tables(t, s);
  return {std::move(t), std::move(s), std::move(tables)};
}

}  // namespace

TEST_CASE("the degraded tables never use the failed link on the tiles' ports", "[recover]") {
  const Healthy h = healthy_4x4();
  const TdmTables tiles = recovery_tiles(h.tables);
  const RecoveryPlan p = plan_link_recovery(h.t, tiles, 1, 0, 2, 0.5);  // the degraded search at --recover-budget 0.5
  REQUIRE(p.a == 0);
  REQUIRE(p.b == 1);
  REQUIRE(p.degraded_spec == "torus:4x4~fail:0-1");
  REQUIRE(p.new_period >= p.degraded_bound);
  REQUIRE(p.tables.tile.depth == tiles.tile.depth);
  const int ports = tiles.tile.ports;
  for (const auto& [u, v] : {std::pair<NodeId, NodeId>{0, 1}, std::pair<NodeId, NodeId>{1, 0}}) {
    const int out = *h.t.port_to(u, v), in = *h.t.port_to(v, u);  // v's input link from u is v's port towards u
    for (int slot = 0; slot < p.new_period; ++slot) {
      CHECK(p.tables.entries[static_cast<std::size_t>(u)][static_cast<std::size_t>(slot)].out_sel[static_cast<std::size_t>(out)] == 0);
      const TdmEntry& e = p.tables.entries[static_cast<std::size_t>(v)][static_cast<std::size_t>(slot)];
      CHECK(e.eject_sel != in + 1);
      for (int o = 0; o < ports; ++o) CHECK(e.out_sel[static_cast<std::size_t>(o)] != in + 1);
    }
  }
  // The swap comes after the writes and the arm, at least two periods after the detection.
  REQUIRE(p.arm_cycle == p.write_cycle + p.writes);
  REQUIRE(p.swap_cycle == std::int64_t{p.swap_period} * p.old_period);
  REQUIRE(p.swap_cycle >= p.arm_cycle + kRecoverArmLead);
  REQUIRE(p.swap_period >= p.detect_period + 2);
}

TEST_CASE("the recovery model agrees with the periodic reference before the fault", "[recover]") {
  const Healthy h = healthy_4x4();
  const TdmTables tiles = recovery_tiles(h.tables);
  const int periods = 8;
  const LinkFault f = parse_fault_at("3:5-6", h.t, periods);
  const RecoveryReference ref = run_recovery_reference(h.t, tiles, f, periods, 0.5);
  REQUIRE(ref.errors.empty());
  REQUIRE(ref.plan.a == 5);
  REQUIRE(ref.plan.b == 6);
  REQUIRE_FALSE(ref.lost.empty());
  // The transfer-level reference of the healthy schedule: the same deliveries up to the fault.
  const SimResult healthy = run_reference_periodic(h.t, h.s, h.tables, periods);
  REQUIRE(healthy.ok());
  const std::int64_t fault_cycle = std::int64_t{f.period} * h.tables.period;
  std::vector<Delivery> mine;
  for (const Delivery& d : ref.trace)
    if (d.step + 1 < fault_cycle) mine.push_back(d);
  // run_reference_periodic keeps its trace inside; its digest over the same steps is what counts:
  // rebuild it from the scoreboard's convention (step, dst, src, payload of period k).
  std::vector<Delivery> theirs;
  for (std::int64_t k = 0; k < periods; ++k)
    for (NodeId s = 0; s < h.t.nodes(); ++s)
      for (NodeId d = 0; d < h.t.nodes(); ++d) {
        if (s == d) continue;
        const std::int64_t step = k * h.tables.period + h.tables.last_hop[static_cast<std::size_t>(s * h.t.nodes() + d)];
        if (step + 1 < fault_cycle)
          theirs.push_back({step, d, s, static_cast<std::uint32_t>(tdm_payload(s, d, k, h.tables.tile.payload_bits))});
      }
  REQUIRE(trace_sha256(mine) == trace_sha256(theirs));
  REQUIRE(mine.size() == theirs.size());
}

TEST_CASE("a recovery run's fault (--fault-at) is checked against the network and K", "[recover]") {
  const Topology t = parse_topology("torus:4x4");
  CHECK(parse_fault_at("2:1-0", t, 8).text() == "2:0-1");
  CHECK_THROWS_AS(parse_fault_at("2:0-5", t, 8), UsageError);
  CHECK_THROWS_AS(parse_fault_at("0:0-1", t, 8), UsageError);
  CHECK_THROWS_AS(parse_fault_at("8:0-1", t, 8), UsageError);
  CHECK_THROWS_AS(parse_fault_at("2:0", t, 8), UsageError);
  CHECK_THROWS_AS(parse_fault_at("2:-1-0", t, 8), UsageError);
  CHECK_THROWS_AS(parse_fault_at("2:0-1x", t, 8), UsageError);
  CHECK_THROWS_AS(parse_fault_at("2:0-1", parse_topology("path:4"), 8), UsageError);  // partitioned
}

TEST_CASE("a recovery harness reads back the arguments the engines write", "[recover]") {
  const RecoveryArgs written{"3:1-2", 0.1};
  std::vector<std::string> argv = {"tdm", "--topo", "torus:4x4"};
  for (const std::string& a : recovery_argv(written)) argv.push_back(a);
  std::vector<char*> raw;
  for (std::string& a : argv) raw.push_back(a.data());
  std::vector<char*> rest;
  const RecoveryArgs read = take_recovery_args(static_cast<int>(raw.size()), raw.data(), rest);
  REQUIRE(read.fault_at == "3:1-2");
  REQUIRE(read.budget_seconds == written.budget_seconds);  // exactly: 17 significant digits
  REQUIRE(rest.size() == 3);
  // The default budget is not written; a budget that is not a plain positive number is refused.
  REQUIRE(recovery_argv({"3:1-2", 0}).size() == 2);
  std::vector<std::string> bad = {"--fault-at", "3:1-2", "--recover-budget", "nan"};
  std::vector<char*> bad_raw;
  for (std::string& a : bad) bad_raw.push_back(a.data());
  rest.clear();
  REQUIRE_THROWS_AS(take_recovery_args(static_cast<int>(bad_raw.size()), bad_raw.data(), rest), UsageError);
}
