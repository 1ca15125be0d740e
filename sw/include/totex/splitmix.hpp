// SPDX-License-Identifier: Apache-2.0
/// splitmix64 (Steele, Lea, Flood 2014): a fixed, portable pseudo-random sequence, for the orders
/// and shuffles that must be the same on every platform (std::shuffle's algorithm differs between
/// standard libraries).
#pragma once
#include <cstdint>

namespace totex {

/// The next value of the sequence whose state is `state` (advanced).
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace totex
