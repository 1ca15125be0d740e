// SPDX-License-Identifier: Apache-2.0
#include "totex/verify.hpp"

#include <algorithm>

#include "totex/error.hpp"

namespace totex {
namespace {

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

}  // namespace

VerifyReport verify(const Topology& t, const Schedule& s, std::optional<std::int64_t> claimed_steps) {
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

VerifyReport verify(const MinNetwork& net, const MinSchedule& s, std::optional<std::int64_t> claimed_steps) {
  VerifyReport report;
  Reporter rep(report);
  const auto n = static_cast<std::size_t>(net.terminals());
  check_memory(std::uint64_t{n} * n, 4, "verifying " + net.spec() + " (" + std::to_string(n) + "^2 messages)");
  if (!s.topology.empty() && s.topology != net.spec())
    rep.add("topology", -1, -1, "", "schedule is for '" + s.topology + "', not '" + net.spec() + "'");
  std::vector<int> delivered_step(n * n, -1);
  for (std::size_t x = 0; x < s.configurations.size(); ++x) {
    const int step = static_cast<int>(x);
    const MinConfiguration& c = s.configurations[x];
    if (c.size() != static_cast<std::size_t>(net.switches())) {
      rep.add("config-size", step, -1, "", "configuration has " + std::to_string(c.size()) + " states, expected " +
              std::to_string(net.switches()));
      continue;
    }
    bool states_ok = true;
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (c[i] < net.radix()) continue;
      states_ok = false;
      const int stage = static_cast<int>(i) / net.switches_per_stage();
      rep.add("invalid-state", step, -1, "", "stage " + std::to_string(stage) + ", switch " +
              std::to_string(static_cast<int>(i) % net.switches_per_stage()) + ": state " + std::to_string(c[i]) +
              " >= d = " + std::to_string(net.radix()));
    }
    if (!states_ok) continue;
    const std::vector<int> perm = net.permutation(c);
    for (std::size_t src = 0; src < n; ++src) {
      if (!s.sends(x, static_cast<int>(src))) continue;
      const auto dst = static_cast<std::size_t>(perm[src]);
      const std::size_t m = src * n + dst;
      if (delivered_step[m] >= 0) {
        rep.add("delivered-twice", step, static_cast<NodeId>(dst), "",
                "message " + msg_text({static_cast<NodeId>(src), static_cast<NodeId>(dst)}) +
                " was already delivered in step " + std::to_string(delivered_step[m]));
      } else {
        delivered_step[m] = step;
        ++report.delivered;
      }
    }
  }
  report.expected = static_cast<std::int64_t>(n * n);
  for (std::size_t m = 0; m < n * n; ++m) {
    if (delivered_step[m] < 0)
      rep.add("lost", -1, static_cast<NodeId>(m % n), "", "message " +
              msg_text({static_cast<NodeId>(m / n), static_cast<NodeId>(m % n)}) + " is never delivered");
  }
  report.steps = s.steps(net);
  if (claimed_steps && *claimed_steps != report.steps)
    rep.add("step-count", -1, -1, "", "schedule claims " + std::to_string(*claimed_steps) + " steps but takes " +
            std::to_string(report.steps));
  report.ok = report.violation_count == 0;
  return report;
}

}  // namespace totex
