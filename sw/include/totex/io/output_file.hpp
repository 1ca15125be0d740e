// SPDX-License-Identifier: Apache-2.0
/// Checked file output: every file totex writes goes through OutputFile, so that a failed write
/// is reported as "PATH: <OS error text>" and never leaves half a file behind.
#pragma once
#include <functional>
#include <memory>
#include <ostream>
#include <string>

namespace totex {

/// Writes `path`: into a temporary file in the same directory, checked after flush and close, then
/// renamed over the target. A target that exists and is not a regular file (/dev/full,
/// /dev/stdout, a FIFO) is written in place and its close checked. Any failure throws
/// OutputError("PATH: <strerror(errno)>"); an uncommitted or failed write removes the temporary
/// file and leaves the target as it was.
/// A path ending in ".gz" is written gzip-compressed (zlib, level 1), whatever the writer writes.
class OutputFile {
 public:
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  [[nodiscard]] std::ostream& stream();
  /// Flushes, closes and renames into place; throws OutputError on any failure.
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// OutputFile(path), `writer` fills it, commit().
void write_output_file(const std::string& path, const std::function<void(std::ostream&)>& writer);
/// Rewrites `path` (through OutputFile) with `text` added at its end.
void append_output_file(const std::string& path, const std::string& text);

}  // namespace totex
