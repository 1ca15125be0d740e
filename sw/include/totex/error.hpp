// SPDX-License-Identifier: Apache-2.0
/// Error types: every bad input becomes one of these, never a crash.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace totex {

/// A token from the user or a file as error messages show it: bytes outside printable ASCII as
/// \xHH (a NUL as \x00), cut after `max_chars` characters of the input with "..." appended.
[[nodiscard]] inline std::string printable(std::string_view token, std::size_t max_chars = 60) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (i == max_chars) return out + "...";
    const auto c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

/// A plain non-negative decimal number ("8", "2.5", ".5", "1e3"): nothing for hex, nan, inf, a sign
/// or other text, which a double parse would take. For --budget, --recover-budget
/// and TOTEX_MAX_SECONDS.
/// (Scanned by hand: std::regex's code failed GCC 12's -Werror=maybe-uninitialized under the
/// sanitizers, `make sanitize`.)
[[nodiscard]] inline std::optional<double> plain_decimal(const std::string& text) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - from;
  };
  const std::size_t whole = digits();
  std::size_t fraction = 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    fraction = digits();
  }
  if (whole == 0 && fraction == 0) return std::nullopt;  // digits, digits. or .digits
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i != text.size()) return std::nullopt;
  return std::strtod(text.c_str(), nullptr);
}

/// A topology spec, model, size or flag the user gave is not acceptable. The CLI exits 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A file could not be read or is malformed; the message is `file:line: what is wrong`.
class FileError : public std::runtime_error {
 public:
  FileError(const std::string& file, int line, const std::string& what)
      : std::runtime_error(file + ":" + std::to_string(line) + ": " + what) {}
};

/// Memory (or another resource) a request needs is beyond what totex allows itself; the message
/// starts with "resources: ". The CLI exits 3, as it does on std::bad_alloc.
class ResourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A tool totex runs failed (a Verilator model build, a simulation harness): not the user's input.
/// The message starts with "tool: " and names the log to read. The CLI exits 1.
class ToolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The most memory one table of the reference model may take (its N x N message tables).
inline constexpr std::uint64_t kMemoryBudgetBytes = std::uint64_t{8} << 30;

/// Refuses, before allocating, `count` entries of `bytes_each` bytes beyond kMemoryBudgetBytes.
inline void check_memory(std::uint64_t count, std::uint64_t bytes_each, const std::string& what) {
  if (count <= kMemoryBudgetBytes / bytes_each) return;
  throw ResourceError("resources: " + what + " needs " + std::to_string(count) + " entries of " +
                      std::to_string(bytes_each) + " bytes, more than the " + std::to_string(kMemoryBudgetBytes >> 30) +
                      " GiB totex allows itself");
}

/// A file could not be written; the message is `PATH: <OS error text>`. The CLI exits 1.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace totex
