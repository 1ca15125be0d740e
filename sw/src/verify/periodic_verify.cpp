// SPDX-License-Identifier: Apache-2.0
// The periodic verifier: a replay of one period's messages in absolute steps, with every resource
// (directed link, NIC inject and eject port, single-port send and receive) indexed by step mod P.
#include "totex/verify/periodic_verify.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "totex/error.hpp"
#include "totex/progress.hpp"

namespace totex {
namespace {

class Collector {
 public:
  explicit Collector(PeriodicReport& r) : r_(r) {}
  bool silent = false;  // a replay that only names link holders: nothing is counted again
  template <class What>
  void add(const char* kind, std::int64_t step, NodeId node, const std::string& link, const What& what) {
    if (silent) return;
    ++r_.violation_count;
    if (r_.violations.size() >= PeriodicReport::kMaxReported) return;
    std::string where;
    if (step >= 0) where = "step " + std::to_string(step) + " (slot " + std::to_string(step % r_.period) + ")";
    if (node >= 0) where += (where.empty() ? "" : ", ") + std::string("node ") + std::to_string(node);
    if (!link.empty()) where += (where.empty() ? "" : ", ") + std::string("link ") + link;
    r_.violations.push_back({kind, static_cast<int>(step), node, link, (where.empty() ? "" : where + ": ") + what()});
  }

 private:
  PeriodicReport& r_;
};

struct MessageState {
  NodeId pos = -1;          // -1: not yet injected
  std::int64_t inject = -1;  // step of its first hop
  std::int64_t last = -1;    // step of its last hop
};

}  // namespace

PeriodicReport verify_periodic(const Topology& t, const Schedule& s, int period, const Traffic* traffic) {
  PeriodicReport r;
  r.period = period > 0 ? period : s.period;
  if (r.period <= 0) throw UsageError("periodic verification needs a period > 0 (the schedule has period 0: one-shot)");
  const auto P = static_cast<std::int64_t>(r.period);
  const auto n = static_cast<std::size_t>(t.nodes());
  const MessageIndex index(t, traffic);
  check_memory(index.size(), sizeof(MessageState), "verifying " + t.spec() + " periodically");
  const auto msg_text = [&](const Message& mm) { return index.text(mm); };
  const std::uint64_t link_slots = static_cast<std::uint64_t>(t.links()) * static_cast<std::uint64_t>(P);
  check_memory(link_slots / 8 + 2ULL * n * static_cast<std::uint64_t>(P), 1, "the slot tables of period " + std::to_string(P) + " on " + t.spec());
  Collector add(r);
  if (!s.topology.empty() && s.topology != t.spec())
    add.add("topology", -1, -1, "", [&] { return "schedule is for '" + s.topology + "', not '" + t.spec() + "'"; });
  if (const std::string other = traffic_mismatch(t, s.traffic, traffic); !other.empty())
    add.add("traffic", -1, -1, "", [&] { return other; });
  const bool may_buffer = allows_relay_buffering(s.model);
  std::vector<MessageState> msg(index.size());
  // Per slot: one bit per directed link (busy), and the counts per node and port. A link slot
  // found busy again is reported with the message that holds it, found by a silent second replay
  // (a table of holders was links x period x 4 bytes: 1.8 GB on torus:62x62).
  std::vector<std::uint64_t> link_busy(static_cast<std::size_t>((link_slots + 63) / 64), 0);
  std::vector<std::uint8_t> out_slot(n * static_cast<std::size_t>(P), 0), in_slot(n * static_cast<std::size_t>(P), 0);
  struct Reuse {
    std::size_t violation;  // index in r.violations
    std::size_t link_slot;  // link * P + slot
    Message second;         // the message that found it busy
    std::size_t holder = 0;  // the first message there (slot + 1), from the second replay
  };
  std::vector<Reuse> reuses;
  std::unordered_map<std::size_t, std::vector<std::size_t>> wanted;  // link slot -> its reuses
  const int nn = t.nodes();
  std::int64_t last_busy = -1;
  bool naming = false;  // the second replay
  // Silent for the first seconds; a line every few seconds on large schedules (torus:62x62: 4.6e8
  // transfers).
  Progress progress("verify " + t.spec() + " modulo " + std::to_string(P), static_cast<std::int64_t>(s.step_count()));
  const auto replay = [&](std::size_t step_index, const std::vector<Transfer>& step) {
    if (!naming) progress.update(static_cast<std::int64_t>(step_index) + 1);
    const auto st = static_cast<std::int64_t>(step_index);
    const std::size_t slot = static_cast<std::size_t>(st % P);
    if (!step.empty()) last_busy = st;
    for (const Transfer& tr : step) {
      const Message& m = tr.msg;
      const std::size_t mi = index.slot(m);
      if (mi == MessageIndex::npos) {
        add.add("bad-message", st, tr.from, "", [&] { return index.why_not(m); });
        continue;
      }
      if (tr.from < 0 || tr.from >= nn || tr.port < 0 || tr.port >= t.degree(tr.from)) {
        add.add("invalid-link", st, tr.from, "", [&] { return "message " + msg_text(m) + " uses port " + std::to_string(tr.port) +
                                                             ", which node " + std::to_string(tr.from) + " does not have"; });
        continue;
      }
      const NodeId to = t.neighbor(tr.from, tr.port);
      // Named only when a violation is reported (building it per transfer was most of the time).
      const auto link_name = [&] { return std::to_string(tr.from) + "->" + std::to_string(to); };
      MessageState& ms = msg[mi];
      const NodeId at = ms.pos < 0 ? m.src : ms.pos;
      if (ms.pos == m.dst) {
        add.add("delivered-twice", st, tr.from, link_name(), [&] { return "message " + msg_text(m) + " was already delivered in step " +
                                                                         std::to_string(ms.last) + " and moves again"; });
        continue;
      }
      if (ms.last == st) {
        add.add("double-move", st, tr.from, link_name(), [&] { return "message " + msg_text(m) + " crosses a second link in the same step"; });
        continue;
      }
      if (at != tr.from) {
        add.add("invalid-path", st, tr.from, link_name(), [&] { return "message " + msg_text(m) + " is at node " + std::to_string(at) +
                                                                      ", not at node " + std::to_string(tr.from); });
        continue;
      }
      const bool injecting = ms.pos < 0;
      if (injecting) {
        ms.inject = st;
        if (st >= P)
          add.add("inject-slot", st, tr.from, link_name(), [&] { return "message " + msg_text(m) + " is injected in step " + std::to_string(st) +
                                                                       ", not in a slot of the first period (< " + std::to_string(P) + ")"; });
      } else if (!may_buffer && ms.last + 1 < st) {
        add.add("buffering", st, tr.from, link_name(), [&] { return "message " + msg_text(m) + " waited at relay " + std::to_string(tr.from) +
                                                                   " since step " + std::to_string(ms.last) + "; " + to_string(s.model) +
                                                                   " forbids intermediate buffering"; });
      }
      const std::size_t l = static_cast<std::size_t>(t.link_id(tr.from, tr.port)) * static_cast<std::size_t>(P) + slot;
      const std::uint64_t bit = std::uint64_t{1} << (l % 64);
      if (naming) {
        // The first message to pass the checks at a reported link slot is the one that made it busy.
        if (const auto w = wanted.find(l); w != wanted.end())
          for (const std::size_t i : w->second)
            if (reuses[i].holder == 0)
              reuses[i].holder = mi + 1;
      } else if ((link_busy[l / 64] & bit) != 0) {
        if (r.violations.size() < PeriodicReport::kMaxReported) reuses.push_back({r.violations.size(), l, m});
        add.add("link-reuse", st, tr.from, link_name(), [&] { return "link slot " + std::to_string(slot) + " carries two messages"; });
      } else {
        link_busy[l / 64] |= bit;
      }
      if (naming) {
        ms.pos = to;
        ms.last = st;
        continue;
      }
      const std::size_t fs = static_cast<std::size_t>(tr.from) * static_cast<std::size_t>(P) + slot;
      const std::size_t ts = static_cast<std::size_t>(to) * static_cast<std::size_t>(P) + slot;
      if (s.model == Model::Nic) {
        if (injecting && ++out_slot[fs] == 2)
          add.add("inject-limit", st, tr.from, link_name(), [&] { return "NIC injects a second message " + msg_text(m) + " in slot " + std::to_string(slot); });
        if (to == m.dst && ++in_slot[ts] == 2)
          add.add("eject-limit", st, to, link_name(), [&] { return "NIC ejects a second message " + msg_text(m) + " in slot " + std::to_string(slot); });
      } else if (s.model == Model::SinglePort) {
        if (++out_slot[fs] == 2)
          add.add("send-limit", st, tr.from, link_name(), [&] { return "single-port node sends a second message " + msg_text(m) + " in slot " + std::to_string(slot); });
        if (++in_slot[ts] == 2)
          add.add("receive-limit", st, to, link_name(), [&] { return "single-port node receives a second message " + msg_text(m) + " in slot " + std::to_string(slot); });
      }
      out_slot[fs] = std::min<std::uint8_t>(out_slot[fs], 2);
      in_slot[ts] = std::min<std::uint8_t>(in_slot[ts], 2);
      ms.pos = to;
      ms.last = st;
      if (to == m.dst) {
        ++r.delivered;
        r.latency_max = std::max(r.latency_max, st - ms.inject + 1);
      }
    }
  };
  s.for_each_step(replay);
  r.steps = last_busy + 1;
  if (!reuses.empty()) {
    naming = true;
    add.silent = true;
    std::fill(msg.begin(), msg.end(), MessageState{});
    for (std::size_t i = 0; i < reuses.size(); ++i) wanted[reuses[i].link_slot].push_back(i);
    s.for_each_step(replay);
    add.silent = false;
    for (const Reuse& u : reuses) {
      r.violations[u.violation].text += ": message " + msg_text(index.message(u.holder - 1)) +
                                           " and message " + msg_text(u.second);
    }
  }
  r.expected = index.expected_count();
  const auto check_delivered = [&](const Message& mm) {
    const MessageState& ms = msg[index.slot(mm)];
    if (ms.pos == mm.dst) return;
    if (ms.pos < 0)
      add.add("lost", -1, mm.src, "", [&] { return "message " + msg_text(mm) + " is never sent"; });
    else
      add.add("lost", -1, ms.pos, "", [&] { return "message " + msg_text(mm) + " ends at node " + std::to_string(ms.pos) +
                                                   ", not at its destination " + std::to_string(mm.dst); });
  };
  if (is_all_traffic(t, traffic)) {
    for (NodeId a = 0; a < nn; ++a)
      for (NodeId b = 0; b < nn; ++b)
        if (a != b && t.is_processor(a) && t.is_processor(b)) check_delivered({a, b});
  } else {
    traffic->for_each([&](NodeId a, NodeId b, std::int64_t w) {
      for (std::int64_t k = 0; k < w; ++k) check_delivered({a, b, static_cast<std::int32_t>(k)});
    });
  }
  r.ok = r.violation_count == 0;
  return r;
}

}  // namespace totex
