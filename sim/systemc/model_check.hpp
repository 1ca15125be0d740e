// SPDX-License-Identifier: Apache-2.0
/// Checks inside the SystemC models (the counterpart of the RTL's assertions): a failed check is
/// counted, not fatal, so that the harness can report it next to the scoreboard's findings; the
/// first ones are printed on stdout like a Verilator $error (the harness protocol passes lines
/// other than its result on to stderr).
#pragma once
#include <iostream>
#include <string>
#include <utility>

namespace totex::sim {

class ModelChecks {
 public:
  /// `engine` names the checks in messages ("systemc", "cosim").
  explicit ModelChecks(std::string engine) : engine_(std::move(engine)) {}
  void fail(const std::string& what) {
    if (!on_) return;
    if (count_ < kPrinted) std::cout << "%Error: " << engine_ << " check: " << what << '\n';
    else if (count_ == kPrinted) std::cout << "%Error: " << engine_ << " check: further failures are counted, not printed\n";
    ++count_;
  }
  [[nodiscard]] int count() const { return count_; }
  /// Off: failures are neither printed nor counted (the recovery run from its fault on, where a
  /// stuck link's receivers leave flits by design, as the rtl run switches its assertions off).
  void enable(bool on) { on_ = on; }

 private:
  static constexpr int kPrinted = 50;
  std::string engine_;
  int count_ = 0;
  bool on_ = true;
};

/// The checks of the MIN models (one MIN per process: SystemC elaborates once).
inline ModelChecks& min_checks() {
  static ModelChecks checks("systemc");
  return checks;
}

/// Reports a failed check of MIN module `model`.
inline void model_check_failed(const std::string& model, const std::string& what) {
  min_checks().fail(model + ": " + what);
}

}  // namespace totex::sim
