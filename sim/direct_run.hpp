// SPDX-License-Identifier: Apache-2.0
/// The model-independent half of the direct-network harness (sim/direct_run.cpp): argument
/// parsing, controller, run loop, scoreboard and JSON. The Verilated model is reached through
/// DirectDut, implemented per build: the wired tiles (sim/direct_wired_main.cpp, the default rtl
/// build), the Verilated top (sim/direct_rtl_main.cpp, --wave and TOTEX_RTL_BUILD=flat|hier) or
/// the SystemC models in sim/systemc/. Keeping this half free of the
/// generated header lets ccache reuse its object across all the per-topology builds.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace totex {
class Topology;
struct DirectLayout;
}  // namespace totex

namespace totex::sim {

/// One ejected message: eject lane k of the top (node k / lanes), and its fields.
struct Eject {
  int lane;
  std::uint64_t src, dst, payload;
};

/// What the run loop needs from a direct network's model (N wired tiles, the generated
/// totex_direct_top, or the SystemC network): one load port, start, the eject lanes and the checks.
class DirectDut {
 public:
  virtual ~DirectDut() = default;
  /// Message field widths, set once before the run.
  virtual void set_layout(int eject_lanes, int msg_bits, int node_bits, int payload_bits) = 0;
  [[nodiscard]] virtual std::uint32_t signature() = 0;
  /// One load-port write (one clock edge).
  virtual void write(std::uint64_t addr, std::uint64_t data) = 0;
  /// The backdoor load (`--load backdoor`): the word a load-port write would store in a memory
  /// (schedule table, payloads, send queue) written into that memory directly, no clock edge.
  /// Returns false for a write the backdoor does not cover (control registers, out-of-range
  /// addresses): the caller sends it through the port. Engines without one throw.
  virtual bool backdoor_write(std::uint64_t addr, std::uint64_t data);
  virtual void set_start(bool start) = 0;
  /// One rising edge.
  virtual void tick() = 0;
  [[nodiscard]] virtual bool busy() = 0;
  [[nodiscard]] virtual bool done() = 0;
  [[nodiscard]] virtual bool error() = 0;
  /// Appends the messages on the eject bus this cycle.
  virtual void ejects(std::vector<Eject>& out) = 0;
  [[nodiscard]] virtual int assertion_failures() = 0;
  [[nodiscard]] virtual std::uint64_t edges() = 0;
  /// Whether quiet tiles skip their edges (TOTEX_WIRED_SKIP_QUIET, the harness's --skip-quiet):
  /// only the wired build has them; the others ignore it.
  virtual void set_skip_quiet(bool /*skip*/) {}
};

/// Makes the model under test for a topology and its parameters; `wave` is empty or a dump file.
using MakeDirectDut =
    std::function<std::unique_ptr<DirectDut>(const Topology& t, const DirectLayout& layout, const std::string& wave)>;

/// The harness's main: parses argv (schema::DirectHarnessArgs), runs, prints "TOTEX-RESULT {json}", returns the exit code.
/// `engine` names the result ("rtl", "systemc", "cosim").
/// `checks` names the model's checks in messages ("RTL" for "3 RTL assertion(s) fired"; empty: `engine`).
int direct_main(int argc, char** argv, const std::string& engine, const MakeDirectDut& make,
                const std::string& checks = "");

}  // namespace totex::sim
