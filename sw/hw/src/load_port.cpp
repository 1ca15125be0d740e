// SPDX-License-Identifier: Apache-2.0
#include "totex/load_port.hpp"

namespace totex {
int idx_width(std::int64_t n) {
  int w = 1;
  while ((std::int64_t{1} << w) < n) ++w;
  return w;
}
}  // namespace totex
