// SPDX-License-Identifier: Apache-2.0
/// Where totex finds what it builds Verilated models from (the RTL and its file lists, the harness
/// sources, the library headers and the two libraries) and the SystemC engine binary: looked up at run
/// time relative to the executable, so that an installed totex works with the source tree gone.
///
///   installed (`cmake --install build --prefix P`): P/bin/totex finds P/share/totex/{rtl,sim},
///     P/include, P/lib/libtotex_{hw,core}.a, P/bin/totex_systemc; models are cached in
///     TOTEX_CACHE_DIR, else XDG_CACHE_HOME/totex, else ~/.cache/totex (the CLI reads them:
///     schema::read_hw_environment);
///   build tree (build/bin/totex, no share/totex next to it): the source and build directories
///     compiled in (TOTEX_SOURCE_DIR, TOTEX_BINARY_DIR); models cached in build/rtl-cache.
#pragma once
#include <filesystem>
#include <vector>

namespace totex::hw {

struct InstallPaths {
  std::filesystem::path rtl;                        // rtl/ (file lists *.f, *.sv)
  std::filesystem::path sim;                        // sim/ (harness sources)
  std::vector<std::filesystem::path> include_dirs;  // totex/*.hpp, including the generated rtl_constants.hpp
  std::vector<std::filesystem::path> libraries;     // libtotex_hw.a, libtotex_core.a: a harness links both, in this order
  std::filesystem::path systemc_binary;             // totex_systemc
  std::filesystem::path cache;                      // a build tree's model cache (empty when installed)
  bool installed = false;
};

/// The paths of this executable's installation (computed once).
[[nodiscard]] const InstallPaths& install_paths();

/// The files of an RTL file list (`rtl/<name>`, format in rtl/common.f), nested -F lists expanded,
/// each file once, in order. Throws UsageError when a list is missing.
[[nodiscard]] std::vector<std::filesystem::path> rtl_file_list(const std::string& name);

}  // namespace totex::hw
