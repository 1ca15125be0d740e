// SPDX-License-Identifier: Apache-2.0
// The every-route periodic model: a time-expanded network modulo P, one walk per message.
//
// Why it is exact: a schedule's message crosses link l in slot t (mod P) on each hop. If its walk
// came to the same node in the same slot twice, the part between is a closed walk of a multiple of
// P hops; cutting it out keeps the injection and ejection slots and frees link slots. So every
// schedule has one whose walks enter and leave each (node, slot) at most once, and that is what
// the model asks for: at most one link in and one out per message, node and slot, in = out at
// relays, out = in or the injection at the source, in = the ejection at the destination (where
// the walk ends: delivery is on arrival, as the verifier has it). A solution may hold closed walks
// besides its message's walk; they are dropped when the walk is read back.
#include "periodic_flow.hpp"

#include <stdexcept>

namespace totex::periodic {
namespace {

std::size_t at(int v) { return static_cast<std::size_t>(v); }

}  // namespace

std::int64_t every_route_vars(const Topology& t, int period) {
  const auto n = static_cast<std::int64_t>(t.processor_count());
  return n * (n - 1) * t.links() * period;
}

SatOutcome every_route_sat(const Topology& t, int period, std::int64_t conflicts,
                           std::chrono::steady_clock::time_point end, Problem& packed,
                           std::vector<Placement>& placed, std::int64_t* variables) {
  const int P = period;
  const int nodes = t.nodes();
  const int links = t.links();
  std::vector<NodeId> procs;
  for (NodeId v = 0; v < nodes; ++v)
    if (t.is_processor(v)) procs.push_back(v);
  std::vector<Message> msgs;
  for (const NodeId s : procs)
    for (const NodeId d : procs)
      if (s != d) msgs.push_back({s, d});
  // Links into and out of each node.
  std::vector<std::vector<int>> out_links(at(nodes)), in_links(at(nodes));
  std::vector<NodeId> head(at(links)), tail(at(links));
  for (NodeId v = 0; v < nodes; ++v)
    for (Port p = 0; p < t.degree(v); ++p) {
      const int l = t.link_id(v, p);
      tail[at(l)] = v;
      head[at(l)] = t.neighbor(v, p);
      out_links[at(v)].push_back(l);
      in_links[at(head[at(l)])].push_back(l);
    }
  CaDiCaL::Solver solver;
  // Decide "does not cross" first: the walks found are short (torus:3x3 at 8: latency 17 with the
  // default phase).
  solver.set("phase", 0);
  Cnf cnf(solver);
  const auto slot = [P](int s) { return ((s % P) + P) % P; };
  // cross[m][l * P + s]: message m crosses link l in slot s.
  std::vector<std::vector<int>> cross(msgs.size()), inject(msgs.size()), eject(msgs.size());
  for (std::size_t m = 0; m < msgs.size(); ++m) {
    cross[m].resize(at(links) * at(P));
    for (int& x : cross[m]) x = cnf.var();
    for (int s = 0; s < P; ++s) inject[m].push_back(cnf.var());
    for (int s = 0; s < P; ++s) eject[m].push_back(cnf.var());
    cnf.exactly_one(inject[m]);
    cnf.exactly_one(eject[m]);
    const auto x = [&](int l, int s) { return cross[m][at(l) * at(P) + at(slot(s))]; };
    for (NodeId v = 0; v < nodes; ++v)
      for (int s = 0; s < P; ++s) {
        std::vector<int> in, out;  // arrives at v by the end of slot s - 1; leaves v in slot s
        for (const int l : in_links[at(v)]) in.push_back(x(l, s - 1));
        for (const int l : out_links[at(v)]) out.push_back(x(l, s));
        if (v == msgs[m].dst) {
          for (const int o : out) cnf.clause({-o});
          out = {eject[m][at(slot(s - 1))]};
        }
        if (v == msgs[m].src) in.push_back(inject[m][at(s)]);
        cnf.at_most(in, 1);
        cnf.at_most(out, 1);
        for (const int a : in) {  // something in -> something out, and back
          std::vector<int> c = out;
          c.push_back(-a);
          cnf.clause(c);
        }
        for (const int b : out) {
          std::vector<int> c = in;
          c.push_back(-b);
          cnf.clause(c);
        }
      }
  }
  // Every schedule shifts to one whose first message is injected in slot 0.
  if (!msgs.empty()) cnf.clause({inject[0][0]});
  for (int l = 0; l < links; ++l)
    for (int s = 0; s < P; ++s) {
      std::vector<int> holders;
      for (std::size_t m = 0; m < msgs.size(); ++m) holders.push_back(cross[m][at(l) * at(P) + at(s)]);
      cnf.at_most(holders, 1);
    }
  for (const NodeId v : procs)
    for (int s = 0; s < P; ++s) {
      std::vector<int> in, out;
      for (std::size_t m = 0; m < msgs.size(); ++m) {
        if (msgs[m].src == v) in.push_back(inject[m][at(s)]);
        if (msgs[m].dst == v) out.push_back(eject[m][at(s)]);
      }
      cnf.at_most(in, 1);
      cnf.at_most(out, 1);
    }
  if (variables != nullptr) *variables = cnf.vars();
  std::int64_t used = 0;
  const SatOutcome o = solve_limited(solver, conflicts, end, used);
  if (o != SatOutcome::Sat) return o;
  packed = Problem{};
  placed.clear();
  for (std::size_t m = 0; m < msgs.size(); ++m) {
    int s0 = 0;
    while (solver.val(inject[m][at(s0)]) <= 0) ++s0;
    Candidate c;
    c.path.push_back(msgs[m].src);
    NodeId v = msgs[m].src;
    // The walk enters each (node, slot) at most once: at most nodes x P hops.
    for (int s = s0, hops = 0; v != msgs[m].dst; ++s, ++hops) {
      if (hops > nodes * P) throw std::logic_error("every-route model: a walk that does not end");
      int next = -1;
      for (const int l : out_links[at(v)])
        if (solver.val(cross[m][at(l) * at(P) + at(slot(s))]) > 0) next = l;
      if (next < 0) throw std::logic_error("every-route model: a walk that stops at a relay");
      v = head[at(next)];
      c.path.push_back(v);
    }
    Item it;
    it.msg = msgs[m];
    it.cands.push_back(std::move(c));
    packed.items.push_back(std::move(it));
    placed.push_back({0, s0});
  }
  return o;
}

}  // namespace totex::periodic
