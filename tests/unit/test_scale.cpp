// SPDX-License-Identifier: Apache-2.0
// Scale (issue 13): the O(transfers) verifier against the step-by-step replay it replaced, on
// small schedules with injected faults; lazy schedules against their expansion; the MIN check
// from M^0 against the configuration-by-configuration check; exchange tables checked from the
// table (Theorem 1) against the verifier on the expanded schedule.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <cstdlib>
#include <sstream>

#include "totex/generators/a2.hpp"
#include "totex/error.hpp"
#include "totex/io/exchange_table.hpp"
#include "totex/generators/generators.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

namespace {

// ---- The replay verifier as it was before issue 13 (per step, a scan over every message
// waiting at a relay; N^2 x 13 bytes), kept here as the reference the new one must equal.
std::string msg_text(const Message& m) {
  return "(" + std::to_string(m.src) + "," + std::to_string(m.dst) + ")";
}

/// Collects violations, keeping the first kMaxReported in full.
class Reporter {
 public:
  explicit Reporter(VerifyReport& r) : report_(r) {}
  void add(std::string kind, int step, NodeId node, std::string link, const std::string& what) {
    ++report_.violation_count;
    if (report_.violations.size() >= VerifyReport::kMaxReported) return;
    std::string where;
    if (step >= 0) where += "step " + std::to_string(step);
    if (node >= 0) where += (where.empty() ? "" : ", ") + std::string("node ") + std::to_string(node);
    if (!link.empty()) where += (where.empty() ? "" : ", ") + std::string("link ") + link;
    report_.violations.push_back({std::move(kind), step, node, link, (where.empty() ? "" : where + ": ") + what});
  }

 private:
  VerifyReport& report_;
};

std::string link_text(NodeId from, NodeId to) { return std::to_string(from) + "->" + std::to_string(to); }


VerifyReport replay_verify(const Topology& t, const Schedule& s, std::optional<std::int64_t> claimed_steps) {
  VerifyReport report;
  Reporter rep(report);
  const int nn = t.nodes();
  const auto n = static_cast<std::size_t>(nn);
  check_memory(std::uint64_t{n} * n, 13, "verifying " + t.spec() + " (" + std::to_string(nn) + "^2 messages)");
  if (!s.topology.empty() && s.topology != t.spec())
    rep.add("topology", -1, -1, "", "schedule is for '" + s.topology + "', not '" + t.spec() + "'");

  std::vector<NodeId> pos(n * n);
  for (std::size_t m = 0; m < pos.size(); ++m) pos[m] = static_cast<NodeId>(m / n);
  std::vector<int> delivered_step(n * n, -1);
  std::vector<int> moved_step(n * n, -1);
  std::vector<bool> left_source(n * n, false);
  std::vector<int> link_step(static_cast<std::size_t>(t.links()), -1);
  std::vector<std::size_t> link_msg(static_cast<std::size_t>(t.links()), 0);
  std::vector<int> sends(n), receives(n), injects(n), ejects(n), stored(n);
  std::vector<std::size_t> in_flight;  // messages sitting at a relay when the step starts
  const bool may_buffer = allows_relay_buffering(s.model);
  std::int64_t last_busy_step = -1;

  for (std::size_t step_index = 0; step_index < s.steps.size(); ++step_index) {
    const int step = static_cast<int>(step_index);
    std::fill(sends.begin(), sends.end(), 0);
    std::fill(receives.begin(), receives.end(), 0);
    std::fill(injects.begin(), injects.end(), 0);
    std::fill(ejects.begin(), ejects.end(), 0);
    std::vector<std::size_t> next_in_flight;
    if (!s.steps[step_index].empty()) last_busy_step = step;
    for (const Transfer& tr : s.steps[step_index]) {
      const Message& msg = tr.msg;
      if (msg.src < 0 || msg.src >= nn || msg.dst < 0 || msg.dst >= nn || msg.src == msg.dst) {
        rep.add("bad-message", step, tr.from, "", "message " + msg_text(msg) + " is not a message of this exchange");
        continue;
      }
      if (!t.is_processor(msg.src) || !t.is_processor(msg.dst)) {  // empty nodes only forward
        rep.add("bad-message", step, tr.from, "", "message " + msg_text(msg) + ": node " +
                std::to_string(t.is_processor(msg.src) ? msg.dst : msg.src) + " has no processor in " + t.spec());
        continue;
      }
      if (tr.from < 0 || tr.from >= nn || tr.port < 0 || tr.port >= t.degree(tr.from)) {
        rep.add("invalid-link", step, tr.from, "", "message " + msg_text(msg) + " uses port " +
                std::to_string(tr.port) + ", which node " + std::to_string(tr.from) + " does not have");
        continue;
      }
      const NodeId to = t.neighbor(tr.from, tr.port);
      const std::string link = link_text(tr.from, to);
      const std::size_t m = static_cast<std::size_t>(msg.src) * n + static_cast<std::size_t>(msg.dst);
      if (delivered_step[m] >= 0) {
        rep.add("delivered-twice", step, tr.from, link, "message " + msg_text(msg) + " was already delivered in step " +
                std::to_string(delivered_step[m]) + " and moves again");
        continue;
      }
      if (moved_step[m] == step) {
        rep.add("double-move", step, tr.from, link, "message " + msg_text(msg) + " crosses a second link in the same step");
        continue;
      }
      if (pos[m] != tr.from) {
        rep.add("invalid-path", step, tr.from, link, "message " + msg_text(msg) + " is at node " +
                std::to_string(pos[m]) + ", not at node " + std::to_string(tr.from));
        continue;
      }
      const auto l = static_cast<std::size_t>(t.link_id(tr.from, tr.port));
      if (link_step[l] == step) {
        rep.add("link-reuse", step, tr.from, link, "link carries message " +
                msg_text({static_cast<NodeId>(link_msg[l] / n), static_cast<NodeId>(link_msg[l] % n)}) +
                " and message " + msg_text(msg));
      }
      link_step[l] = step;
      link_msg[l] = m;
      const auto from_i = static_cast<std::size_t>(tr.from);
      const auto to_i = static_cast<std::size_t>(to);
      if (s.model == Model::SinglePort) {
        if (++sends[from_i] == 2)
          rep.add("send-limit", step, tr.from, link, "single-port node sends a second message " + msg_text(msg));
        if (++receives[to_i] == 2)
          rep.add("receive-limit", step, to, link, "single-port node receives a second message " + msg_text(msg));
      }
      const bool injecting = !left_source[m];
      if (s.model == Model::Nic && injecting && ++injects[from_i] == 2)
        rep.add("inject-limit", step, tr.from, link, "NIC injects a second message " + msg_text(msg));
      if (s.model == Model::Nic && to == msg.dst && ++ejects[to_i] == 2)
        rep.add("eject-limit", step, to, link, "NIC ejects a second message " + msg_text(msg));
      left_source[m] = true;
      moved_step[m] = step;
      pos[m] = to;
      if (to == msg.dst) {
        delivered_step[m] = step;
        ++report.delivered;
      } else {
        next_in_flight.push_back(m);
      }
    }
    // Messages that sat at a relay through this step are stored there.
    for (std::size_t m : in_flight) {
      if (moved_step[m] == step || delivered_step[m] >= 0) continue;
      const auto at = static_cast<std::size_t>(pos[m]);
      report.max_buffered = std::max<std::int64_t>(report.max_buffered, ++stored[at]);
      if (!may_buffer)
        rep.add("buffering", step, pos[m], "", "message " + msg_text({static_cast<NodeId>(m / n), static_cast<NodeId>(m % n)}) +
                " waits at a relay; " + to_string(s.model) + " forbids intermediate buffering");
      next_in_flight.push_back(m);
    }
    for (std::size_t m : in_flight) stored[static_cast<std::size_t>(pos[m])] = 0;
    in_flight.swap(next_in_flight);
  }

  // Every ordered pair of distinct processors (every node, unless the network is partially populated).
  const auto np = static_cast<std::int64_t>(t.processor_count());
  report.expected = np * (np - 1);
  for (std::size_t m = 0; m < n * n; ++m) {
    const auto src = static_cast<NodeId>(m / n), dst = static_cast<NodeId>(m % n);
    if (src == dst || delivered_step[m] >= 0 || !t.is_processor(src) || !t.is_processor(dst)) continue;
    if (pos[m] == src)
      rep.add("lost", -1, src, "", "message " + msg_text({src, dst}) + " is never sent");
    else
      rep.add("lost", -1, pos[m], "", "message " + msg_text({src, dst}) + " ends at node " + std::to_string(pos[m]) +
              ", not at its destination " + std::to_string(dst));
  }
  report.steps = last_busy_step + 1;
  if (claimed_steps && *claimed_steps != report.steps)
    rep.add("step-count", -1, -1, "", "schedule claims " + std::to_string(*claimed_steps) + " steps but takes " +
            std::to_string(report.steps));
  report.ok = report.violation_count == 0;
  return report;
}


std::vector<std::string> texts(const VerifyReport& r) {
  std::vector<std::string> v;
  for (const Violation& x : r.violations) v.push_back(x.kind + ": " + x.text);
  std::sort(v.begin(), v.end());
  return v;
}

void require_same(const VerifyReport& a, const VerifyReport& b) {
  REQUIRE(a.ok == b.ok);
  REQUIRE(a.steps == b.steps);
  REQUIRE(a.delivered == b.delivered);
  REQUIRE(a.expected == b.expected);
  REQUIRE(a.max_buffered == b.max_buffered);
  REQUIRE(a.violation_count == b.violation_count);
  if (a.violation_count <= static_cast<std::int64_t>(VerifyReport::kMaxReported)) REQUIRE(texts(a) == texts(b));
}

/// One random fault: drop, duplicate, delay or advance a transfer, change its port or message,
/// insert an empty step (waiting), or swap two steps.
Schedule inject(const Topology& t, Schedule s, std::mt19937& rng) {
  auto pick_step = [&]() -> std::size_t {
    for (int tries = 0; tries < 100; ++tries) {
      const std::size_t i = std::uniform_int_distribution<std::size_t>(0, s.steps.size() - 1)(rng);
      if (!s.steps[i].empty()) return i;
    }
    return 0;
  };
  const std::size_t i = pick_step();
  if (s.steps[i].empty()) return s;
  const std::size_t j = std::uniform_int_distribution<std::size_t>(0, s.steps[i].size() - 1)(rng);
  const Transfer tr = s.steps[i][j];
  switch (std::uniform_int_distribution<int>(0, 7)(rng)) {
    case 0: s.steps[i].erase(s.steps[i].begin() + static_cast<std::ptrdiff_t>(j)); break;
    case 1: s.steps[i].push_back(tr); break;
    case 2:
      s.steps[i].erase(s.steps[i].begin() + static_cast<std::ptrdiff_t>(j));
      if (i + 1 >= s.steps.size()) s.steps.emplace_back();
      s.steps[i + 1].push_back(tr);
      break;
    case 3:
      if (i > 0) {
        s.steps[i].erase(s.steps[i].begin() + static_cast<std::ptrdiff_t>(j));
        s.steps[i - 1].push_back(tr);
      }
      break;
    case 4: s.steps[i][j].port = (tr.port + 1) % t.degree(tr.from); break;
    case 5: s.steps[i][j].msg.dst = (tr.msg.dst + 1) % t.nodes(); break;
    case 6: s.steps.insert(s.steps.begin() + static_cast<std::ptrdiff_t>(i), std::vector<Transfer>{}); break;
    default: std::swap(s.steps[i], s.steps[pick_step()]); break;
  }
  return s;
}

/// A lazy view of an expanded schedule (what a generator's StepSource provides).
class VectorSource : public StepSource {
 public:
  explicit VectorSource(std::vector<std::vector<Transfer>> steps) : steps_(std::move(steps)) {}
  [[nodiscard]] std::size_t step_count() const override { return steps_.size(); }
  [[nodiscard]] std::int64_t transfer_count() const override {
    std::int64_t n = 0;
    for (const auto& s : steps_) n += static_cast<std::int64_t>(s.size());
    return n;
  }
  class Cursor : public StepCursor {
   public:
    explicit Cursor(const VectorSource& s) : s_(s) {}
    bool next(std::vector<Transfer>& out) override {
      if (i_ >= s_.steps_.size()) {
        out.clear();
        return false;
      }
      out = s_.steps_[i_++];
      return true;
    }

   private:
    const VectorSource& s_;
    std::size_t i_ = 0;
  };
  [[nodiscard]] std::unique_ptr<StepCursor> cursor() const override { return std::make_unique<Cursor>(*this); }

 private:
  std::vector<std::vector<Transfer>> steps_;
};

Schedule lazy_copy(const Schedule& s) {
  Schedule l{s.topology, s.model, s.algorithm, {}};
  l.source = std::make_shared<VectorSource>(s.steps);
  return l;
}

}  // namespace

TEST_CASE("the O(transfers) verifier equals the step-by-step replay, faults included", "[scale]") {
  std::mt19937 rng(13);
  const std::vector<std::pair<std::string, Model>> cases = {
      {"ring:5", Model::SinglePort}, {"torus:3x4", Model::SinglePort}, {"hypercube:3", Model::SinglePort},
      {"mesh:3x3", Model::SinglePort}, {"ring:6", Model::AllPort}, {"torus:3x3", Model::AllPort},
      {"hypercube:3", Model::Nic}, {"torus:4x4", Model::Nic}, {"torus:6x6@linear", Model::AllPort},
      {"ghc:3x2", Model::SinglePort}};
  for (const auto& [spec, model] : cases) {
    const Topology t = parse_topology(spec);
    Schedule good = model == Model::SinglePort && t.is_product() && !t.is_partial() ? a2_schedule(t)
                                                                                   : pairwise_schedule(t, model);
    INFO(spec << " " << to_string(model));
    require_same(verify(t, good), replay_verify(t, good, std::nullopt));
    REQUIRE(verify(t, good).ok);
    for (Model other : {Model::SinglePort, Model::AllPort, Model::Nic}) {  // the same transfers under every model
      Schedule m = good;
      m.model = other;
      require_same(verify(t, m, 3), replay_verify(t, m, 3));
    }
    for (int k = 0; k < 150; ++k) {
      Schedule bad = good;
      const int faults = 1 + k % 3;
      for (int f = 0; f < faults; ++f) bad = inject(t, std::move(bad), rng);
      INFO("fault round " << k);
      require_same(verify(t, bad), replay_verify(t, bad, std::nullopt));
    }
  }
}

TEST_CASE("lazy schedules verify, count and write as their expansion", "[scale]") {
  for (const std::string spec : {"hypercube:4", "torus:4x3", "ring:7"}) {
    const Topology t = parse_topology(spec);
    const Schedule s = a2_schedule(t);
    REQUIRE_FALSE(s.lazy());
    const Schedule l = lazy_copy(s);
    REQUIRE(l.lazy());
    REQUIRE(l.transfer_count() == s.transfer_count());
    REQUIRE(l.step_count() == s.steps.size());
    const VerifyReport a = verify(t, l, static_cast<std::int64_t>(s.steps.size()));
    require_same(a, verify(t, s, static_cast<std::int64_t>(s.steps.size())));
    require_same(verify(t, l, static_cast<std::int64_t>(s.steps.size())), a);  // second call: the kept report
    std::ostringstream x, y;
    write_schedule(x, t, s);
    write_schedule(y, t, l);
    REQUIRE(x.str() == y.str());
    Schedule m = l;
    m.materialize();
    REQUIRE_FALSE(m.lazy());
    REQUIRE(m.steps == s.steps);
  }
}

TEST_CASE("A2's generated steps follow Theorem 2's count and verify single-port", "[scale]") {
  for (const std::string spec : {"hypercube:6", "torus:4x5", "torus:3x3x3", "ring:4*path:3", "ghc:3x4"}) {
    const Topology t = parse_topology(spec);
    const A2Result r = a2(t);
    INFO(spec);
    REQUIRE(static_cast<std::int64_t>(r.schedule.step_count()) == r.predicted_steps);
    std::int64_t hops = 0;  // every message on a shortest path: the transfers are the total status
    for (NodeId v = 0; v < t.nodes(); ++v)
      for (NodeId w = 0; w < t.nodes(); ++w) {
        const auto a = t.coordinates(v), b = t.coordinates(w);
        for (std::size_t i = 0; i < a.size(); ++i) {
          const Factor& f = t.factors()[i];
          const int dd = std::abs(a[i] - b[i]);
          hops += f.kind == FactorKind::Complete ? (dd > 0 ? 1 : 0) : f.kind == FactorKind::Ring ? std::min(dd, f.size - dd) : dd;
        }
      }
    REQUIRE(r.schedule.transfer_count() == hops);
    REQUIRE(verify(t, r.schedule).ok);
  }
}

namespace {

MinSchedule derived_table(const MinNetwork& net, const MinSchedule& s) {
  MinSchedule e = s;
  e.configurations.clear();
  for (int x = 0; x < net.terminals(); ++x) e.configurations.push_back(configuration_from_m0(net, s.m0, x));
  e.m0.clear();
  return e;
}

void require_same_min(const VerifyReport& a, const VerifyReport& b) {
  REQUIRE(a.ok == b.ok);
  REQUIRE(a.steps == b.steps);
  REQUIRE(a.delivered == b.delivered);
  REQUIRE(a.expected == b.expected);
  REQUIRE(a.violation_count == b.violation_count);
  std::vector<std::string> x, y;
  for (const Violation& v : a.violations) x.push_back(v.kind + ": " + v.text);
  for (const Violation& v : b.violations) y.push_back(v.kind + ": " + v.text);
  REQUIRE(x == y);
}

}  // namespace

TEST_CASE("the MIN check from M^0 equals the configuration-by-configuration check, faults included", "[scale]") {
  std::mt19937 rng(2);
  for (Wiring w : {Wiring::Omega, Wiring::Baseline, Wiring::Butterfly}) {
    for (const auto& [n, d] : std::vector<std::pair<int, int>>{{2, 2}, {4, 2}, {8, 2}, {32, 2}, {64, 2}, {9, 3},
                                                                  {27, 3}, {16, 4}, {64, 4}, {25, 5}, {64, 8}}) {
      const MinNetwork net(n, d, w);
      INFO(net.spec());
      const MinSchedule good = latin_schedule(net, zero_m0(net));
      REQUIRE(verify_min_compact(net, good).ok);
      require_same_min(verify_min_compact(net, good, n + 5), verify_min_expanded(net, derived_table(net, good), n + 5));
      for (int k = 0; k < 20; ++k) {
        MinSchedule bad = good;
        // Random M^0 (for d > 2 many are not Latin squares), and idle terminals (lost messages).
        if (k % 2 == 0)
          for (auto& v : bad.m0) v = static_cast<std::uint8_t>(std::uniform_int_distribution<int>(0, d - 1)(rng));
        if (k % 3 != 0) {
          bad.idle.resize(static_cast<std::size_t>(n));
          const auto x = std::uniform_int_distribution<std::size_t>(0, static_cast<std::size_t>(n) - 1)(rng);
          bad.idle[x].push_back(std::uniform_int_distribution<int>(0, n - 1)(rng));
        }
        bad.configurations.clear();
        INFO("fault round " << k);
        const VerifyReport compact = verify_min_compact(net, bad);
        require_same_min(compact, verify_min_expanded(net, derived_table(net, bad)));
        if (k % 3 != 0) REQUIRE_FALSE(compact.ok);
        // verify() picks the compact check when the table is M^0's, the expanded one otherwise.
        MinSchedule both = bad;
        both.configurations = derived_table(net, bad).configurations;
        require_same_min(verify(net, both), compact);
      }
      MinSchedule wrong = good;  // a table that is not M^0's: checked as a table
      if (n >= 4) {
        wrong.configurations[1][0] = static_cast<std::uint8_t>((wrong.configurations[1][0] + 1) % d);
        MinSchedule table = wrong;
        table.m0.clear();
        require_same_min(verify(net, wrong), verify_min_expanded(net, table));
      }
      MinSchedule out_of_range = good;
      out_of_range.configurations.clear();
      out_of_range.m0[0] = static_cast<std::uint8_t>(d);
      const VerifyReport r = verify_min_compact(net, out_of_range);
      REQUIRE_FALSE(r.ok);
      REQUIRE(r.violations.front().kind == "invalid-state");
    }
  }
}

TEST_CASE("exchange tables: Theorem 1 on the table and the verifier on its expansion agree, faults included",
          "[scale]") {
  std::mt19937 rng(1);
  for (const std::string spec : {"ring:5", "ring:6", "ring:8", "hypercube:3", "torus:3x3", "torus:4x4", "torus:5x5",
                                 "torus:6x6", "torus:3x3x3"}) {
    const Topology t = parse_topology(spec);
    const ExchangeTable good = require_exchange_table(t);
    INFO(spec);
    REQUIRE(check_exchange_table(t, good).empty());
    REQUIRE(verify(t, expand_exchange_table(t, good)).ok);
    for (int k = 0; k < 60; ++k) {
      ExchangeTable bad = good;
      std::vector<std::pair<std::size_t, std::size_t>> words;
      for (std::size_t r = 0; r < bad.rows.size(); ++r)
        for (std::size_t i = 0; i < bad.rows[r].size(); ++i) words.emplace_back(r, i);
      const auto [r, i] = words[std::uniform_int_distribution<std::size_t>(0, words.size() - 1)(rng)];
      // Faults keep the table well formed (rows sorted, no overlapping words in a row: a layout
      // rule of the table, not of the schedule), so both checks judge the same schedule.
      auto place = [&](std::size_t row, const PlacedWord& word) {
        const int len = static_cast<int>(word.letters.size());
        for (int tries = 0; tries < 50; ++tries) {
          const int c = std::uniform_int_distribution<int>(0, std::max(0, bad.columns - len))(rng);
          const bool free = std::none_of(bad.rows[row].begin(), bad.rows[row].end(), [&](const PlacedWord& o) {
            return c < o.column + static_cast<int>(o.letters.size()) && o.column < c + len;
          });
          if (!free) continue;
          PlacedWord moved = word;
          moved.column = c;
          bad.rows[row].push_back(moved);
          std::sort(bad.rows[row].begin(), bad.rows[row].end(),
                    [](const PlacedWord& a, const PlacedWord& b) { return a.column < b.column; });
          return;
        }
      };
      const PlacedWord w = bad.rows[r][i];
      switch (k % 4) {
        case 0:  // moved to another column
          bad.rows[r].erase(bad.rows[r].begin() + static_cast<std::ptrdiff_t>(i));
          place(r, w);
          break;
        case 1: bad.rows[r].erase(bad.rows[r].begin() + static_cast<std::ptrdiff_t>(i)); break;  // missing
        case 2:  // a letter changed
          bad.rows[r][i].letters[std::uniform_int_distribution<std::size_t>(0, w.letters.size() - 1)(rng)] =
              std::uniform_int_distribution<int>(0, bad.generator_count() - 1)(rng);
          break;
        default: place(std::uniform_int_distribution<std::size_t>(0, bad.rows.size() - 1)(rng), w);  // duplicated
      }
      INFO("fault round " << k);
      const std::vector<std::string> errors = check_exchange_table(t, bad);
      const bool table_ok = errors.empty();
      for (const std::string& e : errors) UNSCOPED_INFO(e);
      const VerifyReport expanded = verify(t, expand_exchange_table(t, bad), bad.columns);
      REQUIRE(table_ok == expanded.ok);
    }
  }
}

TEST_CASE("a lazy table expansion streams the same steps and verifies from the table", "[scale]") {
  for (const std::string spec : {"ring:6", "hypercube:3", "torus:3x3", "torus:5x5", "torus:6x6", "torus:3x3x3"}) {
    const Topology t = parse_topology(spec);
    INFO(spec);
    ExchangeTable table = require_exchange_table(t);
    const Schedule expanded = expand_exchange_table(t, table);
    REQUIRE_FALSE(expanded.lazy());
    const Schedule lazy = expand_exchange_table(t, table, 0);
    REQUIRE(lazy.lazy());
    REQUIRE(lazy.transfer_count() == expanded.transfer_count());
    Schedule m = lazy;
    m.materialize();
    REQUIRE(m.steps == expanded.steps);
    const VerifyReport compact = verify(t, lazy, table.columns);  // Theorem 1, no replay
    require_same(compact, replay_verify(t, expanded, table.columns));
    REQUIRE(compact.ok);
    // A broken table is replayed, violation by violation.
    table.rows[0].erase(table.rows[0].begin());
    const Schedule broken = expand_exchange_table(t, table, 0);
    require_same(verify(t, broken, table.columns), replay_verify(t, expand_exchange_table(t, table), table.columns));
    REQUIRE_FALSE(verify(t, broken).ok);
  }
}

TEST_CASE("a lazy A2 schedule round-trips through the generated file form", "[scale]") {
  const Topology t = parse_topology("torus:4x6");
  const Schedule lazy = a2(t, 0).schedule;
  REQUIRE(lazy.lazy());
  std::ostringstream out;
  write_schedule(out, t, lazy);
  const std::string text = out.str();
  REQUIRE(text.find("\ngenerated a2 ") != std::string::npos);
  std::istringstream in(text);
  const LoadedSchedule loaded = read_schedule(in, "g.sched");
  Schedule back = std::get<Schedule>(loaded.schedule);
  REQUIRE_FALSE(back.lazy());  // expanded for callers that index steps (sim, plot)
  std::istringstream again(text);  // as `totex verify` reads it (lazy when a2 would be)
  const LoadedSchedule for_verify = read_schedule(again, "g.sched", true);
  REQUIRE(verify(t, std::get<Schedule>(for_verify.schedule), for_verify.claimed_steps).ok);
  REQUIRE(back.algorithm == "a2");
  back.materialize();
  REQUIRE(back.steps == a2_schedule(t).steps);
  REQUIRE(verify(t, back, loaded.claimed_steps).ok);
  REQUIRE(transfer_checksum(back) == transfer_checksum(lazy));

  auto fails = [&](const std::string& from, const std::string& to, const std::string& what) {
    std::string bad = text;
    const auto at = bad.find(from);
    REQUIRE(at != std::string::npos);
    bad.replace(at, from.size(), to);
    std::istringstream bin(bad);
    try {
      (void)read_schedule(bin, "g.sched");
      FAIL("accepted: " << what);
    } catch (const FileError& e) {
      REQUIRE(std::string(e.what()).find("g.sched:9: " + what) != std::string::npos);
    }
  };
  const std::string gen_line = text.substr(text.find("\ngenerated a2 ") + 1);
  const std::string sum = gen_line.substr(gen_line.rfind(' ') + 1, 16);
  fails(sum, std::string(sum.substr(0, 15)) + (sum[15] == '0' ? "1" : "0"), "checksum");
  fails("generated a2 " + std::to_string(lazy.transfer_count()), "generated a2 " + std::to_string(lazy.transfer_count() + 1),
        "the file has");
  fails("generated a2", "generated pairwise", "generated algorithm 'pairwise'");
}

TEST_CASE("a replay past the time limit is refused before it starts, with the estimate", "[scale]") {
  const Topology t = parse_topology("torus:8x8");
  const Schedule lazy = a2(t, 0).schedule;  // 16 K transfers: 0.4 ms at the assumed replay speed
  // The limit is an option of the call (the CLI fills it from TOTEX_MAX_SECONDS); the library
  // reads no environment.
  RunLimits tight;
  tight.seconds = 0.0001;
  tight.how_to_raise = "raise the test's limit";
  try {
    (void)verify(t, lazy, std::nullopt, tight);
    FAIL("not refused");
  } catch (const ResourceError& e) {
    const std::string what = e.what();
    REQUIRE(what.rfind("resources: verifying torus:8x8: 0 M transfers to replay", 0) == 0);
    REQUIRE(what.find("more than the 0.0001 s totex allows itself; raise the test's limit") != std::string::npos);
  }
  ::setenv("TOTEX_MAX_SECONDS", "0.0001", 1);
  REQUIRE(verify(t, lazy).ok);  // the default limit (300 s) lets it run, whatever the environment says
  ::unsetenv("TOTEX_MAX_SECONDS");
  // The message table beyond the memory budget is refused the same way, before allocating.
  REQUIRE_THROWS_AS(StepVerifier(parse_topology("torus:200x200"), Model::SinglePort), ResourceError);
}
