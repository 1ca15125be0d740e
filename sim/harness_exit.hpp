// SPDX-License-Identifier: Apache-2.0
/// How a harness process reads its options and ends. The exit, read by the engines
/// (sw/hw/src/harness.cpp, run_harness):
///   0 the run passed; 1 it ran and a check failed (its result line says which);
///   2 the harness refused its input (a usage error: the user's input or options);
///   3 the harness itself failed (a tool failure: a bug, a broken model, an unexpected exception).
/// A harness killed by a signal is a tool failure too. The message goes to stderr either way.
#pragma once
#include <exception>
#include <iostream>
#include <map>
#include <string>

#include "totex/error.hpp"

namespace totex::sim {

/// The harness's arguments as `--key value` pairs, keyed without the dashes; a word where a
/// `--key` is due is a usage error. A last key without a value is left out: each harness's usage
/// check (an even argc) refuses it.
inline std::map<std::string, std::string> harness_options(int argc, char** argv) {
  std::map<std::string, std::string> a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key.rfind("--", 0) != 0) throw UsageError("unexpected argument '" + key + "'");
    a[key.substr(2)] = argv[i + 1];
  }
  return a;
}

inline constexpr int kHarnessUsageExit = 2;
inline constexpr int kHarnessToolExit = 3;

/// Runs a harness's body and maps what escapes it onto the exit codes above.
template <class Body>
int harness_main(const char* name, const Body& body) {
  try {
    return body();
  } catch (const UsageError& e) {
    std::cerr << name << ": " << e.what() << '\n';
    return kHarnessUsageExit;
  } catch (const FileError& e) {
    std::cerr << name << ": " << e.what() << '\n';
    return kHarnessUsageExit;
  } catch (const std::exception& e) {
    std::cerr << name << ": tool failure: " << e.what() << '\n';
    return kHarnessToolExit;
  }
}

}  // namespace totex::sim
