// SPDX-License-Identifier: Apache-2.0
/// The S4NoC .shd reader (docs/periodic.md): the first input byte picks a torus from torus:2x2 to
/// torus:6x6 (the file carries none), the rest is the file. A file that loads must write back as
/// .shd and read again to the same transfers.
#include <sstream>

#include "fuzz_common.hpp"
#include "totex/io/shd.hpp"
#include "totex/network/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace totex;
  if (size < 1 || size > 16384) return 0;
  const int kx = 2 + data[0] % 5, ky = 2 + (data[0] / 5) % 5;
  const Topology t = parse_topology("torus:" + std::to_string(kx) + "x" + std::to_string(ky));
  std::istringstream in(fuzz::bytes(data + 1, size - 1));
  Schedule s;
  try {
    s = read_shd(in, "fuzz.shd", t, Model::Nic);
  } catch (const FileError&) {
    return 0;
  } catch (const ResourceError&) {
    return 0;
  }
  std::ostringstream out;
  write_shd(out, t, s);  // read routes are translation-invariant by construction: must write
  std::istringstream again(out.str());
  const Schedule back = read_shd(again, "again.shd", t, Model::Nic);
  fuzz::require(fuzz::trimmed_equal(back.steps, s.steps), ".shd changed in a round trip");
  return 0;
}
