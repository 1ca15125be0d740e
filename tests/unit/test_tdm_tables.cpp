// SPDX-License-Identifier: Apache-2.0
// TDM slot tables (totex/tdm_tables.hpp): the entry layout, the fold modulo the period and its
// conflicts, the hex images, and a slot-level model of N tiles that runs the folded tables for
// several periods (the tile's contract, docs/tdm-tile.md) and must deliver every message of every
// period in its cycle. Also the periodic reference engine and scoreboard (totex/tdm_run.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "totex/error.hpp"
#include "totex/generators/generators.hpp"
#include "totex/generators/scheduler.hpp"
#include "totex/generators/traffic_schedule.hpp"
#include "totex/network/spec.hpp"
#include "totex/tdm_run.hpp"
#include "totex/tdm_tables.hpp"
#include "totex/traffic/traffic.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

namespace {

Schedule model_schedule(const Topology& t, Model model) {
  Schedule s = schedule_direct(t, model, {"auto", 1.0}).schedule;
  s.materialize();
  REQUIRE(verify(t, s).ok);
  return s;
}
Schedule nic_schedule(const Topology& t) { return model_schedule(t, Model::Nic); }

std::size_t at(int i) { return static_cast<std::size_t>(i); }

/// The tile contract at slot level: in cycle c every tile executes entry c mod P on the flits its
/// neighbours drove in cycle c-1 (one register per hop). Returns the deliveries (cycle, node, src,
/// period) of `periods` periods; every inject slot takes the message for its destination of the
/// period the cycle belongs to. All-port tables (tile.kind == TileKind::AllPort): each output injects its own
/// destination and each input link ejects on its own lane. Single-port tables: one receive (eject,
/// store in a relay word, or hand to this slot's send) and one send (inject, the received flit, or
/// a relay word read before this slot's store) per slot.
struct Flit {
  bool valid = false;
  int src = 0, dst = 0;
  std::int64_t period = 0;
};
struct Seen {
  std::int64_t cycle;
  int node, src, dst;
  std::int64_t period;
};
std::vector<Seen> run_tables(const Topology& t, const TdmTables& tb, int periods) {
  const int n = t.nodes(), p = tb.tile.ports;
  std::vector<Flit> out(at(n) * at(p)), next(out.size());
  std::vector<Seen> seen;
  std::vector<std::vector<Flit>> relay(at(n), std::vector<Flit>(at(tb.tile.buffer_words)));
  const std::int64_t cycles = static_cast<std::int64_t>(periods) * tb.period + tb.steps + 2;
  for (std::int64_t c = 0; c < cycles; ++c) {
    const std::int64_t k = c / tb.period;
    const int slot = static_cast<int>(c % tb.period);
    std::fill(next.begin(), next.end(), Flit{});
    for (int v = 0; v < n; ++v) {
      const TdmEntry& e = tb.entries[at(v)][at(slot)];
      const auto input = [&](int i) -> Flit {  // the flit on input link i of v in this cycle
        if (i >= t.degree(v)) return {};
        const NodeId u = t.neighbor(v, i);
        return out[at(u) * at(p) + at(*t.port_to(u, v))];
      };
      if (tb.tile.kind == TileKind::SinglePort) {
        const Flit got = e.recv_port > 0 ? input(e.recv_port - 1) : Flit{};
        if (e.recv_act == 1 && got.valid) {
          CHECK(got.dst == v);
          CHECK(got.src == e.eject_src);
          seen.push_back({c, v, got.src, got.dst, got.period});
        }
        if (e.send_port > 0) {
          REQUIRE(e.send_port - 1 < t.degree(v));
          Flit send;
          if (e.send_src == 0) {
            if (k < periods) send = {true, v, e.inject_dst, k};
          } else if (e.send_src == 1) {
            CHECK(e.recv_act == 0);
            send = got;
          } else {
            send = relay[at(v)][at(e.send_buf)];
            relay[at(v)][at(e.send_buf)] = {};
          }
          next[at(v) * at(p) + at(e.send_port - 1)] = send;
        }
        if (e.recv_act == 2 && got.valid) {
          CHECK_FALSE(relay[at(v)][at(e.recv_buf)].valid);  // the word is free when it is stored into
          relay[at(v)][at(e.recv_buf)] = got;
        }
        continue;
      }
      for (int o = 0; o < p; ++o) {
        const int sel = e.out_sel[at(o)];
        if (sel == 0) continue;
        REQUIRE(o < t.degree(v));
        if (sel == p + 1) {
          const int dst = tb.tile.kind == TileKind::AllPort ? e.inject_dsts[at(o)] : e.inject_dst;
          if (k < periods) next[at(v) * at(p) + at(o)] = {true, v, dst, k};
        } else {
          // Idle when the hop belongs to a period that is not run (before 0, after K-1).
          next[at(v) * at(p) + at(o)] = input(sel - 1);
        }
      }
      const auto eject = [&](int in, int src) {
        const Flit f = input(in);
        if (!f.valid) return;
        CHECK(f.dst == v);
        CHECK(f.src == src);
        seen.push_back({c, v, f.src, f.dst, f.period});
      };
      if (tb.tile.kind == TileKind::AllPort) {
        for (int i = 0; i < p; ++i)
          if (e.eject_srcs[at(i)] >= 0) eject(i, e.eject_srcs[at(i)]);
      } else if (e.eject_sel > 0) {
        eject(e.eject_sel - 1, e.eject_src);
      }
    }
    out.swap(next);
  }
  return seen;
}

/// Runs the tables and checks K x N x (N-1) deliveries, each in cycle k*P + t_last + 1.
void check_periodic(const std::string& spec, int periods, Model model = Model::Nic) {
  const Topology t = parse_topology(spec);
  const Schedule s = model_schedule(t, model);
  const TdmTables tb = tdm_tables(t, s);
  const std::vector<Seen> seen = run_tables(t, tb, periods);
  const int n = t.nodes();
  CHECK(seen.size() == static_cast<std::size_t>(periods) * at(n) * at(n - 1));
  std::vector<int> count(at(periods) * at(n) * at(n), 0);
  for (const Seen& x : seen) {
    INFO(spec << ": message (" << x.src << "," << x.dst << ") of period " << x.period << " in cycle " << x.cycle);
    REQUIRE(x.period < periods);
    ++count[at(static_cast<int>(x.period)) * at(n) * at(n) + at(x.src) * at(n) + at(x.dst)];
    const std::int64_t last = tb.last_hop[at(x.src) * at(n) + at(x.dst)];
    CHECK(x.cycle == x.period * tb.period + last + 1);
  }
  for (int k = 0; k < periods; ++k)
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        CHECK(count[at(k) * at(n) * at(n) + at(a) * at(n) + at(b)] == (a == b ? 0 : 1));
}

}  // namespace

TEST_CASE("tdm entry layout: fields from bit 0 up", "[tdm]") {
  TdmTileParams p;
  p.ports = 4;
  p.node_bits = 4;
  p.depth = 32;
  CHECK(p.sel_bits() == 3);     // idx_width(6)
  CHECK(p.entry_bits() == 23);  // 5 * 3 + 2 * 4
  CHECK(p.slot_bits() == 5);
  TdmEntry e{{5, 0, 1, 4}, 3, 9, 6, {}, {}};
  const auto w = encode_tdm_entry(e, p);
  REQUIRE(w.size() == 1);
  const std::uint64_t want = 5ULL | (0ULL << 3) | (1ULL << 6) | (4ULL << 9) | (3ULL << 12) | (9ULL << 15) | (6ULL << 19);
  CHECK(w[0] == want);
  CHECK(decode_tdm_entry(w, p) == e);
  // Entries wider than 64 bits span words.
  TdmTileParams wide;
  wide.ports = 20;
  wide.node_bits = 16;
  CHECK(wide.entry_bits() == 21 * 5 + 32);
  TdmEntry big{std::vector<int>(20, 21), 7, 65535, 12345, {}, {}};
  const auto ww = encode_tdm_entry(big, wide);
  CHECK(ww.size() == 3);
  CHECK(decode_tdm_entry(ww, wide) == big);
}

TEST_CASE("tdm all-port entry layout: selects, eject mask, inject destinations, eject sources", "[tdm]") {
  TdmTileParams p;
  p.ports = 4;
  p.node_bits = 6;
  p.depth = 64;
  p.kind = TileKind::AllPort;
  CHECK(p.entry_bits() == 4 * 3 + 4 + 2 * 4 * 6);  // 64: four SB_RAM40_4K side by side
  TdmEntry e{{5, 0, 1, 5}, 0, 0, 0, {17, 0, 0, 63}, {-1, 2, -1, 40}};
  const auto w = encode_tdm_entry(e, p);
  REQUIRE(w.size() == 1);
  std::uint64_t want = 5ULL | (0ULL << 3) | (1ULL << 6) | (5ULL << 9);  // selects
  want |= 0b1010ULL << 12;                                              // eject mask: inputs 1 and 3
  want |= (17ULL << 16) | (63ULL << (16 + 18));                         // inject_dst[0], [3]
  want |= (2ULL << (40 + 6)) | (40ULL << (40 + 18));                    // eject_src[1], [3]
  CHECK(w[0] == want);
  CHECK(decode_tdm_entry(w, p) == e);
  CHECK(e.injections() == 2);
}

TEST_CASE("tdm all-port tables: a lane per link, every destination on the lane of its first hop", "[tdm]") {
  for (const std::string spec : {"torus:4x4", "hypercube:3", "mesh:3x4"}) {
    INFO(spec);
    const Topology t = parse_topology(spec);
    const Schedule s = model_schedule(t, Model::AllPort);
    const TdmTables tb = tdm_tables(t, s);
    CHECK((tb.tile.kind == TileKind::AllPort));
    const int n = t.nodes();
    REQUIRE(tb.lanes.size() == at(n));
    std::int64_t injections = 0;
    for (int v = 0; v < n; ++v) {
      injections += tb.inject_slots(v);
      for (int d = 0; d < n; ++d) CHECK((tb.lanes[at(v)][at(d)] >= 0) == (d != v));
      for (const TdmEntry& e : tb.entries[at(v)])
        for (int o = 0; o < tb.tile.ports; ++o)
          if (e.out_sel[at(o)] == tb.tile.ports + 1) CHECK(tb.lanes[at(v)][at(e.inject_dsts[at(o)])] == o);
      for (const TdmEntry& e : tb.entries[at(v)])
        REQUIRE(decode_tdm_entry(encode_tdm_entry(e, tb.tile), tb.tile) == e);
    }
    CHECK(injections == static_cast<std::int64_t>(n) * (n - 1));  // one inject decision per message
  }
}

TEST_CASE("tdm tables of a ring: path entries and the default period", "[tdm]") {
  const Topology t = parse_topology("ring:5");
  const Schedule s = nic_schedule(t);
  const TdmTables tb = tdm_tables(t, s);
  std::int64_t steps = 0;
  for (std::size_t i = 0; i < s.steps.size(); ++i)
    if (!s.steps[i].empty()) steps = static_cast<std::int64_t>(i) + 1;
  CHECK(tb.steps == steps);
  CHECK(tb.period == steps);  // entry T (ejects only) folds onto slot 0, which ejects nothing
  CHECK(tb.tile.ports == 2);
  CHECK(tb.tile.node_bits == 3);
  CHECK(tb.tile.depth >= tb.period);
  // Each transfer's entry: inject at the first hop, else the input the message came over.
  std::vector<NodeId> prev(25, -1);
  for (std::size_t step = 0; step < s.steps.size(); ++step)
    for (const Transfer& tr : s.steps[step]) {
      const TdmEntry& e = tb.entries[at(tr.from)][step % at(tb.period)];
      const std::size_t m = at(tr.msg.src) * 5 + at(tr.msg.dst);
      if (tr.from == tr.msg.src) {
        CHECK(e.out_sel[at(tr.port)] == 3);  // P + 1
        CHECK(e.inject_dst == tr.msg.dst);
      } else {
        CHECK(e.out_sel[at(tr.port)] == 1 + *t.port_to(tr.from, prev[m]));
      }
      const NodeId to = t.neighbor(tr.from, tr.port);
      if (to == tr.msg.dst) {
        const TdmEntry& ej = tb.entries[at(to)][(step + 1) % at(tb.period)];
        CHECK(ej.eject_sel == 1 + *t.port_to(to, tr.from));
        CHECK(ej.eject_src == tr.msg.src);
        CHECK(tb.last_hop[m] == static_cast<std::int64_t>(step));
      }
      prev[m] = tr.from;
    }
  CHECK(tdm_fold_conflicts(t, s, tb.period).empty());
  CHECK(tdm_fold_conflicts(t, s, tb.period + 1).empty());
}

TEST_CASE("tdm tables run periodically on the slot-level tile model", "[tdm]") {
  check_periodic("ring:5", 3);
  check_periodic("torus:4x4", 4);
  check_periodic("hypercube:3", 3);
  check_periodic("mesh:3x4", 3);  // border nodes have fewer ports than the tile
  check_periodic("torus:4x4", 3, Model::AllPort);
  check_periodic("hypercube:3", 3, Model::AllPort);
  check_periodic("mesh:3x4", 3, Model::AllPort);
  check_periodic("torus:4x4", 3, Model::SinglePort);
  check_periodic("hypercube:3", 3, Model::SinglePort);
  check_periodic("mesh:3x4", 3, Model::SinglePort);
}

TEST_CASE("tdm single-port entry layout and relay words", "[tdm]") {
  TdmTileParams p;
  p.ports = 4;
  p.node_bits = 6;
  p.depth = 256;
  p.kind = TileKind::SinglePort;
  p.buffer_words = 64;
  CHECK(p.buffer_bits() == 6);
  CHECK(p.entry_bits() == 2 * 3 + 4 + 2 * 6 + 2 * 6);  // 34
  TdmEntry e{{0, 0, 0, 0}, 0, 0, 0, {}, {}};
  e.send_port = 3;
  e.send_src = 2;
  e.send_buf = 41;
  e.recv_port = 2;
  e.recv_act = 1;
  e.recv_buf = 0;
  e.eject_src = 59;
  const auto w = encode_tdm_entry(e, p);
  const std::uint64_t want = 3ULL | (2ULL << 3) | (41ULL << 5) | (0ULL << 11) | (2ULL << 17) | (1ULL << 20) | (0ULL << 22) |
                             (59ULL << 28);
  CHECK(w[0] == want);
  const TdmEntry d = decode_tdm_entry(w, p);
  CHECK(d.send_port == 3);
  CHECK(d.send_src == 2);
  CHECK(d.send_buf == 41);
  CHECK(d.recv_port == 2);
  CHECK(d.recv_act == 1);
  CHECK(d.eject_src == 59);
  CHECK(d.eject_sel == 2);  // the ejecting input, as the nic tile's field
  // torus:8x8's a2 schedule: one send and one receive per node and slot, every relay word stored
  // once before it is sent (checked by the slot-level model above on smaller networks).
  const Topology t = parse_topology("torus:8x8");
  const TdmTables tb = tdm_tables(t, model_schedule(t, Model::SinglePort));
  CHECK((tb.tile.kind == TileKind::SinglePort));
  CHECK(tb.period == 256);
  CHECK(tb.tile.buffer_words == 64);
  for (int v = 0; v < t.nodes(); ++v) {
    CHECK(tb.inject_slots(v) == t.nodes() - 1);
    for (const TdmEntry& x : tb.entries[at(v)]) REQUIRE(decode_tdm_entry(encode_tdm_entry(x, tb.tile), tb.tile) == x);
  }
}

TEST_CASE("tdm: torus:4x4 nic folds at its period, a shorter period is refused with every conflict", "[tdm]") {
  const Topology t = parse_topology("torus:4x4");
  const Schedule s = nic_schedule(t);
  const int T = tdm_default_period(t, s);
  CHECK(T == 17);
  CHECK(tdm_fold_conflicts(t, s, T).empty());
  const std::vector<TdmConflict> c = tdm_fold_conflicts(t, s, 10);
  REQUIRE_FALSE(c.empty());
  for (const TdmConflict& x : c) {
    if (x.node < 0) continue;  // the "... and N more" line
    CHECK(x.slot >= 0);
    CHECK(x.slot < 10);
    CHECK(x.node < 16);
    CHECK(x.text.find("node " + std::to_string(x.node) + ", slot " + std::to_string(x.slot)) == 0);
  }
  try {
    (void)tdm_tables(t, s, 10);
    FAIL("a conflicting fold must throw");
  } catch (const TdmFoldError& e) {
    const std::string what = e.what();
    CHECK(what.find("does not fold into a TDM table of period 10") != std::string::npos);
    CHECK(what.find("used by message") != std::string::npos);
    CHECK_FALSE(e.conflicts().empty());
  }
}

TEST_CASE("tdm fold conflicts name node, slot and port", "[tdm]") {
  // ring:4: message (0,1) crosses 0->1 in step 0; message (0,2) crosses 0->1 in step 2 and 1->2
  // in step 3. Folded at period 2 both use node 0's output toward 1 and its inject in slot 0.
  const Topology t = parse_topology("ring:4");
  const Port p01 = *t.port_to(0, 1), p12 = *t.port_to(1, 2);
  Schedule s;
  s.topology = t.spec();
  s.model = Model::Nic;
  s.steps = {{{{0, 1}, 0, p01}}, {}, {{{0, 2}, 0, p01}}, {{{0, 2}, 1, p12}}};
  CHECK(tdm_fold_conflicts(t, s, 4).empty());
  CHECK(tdm_fold_conflicts(t, s, 3).empty());
  const auto c = tdm_fold_conflicts(t, s, 2);
  REQUIRE(c.size() == 2);
  CHECK(c[0].node == 0);
  CHECK(c[0].slot == 0);
  CHECK(c[0].resource == "inject");
  CHECK(c[1].node == 0);
  CHECK(c[1].slot == 0);
  CHECK(c[1].resource.find("output port " + std::to_string(p01)) == 0);
  CHECK(c[1].text.find("message (0,1) in step 0 and by message (0,2) in step 2") != std::string::npos);
  // Two ejections at node 1 folded onto one slot: (0,1) ejects in slot 1; (2,1) crosses 2->1 in step 4, ejects in step 5.
  s.steps.push_back({{{2, 1}, 2, *t.port_to(2, 1)}});
  const auto e = tdm_fold_conflicts(t, s, 4);
  REQUIRE(e.size() == 1);
  CHECK(e[0].node == 1);
  CHECK(e[0].slot == 1);
  CHECK(e[0].resource == "eject");
  CHECK_THROWS_AS(tdm_tables(t, s, 4), TdmFoldError);
  CHECK(tdm_tables(t, s, 5).period == 5);
}

TEST_CASE("tdm tables refuse what the tile cannot run", "[tdm]") {
  const Topology t = parse_topology("ring:4");
  Schedule s;
  s.topology = t.spec();
  s.model = Model::AllPort;
  s.steps = {{{{0, 1}, 0, *t.port_to(0, 1)}}};
  s.model = Model::Nic;
  CHECK_THROWS_WITH(tdm_tables(t, s, -1), Catch::Contains("at least 1"));
  CHECK_THROWS_WITH(tdm_tables(t, s, 0, 65), Catch::Contains("1 to 64"));
  // A relay that buffers: (0,2) reaches 1 in step 0 and leaves it in step 2.
  s.steps = {{{{0, 2}, 0, *t.port_to(0, 1)}}, {}, {{{0, 2}, 1, *t.port_to(1, 2)}}};
  CHECK_THROWS_WITH(tdm_tables(t, s), Catch::Contains("never buffer"));
  // Under single-port the same relay stores it (one relay word); a wait of a whole period is refused.
  s.model = Model::SinglePort;
  const TdmTables sp = tdm_tables(t, s, 3);
  CHECK((sp.tile.kind == TileKind::SinglePort));
  CHECK(sp.tile.buffer_words == 1);
  CHECK(sp.entries[1][1].recv_act == 2);
  CHECK(sp.entries[1][2].send_src == 2);
  s.steps = {{{{0, 2}, 0, *t.port_to(0, 1)}}, {}, {}, {}, {{{0, 2}, 1, *t.port_to(1, 2)}}};
  CHECK_THROWS_WITH(tdm_tables(t, s, 3), Catch::Contains("a whole period"));
  s.model = Model::Nic;
  Schedule empty;
  empty.topology = t.spec();
  empty.model = Model::Nic;
  CHECK_THROWS_WITH(tdm_tables(t, empty), Catch::Contains("no transfers"));
}

TEST_CASE("tdm hex image: depth lines of the encoded entries", "[tdm]") {
  const Topology t = parse_topology("torus:4x4");
  const TdmTables tb = tdm_tables(t, nic_schedule(t));
  CHECK(tb.tile.depth == 32);  // period 17 rounded up
  CHECK(tb.tile.entry_bits() == 23);
  const std::string hex = tdm_hex_image(tb, 5);
  std::istringstream in(hex);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() == 32);
  const auto words = tb.words(5);
  for (int slot = 0; slot < 32; ++slot) {
    CHECK(lines[at(slot)].size() == 6);  // ceil(23 / 4)
    CHECK(std::stoull(lines[at(slot)], nullptr, 16) == words[at(slot)][0]);
    if (slot >= tb.period) CHECK(words[at(slot)][0] == 0);
  }
}

TEST_CASE("tdm payloads differ from period to period", "[tdm]") {
  for (int bits : {1, 8, 32, 64})
    for (std::int64_t k = 0; k < 4; ++k) CHECK(tdm_payload(3, 7, k, bits) != tdm_payload(3, 7, k + 1, bits));
  CHECK(tdm_payload(3, 7, 0, 8) < 256);
}

TEST_CASE("tdm periodic reference run and its scoreboard", "[tdm]") {
  const Topology t = parse_topology("torus:4x4");
  const Schedule s = nic_schedule(t);
  const TdmTables tb = tdm_tables(t, s);
  const SimResult r = run_reference_periodic(t, s, tb, 3);
  CHECK(r.ok());
  CHECK(r.delivered == 3 * 240);
  CHECK(r.expected_delivered == 3 * 240);
  CHECK(r.cycles == 2 * 17 + 17);
  // One period is the one-shot exchange with other payloads: same count and cycles.
  const SimResult one = run_reference_periodic(t, s, tb, 1);
  CHECK(one.ok());
  CHECK(one.cycles == run_reference(t, s).cycles);
  CHECK(one.trace_sha256 != r.trace_sha256);

  // The scoreboard catches a wrong payload, a wrong cycle, a duplicate and a missing message.
  TdmScoreboard board(t, tb, 2, 1);
  const std::int64_t last = tb.last_hop[0 * 16 + 1];
  board.observe(last + 1, 1, 0, tdm_payload(0, 1, 0, 32));            // right
  board.observe(17 + last + 1, 1, 0, tdm_payload(0, 1, 0, 32));       // period 1, period 0's payload
  board.observe(last + 1, 1, 0, tdm_payload(0, 1, 0, 32));            // twice
  board.observe(tb.last_hop[0 * 16 + 2] + 1 + 5, 2, 0, tdm_payload(0, 2, 0, 32));  // 5 cycles late
  board.finish();
  CHECK(board.delivered() == 2);
  const auto& errs = board.errors();
  const auto has = [&](const std::string& needle) {
    return std::any_of(errs.begin(), errs.end(), [&](const std::string& e) { return e.find(needle) != std::string::npos; });
  };
  CHECK(has("of period 1: payload"));
  CHECK(has("delivered twice"));
  CHECK(has("due only in cycles"));
  CHECK(has("never arrived"));
}

// Issue 49: a traffic's periodic schedule on the TDM tables (one flit per pair and period).
TEST_CASE("tdm tables of a traffic: its pairs only, its default period, one flit per pair and period", "[tdm][traffic]") {
  const Topology t = parse_topology("torus:4x4");
  const Traffic traffic = parse_traffic("perm:transpose", t);
  TrafficRequest request;
  request.periodic = true;
  const Schedule s = schedule_traffic(t, Model::Nic, traffic, request).schedule;
  REQUIRE(s.period > 0);
  REQUIRE(s.period < kTdmTileMinPeriod);  // a permutation: one flit per node and period
  // Below the tiles' minimum: the smallest multiple of its own period at or above it.
  const int P = tdm_default_period(t, s);
  CHECK(P % s.period == 0);
  CHECK(P >= kTdmTileMinPeriod);
  CHECK(P - s.period < kTdmTileMinPeriod);
  const TdmTables tables = tdm_tables(t, s);
  CHECK(tables.period == P);
  // The tables deliver exactly the traffic's pairs.
  const auto n = static_cast<std::size_t>(t.nodes());
  for (NodeId src = 0; src < t.nodes(); ++src)
    for (NodeId dst = 0; dst < t.nodes(); ++dst)
      CHECK((tables.last_hop[static_cast<std::size_t>(src) * n + static_cast<std::size_t>(dst)] >= 0) ==
            (traffic.flits(src, dst) > 0));
  // The reference engine against the traffic passes with K x its pairs; against all it fails.
  const SimResult r = run_reference_periodic(t, s, tables, 3, &traffic);
  CHECK(r.errors.empty());
  CHECK(r.delivered == 3 * traffic.pairs());
  CHECK(r.expected_delivered == 3 * traffic.pairs());
  const SimResult all = run_reference_periodic(t, s, tables, 3);
  CHECK_FALSE(all.errors.empty());
  CHECK(all.expected_delivered == 3 * 16 * 15);

  // One flit per pair and period: the tile without a queue, today's entry.
  CHECK(tables.flits == 1);
  CHECK(tables.tile.queue_depth == 1);
  CHECK_FALSE(tables.tile.last_bit());
}

// Issue 49: several flits per pair and period run on the tiles' NIC queues (the nic tile's here;
// the all-port and single-port tiles in the next test case).
TEST_CASE("tdm tables of a multi-flit traffic: flit numbers, last bits, the queue depth", "[tdm][traffic]") {
  const Topology t = parse_topology("torus:4x4");
  const Traffic two = parse_traffic("perm:transpose:2", t);
  TrafficRequest request;
  request.periodic = true;
  const Schedule s2 = schedule_traffic(t, Model::Nic, two, request).schedule;
  const TdmTables tables = tdm_tables(t, s2);
  CHECK(tables.flits == 2);
  CHECK(tables.tile.queue_depth == 2);
  REQUIRE(tables.tile.last_bit());
  CHECK(tables.tile.entry_bits() == (4 + 1) * 3 + 2 * 4 + 1);  // the last bit on top
  const auto n = static_cast<std::size_t>(t.nodes());
  std::int64_t lasts = 0, ejects = 0;
  for (const auto& node : tables.entries)
    for (const TdmEntry& e : node) {
      ejects += e.eject_sel > 0 ? 1 : 0;
      lasts += e.eject_last ? 1 : 0;
      CHECK((!e.eject_last || e.eject_sel > 0));
      // The last bit survives the entry's encoding.
      CHECK(decode_tdm_entry(encode_tdm_entry(e, tables.tile), tables.tile) == e);
    }
  CHECK(ejects == 2 * two.pairs());
  CHECK(lasts == two.pairs());  // one last flit per pair and period
  for (NodeId src = 0; src < t.nodes(); ++src)
    for (NodeId dst = 0; dst < t.nodes(); ++dst) {
      const std::size_t pair = static_cast<std::size_t>(src) * n + static_cast<std::size_t>(dst);
      if (two.flits(src, dst) == 0) continue;
      // Flit 1 arrives after flit 0 (numbered in inject order, arrival checked to follow it).
      CHECK(tables.last_hop[pair * 2 + 1] > tables.last_hop[pair * 2]);
    }
  // ref delivers every flit of K periods with the traffic's count; payloads distinct per flit.
  const SimResult r = run_reference_periodic(t, s2, tables, 3, &two);
  CHECK(r.errors.empty());
  CHECK(r.delivered == 3 * 2 * two.pairs());
  CHECK(tdm_payload(0, 1, tdm_flit_index(tables, 0, 1), 32) != tdm_payload(0, 1, tdm_flit_index(tables, 1, 0), 32));
  CHECK(tdm_flit_index(tables, 3, 1) == 7);

  // The scoreboard names a reordered flit, a lost one and a wrong m_axis_tlast as (s,d)#f.
  NodeId src = 0, dst = 0;
  for (NodeId v = 0; v < t.nodes() && src == dst; ++v)
    for (NodeId w = 0; w < t.nodes(); ++w)
      if (two.flits(v, w) == 2) {
        src = v;
        dst = w;
        break;
      }
  REQUIRE(src != dst);
  const std::size_t pair = static_cast<std::size_t>(src) * n + static_cast<std::size_t>(dst);
  const std::string name = "(" + std::to_string(src) + "," + std::to_string(dst) + ")";
  TdmScoreboard board(t, tables, 1, 0, &two);
  // Flit 0's slot carries flit 1's payload and the reverse: both reordered; flit 0's tlast wrong.
  board.observe(tables.last_hop[pair * 2], dst, src, tdm_payload(src, dst, 1, 32), 1);
  board.observe(tables.last_hop[pair * 2 + 1], dst, src, tdm_payload(src, dst, 0, 32), 1);
  board.finish();
  const auto& errs = board.errors();
  const auto has = [&](const std::string& needle) {
    return std::any_of(errs.begin(), errs.end(), [&](const std::string& e) { return e.find(needle) != std::string::npos; });
  };
  CHECK(has("flit " + name + "#0 of period 0: payload"));
  CHECK(has("it is the payload of flit " + name + "#1 of period 0 (reordered)"));
  CHECK(has("flit " + name + "#0 of period 0: m_axis_tlast 1, expected 0"));
  TdmScoreboard lost(t, tables, 1, 0, &two);
  lost.observe(tables.last_hop[pair * 2], dst, src, tdm_payload(src, dst, 0, 32), 0);
  lost.finish();
  CHECK(std::any_of(lost.errors().begin(), lost.errors().end(), [&](const std::string& e) {
    return e.find("flit " + name + "#1 of period 0 never arrived") != std::string::npos;
  }));
  CHECK(std::none_of(lost.errors().begin(), lost.errors().end(),
                     [&](const std::string& e) { return e.find(name + "#0") != std::string::npos; }));

}

// The all-port and single-port tiles run multi-flit traffic too (their NIC lanes are queues): the
// queue depth, the last bits (one per input link on all-port, one on single-port) through the
// entry's encoding, one last flit per pair and period, and ref delivers every flit.
TEST_CASE("tdm tables of a multi-flit traffic on the all-port and single-port tiles", "[tdm][traffic]") {
  const Topology t = parse_topology("torus:4x4");
  const Traffic two = parse_traffic("all:2", t);
  TrafficRequest request;
  request.periodic = true;
  for (const Model model : {Model::AllPort, Model::SinglePort}) {
    const Schedule s = schedule_traffic(t, model, two, request).schedule;
    const TdmTables tables = tdm_tables(t, s);
    const bool all_port = model == Model::AllPort;
    CHECK(tables.flits == 2);
    CHECK(tables.tile.queue_depth == 2);
    REQUIRE(tables.tile.last_bit());
    CHECK(tables.tile.last_bits() == (all_port ? 4 : 1));
    TdmTileParams one = tables.tile;
    one.queue_depth = 1;
    CHECK(tables.tile.entry_bits() == one.entry_bits() + tables.tile.last_bits());
    std::int64_t lasts = 0;
    for (const auto& node : tables.entries)
      for (const TdmEntry& e : node) {
        if (all_port) {
          REQUIRE(e.eject_lasts.size() == 4);
          for (std::size_t i = 0; i < 4; ++i) {
            lasts += e.eject_lasts[i];
            CHECK((e.eject_lasts[i] == 0 || e.eject_srcs[i] >= 0));  // only on an eject
          }
        } else {
          lasts += e.eject_last ? 1 : 0;
          CHECK((!e.eject_last || e.recv_act == 1));
        }
        CHECK(decode_tdm_entry(encode_tdm_entry(e, tables.tile), tables.tile) == e);
      }
    CHECK(lasts == two.pairs());  // one last flit per pair and period
    const SimResult r = run_reference_periodic(t, s, tables, 2, &two);
    CHECK(r.errors.empty());
    CHECK(r.delivered == 2 * 2 * two.pairs());
  }
}
