// SPDX-License-Identifier: Apache-2.0
// The every-route periodic model: a time-expanded network modulo P, one walk per message.
//
// Why it is exact: a schedule's message crosses link l in slot t (mod P) on each hop. If its walk
// came to the same node in the same slot twice, the part between is a closed walk of a multiple of
// P hops (or waits, under single-port); cutting it out keeps the injection and ejection slots and
// frees link slots. So every schedule has one whose walks enter and leave each (node, slot) at
// most once, and that is what the model asks for: at most one way in and one way out per message,
// node and slot, in = out at relays, out = in or the injection at the source, in = the ejection
// at the destination (where the walk ends: delivery is on arrival, as the verifier has it). A
// solution may hold closed walks besides its message's walk; they are dropped when the walk is
// read back.
#include "periodic_flow.hpp"

#include <algorithm>
#include <stdexcept>

namespace totex::periodic {
namespace {

std::size_t at(int v) { return static_cast<std::size_t>(v); }

/// The model of every_route_decide, built into `solver`, and how to read a solution back.
class EveryRoute {
 public:
  EveryRoute(const Topology& t, Model m, int period, CaDiCaL::Solver& solver, const Traffic* traffic = nullptr);
  [[nodiscard]] int vars() const { return cnf_.vars(); }
  [[nodiscard]] std::int64_t clauses() const { return cnf_.clauses(); }
  /// Message i's walk from its injection slot: (absolute step, link) per hop, -1 for a wait.
  [[nodiscard]] std::vector<std::pair<int, int>> walk(std::size_t i, int& inject_slot) const;
  [[nodiscard]] const std::vector<Message>& messages() const { return msgs_; }
  [[nodiscard]] NodeId head(int link) const { return head_[at(link)]; }
  [[nodiscard]] NodeId tail(int link) const { return tail_[at(link)]; }
  [[nodiscard]] Port port(int link) const { return port_[at(link)]; }

 private:
  int slot(int s) const { return ((s % P_) + P_) % P_; }
  void add_message(std::size_t i);
  const Topology& t_;
  Model m_;
  int P_;
  CaDiCaL::Solver& solver_;
  Cnf cnf_;
  std::vector<Message> msgs_;
  std::vector<std::vector<int>> out_links_, in_links_;
  std::vector<NodeId> head_, tail_;
  std::vector<Port> port_;
  // cross_[i][l * P + s]: message i crosses link l in slot s; wait_[i][v * P + s]: message i stays
  // at v from slot s to s + 1 (single-port only).
  std::vector<std::vector<int>> cross_, wait_, inject_, eject_;
};

EveryRoute::EveryRoute(const Topology& t, Model m, int period, CaDiCaL::Solver& solver, const Traffic* traffic)
    : t_(t), m_(m), P_(period), solver_(solver), cnf_(solver) {
  const int nodes = t.nodes();
  const int links = t.links();
  if (traffic == nullptr) {
    for (const NodeId s : t.processors())
      for (const NodeId d : t.processors())
        if (s != d) msgs_.push_back({s, d});
  } else {
    traffic->for_each([&](NodeId s, NodeId d, std::int64_t w) {
      for (std::int64_t k = 0; k < w; ++k) msgs_.push_back({s, d, static_cast<std::int32_t>(k)});
    });
  }
  out_links_.resize(at(nodes));
  in_links_.resize(at(nodes));
  head_.resize(at(links));
  tail_.resize(at(links));
  port_.resize(at(links));
  for (NodeId v = 0; v < nodes; ++v)
    for (Port p = 0; p < t.degree(v); ++p) {
      const int l = t.link_id(v, p);
      tail_[at(l)] = v;
      head_[at(l)] = t.neighbor(v, p);
      port_[at(l)] = p;
      out_links_[at(v)].push_back(l);
      in_links_[at(head_[at(l)])].push_back(l);
    }
  // Decide "does not cross" first: the walks found are short (torus:3x3 at 8: latency 17 with the
  // default phase).
  solver.set("phase", 0);
  cross_.resize(msgs_.size());
  wait_.resize(msgs_.size());
  inject_.resize(msgs_.size());
  eject_.resize(msgs_.size());
  for (std::size_t i = 0; i < msgs_.size(); ++i) add_message(i);
  // Every schedule shifts to one whose first message is injected in slot 0.
  if (!msgs_.empty()) cnf_.clause({inject_[0][0]});
  // Flit k + 1 of a pair is injected in flit k's slot or later (the flits of a pair are
  // interchangeable; the first message is its pair's flit 0, so the shift above agrees).
  for (std::size_t i = 1; i < msgs_.size(); ++i)
    if (msgs_[i].flit > 0)
      for (int s = 0; s < P_; ++s) {
        std::vector<int> c{-inject_[i][at(s)]};
        for (int e = 0; e <= s; ++e) c.push_back(inject_[i - 1][at(e)]);
        cnf_.clause(c);
      }
  for (int l = 0; l < links; ++l)
    for (int s = 0; s < P_; ++s) {
      std::vector<int> holders;
      for (std::size_t i = 0; i < msgs_.size(); ++i) holders.push_back(cross_[i][at(l) * at(P_) + at(s)]);
      cnf_.at_most(holders, 1);
    }
  for (NodeId v = 0; v < nodes; ++v)
    for (int s = 0; s < P_; ++s) {
      std::vector<int> in, out;
      for (std::size_t i = 0; i < msgs_.size(); ++i) {
        if (m_ == Model::Nic) {  // the NIC's inject and eject ports
          if (msgs_[i].src == v) in.push_back(inject_[i][at(s)]);
          if (msgs_[i].dst == v) out.push_back(eject_[i][at(s)]);
        } else if (m_ == Model::SinglePort) {  // the node's one send and one receive, relays included
          for (const int l : out_links_[at(v)]) in.push_back(cross_[i][at(l) * at(P_) + at(s)]);
          for (const int l : in_links_[at(v)]) out.push_back(cross_[i][at(l) * at(P_) + at(s)]);
        }
      }
      cnf_.at_most(in, 1);
      cnf_.at_most(out, 1);
    }
}

void EveryRoute::add_message(std::size_t i) {
  const int nodes = t_.nodes();
  const Message msg = msgs_[i];
  cross_[i].resize(at(t_.links()) * at(P_));
  for (int& x : cross_[i]) x = cnf_.var();
  if (m_ == Model::SinglePort) {
    wait_[i].assign(at(nodes) * at(P_), 0);
    for (NodeId v = 0; v < nodes; ++v)
      if (v != msg.dst)
        for (int s = 0; s < P_; ++s) wait_[i][at(v) * at(P_) + at(s)] = cnf_.var();
  }
  for (int s = 0; s < P_; ++s) inject_[i].push_back(cnf_.var());
  for (int s = 0; s < P_; ++s) eject_[i].push_back(cnf_.var());
  cnf_.exactly_one(inject_[i]);
  cnf_.exactly_one(eject_[i]);
  const auto x = [&](int l, int s) { return cross_[i][at(l) * at(P_) + at(slot(s))]; };
  const auto w = [&](NodeId v, int s) { return wait_[i].empty() ? 0 : wait_[i][at(v) * at(P_) + at(slot(s))]; };
  for (NodeId v = 0; v < nodes; ++v)
    for (int s = 0; s < P_; ++s) {
      std::vector<int> in, out;  // at v, ready to leave in slot s; leaves v in slot s
      for (const int l : in_links_[at(v)]) in.push_back(x(l, s - 1));
      if (w(v, s - 1) != 0) in.push_back(w(v, s - 1));
      for (const int l : out_links_[at(v)]) out.push_back(x(l, s));
      if (w(v, s) != 0) out.push_back(w(v, s));
      if (v == msg.dst) {
        for (const int o : out) cnf_.clause({-o});
        out = {eject_[i][at(slot(s - 1))]};
      }
      if (v == msg.src) {
        in.push_back(inject_[i][at(s)]);
        if (m_ == Model::SinglePort) {
          // The injection is the first hop (a wait before it is a later injection).
          std::vector<int> c{-inject_[i][at(s)]};
          for (const int l : out_links_[at(v)]) c.push_back(x(l, s));
          cnf_.clause(c);
        }
      }
      cnf_.at_most(in, 1);
      cnf_.at_most(out, 1);
      for (const int a : in) {  // something in -> something out, and back
        std::vector<int> c = out;
        c.push_back(-a);
        cnf_.clause(c);
      }
      for (const int b : out) {
        std::vector<int> c = in;
        c.push_back(-b);
        cnf_.clause(c);
      }
    }
}

std::vector<std::pair<int, int>> EveryRoute::walk(std::size_t i, int& inject_slot) const {
  const Message msg = msgs_[i];
  int s0 = 0;
  while (solver_.val(inject_[i][at(s0)]) <= 0) ++s0;
  inject_slot = s0;
  std::vector<std::pair<int, int>> hops;
  NodeId v = msg.src;
  // The walk enters each (node, slot) at most once: at most nodes x P hops and waits.
  for (int s = s0; v != msg.dst; ++s) {
    if (static_cast<int>(hops.size()) > t_.nodes() * P_) throw std::logic_error("every-route model: a walk that does not end");
    int next = -1;
    for (const int l : out_links_[at(v)])
      if (solver_.val(cross_[i][at(l) * at(P_) + at(slot(s))]) > 0) next = l;
    if (next >= 0) {
      hops.emplace_back(s, next);
      v = head_[at(next)];
    } else if (!wait_[i].empty() && solver_.val(wait_[i][at(v) * at(P_) + at(slot(s))]) > 0) {
      hops.emplace_back(s, -1);
    } else {
      throw std::logic_error("every-route model: a walk that stops at a relay");
    }
  }
  return hops;
}

}  // namespace

std::int64_t every_route_vars(const Topology& t, int period) {
  const auto n = static_cast<std::int64_t>(t.processor_count());
  return n * (n - 1) * t.links() * period;
}

SatOutcome every_route_decide(const Topology& t, Model m, int period, const SatLimit& limit, Schedule* schedule,
                              SatStats* stats, const Traffic* traffic, std::int64_t* clauses) {
  CaDiCaL::Solver solver;
  const EveryRoute model(t, m, period, solver, traffic);
  if (clauses != nullptr) *clauses = model.clauses();
  SatStats own;
  const SatOutcome o = solve_limited(solver, limit, stats ? *stats : own, model.clauses());
  if (o != SatOutcome::Sat || schedule == nullptr) return o;
  *schedule = Schedule{t.spec(), m, "periodic-every-route", {}};
  schedule->period = period;
  const std::vector<Message>& msgs = model.messages();
  std::vector<std::vector<std::pair<int, int>>> walks(msgs.size());
  for (std::size_t i = 0; i < msgs.size(); ++i) {
    int s0 = 0;
    walks[i] = model.walk(i, s0);
  }
  // A pair's flits numbered in arrival order (they are interchangeable), so a message's flits
  // arrive in order on the hardware; the flits of a pair are consecutive in `msgs`.
  std::vector<std::int32_t> flit(msgs.size(), 0);
  for (std::size_t first = 0, next = 0; first < msgs.size(); first = next) {
    for (next = first + 1; next < msgs.size() && msgs[next].flit > 0; ++next) {
    }
    std::vector<std::size_t> by_arrival(next - first);
    for (std::size_t k = 0; k < by_arrival.size(); ++k) by_arrival[k] = first + k;
    std::stable_sort(by_arrival.begin(), by_arrival.end(),
                     [&](std::size_t a, std::size_t b) { return walks[a].back().first < walks[b].back().first; });
    for (std::size_t k = 0; k < by_arrival.size(); ++k) flit[by_arrival[k]] = static_cast<std::int32_t>(k);
  }
  for (std::size_t i = 0; i < msgs.size(); ++i)
    for (const auto& [step, link] : walks[i]) {
      if (link < 0) continue;
      if (schedule->steps.size() <= at(step)) schedule->steps.resize(at(step) + 1);
      schedule->steps[at(step)].push_back({{msgs[i].src, msgs[i].dst, flit[i]}, model.tail(link), model.port(link)});
    }
  return o;
}

SatOutcome every_route_sat(const Topology& t, int period, const SatLimit& limit, Problem& packed,
                           std::vector<Placement>& placed, std::int64_t* variables, SatStats* stats) {
  CaDiCaL::Solver solver;
  const EveryRoute model(t, Model::Nic, period, solver);
  if (variables != nullptr) *variables = model.vars();
  SatStats own;
  const SatOutcome o = solve_limited(solver, limit, stats ? *stats : own, model.clauses());
  if (o != SatOutcome::Sat) return o;
  packed = Problem{};
  placed.clear();
  for (std::size_t i = 0; i < model.messages().size(); ++i) {
    int s0 = 0;
    Candidate c;
    c.path.push_back(model.messages()[i].src);
    for (const auto& hop : model.walk(i, s0)) c.path.push_back(model.head(hop.second));
    Item it;
    it.msg = model.messages()[i];
    it.cands.push_back(std::move(c));
    packed.items.push_back(std::move(it));
    placed.push_back({0, s0});
  }
  return o;
}

}  // namespace totex::periodic
