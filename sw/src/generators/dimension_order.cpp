// SPDX-License-Identifier: Apache-2.0
// Dimension-order schedules for (partially populated) tori: the routes of paper 004, packed.
#include <algorithm>

#include "totex/generators/generators.hpp"
#include "path_packing.hpp"

namespace totex {
namespace {

Hops hops_of(const Topology& t, const std::vector<NodeId>& path) {
  Hops hops;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) hops.emplace_back(path[i], *t.port_to(path[i], path[i + 1]));
  return hops;
}

/// One packing of every processor pair in the given message order.
Schedule pack(const Topology& t, Model m, Routing r, const std::vector<Message>& order) {
  PathPacker packer(t, m, to_string(r));
  for (const Message& msg : order) {
    Hops best;
    std::size_t best_start = 0;
    for (const auto& path : routes(t, msg.src, msg.dst, r)) {  // UDR: the order that fits earliest
      Hops hops = hops_of(t, path);
      const std::size_t start = packer.earliest(msg, hops, 0);
      if (best.empty() || start + hops.size() < best_start + best.size()) {
        best = std::move(hops);
        best_start = start;
      }
    }
    packer.place(msg, best, best_start);
  }
  return packer.take();
}

/// Step-major packing: in step 0, 1, ... every processor in turn injects the longest of its
/// unsent messages whose path fits starting in that step (the time-driven list schedule; it
/// keeps NICs busy where the message-major packing leaves early injection slots empty).
Schedule pack_by_step(const Topology& t, Model m, Routing r, const std::vector<Message>& longest_first) {
  PathPacker packer(t, m, to_string(r));
  const std::vector<NodeId>& procs = t.processors();
  std::vector<std::vector<std::vector<Hops>>> pending(procs.size());  // per source: per message, its paths
  std::vector<std::vector<Message>> pending_msg(procs.size());
  for (const Message& msg : longest_first) {
    const auto i = static_cast<std::size_t>(std::lower_bound(procs.begin(), procs.end(), msg.src) - procs.begin());
    std::vector<Hops> paths;
    for (const auto& path : routes(t, msg.src, msg.dst, r)) paths.push_back(hops_of(t, path));
    pending[i].push_back(std::move(paths));
    pending_msg[i].push_back(msg);
  }
  std::size_t left = longest_first.size();
  for (std::size_t step = 0; left > 0; ++step) {
    for (std::size_t k = 0; k < procs.size(); ++k) {
      const std::size_t i = (k + step) % procs.size();  // rotate who picks first
      for (std::size_t j = 0; j < pending[i].size(); ++j) {
        const auto fit = std::find_if(pending[i][j].begin(), pending[i][j].end(),
                                      [&](const Hops& h) { return packer.fits(pending_msg[i][j], h, step); });
        if (fit == pending[i][j].end()) continue;
        packer.place(pending_msg[i][j], *fit, step);
        pending[i].erase(pending[i].begin() + static_cast<std::ptrdiff_t>(j));
        pending_msg[i].erase(pending_msg[i].begin() + static_cast<std::ptrdiff_t>(j));
        --left;
        if (m != Model::AllPort) break;  // one injection per NIC per step (single-port: one send)
        --j;
      }
    }
  }
  return packer.take();
}

}  // namespace

Schedule dimension_order_schedule(const Topology& t, Model m, Routing r) {
  (void)check_placement_torus(t, Placement{});  // equal sides K >= 3, d >= 2; UsageError otherwise
  const std::vector<NodeId>& procs = t.processors();
  const std::size_t n = procs.size();
  // Rounds: in round r processor i sends to processor i + r (mod |P|), so every round is a
  // permutation (one injection and one ejection per NIC). Three packings are made: message-major in
  // round order, message-major longest paths first (long paths are the hard ones to fit), and
  // step-major longest first; the shortest schedule is kept (all three are greedy, none dominates).
  std::vector<Message> rounds;
  for (std::size_t round = 1; round < n; ++round)
    for (std::size_t i = 0; i < n; ++i) rounds.push_back({procs[i], procs[(i + round) % n]});
  std::vector<std::pair<std::size_t, Message>> by_length;  // (hops, message), round order within a length
  for (const Message& msg : rounds) by_length.emplace_back(routes(t, msg.src, msg.dst, Routing::Odr).front().size(), msg);
  std::stable_sort(by_length.begin(), by_length.end(),
                   [](const auto& x, const auto& y) { return x.first > y.first; });
  std::vector<Message> longest;
  for (const auto& [len, msg] : by_length) longest.push_back(msg);
  Schedule best = pack(t, m, r, rounds);
  Schedule b = pack(t, m, r, longest);
  if (b.steps.size() < best.steps.size()) best = std::move(b);
  Schedule c = pack_by_step(t, m, r, longest);
  if (c.steps.size() < best.steps.size()) best = std::move(c);
  return best;
}

}  // namespace totex
