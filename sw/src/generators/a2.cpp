// SPDX-License-Identifier: Apache-2.0
#include "totex/generators/a2.hpp"

#include <algorithm>
#include <array>
#include <tuple>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "totex/network/distance.hpp"
#include "totex/error.hpp"

namespace totex {
namespace {

std::size_t idx(std::int64_t i) { return static_cast<std::size_t>(i); }

/// K2 (ring:2, path:2, complete:2): both nodes send in one step.
Schedule k2_exchange(const Factor& f) {
  Schedule s{to_string(f), Model::SinglePort, "k2", {}};
  s.steps.push_back({Transfer{{0, 1}, 0, 0}, Transfer{{1, 0}, 1, 0}});
  return s;
}

Schedule complete_exchange(const Factor& f) {
  const Topology g = factor_graph(f);
  const int m = f.size;
  Schedule s{to_string(f), Model::SinglePort, "complete-shift", {}};
  for (int i = 1; i < m; ++i) {
    std::vector<Transfer> step;
    for (NodeId v = 0; v < m; ++v) {
      const NodeId w = (v + i) % m;
      step.push_back({{v, w}, v, *g.port_to(v, w)});
    }
    s.steps.push_back(std::move(step));
  }
  return s;
}

Schedule ring_exchange(const Factor& f) {
  const Topology g = factor_graph(f);
  const int k = f.size;
  Schedule s{to_string(f), Model::SinglePort, "ring-class-pipeline", {}};
  for (int delta = 1; delta < k; ++delta) {
    const bool plus = 2 * delta <= k;
    const int dir = plus ? 1 : -1;
    const int hops = plus ? delta : k - delta;
    for (int h = 0; h < hops; ++h) {
      std::vector<Transfer> step;
      for (NodeId v = 0; v < k; ++v) {
        // The class-delta message that has made h hops and stands at v.
        const NodeId src = ((v - h * dir) % k + k) % k;
        const NodeId dst = (src + delta) % k;
        const NodeId to = ((v + dir) % k + k) % k;
        step.push_back({{src, dst}, v, *g.port_to(v, to)});
      }
      s.steps.push_back(std::move(step));
    }
  }
  return s;
}

}  // namespace

Schedule path_exchange(int k) {
  if (k < 2) throw UsageError("path:k needs k >= 2");
  const Factor f{FactorKind::Path, k};
  if (k == 2) return k2_exchange(f);
  const Topology g = factor_graph(f);
  const Port plus_port = 0;  // port 0 of an interior node leads to x+1; node 0 has only that one
  struct Msg {
    NodeId src, dst, pos;
  };
  // held[2*v + (dir>0)]: messages at v that still travel in direction dir.
  std::vector<std::vector<Msg>> held(idx(2 * k));
  // rem[v]: messages v still has to send (own ones plus the ones that must cross it).
  std::vector<std::int64_t> rem(idx(k), 0);
  for (NodeId a = 0; a < k; ++a) {
    for (NodeId b = 0; b < k; ++b) {
      if (a == b) continue;
      held[idx(2 * a + (b > a ? 1 : 0))].push_back({a, b, a});
      for (NodeId x = std::min(a, b) + (b < a ? 1 : 0); x < std::max(a, b) + (b < a ? 1 : 0); ++x) ++rem[idx(x)];
    }
  }
  auto next_rem = [&](const Msg& m) {
    const NodeId nxt = m.pos + (m.dst > m.pos ? 1 : -1);
    return nxt == m.dst ? std::int64_t{0} : rem[idx(nxt)];
  };
  Schedule s{to_string(f), Model::SinglePort, "path-maxweight", {}};
  std::int64_t left = static_cast<std::int64_t>(k) * (k - 1);
  while (left > 0) {
    // Candidate per directed link: the message at v in that direction whose next node has the
    // most left to send (then the most hops left, then the smallest (src, dst)).
    std::vector<int> best(idx(2 * k), -1);
    for (std::size_t h = 0; h < held.size(); ++h) {
      const auto& bucket = held[h];
      for (std::size_t i = 0; i < bucket.size(); ++i) {
        if (best[h] < 0) {
          best[h] = static_cast<int>(i);
          continue;
        }
        const Msg& x = bucket[i];
        const Msg& y = bucket[idx(best[h])];
        const auto kx = std::make_tuple(next_rem(x), std::abs(x.dst - x.pos), -x.src, -x.dst);
        const auto ky = std::make_tuple(next_rem(y), std::abs(y.dst - y.pos), -y.src, -y.dst);
        if (kx > ky) best[h] = static_cast<int>(i);
      }
    }
    // One step = a set of link crossings, each node sending <= 1 and receiving <= 1. Pick the
    // set maximising the summed remaining work rem[sender] by dynamic programming over the
    // links (v, v+1); state = (v+1 already sends, v+1 already receives).
    constexpr std::int64_t kNone = -1;
    struct Cell {
      std::int64_t value = kNone;
      int prev = -1;
      int choice = 0;  // bit 0: v -> v+1, bit 1: v+1 -> v
    };
    std::vector<std::array<Cell, 4>> dp(idx(k));
    dp[0][0].value = 0;
    for (NodeId v = 0; v + 1 < k; ++v) {
      const bool can_r = best[idx(2 * v + 1)] >= 0;
      const bool can_l = best[idx(2 * (v + 1))] >= 0;
      for (int st = 0; st < 4; ++st) {
        const Cell& c = dp[idx(v)][idx(st)];
        if (c.value == kNone) continue;
        const bool v_sends = (st & 1) != 0, v_gets = (st & 2) != 0;
        for (int ch = 0; ch < 4; ++ch) {
          const bool r = (ch & 1) != 0, l = (ch & 2) != 0;
          if ((r && (v_sends || !can_r)) || (l && (v_gets || !can_l))) continue;
          const std::int64_t val = c.value + (r ? rem[idx(v)] : 0) + (l ? rem[idx(v + 1)] : 0);
          const int ns = (l ? 1 : 0) | (r ? 2 : 0);
          Cell& nc = dp[idx(v + 1)][idx(ns)];
          if (val > nc.value) nc = {val, st, ch};
        }
      }
    }
    int st = 0;
    for (int x = 1; x < 4; ++x)
      if (dp[idx(k - 1)][idx(x)].value > dp[idx(k - 1)][idx(st)].value) st = x;
    std::vector<std::pair<NodeId, int>> moves;  // (sender, dir)
    for (NodeId v = k - 1; v > 0; --v) {
      const Cell& c = dp[idx(v)][idx(st)];
      if (c.choice & 1) moves.emplace_back(v - 1, 1);
      if (c.choice & 2) moves.emplace_back(v, -1);
      st = c.prev;
    }
    std::vector<Transfer> step;
    std::vector<Msg> arrived;
    for (const auto& [v, dir] : moves) {
      auto& bucket = held[idx(2 * v + (dir > 0 ? 1 : 0))];
      const auto bi = idx(best[idx(2 * v + (dir > 0 ? 1 : 0))]);
      Msg m = bucket[bi];
      bucket.erase(bucket.begin() + static_cast<std::ptrdiff_t>(bi));
      const NodeId to = v + dir;
      step.push_back({{m.src, m.dst}, v, dir > 0 ? plus_port : *g.port_to(v, to)});
      --rem[idx(v)];
      m.pos = to;
      if (to == m.dst) {
        --left;
      } else {
        arrived.push_back(m);
      }
    }
    for (const Msg& m : arrived) held[idx(2 * m.pos + (m.dst > m.pos ? 1 : 0))].push_back(m);
    if (step.empty()) throw std::logic_error("path_exchange made no progress");
    s.steps.push_back(std::move(step));
  }
  return s;
}

std::int64_t path_exchange_lower_bound(int k) {
  // Node v must send its own k-1 messages and relay every message whose path crosses it.
  std::int64_t best = 0;
  for (std::int64_t v = 0; v < k; ++v) best = std::max(best, (k - 1) + 2 * v * (k - 1 - v));
  return best;
}

Schedule factor_exchange(const Factor& f) {
  if (f.size < 2) throw UsageError("factor " + to_string(f) + " needs size >= 2");
  if (f.size == 2) return k2_exchange(f);
  switch (f.kind) {
    case FactorKind::Complete: return complete_exchange(f);
    case FactorKind::Ring: return ring_exchange(f);
    case FactorKind::Path: return path_exchange(f.size);
  }
  throw std::logic_error("unknown factor kind");
}

std::int64_t factor_exchange_steps(const Factor& f) {
  const std::int64_t k = f.size;
  if (k == 2) return 1;
  switch (f.kind) {
    case FactorKind::Complete: return k - 1;
    case FactorKind::Ring: return (k / 2) * ((k + 1) / 2);
    case FactorKind::Path: return static_cast<std::int64_t>(path_exchange(f.size).steps.size());
  }
  throw std::logic_error("unknown factor kind");
}

namespace {

std::string sub_spec(const std::vector<Factor>& fs, std::size_t count) {
  std::string s;
  for (std::size_t i = 0; i < count; ++i) s += (i ? "*" : "") + to_string(fs[i]);
  return s;
}

/// What generating any step of A2 needs: the factor schedules and, per level (the product of
/// dims 0..level), its steps, transfers and node degrees (port offsets of the next dimension).
struct A2Plan {
  std::vector<Factor> fs;
  std::vector<Schedule> factor;           // factor_exchange(fs[l])
  std::vector<std::int64_t> steps;        // steps of level l
  std::vector<std::int64_t> transfers;    // transfers of level l
  std::vector<int> nodes;                 // nodes of level l
  std::vector<std::vector<Port>> degree;  // degree[l][v] in the level-l product (l < top)

  explicit A2Plan(const std::vector<Factor>& factors) : fs(factors) {
    for (const Factor& f : fs) factor.push_back(factor_exchange(f));
    for (std::size_t l = 0; l < fs.size(); ++l) {
      const auto tb = static_cast<std::int64_t>(factor[l].steps.size());
      std::int64_t trb = 0;
      for (const auto& st : factor[l].steps) trb += static_cast<std::int64_t>(st.size());
      if (l == 0) {
        steps.push_back(tb);
        transfers.push_back(trb);
        nodes.push_back(fs[0].size);
      } else {
        const std::int64_t n1 = nodes[l - 1], n2 = fs[l].size;
        steps.push_back(n1 * tb + n2 * steps[l - 1]);                    // Thm 2
        transfers.push_back(n1 * n1 * trb + n2 * n2 * transfers[l - 1]);  // both phases, every copy
        nodes.push_back(static_cast<int>(n1 * n2));
      }
      if (l + 1 < fs.size()) {
        std::vector<Factor> sub(fs.begin(), fs.begin() + static_cast<std::ptrdiff_t>(l + 1));
        const Topology g = Topology::product(sub, sub_spec(fs, l + 1));
        std::vector<Port> deg(static_cast<std::size_t>(g.nodes()));
        for (NodeId v = 0; v < g.nodes(); ++v) deg[static_cast<std::size_t>(v)] = g.degree(v);
        degree.push_back(std::move(deg));
      }
    }
  }

  /// Appends step t of level `level` to `out`; scratch[l] holds level l's steps while the level
  /// above copies them. The order of transfers is the one of Fig. 4's loops.
  void step(std::size_t level, std::int64_t t, std::vector<Transfer>& out,
            std::vector<std::vector<Transfer>>& scratch) const {
    if (level == 0) {
      const auto& st = factor[0].steps[idx(t)];
      out.insert(out.end(), st.begin(), st.end());
      return;
    }
    const int n1 = nodes[level - 1];
    const int n2 = fs[level].size;
    const auto tb = static_cast<std::int64_t>(factor[level].steps.size());
    if (t < n1 * tb) {  // lines 1-3: batch R_r over dimension `level` in every copy B_a
      const auto r = static_cast<NodeId>(t / tb);
      const auto& bstep = factor[level].steps[idx(t % tb)];
      const std::vector<Port>& deg = degree[level - 1];
      for (NodeId av = 0; av < n1; ++av) {
        const Port base = deg[static_cast<std::size_t>(av)];
        for (const Transfer& tr : bstep)
          out.push_back({{av + n1 * tr.msg.src, r + n1 * tr.msg.dst}, av + n1 * tr.from, base + tr.port});
      }
      return;
    }
    // lines 4-6: round kk, every copy A_j runs A's step on the messages from (*, kk)
    const std::int64_t u = t - n1 * tb;
    const auto kk = static_cast<NodeId>(u / steps[level - 1]);
    std::vector<Transfer>& inner = scratch[level - 1];
    inner.clear();
    step(level - 1, u % steps[level - 1], inner, scratch);
    for (NodeId j = 0; j < n2; ++j)
      for (const Transfer& tr : inner)
        out.push_back({{tr.msg.src + n1 * kk, tr.msg.dst + n1 * j}, tr.from + n1 * j, tr.port});
  }
};

class A2Cursor : public StepCursor {
 public:
  explicit A2Cursor(std::shared_ptr<const A2Plan> plan) : plan_(std::move(plan)), scratch_(plan_->fs.size()) {}
  bool next(std::vector<Transfer>& out) override {
    out.clear();
    const std::size_t top = plan_->fs.size() - 1;
    if (t_ >= plan_->steps[top]) return false;
    plan_->step(top, t_++, out, scratch_);
    return true;
  }

 private:
  std::shared_ptr<const A2Plan> plan_;
  std::vector<std::vector<Transfer>> scratch_;
  std::int64_t t_ = 0;
};

class A2Source : public StepSource {
 public:
  explicit A2Source(std::shared_ptr<const A2Plan> plan) : plan_(std::move(plan)) {}
  [[nodiscard]] std::size_t step_count() const override { return idx(plan_->steps.back()); }
  [[nodiscard]] std::int64_t transfer_count() const override { return plan_->transfers.back(); }
  [[nodiscard]] std::unique_ptr<StepCursor> cursor() const override { return std::make_unique<A2Cursor>(plan_); }
  // Every step of every factor schedule moves something, so every A2 step does.
  [[nodiscard]] std::size_t busy_step_count() const override { return step_count(); }
  [[nodiscard]] std::string generator() const override { return "a2"; }

 private:
  std::shared_ptr<const A2Plan> plan_;
};

/// The blocks of A2 on dims 0..level (Fig. 4's structure, no transfers).
std::vector<A2Block> build_blocks(const A2Plan& p, int level) {
  const auto lv = static_cast<std::size_t>(level);
  const std::vector<Factor>& fs = p.fs;
  if (level == 0)
    return {A2Block{0, p.steps[0], 0, 0, false, 0, "dim 0 exchange (" + to_string(fs[0]) + ")"}};
  const std::vector<A2Block> inner = build_blocks(p, level - 1);
  const int n1 = p.nodes[lv - 1];
  const int n2 = fs[lv].size;
  const auto tb_steps = static_cast<std::int64_t>(p.factor[lv].steps.size());
  std::vector<A2Block> blocks;
  std::int64_t at = 0;
  for (int r = 0; r < n1; ++r) {
    blocks.push_back({at, tb_steps, level, level, true, r,
                      "level " + std::to_string(level) + " lines 1-3: batch R_" + std::to_string(r) +
                          " over dim " + std::to_string(level) + " (" + to_string(fs[lv]) + ")"});
    at += tb_steps;
  }
  for (int kk = 0; kk < n2; ++kk) {
    for (const A2Block& b : inner) {
      A2Block nb = b;
      nb.first_step += at;
      nb.text += "; inside level " + std::to_string(level) + " lines 4-6 round " + std::to_string(kk);
      blocks.push_back(std::move(nb));
    }
    at += p.steps[lv - 1];
  }
  return blocks;
}

}  // namespace

A2Result a2(const Topology& t) { return a2(t, kA2LazyTransfers); }

A2Result a2(const Topology& t, std::int64_t lazy_above) {
  if (!t.is_product()) throw UsageError("a2 needs a cartesian product topology, not '" + t.spec() + "'");
  const std::vector<Factor>& fs = t.factors();
  auto plan = std::make_shared<const A2Plan>(fs);
  A2Result r;
  r.schedule.topology = t.spec();
  r.schedule.model = Model::SinglePort;
  r.schedule.algorithm = "a2";
  r.schedule.source = std::make_shared<A2Source>(plan);
  if (plan->transfers.back() <= lazy_above) r.schedule.materialize();
  r.blocks = build_blocks(*plan, static_cast<int>(fs.size()) - 1);
  r.dimensions_reach_as = true;
  for (std::size_t i = 0; i < fs.size(); ++i) {
    const Factor& f = fs[i];
    const auto ti = static_cast<std::int64_t>(plan->factor[i].steps.size());
    r.dimension_steps.push_back(ti);
    std::int64_t s_i = 0;
    for (int x = 0; x < f.size; ++x) s_i += factor_status(f, x);
    // AS(G_i) = S_i / |V_i|; reached iff T_i * |V_i| == S_i.
    if (ti * f.size != s_i) r.dimensions_reach_as = false;
  }
  r.predicted_steps = a2_predicted_steps(t);
  return r;
}

Schedule a2_schedule(const Topology& t) { return a2(t).schedule; }

std::int64_t a2_predicted_steps(const Topology& t) {
  if (!t.is_product()) throw UsageError("a2 needs a cartesian product topology, not '" + t.spec() + "'");
  const std::int64_t n = t.nodes();
  std::int64_t total = 0;
  for (const Factor& f : t.factors()) total += (n / f.size) * factor_exchange_steps(f);  // n T_i/|V_i|
  return total;
}

std::vector<std::vector<Message>> a2_buffers(const Topology& t, const A2Result& r, std::size_t block) {
  if (block >= r.blocks.size()) throw UsageError("a2_buffers: block " + std::to_string(block) + " out of range");
  const auto n = static_cast<std::size_t>(t.nodes());
  std::vector<NodeId> pos(n * n);
  for (std::size_t m = 0; m < pos.size(); ++m) pos[m] = static_cast<NodeId>(m / n);
  const std::int64_t end = r.blocks[block].first_step + r.blocks[block].steps;
  r.schedule.for_each_step([&](std::size_t st, const std::vector<Transfer>& step) {
    if (static_cast<std::int64_t>(st) >= end) return;
    for (const Transfer& tr : step) {
      const std::size_t m = static_cast<std::size_t>(tr.msg.src) * n + static_cast<std::size_t>(tr.msg.dst);
      pos[m] = t.neighbor(tr.from, tr.port);
    }
  });
  std::vector<std::vector<Message>> held(n);
  for (std::size_t m = 0; m < pos.size(); ++m) {
    const auto src = static_cast<NodeId>(m / n), dst = static_cast<NodeId>(m % n);
    if (src == dst || pos[m] == src || pos[m] == dst) continue;
    held[static_cast<std::size_t>(pos[m])].push_back({src, dst});
  }
  return held;
}

}  // namespace totex
