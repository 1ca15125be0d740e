// SPDX-License-Identifier: Apache-2.0
/// Checks inside the SystemC models (the counterpart of the RTL's assertions): a failed check
/// prints one line to stdout, like a Verilator $error, and is counted, not fatal, so that the
/// harness can report it next to the scoreboard's findings.
#pragma once
#include <iostream>
#include <string>

namespace totex::sim {

/// Failed model checks in this process.
inline int& model_check_failures() {
  static int failures = 0;
  return failures;
}

/// Reports a failed check of `model` (module name) at the current simulation time.
inline void model_check_failed(const std::string& model, const std::string& what) {
  ++model_check_failures();
  std::cout << "[systemc check] " << model << ": " << what << '\n';
}

}  // namespace totex::sim
