// SPDX-License-Identifier: Apache-2.0
// Private helpers of the LP bounds' certificates (congestion_lp.cpp, time_expanded_lp.cpp): the
// duals of CLP's capacity rows turned into integer lengths, and 128-bit integers printed.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace totex::lp_detail {

__extension__ typedef __int128 i128;

/// A non-negative 128-bit integer in decimal.
inline std::string str128(i128 v) {
  if (v == 0) return "0";
  std::string s;
  while (v > 0) {
    s += static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  }
  return {s.rbegin(), s.rend()};
}

/// The absolute duals of rows first..first+count-1 scaled to integers summing to about 2^30 (any
/// non-negative lengths give a valid certificate; these make it about as strong as the LP). False
/// when they sum to nothing usable.
inline bool dual_lengths(const double* dual, std::int64_t first, std::int64_t count, std::vector<std::int64_t>& len) {
  double total = 0;
  for (std::int64_t r = first; r < first + count; ++r) total += std::fabs(dual[r]);
  if (!(total > 0) || !std::isfinite(total)) return false;
  constexpr double kScale = 1073741824.0;  // 2^30
  len.resize(static_cast<std::size_t>(count));
  for (std::int64_t r = 0; r < count; ++r)
    len[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(std::floor(std::fabs(dual[first + r]) / total * kScale));
  return true;
}

}  // namespace totex::lp_detail
