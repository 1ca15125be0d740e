// SPDX-License-Identifier: Apache-2.0
/// A message on one MIN line in one cycle, as the SystemC models carry it: unpacked fields (the
/// RTL packs the same fields into {src, dst, seq, payload}; min_pack() converts at an RTL boundary).
#pragma once
#include <systemc>

#include <cstdint>
#include <ostream>
#include <string>

#include "totex/min_controller.hpp"

namespace totex::sim {

struct MinFlit {
  bool valid = false;
  std::uint32_t src = 0;
  std::uint32_t dst = 0;      // 0 in a label
  std::uint32_t seq = 0;      // the step x the message was injected in
  std::uint32_t payload = 0;  // a label carries src here
  bool operator==(const MinFlit& o) const {
    return valid == o.valid && src == o.src && dst == o.dst && seq == o.seq && payload == o.payload;
  }
};

inline std::ostream& operator<<(std::ostream& os, const MinFlit& f) {
  if (!f.valid) return os << "-";
  return os << "{src " << f.src << ", dst " << f.dst << ", seq " << f.seq << ", payload " << f.payload << "}";
}

/// Traces the fields as NAME.valid, NAME.src, ... (sc_signal<MinFlit> needs this overload).
inline void sc_trace(sc_core::sc_trace_file* tf, const MinFlit& f, const std::string& name) {
  sc_core::sc_trace(tf, f.valid, name + ".valid");
  sc_core::sc_trace(tf, f.src, name + ".src");
  sc_core::sc_trace(tf, f.dst, name + ".dst");
  sc_core::sc_trace(tf, f.seq, name + ".seq");
  sc_core::sc_trace(tf, f.payload, name + ".payload");
}

/// The packed form of rtl/totex_min_top.sv's message ({src, dst, seq, payload}, MSB first).
inline std::uint64_t min_pack(const MinFlit& f, const MinPortLayout& l) {
  const int iw = l.terminal_bits, sw = l.step_bits, pw = l.payload_bits;
  return (std::uint64_t{f.src} << (iw + sw + pw)) | (std::uint64_t{f.dst} << (sw + pw)) |
         (std::uint64_t{f.seq} << pw) | f.payload;
}
inline MinFlit min_unpack(bool valid, std::uint64_t m, const MinPortLayout& l) {
  const int iw = l.terminal_bits, sw = l.step_bits, pw = l.payload_bits;
  auto field = [&](int lsb, int width) { return static_cast<std::uint32_t>((m >> lsb) & ((std::uint64_t{1} << width) - 1)); };
  return {valid, field(iw + sw + pw, iw), field(sw + pw, iw), field(pw, sw), field(0, pw)};
}

}  // namespace totex::sim
