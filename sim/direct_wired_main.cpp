// SPDX-License-Identifier: Apache-2.0
/// The `wired` RTL build of a direct network: one Verilated model of rtl/totex_direct_tile.sv (a
/// node with its own copy of the run controller), built once per tile parameter set, instantiated
/// N times here and wired in C++ exactly as rtl/totex_direct_top.sv wires its nodes (the link
/// tables of DirectNodeTables, which also generate the top's parameters; a node's absent ports,
/// on a mesh's border, read as the top's idle spare link and are cleared in its connected_i). A
/// topology change with the same tile parameters (N, ports, model, depth, ...) needs no new
/// Verilator build.
///
/// One clock edge: every tile sees the rising edge with the inputs of the cycle that ends; then
/// the links, credits and the all-done AND are copied from outputs to inputs and every clocked
/// tile is evaluated with the clock low (Verilator needs that evaluation to see the next rising
/// edge); while an evaluation changes a tile's link outputs, the tiles whose inputs changed are
/// evaluated again. Same behaviour as the top, cycle for cycle: CTest rtl.direct.same_build_*
/// checks the digests of both builds. No waveform: `totex sim --wave` uses the top's build.
///
/// Quiet tiles are not clocked: a tile whose quiet_o is high, with start_i low, no flit or credit
/// arriving and no load-port write for it (its node field, or the broadcast CONTROL_LAST), keeps
/// every flip-flop on that edge (proved for any state: the fixpoint rows of tests/formal/run.sh),
/// and none of its outputs depends on the load port, so the edge is skipped. During a load only
/// the addressed tile is clocked. TOTEX_WIRED_SKIP_QUIET=0 (read by the CLI, --skip-quiet 0 here) clocks every tile on every edge (CTest
/// rtl.direct.wired_skip_* compares both).
/// One thread: TOTEX_RTL_THREADS is for the generated top (sw/hw/src/rtl_engine.cpp says why).
#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Vtotex_direct_tile.h"
#include "direct_backdoor.hpp"
#include "direct_run.hpp"
#include "totex/direct_controller.hpp"
#include "totex/error.hpp"
#include "totex/load_port.hpp"
#include "totex/network/topology.hpp"
#include "vl_harness.hpp"

namespace {

using totex::sim::bits;
using totex::sim::set_bits;
using totex::sim::set_port;
using Tile = Vtotex_direct_tile;

class WiredDirect final : public totex::sim::DirectDut {
 public:
  WiredDirect(const totex::Topology& t, const totex::DirectLayout& layout) : layout_(layout) {
    ctx_.randReset(2);
    ctx_.fatalOnError(false);
    ctx_.errorLimit(1 << 30);
    const int n = layout_.nodes, p = layout_.ports;
    const std::int64_t links = t.links();
    const totex::DirectNodeTables tables = totex::direct_node_tables(t, layout_);
    // Who drives each link: its tail's output port (data) and its head's input port (credits);
    // the sentinel `links` (an absent port, a mesh's border) is driven by nobody.
    std::vector<End> tail(static_cast<std::size_t>(links + 1)), head(tail.size());
    for (int v = 0; v < n; ++v)
      for (int i = 0; i < p; ++i) {
        tail[static_cast<std::size_t>(tables.out_link[idx(v, i)])] = {v, i};
        head[static_cast<std::size_t>(tables.in_link[idx(v, i)])] = {v, i};
      }
    tail.back() = head.back() = End{};
    upstream_.resize(static_cast<std::size_t>(n * p));
    downstream_.resize(upstream_.size());
    for (int v = 0; v < n; ++v)
      for (int i = 0; i < p; ++i) {
        upstream_[idx(v, i)] = tail[static_cast<std::size_t>(tables.in_link[idx(v, i)])];
        downstream_[idx(v, i)] = head[static_cast<std::size_t>(tables.out_link[idx(v, i)])];
      }
    mw_ = layout_.msg_bits;
    vw_ = totex::idx_width(layout_.vcs);
    const bool dynamic = layout_.params.mode == totex::DirectMode::Dynamic;
    const int route_w = totex::idx_width(p + 1);  // the tile's RouteW = idx_width(NumPorts + 1)
    for (int v = 0; v < n; ++v) {
      tiles_.push_back(std::make_unique<Tile>(&ctx_, ("t" + std::to_string(v)).c_str()));
      Tile& x = *tiles_.back();
      // Every input defined before the first evaluation (the model's variables start random).
      x.cfg_we_i = x.start_i = x.all_done_i = 0;
      set_port(x.cfg_addr_i, 0);
      set_port(x.cfg_data_i, 0);
      set_port(x.node_id_i, static_cast<std::uint64_t>(v));
      set_port(x.connected_i, 0);
      for (int i = 0; i < p; ++i)  // as the top's connected_mask(v)
        set_bits(x.connected_i, i, 1, tables.out_link[idx(v, i)] < links ? 1 : 0);
      set_port(x.route_table_i, 0);
      set_port(x.minimal_i, 0);
      set_port(x.port_dim_i, 0);
      x.dateline_i = 0;
      if (!dynamic) continue;
      for (int d = 0; d < n; ++d)
        set_bits(x.route_table_i, d * route_w, route_w, static_cast<std::uint64_t>(tables.route[idx(v, d, n)]));
      for (int k = 0; k < n * p; ++k)
        if (tables.minimal[static_cast<std::size_t>(v) * static_cast<std::size_t>(n * p) + static_cast<std::size_t>(k)])
          set_bits(x.minimal_i, k, 1, 1);
      for (int i = 0; i < p; ++i) {
        set_bits(x.port_dim_i, i * totex::rtl::totex_direct_pkg::TOPO_PORT_W, totex::rtl::totex_direct_pkg::TOPO_PORT_W,
                 static_cast<std::uint64_t>(tables.port_dim[idx(v, i)]));
        set_bits(x.dateline_i, i, 1, tables.dateline[idx(v, i)] ? 1 : 0);
      }
    }
    for (std::size_t v = 0; v < tiles_.size(); ++v) {
      tiles_[v]->clk_i = 0;
      tiles_[v]->rst_ni = 1;
      connect(*tiles_[v], static_cast<int>(v), false);
      tiles_[v]->eval();
    }
    // Reset as ClockedModel does: asserted and evaluated, two rising edges, released.
    for (auto& x : tiles_) {
      x->rst_ni = 0;
      x->eval();
    }
    recount_done();
    tick();
    tick();
    for (auto& x : tiles_) {
      x->rst_ni = 1;
      x->eval();
    }
    // Evaluated outside evaluate(): count again, connect all next time.
    recount_done();
    for (int v = 0; v < n; ++v) mark_stale(v);
    // Quiet tiles skip edges from here on (never during reset, whose edges also load the node's
    // constant copies), unless set_skip_quiet(false).
    skip_quiet_ = true;
  }
  ~WiredDirect() override {
    for (auto& x : tiles_) x->final();
  }
  WiredDirect(const WiredDirect&) = delete;
  WiredDirect& operator=(const WiredDirect&) = delete;

  void set_skip_quiet(bool skip) override { skip_quiet_ = skip; }

  void set_layout(int eject_lanes, int msg_bits, int node_bits, int payload_bits) override {
    lanes_ = eject_lanes;
    mw_ = msg_bits;
    iw_ = node_bits;
    pw_ = payload_bits;
  }
  std::uint32_t signature() override {
    return tiles_.front()->signature_o == layout_.tile_signature() ? layout_.signature() : tiles_.front()->signature_o;
  }
  /// The write goes to every awake tile and to the one it is for (all for CONTROL_LAST): an
  /// asleep tile would skip it anyway (a write for another node changes nothing in a quiet tile).
  void write(std::uint64_t addr, std::uint64_t data) override {
    driven_.clear();
    const auto drive = [&](int v) {
      Tile& x = *tiles_[static_cast<std::size_t>(v)];
      x.cfg_we_i = 1;
      set_port(x.cfg_addr_i, addr);
      set_port(x.cfg_data_i, data);
      driven_.push_back(v);
    };
    const int target = write_target(addr);
    if (!skip_quiet_ || target == kEveryTile) {
      for (int v = 0; v < layout_.nodes; ++v) {
        drive(v);
        wake(v);  // tick() looks at awake tiles only
      }
    } else {
      for (const int v : awake_) drive(v);
      if (target >= 0 && !awake_flag_[static_cast<std::size_t>(target)]) {
        drive(target);
        wake(target);
      }
    }
    tick();
    for (const int v : driven_) tiles_[static_cast<std::size_t>(v)]->cfg_we_i = 0;
  }
  /// The addressed tile's public memories (rtl/totex_backdoor.vlt).
  bool backdoor_write(std::uint64_t addr, std::uint64_t data) override { return backdoor_.write(ctx_, addr, data); }
  void set_start(bool start) override {
    for (int v = 0; v < layout_.nodes; ++v) {
      tiles_[static_cast<std::size_t>(v)]->start_i = start ? 1 : 0;
      if (start) wake(v);
    }
  }
  /// Clocks every awake tile but those the edge leaves unchanged (asleep, and no write for it);
  /// an awake tile found asleep leaves the list until an evaluation, new link inputs, start or a
  /// write for it wakes it (nothing else can make it clockable again).
  void tick() override {
    clocked_.clear();
    if (!skip_quiet_) {
      for (int v = 0; v < layout_.nodes; ++v) clocked_.push_back(v);
    } else {
      std::size_t kept = 0;
      for (const int v : awake_) {
        const Tile& x = *tiles_[static_cast<std::size_t>(v)];
        if (asleep(x)) {
          awake_flag_[static_cast<std::size_t>(v)] = 0;
          if (!(x.cfg_we_i && write_for(x, v))) continue;
        } else {
          awake_[kept++] = v;
        }
        clocked_.push_back(v);
      }
      awake_.resize(kept);
    }
    for (const int v : clocked_) {
      Tile& x = *tiles_[static_cast<std::size_t>(v)];
      x.clk_i = 1;
      evaluate(v);
      x.clk_i = 0;
    }
    settle();
    ctx_.timeInc(10);
    ++edges_;
  }
  bool busy() override { return tiles_.front()->busy_o; }
  bool done() override { return tiles_.front()->done_o; }
  bool error() override {
    for (auto& x : tiles_)
      if (x->error_o) return true;
    return false;
  }
  void ejects(std::vector<totex::sim::Eject>& out) override {
    for (std::size_t v = 0; v < tiles_.size(); ++v) {
      const Tile& x = *tiles_[v];
      for (int lane = 0; lane < lanes_; ++lane) {
        if (bits(x.eject_valid_o, lane, 1) == 0) continue;
        const int base = lane * mw_;
        out.push_back({static_cast<int>(v) * lanes_ + lane, bits(x.eject_data_o, base + iw_ + pw_, iw_),
                       bits(x.eject_data_o, base + pw_, iw_), bits(x.eject_data_o, base, pw_)});
      }
    }
  }
  int assertion_failures() override { return ctx_.errorCount(); }
  std::uint64_t edges() override { return edges_; }

 private:
  struct End {
    int node = -1, port = 0;  // node -1: nothing (an absent port)
  };
  [[nodiscard]] std::size_t idx(int v, int i, int width = 0) const {
    return static_cast<std::size_t>(v) * static_cast<std::size_t>(width ? width : layout_.ports) + static_cast<std::size_t>(i);
  }
  /// Asleep: quiet_o (rtl/totex_direct_tile.sv), start_i low, no flit and no credit arriving.
  /// With no load-port write for it, its next rising edge changes none of its flip-flops
  /// (rtl/formal/totex_formal_tile_quiet.sv states the same condition as may_skip_o).
  [[nodiscard]] bool asleep(const Tile& x) const {
    if (!x.quiet_o || x.start_i) return false;
    for (int i = 0; i < layout_.ports; ++i)
      if (bits(x.in_valid_i, i, 1) != 0) return false;
    for (int c = 0; c < layout_.ports * layout_.vcs; ++c)
      if (bits(x.out_credit_i, c, 1) != 0) return false;
    return true;
  }
  static constexpr int kEveryTile = -2;
  /// The tile a load-port address is for (docs/load-port.md): its node field, every tile for the
  /// broadcast CONTROL_LAST, -1 for a node field past the last node.
  [[nodiscard]] int write_target(std::uint64_t addr) const {
    using L = totex::DirectLayout;
    const auto [region, node, index] = layout_.fields(addr);
    if (region == L::kRegionControl && index == L::kControlLast) return kEveryTile;
    return node < static_cast<std::uint64_t>(layout_.nodes) ? static_cast<int>(node) : -1;
  }
  [[nodiscard]] bool write_for(const Tile& x, int v) const {
    const int target = write_target(bits(x.cfg_addr_i, 0, layout_.addr_bits));
    return target == v || target == kEveryTile;
  }
  void wake(int v) {
    if (awake_flag_[static_cast<std::size_t>(v)]) return;
    awake_flag_[static_cast<std::size_t>(v)] = 1;
    awake_.push_back(v);
  }
  void mark_stale(int v) {
    if (stale_[static_cast<std::size_t>(v)]) return;
    stale_[static_cast<std::size_t>(v)] = 1;
    stale_list_.push_back(v);
  }
  /// The tiles whose NIC is done, counted again (after evaluations outside evaluate()).
  void recount_done() {
    done_count_ = 0;
    for (std::size_t v = 0; v < tiles_.size(); ++v) {
      done_[v] = tiles_[v]->node_done_o ? 1 : 0;
      done_count_ += done_[v];
    }
  }

  /// Copies every tile's link inputs from its neighbours' outputs (and the all-done AND);
  /// returns whether any input changed.
  bool connect(Tile& x, int v, bool all_done) {
    const int p = layout_.ports, vcs = layout_.vcs;
    bool changed = false;
    for (int i = 0; i < p; ++i) {
      // An absent port reads as the top's spare link: idle, no credits.
      const End up = upstream_[idx(v, i)];
      const Tile* u = up.node < 0 ? nullptr : tiles_[static_cast<std::size_t>(up.node)].get();
      changed |= set_bits(x.in_valid_i, i, 1, u ? bits(u->out_valid_o, up.port, 1) : 0);
      changed |= set_bits(x.in_data_i, i * mw_, mw_, u ? bits(u->out_data_o, up.port * mw_, mw_) : 0);
      changed |= set_bits(x.in_vc_i, i * vw_, vw_, u ? bits(u->out_vc_o, up.port * vw_, vw_) : 0);
      const End down = downstream_[idx(v, i)];
      const Tile* w = down.node < 0 ? nullptr : tiles_[static_cast<std::size_t>(down.node)].get();
      changed |= set_bits(x.out_credit_i, i * vcs, vcs, w ? bits(w->in_credit_o, down.port * vcs, vcs) : 0);
    }
    if (x.all_done_i != (all_done ? 1 : 0)) {
      x.all_done_i = all_done ? 1 : 0;
      changed = true;
    }
    return changed;
  }

  /// The outputs a tile drives onto links and into the all-done AND, as raw bytes.
  template <class F>
  static void for_each_link_output(const Tile& x, F f) {
    f(&x.out_valid_o, sizeof x.out_valid_o);
    f(&x.out_vc_o, sizeof x.out_vc_o);
    f(&x.out_data_o, sizeof x.out_data_o);
    f(&x.in_credit_o, sizeof x.in_credit_o);
    f(&x.node_done_o, sizeof x.node_done_o);
  }

  /// Evaluates tile v (and keeps it awake); returns whether its link outputs changed, and if they
  /// did, marks the tiles that read them (its links' heads for data, their tails for credits) to
  /// be connected and counts its NIC's done again.
  bool evaluate(int v) {
    Tile& x = *tiles_[static_cast<std::size_t>(v)];
    std::size_t at = 0;
    for_each_link_output(x, [&](const void* p, std::size_t n) {
      std::memcpy(before_.data() + at, p, n);
      at += n;
    });
    x.eval();
    at = 0;
    bool moved = false;
    for_each_link_output(x, [&](const void* p, std::size_t n) {
      moved = moved || std::memcmp(before_.data() + at, p, n) != 0;
      at += n;
    });
    wake(v);
    if (!moved) return false;
    for (int i = 0; i < layout_.ports; ++i)
      for (const End e : {downstream_[idx(v, i)], upstream_[idx(v, i)]})
        if (e.node >= 0) mark_stale(e.node);
    const char done = x.node_done_o ? 1 : 0;
    done_count_ += done - done_[static_cast<std::size_t>(v)];
    done_[static_cast<std::size_t>(v)] = done;
    return true;
  }

  /// Evaluates every clocked tile with the clock low, and every tile whose inputs changed (copied
  /// only for the tiles a neighbour's link outputs or the all-done AND changed for: nothing else
  /// can change them, so while the network idles, as during a load, no inputs are copied); if an
  /// evaluation changed a tile's link outputs (an output that follows an input combinationally:
  /// none in the routers, whose link outputs are flip-flops or functions of state, but the
  /// harness does not rely on it), again every tile whose inputs changed, until nothing changes.
  void settle() {
    for (bool first = true;; first = false) {
      const bool all_done = done_count_ == layout_.nodes;
      if (all_done != all_done_) {
        all_done_ = all_done;
        for (int v = 0; v < layout_.nodes; ++v) mark_stale(v);
      }
      visiting_.swap(stale_list_);
      stale_list_.clear();
      bool outputs_changed = false;
      const auto rewire = [&](int v) {  // copies v's inputs if stale; whether they changed
        if (!stale_[static_cast<std::size_t>(v)]) return false;
        stale_[static_cast<std::size_t>(v)] = 0;
        return connect(*tiles_[static_cast<std::size_t>(v)], v, all_done);
      };
      if (first)
        for (const int v : clocked_) {
          rewire(v);
          outputs_changed = evaluate(v) || outputs_changed;
        }
      for (const int v : visiting_)
        if (rewire(v)) outputs_changed = evaluate(v) || outputs_changed;
      if (!outputs_changed) return;
      if (++settle_rounds_ > kMaxSettleRounds * (edges_ + 1))
        throw totex::ToolError("wired RTL build: the network's outputs do not settle (a combinational loop in the model)");
    }
  }

  static constexpr std::uint64_t kMaxSettleRounds = 16;
  totex::DirectLayout layout_;
  VerilatedContext ctx_;
  std::vector<std::unique_ptr<Tile>> tiles_;
  totex::sim::DirectBackdoor backdoor_{layout_, [mode = layout_.params.mode](int v) {
    return "t" + std::to_string(v) + ".totex_direct_tile." +
           (mode == totex::DirectMode::Scheduled ? "gen_scheduled" : "gen_dynamic") + ".u_node.";
  }};
  std::vector<End> upstream_, downstream_;  // [v*P + i]: the output feeding input i; the input output i feeds
  std::array<unsigned char, sizeof(Tile::out_valid_o) + sizeof(Tile::out_vc_o) + sizeof(Tile::out_data_o) +
                                sizeof(Tile::in_credit_o) + sizeof(Tile::node_done_o)>
      before_{};  // one tile's link outputs before its evaluation
  // Per tile, indexed by node: a flag and the list of the flagged tiles (no scan over all N).
  std::vector<char> stale_ = std::vector<char>(static_cast<std::size_t>(layout_.nodes), 0);  // inputs to copy
  std::vector<int> stale_list_, visiting_;
  std::vector<char> awake_flag_ = std::vector<char>(static_cast<std::size_t>(layout_.nodes), 1);  // may be clocked
  std::vector<int> awake_ = [n = layout_.nodes] {
    std::vector<int> all(static_cast<std::size_t>(n));
    for (int v = 0; v < n; ++v) all[static_cast<std::size_t>(v)] = v;
    return all;
  }();
  std::vector<int> clocked_;  // this edge
  std::vector<int> driven_;   // handed the load-port write of this edge
  std::vector<char> done_ = std::vector<char>(static_cast<std::size_t>(layout_.nodes), 0);  // node_done_o
  int done_count_ = 0;
  bool skip_quiet_ = false;  // skip the edges of quiet tiles (off during reset)
  bool all_done_ = false;  // the all-done AND the tiles were last connected with
  std::uint64_t edges_ = 0, settle_rounds_ = 0;
  int lanes_ = 1, mw_ = 1, iw_ = 1, pw_ = 1, vw_ = 1;
};

}  // namespace

int main(int argc, char** argv) {
  return totex::sim::direct_main(argc, argv, "rtl",
                                 [](const totex::Topology& t, const totex::DirectLayout& layout,
                                    const std::string& wave) -> std::unique_ptr<totex::sim::DirectDut> {
                                   if (!wave.empty())
                                     throw totex::UsageError("the wired RTL build does not trace; --wave uses the top's build");
                                   return std::make_unique<WiredDirect>(t, layout);
                                 },
                                 "RTL");
}
