// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the Verilator self-checks: the harness itself (ClockedModel, sim/vl_harness.hpp,
// the one every engine uses), bit-field access on Verilator port types, and the reference model of
// the d-nary banyan MINs (written from the wiring definitions, independently of the RTL's
// totex_pkg::feed_line).
#pragma once

#include <verilated.h>

#include "vl_harness.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace rtltest {

using totex::sim::ClockedModel;

// ------------------------------------------------------------------------------------------------
// Bit fields on 32-bit word arrays (VlWide::data()) and on 64-bit scalars
// ------------------------------------------------------------------------------------------------
inline uint64_t get_bits(const uint32_t* w, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  for (unsigned b = 0; b < width; ++b) {
    const unsigned bit = lsb + b;
    v |= static_cast<uint64_t>((w[bit / 32] >> (bit % 32)) & 1u) << b;
  }
  return v;
}
inline void set_bits(uint32_t* w, unsigned lsb, unsigned width, uint64_t v) {
  for (unsigned b = 0; b < width; ++b) {
    const unsigned bit = lsb + b;
    const uint32_t m = 1u << (bit % 32);
    if ((v >> b) & 1u) w[bit / 32] |= m;
    else w[bit / 32] &= ~m;
  }
}
inline uint64_t get_bits(uint64_t w, unsigned lsb, unsigned width) {
  return (w >> lsb) & (width >= 64 ? ~0ull : ((1ull << width) - 1));
}
inline void set_bits(uint64_t& w, unsigned lsb, unsigned width, uint64_t v) {
  const uint64_t m = (width >= 64 ? ~0ull : ((1ull << width) - 1)) << lsb;
  w = (w & ~m) | ((v << lsb) & m);
}

// ------------------------------------------------------------------------------------------------
// Reference model
// ------------------------------------------------------------------------------------------------
enum Wiring : unsigned { kOmega = 0, kBaseline = 1, kButterfly = 2 };

inline unsigned idx_width(unsigned n) {
  unsigned w = 0;
  while ((1u << w) < n) ++w;
  return n <= 1 ? 1 : w;
}
inline unsigned ipow(unsigned b, unsigned e) {
  unsigned p = 1;
  while (e-- > 0) p *= b;
  return p;
}
/// Base-d digit i of v (digit 0 least significant).
inline unsigned digit(unsigned v, unsigned d, unsigned i) { return (v / ipow(d, i)) % d; }

/// An N x N d-nary banyan MIN with n = log_d N stages.
struct Min {
  unsigned N, D, n, wiring;

  unsigned switches_per_stage() const { return N / D; }
  unsigned num_switches() const { return n * (N / D); }

  /// Input line of stage j fed by line b in front of it (terminal b for j = 0, else output line
  /// b of stage j-1).
  unsigned feed(unsigned j, unsigned b) const {
    if (wiring == kOmega) return (b * D) % N + b / (N / D);  // sigma: rotate digits left
    if (j == 0) return b;                                    // terminal s -> stage-0 line s
    const unsigned prev = j - 1;
    if (wiring == kBaseline) {  // rho_{n-prev}: rotate the lowest n-prev digits right
      const unsigned m = n - prev;
      const unsigned low = b % ipow(D, m);
      return (b - low) + low / D + (low % D) * ipow(D, m - 1);
    }
    // butterfly, beta_{n-1-prev}: swap digit 0 and digit n-1-prev
    const unsigned i = n - 1 - prev;
    const unsigned d0 = digit(b, D, 0), di = digit(b, D, i);
    return b - d0 - di * ipow(D, i) + di + d0 * ipow(D, i);
  }

  /// Permutation of a configuration: perm[t] = input terminal whose path ends at output t.
  /// state[g] = shift of switch g = j*(N/D) + i.
  std::vector<unsigned> permutation(const std::vector<unsigned>& state) const {
    std::vector<unsigned> perm(N, ~0u);
    for (unsigned s = 0; s < N; ++s) {
      unsigned line = s;
      for (unsigned j = 0; j < n; ++j) {
        line = feed(j, line);
        const unsigned i = line / D, u = line % D;
        line = i * D + (u + state[j * (N / D) + i]) % D;
      }
      perm[line] = s;
    }
    return perm;
  }

  /// M^x from M^0 (paper 002): m^x_{i,j} = m^0_{i,j} (+)_d x_{n-1-j}.
  std::vector<unsigned> config(const std::vector<unsigned>& m0, unsigned x) const {
    std::vector<unsigned> m(num_switches());
    for (unsigned g = 0; g < num_switches(); ++g) {
      const unsigned j = g / (N / D);
      m[g] = (m0[g] + digit(x, D, n - 1 - j)) % D;
    }
    return m;
  }
};

}  // namespace rtltest
