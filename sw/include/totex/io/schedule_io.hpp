// SPDX-License-Identifier: Apache-2.0
/// Versioned text formats for step schedules and configuration matrices (docs/formats.md).
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <variant>

#include <optional>
#include <vector>

#include "totex/io/exchange_table.hpp"
#include "totex/schedule.hpp"

namespace totex {

/// A loaded file: the schedule plus what its header claims.
struct LoadedSchedule {
  std::variant<Schedule, MinSchedule> schedule;
  std::int64_t claimed_steps = 0;
  /// Set when the file was an exchange table (paper 001); `schedule` is then its expansion and
  /// `table_errors` what the Theorem 1 checker found.
  std::optional<ExchangeTable> table;
  std::vector<std::string> table_errors;
};

/// `binary`: the step lines as the binary body (docs/formats.md); a lazy schedule with a
/// generator is written in the generated form either way.
void write_schedule(std::ostream& out, const Topology& t, const Schedule& s, bool binary = false);
void write_min_schedule(std::ostream& out, const MinNetwork& net, const MinSchedule& s);
/// Reads any of the three formats (step schedule, configuration matrix, exchange table);
/// validates everything and throws FileError("file:line: ...").
/// A generated-form file (or a large exchange table) yields a lazy schedule only when `lazy_ok`
/// (verify streams it); otherwise its steps are expanded for callers that index them. Likewise a
/// computed-form configuration matrix keeps only M^0 when `lazy_ok` (verify checks from M^0) and
/// otherwise gets its N configurations derived. Files stream (no size limit); a file that starts
/// with the gzip magic is inflated while read.
[[nodiscard]] LoadedSchedule read_schedule_file(const std::string& path, bool lazy_ok = false);
[[nodiscard]] LoadedSchedule read_schedule(std::istream& in, const std::string& name, bool lazy_ok = false);

}  // namespace totex
