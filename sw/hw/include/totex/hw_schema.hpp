// SPDX-License-Identifier: Apache-2.0
/// The hardware boundary in one place: every option that travels from `totex sim` / `totex fpga` to
/// an engine, a harness process or a model build is a row of a field table here, and every side
/// produces or parses it from that row:
///
///   the CLI flag       add_schema_options (sw/cli/schema_options.hpp): key, help text, range
///   the harness argv   to_argv (sw/hw, the engines) and parse_argv (sim/, the harness mains)
///   -G parameters      verilog_params (sw/hw/src: the Verilator command line of a model build)
///   -D macros          cpp_defines (the harness compiled for that model checks its run against them)
///   the .svh text      svh_params (the scalar parameters of the generated totex_direct_params.svh)
///   the cache key      cache_key (the model-cache directory of a build)
///   the JSON           json_fields (`totex sim --json`, `totex fpga --json`)
///
/// Schemas: one per harness kind (DirectHarnessArgs, MinHarnessArgs, TdmHarnessArgs: the word that
/// starts a harness's argv names the kind, and `totex_systemc` takes it as its subcommand) and one
/// per tile kind (WiredTileParams: the direct tile and the generated top's scalars;
/// CosimRouterParams and MinCosimParams: the Verilated halves of the co-simulations; MinTopParams;
/// TdmTileParams, whose TileKind picks the nic, all-port or single-port tile). HwEnvironment: the
/// environment, read by the CLI alone.
///
/// Adding an option: a member with its default, a row in the schema's fields(), and the code that
/// uses it. Nothing else names it. Compiled as C++17 too (the SystemC harnesses include it).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "totex/direct_controller.hpp"
#include "totex/error.hpp"
#include "totex/min_controller.hpp"
#include "totex/network/min_network.hpp"
#include "totex/tdm_tables.hpp"

namespace totex::schema {

// ---- value codecs ----------------------------------------------------------------------------

/// An integer in [lo, hi], decimal digits only; UsageError naming `what` and the range otherwise.
[[nodiscard]] std::int64_t parse_int(const std::string& text, std::int64_t lo, std::int64_t hi, const std::string& what);

/// The names of an enum's values (specialised below for each enum a schema carries).
template <class E>
struct EnumNames;

template <class E>
[[nodiscard]] std::string enum_name(E value) {
  for (const auto& [v, name] : EnumNames<E>::values)
    if (v == value) return name;
  return "?";
}
/// All names, "a | b | c" (for messages and help).
template <class E>
[[nodiscard]] std::string enum_choices(const char* separator = " | ") {
  std::string out;
  for (const auto& [v, name] : EnumNames<E>::values) out += (out.empty() ? "" : separator) + std::string(name);
  return out;
}
template <class E>
[[nodiscard]] E parse_enum(const std::string& text, const std::string& what) {
  for (const auto& [v, name] : EnumNames<E>::values)
    if (text == name) return v;
  throw UsageError(what + " " + printable(text) + ": accepted values are " + enum_choices<E>(", "));
}

/// How tables and queues reach a model's memories (`--load`).
enum class LoadPath { Port, Backdoor };
/// Fault injection into a TDM run (TOTEX_TDM_FAULT; sim/tdm_drive.hpp).
enum class TdmFault { None, Eject, Pause, Pauses };
/// Which RTL build of a direct network (TOTEX_RTL_BUILD; sw/hw/src/rtl_engine.cpp).
enum class RtlBuild { Auto, Wired, Hier, Flat };

template <> struct EnumNames<LoadPath> {
  static constexpr std::pair<LoadPath, const char*> values[] = {{LoadPath::Port, "port"}, {LoadPath::Backdoor, "backdoor"}};
};
template <> struct EnumNames<TdmFault> {
  static constexpr std::pair<TdmFault, const char*> values[] = {
      {TdmFault::None, "none"}, {TdmFault::Eject, "eject"}, {TdmFault::Pause, "pause"}, {TdmFault::Pauses, "pauses"}};
};
template <> struct EnumNames<RtlBuild> {
  static constexpr std::pair<RtlBuild, const char*> values[] = {
      {RtlBuild::Auto, "auto"}, {RtlBuild::Wired, "wired"}, {RtlBuild::Hier, "hier"}, {RtlBuild::Flat, "flat"}};
};
template <> struct EnumNames<TileKind> {
  static constexpr std::pair<TileKind, const char*> values[] = {
      {TileKind::Nic, "nic"}, {TileKind::AllPort, "all-port"}, {TileKind::SinglePort, "single-port"}};
};
template <> struct EnumNames<DirectMode> {
  static constexpr std::pair<DirectMode, const char*> values[] = {{DirectMode::Scheduled, "scheduled"},
                                                                  {DirectMode::Dynamic, "dynamic"}};
};
template <> struct EnumNames<DynamicRouting> {
  static constexpr std::pair<DynamicRouting, const char*> values[] = {{DynamicRouting::Dor, "dor"},
                                                                      {DynamicRouting::Adaptive, "adaptive"}};
};
template <> struct EnumNames<Model> {
  static constexpr std::pair<Model, const char*> values[] = {
      {Model::SinglePort, "single-port"}, {Model::AllPort, "all-port"}, {Model::Nic, "nic"}};
};
template <> struct EnumNames<MinConfigMode> {
  static constexpr std::pair<MinConfigMode, const char*> values[] = {{MinConfigMode::Table, "table"},
                                                                     {MinConfigMode::Computed, "computed"}};
};
template <> struct EnumNames<Wiring> {
  static constexpr std::pair<Wiring, const char*> values[] = {
      {Wiring::Omega, "omega"}, {Wiring::Baseline, "baseline"}, {Wiring::Butterfly, "butterfly"}};
};

// ---- fields ------------------------------------------------------------------------------------

/// How a field's value is written where a number is due (-G, -D, .svh): its text, its enum
/// index, or (a signature) 32'h hex in the .svh.
enum class Numeric { Text, Int, EnumIndex, Hex32 };

/// One field of a parameter set S.
template <class S>
struct Field {
  const char* key;     // argv `--key`, the CLI flag, the JSON name (`-` read as `_`); nullptr: none
  const char* param;   // Verilog parameter (-G<param>=, .svh); nullptr: none
  const char* define;  // C++ macro of the harness build (-D<define>=); nullptr: none
  const char* tag;     // cache-key tag ("p" in "_p4"); "" the value alone; nullptr: not in the key
  std::string help;    // the CLI flag's help; empty: no CLI flag
  Numeric numeric;
  std::int64_t lo, hi;  // integers: the accepted range (CLI and harness check the same)
  std::string (*get)(const S&);
  void (*set)(S&, const std::string&);  // throws UsageError naming the key and the accepted values
  std::int64_t (*number)(const S&);     // the value where a number is due
  bool (*applies)(const S&);            // nullptr: always; else only then written
  bool required;                        // argv: must be given
};

/// A row's help text: a literal, nullptr (none) or a composed string.
struct Help {
  std::string text;
  Help() = default;
  Help(const char* t) : text(t ? t : "") {}  // NOLINT(google-explicit-constructor): rows pass literals
  Help(std::string t) : text(std::move(t)) {}  // NOLINT(google-explicit-constructor)
};

namespace detail {
template <class S, int S::*M>
std::string int_get(const S& s) { return std::to_string(s.*M); }
template <class S, int S::*M>
std::int64_t int_number(const S& s) { return s.*M; }
template <class S, class E, E S::*M>
std::string enum_get(const S& s) { return enum_name(s.*M); }
template <class S, class E, E S::*M>
std::int64_t enum_number(const S& s) { return static_cast<std::int64_t>(s.*M); }
template <class S, std::string S::*M>
std::string str_get(const S& s) { return s.*M; }
template <class S, bool S::*M>
std::string bool_get(const S& s) { return s.*M ? "1" : "0"; }
template <class S, bool S::*M>
std::int64_t bool_number(const S& s) { return s.*M ? 1 : 0; }
template <class S>
std::int64_t no_number(const S&) { return 0; }
}  // namespace detail

/// Row builders. `key` of an int field also names it in messages (--key).
template <class S, int S::*M, std::int64_t Lo, std::int64_t Hi>
Field<S> int_field(const char* key, const char* param, const char* define, const char* tag, Help help = Help(),
                   bool (*applies)(const S&) = nullptr, bool required = false) {
  return {key, param, define, tag, help.text, Numeric::Int, Lo, Hi, &detail::int_get<S, M>,
          [](S& s, const std::string& v) { s.*M = static_cast<int>(parse_int(v, Lo, Hi, "value")); },
          &detail::int_number<S, M>, applies, required};
}
template <class S, class E, E S::*M>
Field<S> enum_field(const char* key, const char* param, const char* define, const char* tag, Help help = Help(),
                    bool (*applies)(const S&) = nullptr, bool required = false) {
  return {key, param, define, tag, help.text, Numeric::EnumIndex, 0, 0, &detail::enum_get<S, E, M>,
          [](S& s, const std::string& v) { s.*M = parse_enum<E>(v, "value"); }, &detail::enum_number<S, E, M>, applies,
          required};
}
template <class S, std::string S::*M>
Field<S> text_field(const char* key, Help help = Help(), bool (*applies)(const S&) = nullptr,
                    bool required = false) {
  return {key, nullptr, nullptr, nullptr, help.text, Numeric::Text, 0, 0, &detail::str_get<S, M>,
          [](S& s, const std::string& v) { s.*M = v; }, &detail::no_number<S>, applies, required};
}
template <class S, bool S::*M>
Field<S> bool_field(const char* key, const char* param, const char* define, const char* tag, Help help = Help(),
                    bool (*applies)(const S&) = nullptr) {
  return {key, param, define, tag, help.text, Numeric::Int, 0, 1, &detail::bool_get<S, M>,
          [](S& s, const std::string& v) { s.*M = parse_int(v, 0, 1, "value") == 1; }, &detail::bool_number<S, M>,
          applies, false};
}

/// Fields are parsed with the key in messages: set() says "value", which this replaces.
template <class S>
void set_field(const Field<S>& f, S& s, const std::string& value) {
  try {
    f.set(s, value);
  } catch (const UsageError& e) {
    std::string text = e.what();
    if (text.rfind("value", 0) == 0) text = "--" + std::string(f.key) + text.substr(5);
    throw UsageError(text);
  }
}

template <class S>
bool field_applies(const Field<S>& f, const S& s) {
  return f.applies == nullptr || f.applies(s);
}

// ---- the schemas -----------------------------------------------------------------------------

/// The payload width of the one-shot direct and MIN models (their builds and harnesses).
inline constexpr int kDirectPayloadBits = 16;
inline constexpr int kMinPayloadBits = 16;

/// A direct-network harness run (sim/direct_run.cpp: wired, top, SystemC, co-simulation).
struct DirectHarnessArgs {
  std::string topo;
  DirectMode mode = DirectMode::Scheduled;
  Model model = Model::AllPort;
  int depth = 16;
  int buffer = 0;
  int fifo_depth = 4;
  int payload_bits = kDirectPayloadBits;
  std::string schedule;
  DynamicRouting routing = DynamicRouting::Adaptive;
  LoadPath load = LoadPath::Port;
  std::string wave;
  bool skip_quiet = true;  // TOTEX_WIRED_SKIP_QUIET: the wired build skips quiet tiles' edges
  int flits = 1;           // most flits of one pair (DirectParams::flits)
  /// Dynamic mode: the traffic the NICs send (its spec, read again by the harness, and its SHA-256
  /// to check it reads the same); empty: all.
  std::string traffic;
  std::string traffic_sha256;
  [[nodiscard]] DirectParams params() const;
  static DirectHarnessArgs from(const std::string& topo, const DirectParams& p);
  static constexpr const char* harness = "direct";
  static const std::vector<Field<DirectHarnessArgs>>& fields();
};

/// A MIN harness run (sim/min_run.cpp: rtl, SystemC, co-simulation).
struct MinHarnessArgs {
  std::string schedule;
  MinConfigMode min_mode = MinConfigMode::Table;
  int max_steps = 0;
  int payload_bits = kMinPayloadBits;
  LoadPath load = LoadPath::Port;
  std::string wave;
  static constexpr const char* harness = "min";
  static const std::vector<Field<MinHarnessArgs>>& fields();
};

/// A periodic TDM run (sim/tdm_wired_main.cpp, sim/systemc/tdm_harness.cpp); also the CLI's
/// --periods, --payload and --period (`totex sim`).
struct TdmHarnessArgs {
  std::string topo;
  std::string schedule;
  int periods = 0;  // 0: not a periodic run (the CLI's default); a harness needs >= 1
  int payload = kTdmDefaultPayloadBits;
  int period = 0;   // 0: tdm_default_period
  TdmFault fault = TdmFault::None;
  static constexpr const char* harness = "tdm";
  static const std::vector<Field<TdmHarnessArgs>>& fields();
};

/// The wired direct tile (rtl/totex_direct_tile.sv) and the scalar parameters of the generated
/// top (rtl/totex_direct_top.sv's totex_direct_params.svh): one row each.
struct WiredTileParams {
  DirectMode mode = DirectMode::Scheduled;
  int nodes = 0, ports = 0, num_links = 0;
  Model model = Model::AllPort;
  int payload_bits = kDirectPayloadBits, depth = 16, buffer_slots = 0, fifo_depth = 4, vcs = 1, adaptive_vcs = 0;
  int flits = 1;  // Flits: own flits per pair the NIC holds (multi-flit traffic)
  std::uint32_t signature = 0;
  /// The tile's parameters (tile_signature), or with `top` the generated top's (signature, NumLinks).
  static WiredTileParams from(const DirectLayout& layout, int num_links = 0, bool top = false);
  static const std::vector<Field<WiredTileParams>>& fields();
};

/// The one router a direct-network co-simulation Verilates (rtl/totex_router.sv scheduled,
/// rtl/totex_router_dyn.sv dynamic; sim/cosim/): its parameters, not the topology's.
struct CosimRouterParams {
  DirectMode mode = DirectMode::Scheduled;
  int ports = 1, lanes = 1, msg_bits = 1;
  Model model = Model::AllPort;
  int node_bits = 1, step_bits = 1;                                          // scheduled
  int nodes = 1, payload_bits = kDirectPayloadBits, vcs = 1, adaptive_vcs = 0, fifo_depth = 4;  // dynamic
  static CosimRouterParams from(const DirectLayout& layout);
  static const std::vector<Field<CosimRouterParams>>& fields();
};

/// The Verilated half of a MIN co-simulation (sim/cosim/min_cosim_main.cpp): rtl/totex_banyan.sv
/// (`rtl_network`) or rtl/totex_nic.sv.
struct MinCosimParams {
  bool rtl_network = true;
  int terminals = 0, radix = 0, message_bits = 0;
  Wiring wiring = Wiring::Omega;
  int max_steps = 0, payload_bits = kMinPayloadBits;
  static const std::vector<Field<MinCosimParams>>& fields();
};

/// rtl/totex_min_top.sv's parameters (sim/min_rtl_main.cpp checks its run against them).
struct MinTopParams {
  int terminals = 0, radix = 0, payload_bits = kMinPayloadBits;
  Wiring wiring = Wiring::Omega;
  MinConfigMode mode = MinConfigMode::Table;
  int max_steps = 0;
  static const std::vector<Field<MinTopParams>>& fields();
};

/// The TDM tile's parameters (TdmTileParams, totex/tdm_tables.hpp).
[[nodiscard]] const std::vector<Field<TdmTileParams>>& tdm_tile_fields();

template <class S> struct Of { static const std::vector<Field<S>>& fields() { return S::fields(); } };
template <> struct Of<TdmTileParams> { static const std::vector<Field<TdmTileParams>>& fields() { return tdm_tile_fields(); } };

// ---- what every side produces from a schema ------------------------------------------------------

/// `--key value` for every keyed field that applies and is not empty text.
template <class S>
[[nodiscard]] std::vector<std::string> options(const S& s) {
  std::vector<std::string> argv;
  for (const Field<S>& f : Of<S>::fields()) {
    if (!f.key || !field_applies(f, s)) continue;
    const std::string v = f.get(s);
    if (f.numeric == Numeric::Text && v.empty()) continue;
    argv.push_back(std::string("--") + f.key);
    argv.push_back(v);
  }
  return argv;
}

/// The harness argv after the binary: the harness kind's word (S::harness), then options(s).
template <class S>
[[nodiscard]] std::vector<std::string> to_argv(const S& s) {
  std::vector<std::string> argv = {S::harness};
  const std::vector<std::string> rest = options(s);
  argv.insert(argv.end(), rest.begin(), rest.end());
  return argv;
}

/// The usage line of a harness kind, from its table.
template <class S>
[[nodiscard]] std::string usage(const std::string& name) {
  std::string u = "usage: " + name + " " + S::harness;
  for (const Field<S>& f : Of<S>::fields())
    if (f.key) u += std::string(f.required ? " --" : " [--") + f.key + " V" + (f.required ? "" : "]");
  return u;
}

/// Parses a harness's argv (argv[1] the kind word, then `--key value` pairs); unknown keys,
/// missing values and missing required fields are usage errors naming the accepted keys.
template <class S>
[[nodiscard]] S parse_argv(int argc, char** argv, const std::string& name) {
  if (argc < 2 || std::string(argv[1]) != S::harness || argc % 2 != 0) throw UsageError(usage<S>(name));
  S s;
  std::vector<const char*> seen;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const Field<S>* field = nullptr;
    for (const Field<S>& f : Of<S>::fields())
      if (f.key && key == std::string("--") + f.key) field = &f;
    if (!field) throw UsageError("unexpected argument '" + printable(key) + "'; " + usage<S>(name));
    set_field(*field, s, argv[i + 1]);
    seen.push_back(field->key);
  }
  for (const Field<S>& f : Of<S>::fields()) {
    if (!f.required) continue;
    bool given = false;
    for (const char* k : seen) given = given || std::string(k) == f.key;
    if (!given) throw UsageError("--" + std::string(f.key) + " is required; " + usage<S>(name));
  }
  return s;
}

/// -G<param>=<number> for every field with a Verilog parameter that applies.
template <class S>
[[nodiscard]] std::vector<std::string> verilog_params(const S& s) {
  std::vector<std::string> out;
  for (const Field<S>& f : Of<S>::fields()) {
    if (!f.param || !field_applies(f, s)) continue;
    if (f.numeric == Numeric::Hex32) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(f.number(s)));
      out.push_back(std::string("-G") + f.param + "=32'h" + hex);
    } else {
      out.push_back(std::string("-G") + f.param + "=" + std::to_string(f.number(s)));
    }
  }
  return out;
}

/// -D<define>=<number> for every field with a macro (all of them, applying or not: the harness
/// compares the whole set).
template <class S>
[[nodiscard]] std::string cpp_defines(const S& s) {
  std::string out;
  for (const Field<S>& f : Of<S>::fields())
    if (f.define) out += (out.empty() ? "-D" : " -D") + std::string(f.define) + "=" + std::to_string(f.number(s));
  return out;
}

/// `prefix` then `_<tag><value>` for every keyed field that applies.
template <class S>
[[nodiscard]] std::string cache_key(const std::string& prefix, const S& s) {
  std::string key = prefix;
  for (const Field<S>& f : Of<S>::fields()) {
    if (!f.tag || !field_applies(f, s)) continue;
    std::string v = f.get(s);
    for (char& c : v)
      if (c == '-') c = '_';
    key += "_" + std::string(f.tag) + v;
  }
  return key;
}

/// The fields with a Verilog parameter as the lines of a parameter list (`parameter ... = ...,`).
template <class S>
[[nodiscard]] std::string svh_params(const S& s) {
  std::string out;
  for (const Field<S>& f : Of<S>::fields()) {
    if (!f.param) continue;
    std::string name = f.param;
    name.resize(std::max<std::size_t>(name.size(), 11), ' ');
    if (f.numeric == Numeric::Hex32) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(f.number(s)));
      out += "  parameter logic [31:0] " + name + " = 32'h" + hex + ",\n";
    } else {
      out += "  parameter int unsigned " + name + " = 32'd" + std::to_string(f.number(s)) + ",\n";
    }
  }
  return out;
}

/// (JSON name, value, is a number) for every keyed field that applies and is not empty text.
struct JsonField {
  std::string name, value;
  bool number;
};
template <class S>
[[nodiscard]] std::vector<JsonField> json_fields(const S& s) {
  std::vector<JsonField> out;
  for (const Field<S>& f : Of<S>::fields()) {
    if (!f.key || !field_applies(f, s)) continue;
    if (f.numeric == Numeric::Text && f.get(s).empty()) continue;
    std::string name = f.key;
    for (char& c : name)
      if (c == '-') c = '_';
    out.push_back({name, f.get(s), f.numeric == Numeric::Int});
  }
  return out;
}

/// Whether two parameter sets agree on every field with a macro (a harness checks the run it is
/// given against the build it was compiled for).
template <class S>
[[nodiscard]] bool same_build(const S& a, const S& b) {
  for (const Field<S>& f : Of<S>::fields())
    if (f.define && f.number(a) != f.number(b)) return false;
  return true;
}

// ---- the environment -------------------------------------------------------------------------

/// The environment variables that steer the hardware side, read once by the CLI (sw/cli), checked
/// here the same way for every engine, and passed on in RunOptions and the harness argv. Nothing
/// below the CLI reads the environment.
struct HwEnvironment {
  RtlBuild rtl_build = RtlBuild::Auto;  // TOTEX_RTL_BUILD=wired|hier|flat
  int rtl_threads = 1;                  // TOTEX_RTL_THREADS=1..64
  std::string cache_dir;                // TOTEX_CACHE_DIR, else the installation's default
  std::string tdm_synth;                // TOTEX_TDM_SYNTH: another synthesis script ("" the installed one)
  bool wired_skip_quiet = true;         // TOTEX_WIRED_SKIP_QUIET=1|0
  TdmFault tdm_fault = TdmFault::None;  // TOTEX_TDM_FAULT=eject|pause|pauses
};

/// Reads and checks the variables through `lookup` (the CLI passes the C library's reader): a bad value is a
/// UsageError naming the variable and its accepted values. HOME and XDG_CACHE_HOME give an
/// installed totex's default cache directory.
[[nodiscard]] HwEnvironment read_hw_environment(const std::function<const char*(const char*)>& lookup);

}  // namespace totex::schema
