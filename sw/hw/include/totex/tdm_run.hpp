// SPDX-License-Identifier: Apache-2.0
/// Periodic (TDM) runs of a nic, all-port or single-port schedule (`totex sim --periods K`,
/// docs/tdm-runs.md): the scoreboard the reference engine and both TDM tile networks (Verilated and
/// SystemC) report through, and the reference engine's periodic run.
///
/// Period k (0 <= k < K) sends every message once more, payload tdm_payload(src, dst, k, W) (flit
/// f of a multi-flit pair: tdm_payload(src, dst, k * flits + f, W), tdm_flit_index). Its message
/// (flit) m is delivered at step k*P + t_last(m) (the trace's step: the digest of every engine is
/// taken over these lines), in cycle k*P + t_last(m) + latency (latency 0 for ref, 1 for the RTL:
/// one register per hop, cycle 0 = the first cycle with run_i high).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "totex/tdm_tables.hpp"
#include "totex/traffic/traffic.hpp"
#include "totex/verify/reference_engine.hpp"
#include "totex/verify/trace.hpp"

namespace totex {

/// Checks the deliveries of K periods: every (k, src, dst) of distinct processors (or, with a
/// traffic, every flit (src, dst)#f the traffic sends per period) exactly once, at its destination,
/// with its payload, in its cycle, and (where the engine reports m_axis_tlast) with its last flag:
/// set on the pair's last flit of the period. The flit and period of a delivery follow from its
/// cycle (each flit of a pair has its own eject slot: k = (cycle - latency - t_last(f)) / P); a
/// cycle that is no delivery cycle of the pair is an error naming the cycles that are; a payload
/// that is another flit's names that flit (reordered), a flit that never arrives is named lost.
class TdmScoreboard {
 public:
  /// `traffic` (null: all) is what must arrive, read from the traffic itself (recorded_traffic),
  /// never from the schedule under test.
  TdmScoreboard(const Topology& t, const TdmTables& tables, int periods, int latency, const Traffic* traffic = nullptr);
  /// One delivery; `last` is m_axis_tlast as the engine saw it (0 or 1), -1 when it has none.
  void observe(std::int64_t cycle, NodeId at, NodeId src, std::uint64_t payload, int last = -1);
  void finish();
  [[nodiscard]] const std::vector<std::string>& errors() const { return errors_; }
  [[nodiscard]] std::int64_t delivered() const { return delivered_; }
  [[nodiscard]] std::int64_t expected_count() const { return required_ * periods_; }
  [[nodiscard]] std::int64_t last_cycle() const { return last_cycle_; }
  /// The cycle count a clean run takes: (K-1)*P + T + latency.
  [[nodiscard]] std::int64_t expected_cycles() const;
  [[nodiscard]] const std::vector<Delivery>& trace() const { return trace_; }
  /// Fills a SimResult (cycles, deliveries, errors, digest); call after finish().
  void fill(SimResult& r) const;

 private:
  void error(std::string text);
  const Topology& t_;
  const TdmTables& tables_;
  int periods_, latency_;
  std::int64_t required_ = 0, delivered_ = 0, last_cycle_ = -1, error_count_ = 0;
  /// "message (s,d)" for one-flit traffic, "flit (s,d)#f" for multi-flit traffic.
  [[nodiscard]] std::string name(NodeId src, NodeId dst, std::int64_t flit) const;
  /// The step of flit f's last hop (TdmTables::last_hop), -1 when the tables do not carry it.
  [[nodiscard]] std::int64_t last_hop(std::size_t pair, std::int64_t f) const;
  std::int64_t flits_ = 1;            // the most flits of one pair (traffic or tables): the layout's stride
  std::vector<char> seen_;            // ((k*N*N + src*N + dst)*flits_ + f)
  std::vector<std::int64_t> pair_flits_;  // (src*N+dst): the flits the traffic sends per period
  std::vector<Delivery> trace_;
  std::vector<std::string> errors_;
};

/// The reference engine over K periods: the schedule's transfers executed hop by hop, period k's
/// shifted by k*P, all periods overlapping in one timeline; a directed link, inject or eject used
/// twice in one step (a fold conflict) loses the message, as in the one-shot reference.
/// `traffic` as for TdmScoreboard.
[[nodiscard]] SimResult run_reference_periodic(const Topology& t, const Schedule& s, const TdmTables& tables, int periods,
                                               const Traffic* traffic = nullptr);


}  // namespace totex
