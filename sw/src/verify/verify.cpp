// SPDX-License-Identifier: Apache-2.0
#include "totex/verify/verify.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <functional>
#include <limits>
#include <memory>
#include <queue>
#include <unordered_map>

#include "totex/error.hpp"
#include "totex/generators/generators.hpp"
#include "totex/traffic/min_terminals.hpp"
#include "totex/verify/message_index.hpp"
#include "totex/progress.hpp"

namespace totex {
namespace {

std::string msg_text(const Message& m) {
  return "(" + std::to_string(m.src) + "," + std::to_string(m.dst) + ")";
}

/// "step S, node V, link L: what" with the parts that apply.
std::string located(int step, NodeId node, const std::string& link, const std::string& what) {
  std::string where;
  if (step >= 0) where += "step " + std::to_string(step);
  if (node >= 0) where += (where.empty() ? "" : ", ") + std::string("node ") + std::to_string(node);
  if (!link.empty()) where += (where.empty() ? "" : ", ") + std::string("link ") + link;
  return (where.empty() ? "" : where + ": ") + what;
}

/// Collects violations, keeping the first kMaxReported in full.
class Reporter {
 public:
  explicit Reporter(VerifyReport& r) : report_(r) {}
  /// `what()` builds the text, called only for the first kMaxReported (counting the rest is cheap).
  template <class What>
  void add(const char* kind, int step, NodeId node, const What& what) {
    ++report_.violation_count;
    if (report_.violations.size() >= VerifyReport::kMaxReported) return;
    report_.violations.push_back({kind, step, node, "", located(step, node, "", what())});
  }

 private:
  VerifyReport& report_;
};

std::string link_text(NodeId from, NodeId to) { return std::to_string(from) + "->" + std::to_string(to); }

}  // namespace

std::uint64_t StepVerifier::memory_bytes(const Topology& t, const Traffic* traffic) {
  const auto n = static_cast<std::uint64_t>(t.nodes());
  const MessageIndex index(t, traffic);
  return index.size() * sizeof(MessageState) + n * sizeof(NodeState) + static_cast<std::uint64_t>(t.links()) * 12;
}

void StepVerifier::FreeDeleter::operator()(MessageState* p) const { std::free(p); }

StepVerifier::StepVerifier(const Topology& t, Model model, const std::string& schedule_topology, const Traffic* traffic,
                           const TrafficTag* schedule_traffic)
    : t_(t), index_(t, traffic), model_(model), n_(static_cast<std::size_t>(t.nodes())), may_buffer_(allows_relay_buffering(model)) {
  check_memory(index_.size(), sizeof(MessageState),
               is_all_traffic(t, traffic) ? "verifying " + t.spec() + " (" + std::to_string(n_) + "^2 messages)"
                                          : "verifying " + t.spec() + " with traffic " + traffic->spec() + " (" +
                                                std::to_string(index_.size()) + " flits)");
  if (!schedule_topology.empty() && schedule_topology != t.spec())
    add(pre_, "topology", -1, -1, -1, -1, [&] { return "schedule is for '" + schedule_topology + "', not '" + t.spec() + "'"; });
  if (schedule_traffic != nullptr)
    if (const std::string other = traffic_mismatch(t, *schedule_traffic, traffic); !other.empty())
      add(pre_, "traffic", -1, -1, -1, -1, [&] { return other; });
  msg_.reset(static_cast<MessageState*>(std::calloc(std::max<std::size_t>(index_.size(), 1), sizeof(MessageState))));
  if (!msg_) throw std::bad_alloc();
  node_.resize(n_);
  touched_.reserve(n_);
  link_step_.assign(static_cast<std::size_t>(t.links()), -1);
  link_msg_.assign(static_cast<std::size_t>(t.links()), 0);
}

template <class What>
void StepVerifier::add(std::vector<Violation>& list, const char* kind, int step, NodeId node, NodeId link_from,
                       NodeId link_to, const What& what) {
  ++report_.violation_count;
  if (list.size() >= VerifyReport::kMaxReported) return;
  const std::string link = link_from < 0 ? "" : link_text(link_from, link_to);
  list.push_back({kind, step, node, link, located(step, node, link, what())});
}

// A relay's `held` count changes only when a message leaves or reaches it, so the messages it
// stores through the steps it is not touched are the count after its last touch; those steps
// are accounted at its next touch (step()'s touch) or in finish(). Per node the largest count
// seen is kept (stored_max_seen), so the per-transfer path writes only that node's state.
void StepVerifier::close_step() {
  for (NodeId v : touched_) {
    NodeState& ns = node_[static_cast<std::size_t>(v)];
    if (ns.stored > ns.stored_max_seen) ns.stored_max_seen = ns.stored;
  }
  touched_.clear();
}

// Message m waited at `at` through steps (from_step, to_step): one violation per step, as the
// step-by-step model reports it.
void StepVerifier::wait_violations(std::size_t m, int from_step, int to_step, NodeId at) {
  const Message msg = index_.message(m);
  for (int st = from_step + 1; st < to_step; ++st) {
    if (buffering_.size() >= VerifyReport::kMaxReported) {
      report_.violation_count += to_step - st;
      return;
    }
    add(buffering_, "buffering", st, at, -1, -1, [&] { return "message " + index_.text(msg) + " waits at a relay; " + to_string(model_) +
        " forbids intermediate buffering"; });
  }
}

void StepVerifier::step(const Transfer* transfers, std::size_t count) {
  const int step = step_++;
  const int nn = static_cast<int>(n_);
  if (count > 0) last_busy_step_ = step;
  constexpr std::size_t kAhead = 48;  // the message table is far larger than the caches
  const auto msg_text = [&](const Message& mm) { return index_.text(mm); };
  for (std::size_t i = 0; i < count; ++i) {
    const Transfer& tr = transfers[i];
    const Message& msg = tr.msg;
    if (i + kAhead < count) {
      const std::size_t ma = index_.slot(transfers[i + kAhead].msg);
      if (ma != MessageIndex::npos) __builtin_prefetch(&msg_[ma], 1);
    }
    // Destination-major for all: the messages one step of a product schedule moves have consecutive sources.
    const std::size_t m = index_.slot(msg);
    if (m == MessageIndex::npos) {  // not a message of this exchange (a placed torus: empty nodes only forward)
      add(stepping_, "bad-message", step, tr.from, -1, -1, [&] { return index_.why_not(msg); });
      continue;
    }
    if (tr.from < 0 || tr.from >= nn || tr.port < 0 || tr.port >= t_.degree(tr.from)) {
      add(stepping_, "invalid-link", step, tr.from, -1, -1, [&] { return "message " + msg_text(msg) + " uses port " +
          std::to_string(tr.port) + ", which node " + std::to_string(tr.from) + " does not have"; });
      continue;
    }
    const NodeId to = t_.neighbor(tr.from, tr.port);
    MessageState& st = msg_[m];
    const NodeId at = st.moved1 > 0 ? st.pos : msg.src;
    if (st.moved1 > 0 && at == msg.dst) {
      add(stepping_, "delivered-twice", step, tr.from, tr.from, to, [&] { return "message " + msg_text(msg) +
          " was already delivered in step " + std::to_string(st.moved1 - 1) + " and moves again"; });
      continue;
    }
    if (st.moved1 == step + 1) {
      add(stepping_, "double-move", step, tr.from, tr.from, to, [&] { return "message " + msg_text(msg) +
          " crosses a second link in the same step"; });
      continue;
    }
    if (at != tr.from) {
      add(stepping_, "invalid-path", step, tr.from, tr.from, to, [&] { return "message " + msg_text(msg) +
          " is at node " + std::to_string(at) + ", not at node " + std::to_string(tr.from); });
      continue;
    }
    const auto l = static_cast<std::size_t>(t_.link_id(tr.from, tr.port));
    if (link_step_[l] == step) {
      const std::size_t other = link_msg_[l];
      add(stepping_, "link-reuse", step, tr.from, tr.from, to, [&] { return "link carries message " +
          msg_text(index_.message(other)) + " and message " + msg_text(msg); });
    }
    link_step_[l] = step;
    link_msg_[l] = m;
    NodeState& fs = node_[static_cast<std::size_t>(tr.from)];
    NodeState& ts = node_[static_cast<std::size_t>(to)];
    if (fs.stamp != step) {
      fs.stamp = step;
      fs.sends = fs.receives = fs.injects = fs.ejects = 0;
    }
    if (ts.stamp != step) {
      ts.stamp = step;
      ts.sends = ts.receives = ts.injects = ts.ejects = 0;
    }
    if (model_ == Model::SinglePort) {
      if (++fs.sends == 2)
        add(stepping_, "send-limit", step, tr.from, tr.from, to, [&] { return "single-port node sends a second message " + msg_text(msg); });
      if (++ts.receives == 2)
        add(stepping_, "receive-limit", step, to, tr.from, to, [&] { return "single-port node receives a second message " + msg_text(msg); });
    } else if (model_ == Model::Nic) {
      if (st.moved1 == 0 && ++fs.injects == 2)
        add(stepping_, "inject-limit", step, tr.from, tr.from, to, [&] { return "NIC injects a second message " + msg_text(msg); });
      if (to == msg.dst && ++ts.ejects == 2)
        add(stepping_, "eject-limit", step, to, tr.from, to, [&] { return "NIC ejects a second message " + msg_text(msg); });
    }
    // touch_held inline (two calls per relayed transfer: the hot path of a 10^8-transfer replay).
    auto touch = [&](NodeState& ns, NodeId v) {
      if (ns.held_stamp == step) return;
      if (ns.held > ns.stored_max_seen && ns.held_stamp < step - 1) ns.stored_max_seen = ns.held;
      ns.held_stamp = step;
      ns.stored = ns.held;
      touched_.push_back(v);
    };
    if (st.moved1 > 0) {  // leaves a relay it reached in step moved1 - 1
      if (!may_buffer_ && st.moved1 < step) wait_violations(m, st.moved1 - 1, step, tr.from);
      touch(fs, tr.from);
      --fs.held;
      --fs.stored;
    }
    st.pos = to;
    st.moved1 = step + 1;
    if (to == msg.dst) {
      ++report_.delivered;
    } else {
      touch(ts, to);
      ++ts.held;
    }
  }
  close_step();
}

VerifyReport StepVerifier::finish(std::optional<std::int64_t> claimed_steps) {
  const int steps = step_;
  for (std::size_t v = 0; v < n_; ++v) {  // relays that hold messages through the last steps
    const NodeState& ns = node_[v];
    report_.max_buffered = std::max<std::int64_t>(report_.max_buffered, ns.stored_max_seen);
    if (ns.held > 0 && ns.held_stamp < steps - 1)
      report_.max_buffered = std::max<std::int64_t>(report_.max_buffered, ns.held);
  }
  std::vector<Violation> post;
  report_.expected = index_.expected_count();
  // One pass in memory order; the first lost messages in (source, destination, flit) order are kept.
  const auto key_of = [&](const Message& mm) {
    return (static_cast<std::uint64_t>(mm.src) * n_ + static_cast<std::uint64_t>(mm.dst)) * (std::uint64_t{1} << 25) +
           static_cast<std::uint64_t>(mm.flit);
  };
  std::priority_queue<std::pair<std::uint64_t, std::size_t>> first_lost;  // (key, slot), the largest key on top
  std::int64_t lost = 0;
  for (std::size_t m = 0; m < index_.size(); ++m) {
    const MessageState& st = msg_[m];
    if (st.moved1 == 0 && !index_.expected(m)) continue;  // (fast path: a slot never touched and not a message)
    const Message mm = index_.message(m);
    if (mm.src == mm.dst || (st.moved1 > 0 && st.pos == mm.dst)) continue;
    if (st.moved1 > 0 && !may_buffer_) wait_violations(m, st.moved1 - 1, steps, st.pos);  // waits to the end
    if (!index_.expected(m)) continue;
    ++lost;
    first_lost.emplace(key_of(mm), m);
    if (first_lost.size() > VerifyReport::kMaxReported) first_lost.pop();
  }
  std::vector<std::size_t> slots;
  for (; !first_lost.empty(); first_lost.pop()) slots.push_back(first_lost.top().second);
  std::reverse(slots.begin(), slots.end());
  report_.violation_count += lost - static_cast<std::int64_t>(slots.size());
  for (std::size_t m : slots) {
    const Message mm = index_.message(m);
    const MessageState& st = msg_[m];
    if (st.moved1 == 0 || st.pos == mm.src)  // (back at its source counts as never sent, as it always has)
      add(post, "lost", -1, mm.src, -1, -1, [&] { return "message " + index_.text(mm) + " is never sent"; });
    else
      add(post, "lost", -1, st.pos, -1, -1, [&] { return "message " + index_.text(mm) + " ends at node " + std::to_string(st.pos) +
          ", not at its destination " + std::to_string(mm.dst); });
  }
  report_.steps = last_busy_step_ + 1;
  if (claimed_steps && *claimed_steps != report_.steps)
    add(post, "step-count", -1, -1, -1, -1, [&] { return "schedule claims " + std::to_string(*claimed_steps) + " steps but takes " +
        std::to_string(report_.steps); });
  // Step order, as a step-by-step replay finds them: a step's transfer violations, then its waits.
  std::stable_sort(buffering_.begin(), buffering_.end(), [](const Violation& a, const Violation& b) { return a.step < b.step; });
  std::vector<Violation>& out = report_.violations;
  out = std::move(pre_);
  std::size_t b = 0;
  for (std::size_t i = 0; i <= stepping_.size(); ++i) {
    const int limit = i < stepping_.size() ? stepping_[i].step : std::numeric_limits<int>::max();
    while (b < buffering_.size() && buffering_[b].step < limit) out.push_back(std::move(buffering_[b++]));
    if (i < stepping_.size()) out.push_back(std::move(stepping_[i]));
  }
  for (Violation& v : post) out.push_back(std::move(v));
  if (out.size() > VerifyReport::kMaxReported) out.resize(VerifyReport::kMaxReported);
  report_.ok = report_.violation_count == 0;
  return std::move(report_);
}

namespace {

}  // namespace

namespace {

void check_replay_budget(const Topology& t, const Schedule& s, const RunLimits& limits) {
  const double transfers = static_cast<double>(s.transfer_count());
  const double seconds = transfers / kReplayTransfersPerSecond;
  const double mb = static_cast<double>(StepVerifier::memory_bytes(t)) / (1 << 20);
  char text[256];
  std::snprintf(text, sizeof text, "%.0f M transfers to replay, about %.0f s and %.0f MB", transfers / 1e6, seconds, mb);
  if (seconds > limits.seconds)
    throw ResourceError("resources: verifying " + t.spec() + ": " + text + ", more than the " + limit_text(limits) +
                        " totex allows itself; " + limits.how_to_raise + " to run it");
  if (seconds > Progress::kQuietSeconds) std::fprintf(stderr, "verify %s: %s\n", t.spec().c_str(), text);
}

}  // namespace

std::string limit_text(const RunLimits& limits) {
  char text[64];
  std::snprintf(text, sizeof text, "%g s", limits.seconds);
  return text;
}


VerifyReport verify(const Topology& t, const Schedule& s, std::optional<std::int64_t> claimed_steps,
                    const RunLimits& limits, const Traffic* traffic) {
  if (s.lazy() && (s.topology.empty() || s.topology == t.spec()) && is_all_traffic(t, traffic) && s.traffic.is_all()) {
    VerifyReport compact;
    if (s.source->verify_compact(t, s.model, compact)) {
      if (claimed_steps && *claimed_steps != compact.steps) {
        ++compact.violation_count;
        compact.violations.push_back({"step-count", -1, -1, "", "schedule claims " + std::to_string(*claimed_steps) +
                                      " steps but takes " + std::to_string(compact.steps)});
        compact.ok = false;
      }
      return compact;
    }
  }
  if (s.lazy()) check_replay_budget(t, s, limits);
  StepVerifier v(t, s.model, s.topology, traffic, &s.traffic);
  std::unique_ptr<Progress> progress;
  if (s.lazy()) progress = std::make_unique<Progress>("verify " + t.spec(), static_cast<std::int64_t>(s.step_count()));
  std::int64_t done = 0;
  s.for_each_step([&](std::size_t, const std::vector<Transfer>& step) {
    v.step(step);
    if (progress) progress->update(++done);
  });
  return v.finish(claimed_steps);
}

namespace {

/// Stage tables: where each line enters a stage, and its switch's first line and port.
struct MinTables {
  int n = 0, d = 0, stages = 0, spp = 0;
  std::vector<std::int32_t> wire;  // wire[j * n + line] = line_into_stage(j, line)
  std::vector<std::int32_t> base;  // line - line % d
  std::vector<std::uint8_t> port;  // line % d
  explicit MinTables(const MinNetwork& net)
      : n(net.terminals()), d(net.radix()), stages(net.stages()), spp(net.switches_per_stage()) {
    wire.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(stages));
    for (int j = 0; j < stages; ++j)
      for (int line = 0; line < n; ++line)
        wire[static_cast<std::size_t>(j * n + line)] = net.line_into_stage(j, line);
    base.resize(static_cast<std::size_t>(n));
    port.resize(static_cast<std::size_t>(n));
    for (int line = 0; line < n; ++line) {
      base[static_cast<std::size_t>(line)] = line - line % d;
      port[static_cast<std::size_t>(line)] = static_cast<std::uint8_t>(line % d);
    }
  }
  /// Moves every entry of `lines` through stage j whose switch i is in state (states[i] + shift) mod d.
  void stage(int j, const std::uint8_t* states, int shift, const std::int32_t* in, std::int32_t* out) const {
    const std::int32_t* w = &wire[static_cast<std::size_t>(j) * static_cast<std::size_t>(n)];
    for (int s = 0; s < n; ++s) {
      const auto line = static_cast<std::size_t>(w[in[s]]);
      int p = port[line] + states[static_cast<std::size_t>(base[line] / d)] + shift;
      while (p >= d) p -= d;
      out[s] = base[line] + p;
    }
  }
};

/// The MIN checker's bookkeeping: one bit per (source, destination), violations in step order.
class MinChecker {
 public:
  MinChecker(const MinNetwork& net, const MinSchedule& s, VerifyReport& r,
             std::function<int(std::size_t, int)> route_in)
      : net_(net), s_(s), rep_(r), n_(static_cast<std::size_t>(net.terminals())), seen_((n_ * n_ + 63) / 64, 0),
        route_in_(std::move(route_in)) {
    if (!s.topology.empty() && s.topology != net.spec())
      rep_.add("topology", -1, -1, [&] { return "schedule is for '" + s.topology + "', not '" + net.spec() + "'"; });
  }
  /// Configuration x maps source src to perm[src].
  void deliver(std::size_t x, const std::int32_t* perm) {
    const bool all_send = x >= s_.idle.size() || s_.idle[x].empty();
    for (std::size_t src = 0; src < n_; ++src) {
      if (!all_send && !s_.sends(x, static_cast<int>(src))) continue;
      const auto dst = static_cast<std::size_t>(perm[src]);
      const std::size_t m = src * n_ + dst;
      std::uint64_t& word = seen_[m >> 6];
      const std::uint64_t bit = std::uint64_t{1} << (m & 63);
      if ((word & bit) == 0) {
        word |= bit;
        ++report_delivered_;
        continue;
      }
      // Kept ones only (a search over the earlier configurations): find the one that delivered it.
      rep_.add("delivered-twice", static_cast<int>(x), static_cast<NodeId>(dst), [&] {
        int first = -1;
        for (std::size_t y = 0; y < x && first < 0; ++y)
          if (s_.sends(y, static_cast<int>(src)) && route_in_(y, static_cast<int>(src)) == static_cast<int>(dst))
            first = static_cast<int>(y);
        return "message " + msg_text({static_cast<NodeId>(src), static_cast<NodeId>(dst)}) +
               " was already delivered in step " + std::to_string(first);
      });
    }
  }
  void finish(VerifyReport& report, std::optional<std::int64_t> claimed_steps) {
    report.delivered = report_delivered_;
    report.expected = static_cast<std::int64_t>(n_ * n_);
    for (std::size_t m = 0; m < n_ * n_; ++m) {
      if ((seen_[m >> 6] >> (m & 63)) & 1) continue;
      rep_.add("lost", -1, static_cast<NodeId>(m % n_), [&] { return "message " +
               msg_text({static_cast<NodeId>(m / n_), static_cast<NodeId>(m % n_)}) + " is never delivered"; });
    }
    // A compact schedule (M^0, no table) takes its N derived configurations.
    report.steps = s_.configurations.empty() && !s_.m0.empty()
                       ? static_cast<std::int64_t>(n_) + net_.stages() - 1 : s_.steps(net_);
    if (claimed_steps && *claimed_steps != report.steps)
      rep_.add("step-count", -1, -1, [&] { return "schedule claims " + std::to_string(*claimed_steps) + " steps but takes " +
               std::to_string(report.steps); });
    report.ok = report.violation_count == 0;
  }
  Reporter& rep() { return rep_; }

 private:
  const MinNetwork& net_;
  const MinSchedule& s_;
  Reporter rep_;
  std::size_t n_;
  std::vector<std::uint64_t> seen_;
  std::int64_t report_delivered_ = 0;
  std::function<int(std::size_t, int)> route_in_;
};

bool states_valid(const MinNetwork& net, const std::vector<std::uint8_t>& c, int step, Reporter& rep) {
  bool ok = true;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (c[i] < net.radix()) continue;
    ok = false;
    const int stage = static_cast<int>(i) / net.switches_per_stage();
    rep.add("invalid-state", step, -1, [&] { return "stage " + std::to_string(stage) + ", switch " +
            std::to_string(static_cast<int>(i) % net.switches_per_stage()) + ": state " + std::to_string(c[i]) +
            " >= d = " + std::to_string(net.radix()); });
  }
  return ok;
}

/// A stored configuration has one state per switch, each below d.
bool configuration_valid(const MinNetwork& net, const MinConfiguration& c, int step, Reporter& rep) {
  if (c.size() != static_cast<std::size_t>(net.switches())) {
    rep.add("config-size", step, -1, [&] { return "configuration has " + std::to_string(c.size()) + " states, expected " +
            std::to_string(net.switches()); });
    return false;
  }
  return states_valid(net, c, step, rep);
}

}  // namespace

VerifyReport verify_min_expanded(const MinNetwork& net, const MinSchedule& s, std::optional<std::int64_t> claimed_steps) {
  VerifyReport report;
  const MinTables tab(net);
  const auto n = static_cast<std::size_t>(net.terminals());
  std::vector<std::int32_t> a(n), b(n);
  auto route_in = [&](std::size_t x, int src) { return net.route(s.configurations[x], src); };
  MinChecker check(net, s, report, route_in);
  for (std::size_t x = 0; x < s.configurations.size(); ++x) {
    const MinConfiguration& c = s.configurations[x];
    if (!configuration_valid(net, c, static_cast<int>(x), check.rep())) continue;
    for (std::size_t src = 0; src < n; ++src) a[src] = static_cast<std::int32_t>(src);
    for (int j = 0; j < tab.stages; ++j) {
      tab.stage(j, &c[static_cast<std::size_t>(j * tab.spp)], 0, a.data(), b.data());
      a.swap(b);
    }
    check.deliver(x, a.data());
  }
  check.finish(report, claimed_steps);
  return report;
}

VerifyReport verify_min_compact(const MinNetwork& net, const MinSchedule& s, std::optional<std::int64_t> claimed_steps) {
  VerifyReport report;
  const MinTables tab(net);
  const auto n = static_cast<std::size_t>(net.terminals());
  const int d = tab.d, stages = tab.stages;
  auto derived = [&](std::size_t x) { return configuration_from_m0(net, s.m0, static_cast<int>(x)); };
  auto route_in = [&](std::size_t x, int src) { return net.route(derived(x), src); };
  MinChecker check(net, s, report, route_in);
  if (s.m0.size() != static_cast<std::size_t>(net.switches())) {
    check.rep().add("config-size", 0, -1, [&] { return "M^0 has " + std::to_string(s.m0.size()) + " states, expected " +
                    std::to_string(net.switches()); });
  } else if (states_valid(net, s.m0, 0, check.rep())) {
    // lines[j] = every source's line after stages 0..j-1 for the digits of x chosen so far;
    // stage j shifts by digit n-1-j of x, so x = sum over j of shift_j d^(n-1-j).
    std::vector<std::vector<std::int32_t>> lines(static_cast<std::size_t>(stages) + 1, std::vector<std::int32_t>(n));
    for (std::size_t src = 0; src < n; ++src) lines[0][src] = static_cast<std::int32_t>(src);
    std::vector<int> shift(static_cast<std::size_t>(stages), 0);
    std::int64_t done = 0;
    Progress progress("verify " + net.spec(), static_cast<std::int64_t>(n));
    // Depth-first over the digits, in increasing x (shift_0 is the most significant digit).
    std::function<void(int, std::size_t)> walk = [&](int j, std::size_t x) {
      if (j == stages) {
        check.deliver(x, lines[static_cast<std::size_t>(stages)].data());
        progress.update(++done);
        return;
      }
      const auto ju = static_cast<std::size_t>(j);
      for (int delta = 0; delta < d; ++delta) {
        tab.stage(j, &s.m0[ju * static_cast<std::size_t>(tab.spp)], delta, lines[ju].data(), lines[ju + 1].data());
        walk(j + 1, x * static_cast<std::size_t>(d) + static_cast<std::size_t>(delta));
      }
    };
    walk(0, 0);
  }
  check.finish(report, claimed_steps);
  return report;
}

namespace {
/// A MIN schedule of a traffic: every sending terminal's flit must be one the traffic still owes.
/// `report` may hold violations already (a traffic mismatch, reported first).
VerifyReport verify_min_traffic(const MinNetwork& net, const MinSchedule& s, const Traffic& traffic,
                                std::optional<std::int64_t> claimed_steps, VerifyReport report = {}) {
  Reporter rep(report);
  if (!s.topology.empty() && s.topology != net.spec())
    rep.add("topology", -1, -1, [&] { return "schedule is for '" + s.topology + "', not '" + net.spec() + "'"; });
  const auto n = static_cast<std::int64_t>(net.terminals());
  // Flits each pair must get, and got so far (sparse: a traffic's pairs only).
  std::unordered_map<std::int64_t, std::pair<std::int64_t, std::int64_t>> want;
  traffic.for_each([&](NodeId a, NodeId b, std::int64_t w) { want[a * n + b] = {w, 0}; });
  for (std::size_t x = 0; x < s.configurations.size(); ++x) {
    const int step = static_cast<int>(x);
    const MinConfiguration& c = s.configurations[x];
    if (!configuration_valid(net, c, step, rep)) continue;
    const std::vector<int> perm = net.permutation(c);
    for (int src = 0; src < net.terminals(); ++src) {
      if (!s.sends(x, src)) continue;
      const int dst = perm[static_cast<std::size_t>(src)];
      const auto it = want.find(src * n + dst);
      if (it == want.end()) {
        rep.add("not-in-traffic", step, dst, [&] {
          return "terminal " + std::to_string(src) + " sends to " + std::to_string(dst) + ", but traffic " + traffic.spec() +
                 " sends no flit from " + std::to_string(src) + " to " + std::to_string(dst) +
                 (src == dst ? " (no self slot); list it idle=" : "; list the terminal idle=");
        });
        continue;
      }
      auto& [w, got] = it->second;
      if (got == w) {
        rep.add("delivered-twice", step, dst, [&] {
          return "message (" + std::to_string(src) + "," + std::to_string(dst) + ") gets a flit more than the " + std::to_string(w) +
                 " of traffic " + traffic.spec();
        });
        continue;
      }
      ++got;
      ++report.delivered;
    }
  }
  report.expected = traffic.total_flits();
  traffic.for_each([&](NodeId a, NodeId b, std::int64_t w) {  // in the traffic's order
    const std::int64_t got = want.at(a * n + b).second;
    if (got < w)
      rep.add("lost", -1, b, [&] {
        return "message (" + std::to_string(a) + "," + std::to_string(b) + "): " + std::to_string(w - got) + " of its " +
               std::to_string(w) + " flits never delivered";
      });
  });
  report.steps = s.steps(net);
  if (claimed_steps && *claimed_steps != report.steps)
    rep.add("step-count", -1, -1, [&] { return "schedule claims " + std::to_string(*claimed_steps) + " steps but takes " +
            std::to_string(report.steps); });
  report.ok = report.violation_count == 0;
  return report;
}
}  // namespace

VerifyReport verify(const MinNetwork& net, const MinSchedule& s, std::optional<std::int64_t> claimed_steps, const Traffic* traffic) {
  const Topology nodes = min_traffic_nodes(net);
  if (traffic != nullptr && !is_all_traffic(nodes, traffic)) {
    VerifyReport first;
    if (const std::string other = traffic_mismatch(nodes, s.traffic, traffic); !other.empty())
      Reporter(first).add("traffic", -1, -1, [&] { return other; });
    return verify_min_traffic(net, s, *traffic, claimed_steps, std::move(first));
  }
  if (!s.traffic.is_all()) {
    if (traffic != nullptr) {  // all asked, another recorded
      VerifyReport report;
      Reporter(report).add("traffic", -1, -1, [&] { return traffic_mismatch(nodes, s.traffic, nullptr); });
      report.ok = false;
      return report;
    }
    return verify_min_traffic(net, s, *read_traffic_again(nodes, s.traffic, "the schedule"), claimed_steps);
  }
  // The stored configurations are what engines load; when they are exactly the ones M^0 derives
  // (checked here, byte by byte) the compact check is the same check, and about log_d N times faster.
  const auto n = static_cast<std::size_t>(net.terminals());
  const auto spp = static_cast<std::size_t>(net.switches_per_stage());
  const int d = net.radix();
  bool derived = !s.m0.empty() && s.m0.size() == static_cast<std::size_t>(net.switches()) &&
                 (s.configurations.empty() || s.configurations.size() == n);
  for (std::size_t i = 0; derived && i < s.m0.size(); ++i) derived = s.m0[i] < d;
  for (std::size_t x = 0; derived && x < s.configurations.size(); ++x) {
    const MinConfiguration& c = s.configurations[x];
    if (c.size() != s.m0.size()) derived = false;
    for (int j = 0; derived && j < net.stages(); ++j) {
      const int shift = digit(static_cast<int>(x), net.stages() - 1 - j, d);
      for (std::size_t i = static_cast<std::size_t>(j) * spp; i < (static_cast<std::size_t>(j) + 1) * spp; ++i)
        if (c[i] != (s.m0[i] + shift < d ? s.m0[i] + shift : s.m0[i] + shift - d)) derived = false;  // m0 < d here
    }
  }
  if (derived) return verify_min_compact(net, s, claimed_steps);
  return verify_min_expanded(net, s, claimed_steps);
}

}  // namespace totex
