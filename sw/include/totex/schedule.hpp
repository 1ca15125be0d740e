// SPDX-License-Identifier: Apache-2.0
/// The in-memory schedules: one type for direct networks, one for MINs.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "totex/network/min_network.hpp"
#include "totex/model.hpp"
#include "totex/network/topology.hpp"

namespace totex {

/// The personalized message from `src` to `dst`: flit `flit` of the flits `src` sends `dst` (0 for
/// the one-flit exchange `all`; 0..w-1 when a traffic sends w flits, docs/traffic.md).
struct Message {
  NodeId src;
  NodeId dst;
  std::int32_t flit = 0;
  bool operator==(const Message& o) const { return src == o.src && dst == o.dst && flit == o.flit; }
};

/// In one step, message `msg` crosses the directed link leaving `from` through `port`.
struct Transfer {
  Message msg;
  NodeId from;
  Port port;
  bool operator==(const Transfer& o) const { return msg == o.msg && from == o.from && port == o.port; }
};

struct VerifyReport;  // verify.hpp

/// Which traffic a schedule was made for (Schedule::traffic); `spec` empty means `all`.
struct TrafficTag {
  std::string spec;
  std::string sha256;
  std::int64_t flits = 0;
  [[nodiscard]] bool is_all() const { return spec.empty(); }
};

/// Produces a schedule's steps in order, one at a time.
class StepCursor {
 public:
  virtual ~StepCursor() = default;
  /// Replaces `out` with the next step's transfers; false (and `out` empty) after the last step.
  virtual bool next(std::vector<Transfer>& out) = 0;
};

/// A schedule too large to hold as transfers (hundreds of millions at N = 4096), kept as the
/// rule that generates it: steps are produced on demand, in order, in O(transfers of the step).
class StepSource {
 public:
  virtual ~StepSource() = default;
  [[nodiscard]] virtual std::size_t step_count() const = 0;
  [[nodiscard]] virtual std::int64_t transfer_count() const = 0;
  [[nodiscard]] virtual std::unique_ptr<StepCursor> cursor() const = 0;
  /// Steps up to the last non-empty one (a pass over the steps unless a source knows better).
  [[nodiscard]] virtual std::size_t busy_step_count() const;
  /// The generator that rebuilds exactly these steps from the topology alone ("a2"), or "" when
  /// none does; such a schedule is written in the compact generated form (schedule_io.hpp).
  [[nodiscard]] virtual std::string generator() const { return ""; }
  /// A source whose own compact form can be checked exactly (an exchange table: Theorem 1)
  /// fills `out` for a valid form and returns true; verify() then does not replay the steps.
  /// False (the default, and for a form with errors): verify() replays and reports each violation.
  [[nodiscard]] virtual bool verify_compact(const Topology& /*t*/, Model /*model*/, VerifyReport& /*out*/) const {
    return false;
  }
};

/// A direct-network schedule: steps[t] lists every link crossing of step t. What each node
/// injects, relays, stores (buffers) or delivers follows from the transfers; see node_actions().
/// A large generated schedule may instead be lazy: `steps` empty and `source` set. Code that
/// indexes `steps` calls materialize() first; verify, write_schedule and transfer_count stream.
struct Schedule {
  std::string topology;  // spec
  Model model = Model::SinglePort;
  std::string algorithm;
  std::vector<std::vector<Transfer>> steps;
  std::shared_ptr<const StepSource> source = nullptr;
  /// 0: a one-shot schedule. P > 0: a periodic (TDM) schedule of period P. The steps are still
  /// absolute (one period's messages, each injected in a slot < P, later hops may run past P);
  /// the schedule repeats every P steps, so step t uses slot t mod P of every link and port.
  int period = 0;
  /// The traffic the schedule delivers: empty for `all` (one flit between every ordered pair of
  /// processors); otherwise the spec, the SHA-256 of the matrix and its flits (docs/traffic.md),
  /// recorded in files so `verify` checks a schedule against the traffic it was made for.
  TrafficTag traffic{};
  [[nodiscard]] std::int64_t transfer_count() const;
  [[nodiscard]] bool lazy() const { return source != nullptr; }
  /// Steps, trailing empty ones included (the source's count when lazy).
  [[nodiscard]] std::size_t step_count() const { return source ? source->step_count() : steps.size(); }
  /// Calls f(step index, transfers) for every step in order, from `steps` or the source.
  void for_each_step(const std::function<void(std::size_t, const std::vector<Transfer>&)>& f) const;
  /// Expands a lazy schedule into `steps` (no-op otherwise).
  void materialize();
};

/// What happens at nodes in one step, derived from a schedule.
struct NodeActions {
  std::vector<std::vector<Message>> inject;   // per node: messages leaving their source
  std::vector<std::vector<Message>> deliver;  // per node: messages arriving at their destination
  std::vector<std::vector<Message>> store;    // per node: messages held at a relay over the step
};
/// Per step, derived by replaying the transfers (assumes a schedule the verifier accepts).
[[nodiscard]] std::vector<NodeActions> node_actions(const Topology& t, const Schedule& s);

/// A MIN schedule: one configuration (a shift state per switch) per step; in step x every
/// terminal s that is not idle sends its message to the output permutation_x(s) reaches. The
/// self slot is counted (a terminal sends N messages, one to itself), as in paper 002.
struct MinSchedule {
  std::string topology;  // spec
  std::string algorithm;
  std::vector<MinConfiguration> configurations;
  /// idle[x] lists the terminals that send nothing in step x; empty (or short) = all send.
  std::vector<std::vector<int>> idle;
  /// When set, configurations were derived from this M^0 by M^x = M^0 (+)_d digit_{n-1-j}(x).
  std::vector<std::uint8_t> m0;
  /// The traffic the configurations carry (empty: all, every N*N pair with the self slot; else a
  /// traffic of the terminals, no self slot, a pair's flits numbered in step order).
  TrafficTag traffic;
  /// Cycles for the whole exchange: one configuration per cycle plus the pipeline fill.
  [[nodiscard]] bool sends(std::size_t step, int terminal) const;
  [[nodiscard]] std::int64_t steps(const MinNetwork& net) const {
    return configurations.empty() ? 0
                                  : static_cast<std::int64_t>(configurations.size()) + net.stages() - 1;
  }
};

/// A 64-bit digest of every transfer in step order (step boundaries included): what the
/// generated file form records so a reader can tell its regenerated schedule is the one written.
[[nodiscard]] std::uint64_t transfer_checksum(const Schedule& s);

/// A schedule of either kind (the network decides which: spec.hpp's Network).
using AnySchedule = std::variant<Schedule, MinSchedule>;

}  // namespace totex
