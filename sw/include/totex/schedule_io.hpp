// SPDX-License-Identifier: Apache-2.0
/// Versioned text formats for step schedules and configuration matrices (README "File formats").
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <variant>

#include "totex/schedule.hpp"

namespace totex {

/// A loaded file: the schedule plus what its header claims.
struct LoadedSchedule {
  std::variant<Schedule, MinSchedule> schedule;
  std::int64_t claimed_steps = 0;
};

void write_schedule(std::ostream& out, const Topology& t, const Schedule& s);
void write_min_schedule(std::ostream& out, const MinNetwork& net, const MinSchedule& s);
/// Reads either format; validates everything and throws FileError("file:line: ...").
[[nodiscard]] LoadedSchedule read_schedule_file(const std::string& path);
[[nodiscard]] LoadedSchedule read_schedule(std::istream& in, const std::string& name);

}  // namespace totex
