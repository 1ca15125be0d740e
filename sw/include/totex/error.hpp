// SPDX-License-Identifier: Apache-2.0
/// Error types: every bad input becomes one of these, never a crash.
#pragma once
#include <stdexcept>
#include <string>

namespace totex {

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

/// A file could not be written; the message is `PATH: <OS error text>`. The CLI exits 1.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace totex
