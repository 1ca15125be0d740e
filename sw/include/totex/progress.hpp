// SPDX-License-Identifier: Apache-2.0
/// Progress on stderr for long runs: silent for the first seconds, then a bar on a terminal or a
/// plain line every few seconds otherwise (logs, CI).
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

namespace totex {

class Progress {
 public:
  /// `total` units of work (steps, transfers); `label` starts every line.
  Progress(std::string label, std::int64_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  /// Cheap enough to call per step: looks at the clock only every 64 calls.
  void update(std::int64_t done) {
    if ((++calls_ & 63) == 0) tick(done);
  }
  /// Seconds the run is allowed to show nothing (default 2).
  static constexpr double kQuietSeconds = 2.0;

 private:
  void tick(std::int64_t done);
  std::string label_;
  std::int64_t total_;
  std::uint64_t calls_ = 0;
  std::chrono::steady_clock::time_point start_;
  double last_print_ = 0;
  bool printed_ = false;
  bool tty_ = false;
};

}  // namespace totex
