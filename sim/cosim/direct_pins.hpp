// SPDX-License-Identifier: Apache-2.0
/// Bit fields of Verilated SystemC port values, whatever type `verilator --sc` chose for a width
/// (bool for 1 bit, uint32_t / uint64_t up to 64 bits, sc_bv<W> above), and the signal type that
/// binds to a port.
#pragma once
#include <cstdint>
#include <systemc>
#include <type_traits>
#include <utility>

namespace totex::sim {

/// The sc_signal that binds to Verilated port `member` of model `M`.
template <class Port>
using PinSignal = sc_core::sc_signal<typename std::remove_reference_t<Port>::data_type>;

template <class T>
std::uint64_t get_bits(const T& v, int lsb, int width) {
  if constexpr (std::is_same_v<T, bool>) {
    return lsb == 0 && width > 0 && v ? 1U : 0U;
  } else if constexpr (std::is_integral_v<T>) {
    const auto x = static_cast<std::uint64_t>(v) >> lsb;
    return width >= 64 ? x : x & ((std::uint64_t{1} << width) - 1);
  } else {
    std::uint64_t x = 0;
    for (int i = 0; i < width; ++i)
      if (v[lsb + i].to_bool()) x |= std::uint64_t{1} << i;
    return x;
  }
}

template <class T>
void set_bits(T& v, int lsb, int width, std::uint64_t value) {
  if constexpr (std::is_same_v<T, bool>) {
    if (lsb == 0 && width > 0) v = (value & 1U) != 0;
  } else if constexpr (std::is_integral_v<T>) {
    const std::uint64_t mask = (width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1) << lsb;
    v = static_cast<T>((static_cast<std::uint64_t>(v) & ~mask) | ((value << lsb) & mask));
  } else {
    for (int i = 0; i < width; ++i) v[lsb + i] = ((value >> i) & 1U) != 0;
  }
}

}  // namespace totex::sim
