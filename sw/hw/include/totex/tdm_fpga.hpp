// SPDX-License-Identifier: Apache-2.0
/// `totex fpga`: one TDM tile (rtl/tdm/totex_tdm_tile.sv) synthesized, placed and routed for iCE40
/// by rtl/synth/tdm_synth.sh (Yosys + nextpnr), with node 0's slot table as its block-RAM image.
#pragma once
#include <optional>
#include <string>

#include "totex/tdm_tables.hpp"

namespace totex {

/// The iCE40 devices tdm_synth.sh targets.
[[nodiscard]] const std::vector<std::string>& tdm_fpga_devices();

/// nextpnr's placers tdm_synth.sh accepts (the first is the default).
[[nodiscard]] const std::vector<std::string>& tdm_fpga_placers();

/// What tdm_synth.sh reports (DIR/result.json).
struct TdmSynthResult {
  int lut4 = 0, ff = 0, bram = 0, lc = 0;
  std::optional<double> fmax_mhz;  // none when not placed
  bool fits = false;
  std::string result_file;  // DIR/result.json
  std::string script;       // the script that ran
};

/// Refuses (UsageError, exit 2) before any schedule is made a network whose tile cannot fit
/// `device` whatever the schedule: its slot table alone (at least ceil((N-1) / lanes) slots of
/// EntryW bits) is larger than the device's block RAM and flip-flops together.
void check_tdm_tile_can_fit(const Topology& t, Model model, const std::string& device, int payload_bits);

/// The synthesis script: `override_script` (TOTEX_TDM_SYNTH as the CLI read it) when not empty,
/// else rtl/synth/tdm_synth.sh of the source tree or of an installed prefix (share/totex/rtl/synth).
/// Throws UsageError when it is not there.
[[nodiscard]] std::string tdm_synth_script(const std::string& override_script);

/// Runs the synthesis script (tdm_synth_script(script)) for one tile of `tile` with the table image `table_hex` into `out_dir`, placed
/// with nextpnr's `placer`; its progress goes to stderr. Throws UsageError (exit 2) when the tile does not fit `device`
/// (script exit 3), ToolError (exit 1) when the tools fail, do not finish (script exit 4: nextpnr
/// past PNR_TIMEOUT) or write no result.
[[nodiscard]] TdmSynthResult run_tdm_synth(const TdmTileParams& tile, const std::string& device, int seed,
                                           const std::string& placer, const std::string& table_hex,
                                           const std::string& out_dir, const std::string& script);

}  // namespace totex
