// SPDX-License-Identifier: Apache-2.0
/// The loader of 'totex-config-matrix 1' files (docs/formats.md), fed the body after that first line.
#include "fuzz_loaders.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return totex::fuzz::fuzz_loader("totex-config-matrix 1", data, size);
}
