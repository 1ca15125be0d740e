// SPDX-License-Identifier: Apache-2.0
/// Bit fields of the port types `verilator --sc` gives a module: bool (1 bit), uint32_t (up to 32),
/// uint64_t (up to 64), sc_bv<W> (wider). Co-simulation adapters pack and unpack through these.
#pragma once
#include <systemc>

#include <cstdint>
#include <type_traits>

namespace totex::sim {

/// The value type of a Verilated port (sc_in<T> / sc_out<T>).
template <class Port>
using port_type_t = typename std::remove_reference_t<Port>::data_type;

/// The sc_signal that binds to a Verilated port.
template <class Port>
using PinSignal = sc_core::sc_signal<port_type_t<Port>>;

/// Bits [lsb, lsb+width) of v, width <= 64.
template <class T>
std::uint64_t get_bits(const T& v, int lsb, int width) {
  if constexpr (std::is_same_v<T, bool>) {
    return lsb == 0 && width > 0 && v ? 1U : 0U;
  } else if constexpr (std::is_integral_v<T>) {
    const auto x = static_cast<std::uint64_t>(v) >> lsb;
    return width >= 64 ? x : x & ((std::uint64_t{1} << width) - 1);
  } else {
    return v.range(lsb + width - 1, lsb).to_uint64();
  }
}

/// Sets bits [lsb, lsb+width) of v to x, width <= 64.
template <class T>
void set_bits(T& v, int lsb, int width, std::uint64_t x) {
  const std::uint64_t mask = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  if constexpr (std::is_same_v<T, bool>) {
    if (lsb == 0) v = (x & 1U) != 0;
  } else if constexpr (std::is_integral_v<T>) {
    const std::uint64_t cleared = static_cast<std::uint64_t>(v) & ~(mask << lsb);
    v = static_cast<T>(cleared | ((x & mask) << lsb));
  } else {
    v.range(lsb + width - 1, lsb) = sc_dt::sc_bv<64>(x & mask).range(width - 1, 0);
  }
}

}  // namespace totex::sim
