// SPDX-License-Identifier: Apache-2.0
#include "totex/network/min_network.hpp"

#include "totex/error.hpp"

namespace totex {

std::string to_string(Wiring w) {
  switch (w) {
    case Wiring::Omega: return "omega";
    case Wiring::Baseline: return "baseline";
    case Wiring::Butterfly: return "butterfly";
  }
  return "?";
}

int digit(int x, int pos, int radix) {
  for (int i = 0; i < pos; ++i) x /= radix;
  return x % radix;
}

MinNetwork::MinNetwork(int terminals, int radix, Wiring wiring)
    : n_terminals_(terminals), radix_(radix), stages_(0), wiring_(wiring) {
  if (radix < 2 || radix > 36) throw UsageError("min: D must be in 2..36, got " + std::to_string(radix));
  if (terminals > (1 << 16)) throw UsageError("min: N must be at most 65536");
  long long p = 1;
  while (p < terminals) {
    p *= radix;
    ++stages_;
  }
  if (p != terminals || stages_ < 1)
    throw UsageError("min:N:D:WIRING needs N = D^n with n >= 1; " + std::to_string(terminals) +
                     " is not a power of " + std::to_string(radix));
}

std::string MinNetwork::spec() const {
  return "min:" + std::to_string(n_terminals_) + ":" + std::to_string(radix_) + ":" + to_string(wiring_);
}

int MinNetwork::line_into_stage(int stage, int line) const {
  const int d = radix_;
  const int n = n_terminals_;
  switch (wiring_) {
    case Wiring::Omega:  // perfect shuffle before every stage
      return (line * d) % n + line / (n / d);
    case Wiring::Baseline: {
      if (stage == 0) return line;
      int block = 1;  // d^(n-j) for the wiring after stage j = stage-1
      for (int i = 0; i < stages_ - (stage - 1); ++i) block *= d;
      const int low = line % block;
      return (line - low) + low / d + (low % d) * (block / d);
    }
    case Wiring::Butterfly: {
      if (stage == 0) return line;
      const int pos = stages_ - stage;  // after stage j swap digit 0 with digit n-1-j
      int weight = 1;
      for (int i = 0; i < pos; ++i) weight *= d;
      const int d0 = line % d;
      const int dp = (line / weight) % d;
      return line - d0 - dp * weight + dp + d0 * weight;
    }
  }
  return line;
}

int MinNetwork::route(const MinConfiguration& config, int input) const {
  int line = input;
  for (int j = 0; j < stages_; ++j) {
    line = line_into_stage(j, line);
    const int sw = line / radix_;
    const int u = line % radix_;
    const int k = config[static_cast<std::size_t>(j * switches_per_stage() + sw)];
    line = sw * radix_ + (u + k) % radix_;
  }
  return line;
}

std::vector<int> MinNetwork::permutation(const MinConfiguration& config) const {
  std::vector<int> perm(static_cast<std::size_t>(n_terminals_));
  for (int s = 0; s < n_terminals_; ++s) perm[static_cast<std::size_t>(s)] = route(config, s);
  return perm;
}

std::vector<MinNetwork::Hop> MinNetwork::path(int input, int output) const {
  // In all three wirings stage j fixes output digit n-1-j: the port a switch of stage j
  // drives becomes that digit and no later stage moves it (destination-tag routing).
  std::vector<Hop> hops;
  int line = input;
  for (int j = 0; j < stages_; ++j) {
    line = line_into_stage(j, line);
    const int sw = line / radix_;
    const int u = line % radix_;
    const int out = digit(output, stages_ - 1 - j, radix_);
    hops.push_back({j, sw, u, out});
    line = sw * radix_ + out;
  }
  return hops;
}

}  // namespace totex
