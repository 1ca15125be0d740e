// SPDX-License-Identifier: Apache-2.0
// Private helpers of the traffic readers and spec parser (not installed).
#pragma once
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "totex/error.hpp"
#include "totex/network/topology.hpp"
#include "totex/traffic/traffic.hpp"
#include "../io/line_reader.hpp"

namespace totex::traffic_detail {

/// The owner of a traffic reader's bytes: a base, so it is built before the LineReader reading it.
struct TrafficBytes {
  io_detail::ByteSource bytes;
  TrafficBytes(std::istream& in, const std::string& name) : bytes(in, name) {}
};

/// The schedule files' line reader (gzip inflated) with the traffic files' limits: fields split on
/// whitespace and commas, '#' comments and blank lines skipped; a line longer than kMaxTrafficLine
/// or a file longer than kMaxTrafficFileBytes is a ResourceError before it is read whole.
class LineReader : private TrafficBytes, public io_detail::LineReader {
 public:
  LineReader(std::istream& in, const std::string& name)
      : TrafficBytes(in, name),
        io_detail::LineReader(bytes, name, {kMaxTrafficLine, "traffic", true, kMaxTrafficFileBytes, true}) {}
  /// A count 0..limit: FileError when not a non-negative integer, ResourceError above `limit`.
  [[nodiscard]] std::int64_t count(std::string_view token, std::int64_t limit, const char* what) const;
};

std::int64_t parse_count(std::string_view token, std::int64_t limit, const char* what, const std::string& file, int line);
NodeId parse_node(std::string_view token, int nodes, const std::string& file, int line);

}  // namespace totex::traffic_detail
