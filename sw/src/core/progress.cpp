// SPDX-License-Identifier: Apache-2.0
#include "totex/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace totex {

Progress::Progress(std::string label, std::int64_t total)
    : label_(std::move(label)), total_(total), start_(std::chrono::steady_clock::now()),
      tty_(isatty(STDERR_FILENO) != 0) {}

Progress::~Progress() {
  if (!printed_) return;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (tty_) std::fputc('\n', stderr);
  std::fprintf(stderr, "%s: done in %.1f s\n", label_.c_str(), s);
}

void Progress::tick(std::int64_t done) {
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (s < kQuietSeconds || s - last_print_ < (tty_ ? 0.25 : 5.0)) return;
  last_print_ = s;
  printed_ = true;
  const double frac = total_ > 0 ? static_cast<double>(done) / static_cast<double>(total_) : 0.0;
  const double eta = frac > 0 ? s * (1 - frac) / frac : 0.0;
  if (tty_) {
    constexpr int kWidth = 30;
    const int full = static_cast<int>(frac * kWidth);
    std::string bar(static_cast<std::size_t>(full), '#');
    bar.resize(kWidth, ' ');
    std::fprintf(stderr, "\r%s [%s] %3.0f%%, %.0f s left ", label_.c_str(), bar.c_str(), 100 * frac, eta);
  } else {
    std::fprintf(stderr, "%s: %.0f%% (%lld of %lld) after %.1f s, about %.0f s left\n", label_.c_str(), 100 * frac,
                 static_cast<long long>(done), static_cast<long long>(total_), s, eta);
  }
  std::fflush(stderr);
}

}  // namespace totex
