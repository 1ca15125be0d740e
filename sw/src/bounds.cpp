// SPDX-License-Identifier: Apache-2.0
#include "totex/bounds.hpp"

#include <algorithm>

#include "totex/distance.hpp"

namespace totex {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

void add(LowerBound& lb, std::string name, std::int64_t value, std::string detail) {
  lb.steps = std::max(lb.steps, value);
  lb.terms.push_back({std::move(name), value, std::move(detail)});
}

/// Best cut bound: messages A->B (|A||B|) over the most that can cross per step.
void add_cut_bound(LowerBound& lb, const Topology& t, Model m) {
  std::int64_t best = 0;
  std::string best_detail;
  for (const Cut& cut : candidate_cuts(t)) {
    std::int64_t a = 0;
    for (bool x : cut.in_a) a += x ? 1 : 0;
    const std::int64_t b = t.nodes() - a;
    if (a == 0 || b == 0) continue;
    std::vector<bool> in_b(cut.in_a.size());
    for (std::size_t i = 0; i < in_b.size(); ++i) in_b[i] = !cut.in_a[i];
    for (const auto& side : {cut.in_a, in_b}) {
      std::int64_t per_step = cut_links(t, side);
      if (per_step == 0) continue;
      if (m == Model::SinglePort) per_step = std::min({per_step, a, b});  // one send/receive per node
      const std::int64_t v = ceil_div(a * b, per_step);
      if (v > best) {
        best = v;
        best_detail = "cut " + cut.name + ": " + std::to_string(a) + "*" + std::to_string(b) +
                      " messages / " + std::to_string(per_step) + " per step";
      }
    }
  }
  if (best > 0) add(lb, "bisection", best, best_detail);
}

}  // namespace

std::vector<Cut> candidate_cuts(const Topology& t) {
  std::vector<Cut> cuts;
  const auto n = static_cast<std::size_t>(t.nodes());
  if (t.is_product()) {
    for (std::size_t d = 0; d < t.factors().size(); ++d) {
      const int k = t.factors()[d].size;
      Cut c{"d" + std::to_string(d) + "<" + std::to_string(k / 2), std::vector<bool>(n)};
      for (NodeId v = 0; v < t.nodes(); ++v) c.in_a[static_cast<std::size_t>(v)] = t.coordinates(v)[d] < k / 2;
      cuts.push_back(std::move(c));
    }
  } else {
    for (int bit = 0; (1 << bit) < t.nodes(); ++bit) {
      Cut c{"bit" + std::to_string(bit) + "=0", std::vector<bool>(n)};
      for (NodeId v = 0; v < t.nodes(); ++v) c.in_a[static_cast<std::size_t>(v)] = ((v >> bit) & 1) == 0;
      cuts.push_back(std::move(c));
    }
  }
  return cuts;
}

std::int64_t cut_links(const Topology& t, const std::vector<bool>& in_a) {
  std::int64_t c = 0;
  for (NodeId v = 0; v < t.nodes(); ++v) {
    if (!in_a[static_cast<std::size_t>(v)]) continue;
    for (Port p = 0; p < t.degree(v); ++p) c += in_a[static_cast<std::size_t>(t.neighbor(v, p))] ? 0 : 1;
  }
  return c;
}

LowerBound lower_bound(const Topology& t, Model m) {
  LowerBound lb;
  const std::int64_t n = t.nodes();
  const std::int64_t sg = total_status(t);
  const std::string sg_text = "S_G=" + std::to_string(sg);
  switch (m) {
    case Model::SinglePort:
      add(lb, "average_status", ceil_div(sg, n), sg_text + ", AS(G) = S_G/N = " + std::to_string(sg) + "/" + std::to_string(n));
      break;
    case Model::AllPort:
    case Model::Nic: {
      const std::string what = t.is_vertex_transitive() ? "status/degree" : "S_G/links";
      add(lb, "link_traversals", ceil_div(sg, t.links()),
          sg_text + ", " + what + " = " + std::to_string(sg) + "/" + std::to_string(t.links()) + " directed links");
      int min_degree = t.degree(0);
      for (NodeId v = 1; v < t.nodes(); ++v) min_degree = std::min(min_degree, t.degree(v));
      add(lb, "injection", ceil_div(n - 1, min_degree),
          "(N-1)/min degree = " + std::to_string(n - 1) + "/" + std::to_string(min_degree));
      if (m == Model::Nic) add(lb, "nic_ejection", n - 1, "each NIC ejects N-1 messages, one per step");
      break;
    }
  }
  add_cut_bound(lb, t, m);
  return lb;
}

LowerBound lower_bound(const MinNetwork& net) {
  LowerBound lb;
  lb.steps = net.terminals() + net.stages() - 1;
  lb.terms.push_back({"configurations", net.terminals(),
                      "each output receives N messages (self slot included), one per configuration"});
  lb.terms.push_back({"pipeline", net.stages() - 1, "log_d N - 1 pipeline cycles"});
  return lb;
}

}  // namespace totex
