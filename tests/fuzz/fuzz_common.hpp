// SPDX-License-Identifier: Apache-2.0
/// Shared by the fuzz entry points (tests/fuzz/fuzz_*.cpp): each defines LLVMFuzzerTestOneInput and
/// is linked either with libFuzzer (make fuzz, clang++) or with replay_main.cpp (CTest replays the
/// committed corpus). Inputs may only end in the errors totex reports on bad input (UsageError,
/// FileError, ResourceError); any other exception, a sanitizer report or a broken invariant
/// (require) is a finding.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "totex/error.hpp"
#include "totex/io/schedule_io.hpp"

namespace totex::fuzz {

inline std::string bytes(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// An invariant the input broke: report and abort (libFuzzer saves the input as a crash).
inline void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
  std::abort();
}

/// Whether two schedules' steps hold the same transfers (in any order within a step; trailing
/// empty steps ignored): what a writer and reader of an order-free format must keep.
inline bool trimmed_equal(std::vector<std::vector<Transfer>> a, std::vector<std::vector<Transfer>> b) {
  for (auto* steps : {&a, &b}) {
    while (!steps->empty() && steps->back().empty()) steps->pop_back();
    for (auto& step : *steps)
      std::sort(step.begin(), step.end(), [](const Transfer& x, const Transfer& y) {
        return std::tie(x.msg.src, x.msg.dst, x.from, x.port) < std::tie(y.msg.src, y.msg.dst, y.from, y.port);
      });
  }
  return a == b;
}

/// Loads `text` through the same reader as `totex verify`; nullopt-like false on a reported error.
inline bool load(const std::string& text, LoadedSchedule& out) {
  std::istringstream in(text);
  try {
    out = read_schedule(in, "fuzz");
    return true;
  } catch (const FileError&) {
  } catch (const UsageError&) {
  } catch (const ResourceError&) {
  }
  return false;
}

}  // namespace totex::fuzz
