// SPDX-License-Identifier: Apache-2.0
/// The model-independent half of every MIN harness (sim/min_run.cpp): argument parsing, paper
/// 002's two phases driven by the sw/ controller, the scoreboard and the JSON. The model under test
/// (Verilated rtl/totex_min_top.sv, the SystemC models of sim/systemc/, or a co-simulation of
/// both) is reached through MinDut, which follows the load-port map and timing contract written
/// at the top of rtl/totex_min_top.sv.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "totex/min_controller.hpp"

namespace totex::sim {

/// One message on the eject bus: terminal `at`, its fields.
struct MinEject {
  int at;
  std::uint64_t src, dst, seq, payload;
};

/// What the run loop needs from a MIN top.
class MinDut {
 public:
  virtual ~MinDut() = default;
  /// One load-port write (one clock edge).
  virtual void write(std::uint64_t addr, std::uint64_t data) = 0;
  /// The backdoor load (`--load backdoor`): the word a load-port write would store in a memory
  /// (switch table, send queue) written into that memory directly, no clock edge. Returns false
  /// for a write the backdoor does not cover (registers, out-of-range addresses): the caller
  /// sends it through the port, so its effect and checks are the port's. Engines without one throw.
  virtual bool backdoor_write(std::uint64_t addr, std::uint64_t data);
  /// Drives start_i and phase_i for the next edge.
  virtual void set_start(bool start, int phase) = 0;
  /// One rising edge; outputs read afterwards show the cycle that starts at it.
  virtual void tick() = 0;
  [[nodiscard]] virtual bool busy() = 0;
  [[nodiscard]] virtual bool done() = 0;
  [[nodiscard]] virtual bool error() = 0;
  /// Appends the messages on the eject bus in this cycle.
  virtual void ejects(std::vector<MinEject>& out) = 0;
  [[nodiscard]] virtual int assertion_failures() = 0;
  [[nodiscard]] virtual std::uint64_t edges() = 0;
};

/// Build parameters of a MIN model besides the network itself.
struct MinBuild {
  MinConfigMode mode = MinConfigMode::Table;
  int max_steps = 0;  // switch-table and send-queue entries (>= N)
  int payload_bits = 16;
  bool backdoor = false;  // --load backdoor: memories written through MinDut::backdoor_write
};

/// Makes the model under test; `wave` is empty or the dump file to write.
using MakeMinDut =
    std::function<std::unique_ptr<MinDut>(const MinNetwork& net, const MinBuild& build, const std::string& wave)>;

/// The harness's main. Usage: harness min --schedule FILE --max-steps S [--min-mode table|computed]
/// [--payload-bits W] [--load port|backdoor] [--wave FILE] (schema::MinHarnessArgs). Prints "TOTEX-RESULT {json}" (engine `engine`); exit 0 pass,
/// 1 check failed, 2 usage. The schedule is not verified here (`totex sim` does that), so that
/// a broken file reaches the model's checks.
/// `checks` names the model's checks in messages ("RTL"; empty: `engine`).
int min_main(int argc, char** argv, const std::string& engine, const MakeMinDut& make, const std::string& checks = "");

}  // namespace totex::sim
