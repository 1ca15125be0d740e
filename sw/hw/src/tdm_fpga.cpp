// SPDX-License-Identifier: Apache-2.0
/// `totex fpga`'s synthesis step (totex/tdm_fpga.hpp).
#include "totex/tdm_fpga.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "install_paths.hpp"
#include "process.hpp"
#include "totex/hw_schema.hpp"
#include "totex/error.hpp"
#include "totex/load_port.hpp"

namespace totex {

const std::vector<std::string>& tdm_fpga_devices() {
  static const std::vector<std::string> devices = {"up5k", "hx8k"};
  return devices;
}

const std::vector<std::string>& tdm_fpga_placers() {
  static const std::vector<std::string> placers = {"heap", "sa"};
  return placers;
}

void check_tdm_tile_can_fit(const Topology& t, Model model, const std::string& device, int payload_bits) {
  TdmTileParams tile;
  tile.kind = tdm_tile_kind(model);
  tile.ports = std::max(1, t.max_degree());
  tile.payload_bits = payload_bits;
  tile.node_bits = idx_width(t.nodes());
  // Every processor injects a message to each other processor once per period, at most one per
  // inject lane and slot: the period, and so the table, has at least this many slots.
  const auto others = static_cast<std::uint64_t>(std::max<std::size_t>(t.processors().size(), 1) - 1);
  const std::uint64_t slots = (others + static_cast<std::uint64_t>(tile.lanes()) - 1) / static_cast<std::uint64_t>(tile.lanes());
  tile.depth = static_cast<int>(std::min<std::uint64_t>(std::max<std::uint64_t>(slots, 1), 1U << 30));
  // A single-port table's relay fields are at least 0 bits wide (one buffer word): a lower bound too.
  const std::uint64_t bits = slots * static_cast<std::uint64_t>(tile.entry_bits());
  // The table is written through its port, so it lives in block RAM or flip-flops (iCE40 has no
  // writable LUT RAM; tdm_synth.sh maps no SPRAM): the most it could take.
  const bool up5k = device == "up5k";
  const std::uint64_t brams = up5k ? 30 : 32, flops = up5k ? 5280 : 7680, capacity = brams * 4096 + flops;
  if (bits <= capacity) return;
  throw UsageError("the TDM tile for " + t.spec() + " cannot fit the iCE40 " + device + ": its slot table holds at least " +
                   std::to_string(slots) + " slots (each processor sends to " + std::to_string(others) +
                   " others once per period, one per inject lane and slot) of " + std::to_string(tile.entry_bits()) +
                   " bits, " + std::to_string(bits) + " bits, more than the " + std::to_string(brams) +
                   " block RAMs of 4096 bits and " + std::to_string(flops) + " flip-flops of the device (" +
                   std::to_string(capacity) + " bits); checked before any schedule is made");
}

std::string tdm_synth_script(const std::string& override_script) {
  // TOTEX_TDM_SYNTH (read by the CLI, schema::HwEnvironment::tdm_synth): another script with the
  // same interface (the tests' stand-ins for a tile that does not fit and for a failing tool).
  if (!override_script.empty()) {
    if (!std::filesystem::exists(override_script))
      throw UsageError("TOTEX_TDM_SYNTH=" + override_script + ": no such file");
    return override_script;
  }
  const std::filesystem::path script = hw::install_paths().rtl / "synth" / "tdm_synth.sh";
  if (!std::filesystem::exists(script))
    throw UsageError("no " + script.string() + ": the TDM tile's synthesis script is not in this tree or installation");
  return script.string();
}

TdmSynthResult run_tdm_synth(const TdmTileParams& tile, const std::string& device, int seed,
                             const std::string& placer, const std::string& table_hex, const std::string& out_dir,
                             const std::string& script) {
  const auto& devices = tdm_fpga_devices();
  if (std::find(devices.begin(), devices.end(), device) == devices.end())
    throw UsageError("--device " + printable(device) + " is not accepted; accepted: up5k | hx8k");
  const auto& placers = tdm_fpga_placers();
  if (std::find(placers.begin(), placers.end(), placer) == placers.end())
    throw UsageError("--placer " + printable(placer) + " is not accepted; accepted: heap | sa");
  TdmSynthResult r;
  r.script = tdm_synth_script(script);
  r.result_file = (std::filesystem::path(out_dir) / "result.json").string();
  std::error_code ignored;
  std::filesystem::remove(r.result_file, ignored);  // a stale result must not pass for this run's
  // The tile's fields as the script's options (schema::tdm_tile_fields: --ports, --payload,
  // --node-bits, --depth, --buffer-words, --bits-in-flops), its kind as --top.
  std::vector<std::string> argv = {"bash",    r.script, "--device", device, "--seed", std::to_string(seed),
                                   "--placer", placer,  "--top",    tdm_tile_kind_info(tile.kind).synth_top};
  const std::vector<std::string> fields = schema::options(tile);
  for (std::size_t i = 0; i + 1 < fields.size(); i += 2)
    if (fields[i] != "--kind") argv.insert(argv.end(), {fields[i], fields[i + 1]});
  argv.insert(argv.end(), {"--table", table_hex, "--out", out_dir});
  // The script's stdout is passed on to stderr (its progress); its exit status decides.
  const hw::ProcessResult child = hw::run_process(argv, hw::ChildOutput::ToStderr);
  const int rc = child.signal != 0 ? 128 + child.signal : child.exit_code;
  nlohmann::json j;
  if (std::ifstream in(r.result_file); in) {
    try {
      in >> j;
    } catch (const nlohmann::json::exception& e) {
      throw ToolError("tool: " + r.result_file + " is not JSON (" + e.what() + "); see the logs in " + out_dir);
    }
  }
  const auto number = [&](const char* key) -> int {
    return j.contains(key) && j[key].is_number() ? j[key].get<int>() : 0;
  };
  r.lut4 = number("lut4");
  r.ff = number("ff");
  r.bram = number("bram");
  r.lc = number("lc");
  if (j.contains("fmax_mhz") && j["fmax_mhz"].is_number()) r.fmax_mhz = j["fmax_mhz"].get<double>();
  r.fits = j.contains("fits") && j["fits"].is_boolean() && j["fits"].get<bool>();
  if (rc == 3 || (rc == 0 && j.contains("fits") && !r.fits))
    throw UsageError("the tile (" + std::to_string(tile.ports) + " ports, " + std::to_string(tile.payload_bits) +
                     "-bit payload, " + std::to_string(tile.node_bits) + " node bits, " + std::to_string(tile.depth) +
                     " slots) does not fit the iCE40 " + device +
                     (j.empty() ? std::string()
                                : " (" + std::to_string(r.lut4) + " LUT4, " +
                                      (r.lc > 0 ? std::to_string(r.lc) + " LC" : std::string("not placed")) + ", " +
                                      std::to_string(r.bram) + " block RAM of " + (device == "up5k" ? "30" : "32") + ")") +
                     (device == "up5k" ? "; try --device hx8k or a narrower --payload" : "; try a narrower --payload") +
                     (tile.bits_in_flops ? std::string()
                                         : " or --bits-in-flops (the NIC's toggle bits in flip-flops: four block RAMs "
                                           "fewer per NIC lane, more logic, slower)"));
  if (rc == 4)  // nextpnr did not finish within PNR_TIMEOUT (its sa placer can stall)
    throw ToolError("tool: nextpnr did not finish within PNR_TIMEOUT (placer " + placer + ", seed " +
                    std::to_string(seed) + "); try another --seed or --placer heap; see the logs in " + out_dir);
  if (rc != 0)
    throw ToolError("tool: " + r.script + " failed (exit " + std::to_string(rc) + "); see the logs in " + out_dir);
  if (j.empty() || !j.contains("lut4"))
    throw ToolError("tool: " + r.script + " wrote no result " + r.result_file + "; see the logs in " + out_dir);
  return r;
}

}  // namespace totex
