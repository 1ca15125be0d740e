// SPDX-License-Identifier: Apache-2.0
/// `totex sim --plot FILE`: the cycle-level view of a run (messages in flight and deliveries per
/// cycle, for the engine that ran and for the reference model). Kept apart from sim_command.cpp,
/// which only registers the flag and calls sim_plot() once the run is over.
#include <algorithm>
#include <iostream>

#include "cli_common.hpp"
#include "sim_plot.hpp"
#include "totex/bounds/bounds.hpp"
#include "totex/io/output_file.hpp"
#include "totex/plot/plot.hpp"

namespace totex::cli {
namespace {

std::vector<std::int64_t> cumulative(const std::vector<std::int64_t>& per_cycle, std::size_t length) {
  std::vector<std::int64_t> out(length, 0);
  std::int64_t sum = 0;
  for (std::size_t c = 0; c < length; ++c) out[c] = sum += c < per_cycle.size() ? per_cycle[c] : 0;
  return out;
}

/// Injections per step the schedule makes (direct: a message's first hop; a detour may pass its
/// source again, as a relay; MIN: every sending terminal of configuration x, in cycle x).
std::vector<std::int64_t> injections(const Network& net, const AnySchedule& any) {
  std::vector<std::int64_t> out;
  if (const auto* s = std::get_if<Schedule>(&any)) {
    const auto n = static_cast<std::size_t>(std::get<Topology>(net).nodes());
    std::vector<bool> sent(n * n, false);
    for (const auto& step : s->steps) {
      std::int64_t first = 0;
      for (const Transfer& t : step) {
        const std::size_t m = static_cast<std::size_t>(t.msg.src) * n + static_cast<std::size_t>(t.msg.dst);
        if (m < sent.size() && !sent[m]) {
          sent[m] = true;
          ++first;
        }
      }
      out.push_back(first);
    }
  } else {
    const auto& m = std::get<MinSchedule>(any);
    for (std::size_t x = 0; x < m.configurations.size(); ++x) {
      std::int64_t n = 0;
      for (int t = 0; t < std::get<MinNetwork>(net).terminals(); ++t) n += m.sends(x, t) ? 1 : 0;
      out.push_back(n);
    }
  }
  return out;
}

}  // namespace

void add_sim_plot_option(CLI::App* sim, std::string& path) {
  sim->add_option("--plot", path,
                  "write the cycle-level view (SVG): messages in flight and deliveries per cycle, this engine and ref")
      ->check(output_path());
}

void sim_plot(const std::string& path, const Network& net, const AnySchedule& schedule, const SimResult& r,
              bool dynamic, json& j) {
  j.erase("deliveries_per_cycle");  // the JSON keys of `sim` stay as documented; the curve goes to the plot
  if (path.empty()) return;
  std::vector<plot::Series> series;
  const std::string verdict = std::string(r.ok() ? "PASS" : "FAIL");
  std::int64_t bound = 0;
  if (r.deliveries_per_cycle.empty()) {
    std::cerr << "totex: warning: engine " << r.engine
              << " reported no per-cycle deliveries (a model built by an older totex); the plot shows the schedule only\n";
  }
  if (dynamic) {  // no schedule: what is known per cycle is what the scoreboard saw
    const auto done = cumulative(r.deliveries_per_cycle, static_cast<std::size_t>(r.cycles));
    std::vector<std::int64_t> left;
    for (const std::int64_t d : done) left.push_back(r.expected_delivered - d);
    series.push_back({r.engine + " (" + verdict + "): messages not yet delivered (dynamic: injection times unknown)", left});
    series.push_back({r.engine + ": delivered per cycle", r.deliveries_per_cycle});
    // The bound `sim` printed: the traffic's nic bound with --traffic, all's otherwise.
    bound = j.contains("lower_bound") ? j["lower_bound"].get<std::int64_t>() : lower_bound(std::get<Topology>(net), Model::Nic).steps;
  } else {
    // The reference model's own run gives the schedule's timing; an engine's deliveries are
    // shifted back by its latency (its cycles minus the schedule's), so both read in steps.
    const SimResult ref = std::holds_alternative<MinNetwork>(net)
                              ? run_reference(std::get<MinNetwork>(net), std::get<MinSchedule>(schedule))
                              : run_reference(std::get<Topology>(net), std::get<Schedule>(schedule));
    const auto steps = static_cast<std::size_t>(ref.cycles);
    const auto injected = cumulative(injections(net, schedule), steps);
    auto in_flight = [&](const std::vector<std::int64_t>& per_cycle, std::int64_t latency) {
      std::vector<std::int64_t> shifted(per_cycle.begin() + std::min<std::int64_t>(std::max<std::int64_t>(latency, 0),
                                                                                  static_cast<std::int64_t>(per_cycle.size())),
                                        per_cycle.end());
      const auto done = cumulative(shifted, steps);
      std::vector<std::int64_t> out;
      // In flight during step c: injected by its end, not delivered before it (a one-hop message counts in its step).
      for (std::size_t c = 0; c < steps; ++c) out.push_back(injected[c] - (c > 0 ? done[c - 1] : 0));
      return out;
    };
    const std::int64_t latency = r.cycles - ref.cycles;
    if (r.engine != "ref" && !r.deliveries_per_cycle.empty())
      series.push_back({r.engine + " (" + verdict + "): in flight (deliveries shifted back by its latency " +
                            std::to_string(latency) + ")",
                        in_flight(r.deliveries_per_cycle, latency)});
    series.push_back({"ref: in flight", in_flight(ref.deliveries_per_cycle, 0)});
    series.push_back({"ref: delivered per step", ref.deliveries_per_cycle});
    bound = std::holds_alternative<MinNetwork>(net)
                ? lower_bound(std::get<MinNetwork>(net)).steps
                : lower_bound(std::get<Topology>(net), std::get<Schedule>(schedule).model).steps;
  }
  const std::string spec = std::visit([](const auto& x) { return x.topology; }, schedule);
  const std::string doc = plot::cycles_svg(series, bound,
                                           spec + " on " + r.engine + ": " + verdict + ", " + std::to_string(r.cycles) +
                                               " cycles; messages in flight per cycle");
  write_output_file(path, [&](std::ostream& out) { out << doc; });
  j["plot"] = path;
}

}  // namespace totex::cli
