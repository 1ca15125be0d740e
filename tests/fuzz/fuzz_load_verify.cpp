// SPDX-License-Identifier: Apache-2.0
/// Any file through the loader, then the verifier and the reference engine with its independent
/// scoreboard. The two judge the same schedule by different means, so a schedule the verifier
/// accepts must also pass the reference run (the reverse need not hold: the verifier also checks
/// the model's port limits). Networks above 512 nodes are only loaded: their N x N tables would
/// make every execution slow.
#include "fuzz_common.hpp"
#include "totex/verify/reference_engine.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace totex;
  if (size > 16384) return 0;
  LoadedSchedule loaded;
  if (!fuzz::load(fuzz::bytes(data, size), loaded)) return 0;
  if (const auto* s = std::get_if<Schedule>(&loaded.schedule)) {
    const Topology t = parse_topology(s->topology);
    if (t.nodes() > 512) return 0;
    const VerifyReport report = verify(t, *s, loaded.claimed_steps);
    const SimResult run = run_reference(t, *s, loaded.claimed_steps);
    fuzz::require(run.expected_delivered == report.expected, "verifier and scoreboard expect different counts");
    if (report.ok && loaded.table_errors.empty()) {
      fuzz::require(run.ok(), "the verifier accepts a schedule the reference run fails");
      fuzz::require(run.delivered == report.delivered && run.cycles == report.steps, "verifier and run disagree");
    }
  } else {
    const auto& m = std::get<MinSchedule>(loaded.schedule);
    const MinNetwork net = std::get<MinNetwork>(parse_spec(m.topology));
    if (net.terminals() > 512) return 0;
    const VerifyReport report = verify(net, m, loaded.claimed_steps);
    const SimResult run = run_reference(net, m, loaded.claimed_steps);
    fuzz::require(run.expected_delivered == report.expected, "verifier and scoreboard expect different counts");
    if (report.ok) {
      fuzz::require(run.ok(), "the verifier accepts a MIN schedule the reference run fails");
      fuzz::require(run.delivered == report.delivered && run.cycles == report.steps, "verifier and run disagree");
    }
  }
  return 0;
}
