// SPDX-License-Identifier: Apache-2.0
// Exact mode: the time-expanded SAT encoding of exact.hpp, solved with CaDiCaL.
//
// The budget is counted work, so that an answer is the same on an idle and on a loaded machine:
// ExactOptions::time_budget_seconds x kConflictClausesPerSecond (cnf.hpp) of conflicts times
// clauses, from which building an encoding takes kBuildWorkPerClause per clause and each solve
// what it spends. The wall clock is a safety cap only (10 x the budget + 10 s); an answer it cuts
// short says so ("safety cap") and is marked (ExactResult::capped).
#include "totex/generators/exact.hpp"

#include <cadical.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "totex/bounds/bounds.hpp"
#include "totex/traffic/traffic_bounds.hpp"
#include "totex/verify/message_index.hpp"
#include "totex/network/distance.hpp"
#include "totex/error.hpp"
#include "totex/verify/verify.hpp"
#include "cnf.hpp"

namespace totex {
namespace {

using Clock = std::chrono::steady_clock;

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string fixed1(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string fixed2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

void require_supported(Model m) {
  if (m != Model::Nic && m != Model::AllPort)
    throw UsageError("exact: model " + to_string(m) + " is not supported; accepted models: nic, all-port");
}

/// Building and loading an encoding, in the budget's work units per clause (about 0.3 us a
/// clause on the development machine: "a few seconds at 10 million", exact.hpp).
constexpr double kBuildWorkPerClause = 200;
/// The wall-clock safety cap of a call with a budget of `seconds` of work.
Clock::time_point safety_end(double seconds) { return safety_cap(10 * std::max(0.0, seconds) + 10); }
/// The log's words for an encoding the safety cap stopped.
const std::string kCappedBuild = "the wall-clock safety cap fired while building the encoding for T=";

/// What does not depend on T: links, messages, distances from every processor.
struct Instance {
  const Topology& t;
  /// Null for `all` (one flit between every ordered pair of processors: today's encoding, clause
  /// for clause); otherwise one message per flit of the traffic.
  const Traffic* traffic = nullptr;
  int links = 0;
  std::vector<NodeId> tail, head;
  std::vector<std::vector<LinkId>> in_links;  // per node
  std::vector<int> proc_index;                // node -> index in processors(), -1 for none
  std::vector<Message> msgs;                  // `all`: every ordered pair of distinct processors; else every flit
  std::vector<std::vector<int>> dist;         // per processor index: hop distance to every node
  std::vector<std::int64_t> sent, received;   // per processor index: messages it sends, receives
  bool prepared = false;

  Instance(const Topology& topo, const Traffic* tr)
      : t(topo), traffic(tr != nullptr && !is_all_traffic(topo, tr) ? tr : nullptr), links(topo.links()) {
    tail.resize(at(links));
    head.resize(at(links));
    in_links.resize(at(t.nodes()));
    for (NodeId v = 0; v < t.nodes(); ++v)
      for (Port p = 0; p < t.degree(v); ++p) {
        const LinkId l = t.link_id(v, p);
        tail[at(l)] = v;
        head[at(l)] = t.neighbor(v, p);
        in_links[at(t.neighbor(v, p))].push_back(l);
      }
    proc_index.assign(at(t.nodes()), -1);
    const auto& procs = t.processors();
    for (std::size_t i = 0; i < procs.size(); ++i) proc_index[at(procs[i])] = static_cast<int>(i);
  }
  [[nodiscard]] std::int64_t message_count() const {
    if (traffic != nullptr) return traffic->total_flits();
    const auto p = static_cast<std::int64_t>(t.processor_count());
    return p * (p - 1);
  }
  void prepare() {  // the quadratic part, after the caller's cheap size checks
    if (prepared) return;
    prepared = true;
    for (NodeId s : t.processors()) dist.push_back(bfs_distances(t, s));
    const auto p = static_cast<std::int64_t>(t.processor_count());
    if (traffic == nullptr) {
      for (NodeId s : t.processors())
        for (NodeId d : t.processors())
          if (s != d) msgs.push_back({s, d});
      sent.assign(at(p), p - 1);
      received.assign(at(p), p - 1);
      return;
    }
    sent.assign(at(p), 0);
    received.assign(at(p), 0);
    traffic->for_each([&](NodeId s, NodeId d, std::int64_t w) {
      if (proc_index[at(s)] < 0 || proc_index[at(d)] < 0)
        throw UsageError("exact: traffic " + traffic->spec() + " sends from or to a node that is not a processor of " + t.spec());
      for (std::int64_t k = 0; k < w; ++k) msgs.push_back({s, d, static_cast<std::int32_t>(k)});
      sent[at(proc_index[at(s)])] += w;
      received[at(proc_index[at(d)])] += w;
    });
  }
  [[nodiscard]] std::int64_t sent_by(NodeId v) const { return sent[at(proc_index[at(v)])]; }
  [[nodiscard]] std::int64_t received_by(NodeId v) const { return received[at(proc_index[at(v)])]; }
  [[nodiscard]] int dist_from(NodeId proc, NodeId v) const { return dist[at(proc_index[at(proc)])][at(v)]; }
};

/// The encoding for one T (see exact.hpp).
class Encoder {
 public:
  Encoder(const Instance& in, Model m, int steps, std::int64_t max_clauses, Clock::time_point deadline, bool implied,
          int max_detour)
      : in_(in),
        model_(m),
        T_(steps),
        max_clauses_(max_clauses),
        deadline_(deadline),
        implied_(implied),
        max_detour_(max_detour) {
    plan();
  }

  /// Steps at which message mi may cross link l: [lo, hi], empty when lo > hi.
  [[nodiscard]] std::pair<int, int> range(std::size_t mi, LinkId l) const {
    const std::size_t k = mi * at(in_.links) + at(l);
    return {lo_[k], hi_[k]};
  }
  [[nodiscard]] int x(std::size_t mi, LinkId l, int c) const {
    if (c < 0 || c >= T_) return 0;
    const auto [lo, hi] = range(mi, l);
    if (c < lo || c > hi) return 0;
    return start_[mi * at(in_.links) + at(l)] + (c - lo);
  }

  /// Variables x and an estimate of the clauses, without building anything.
  [[nodiscard]] std::pair<std::int64_t, std::int64_t> estimate() const {
    std::int64_t xs = 0, arrivals = 0;
    for (std::size_t mi = 0; mi < in_.msgs.size(); ++mi)
      for (LinkId l = 0; l < in_.links; ++l) {
        const auto [lo, hi] = range(mi, l);
        if (hi < lo) continue;
        xs += hi - lo + 1;
        if (in_.head[at(l)] == in_.msgs[mi].dst) arrivals += hi - lo + 1;
      }
    // chains 2, per-message and per-link at-most-one about 3 each, arrivals 3, nic limits 6.
    const std::int64_t clauses = 8 * xs + 3 * arrivals + (model_ == Model::Nic ? 6 * arrivals : 0);
    return {xs, clauses};
  }
  /// The slacks K_link and K_pipe of exact.hpp (8), when the implied constraints are on.
  [[nodiscard]] std::optional<std::int64_t> link_slack() const {
    return implied_ ? std::optional<std::int64_t>(k_link_) : std::nullopt;
  }
  [[nodiscard]] std::optional<std::int64_t> pipeline_slack() const {
    return implied_ && model_ == Model::Nic ? std::optional<std::int64_t>(k_time_) : std::nullopt;
  }
  [[nodiscard]] bool full_model() const { return full_model_; }

  /// Adds the clauses to `s`; false when the clause limit or the deadline stopped it (why()).
  bool build(CaDiCaL::Solver& s) {
    if (!build_clauses()) return false;
    // CaDiCaL grows its per-variable arrays step by step as new variables appear: declaring them
    // all first and then adding the clauses is several times faster on large encodings.
    s.reserve(next_var_ - 1);
    std::int64_t done = 0;
    for (int lit : buffer_) {
      s.add(lit);
      if (lit == 0 && (++done & 0xffff) == 0 && Clock::now() >= deadline_)
        return stop("the wall-clock safety cap fired while loading the encoding for T=" + std::to_string(T_));
    }
    std::vector<int>().swap(buffer_);
    return true;
  }

  bool build_clauses() {
    buffer_.reserve(at(std::min(estimate().second, max_clauses_)) * 3);
    const auto L = at(in_.links);
    const auto M = in_.msgs.size();
    const auto P = at(in_.t.processor_count());
    start_.assign(M * L, 0);
    for (std::size_t mi = 0; mi < M; ++mi)
      for (LinkId l = 0; l < in_.links; ++l) {
        const auto [lo, hi] = range(mi, l);
        if (hi < lo) continue;
        start_[mi * L + at(l)] = next_var_;
        next_var_ += hi - lo + 1;
      }
    x_vars_ = next_var_ - 1;
    std::vector<std::vector<int>> link_group(at(T_) * L);
    std::vector<std::vector<int>> inject_group(model_ == Model::Nic ? P * at(T_) : 0);
    std::vector<std::vector<int>> eject_group(model_ == Model::Nic ? P * at(T_) : 0);
    std::vector<std::vector<LinkId>> by_step(at(T_));
    std::vector<int> arrivals;
    std::vector<std::pair<int, int>> arrival_steps;  // (step, x) of this message's arrivals
    std::vector<int> arrived_by, prev_arrived_by;     // per step: "arrived by step c" of this / the previous flit (0: impossible)
    for (std::size_t mi = 0; mi < M; ++mi) {
      if (Clock::now() >= deadline_) return stop(kCappedBuild + std::to_string(T_));
      const Message msg = in_.msgs[mi];
      for (auto& b : by_step) b.clear();
      arrivals.clear();
      for (LinkId l = 0; l < in_.links; ++l) {
        const auto [lo, hi] = range(mi, l);
        for (int c = lo; c <= hi; ++c) by_step[at(c)].push_back(l);
      }
      for (int c = 0; c < T_; ++c) {
        lits_.clear();
        for (LinkId l : by_step[at(c)]) {
          const int xv = x(mi, l, c);
          lits_.push_back(xv);
          link_group[at(c) * L + at(l)].push_back(xv);
          const NodeId u = in_.tail[at(l)], v = in_.head[at(l)];
          if (v == msg.dst) {  // arrival
            arrivals.push_back(xv);
            arrival_steps.emplace_back(c, xv);
            if (model_ == Model::Nic) eject_group[at(in_.proc_index[at(v)]) * at(T_) + at(c)].push_back(xv);
          } else {  // (2) forward chain
            clause_.assign(1, -xv);
            for (Port p = 0; p < in_.t.degree(v); ++p)
              if (const int y = x(mi, in_.t.link_id(v, p), c + 1)) clause_.push_back(y);
            if (!emit()) return false;
          }
          if (u != msg.src) {  // (3) backward chain
            clause_.assign(1, -xv);
            for (LinkId k : in_.in_links[at(u)])
              if (const int y = x(mi, k, c - 1)) clause_.push_back(y);
            if (!emit()) return false;
          }
        }
        if (!at_most_one(lits_)) return false;  // (1)
        if (model_ == Model::Nic) {  // (7) injection: a crossing out of src not continuing one into src
          int inj = 0;
          for (LinkId l : by_step[at(c)]) {
            if (in_.tail[at(l)] != msg.src) continue;
            if (inj == 0) inj = next_var_++;
            clause_ = {-x(mi, l, c), inj};
            for (LinkId k : in_.in_links[at(msg.src)])
              if (const int y = x(mi, k, c - 1)) clause_.push_back(y);
            if (!emit()) return false;
          }
          if (inj != 0) {
            // inj is exactly the first hop (so that the implied "must inject" clauses below are
            // about real injections): it needs a crossing out of src, none into src before it.
            clause_.assign(1, -inj);
            for (LinkId l : by_step[at(c)])
              if (in_.tail[at(l)] == msg.src) clause_.push_back(x(mi, l, c));
            if (!emit()) return false;
            for (LinkId k : in_.in_links[at(msg.src)])
              if (const int y = x(mi, k, c - 1))
                if (!emit2(-inj, -y)) return false;
            inject_group[at(in_.proc_index[at(msg.src)]) * at(T_) + at(c)].push_back(inj);
          }
        }
      }
      clause_ = arrivals;  // (4) exactly one arrival
      if (!emit() || !at_most_one(arrivals)) return false;
      if (!order_flits(mi, arrival_steps, arrived_by, prev_arrived_by)) return false;
      arrival_steps.clear();
    }
    for (auto* groups : {&link_group, &inject_group, &eject_group}) {  // (6), (7)
      if (Clock::now() >= deadline_) return stop(kCappedBuild + std::to_string(T_));
      for (auto& g : *groups)
        if (!at_most_one(g)) return false;
    }
    if (implied_) return add_zero_slack_clauses(link_group, inject_group, eject_group);
    return true;
  }

  /// Symmetry breaking (exact.hpp (9)): the flits of one pair are interchangeable, so flit k+1
  /// arrives no earlier than flit k. `prev` holds flit k's "arrived by step c" variables when
  /// message mi is flit k+1 of the same pair; `mine` gets mi's when the next message is its flit k+2.
  bool order_flits(std::size_t mi, const std::vector<std::pair<int, int>>& arrival_steps, std::vector<int>& mine,
                   std::vector<int>& prev) {
    const Message msg = in_.msgs[mi];
    auto same_pair = [&](std::size_t other) {
      return other < in_.msgs.size() && in_.msgs[other].src == msg.src && in_.msgs[other].dst == msg.dst;
    };
    if (mi > 0 && same_pair(mi - 1))
      for (const auto& [c, xv] : arrival_steps) {  // arriving in step c needs the previous flit arrived by c
        clause_ = {-xv};
        if (prev[at(c)] != 0) clause_.push_back(prev[at(c)]);
        if (!emit()) return false;
      }
    mine.assign(at(T_), 0);
    if (same_pair(mi + 1)) {
      std::vector<std::vector<int>> at_step(at(T_));
      for (const auto& [c, xv] : arrival_steps) at_step[at(c)].push_back(xv);
      for (int c = 0; c < T_; ++c) {  // arrived_by[c] -> an arrival in c, or arrived_by[c-1]
        const int before = c > 0 ? mine[at(c - 1)] : 0;
        if (at_step[at(c)].empty() && before == 0) continue;
        mine[at(c)] = next_var_++;
        clause_ = at_step[at(c)];
        clause_.insert(clause_.begin(), -mine[at(c)]);
        if (before != 0) clause_.push_back(before);
        if (!emit()) return false;
      }
    }
    std::swap(mine, prev);
    return true;
  }

  [[nodiscard]] std::int64_t vars() const { return next_var_ - 1; }
  [[nodiscard]] std::int64_t x_vars() const { return x_vars_; }
  [[nodiscard]] std::int64_t clauses() const { return clauses_; }
  [[nodiscard]] const std::string& why() const { return why_; }

  /// The schedule a satisfying assignment describes.
  [[nodiscard]] Schedule decode(CaDiCaL::Solver& s) const {
    Schedule out{in_.t.spec(), model_, "exact", std::vector<std::vector<Transfer>>(at(T_))};
    for (std::size_t mi = 0; mi < in_.msgs.size(); ++mi)
      for (LinkId l = 0; l < in_.links; ++l) {
        const auto [lo, hi] = range(mi, l);
        for (int c = lo; c <= hi; ++c)
          if (s.val(x(mi, l, c)) > 0) {
            const NodeId u = in_.tail[at(l)];
            out.steps[at(c)].push_back({in_.msgs[mi], u, l - in_.t.link_id(u, 0)});
          }
      }
    while (!out.steps.empty() && out.steps.back().empty()) out.steps.pop_back();
    if (in_.traffic != nullptr) out.traffic = traffic_tag(in_.t, in_.traffic);
    return out;
  }

  /// Calls f(x, crossing) for every x variable; crossing = (message index, link, step).
  template <class F>
  void for_each_x(F f) const {
    for (std::size_t mi = 0; mi < in_.msgs.size(); ++mi)
      for (LinkId l = 0; l < in_.links; ++l) {
        const auto [lo, hi] = range(mi, l);
        for (int c = lo; c <= hi; ++c) f(x(mi, l, c), mi, l, c);
      }
  }

 private:
  static constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max() / 4;

  /// Reachability ranges, then (implied_) the slack prunes of exact.hpp, to a fixpoint.
  void plan() {
    const auto L = at(in_.links);
    const auto M = in_.msgs.size();
    const std::int64_t p = in_.t.processor_count();
    const bool nic = model_ == Model::Nic;
    std::int64_t total_dist = 0;  // S
    for (const Message& msg : in_.msgs) total_dist += in_.dist_from(msg.src, msg.dst);
    // K_pipe: source u injects s_u messages in distinct steps (their sum is at least
    // 0+..+(s_u-1)), destination v ejects r_v in distinct steps <= T-1 (at most
    // (T-1)+..+(T-r_v)); with s = r = p-1 (`all`) this is M(T-p+2) - S.
    std::int64_t least_inject_sum = 0, most_eject_sum = 0;
    for (std::size_t i = 0; i < at(p); ++i) {
      const std::int64_t su = in_.sent[i], rv = in_.received[i];
      least_inject_sum += su * (su - 1) / 2;
      most_eject_sum += rv * T_ - rv * (rv + 1) / 2;
    }
    k_time_ = nic && implied_ ? most_eject_sum - least_inject_sum + static_cast<std::int64_t>(M) - total_dist : kNone;
    std::int64_t waste_limit = nic && implied_ ? k_time_ : kNone;
    lo_.assign(M * L, 1);
    hi_.assign(M * L, 0);
    std::vector<char> usable(at(T_) * L);
    cap_.assign(at(T_), 0);
    for (;;) {
      std::fill(usable.begin(), usable.end(), 0);
      for (std::size_t mi = 0; mi < M; ++mi) {
        const Message msg = in_.msgs[mi];
        const int dsd = in_.dist_from(msg.src, msg.dst);
        for (LinkId l = 0; l < in_.links; ++l) {
          const std::size_t k = mi * L + at(l);
          const NodeId u = in_.tail[at(l)], v = in_.head[at(l)];
          lo_[k] = 1;
          hi_[k] = 0;
          if (u == msg.dst) continue;
          const int du = in_.dist_from(msg.src, u), dv = in_.dist_from(msg.dst, v);
          int lo = du, hi = T_ - 1 - dv;
          if (implied_) {
            const std::int64_t w0 = du + 1 + dv - dsd;  // least detour of a walk over u->v
            if (w0 > waste_limit) continue;
            if (nic) {  // least pipeline slack a crossing u->v in step c uses
              const std::int64_t su = in_.sent_by(msg.src), rv = in_.received_by(msg.dst);  // p-1 each for `all`
              auto cost = [&](int c) {
                return w0 + std::max<std::int64_t>(0, c - du - (su - 1)) + std::max<std::int64_t>(0, T_ - rv - c - dv);
              };
              while (lo <= hi && cost(lo) > k_time_) ++lo;
              while (hi >= lo && cost(hi) > k_time_) --hi;
            }
          }
          lo_[k] = lo;
          hi_[k] = hi;
          for (int c = lo; c <= hi; ++c) usable[at(c) * L + at(l)] = 1;
        }
      }
      std::int64_t capacity = 0;
      for (int c = 0; c < T_; ++c) {
        std::int64_t links_c = 0;
        for (std::size_t l = 0; l < L; ++l) links_c += usable[at(c) * L + l];
        links_available_.push_back(links_c);
        cap_[at(c)] = nic ? std::min({links_c, inject_cap(c), eject_cap(c)}) : links_c;
        capacity += cap_[at(c)];
      }
      k_link_ = capacity - total_dist;
      if (!implied_ || k_link_ >= waste_limit || k_link_ < 0) break;
      waste_limit = k_link_;
      links_available_.clear();
    }
    links_available_.resize(at(T_));
    if (implied_ && (k_link_ < 0 || (nic && k_time_ < 0))) infeasible_ = true;
    if (max_detour_ < 0) return;
    for (std::size_t mi = 0; mi < M; ++mi) {  // the sub-model: walks of at most max_detour_ extra hops
      const Message msg = in_.msgs[mi];
      const int dsd = in_.dist_from(msg.src, msg.dst);
      for (LinkId l = 0; l < in_.links; ++l) {
        const std::size_t k = mi * L + at(l);
        if (hi_[k] < lo_[k]) continue;
        const int w0 = in_.dist_from(msg.src, in_.tail[at(l)]) + 1 + in_.dist_from(msg.dst, in_.head[at(l)]) - dsd;
        if (w0 <= max_detour_) continue;
        lo_[k] = 1;
        hi_[k] = 0;
        full_model_ = false;
      }
    }
  }

  /// (8) of exact.hpp: a slack of 0 leaves no step, link or NIC idle where the count was tight.
  bool add_zero_slack_clauses(const std::vector<std::vector<int>>& link_group,
                              const std::vector<std::vector<int>>& inject_group,
                              const std::vector<std::vector<int>>& eject_group) {
    if (infeasible_) {  // a negative slack: no schedule of T steps, by counting alone
      clause_.clear();
      return emit();
    }
    const auto L = at(in_.links);
    const std::int64_t p = in_.t.processor_count();
    const bool nic = model_ == Model::Nic;
    // Per processor and step: it must inject (eject) then. `all`: every processor alike; other
    // traffic: a step of tight in-flight count binds only the processors whose totals reach it.
    const bool all = in_.traffic == nullptr;
    std::vector<char> must_inject(at(p) * at(T_)), must_eject(at(p) * at(T_));
    if (k_link_ == 0) {
      for (int c = 0; c < T_; ++c) {
        if (cap_[at(c)] == links_available_[at(c)])
          for (std::size_t l = 0; l < L; ++l)
            if (!link_group[at(c) * L + l].empty()) {
              clause_ = link_group[at(c) * L + l];
              if (!emit()) return false;
            }
        for (std::size_t i = 0; nic && i < at(p); ++i) {
          if (cap_[at(c)] == inject_cap(c) && (all || in_.sent[i] >= c + 1))
            for (int e = 0; e <= c; ++e) must_inject[i * at(T_) + at(e)] = 1;
          if (cap_[at(c)] == eject_cap(c) && (all || in_.received[i] >= T_ - c))
            for (int e = c; e < T_; ++e) must_eject[i * at(T_) + at(e)] = 1;
        }
      }
    }
    if (nic && k_time_ == 0)  // every source injects in steps 0..s-1, every destination ejects in T-r..T-1
      for (std::size_t i = 0; i < at(p); ++i)
        for (int c = 0; c < T_; ++c) {
          if (c <= in_.sent[i] - 1) must_inject[i * at(T_) + at(c)] = 1;
          if (c >= T_ - in_.received[i]) must_eject[i * at(T_) + at(c)] = 1;
        }
    if (!nic) return true;
    for (std::size_t i = 0; i < at(p); ++i)
      for (int c = 0; c < T_; ++c) {
        if (must_inject[i * at(T_) + at(c)]) {
          clause_ = inject_group[i * at(T_) + at(c)];
          if (!emit()) return false;
        }
        if (must_eject[i * at(T_) + at(c)]) {
          clause_ = eject_group[i * at(T_) + at(c)];
          if (!emit()) return false;
        }
      }
    return true;
  }

  /// Most messages in flight in step c (nic): injected in steps 0..c, one per source and step
  /// and at most its total; delivered in steps c..T-1 likewise. `all`: p(c+1) and p(T-c).
  [[nodiscard]] std::int64_t inject_cap(int c) const {
    const std::int64_t p = in_.t.processor_count();
    if (in_.traffic == nullptr) return p * (c + 1);
    std::int64_t sum = 0;
    for (std::int64_t su : in_.sent) sum += std::min<std::int64_t>(su, c + 1);
    return sum;
  }
  [[nodiscard]] std::int64_t eject_cap(int c) const {
    const std::int64_t p = in_.t.processor_count();
    if (in_.traffic == nullptr) return p * (T_ - c);
    std::int64_t sum = 0;
    for (std::int64_t rv : in_.received) sum += std::min<std::int64_t>(rv, T_ - c);
    return sum;
  }

  bool stop(std::string why) {
    why_ = std::move(why);
    return false;
  }
  bool emit() {
    if (++clauses_ > max_clauses_)
      return stop("size limit: the encoding for T=" + std::to_string(T_) + " exceeds max_clauses=" +
                  std::to_string(max_clauses_) + " clauses");
    buffer_.insert(buffer_.end(), clause_.begin(), clause_.end());
    buffer_.push_back(0);
    if ((clauses_ & 0xffff) == 0 && Clock::now() >= deadline_) return stop(kCappedBuild + std::to_string(T_));
    return true;
  }
  bool emit2(int a, int b) {
    clause_ = {a, b};
    return emit();
  }
  /// At most one of `lits`: pairwise up to 6 literals, else the sequential counter.
  bool at_most_one(const std::vector<int>& lits) {
    const std::size_t n = lits.size();
    if (n <= 1) return true;
    if (n <= 6) {
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
          if (!emit2(-lits[i], -lits[j])) return false;
      return true;
    }
    int prev = next_var_++;  // s_i: one of lits[0..i] is true
    if (!emit2(-lits[0], prev)) return false;
    for (std::size_t i = 1; i + 1 < n; ++i) {
      const int cur = next_var_++;
      if (!emit2(-lits[i], cur) || !emit2(-prev, cur) || !emit2(-lits[i], -prev)) return false;
      prev = cur;
    }
    return emit2(-lits[n - 1], -prev);
  }

  const Instance& in_;
  Model model_;
  int T_;
  std::int64_t max_clauses_;
  Clock::time_point deadline_;
  bool implied_;
  int max_detour_;         // -1: the full model
  bool full_model_ = true;  // false when max_detour_ removed a crossing the full model has
  std::vector<int> lo_, hi_;                  // per (message, link): the steps it may be crossed
  std::vector<std::int64_t> cap_;             // per step: most crossings (implied)
  std::vector<std::int64_t> links_available_; // per step: links some message may cross
  std::int64_t k_link_ = 0, k_time_ = 0;
  bool infeasible_ = false;                   // a slack is negative: UNSAT by counting alone
  std::vector<int> buffer_;  // the clauses, each ended by 0, until build() hands them over
  std::vector<int> start_;  // first x variable of (message, link)
  int next_var_ = 1;
  std::int64_t x_vars_ = 0;
  std::int64_t clauses_ = 0;
  std::vector<int> clause_, lits_;
  std::string why_;
};

/// Largest (message, link) table and variable count accepted (CaDiCaL variables are ints).
constexpr std::int64_t kMaxTable = 50'000'000;
constexpr std::int64_t kMaxVars = std::numeric_limits<int>::max() / 2;

/// The size checks before the quadratic work and before building: "" when it fits.
std::string table_too_large(const Instance& in, std::int64_t max_clauses) {
  const std::int64_t messages = in.message_count();
  if (messages > max_clauses || messages * in.links > kMaxTable)
    return "size limit: " + std::to_string(messages) + " messages x " + std::to_string(in.links) +
           " links is too large for the encoding";
  return "";
}

std::string encoding_too_large(const Encoder& enc, std::int64_t steps, std::int64_t max_clauses) {
  const auto [xs, est] = enc.estimate();
  if (est > max_clauses || xs > kMaxVars)
    return "size limit: the encoding for T=" + std::to_string(steps) + " would have about " + std::to_string(est) +
           " clauses (" + std::to_string(xs) + " crossing variables), max_clauses=" + std::to_string(max_clauses);
  return "";
}

/// Before solving T: is the shortest-path sub-model the full model anyway, and does the full
/// model fit max_clauses (full_why says why not)?
struct Probe {
  bool sub_is_full = false;
  std::string full_why;
  std::int64_t full_clauses = 0;  // estimated
};
Probe probe(Instance& in, Model m, std::int64_t steps, std::int64_t max_clauses, bool implied) {
  Probe p;
  if (in.message_count() == 0 || steps <= 0 || steps > std::numeric_limits<int>::max() / 4) return p;
  p.full_why = table_too_large(in, max_clauses);
  if (!p.full_why.empty()) return p;
  in.prepare();
  const auto far = Clock::time_point::max();
  const Encoder sub(in, m, static_cast<int>(steps), max_clauses, far, implied, 0);
  p.sub_is_full = sub.full_model();
  if (!p.sub_is_full) {
    const Encoder full(in, m, static_cast<int>(steps), max_clauses, far, implied, -1);
    p.full_why = encoding_too_large(full, steps, max_clauses);
    p.full_clauses = full.estimate().second;
  }
  return p;
}

struct DecideParams {
  std::int64_t max_clauses;
  Clock::time_point deadline;  // the wall-clock safety cap
  double* work;                // the budget's work left (kConflictClausesPerSecond a second); spent here
  const Schedule* fixed;
  const Schedule* phases;
  bool implied;
  int max_detour;
  /// Sub-model before the full model: solve with `slice` of the work left unless the full model
  /// (about `full_clauses`) could not be built with the work left after it anyway; then
  /// `*full_skipped` says why and the sub-model gets the whole budget.
  double slice = 1.0;
  std::int64_t full_clauses = 0;
  std::string* full_skipped = nullptr;
};

ExactAttempt decide(Instance& in, Model m, std::int64_t steps, const DecideParams& dp) {
  const std::int64_t max_clauses = dp.max_clauses;
  const Clock::time_point deadline = dp.deadline;
  const Schedule* fixed = dp.fixed;
  const Schedule* phases = dp.phases;
  const auto begin = Clock::now();
  ExactAttempt a;
  a.steps = steps;
  const std::int64_t messages = in.message_count();
  auto finish = [&](SatAnswer ans, std::string why) {
    a.answer = ans;
    a.why = std::move(why);
    a.seconds = seconds_since(begin);
    return a;
  };
  if (messages == 0) {
    a.schedule = Schedule{in.t.spec(), m, "exact", {}};
    return finish(SatAnswer::Sat, "");
  }
  if (steps <= 0) return finish(SatAnswer::Unsat, "");  // every message needs a step
  if (steps > std::numeric_limits<int>::max() / 4)
    return finish(SatAnswer::Unknown, "size limit: T=" + std::to_string(steps) + " is too large");
  if (std::string why = table_too_large(in, max_clauses); !why.empty()) return finish(SatAnswer::Unknown, why);
  in.prepare();
  Encoder enc(in, m, static_cast<int>(steps), max_clauses, deadline, dp.implied, dp.max_detour);
  a.full_model = enc.full_model();
  a.max_detour = dp.max_detour;
  if (std::string why = encoding_too_large(enc, steps, max_clauses); !why.empty()) return finish(SatAnswer::Unknown, why);
  if (*dp.work <= 0) return finish(SatAnswer::Unknown, "work budget ran out before T=" + std::to_string(steps));
  CaDiCaL::Solver solver;
  solver.set("quiet", 1);
  const bool built = enc.build(solver);
  *dp.work -= kBuildWorkPerClause * static_cast<double>(enc.clauses());
  a.encode_seconds = seconds_since(begin);
  a.vars = enc.vars();
  a.clauses = enc.clauses();
  a.link_slack = enc.link_slack();
  a.pipeline_slack = enc.pipeline_slack();
  if (!built) return finish(SatAnswer::Unknown, enc.why());

  if (fixed != nullptr || phases != nullptr) {
    const Schedule& s = fixed != nullptr ? *fixed : *phases;
    std::unordered_map<std::int64_t, int> index;  // (src * N + dst) * 2^24 + flit -> message index
    const auto key = [&](const Message& msg) {
      return ((std::int64_t{msg.src} * in.t.nodes() + msg.dst) << 24) + msg.flit;
    };
    for (std::size_t mi = 0; mi < in.msgs.size(); ++mi) index[key(in.msgs[mi])] = static_cast<int>(mi);
    std::vector<char> chosen(at(enc.x_vars()) + 1, 0);
    for (std::size_t c = 0; c < s.steps.size(); ++c)
      for (const Transfer& tr : s.steps[c]) {
        const auto it = tr.msg.flit < 0 || tr.msg.flit >= (1 << 24) ? index.end() : index.find(key(tr.msg));
        const bool valid_link = tr.from >= 0 && tr.from < in.t.nodes() && tr.port >= 0 && tr.port < in.t.degree(tr.from);
        const int xv = it == index.end() || !valid_link
                           ? 0
                           : enc.x(at(it->second), in.t.link_id(tr.from, tr.port), static_cast<int>(c));
        if (xv != 0) {
          chosen[at(xv)] = 1;
        } else if (fixed != nullptr) {
          return finish(SatAnswer::Unsat, "step " + std::to_string(c) + ": message (" + std::to_string(tr.msg.src) + "," +
                                              std::to_string(tr.msg.dst) + ") from node " + std::to_string(tr.from) +
                                              " port " + std::to_string(tr.port) + " has no variable in the encoding");
        }
      }
    enc.for_each_x([&](int xv, std::size_t, LinkId, int) {
      const int lit = chosen[at(xv)] ? xv : -xv;
      if (fixed != nullptr) {
        solver.add(lit);
        solver.add(0);
      } else {
        solver.phase(lit);
      }
    });
  }

  double share = 1.0;
  if (dp.full_skipped != nullptr) {
    // Building the full model takes kBuildWorkPerClause per clause; unless that leaves at least
    // twice as much for solving it, starting it would only overrun the budget: then this
    // sub-model keeps the whole budget.
    const double left = std::max(0.0, *dp.work);
    const double predicted = kBuildWorkPerClause * static_cast<double>(dp.full_clauses);
    if (3 * predicted > left)
      *dp.full_skipped = "work budget: the full model for T=" + std::to_string(steps) + " (about " +
                         std::to_string(dp.full_clauses) + " clauses) would take about " +
                         fixed1(predicted / kConflictClausesPerSecond) + " s of work to build, " +
                         fixed1(left / kConflictClausesPerSecond) + " s were left";
    else
      share = dp.slice;
  }
  SatStats stats;
  const SatOutcome res =
      solve_limited(solver, {std::numeric_limits<std::int64_t>::max(), deadline, dp.work, share}, stats, a.clauses);
  a.conflicts = stats.conflicts;
  if (res == SatOutcome::Unsat) return finish(SatAnswer::Unsat, "");
  if (res != SatOutcome::Sat)
    return finish(SatAnswer::Unknown, stats.capped ? "the wall-clock safety cap fired while solving T=" + std::to_string(steps)
                                                   : "work budget ran out while solving T=" + std::to_string(steps));
  Schedule s = enc.decode(solver);
  const VerifyReport r = verify(in.t, s, std::nullopt, {}, in.traffic);
  if (!r.ok || r.steps > steps)
    throw std::logic_error("exact: decoded schedule for " + in.t.spec() + " T=" + std::to_string(steps) +
                           " fails verification: " + (r.violations.empty() ? "too many steps" : r.violations.front().text));
  a.schedule = std::move(s);
  return finish(SatAnswer::Sat, "");
}

}  // namespace

std::string to_string(ExactStatus s) {
  switch (s) {
    case ExactStatus::Optimal: return "optimal";
    case ExactStatus::FeasibleUnproven: return "feasible-unproven";
    case ExactStatus::NoResult: return "no-result";
  }
  return "?";
}

std::string to_string(SatAnswer a) {
  switch (a) {
    case SatAnswer::Sat: return "SAT";
    case SatAnswer::Unsat: return "UNSAT";
    case SatAnswer::Unknown: return "UNKNOWN";
  }
  return "?";
}

std::string ExactAttempt::log_line() const {
  std::string line = "T=" + std::to_string(steps) + ": " + to_string(answer) + ", " + std::to_string(vars) + " vars, " +
                     std::to_string(clauses) + " clauses, " + fixed2(seconds) + " s";
  if (max_detour >= 0) line += full_model ? " [detour <= " + std::to_string(max_detour) + ": the full model]"
                                          : " [sub-model: detour <= " + std::to_string(max_detour) + "]";
  if (link_slack) line += ", link slack " + std::to_string(*link_slack);
  if (pipeline_slack) line += ", pipeline slack " + std::to_string(*pipeline_slack);
  if (!why.empty()) line += " (" + why + ")";
  return line;
}

ExactAttempt exact_decide(const Topology& t, Model m, std::int64_t steps, const DecideOptions& o) {
  require_supported(m);
  Instance in(t, o.traffic);
  double work = std::max(0.0, o.time_budget_seconds) * kConflictClausesPerSecond;
  return decide(in, m, steps,
                {o.max_clauses, safety_end(o.time_budget_seconds), &work, o.fixed, o.phases, o.implied, o.max_detour});
}

ExactResult exact_schedule(const Topology& t, Model m, const ExactOptions& o) {
  require_supported(m);
  t.require_two_way("the one-shot exact search's pruning rules (distances to a node taken as distances from it)");
  const auto begin = Clock::now();
  const auto deadline = safety_end(o.time_budget_seconds);
  double work = std::max(0.0, o.time_budget_seconds) * kConflictClausesPerSecond;
  ExactResult r;
  Instance in(t, o.traffic);
  const LowerBound lb = in.traffic != nullptr ? traffic_lower_bound(t, m, *in.traffic) : lower_bound(t, m);
  r.lower_bound = lb.steps;

  std::int64_t upper = o.upper > 0 ? o.upper : std::numeric_limits<std::int64_t>::max();
  std::int64_t incumbent_steps = -1;
  if (o.incumbent) {
    const VerifyReport rep = verify(t, *o.incumbent, std::nullopt, {}, in.traffic);
    if (!rep.ok || o.incumbent->model != m)
      throw UsageError("exact: the incumbent schedule is not a verified " + to_string(m) + " schedule for " + t.spec() +
                       (rep.violations.empty() ? std::string() : ": " + rep.violations.front().text));
    incumbent_steps = rep.steps;
    upper = std::min(upper, incumbent_steps);
  }
  auto meets_bound_proof = [&](std::int64_t steps) {
    std::string terms;
    for (const BoundTerm& term : lb.terms)
      if (term.value == steps) terms += (terms.empty() ? "" : "; ") + term.name + " " + term.detail;
    return "meets the lower bound " + std::to_string(steps) + (terms.empty() ? "" : " (" + terms + ")");
  };
  std::string last_unsat_proof;
  // The result for a feasible solution of `steps` steps.
  auto conclude = [&](std::optional<Schedule> s, std::int64_t steps) {
    r.steps = steps;
    r.schedule = std::move(s);
    if (steps < lb.steps)
      throw std::logic_error("exact: a verified schedule of " + std::to_string(steps) + " steps beats the lower bound " +
                             std::to_string(lb.steps) + " of " + t.spec() + " under " + to_string(m));
    if (steps == lb.steps) {
      r.status = ExactStatus::Optimal;
      r.proof = meets_bound_proof(steps);
    } else if (r.proven_infeasible == steps - 1) {
      r.status = ExactStatus::Optimal;
      r.proof = last_unsat_proof;
    } else {
      r.status = ExactStatus::FeasibleUnproven;
      if (r.stopped_because.empty())
        r.stopped_because = "T=" + std::to_string(steps - 1) + " was not examined (the search started at T=" +
                            std::to_string(o.lower) + ")";
    }
    r.seconds = seconds_since(begin);
    return r;
  };

  if (in.message_count() == 0) return conclude(Schedule{t.spec(), m, "exact", {}}, 0);
  std::int64_t T = o.lower > 0 ? o.lower : std::max<std::int64_t>(1, lb.steps);
  for (;; ++T) {
    if (T >= upper) {  // every T from the start up to upper-1 is infeasible (or none was tried)
      if (incumbent_steps == upper) return conclude(o.incumbent, upper);
      T = upper;
    }
    if (work <= 0) {
      r.stopped_because = "work budget of " + fixed1(o.time_budget_seconds) + " s ran out before T=" + std::to_string(T);
      break;
    }
    const Schedule* phases = o.incumbent ? &*o.incumbent : nullptr;
    // First the shortest-path sub-model (small, finds tight schedules fast; its UNSAT proves
    // nothing unless it is the full model anyway), then the full model. The sub-model gets a
    // third of the time left, all of it when it is the full model or the full model is too large.
    const Probe pr = probe(in, m, T, o.max_clauses, o.implied);
    bool sub_only = pr.sub_is_full || !pr.full_why.empty();
    std::string full_skipped;
    DecideParams dp{o.max_clauses, deadline, &work, nullptr, phases, o.implied, pr.sub_is_full ? -1 : 0};
    if (!sub_only) {
      dp.slice = 1.0 / 3;
      dp.full_clauses = pr.full_clauses;
      dp.full_skipped = &full_skipped;
    }
    ExactAttempt a = decide(in, m, T, dp);
    r.capped = r.capped || a.why.find("safety cap") != std::string::npos;
    r.log.push_back(a.log_line());
    if (!full_skipped.empty()) {
      sub_only = true;
      r.log.push_back("T=" + std::to_string(T) + ": full model not started (" + full_skipped + ")");
    }
    if (!sub_only && (a.answer == SatAnswer::Unknown || (a.answer == SatAnswer::Unsat && !a.full_model))) {
      a = decide(in, m, T, {o.max_clauses, deadline, &work, nullptr, phases, o.implied, -1});
      r.capped = r.capped || a.why.find("safety cap") != std::string::npos;
      r.log.push_back(a.log_line());
    } else if (a.answer == SatAnswer::Unsat && !a.full_model) {  // the full model cannot be decided
      r.stopped_because = (full_skipped.empty() ? pr.full_why : full_skipped) +
                          " (the shortest-path sub-model is UNSAT, which proves nothing)";
      break;
    }
    if (a.answer == SatAnswer::Unknown && !full_skipped.empty()) a.why += "; " + full_skipped;
    if (a.answer == SatAnswer::Sat) {
      const std::int64_t steps = verify(t, *a.schedule, std::nullopt, {}, in.traffic).steps;
      return conclude(std::move(a.schedule), steps);
    }
    if (a.answer == SatAnswer::Unknown) {
      r.stopped_because = a.why;
      break;
    }
    r.proven_infeasible = T;
    last_unsat_proof = "T=" + std::to_string(T) + " infeasible: UNSAT on the full model (" + std::to_string(a.vars) +
                       " vars, " + std::to_string(a.clauses) + " clauses, " + fixed1(a.seconds) + " s";
    if (a.link_slack && *a.link_slack < 0) last_unsat_proof += "; by counting: link slack " + std::to_string(*a.link_slack);
    if (a.pipeline_slack && *a.pipeline_slack < 0)
      last_unsat_proof += "; by counting: pipeline slack " + std::to_string(*a.pipeline_slack);
    last_unsat_proof += ")";
    if (T >= upper) {  // only a wrong `upper` (an incumbent is verified): forget it, keep going
      r.log.push_back("upper=" + std::to_string(upper) + " given as feasible is infeasible; ignored");
      upper = std::numeric_limits<std::int64_t>::max();
    }
  }
  // Stopped without a schedule of our own.
  if (incumbent_steps > 0) return conclude(o.incumbent, incumbent_steps);
  if (upper < std::numeric_limits<std::int64_t>::max()) {
    r.status = ExactStatus::FeasibleUnproven;
    r.steps = upper;
  } else {
    r.status = ExactStatus::NoResult;
    r.steps = -1;
  }
  r.seconds = seconds_since(begin);
  return r;
}

}  // namespace totex
