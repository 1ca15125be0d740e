// SPDX-License-Identifier: Apache-2.0
/// One schedule-file loader under fuzzing: the input is the body of a file whose first line
/// (the format's magic) the target supplies, so the fuzzer spends its time past the header check.
/// A file that loads must survive a write-read round trip unchanged.
#pragma once
#include <sstream>

#include "fuzz_common.hpp"
#include "totex/network/spec.hpp"

namespace totex::fuzz {

inline std::vector<std::vector<Transfer>> trimmed(std::vector<std::vector<Transfer>> steps) {
  while (!steps.empty() && steps.back().empty()) steps.pop_back();
  return steps;
}

inline void round_trip(const LoadedSchedule& loaded) {
  if (const auto* s = std::get_if<Schedule>(&loaded.schedule)) {
    const Topology t = parse_topology(s->topology);
    std::ostringstream out;
    write_schedule(out, t, *s);
    LoadedSchedule again;
    require(load(out.str(), again), "a loaded step schedule, written again, does not load");
    const auto& s2 = std::get<Schedule>(again.schedule);
    require(trimmed(s2.steps) == trimmed(s->steps) && s2.model == s->model, "step schedule changed in a round trip");
  } else {
    const auto& m = std::get<MinSchedule>(loaded.schedule);
    const MinNetwork net = std::get<MinNetwork>(parse_spec(m.topology));
    std::ostringstream out;
    write_min_schedule(out, net, m);
    LoadedSchedule again;
    require(load(out.str(), again), "a loaded configuration matrix, written again, does not load");
    const auto& m2 = std::get<MinSchedule>(again.schedule);
    require(m2.configurations == m.configurations, "configurations changed in a round trip");
    for (std::size_t x = 0; x < m.configurations.size(); ++x)
      for (int terminal = 0; terminal < net.terminals(); ++terminal)
        require(m.sends(x, terminal) == m2.sends(x, terminal), "idle terminals changed in a round trip");
  }
}

inline int fuzz_loader(const char* magic, const std::uint8_t* data, std::size_t size) {
  if (size > 16384) return 0;
  LoadedSchedule loaded;
  if (!load(std::string(magic) + "\n" + bytes(data, size), loaded)) return 0;
  if (!loaded.table) {
    round_trip(loaded);
    return 0;
  }
  // An exchange table is written as a table; read again, it expands to the same schedule.
  std::ostringstream out;
  write_exchange_table(out, *loaded.table);
  LoadedSchedule again;
  require(load(out.str(), again), "a loaded exchange table, written again, does not load");
  require(trimmed(std::get<Schedule>(again.schedule).steps) == trimmed(std::get<Schedule>(loaded.schedule).steps),
          "exchange table expands differently after a round trip");
  return 0;
}

}  // namespace totex::fuzz
