// SPDX-License-Identifier: Apache-2.0
/// The N x N d-nary banyan multistage network of paper 002 built from d x d shift-state switches.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace totex {

enum class Wiring { Omega, Baseline, Butterfly };
[[nodiscard]] std::string to_string(Wiring w);

/// Shift states of every switch for one step, index = stage * (N/d) + switch.
using MinConfiguration = std::vector<std::uint8_t>;

/// Lines and switches: switch i of a stage takes that stage's input lines i*d..i*d+d-1
/// (port u = line mod d); in state k port u drives output line i*d + (u+k) mod d.
/// Inter-stage wiring (digits base d, digit 0 least significant):
///   omega     - before every stage (stage 0 included) a perfect d-shuffle (rotate digits left);
///   baseline  - after stage j, rotate the lowest n-j digits right;
///   butterfly - after stage j, swap digit 0 and digit n-1-j.
class MinNetwork {
 public:
  /// Throws UsageError unless d >= 2 and N = d^n with n >= 1.
  MinNetwork(int terminals, int radix, Wiring wiring);

  [[nodiscard]] int terminals() const { return n_terminals_; }
  [[nodiscard]] int radix() const { return radix_; }
  [[nodiscard]] int stages() const { return stages_; }
  [[nodiscard]] int switches_per_stage() const { return n_terminals_ / radix_; }
  [[nodiscard]] int switches() const { return stages_ * switches_per_stage(); }
  [[nodiscard]] Wiring wiring() const { return wiring_; }
  [[nodiscard]] std::string spec() const;

  /// Line a terminal (or previous stage's output line) feeds at the input of `stage`.
  [[nodiscard]] int line_into_stage(int stage, int line) const;
  /// Output terminal reached from `input` under configuration `config`.
  [[nodiscard]] int route(const MinConfiguration& config, int input) const;
  /// perm[s] = output reached from input s.
  [[nodiscard]] std::vector<int> permutation(const MinConfiguration& config) const;
  /// The (stage, switch, in-port, out-port) hops of the unique path input -> output.
  struct Hop {
    int stage, sw, in_port, out_port;
  };
  [[nodiscard]] std::vector<Hop> path(int input, int output) const;
  /// The hop's switch as a configuration indexes it: stage * (N/d) + switch.
  [[nodiscard]] int switch_of(const Hop& h) const { return h.stage * switches_per_stage() + h.sw; }
  /// The shift state that switch must be in for the hop: in-port i goes to (i + state) mod d.
  [[nodiscard]] int state_of(const Hop& h) const { return ((h.out_port - h.in_port) % radix_ + radix_) % radix_; }

 private:
  int n_terminals_;
  int radix_;
  int stages_;
  Wiring wiring_;
};

/// d-ary digit `pos` of x.
[[nodiscard]] int digit(int x, int pos, int radix);

}  // namespace totex
