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

namespace totex::traffic_detail {

/// Lines split on whitespace and commas, '#' comments and blank lines skipped; a line longer than
/// kMaxTrafficLine or a file longer than kMaxTrafficFileBytes is a ResourceError before it is read whole.
class LineReader {
 public:
  LineReader(std::istream& in, std::string name);
  bool next();
  [[nodiscard]] const std::vector<std::string_view>& fields() const { return fields_; }
  [[nodiscard]] int line() const { return line_no_; }
  [[noreturn]] void fail(const std::string& what) const { throw FileError(name_, line_no_, what); }
  /// A count 0..limit: FileError when not a non-negative integer, ResourceError above `limit`.
  [[nodiscard]] std::int64_t count(std::string_view token, std::int64_t limit, const char* what) const;

 private:
  static bool is_separator(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == ','; }
  void fill();
  bool next_line(std::string_view& line);
  std::istream& in_;
  std::string name_;
  std::vector<char> buf_;
  std::size_t pos_ = 0, len_ = 0, total_ = 0;
  bool eof_ = false;
  int line_no_ = 0;
  std::vector<std::string_view> fields_;
};

std::int64_t parse_count(std::string_view token, std::int64_t limit, const char* what, const std::string& file, int line);
NodeId parse_node(std::string_view token, int nodes, const std::string& file, int line);

}  // namespace totex::traffic_detail
