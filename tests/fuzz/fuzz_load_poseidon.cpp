// SPDX-License-Identifier: Apache-2.0
/// The Poseidon schedule XML reader (docs/periodic.md). A file that loads must write back and read
/// again to the same transfers.
#include <sstream>

#include "fuzz_common.hpp"
#include "totex/io/shd.hpp"
#include "totex/network/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace totex;
  if (size > 65536) return 0;  // a torus:3x3 schedule is about 18 KB of XML
  std::istringstream in(fuzz::bytes(data, size));
  Schedule s;
  try {
    s = read_poseidon(in, "fuzz.xml");
  } catch (const FileError&) {
    return 0;
  } catch (const UsageError&) {
    return 0;
  } catch (const ResourceError&) {
    return 0;
  }
  const Topology t = parse_topology(s.topology);
  std::ostringstream out;
  write_poseidon(out, t, s);  // tables that matched the routes exactly: must write whole
  std::istringstream again(out.str());
  const Schedule back = read_poseidon(again, "again.xml");
  fuzz::require(back.period == s.period && fuzz::trimmed_equal(back.steps, s.steps), "Poseidon XML changed in a round trip");
  return 0;
}
