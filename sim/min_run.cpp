// SPDX-License-Identifier: Apache-2.0
/// Paper 002's two phases on any MinDut (see min_run.hpp). Cycle accounting follows the timing
/// contract of rtl/totex_min_top.sv: cycle 0 is the first cycle after the edge that samples
/// start_i; step x is on the eject bus in cycle x + n, which the scoreboard expects as cycle
/// x + n - 1 (the schedule's count: N configurations plus n - 1 pipeline cycles), so the
/// observed cycle minus one is compared.
#include "min_run.hpp"
#include "harness_exit.hpp"

#include <chrono>
#include <exception>
#include <iostream>
#include <map>
#include <optional>

#include "totex/hw_schema.hpp"
#include "totex/verify/reference_engine.hpp"
#include "totex/traffic/min_terminals.hpp"
#include "totex/verify/message_index.hpp"
#include "totex/error.hpp"
#include "totex/io/schedule_io.hpp"
#include "totex/network/spec.hpp"

namespace totex::sim {
namespace {

class MinRun {
 public:
  MinRun(const MinNetwork& net, const MinSchedule& s, std::int64_t claimed_steps, const MinBuild& build, MinDut& dut,
         std::string engine, std::string checks)
      : net_(net), s_(s), claimed_steps_(claimed_steps), build_(build), layout_(net, build.max_steps, build.payload_bits),
        dut_(dut), engine_(std::move(engine)), checks_(std::move(checks)) {}

  SimResult run() {
    const auto start = std::chrono::steady_clock::now();
    load(min_configuration_writes(net_, s_, build_.mode, layout_));
    // Phase 1: labels. Label s arriving at output t in step x: s sends its message for t in step x.
    std::vector<std::vector<int>> order(static_cast<std::size_t>(net_.terminals()),
                                        std::vector<int>(s_.configurations.size(), -1));
    run_phase(0, [&](std::int64_t, const MinEject& m) {
      if (m.src < order.size() && m.seq < s_.configurations.size() && s_.sends(m.seq, static_cast<int>(m.src)))
        order[m.src][m.seq] = m.at;
    });
    load(min_send_queue_writes(order, layout_));
    // Phase 2: personalized messages, checked by the scoreboard.
    // All N*N messages, or the traffic's flits the file records (read again), timed by the schedule.
    const std::optional<Traffic> traffic =
        s_.traffic.is_all() ? std::nullopt : read_traffic_again(min_traffic_nodes(net_), s_.traffic, "the schedule");
    Scoreboard board = traffic ? Scoreboard(net_, expected_deliveries(net_, s_), *traffic) : Scoreboard(net_, expected_deliveries(net_, s_));
    const std::int64_t busy = run_phase(1, [&](std::int64_t cycle, const MinEject& m) {
      board.observe(cycle - 1, m.at, static_cast<NodeId>(m.src), static_cast<NodeId>(m.dst),
                    static_cast<std::int64_t>(m.seq), static_cast<std::uint32_t>(m.payload));
    });
    SimResult r;
    r.engine = engine_;
    fill_from_scoreboard(r, board, claimed_steps_);  // the run must take the steps the file claims
    if (busy != s_.steps(net_))
      r.errors.push_back("busy_o was high for " + std::to_string(busy) + " cycles, expected " +
                         std::to_string(s_.steps(net_)));
    if (dut_.error()) r.errors.push_back("a NIC receive check (error_o) fired");
    if (dut_.assertion_failures() > 0)
      r.errors.push_back(std::to_string(dut_.assertion_failures()) + " " + checks_ +
                         " assertion(s) fired");
    r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.simulated_cycles = dut_.edges();
    r.run_edges = run_edges_;
    r.run_seconds = run_seconds_;
    r.load_seconds = load_seconds_;
    return r;
  }

 private:
  void load(const std::vector<LoadWrite>& writes) {
    const auto started = std::chrono::steady_clock::now();
    for (const LoadWrite& w : writes)
      if (!build_.backdoor || !dut_.backdoor_write(w.addr, w.data)) dut_.write(w.addr, w.data);
    load_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }

  /// Starts a run and reports every ejected message with the cycle it is visible in; returns the
  /// number of cycles busy_o was high.
  template <class OnEject>
  std::int64_t run_phase(int phase, OnEject on_eject) {
    const auto started = std::chrono::steady_clock::now();  // the exchange's own time and edges
    const std::uint64_t edges_before = dut_.edges();
    dut_.set_start(true, phase);
    dut_.tick();  // edge 0
    dut_.set_start(false, phase);
    std::int64_t busy = 0;
    const std::int64_t limit = static_cast<std::int64_t>(s_.configurations.size()) + net_.stages() + 8;
    std::vector<MinEject> ej;
    for (std::int64_t cycle = 0; cycle < limit; ++cycle) {
      busy += dut_.busy() ? 1 : 0;
      ej.clear();
      dut_.ejects(ej);
      for (const MinEject& m : ej) on_eject(cycle, m);
      const bool done = dut_.done();
      dut_.tick();
      if (done) break;
    }
    run_edges_ += dut_.edges() - edges_before;
    run_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return busy;
  }

  const MinNetwork& net_;
  const MinSchedule& s_;
  std::int64_t claimed_steps_;
  MinBuild build_;
  MinPortLayout layout_;
  MinDut& dut_;
  std::string engine_;
  std::string checks_;  // what the model's checks are called in messages ("RTL", "systemc")
  std::uint64_t run_edges_ = 0;  // the exchange's edges (both phases) and their wall time
  double run_seconds_ = 0;
  double load_seconds_ = 0;  // the load writes' wall time
};

}  // namespace

bool MinDut::backdoor_write(std::uint64_t, std::uint64_t) {
  throw UsageError("--load backdoor: this engine has no backdoor (only --engine rtl has for a MIN); use --load port");
}

int min_main(int argc, char** argv, const std::string& engine, const MakeMinDut& make, const std::string& checks) {
  return harness_main("min harness", [&] {
    const schema::MinHarnessArgs a = schema::parse_argv<schema::MinHarnessArgs>(argc, argv, "min harness");
    MinBuild build;
    build.mode = a.min_mode;
    build.max_steps = a.max_steps;
    build.payload_bits = a.payload_bits;
    build.backdoor = a.load == schema::LoadPath::Backdoor;
    const LoadedSchedule loaded = read_schedule_file(a.schedule);
    const auto* s = std::get_if<MinSchedule>(&loaded.schedule);
    if (!s) throw UsageError("a MIN harness runs configuration-matrix files");
    const MinNetwork net = std::get<MinNetwork>(parse_spec(s->topology));
    if (build.max_steps < net.terminals() || build.max_steps < static_cast<int>(s->configurations.size()))
      throw UsageError("--max-steps " + std::to_string(build.max_steps) + " is shorter than the schedule");
    const std::unique_ptr<MinDut> dut = make(net, build, a.wave);
    const SimResult r = MinRun(net, *s, loaded.claimed_steps, build, *dut, engine, checks.empty() ? engine : checks).run();
    std::cout << "TOTEX-RESULT " << sim_result_json(r) << '\n';  // model assertions also print to stdout
    return r.ok() ? 0 : 1;
  });
}

}  // namespace totex::sim
