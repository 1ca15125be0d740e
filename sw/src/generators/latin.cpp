// SPDX-License-Identifier: Apache-2.0
// Paper 002: configuration matrices M^x, the arrival matrix A and its Latin-square property.
#include <algorithm>

#include "totex/error.hpp"
#include "totex/generators/generators.hpp"

namespace totex {

std::vector<std::uint8_t> zero_m0(const MinNetwork& net) {
  return std::vector<std::uint8_t>(static_cast<std::size_t>(net.switches()), 0);
}

MinConfiguration configuration_from_m0(const MinNetwork& net, const std::vector<std::uint8_t>& m0, int x) {
  const int d = net.radix();
  const auto spp = static_cast<std::size_t>(net.switches_per_stage());
  // Copied, then each stage shifted in place: N configurations x N/d log_d N switches at N = 4096
  // is 10^8 states, so no zero fill and no division per switch (the loop vectorizes).
  MinConfiguration c(m0.begin(), m0.end());
  const bool valid = std::all_of(m0.begin(), m0.end(), [d](std::uint8_t v) { return v < d; });
  for (int j = 0; j < net.stages(); ++j) {
    const int shift = digit(x, net.stages() - 1 - j, d);  // x_{(log_d N)-1-j}
    if (shift == 0) continue;
    const std::size_t lo = std::min(c.size(), static_cast<std::size_t>(j) * spp);
    const std::size_t hi = std::min(c.size(), lo + spp);
    for (std::size_t i = lo; i < hi; ++i) {
      const int v = c[i] + shift;
      // (m0 + shift) mod d; states >= d (an invalid M^0) still reduce mod d.
      c[i] = static_cast<std::uint8_t>(valid ? (v >= d ? v - d : v) : v % d);
    }
  }
  return c;
}

MinSchedule latin_schedule(const MinNetwork& net, const std::vector<std::uint8_t>& m0) {
  MinSchedule s{net.spec(), "latin", {}, {}, m0, {}};
  check_memory(static_cast<std::uint64_t>(net.terminals()) * static_cast<std::uint64_t>(net.switches()), 1,
               "the " + std::to_string(net.terminals()) + " configurations of " + net.spec());
  for (int x = 0; x < net.terminals(); ++x) s.configurations.push_back(configuration_from_m0(net, m0, x));
  return s;
}

std::vector<std::vector<int>> arrival_matrix(const MinNetwork& net, const MinSchedule& s) {
  const auto n = static_cast<std::size_t>(net.terminals());
  std::vector<std::vector<int>> a(n, std::vector<int>(s.configurations.size(), -1));
  for (std::size_t x = 0; x < s.configurations.size(); ++x) {
    const std::vector<int> perm = net.permutation(s.configurations[x]);
    for (std::size_t src = 0; src < n; ++src)
      if (s.sends(x, static_cast<int>(src))) a[static_cast<std::size_t>(perm[src])][x] = static_cast<int>(src);
  }
  return a;
}

bool is_latin_square(const std::vector<std::vector<int>>& a) {
  const std::size_t n = a.size();
  std::vector<int> row_seen(n), col_seen(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i].size() != n) return false;
    for (std::size_t j = 0; j < n; ++j) {
      const int r = a[i][j], c = a[j][i];
      if (r < 0 || c < 0 || static_cast<std::size_t>(r) >= n || static_cast<std::size_t>(c) >= n) return false;
      // stamp i+1 marks "seen in row/column i"
      if (row_seen[static_cast<std::size_t>(r)] == static_cast<int>(i) + 1) return false;
      if (col_seen[static_cast<std::size_t>(c)] == static_cast<int>(i) + 1) return false;
      row_seen[static_cast<std::size_t>(r)] = static_cast<int>(i) + 1;
      col_seen[static_cast<std::size_t>(c)] = static_cast<int>(i) + 1;
    }
  }
  return true;
}

std::vector<std::vector<int>> label_phase_send_order(const MinNetwork& net, const MinSchedule& s) {
  const auto n = static_cast<std::size_t>(net.terminals());
  std::vector<std::vector<int>> order(n, std::vector<int>(s.configurations.size(), -1));
  for (std::size_t x = 0; x < s.configurations.size(); ++x) {
    // The label of input `src` travels the MIN; the output it reaches is src's destination in step x.
    for (std::size_t src = 0; src < n; ++src)
      if (s.sends(x, static_cast<int>(src))) order[src][x] = net.route(s.configurations[x], static_cast<int>(src));
  }
  return order;
}

}  // namespace totex
