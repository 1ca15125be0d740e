// SPDX-License-Identifier: Apache-2.0
#include "path_packing.hpp"

namespace totex {
namespace {
std::size_t at_index(std::int64_t i) { return static_cast<std::size_t>(i); }
}  // namespace

PathPacker::PathPacker(const Topology& t, Model m, std::string algorithm)
    : t_(t), model_(m), schedule_{t.spec(), m, std::move(algorithm), {}} {}

PathPacker::Step& PathPacker::at(std::size_t step) {
  const auto links = at_index(t_.links());
  const auto nodes = at_index(t_.nodes());
  while (steps_.size() <= step)
    steps_.push_back({std::vector<bool>(links), std::vector<bool>(nodes), std::vector<bool>(nodes),
                      std::vector<bool>(nodes), std::vector<bool>(nodes)});
  return steps_[step];
}

bool PathPacker::fits(const Message& msg, const Hops& hops, std::size_t start) {
  for (std::size_t h = 0; h < hops.size(); ++h) {
    Step& step = at(start + h);
    const auto [v, p] = hops[h];
    if (step.link[at_index(t_.link_id(v, p))]) return false;
    if (model_ == Model::SinglePort && (step.send[at_index(v)] || step.recv[at_index(t_.neighbor(v, p))])) return false;
    if (model_ == Model::Nic && h == 0 && step.inject[at_index(msg.src)]) return false;
    if (model_ == Model::Nic && h + 1 == hops.size() && step.eject[at_index(msg.dst)]) return false;
  }
  return true;
}

std::size_t PathPacker::earliest(const Message& msg, const Hops& hops, std::size_t from) {
  std::size_t start = from;
  while (!fits(msg, hops, start)) ++start;
  return start;
}

void PathPacker::place(const Message& msg, const Hops& hops, std::size_t start) {
  for (std::size_t h = 0; h < hops.size(); ++h) {
    Step& step = at(start + h);
    const auto [v, p] = hops[h];
    step.link[at_index(t_.link_id(v, p))] = true;
    step.send[at_index(v)] = true;
    step.recv[at_index(t_.neighbor(v, p))] = true;
    if (h == 0) step.inject[at_index(msg.src)] = true;
    if (h + 1 == hops.size()) step.eject[at_index(msg.dst)] = true;
    if (schedule_.steps.size() <= start + h) schedule_.steps.resize(start + h + 1);
    schedule_.steps[start + h].push_back({msg, v, p});
  }
}

}  // namespace totex
