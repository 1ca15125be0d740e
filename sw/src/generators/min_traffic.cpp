// SPDX-License-Identifier: Apache-2.0
// Any traffic on a MIN: flits coloured into configurations (min_traffic.hpp).
#include "totex/generators/min_traffic.hpp"

#include <algorithm>
#include <map>
#include <limits>
#include <numeric>
#include <optional>

#include "totex/error.hpp"
#include "totex/generators/generators.hpp"
#include "totex/network/spec.hpp"
#include "totex/splitmix.hpp"
#include "totex/verify/message_index.hpp"
#include "cnf.hpp"

namespace totex {
namespace {

/// Conflict checks per second of budget (measured on this 2-core machine, quiet: about 320 M/s on
/// min:64:4 random:1:0.3:4, fewer on larger networks, 30 M/s on min:256:4 under load).
constexpr double kChecksPerSecond = 250e6;
constexpr double kDefaultBudget = 4.0;
/// The tabu search's memory: conflict-graph edges counted per shared resource, and flits x
/// configurations (its per-flit conflict counts).
constexpr std::int64_t kMaxTabuEdges = 200'000'000;
constexpr std::int64_t kMaxTabuCells = 50'000'000;
/// The exact stage: at most this many pair x configuration variables (min:16:4 random:1:0.3:4:
/// 76 pairs x 28 = 2,128; min:27:3 random:1:0.6:3 about 20,000).
constexpr std::int64_t kMaxExactVars = 60'000;

/// The switch states a pair's unique path needs: per stage, its switch (global index) and state.
struct PathNeed {
  NodeId src = 0, dst = 0;
  std::vector<std::int32_t> sw;
  std::vector<std::uint8_t> state;
  std::vector<std::uint8_t> in;  // the input port at each switch
};

/// First-fit colouring into configurations: per configuration, the states taken so far (-1:
/// free) and which terminals send and receive.
class FirstFit {
 public:
  FirstFit(const MinNetwork& net, const std::vector<PathNeed>& needs) : net_(net), needs_(needs) {}

  /// Each flit (an index into needs_, once per flit) into the first configuration it fits, in
  /// `order`; step_of[i] gets flit order[i]'s configuration. Returns the number of configurations.
  std::size_t place(const std::vector<std::uint32_t>& order, std::vector<std::int32_t>& step_of, std::int64_t& checks) {
    steps_ = 0;
    step_of.assign(order.size(), -1);
    for (std::size_t i = 0; i < order.size(); ++i) {
      const PathNeed& p = needs_[order[i]];
      std::size_t x = 0;
      for (; x < steps_; ++x) {
        ++checks;
        if (fits(x, p)) break;
      }
      if (x == steps_) open();
      take(x, p);
      step_of[i] = static_cast<std::int32_t>(x);
    }
    return steps_;
  }

  /// The schedule of the last place() call.
  MinSchedule schedule() const {
    MinSchedule s;
    s.topology = net_.spec();
    const auto n = static_cast<std::size_t>(net_.terminals());
    for (std::size_t x = 0; x < steps_; ++x) {
      MinConfiguration c(static_cast<std::size_t>(net_.switches()));
      for (std::size_t g = 0; g < c.size(); ++g) c[g] = static_cast<std::uint8_t>(std::max<std::int8_t>(state_[x][g], 0));
      s.configurations.push_back(std::move(c));
      std::vector<int> idle;
      for (std::size_t t = 0; t < n; ++t)
        if (!sends_[x][t]) idle.push_back(static_cast<int>(t));
      s.idle.push_back(std::move(idle));
    }
    return s;
  }

 private:
  bool fits(std::size_t x, const PathNeed& p) const {
    if (sends_[x][static_cast<std::size_t>(p.src)] || receives_[x][static_cast<std::size_t>(p.dst)]) return false;
    const std::vector<std::int8_t>& st = state_[x];
    for (std::size_t j = 0; j < p.sw.size(); ++j) {
      const std::int8_t have = st[static_cast<std::size_t>(p.sw[j])];
      if (have >= 0 && have != static_cast<std::int8_t>(p.state[j])) return false;
    }
    return true;
  }
  void open() {
    if (state_.size() <= steps_) {
      state_.emplace_back();
      sends_.emplace_back();
      receives_.emplace_back();
    }
    state_[steps_].assign(static_cast<std::size_t>(net_.switches()), -1);
    sends_[steps_].assign(static_cast<std::size_t>(net_.terminals()), false);
    receives_[steps_].assign(static_cast<std::size_t>(net_.terminals()), false);
    ++steps_;
  }
  void take(std::size_t x, const PathNeed& p) {
    sends_[x][static_cast<std::size_t>(p.src)] = true;
    receives_[x][static_cast<std::size_t>(p.dst)] = true;
    for (std::size_t j = 0; j < p.sw.size(); ++j) state_[x][static_cast<std::size_t>(p.sw[j])] = static_cast<std::int8_t>(p.state[j]);
  }

  const MinNetwork& net_;
  const std::vector<PathNeed>& needs_;
  std::size_t steps_ = 0;
  std::vector<std::vector<std::int8_t>> state_;
  std::vector<std::vector<bool>> sends_, receives_;
};

/// The configurations switch g needs for the flits counted in `count` (per switch g, state k and
/// input i at (g * d + k) * d + i): one state per configuration and one flit per input, so the sum
/// over states of the busiest input's flits.
std::int64_t switch_need(const std::vector<std::int64_t>& count, std::size_t g, std::size_t d) {
  std::int64_t sum = 0;
  for (std::size_t k = 0; k < d; ++k) {
    const auto first = count.begin() + static_cast<std::ptrdiff_t>((g * d + k) * d);
    sum += *std::max_element(first, first + static_cast<std::ptrdiff_t>(d));
  }
  return sum;
}

/// One configuration at a time, the most urgent flits first: a pair's urgency is the most its
/// source, its destination or a switch on its path still needs (the bound's terms over the flits
/// left), so the resources that bind are served in every configuration. Returns the flits (pair
/// indices) in configuration order.
std::vector<std::uint32_t> by_urgency(const MinNetwork& net, const std::vector<PathNeed>& needs, std::vector<std::int64_t> left,
                                      std::int64_t& checks) {
  const auto n = static_cast<std::size_t>(net.terminals());
  const auto d = static_cast<std::size_t>(net.radix());
  const auto switches = static_cast<std::size_t>(net.switches());
  std::vector<std::int64_t> sent(n, 0), recv(n, 0), count(switches * d * d, 0), need(switches, 0);
  const auto index = [&](const PathNeed& p, std::size_t j) {  // count's cell of hop j: (switch, state, input)
    const auto g = static_cast<std::size_t>(p.sw[j]);
    return (g * d + p.state[j]) * d + p.in[j];
  };
  for (std::size_t i = 0; i < needs.size(); ++i) {
    sent[static_cast<std::size_t>(needs[i].src)] += left[i];
    recv[static_cast<std::size_t>(needs[i].dst)] += left[i];
    for (std::size_t j = 0; j < needs[i].sw.size(); ++j) count[index(needs[i], j)] += left[i];
  }
  std::vector<std::uint32_t> order;
  std::vector<std::int64_t> urgency(needs.size());
  std::vector<std::uint32_t> live;
  for (std::uint32_t i = 0; i < needs.size(); ++i)
    if (left[i] > 0) live.push_back(i);
  std::vector<std::int8_t> state(switches);
  std::vector<bool> src_busy(n), dst_busy(n);
  while (!live.empty()) {
    for (std::size_t g = 0; g < switches; ++g) need[g] = switch_need(count, g, d);
    for (std::uint32_t i : live) {
      const PathNeed& p = needs[i];
      std::int64_t u = std::max(sent[static_cast<std::size_t>(p.src)], recv[static_cast<std::size_t>(p.dst)]);
      for (std::int32_t g : p.sw) u = std::max(u, need[static_cast<std::size_t>(g)]);
      urgency[i] = u;
    }
    std::stable_sort(live.begin(), live.end(), [&](std::uint32_t a, std::uint32_t b) { return urgency[a] > urgency[b]; });
    std::fill(state.begin(), state.end(), -1);
    std::fill(src_busy.begin(), src_busy.end(), false);
    std::fill(dst_busy.begin(), dst_busy.end(), false);
    for (std::uint32_t i : live) {
      const PathNeed& p = needs[i];
      ++checks;
      if (src_busy[static_cast<std::size_t>(p.src)] || dst_busy[static_cast<std::size_t>(p.dst)]) continue;
      bool fits = true;
      for (std::size_t j = 0; j < p.sw.size() && fits; ++j) {
        const std::int8_t have = state[static_cast<std::size_t>(p.sw[j])];
        fits = have < 0 || have == static_cast<std::int8_t>(p.state[j]);
      }
      if (!fits) continue;
      src_busy[static_cast<std::size_t>(p.src)] = dst_busy[static_cast<std::size_t>(p.dst)] = true;
      for (std::size_t j = 0; j < p.sw.size(); ++j) {
        state[static_cast<std::size_t>(p.sw[j])] = static_cast<std::int8_t>(p.state[j]);
        --count[index(p, j)];
      }
      --sent[static_cast<std::size_t>(p.src)];
      --recv[static_cast<std::size_t>(p.dst)];
      --left[i];
      order.push_back(i);
    }
    live.erase(std::remove_if(live.begin(), live.end(), [&](std::uint32_t i) { return left[i] == 0; }), live.end());
  }
  return order;
}

/// Tabucol (Hertz and de Werra 1987, with Galinier and Hao's tenure) at a fixed number of
/// configurations: flits may conflict; each move puts one conflicting flit into the configuration
/// that lowers the conflicts most, and the flit may not return to the configuration it left for a
/// while (unless that beats the fewest conflicts seen). Stops with no conflict left (true) or when
/// `checks` reaches `limit`. Neighbours come from the shared resources (source, destination, a
/// switch in another state), a flit counted once per resource it shares.
class TabuColouring {
 public:
  TabuColouring(const MinNetwork& net, const std::vector<PathNeed>& needs, std::vector<std::uint32_t> pair_of)
      : needs_(needs), pair_of_(std::move(pair_of)) {
    by_src_.resize(static_cast<std::size_t>(net.terminals()));
    by_dst_.resize(static_cast<std::size_t>(net.terminals()));
    by_switch_.resize(static_cast<std::size_t>(net.switches()));
    for (std::uint32_t v = 0; v < pair_of_.size(); ++v) {
      const PathNeed& p = needs_[pair_of_[v]];
      by_src_[static_cast<std::size_t>(p.src)].push_back(v);
      by_dst_[static_cast<std::size_t>(p.dst)].push_back(v);
      for (std::size_t j = 0; j < p.sw.size(); ++j) by_switch_[static_cast<std::size_t>(p.sw[j])].push_back({v, p.state[j]});
    }
  }

  /// The conflict graph's edges counted per shared resource (the work of one sweep over every
  /// flit's neighbours), for pairs `needs` carrying `flits` each.
  [[nodiscard]] static std::int64_t edges(const MinNetwork& net, const std::vector<PathNeed>& needs, const std::vector<std::int64_t>& flits) {
    std::vector<std::int64_t> src(static_cast<std::size_t>(net.terminals()), 0), dst(src), sw(static_cast<std::size_t>(net.switches()), 0);
    for (std::size_t i = 0; i < needs.size(); ++i) {
      src[static_cast<std::size_t>(needs[i].src)] += flits[i];
      dst[static_cast<std::size_t>(needs[i].dst)] += flits[i];
      for (std::int32_t g : needs[i].sw) sw[static_cast<std::size_t>(g)] += flits[i];
    }
    std::int64_t e = 0;
    for (const auto* v : {&src, &dst, &sw})
      for (std::int64_t n : *v) e += n * n;
    return e;
  }

  /// `colour` (per flit, < k) made conflict-free, or false when the work runs out.
  bool solve(std::vector<std::int32_t>& colour, int k, std::int64_t& checks, std::int64_t limit, std::uint64_t& seed) {
    const std::size_t flits = colour.size();
    const auto K = static_cast<std::size_t>(k);
    gamma_.assign(flits * K, 0);
    for (std::uint32_t v = 0; v < flits; ++v)
      neighbours(v, [&](std::uint32_t u) { ++gamma_[v * K + static_cast<std::size_t>(colour[u])]; });
    std::vector<std::int64_t> tabu(flits * K, -1);
    std::int64_t conflicts = 0, fewest = 0;
    for (std::uint32_t v = 0; v < flits; ++v) conflicts += gamma_[v * K + static_cast<std::size_t>(colour[v])];
    fewest = conflicts;
    for (std::int64_t iteration = 0; conflicts > 0; ++iteration) {
      if (checks >= limit) return false;
      std::int64_t best_delta = std::numeric_limits<std::int64_t>::max(), ties = 0, conflicting = 0;
      std::uint32_t move_v = 0;
      std::size_t move_c = 0;
      for (std::uint32_t v = 0; v < flits; ++v) {
        const auto own = static_cast<std::size_t>(colour[v]);
        const std::int32_t here = gamma_[v * K + own];
        if (here == 0) continue;
        ++conflicting;
        checks += k;
        for (std::size_t c = 0; c < K; ++c) {
          if (c == own) continue;
          const std::int64_t delta = gamma_[v * K + c] - here;
          if (tabu[v * K + c] > iteration && conflicts + 2 * delta >= fewest) continue;  // tabu, no aspiration
          if (delta < best_delta) {
            best_delta = delta, ties = 1, move_v = v, move_c = c;
          } else if (delta == best_delta && splitmix64(seed) % static_cast<std::uint64_t>(++ties) == 0) {
            move_v = v, move_c = c;
          }
        }
      }
      if (ties == 0) continue;  // every move tabu: the tenures run down
      const auto from = static_cast<std::size_t>(colour[move_v]);
      neighbours(move_v, [&](std::uint32_t u) {
        --gamma_[u * K + from];
        ++gamma_[u * K + move_c];
      });
      checks += 8;
      colour[move_v] = static_cast<std::int32_t>(move_c);
      tabu[move_v * K + from] = iteration + static_cast<std::int64_t>(splitmix64(seed) % 10) + conflicting * 6 / 10;
      conflicts += 2 * best_delta;
      fewest = std::min(fewest, conflicts);
    }
    return true;
  }

  template <class F>
  void neighbours(std::uint32_t v, F f) const {
    const PathNeed& p = needs_[pair_of_[v]];
    for (std::uint32_t u : by_src_[static_cast<std::size_t>(p.src)])
      if (u != v) f(u);
    for (std::uint32_t u : by_dst_[static_cast<std::size_t>(p.dst)])
      if (u != v) f(u);
    for (std::size_t j = 0; j < p.sw.size(); ++j)
      for (const auto& [u, state] : by_switch_[static_cast<std::size_t>(p.sw[j])])
        if (state != p.state[j]) f(u);
  }

 private:
  const std::vector<PathNeed>& needs_;
  std::vector<std::uint32_t> pair_of_;  // per flit, its pair (needs_ index)
  std::vector<std::vector<std::uint32_t>> by_src_, by_dst_;
  std::vector<std::vector<std::pair<std::uint32_t, std::uint8_t>>> by_switch_;
  std::vector<std::int32_t> gamma_;  // per flit and configuration: conflicting neighbours there
};

/// Exact: can `pairs` (needs, each with its flits) go in `k` configurations? A variable per pair
/// and configuration (a pair's flits are interchangeable, so it sends in exactly `flits` of them),
/// a state variable per switch, configuration and state (at most one), at most one pair per source
/// and per destination in a configuration. The busiest source's pairs take the first
/// configurations (any solution can be renumbered so), which removes most of their symmetry. On
/// Sat, `colour_of` gets each pair's configurations.
SatOutcome exact_colouring(const MinNetwork& net, const std::vector<PathNeed>& needs, const std::vector<std::int64_t>& flits, int k,
                           std::int64_t conflicts, std::vector<std::vector<int>>& colour_of, std::int64_t& clauses, std::int64_t& used) {
  CaDiCaL::Solver solver;
  Cnf cnf(solver);
  const auto K = static_cast<std::size_t>(k);
  const auto d = static_cast<std::size_t>(net.radix());
  std::vector<std::vector<int>> y(needs.size(), std::vector<int>(K));
  for (auto& row : y)
    for (int& v : row) v = cnf.var();
  std::vector<int> state(static_cast<std::size_t>(net.switches()) * K * d, 0);  // lazily created
  const auto state_var = [&](std::size_t g, std::size_t c, std::size_t st) {
    int& v = state[(g * K + c) * d + st];
    if (v == 0) v = cnf.var();
    return v;
  };
  const auto n = static_cast<std::size_t>(net.terminals());
  std::vector<std::vector<std::size_t>> by_src(n), by_dst(n);
  for (std::size_t p = 0; p < needs.size(); ++p) {
    by_src[static_cast<std::size_t>(needs[p].src)].push_back(p);
    by_dst[static_cast<std::size_t>(needs[p].dst)].push_back(p);
    for (std::size_t c = 0; c < K; ++c)
      for (std::size_t j = 0; j < needs[p].sw.size(); ++j)
        cnf.clause({-y[p][c], state_var(static_cast<std::size_t>(needs[p].sw[j]), c, needs[p].state[j])});
    std::vector<int> neg;
    for (int v : y[p]) neg.push_back(-v);
    cnf.at_most(y[p], static_cast<int>(flits[p]));
    cnf.at_most(neg, k - static_cast<int>(flits[p]));
  }
  for (std::size_t g = 0; g < static_cast<std::size_t>(net.switches()); ++g)
    for (std::size_t c = 0; c < K; ++c) {
      std::vector<int> used_states;
      for (std::size_t st = 0; st < d; ++st)
        if (state[(g * K + c) * d + st] != 0) used_states.push_back(state[(g * K + c) * d + st]);
      cnf.at_most(used_states, 1);
    }
  for (const auto* groups : {&by_src, &by_dst})
    for (const auto& group : *groups)
      for (std::size_t c = 0; c < K && group.size() > 1; ++c) {
        std::vector<int> x;
        for (std::size_t p : group) x.push_back(y[p][c]);
        cnf.at_most(x, 1);
      }
  // Symmetry: the busiest source's pairs in configurations 0, 1, ... in turn.
  std::size_t busiest = 0;
  std::int64_t most = -1;
  for (std::size_t v = 0; v < n; ++v) {
    std::int64_t sum = 0;
    for (std::size_t p : by_src[v]) sum += flits[p];
    if (sum > most) most = sum, busiest = v;
  }
  std::size_t next = 0;
  for (std::size_t p : by_src[busiest])
    for (std::int64_t f = 0; f < flits[p] && next < K; ++f) cnf.clause({y[p][next++]});
  clauses = cnf.clauses();
  const SatOutcome o = solve_limited(solver, conflicts, safety_cap(600), used);
  if (o != SatOutcome::Sat) return o;
  colour_of.assign(needs.size(), {});
  for (std::size_t p = 0; p < needs.size(); ++p)
    for (std::size_t c = 0; c < K; ++c)
      if (solver.val(y[p][c]) > 0) colour_of[p].push_back(static_cast<int>(c));
  return o;
}

}  // namespace

LowerBound min_traffic_lower_bound(const MinNetwork& net, const Traffic& traffic) {
  const int n = net.terminals();
  std::int64_t inject = 0, eject = 0;
  NodeId inject_at = 0, eject_at = 0;
  for (NodeId v = 0; v < n; ++v) {
    if (traffic.sent(v) > inject) inject = traffic.sent(v), inject_at = v;
    if (traffic.received(v) > eject) eject = traffic.received(v), eject_at = v;
  }
  // Flits per switch output line of the inner stages (the last stage's lines are the terminals),
  // and per switch, state and input port (switch_need).
  const auto d = static_cast<std::size_t>(net.radix());
  std::vector<std::int64_t> line(static_cast<std::size_t>(net.switches()) * d, 0), count(static_cast<std::size_t>(net.switches()) * d * d, 0);
  traffic.for_each([&](NodeId s, NodeId t, std::int64_t w) {
    for (const MinNetwork::Hop& h : net.path(s, t)) {
      const auto g = static_cast<std::size_t>(net.switch_of(h));
      if (h.stage + 1 < net.stages()) line[g * d + static_cast<std::size_t>(h.out_port)] += w;
      count[(g * d + static_cast<std::size_t>(net.state_of(h))) * d + static_cast<std::size_t>(h.in_port)] += w;
    }
  });
  std::int64_t state = 0;
  std::size_t state_at = 0;
  for (std::size_t g = 0; g < static_cast<std::size_t>(net.switches()); ++g)
    if (const std::int64_t need = switch_need(count, g, d); need > state) state = need, state_at = g;
  const auto busiest = std::max_element(line.begin(), line.end());
  const std::int64_t link = busiest == line.end() ? 0 : *busiest;
  const auto at = static_cast<std::size_t>(busiest - line.begin());
  LowerBound lb;
  lb.terms.push_back({"nic_injection", inject, "terminal " + std::to_string(inject_at) + " sends " + std::to_string(inject) +
                      " flits, one per configuration", inject, {}});
  lb.terms.push_back({"nic_ejection", eject, "terminal " + std::to_string(eject_at) + " receives " + std::to_string(eject) +
                      " flits, one per configuration", eject, {}});
  const auto spp = static_cast<std::size_t>(net.switches_per_stage());
  if (link > 0) {
    const std::size_t g = at / d;
    lb.terms.push_back({"switch_link", link, "stage " + std::to_string(g / spp) + ", switch " + std::to_string(g % spp) + ", output " +
                        std::to_string(at % d) +
                        ": " + std::to_string(link) + " flits on their only path, one per configuration", link, {}});
  }
  if (state > 0)
    lb.terms.push_back({"switch_states", state, "stage " + std::to_string(state_at / spp) + ", switch " + std::to_string(state_at % spp) +
                        ": " + std::to_string(state) +
                        " configurations, one state each: per state, the busiest input's flits", state, {}});
  const std::int64_t configurations = std::max({inject, eject, link, state, std::int64_t{1}});
  lb.terms.push_back({"pipeline", net.stages() - 1, "log_d N - 1 pipeline cycles", -1, {}});
  lb.steps = configurations + net.stages() - 1;
  return lb;
}

MinTrafficOutcome min_traffic_schedule(const MinNetwork& net, const Traffic& traffic, double budget_seconds) {
  const Topology nodes = min_traffic_nodes(net);
  if (traffic.nodes() != net.terminals())
    throw UsageError("traffic " + traffic.spec() + " is for " + std::to_string(traffic.nodes()) + " nodes; " + net.spec() + " has " +
                     std::to_string(net.terminals()) + " terminals");
  MinTrafficOutcome out;
  out.bound = min_traffic_lower_bound(net, traffic);
  const std::int64_t target = out.bound.steps - (net.stages() - 1);  // configurations
  std::vector<PathNeed> needs;
  traffic.for_each([&](NodeId s, NodeId t, std::int64_t) {
    PathNeed p{s, t, {}, {}, {}};
    for (const MinNetwork::Hop& h : net.path(s, t)) {
      p.sw.push_back(net.switch_of(h));
      p.state.push_back(static_cast<std::uint8_t>(net.state_of(h)));
      p.in.push_back(static_cast<std::uint8_t>(h.in_port));
    }
    needs.push_back(std::move(p));
  });
  // The first order: the pairs on the busiest terminals first, a pair's flits together.
  std::vector<std::uint32_t> pairs(needs.size());
  std::iota(pairs.begin(), pairs.end(), 0U);
  std::vector<std::int64_t> flits_of(needs.size());
  {
    std::size_t i = 0;
    traffic.for_each([&](NodeId, NodeId, std::int64_t w) { flits_of[i++] = w; });
  }
  std::stable_sort(pairs.begin(), pairs.end(), [&](std::uint32_t a, std::uint32_t b) {
    const auto key = [&](std::uint32_t p) {
      return std::max(traffic.sent(needs[p].src), traffic.received(needs[p].dst));
    };
    return key(a) > key(b);
  });
  std::vector<std::uint32_t> order;
  for (std::uint32_t p : pairs)
    for (std::int64_t k = 0; k < flits_of[p]; ++k) order.push_back(p);
  const double budget = budget_seconds > 0 ? budget_seconds : kDefaultBudget;
  const auto limit = static_cast<std::int64_t>(budget * kChecksPerSecond);
  std::int64_t checks = 0;
  FirstFit first_fit(net, needs);
  std::vector<std::int32_t> step_of;
  std::size_t best = first_fit.place(order, step_of, checks);
  MinSchedule best_schedule = first_fit.schedule();
  out.log.push_back("first fit: " + std::to_string(best) + " configurations (bound " + std::to_string(target) + ")");
  // A colouring given as flits in configuration order (first fit keeps or improves it) becomes
  // the best when it needs fewer configurations; otherwise the best colouring is restored.
  const auto consider = [&](std::vector<std::uint32_t> flits, const std::string& what) {
    std::vector<std::int32_t> steps;
    const std::size_t got = first_fit.place(flits, steps, checks);
    if (!what.empty()) out.log.push_back(what + ": " + std::to_string(got) + " configurations");
    if (got < best) {
      best = got;
      best_schedule = first_fit.schedule();
      order = std::move(flits);
      step_of = std::move(steps);
      return;
    }
    (void)first_fit.place(order, step_of, checks);
  };
  if (static_cast<std::int64_t>(best) > target && traffic.is_uniform()) {
    // all:M over the terminals: paper 002's configurations M times (the self slots idle).
    std::map<std::pair<NodeId, NodeId>, std::uint32_t> pair_of;
    for (std::uint32_t i = 0; i < needs.size(); ++i) pair_of[{needs[i].src, needs[i].dst}] = i;
    const MinSchedule latin = latin_schedule(net, zero_m0(net));
    std::vector<std::uint32_t> repeated;
    for (std::int64_t m = 0; m < traffic.uniform_flits(); ++m)
      for (const MinConfiguration& c : latin.configurations) {
        const std::vector<int> perm = net.permutation(c);
        for (NodeId src = 0; src < net.terminals(); ++src)
          if (const auto it = pair_of.find({src, perm[static_cast<std::size_t>(src)]}); it != pair_of.end()) repeated.push_back(it->second);
      }
    consider(std::move(repeated), "paper 002's configurations " + std::to_string(traffic.uniform_flits()) + " times");
  }
  if (static_cast<std::int64_t>(best) > target) {
    consider(by_urgency(net, needs, flits_of, checks), "most urgent first");
  }
  // Iterated greedy: the flits again, one configuration's flits after another's, in a new order
  // of the configurations; greedy then needs no more configurations than before.
  std::uint64_t seed = 0x6d696e74;
  // An eighth of the work for the iterated greedy, the rest for the tabu search below (when it
  // fits): on min:64:4 random:1:0.3:4 the greedy stalls within a few rounds, the search goes on.
  const bool tabu_fits = TabuColouring::edges(net, needs, flits_of) <= kMaxTabuEdges &&
                         static_cast<std::int64_t>(order.size()) * static_cast<std::int64_t>(best) <= kMaxTabuCells;
  const std::int64_t greedy_limit = tabu_fits ? checks + (limit - checks) / 8 : limit;
  for (int round = 0; static_cast<std::int64_t>(best) > target && checks < greedy_limit; ++round) {
    std::vector<std::uint32_t> classes(best);
    std::iota(classes.begin(), classes.end(), 0U);
    std::vector<std::size_t> size(best, 0);
    for (std::int32_t x : step_of) ++size[static_cast<std::size_t>(x)];
    if (round % 3 == 0) {
      std::reverse(classes.begin(), classes.end());
    } else if (round % 3 == 1) {
      std::stable_sort(classes.begin(), classes.end(), [&](std::uint32_t a, std::uint32_t b) { return size[a] > size[b]; });
    } else {
      for (std::size_t i = classes.size(); i > 1; --i) std::swap(classes[i - 1], classes[splitmix64(seed) % i]);
    }
    std::vector<std::vector<std::uint32_t>> members(best);
    for (std::size_t i = 0; i < order.size(); ++i) members[static_cast<std::size_t>(step_of[i])].push_back(order[i]);
    std::vector<std::uint32_t> next;
    next.reserve(order.size());
    for (std::uint32_t c : classes) next.insert(next.end(), members[c].begin(), members[c].end());
    order = std::move(next);
    const std::size_t got = first_fit.place(order, step_of, checks);
    if (got < best) {
      best = got;
      best_schedule = first_fit.schedule();
      out.log.push_back("iterated greedy, round " + std::to_string(round + 1) + ": " + std::to_string(best) + " configurations");
    }
  }
  // Tabu search one configuration below the best: the smallest configuration's flits go where
  // they conflict least, then the search removes the conflicts; each success lowers the count.
  if (tabu_fits) {
    std::vector<std::int32_t> colour = step_of;  // the best colouring, per flit of `order`
    std::optional<TabuColouring> search(std::in_place, net, needs, order);
    while (static_cast<std::int64_t>(best) > target && checks < limit) {
      const int k = static_cast<int>(best) - 1;
      std::vector<std::int64_t> size(best, 0);
      for (std::int32_t c : colour) ++size[static_cast<std::size_t>(c)];
      const auto smallest = static_cast<std::int32_t>(std::min_element(size.begin(), size.end()) - size.begin());
      std::vector<std::int32_t> trial = colour;
      for (std::int32_t& c : trial)
        if (c == smallest) c = -1;
        else if (c > smallest) --c;
      for (std::uint32_t v = 0; v < trial.size(); ++v) {
        if (trial[v] >= 0) continue;
        std::vector<std::int32_t> clash(static_cast<std::size_t>(k), 0);
        search->neighbours(v, [&](std::uint32_t u) {
          if (trial[u] >= 0) ++clash[static_cast<std::size_t>(trial[u])];
        });
        trial[v] = static_cast<std::int32_t>(std::min_element(clash.begin(), clash.end()) - clash.begin());
      }
      if (!search->solve(trial, k, checks, limit, seed)) break;
      std::vector<std::uint32_t> by_class(order.size());
      std::iota(by_class.begin(), by_class.end(), 0U);
      std::stable_sort(by_class.begin(), by_class.end(), [&](std::uint32_t a, std::uint32_t b) { return trial[a] < trial[b]; });
      std::vector<std::uint32_t> flits(order.size());
      for (std::size_t i = 0; i < by_class.size(); ++i) flits[i] = order[by_class[i]];
      consider(std::move(flits), "tabu search");  // at most k: adopted
      colour = step_of;
      search.emplace(net, needs, order);
    }
  }
  out.log.push_back(std::to_string(checks) + " conflict checks (budget " + std::to_string(limit) + ")");
  // Exact, on small instances: one configuration fewer, SAT (better) or UNSAT (a proof).
  std::int64_t sat_work = static_cast<std::int64_t>(budget * kConflictClausesPerSecond);
  while (static_cast<std::int64_t>(best) > target && sat_work > 0) {
    const int k = static_cast<int>(best) - 1;
    if (static_cast<std::int64_t>(needs.size()) * k > kMaxExactVars) {
      out.log.push_back("exact: not tried (" + std::to_string(needs.size()) + " pairs x " + std::to_string(k) +
                        " configurations is more than " + std::to_string(kMaxExactVars) + " variables)");
      break;
    }
    std::vector<std::vector<int>> colour_of;
    std::int64_t clauses = 0, used = 0;
    const std::int64_t conflicts = sat_work / std::max<std::int64_t>(1, static_cast<std::int64_t>(needs.size()) * k * 8);
    const SatOutcome o = exact_colouring(net, needs, flits_of, k, conflicts, colour_of, clauses, used);
    sat_work -= (used + 1) * std::max<std::int64_t>(clauses, 1);
    out.log.push_back("exact: " + std::to_string(k) + " configurations " + outcome_word(o) + " (" + std::to_string(clauses) +
                      " clauses, " + std::to_string(used) + " conflicts)");
    if (o == SatOutcome::Unsat) {
      out.proof = "exact: " + std::to_string(k) + " configurations infeasible (UNSAT)";
      break;
    }
    if (o != SatOutcome::Sat) break;
    std::vector<std::pair<int, std::uint32_t>> by_class;
    for (std::uint32_t p = 0; p < colour_of.size(); ++p)
      for (int c : colour_of[p]) by_class.push_back({c, p});
    std::sort(by_class.begin(), by_class.end());
    std::vector<std::uint32_t> flits;
    for (const auto& cp : by_class) flits.push_back(cp.second);
    consider(std::move(flits), "");  // at most k: adopted
  }
  best_schedule.algorithm = "min-traffic";
  best_schedule.traffic = traffic_tag(nodes, &traffic);
  out.schedule = std::move(best_schedule);
  out.proven_optimal = static_cast<std::int64_t>(best) == target || !out.proof.empty();
  if (static_cast<std::int64_t>(best) == target) out.proof = "meets the lower bound " + std::to_string(out.bound.steps);
  return out;
}

}  // namespace totex
