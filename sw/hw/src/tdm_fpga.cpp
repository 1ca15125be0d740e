// SPDX-License-Identifier: Apache-2.0
/// `totex fpga`'s synthesis step (totex/tdm_fpga.hpp).
#include "totex/tdm_fpga.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "install_paths.hpp"
#include "model_cache.hpp"
#include "totex/error.hpp"

namespace totex {

const std::vector<std::string>& tdm_fpga_devices() {
  static const std::vector<std::string> devices = {"up5k", "hx8k"};
  return devices;
}

const std::vector<std::string>& tdm_fpga_placers() {
  static const std::vector<std::string> placers = {"heap", "sa"};
  return placers;
}

std::string tdm_synth_script() {
  // TOTEX_TDM_SYNTH: another script with the same interface (the tests' stand-ins for a tile that
  // does not fit and for a failing tool).
  if (const char* env = std::getenv("TOTEX_TDM_SYNTH"); env && *env) {
    if (!std::filesystem::exists(env)) throw UsageError(std::string("TOTEX_TDM_SYNTH=") + env + ": no such file");
    return env;
  }
  const std::filesystem::path script = hw::install_paths().rtl / "synth" / "tdm_synth.sh";
  if (!std::filesystem::exists(script))
    throw UsageError("no " + script.string() + ": the TDM tile's synthesis script is not in this tree or installation");
  return script.string();
}

TdmSynthResult run_tdm_synth(const TdmTileParams& tile, const std::string& device, int seed,
                             const std::string& placer, const std::string& table_hex, const std::string& out_dir) {
  const auto& devices = tdm_fpga_devices();
  if (std::find(devices.begin(), devices.end(), device) == devices.end())
    throw UsageError("--device " + printable(device) + " is not accepted; accepted: up5k | hx8k");
  const auto& placers = tdm_fpga_placers();
  if (std::find(placers.begin(), placers.end(), placer) == placers.end())
    throw UsageError("--placer " + printable(placer) + " is not accepted; accepted: heap | sa");
  TdmSynthResult r;
  r.script = tdm_synth_script();
  r.result_file = (std::filesystem::path(out_dir) / "result.json").string();
  std::error_code ignored;
  std::filesystem::remove(r.result_file, ignored);  // a stale result must not pass for this run's
  using hw::quote;
  const std::string command = "bash " + quote(r.script) + " --device " + quote(device) + " --seed " +
                              std::to_string(seed) + " --placer " + quote(placer) + " --ports " + std::to_string(tile.ports) + " --payload " +
                              std::to_string(tile.payload_bits) + " --node-bits " + std::to_string(tile.node_bits) +
                              " --depth " + std::to_string(tile.depth) + " --table " + quote(table_hex) +
                              " --top " + (tile.all_port ? "allport" : tile.single_port ? "single" : "tile") +
                              (tile.single_port ? " --buffer-words " + std::to_string(tile.buffer_words) : "") +
                              (tile.bits_in_flops ? " --bits-in-flops 1" : "") +
                              " --out " + quote(out_dir);
  // The script's stdout is passed on to stderr (its progress); its exit status decides.
  const auto [out, rc] = hw::capture(command + " 1>&2");
  (void)out;
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
