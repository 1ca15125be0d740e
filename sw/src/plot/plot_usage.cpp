// SPDX-License-Identifier: Apache-2.0
/// Which links are busy in which step: the data every schedule picture is drawn from.
#include <algorithm>

#include "totex/error.hpp"
#include "totex/plot/plot.hpp"

namespace totex::plot {

LinkUsage link_usage(const Topology& t, const Schedule& s) {
  LinkUsage u;
  u.links = t.links();
  u.load.assign(static_cast<std::size_t>(u.links), 0);
  u.group.resize(static_cast<std::size_t>(u.links));
  for (NodeId v = 0; v < t.nodes(); ++v)
    for (Port p = 0; p < t.degree(v); ++p) u.group[static_cast<std::size_t>(t.link_id(v, p))] = t.port_name(v, p);
  for (const auto& step : s.steps) {
    std::vector<std::int32_t> busy;
    busy.reserve(step.size());
    for (const Transfer& tr : step) {
      const LinkId l = t.link_id(tr.from, tr.port);
      busy.push_back(l);
      ++u.load[static_cast<std::size_t>(l)];
    }
    std::sort(busy.begin(), busy.end());
    busy.erase(std::unique(busy.begin(), busy.end()), busy.end());
    u.busy.push_back(std::move(busy));
  }
  return u;
}

LinkUsage min_line_usage(const MinNetwork& net, const MinSchedule& s) {
  const int n = net.terminals(), d = net.radix(), stages = net.stages();
  if (n > kMaxLatinTerminals)
    throw UsageError("--kind heatmap: a MIN of " + std::to_string(n) + " terminals is too large to draw (at most " +
                     std::to_string(kMaxLatinTerminals) + ")");
  LinkUsage u;
  u.links = n * stages;
  u.load.assign(static_cast<std::size_t>(u.links), 0);
  for (int j = 0; j < stages; ++j)
    for (int l = 0; l < n; ++l) u.group.push_back("stage " + std::to_string(j));
  u.busy.resize(static_cast<std::size_t>(s.steps(net)));
  // Configuration x crosses stage j in cycle x + j (one pipeline register per stage), so the
  // lines leaving stage j are busy in that cycle for every terminal that sends.
  for (std::size_t x = 0; x < s.configurations.size(); ++x) {
    const MinConfiguration& config = s.configurations[x];
    for (int src = 0; src < n; ++src) {
      if (!s.sends(x, src)) continue;
      int line = src;
      for (int j = 0; j < stages; ++j) {
        line = net.line_into_stage(j, line);
        const int sw = line / d;
        const int k = config[static_cast<std::size_t>(j * net.switches_per_stage() + sw)];
        line = sw * d + (line % d + k) % d;
        const std::int32_t row = j * n + line;
        u.busy[x + static_cast<std::size_t>(j)].push_back(row);
        ++u.load[static_cast<std::size_t>(row)];
      }
    }
  }
  for (auto& b : u.busy) std::sort(b.begin(), b.end());
  return u;
}

Bound main_term(const LowerBound& lb) {
  Bound b{lb.steps, ""};
  for (const BoundTerm& t : lb.terms)
    if (t.value == lb.steps) b.term += (b.term.empty() ? "" : ", ") + t.name;
  // A MIN's bound is its configurations plus the pipeline cycles: the configuration terms that bind.
  const auto pipeline = std::find_if(lb.terms.begin(), lb.terms.end(), [](const BoundTerm& t) { return t.name == "pipeline"; });
  if (b.term.empty() && pipeline != lb.terms.end()) {
    for (const BoundTerm& t : lb.terms)
      if (&t != &*pipeline && t.value == lb.steps - pipeline->value) b.term += (b.term.empty() ? "" : ", ") + t.name;
    if (!b.term.empty()) b.term += " + pipeline";
  }
  return b;
}

}  // namespace totex::plot
