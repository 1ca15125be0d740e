// SPDX-License-Identifier: Apache-2.0
/// The model-independent half of the direct-network co-simulation (see direct_run.hpp): the sw/
/// controller loads the schedule (scheduled mode) or the send queues (dynamic mode) through the
/// load port, starts the run and a scoreboard checks every delivery.
///
/// Usage: harness direct --topo T [--mode scheduled|dynamic] [--model M --depth D --buffer B] ...:
/// the fields of schema::DirectHarnessArgs (totex/hw_schema.hpp), which the engines write.
/// The parameters must be the ones the model was built with (checked against signature_o).
/// The schedule is NOT verified here, so that broken schedules reach the RTL checks; `totex sim`
/// verifies before it calls this. Prints its result as one line "TOTEX-RESULT {json}" (other stdout
/// lines are the simulator's, e.g. RTL assertion messages); exit 0 pass, 1 check failed, 2 usage.
///
/// Cycle accounting: cycle 0 is the first cycle after the edge that samples start_i. Scheduled:
/// a message whose last hop is in step s is ejected (visible on eject_valid_o) in cycle s + 1, so
/// a T-step schedule takes T + 1 cycles (pipeline latency 1); the trace records step s (so its
/// digest equals the reference engine's). Dynamic: a message is recorded in the cycle it is
/// ejected, step = cycle, and every message must arrive exactly once; `cycles` is the cycle of
/// the last delivery + 1 and there is no cycle-exact expectation.
#include "direct_run.hpp"
#include "harness_exit.hpp"

#include <chrono>
#include <exception>
#include <iostream>
#include <map>
#include <optional>
#include <utility>

#include "totex/direct_controller.hpp"
#include "totex/hw_schema.hpp"
#include "totex/verify/reference_engine.hpp"
#include "totex/error.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/message_index.hpp"

namespace totex::sim {
namespace {
class DirectRun {
 public:
  DirectRun(const totex::Topology& t, const totex::DirectLayout& layout, DirectDut& dut, std::string engine,
            bool backdoor)
      : t_(t), layout_(layout), dut_(dut), engine_(std::move(engine)), backdoor_(backdoor) {
    if (dut_.signature() != layout_.signature())
      throw totex::UsageError("this model was built for other parameters (signature mismatch)");
    dut_.set_layout(layout_.eject_lanes, layout_.msg_bits, layout_.node_bits, layout_.params.payload_bits);
  }

  /// `claimed_steps`: what the schedule file declares; the run must take exactly that many steps.
  totex::SimResult run_scheduled(const totex::Schedule& s, std::int64_t claimed_steps) {
    const auto start = std::chrono::steady_clock::now();
    const totex::DirectProgram prog = totex::direct_program(t_, s, layout_);
    load(prog.writes);
    std::vector<totex::ExpectedDelivery> expected = totex::expected_deliveries(t_, s);
    for (auto& e : expected) e.cycle += kLatency;
    // Every processor pair (or the pairs of the traffic the schedule records), timed by the schedule.
    const std::optional<totex::Traffic> traffic = totex::recorded_traffic(t_, s);
    totex::Scoreboard board = traffic ? totex::Scoreboard(t_, expected, *traffic) : totex::Scoreboard(t_, expected);
    const std::int64_t limit = prog.steps + kLatency + 8;
    const std::int64_t busy = run(limit, [&](std::int64_t cycle, int node, std::uint64_t src, std::uint64_t dst,
                                             std::uint64_t payload) {
      board.observe(cycle, node, static_cast<totex::NodeId>(src), static_cast<totex::NodeId>(dst), cycle - kLatency,
                    static_cast<std::uint32_t>(payload));
    });
    totex::SimResult r;
    r.engine = engine_;
    totex::fill_from_scoreboard(r, board, claimed_steps + kLatency);
    if (busy != prog.steps + kLatency)
      r.errors.push_back("busy_o was high for " + std::to_string(busy) + " cycles, expected " +
                         std::to_string(prog.steps + kLatency));
    for (const std::string& n : prog.notes) r.errors.push_back("controller: " + n);
    finish(r, start);
    return r;
  }

  /// `traffic`: what the NICs send (null: all).
  totex::SimResult run_dynamic(const totex::Traffic* traffic) {
    const auto start = std::chrono::steady_clock::now();
    load(totex::direct_queue_writes(t_, layout_, traffic));
    struct Seen {
      std::int64_t cycle;
      int node;
      std::uint64_t src, dst, payload;
    };
    std::vector<Seen> seen;
    run(std::int64_t{1} << 40, [&](std::int64_t cycle, int node, std::uint64_t src, std::uint64_t dst,
                                   std::uint64_t payload) { seen.push_back({cycle, node, src, dst, payload}); });
    // Every pair of processors is expected once (empty nodes send and receive nothing), or every
    // flit of the traffic; no cycle is predicted. Dimension-order routing keeps a pair's flits in
    // order (one path, one VC class per hop, FIFOs); adaptive routing may reorder them, so there
    // only exactly-once is checked and the overtaking flits are counted.
    const bool in_order = layout_.params.routing == totex::DynamicRouting::Dor;
    totex::Scoreboard board = traffic ? totex::Scoreboard(t_, *traffic, in_order) : totex::Scoreboard(t_);
    for (const Seen& x : seen)
      board.observe(x.cycle, x.node, static_cast<totex::NodeId>(x.src), static_cast<totex::NodeId>(x.dst), x.cycle,
                    static_cast<std::uint32_t>(x.payload));
    totex::SimResult r;
    r.engine = engine_;
    // Dynamic: no cycle is predicted (compare with `totex bound --model nic` instead); the shared
    // fill also hands over the deliveries per cycle, which `sim --plot` draws.
    totex::fill_from_scoreboard(r, board, board.last_cycle() + 1);
    if (traffic) r.reordered = board.reordered();
    if (!done_seen_) r.errors.push_back(stall_text_);
    finish(r, start);
    return r;
  }

  [[nodiscard]] std::uint64_t simulated_cycles() const { return dut_.edges(); }
  void set_checks_name(std::string name) { checks_ = std::move(name); }

 private:
  static constexpr std::int64_t kLatency = 1;

  void load(const std::vector<totex::LoadWrite>& writes) {
    const auto started = std::chrono::steady_clock::now();
    for (const totex::LoadWrite& w : writes)
      if (!backdoor_ || !dut_.backdoor_write(w.addr, w.data)) dut_.write(w.addr, w.data);
    load_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }

  /// Starts a run and reports every ejected message with the cycle it is visible in; stops after
  /// done_o, at `limit` cycles, or (dynamic) when nothing is delivered for a long time. Returns
  /// the number of cycles busy_o was high.
  template <class OnEject>
  std::int64_t run(std::int64_t limit, OnEject on_eject) {
    const auto started = std::chrono::steady_clock::now();  // the exchange's own time and edges
    const std::uint64_t edges_before = dut_.edges();
    dut_.set_start(true);
    dut_.tick();  // edge 0
    dut_.set_start(false);
    const int lanes = layout_.eject_lanes;
    const std::int64_t patience = 1000 + 20 * static_cast<std::int64_t>(t_.nodes());
    std::int64_t busy = 0, last_progress = 0;
    std::vector<Eject> ej;
    for (std::int64_t cycle = 0; cycle < limit; ++cycle) {
      busy += dut_.busy() ? 1 : 0;
      ej.clear();
      dut_.ejects(ej);
      for (const Eject& e : ej) on_eject(cycle, e.lane / lanes, e.src, e.dst, e.payload);
      if (!ej.empty()) last_progress = cycle;
      const bool done = dut_.done();
      dut_.tick();
      if (done) {
        done_seen_ = true;
        break;
      }
      if (cycle - last_progress > patience) {
        stall_text_ = "no message delivered for " + std::to_string(patience) + " cycles after cycle " +
                      std::to_string(last_progress) + ": the network is stuck (deadlock or lost messages)";
        break;
      }
    }
    run_edges_ += dut_.edges() - edges_before;
    run_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return busy;
  }

  void finish(totex::SimResult& r, std::chrono::steady_clock::time_point start) {
    if (dut_.error()) r.errors.push_back("a router or NIC check (error_o) fired");
    if (dut_.assertion_failures() > 0)
      r.errors.push_back(std::to_string(dut_.assertion_failures()) + " " + checks_ +
                         " assertion(s) fired");
    r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.simulated_cycles = dut_.edges();
    r.run_edges = run_edges_;
    r.run_seconds = run_seconds_;
    r.load_seconds = load_seconds_;
  }

  const totex::Topology& t_;
  const totex::DirectLayout& layout_;
  DirectDut& dut_;
  std::string engine_;
  std::string checks_;  // what the model's checks are called in messages ("RTL", "systemc")
  bool backdoor_ = false;
  bool done_seen_ = false;
  std::uint64_t run_edges_ = 0;
  double run_seconds_ = 0;
  double load_seconds_ = 0;  // the load writes' wall time
  std::string stall_text_ = "the run did not finish";
};

}  // namespace

bool DirectDut::backdoor_write(std::uint64_t, std::uint64_t) {
  throw totex::UsageError("--load backdoor: this engine has no backdoor; use --load port");
}

int direct_main(int argc, char** argv, const std::string& engine, const MakeDirectDut& make, const std::string& checks) {
  return harness_main("direct harness", [&] {
    const schema::DirectHarnessArgs a = schema::parse_argv<schema::DirectHarnessArgs>(argc, argv, "direct harness");
    const totex::Topology t = totex::parse_topology(a.topo);
    const totex::DirectLayout layout(t, a.params());
    const std::unique_ptr<DirectDut> dut = make(t, layout, a.wave);
    dut->set_skip_quiet(a.skip_quiet);
    DirectRun run(t, layout, *dut, engine, a.load == schema::LoadPath::Backdoor);
    run.set_checks_name(checks.empty() ? engine : checks);
    totex::SimResult r;
    if (a.mode == totex::DirectMode::Scheduled) {
      if (a.schedule.empty()) throw totex::UsageError("scheduled mode needs --schedule FILE");
      const totex::LoadedSchedule loaded = totex::read_schedule_file(a.schedule);
      const auto* s = std::get_if<totex::Schedule>(&loaded.schedule);
      if (!s) throw totex::UsageError("the direct-network RTL runs step-schedule files");
      if (totex::parse_topology(s->topology).spec() != t.spec())
        throw totex::UsageError("the schedule is for " + s->topology + ", this model for " + t.spec());
      r = run.run_scheduled(*s, loaded.claimed_steps);
    } else {
      // The traffic, read again from its spec as a schedule file's is (null: all).
      const std::optional<totex::Traffic> traffic =
          totex::read_traffic_again(t, {a.traffic, a.traffic_sha256, 0}, "the harness's --traffic");
      r = run.run_dynamic(traffic ? &*traffic : nullptr);
    }
    r.simulated_cycles = run.simulated_cycles();
    std::cout << "TOTEX-RESULT " << totex::sim_result_json(r) << '\n';
    return r.ok() ? 0 : 1;
  });
}

}  // namespace totex::sim
