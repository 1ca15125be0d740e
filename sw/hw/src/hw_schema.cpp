// SPDX-License-Identifier: Apache-2.0
/// The field tables of totex/hw_schema.hpp and the one reading of the environment.
#include "totex/hw_schema.hpp"

#include <filesystem>

#include "install_paths.hpp"

namespace totex::schema {

// The enum indexes the -G parameters carry are the RTL's codes.
static_assert(static_cast<int>(MinConfigMode::Table) == rtl::totex_pkg::MODE_TABLE);
static_assert(static_cast<int>(MinConfigMode::Computed) == rtl::totex_pkg::MODE_COMPUTED);
static_assert(static_cast<int>(DirectMode::Dynamic) == 1 && static_cast<int>(DirectMode::Scheduled) == 0);

std::int64_t parse_int(const std::string& text, std::int64_t lo, std::int64_t hi, const std::string& what) {
  const bool digits = !text.empty() && text.size() <= 18 && text.find_first_not_of("0123456789") == std::string::npos;
  const std::int64_t v = digits ? std::stoll(text) : lo - 1;
  if (v < lo || v > hi)
    throw UsageError(what + " " + printable(text) + ": accepted values are " + std::to_string(lo) + " to " +
                     std::to_string(hi));
  return v;
}

namespace {
bool scheduled(const DirectHarnessArgs& a) { return a.mode == DirectMode::Scheduled; }
bool dynamic(const DirectHarnessArgs& a) { return a.mode == DirectMode::Dynamic; }
bool skipping_not_default(const DirectHarnessArgs& a) { return !a.skip_quiet; }
bool multi_flit(const DirectHarnessArgs& a) { return a.flits > 1; }  // `all` runs keep their argv
bool dynamic_traffic(const DirectHarnessArgs& a) { return dynamic(a) && !a.traffic.empty(); }  // likewise
bool single_port(const TdmTileParams& p) { return p.kind == TileKind::SinglePort; }
bool flops(const TdmTileParams& p) { return p.bits_in_flops; }
bool queued(const TdmTileParams& p) { return p.queue_depth > 1; }  // multi-flit traffic only: `all` keys unchanged
bool faulty(const TdmHarnessArgs& a) { return a.fault != TdmFault::None; }
constexpr std::int64_t kBig = std::int64_t{1} << 30;
}  // namespace

// Rows: key, Verilog parameter, C++ macro, cache-key tag, CLI help (nullptr: no CLI flag).
const std::vector<Field<DirectHarnessArgs>>& DirectHarnessArgs::fields() {
  using S = DirectHarnessArgs;
  static const std::vector<Field<S>> f = {
      text_field<S, &S::topo>("topo", "", nullptr, true),
      enum_field<S, DirectMode, &S::mode>("mode", nullptr, nullptr, nullptr),
      enum_field<S, Model, &S::model>("model", nullptr, nullptr, nullptr),
      int_field<S, &S::depth, 1, kBig>("depth", nullptr, nullptr, nullptr),
      int_field<S, &S::buffer, 0, kBig>("buffer", nullptr, nullptr, nullptr),
      // From 2: at depth 1 the SystemC dynamic router and the RTL disagree (ring:8 dynamic: 15
      // against 19 cycles; the RTL's credit round trip is 2 cycles), which the models must settle first.
      int_field<S, &S::fifo_depth, 2, 64>("fifo-depth", nullptr, nullptr, nullptr,
                                          "--mode dynamic: flits per input VC FIFO of the dynamic routers, 2..64 (default " +
                                              std::to_string(DirectParams().fifo_depth) +
                                              "; 2 sustains one flit per cycle and link)"),
      int_field<S, &S::payload_bits, 1, 64>("payload-bits", nullptr, nullptr, nullptr),
      text_field<S, &S::schedule>("schedule", nullptr, &scheduled),
      enum_field<S, DynamicRouting, &S::routing>("dynamic", nullptr, nullptr, nullptr, nullptr, &dynamic),
      enum_field<S, LoadPath, &S::load>("load", nullptr, nullptr, nullptr),
      text_field<S, &S::wave>("wave"),
      bool_field<S, &S::skip_quiet>("skip-quiet", nullptr, nullptr, nullptr, nullptr, &skipping_not_default),
      int_field<S, &S::flits, 1, 65536>("flits", nullptr, nullptr, nullptr, nullptr, &multi_flit),
      text_field<S, &S::traffic>("traffic", nullptr, &dynamic_traffic),
      text_field<S, &S::traffic_sha256>("traffic-sha256", nullptr, &dynamic_traffic),
  };
  return f;
}

const std::vector<Field<MinHarnessArgs>>& MinHarnessArgs::fields() {
  using S = MinHarnessArgs;
  static const std::vector<Field<S>> f = {
      text_field<S, &S::schedule>("schedule", "", nullptr, true),
      enum_field<S, MinConfigMode, &S::min_mode>("min-mode", nullptr, nullptr, nullptr),
      int_field<S, &S::max_steps, 1, kBig>("max-steps", nullptr, nullptr, nullptr, "", nullptr, true),
      int_field<S, &S::payload_bits, 1, 64>("payload-bits", nullptr, nullptr, nullptr),
      enum_field<S, LoadPath, &S::load>("load", nullptr, nullptr, nullptr),
      text_field<S, &S::wave>("wave"),
  };
  return f;
}

const std::vector<Field<TdmHarnessArgs>>& TdmHarnessArgs::fields() {
  using S = TdmHarnessArgs;
  static const std::vector<Field<S>> f = {
      text_field<S, &S::topo>("topo", "", nullptr, true),
      text_field<S, &S::schedule>("schedule", "", nullptr, true),
      int_field<S, &S::periods, 1, 1000000>(
          "periods", nullptr, nullptr, nullptr,
          "run the schedule's TDM slot tables K periods back to back (direct networks, on engines ref, rtl "
          "(N Verilated TDM tiles) and systemc (N SystemC TDM tiles); the nic, all-port or single-port tile "
          "by the schedule's model); unset: one exchange",
          nullptr, true),
      int_field<S, &S::payload, 1, 64>("payload", nullptr, nullptr, nullptr,
                                       "payload bits of a --periods run (1..64, default " + std::to_string(kTdmDefaultPayloadBits) + ")"),
      int_field<S, &S::period, 1, kBig>(
          "period", nullptr, nullptr, nullptr,
          "slots per period of a --periods run (default: the schedule's own period, else the smallest >= its "
          "steps T whose fold has no conflict); a fold with conflicts is refused, each conflict named"),
      enum_field<S, TdmFault, &S::fault>("fault", nullptr, nullptr, nullptr, nullptr, &faulty),
  };
  return f;
}

const std::vector<Field<WiredTileParams>>& WiredTileParams::fields() {
  using S = WiredTileParams;
  static const std::vector<Field<S>> f = {
      // The cache key reads tile_<mode>_n<N>_p<P>_v<V>_a<A>_w<W>_<model>_d<D>_b<B>_f<F>[_fl<Flits>].
      enum_field<S, DirectMode, &S::mode>("mode", "Dynamic", nullptr, ""),
      int_field<S, &S::nodes, 1, kBig>("nodes", "N", nullptr, "n"),
      int_field<S, &S::ports, 1, 64>("ports", "NumPorts", nullptr, "p"),
      int_field<S, &S::num_links, 0, kBig>("links", "NumLinks", nullptr, nullptr, nullptr,
                                           [](const S& s) { return s.num_links > 0; }),
      int_field<S, &S::vcs, 1, 64>("vcs", "NumVcs", nullptr, "v"),
      int_field<S, &S::adaptive_vcs, 0, 64>("adaptive-vcs", "AdaptiveVcs", nullptr, "a"),
      int_field<S, &S::payload_bits, 1, 64>("payload-bits", "PW", nullptr, "w"),
      enum_field<S, Model, &S::model>("model", "Model", nullptr, ""),
      int_field<S, &S::depth, 1, kBig>("depth", "Depth", nullptr, "d"),
      int_field<S, &S::buffer_slots, 0, kBig>("buffer", "BufSlots", nullptr, "b"),
      int_field<S, &S::fifo_depth, 1, 1024>("fifo-depth", "FifoDepth", nullptr, "f"),
      // Multi-flit traffic only (the key gains _fl<F>): one-flit models keep their keys.
      int_field<S, &S::flits, 1, 65536>("flits", "Flits", nullptr, "fl", nullptr,
                                        [](const S& s) { return s.flits > 1; }),
      {"signature", "Signature", nullptr, nullptr, "", Numeric::Hex32, 0, 0,
       [](const S& s) { return std::to_string(s.signature); }, [](S&, const std::string&) {},
       [](const S& s) { return static_cast<std::int64_t>(s.signature); }, nullptr, false},
  };
  return f;
}

const std::vector<Field<CosimRouterParams>>& CosimRouterParams::fields() {
  using S = CosimRouterParams;
  constexpr auto sched = [](const S& s) { return s.mode == DirectMode::Scheduled; };
  constexpr auto dyn = [](const S& s) { return s.mode == DirectMode::Dynamic; };
  static const std::vector<Field<S>> f = {
      enum_field<S, DirectMode, &S::mode>("mode", nullptr, "TOTEX_COSIM_DYNAMIC", ""),
      int_field<S, &S::ports, 1, 64>("ports", "NumPorts", nullptr, "p"),
      int_field<S, &S::lanes, 1, 64>("lanes", "NumLanes", nullptr, "l", nullptr, sched),
      int_field<S, &S::msg_bits, 1, 1024>("msg-bits", "MW", nullptr, "mw", nullptr, sched),
      enum_field<S, Model, &S::model>("model", "Model", nullptr, "", nullptr, sched),
      int_field<S, &S::node_bits, 1, 32>("node-bits", "IdW", nullptr, "iw", nullptr, sched),
      int_field<S, &S::step_bits, 1, 32>("step-bits", "StepW", nullptr, "s", nullptr, sched),
      int_field<S, &S::nodes, 1, kBig>("nodes", "N", nullptr, "n", nullptr, dyn),
      int_field<S, &S::payload_bits, 1, 64>("payload-bits", "PW", nullptr, "pw", nullptr, dyn),
      int_field<S, &S::vcs, 1, 64>("vcs", "NumVcs", nullptr, "v", nullptr, dyn),
      int_field<S, &S::adaptive_vcs, 0, 64>("adaptive-vcs", "AdaptiveVcs", nullptr, "a", nullptr, dyn),
      int_field<S, &S::fifo_depth, 1, 64>("fifo-depth", "Depth", nullptr, "f", nullptr, dyn),
  };
  return f;
}

CosimRouterParams CosimRouterParams::from(const DirectLayout& L) {
  CosimRouterParams r;
  r.mode = L.params.mode;
  r.ports = L.ports;
  r.lanes = L.lanes;
  r.msg_bits = L.msg_bits;
  r.model = L.params.model;
  r.node_bits = L.node_bits;
  r.step_bits = L.step_bits;
  r.nodes = L.nodes;
  r.payload_bits = L.params.payload_bits;
  r.vcs = L.vcs;
  r.adaptive_vcs = L.adaptive_vcs;
  r.fifo_depth = L.params.fifo_depth;
  return r;
}

const std::vector<Field<MinCosimParams>>& MinCosimParams::fields() {
  using S = MinCosimParams;
  constexpr auto banyan = [](const S& s) { return s.rtl_network; };
  constexpr auto nic = [](const S& s) { return !s.rtl_network; };
  // The cache key reads cosim_min_<N>_<D>_<wiring>_s<S>_rtl_network1 (banyan) or
  // cosim_min_<N>_s<S>_pw<W>_rtl_network0 (NICs: the wiring and radix are not theirs).
  static const std::vector<Field<S>> f = {
      int_field<S, &S::terminals, 1, kBig>("terminals", "N", nullptr, ""),
      int_field<S, &S::radix, 2, 64>("radix", "D", nullptr, "", nullptr, banyan),
      enum_field<S, Wiring, &S::wiring>("wiring", "Wiring", nullptr, "", nullptr, banyan),
      int_field<S, &S::message_bits, 1, 1024>("message-bits", "W", nullptr, nullptr, nullptr, banyan),
      int_field<S, &S::max_steps, 1, kBig>("max-steps", "MaxSteps", nullptr, "s"),
      int_field<S, &S::payload_bits, 1, 64>("payload-bits", "PW", nullptr, "pw", nullptr, nic),
      bool_field<S, &S::rtl_network>("rtl-network", nullptr, "TOTEX_COSIM_RTL_NETWORK", "rtl_network"),
  };
  return f;
}

const std::vector<Field<MinTopParams>>& MinTopParams::fields() {
  using S = MinTopParams;
  static const std::vector<Field<S>> f = {
      int_field<S, &S::terminals, 1, kBig>("terminals", "N", "TOTEX_N", ""),
      int_field<S, &S::radix, 2, 64>("radix", "D", "TOTEX_D", ""),
      enum_field<S, Wiring, &S::wiring>("wiring", "Wiring", "TOTEX_WIRING", ""),
      enum_field<S, MinConfigMode, &S::mode>("min-mode", "Mode", "TOTEX_MODE", ""),
      int_field<S, &S::max_steps, 1, kBig>("max-steps", "MaxSteps", "TOTEX_MAX_STEPS", "s"),
      int_field<S, &S::payload_bits, 1, 64>("payload-bits", "PW", "TOTEX_PW", nullptr),
  };
  return f;
}

const std::vector<Field<TdmTileParams>>& tdm_tile_fields() {
  using S = TdmTileParams;
  static const std::vector<Field<S>> f = {
      enum_field<S, TileKind, &S::kind>("kind", nullptr, "TOTEX_TDM_KIND", ""),
      int_field<S, &S::ports, 1, 64>("ports", "NumPorts", "TOTEX_TDM_PORTS", "p"),
      int_field<S, &S::payload_bits, 1, 64>("payload", "PayloadW", "TOTEX_TDM_PAYLOAD", "w"),
      int_field<S, &S::node_bits, 1, 32>("node-bits", "NodeW", "TOTEX_TDM_NODE_BITS", "n"),
      int_field<S, &S::depth, 1, kBig>("depth", "Depth", "TOTEX_TDM_DEPTH", "d"),
      int_field<S, &S::buffer_words, 1, kBig>("buffer-words", "BufDepth", "TOTEX_TDM_BUFFER", "b", nullptr, &single_port),
      bool_field<S, &S::bits_in_flops>("bits-in-flops", nullptr, nullptr, nullptr, nullptr, &flops),
      int_field<S, &S::queue_depth, 1, kBig>("queue-depth", "QueueDepth", "TOTEX_TDM_QUEUE", "q", nullptr, &queued),
  };
  return f;
}

DirectParams DirectHarnessArgs::params() const {
  DirectParams p;
  p.mode = mode;
  p.model = model;
  p.depth = depth;
  p.buffer_slots = buffer;
  p.fifo_depth = fifo_depth;
  p.payload_bits = payload_bits;
  p.routing = routing;
  p.flits = flits;
  return p;
}

DirectHarnessArgs DirectHarnessArgs::from(const std::string& topo, const DirectParams& p) {
  DirectHarnessArgs a;
  a.topo = topo;
  a.mode = p.mode;
  a.model = p.model;
  a.depth = p.depth;
  a.buffer = p.buffer_slots;
  a.fifo_depth = p.fifo_depth;
  a.payload_bits = p.payload_bits;
  a.routing = p.routing;
  a.flits = p.flits;
  return a;
}

WiredTileParams WiredTileParams::from(const DirectLayout& L, int num_links, bool top) {
  WiredTileParams w;
  w.mode = L.params.mode;
  w.nodes = L.nodes;
  w.ports = L.ports;
  w.num_links = num_links;
  w.model = L.params.model;
  w.payload_bits = L.params.payload_bits;
  w.depth = L.params.depth;
  w.buffer_slots = L.params.buffer_slots;
  w.fifo_depth = L.params.fifo_depth;
  w.flits = L.params.flits;
  w.vcs = L.vcs;
  w.adaptive_vcs = L.adaptive_vcs;
  w.signature = top ? L.signature() : L.tile_signature();
  return w;
}

namespace {

/// A variable's value, or "" when unset.
std::string value_of(const std::function<const char*(const char*)>& lookup, const char* name) {
  const char* v = lookup(name);
  return v ? v : "";
}

template <class E>
E env_enum(const std::string& name, const std::string& value, E unset, const std::string& unset_text) {
  if (value.empty()) return unset;
  for (const auto& [v, text] : EnumNames<E>::values)
    if (value == text && v != unset) return v;
  std::vector<std::string> names;
  for (const auto& [v, text] : EnumNames<E>::values)
    if (v != unset) names.emplace_back(text);
  std::string accepted;  // "a, b and c"
  for (std::size_t i = 0; i < names.size(); ++i)
    accepted += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  throw UsageError(name + "=" + printable(value) + ": accepted values are " + accepted + " (" + unset_text + ")");
}

}  // namespace

HwEnvironment read_hw_environment(const std::function<const char*(const char*)>& lookup) {
  HwEnvironment env;
  env.rtl_build = env_enum("TOTEX_RTL_BUILD", value_of(lookup, "TOTEX_RTL_BUILD"), RtlBuild::Auto,
                           "unset: wired, or flat with --wave");
  if (const std::string t = value_of(lookup, "TOTEX_RTL_THREADS"); !t.empty()) {
    const bool digits = t.size() <= 2 && t.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || std::stoi(t) < 1 || std::stoi(t) > 64)
      throw UsageError("TOTEX_RTL_THREADS=" + printable(t) + ": accepted values are 1 to 64 (Verilator --threads)");
    env.rtl_threads = std::stoi(t);
  }
  const std::string skip = value_of(lookup, "TOTEX_WIRED_SKIP_QUIET");
  if (!skip.empty() && skip != "0" && skip != "1")
    throw UsageError("TOTEX_WIRED_SKIP_QUIET=" + printable(skip) + ": accepted values are 1 (skip quiet tiles) and 0");
  env.wired_skip_quiet = skip != "0";
  env.tdm_fault = env_enum("TOTEX_TDM_FAULT", value_of(lookup, "TOTEX_TDM_FAULT"), TdmFault::None, "unset: none");
  env.tdm_synth = value_of(lookup, "TOTEX_TDM_SYNTH");
  if (!env.tdm_synth.empty() && !std::filesystem::exists(env.tdm_synth))
    throw UsageError("TOTEX_TDM_SYNTH=" + printable(env.tdm_synth) + ": no such file");
  // The model cache: TOTEX_CACHE_DIR; else an installed totex's user cache, a build tree's rtl-cache.
  namespace fs = std::filesystem;
  env.cache_dir = value_of(lookup, "TOTEX_CACHE_DIR");
  if (!env.cache_dir.empty()) {
    std::error_code ec;
    if (fs::exists(env.cache_dir, ec) && !fs::is_directory(env.cache_dir, ec))
      throw UsageError("TOTEX_CACHE_DIR=" + env.cache_dir +
                       " is not a directory; set it to a directory totex may create and write, or unset it");
    // Absolute: the model builds run make in a directory of their own (a relative
    // TOTEX_CACHE_DIR=build/rtl-cache failed there).
    if (const fs::path whole = fs::absolute(env.cache_dir, ec); !ec) env.cache_dir = whole.string();
  } else if (!hw::install_paths().installed) {
    env.cache_dir = hw::install_paths().cache.string();
  } else if (const std::string xdg = value_of(lookup, "XDG_CACHE_HOME"); !xdg.empty()) {
    env.cache_dir = (fs::path(xdg) / "totex").string();
  } else if (const std::string home = value_of(lookup, "HOME"); !home.empty()) {
    env.cache_dir = (fs::path(home) / ".cache" / "totex").string();
  } else {
    env.cache_dir = (fs::temp_directory_path() / "totex-cache").string();
  }
  return env;
}

}  // namespace totex::schema
