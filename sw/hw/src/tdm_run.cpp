// SPDX-License-Identifier: Apache-2.0
/// Periodic runs: the scoreboard and the reference engine over K periods (totex/tdm_run.hpp).
#include "totex/tdm_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <tuple>

#include "totex/error.hpp"

namespace totex {
namespace {
std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }
constexpr std::int64_t kMaxErrors = 100;
}  // namespace

TdmScoreboard::TdmScoreboard(const Topology& t, const TdmTables& tables, int periods, int latency, const Traffic* traffic)
    : t_(t), tables_(tables), periods_(periods), latency_(latency) {
  if (periods < 1) throw UsageError("--periods " + std::to_string(periods) + ": at least 1 period");
  const auto n = at(t.nodes());
  pair_flits_.assign(n * n, 0);
  if (traffic) {  // what must arrive: the traffic's flits, from the traffic alone
    if (traffic->nodes() != t.nodes())
      throw UsageError("traffic " + traffic->spec() + " has " + std::to_string(traffic->nodes()) + " nodes, " + t.spec() +
                       " " + std::to_string(t.nodes()));
    traffic->for_each([&](NodeId src, NodeId dst, std::int64_t w) {
      if (w <= 0 || src == dst) return;
      pair_flits_[at(src) * n + at(dst)] = static_cast<int>(w);
      flits_ = std::max<std::int64_t>(flits_, w);
      required_ += w;
    });
  } else {
    // What must arrive: every ordered pair of distinct processors, from the network alone.
    for (const NodeId src : t.processors())
      for (const NodeId dst : t.processors())
        if (src != dst) {
          pair_flits_[at(src) * n + at(dst)] = 1;
          ++required_;
        }
  }
  flits_ = std::max<std::int64_t>(flits_, tables.flits);
  const auto F = static_cast<std::uint64_t>(flits_);
  check_memory(static_cast<std::uint64_t>(n * n) * F * static_cast<std::uint64_t>(periods), 1,
               "a scoreboard for " + std::to_string(periods) + " periods of " + t.spec());
  seen_.assign(n * n * F * at(periods), 0);
}

std::int64_t TdmScoreboard::last_hop(std::size_t pair, std::int64_t f) const {
  return f < tables_.flits ? tables_.last_hop[pair * at(tables_.flits) + at(f)] : -1;
}

std::string TdmScoreboard::name(NodeId src, NodeId dst, std::int64_t flit) const {
  const std::string pair = "(" + std::to_string(src) + "," + std::to_string(dst) + ")";
  return flits_ > 1 ? "flit " + pair + "#" + std::to_string(flit) : "message " + pair;
}

std::int64_t TdmScoreboard::expected_cycles() const {
  return static_cast<std::int64_t>(periods_ - 1) * tables_.period + tables_.steps + latency_;
}

void TdmScoreboard::error(std::string text) {
  if (++error_count_ <= kMaxErrors) errors_.push_back(std::move(text));
}

void TdmScoreboard::observe(std::int64_t cycle, NodeId where, NodeId src, std::uint64_t payload, int last) {
  last_cycle_ = std::max(last_cycle_, cycle);
  const int n = t_.nodes();
  const std::string here = "cycle " + std::to_string(cycle) + ", node " + std::to_string(where) + ": ";
  const std::string msg = "message (" + std::to_string(src) + "," + std::to_string(where) + ")";
  // The trace records the step without the pipeline latency, so every engine's digest agrees;
  // the payload as the engine delivered it (cut to 32 bits as in every trace).
  trace_.push_back({cycle - latency_, where, src, static_cast<std::uint32_t>(payload)});
  if (src < 0 || src >= n || where < 0 || where >= n) return error(here + msg + " is not a message of this exchange");
  const std::size_t pair = at(src) * at(n) + at(where);
  // Which flit and period: each flit of the pair is ejected in its own slot, or (all-port) several
  // in one slot on different m_axis lanes: then the flit not yet seen whose payload this is, if
  // one is (else the first, and the payload check below names the flit it carries).
  const std::int64_t P = tables_.period;
  std::int64_t flit = -1, k = -1;
  bool fits = false;
  std::string due;
  bool delivered_ever = false;
  for (std::int64_t f = 0; f < flits_; ++f) {
    const std::int64_t lh = last_hop(pair, f);
    if (lh < 0) continue;
    delivered_ever = true;
    due += (due.empty() ? "" : ", ") + std::to_string(lh + latency_);
    const std::int64_t offset = cycle - latency_ - lh;
    if (offset >= 0 && offset % P == 0 && offset / P < periods_ && !fits) {
      const std::int64_t kk = offset / P;
      const bool this_fits = !seen_[(at(kk) * at(n) * at(n) + pair) * at(flits_) + at(f)] &&
                             payload == tdm_payload(src, where, tdm_flit_index(tables_, kk, static_cast<int>(f)),
                                                    tables_.tile.payload_bits);
      if (flit < 0 || this_fits) {
        flit = f;
        k = kk;
        fits = this_fits;
      }
    }
  }
  if (pair_flits_[pair] == 0 || !delivered_ever)
    return error(here + msg + (pair_flits_[pair] ? " arrived, but the schedule never delivers it"
                                                 : " is not a message of this exchange"));
  if (flit < 0)
    return error(here + msg + " arrived, but it is due only in cycles " + due + " + k*" + std::to_string(P) + " (k < " +
                 std::to_string(periods_) + ")");
  const std::string what = name(src, where, flit) + " of period " + std::to_string(k);
  char& seen = seen_[(at(k) * at(n) * at(n) + pair) * at(flits_) + at(flit)];
  if (seen) return error(here + what + " delivered twice");
  seen = 1;
  ++delivered_;
  const int bits = tables_.tile.payload_bits;
  const auto hex = [](std::uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
    return std::string(b);
  };
  const std::uint64_t want = tdm_payload(src, where, tdm_flit_index(tables_, k, static_cast<int>(flit)), bits);
  if (payload != want) {
    // Another flit's payload: the pair's flits were reordered (or a period's overtook another).
    std::string other;
    for (std::int64_t kk = 0; kk < periods_ && other.empty(); ++kk)
      for (std::int64_t g = 0; g < pair_flits_[pair] && other.empty(); ++g)
        if ((kk != k || g != flit) && tdm_payload(src, where, tdm_flit_index(tables_, kk, static_cast<int>(g)), bits) == payload)
          other = "; it is the payload of " + name(src, where, g) + " of period " + std::to_string(kk) + " (reordered)";
    error(here + what + ": payload 0x" + hex(payload) + ", expected 0x" + hex(want) + other);
  }
  const int want_last = flit + 1 >= pair_flits_[pair] ? 1 : 0;  // the message's last flit of the period
  if (last >= 0 && last != want_last)
    error(here + what + ": m_axis_tlast " + std::to_string(last) + ", expected " + std::to_string(want_last) +
          (want_last ? " (the last of its pair's " + std::to_string(pair_flits_[pair]) + " flits in the period)"
                     : " (flit " + std::to_string(flit + 1) + " of its pair's message follows)"));
}

void TdmScoreboard::finish() {
  const int n = t_.nodes();
  for (int k = 0; k < periods_; ++k)
    for (NodeId src = 0; src < n; ++src)
      for (NodeId dst = 0; dst < n; ++dst) {
        const std::size_t pair = at(src) * at(n) + at(dst);
        for (std::int64_t f = 0; f < pair_flits_[pair]; ++f) {
          if (seen_[(at(k) * at(n) * at(n) + pair) * at(flits_) + at(f)]) continue;
          const std::int64_t last = last_hop(pair, f);
          error("node " + std::to_string(dst) + ": " + name(src, dst, f) + " of period " + std::to_string(k) +
                (last < 0 ? std::string(" never arrived (the schedule never delivers it)")
                          : " never arrived (expected in cycle " +
                                std::to_string(static_cast<std::int64_t>(k) * tables_.period + last + latency_) + ")"));
        }
      }
  if (error_count_ > static_cast<std::int64_t>(errors_.size()))
    errors_.push_back("... and " + std::to_string(error_count_ - static_cast<std::int64_t>(errors_.size())) + " more");
}

void TdmScoreboard::fill(SimResult& r) const {
  r.cycles = last_cycle_ + 1;
  r.expected_cycles = expected_cycles();
  r.delivered = delivered_;
  r.expected_delivered = expected_count();
  r.errors.insert(r.errors.end(), errors_.begin(), errors_.end());
  if (r.cycles != r.expected_cycles)
    r.errors.push_back("run took " + std::to_string(r.cycles) + " cycles, the schedule predicts " +
                       std::to_string(r.expected_cycles));
  // In one canonical order first: the all-port tile may eject two flits of one pair in one cycle
  // (on two m_axis lanes), which trace_sha256's order (step, destination, source) leaves tied and
  // each engine observes in its own order; with the payload as the last key every engine hashes
  // the same sequence (and where nothing ties, as under `all`, the digest is the one of before).
  std::vector<Delivery> trace = trace_;
  std::sort(trace.begin(), trace.end(), [](const Delivery& a, const Delivery& b) {
    return std::tie(a.step, a.dst, a.src, a.payload) < std::tie(b.step, b.dst, b.src, b.payload);
  });
  r.trace_sha256 = trace_sha256(std::move(trace));
}

SimResult run_reference_periodic(const Topology& t, const Schedule& s, const TdmTables& tables, int periods,
                                 const Traffic* traffic) {
  const auto start = std::chrono::steady_clock::now();
  TdmScoreboard board(t, tables, periods, 0, traffic);
  const auto n = at(t.nodes());
  const std::int64_t P = tables.period, T = static_cast<std::int64_t>(s.steps.size());
  // Each period's flits, (k*N*N + src*N + dst) * F + the schedule's flit index: where they are
  // (kEjected once delivered).
  constexpr NodeId kEjected = -1;
  const auto F = at(tables.flits);
  std::vector<NodeId> where(n * n * F * at(periods));
  std::vector<bool> left_source(where.size(), false);
  for (std::size_t i = 0; i < where.size(); ++i) where[i] = static_cast<NodeId>(((i / F) % (n * n)) / n);
  std::vector<std::size_t> link_base(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) link_base[v + 1] = link_base[v] + static_cast<std::size_t>(t.degree(static_cast<NodeId>(v)));
  std::vector<std::int64_t> link_step(link_base[n], -1), inject_step(n, -1), eject_step(n, -1);
  std::vector<std::string> stray;
  std::int64_t stray_count = 0;
  const auto note = [&](std::string text) {
    if (++stray_count <= 10) stray.push_back(std::move(text));
  };
  struct Move {
    std::size_t m;
    NodeId to, from;
  };
  std::vector<Move> moves;
  const std::int64_t end = (periods - 1) * P + T;
  for (std::int64_t step = 0; step < end; ++step) {
    moves.clear();
    // Every period whose schedule is under way: period k runs its step (step - k*P).
    for (std::int64_t k = std::max<std::int64_t>(0, (step - T) / P); k < periods && k * P <= step; ++k) {
      const std::int64_t local = step - k * P;
      if (local >= T) continue;
      for (const Transfer& tr : s.steps[at(local)]) {
        const NodeId to = t.neighbor(tr.from, tr.port);
        const std::size_t m = (at(k) * n * n + at(tr.msg.src) * n + at(tr.msg.dst)) * F + at(tr.msg.flit);
        const std::string here = "step " + std::to_string(step) + " (period " + std::to_string(k) + "), node " +
                                 std::to_string(tr.from) + ": message (" + std::to_string(tr.msg.src) + "," +
                                 std::to_string(tr.msg.dst) + ") ";
        std::int64_t& link = link_step[link_base[at(tr.from)] + at(tr.port)];
        if (link == step) {
          note(here + "is a second message on link " + std::to_string(tr.from) + "->" + std::to_string(to) +
               " in this step (another period uses its slot); it is lost");
          continue;
        }
        link = step;
        if (where[m] != tr.from) {
          note(here + "is not there, the transfer carries nothing");
          continue;
        }
        // nic: one injection and one ejection per node and step (all-port: one per link, the link check above).
        // The injection is the first hop (a detour may pass its source again, as a relay).
        const bool first_hop = !left_source[m];
        left_source[m] = true;
        if (tables.tile.kind != TileKind::AllPort && first_hop) {
          if (inject_step[at(tr.from)] == step) note(here + "is a second injection of the NIC in this step");
          inject_step[at(tr.from)] = step;
        }
        if (tables.tile.kind != TileKind::AllPort && to == tr.msg.dst) {
          if (eject_step[at(to)] == step) note(here + "is a second ejection at node " + std::to_string(to) + " in this step");
          eject_step[at(to)] = step;
        }
        moves.push_back({m, to, tr.from});
      }
    }
    for (const auto& [m, to, from] : moves) {
      const auto k = static_cast<std::int64_t>(m / F / (n * n));
      const auto src = static_cast<NodeId>(((m / F) % (n * n)) / n), dst = static_cast<NodeId>((m / F) % n);
      if (to == dst) {
        where[m] = kEjected;
        // Its number in the tiles' order, and the last flag the tile's entry gives its eject.
        const int flit = tables.number_of({src, dst, static_cast<std::int32_t>(m % F)}, static_cast<int>(n));
        const TdmEntry& eject = tables.entries[at(dst)][static_cast<std::size_t>((step + 1) % P)];
        board.observe(step, to, src, tdm_payload(src, dst, tdm_flit_index(tables, k, flit), tables.tile.payload_bits),
                      tables.eject_last_of(eject, *t.port_to(to, from)));
      } else {
        where[m] = to;
      }
    }
  }
  board.finish();
  SimResult r;
  r.engine = "ref";
  board.fill(r);
  if (stray_count > 10) stray.push_back("... and " + std::to_string(stray_count - 10) + " more");
  r.errors.insert(r.errors.end(), stray.begin(), stray.end());
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace totex
