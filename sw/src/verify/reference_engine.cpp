// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_map>

#include "totex/verify/reference_engine.hpp"
#include "totex/error.hpp"
#include "totex/verify/message_index.hpp"
#include "totex/generators/generators.hpp"
#include "totex/traffic/min_terminals.hpp"

namespace totex {
namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

std::string sim_result_json(const SimResult& r) {
  nlohmann::json j{{"engine", r.engine},
                   {"cycles", r.cycles},
                   {"expected_cycles", r.expected_cycles},
                   {"delivered", r.delivered},
                   {"expected_delivered", r.expected_delivered},
                   {"errors", r.errors},
                   {"wall_seconds", r.wall_seconds},
                   {"simulated_cycles", r.simulated_cycles},
                   {"cycles_per_second", r.cycles_per_second()},
                   {"trace_sha256", r.trace_sha256},
                   {"passed", r.ok()}};
  if (r.run_edges > 0) {
    j["run_edges"] = r.run_edges;
    j["run_seconds"] = r.run_seconds;
    j["run_cycles_per_second"] = r.run_cycles_per_second();
  }
  if (r.load_seconds > 0) j["load_seconds"] = r.load_seconds;
  if (!r.wave.empty()) j["wave"] = r.wave;
  if (!r.deliveries_per_cycle.empty()) j["deliveries_per_cycle"] = r.deliveries_per_cycle;
  if (!r.recovery.empty()) j["recovery"] = nlohmann::json::parse(r.recovery);
  if (r.reordered >= 0) j["reordered_flits"] = r.reordered;
  return j.dump();
}

SimResult parse_sim_result(const std::string& json) {
  try {
    const nlohmann::json j = nlohmann::json::parse(json);
    SimResult r;
    r.engine = j.at("engine");
    r.cycles = j.at("cycles");
    r.expected_cycles = j.at("expected_cycles");
    r.delivered = j.at("delivered");
    r.expected_delivered = j.at("expected_delivered");
    r.errors = j.at("errors").get<std::vector<std::string>>();
    r.wall_seconds = j.at("wall_seconds");
    r.simulated_cycles = j.at("simulated_cycles");
    r.trace_sha256 = j.at("trace_sha256");
    if (j.contains("run_edges")) {
      r.run_edges = j.at("run_edges");
      r.run_seconds = j.at("run_seconds");
    }
    if (j.contains("load_seconds")) r.load_seconds = j.at("load_seconds");
    if (j.contains("wave")) r.wave = j.at("wave");
    if (j.contains("deliveries_per_cycle")) r.deliveries_per_cycle = j.at("deliveries_per_cycle").get<std::vector<std::int64_t>>();
    if (j.contains("recovery")) r.recovery = j.at("recovery").dump();
    if (j.contains("reordered_flits")) r.reordered = j.at("reordered_flits");
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("not a simulation result: ") + e.what());
  }
}

void fill_from_scoreboard(SimResult& r, Scoreboard& board, std::int64_t expected_cycles) {
  board.finish();
  r.cycles = board.last_cycle() + 1;
  r.expected_cycles = expected_cycles;
  r.delivered = board.delivered();
  r.expected_delivered = board.expected_count();
  r.errors = board.errors();
  r.deliveries_per_cycle = board.per_cycle();
  if (r.cycles != expected_cycles)
    r.errors.push_back("run took " + std::to_string(r.cycles) + " cycles, the schedule predicts " +
                       std::to_string(expected_cycles));
  r.trace_sha256 = trace_sha256(board.trace());
}

SimResult run_reference(const MinNetwork& net, const MinSchedule& s, std::optional<std::int64_t> claimed_steps) {
  const auto start = std::chrono::steady_clock::now();
  // Phase 1: labels through the MIN give every processor its send order.
  const auto order = label_phase_send_order(net, s);
  // Phase 2: each processor sends the message it prepared for that step; the MIN decides where it
  // lands. A traffic's pair sends its flits in step order (flit k in its k-th step).
  const std::optional<Traffic> traffic =
      s.traffic.is_all() ? std::nullopt : read_traffic_again(min_traffic_nodes(net), s.traffic, "the schedule");
  Scoreboard board = traffic ? Scoreboard(net, expected_deliveries(net, s), *traffic) : Scoreboard(net, expected_deliveries(net, s));
  std::unordered_map<std::int64_t, std::int32_t> sent;
  for (std::size_t x = 0; x < s.configurations.size(); ++x) {
    const std::vector<int> perm = net.permutation(s.configurations[x]);
    for (std::size_t src = 0; src < order.size(); ++src) {
      const int dst = order[src][x];
      if (dst < 0) continue;
      const auto step = static_cast<std::int64_t>(x);
      const std::int32_t flit = traffic ? sent[static_cast<std::int64_t>(src) * net.terminals() + dst]++ : 0;
      board.observe(step + net.stages() - 1, perm[src], static_cast<NodeId>(src), dst, step,
                    payload_of(static_cast<NodeId>(src), dst, flit));
    }
  }
  SimResult r;
  r.engine = "ref";
  fill_from_scoreboard(r, board, claimed_steps.value_or(s.steps(net)));
  r.wall_seconds = seconds_since(start);
  return r;
}

SimResult run_reference(const Topology& t, const Schedule& s, std::optional<std::int64_t> claimed_steps) {
  const auto start = std::chrono::steady_clock::now();
  // What must arrive: every processor pair, or the pairs of the traffic the schedule records.
  const std::optional<Traffic> traffic = recorded_traffic(t, s);
  Scoreboard board = traffic ? Scoreboard(t, expected_deliveries(t, s), *traffic) : Scoreboard(t, expected_deliveries(t, s));
  // Where every message is: it starts at its source, moves only when a transfer takes it from the
  // node it is at, and leaves the network at its destination.
  const auto n = static_cast<std::size_t>(t.nodes());
  // Message m = (src*N + dst) * F + flit, F the most flits of a pair (1 for a one-flit exchange).
  std::size_t flits = traffic ? static_cast<std::size_t>(std::max<std::int64_t>(1, heaviest_pair(*traffic).flits)) : 1;
  for (const auto& step : s.steps)
    for (const Transfer& tr : step) flits = std::max(flits, static_cast<std::size_t>(std::max(0, tr.msg.flit)) + 1);
  check_memory(std::uint64_t{n} * n * flits, 8, "the reference engine on " + t.spec());
  constexpr NodeId kEjected = -1;
  std::vector<NodeId> at(n * n * flits);
  std::vector<std::int32_t> moved(at.size(), -1);  // the last step each message crossed a link in
  for (std::size_t m = 0; m < at.size(); ++m) at[m] = static_cast<NodeId>(m / flits / n);
  std::vector<std::string> stray;  // transfers with nothing to carry, and breaches of the model
  std::int64_t stray_count = 0;
  const auto note = [&](std::string text) {
    if (++stray_count <= 10) stray.push_back(std::move(text));
  };
  const auto msg_text = [flits](const Message& m) {
    return "message (" + std::to_string(m.src) + "," + std::to_string(m.dst) + ")" +
           (flits > 1 ? "#" + std::to_string(m.flit) : std::string());
  };
  // The model's limits, checked here as the hardware checks them (a router drives a link once per
  // step, has no relay buffer under all-port and nic; a nic NIC injects and ejects one message per
  // step; a single-port node sends and receives one): a schedule that breaks them fails on every engine,
  // not only on those with RTL checks.
  std::vector<std::size_t> link_base(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) link_base[v + 1] = link_base[v] + static_cast<std::size_t>(t.degree(static_cast<NodeId>(v)));
  std::vector<std::int32_t> link_step(link_base[n], -1);
  std::vector<std::int32_t> send_step(n, -1), recv_step(n, -1), inject_step(n, -1), eject_step(n, -1);
  const bool buffered = s.model == Model::SinglePort;
  std::vector<std::size_t> at_relay;  // messages that reached a relay in the previous step
  std::vector<std::pair<std::size_t, NodeId>> moves;
  std::int64_t steps = 0;
  for (std::size_t step = 0; step < s.steps.size(); ++step) {
    moves.clear();
    const auto st = static_cast<std::int32_t>(step);
    const std::string where_step = "step " + std::to_string(step) + ", node ";
    for (const Transfer& tr : s.steps[step]) {
      const Message& msg = tr.msg;
      if (msg.src < 0 || msg.src >= t.nodes() || msg.dst < 0 || msg.dst >= t.nodes() || tr.from < 0 ||
          tr.from >= t.nodes() || tr.port < 0 || tr.port >= t.degree(tr.from))
        continue;  // no such message or link: the verifier names it; nothing moves here
      const NodeId to = t.neighbor(tr.from, tr.port);
      const std::string where = where_step + std::to_string(tr.from) + ", link " + std::to_string(tr.from) + "->" +
                                std::to_string(to) + ": ";
      std::int32_t& link = link_step[link_base[static_cast<std::size_t>(tr.from)] + static_cast<std::size_t>(tr.port)];
      if (link == st) {  // two messages on one link: the second is lost
        note(where + msg_text(msg) + " is a second message on the link in this step; it is lost");
        continue;
      }
      link = st;
      if (msg.flit < 0) continue;  // no such message: the verifier names it
      const std::size_t m = (static_cast<std::size_t>(msg.src) * n + static_cast<std::size_t>(msg.dst)) * flits +
                            static_cast<std::size_t>(msg.flit);
      if (at[m] != tr.from) {
        note(where + msg_text(msg) + " is not there (" +
             (at[m] == kEjected ? std::string("delivered already") : "at node " + std::to_string(at[m])) +
             "), the transfer carries nothing");
        continue;
      }
      if (moved[m] == st) {
        note(where + msg_text(msg) + " is sent a second time in the same step, the transfer carries nothing");
        continue;
      }
      if (s.model == Model::SinglePort) {
        if (send_step[static_cast<std::size_t>(tr.from)] == st) note(where + "single-port: the node sends a second message");
        if (recv_step[static_cast<std::size_t>(to)] == st) note(where + "single-port: node " + std::to_string(to) + " receives a second message");
        send_step[static_cast<std::size_t>(tr.from)] = recv_step[static_cast<std::size_t>(to)] = st;
      } else if (s.model == Model::Nic) {
        // The injection is the first hop (a detour may pass its source again, as a relay).
        const bool injects = moved[m] < 0;
        if (injects && inject_step[static_cast<std::size_t>(tr.from)] == st) note(where + "nic: the NIC injects a second message");
        if (to == msg.dst && eject_step[static_cast<std::size_t>(to)] == st) note(where + "nic: node " + std::to_string(to) + " ejects a second message");
        if (injects) inject_step[static_cast<std::size_t>(tr.from)] = st;
        if (to == msg.dst) eject_step[static_cast<std::size_t>(to)] = st;
      }
      moved[m] = st;
      moves.emplace_back(m, to);
    }
    // Without relay buffers a message that reached a relay in the previous step leaves in this one.
    if (!buffered)
      for (const std::size_t m : at_relay)
        if (moved[m] != st && at[m] != kEjected)
          note(where_step + std::to_string(at[m]) + ": message (" + std::to_string(m / flits / n) + "," +
               std::to_string(m / flits % n) + ")" + (flits > 1 ? "#" + std::to_string(m % flits) : std::string()) +
               " waits at a relay; " + to_string(s.model) + " has no relay buffer");
    at_relay.clear();
    // Moves take effect at the end of the step: a message crosses at most one link per step.
    for (const auto& [m, to] : moves) {
      const auto src = static_cast<NodeId>(m / flits / n), dst = static_cast<NodeId>(m / flits % n);
      if (to == dst) {
        at[m] = kEjected;
        board.observe(static_cast<std::int64_t>(step), to, src, dst, static_cast<std::int64_t>(step),
                      payload_of(src, dst, static_cast<std::int32_t>(m % flits)));
      } else {
        at[m] = to;
        at_relay.push_back(m);
      }
    }
    if (!s.steps[step].empty()) steps = static_cast<std::int64_t>(step) + 1;
  }
  SimResult r;
  r.engine = "ref";
  fill_from_scoreboard(r, board, claimed_steps.value_or(steps));
  if (stray_count > 10) stray.push_back("... and " + std::to_string(stray_count - 10) + " more transfers that carry nothing or break the model");
  r.errors.insert(r.errors.end(), stray.begin(), stray.end());
  r.wall_seconds = seconds_since(start);
  return r;
}

}  // namespace totex
