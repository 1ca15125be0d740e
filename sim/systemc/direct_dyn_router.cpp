// SPDX-License-Identifier: Apache-2.0
#include "direct_dyn_router.hpp"

namespace totex::sim {

namespace {
std::size_t at(int i) { return static_cast<std::size_t>(i); }
}  // namespace

DirectDynRouter::DirectDynRouter(const sc_core::sc_module_name& name, const DirectLayout& layout,
                                 const DirectRoutes& routes, int node, int degree, DirectChecks& checks)
    : sc_module(name),
      in_valid("in_valid", at(layout.ports)),
      in_vc("in_vc", at(layout.ports)),
      in_data("in_data", at(layout.ports)),
      in_credit("in_credit", at(layout.ports)),
      out_valid("out_valid", at(layout.ports)),
      out_vc("out_vc", at(layout.ports)),
      out_data("out_data", at(layout.ports)),
      out_credit("out_credit", at(layout.ports)),
      fmt_{layout.node_bits, layout.params.payload_bits},
      node_(node),
      nodes_(layout.nodes),
      ports_(layout.ports),
      degree_(degree),
      vcs_(layout.vcs),
      adaptive_vcs_(layout.adaptive_vcs),
      depth_(at(layout.params.fifo_depth)),
      out_port_(routes.out_port[at(node)]),
      port_dim_(routes.port_dim[at(node)]),
      dateline_(routes.dateline[at(node)]),
      minimal_(routes.minimal[at(node)]),
      checks_(checks),
      fifo_(at((layout.ports + 1) * layout.vcs)),
      credit_(at(layout.ports * layout.vcs), depth_),
      pointer_(at(layout.ports + 1), 0) {
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

void DirectDynRouter::fail(const std::string& what) {
  checks_.fail("dynamic router: node " + std::to_string(node_) + ": " + what);
  error.write(true);
}

void DirectDynRouter::reset() {
  for (auto& f : fifo_) f.clear();
  std::fill(credit_.begin(), credit_.end(), depth_);
  std::fill(pointer_.begin(), pointer_.end(), 0);
  for (int o = 0; o < ports_; ++o) {
    out_valid[at(o)].write(false);
    in_credit[at(o)].write(0);
  }
  ej_valid.write(false);
  inj_ready.write(true);
  error.write(false);
  occupancy.write(0);
}

void DirectDynRouter::on_clock() {
  if (clear.read()) {
    reset();
    return;
  }
  const auto V = at(vcs_);
  // 1. Arrivals: the flits on the input links, and the NIC's offer if it was accepted.
  for (int i = 0; i < ports_; ++i) {
    if (!in_valid[at(i)].read()) continue;
    const int v = in_vc[at(i)].read();
    if (i >= degree_ || v < 0 || v >= vcs_) {
      fail("flit on input " + std::to_string(i) + " VC " + std::to_string(v) + ", which does not exist");
      continue;
    }
    auto& f = fifo_[at(i) * V + at(v)];
    if (f.size() >= depth_) fail("FIFO overflow on input " + std::to_string(i) + " VC " + std::to_string(v) + " (credit protocol broken)");
    else f.push_back(in_data[at(i)].read());
  }
  auto& inject = fifo_[at(ports_) * V];
  if (inj_valid.read() && inj_ready.read()) inject.push_back(inj_data.read());
  // 2. Credits returned by the downstream routers.
  for (int o = 0; o < degree_; ++o) {
    const std::uint32_t c = out_credit[at(o)].read();
    for (std::size_t v = 0; v < V; ++v)
      if ((c >> v) & 1U) {
        std::size_t& k = credit_[at(o) * V + v];
        if (k >= depth_) fail("credit for output " + std::to_string(o) + " above the FIFO depth");
        else ++k;
      }
  }
  // 3. Output and VC of every FIFO head; eligible when the next hop has a credit (eject always).
  const std::size_t R = fifo_.size();
  const int escape_vcs = vcs_ - adaptive_vcs_;
  std::vector<int> want(R, -1), next_vc(R, 0);
  for (std::size_t r = 0; r < R; ++r) {
    if (fifo_[r].empty()) continue;
    const int i = static_cast<int>(r / V);
    const int v = static_cast<int>(r % V);
    const auto dst = fmt_.dst(fifo_[r].front());
    if (dst >= static_cast<std::uint64_t>(nodes_)) {
      fail("message for node " + std::to_string(dst) + ", which does not exist");
      continue;
    }
    const int o = out_port_[dst];
    if (o == ports_) {
      want[r] = o;
      continue;
    }
    if (o >= degree_) {
      fail("no route to node " + std::to_string(dst));
      continue;
    }
    const bool on_escape = i < ports_ && v < escape_vcs;  // the inject FIFO and adaptive VCs are not
    // Adaptive: the best (output, VC) pair on a shortest path.
    int best_out = -1, best_vc = 0;
    std::size_t best_key = 0;
    if (adaptive_vcs_ > 0 && !on_escape)
      for (int p = 0; p < degree_; ++p) {
        if (!minimal_[at(static_cast<int>(dst)) * at(ports_) + at(p)]) continue;
        for (int a = escape_vcs; a < vcs_; ++a) {
          const std::size_t c = credit_[at(p) * V + at(a)];
          const std::size_t key = c == 0 ? 0 : c + (p == o ? depth_ + 1 : 0);
          if (key > best_key) {
            best_key = key;
            best_out = p;
            best_vc = a;
          }
        }
      }
    if (best_out < 0) {  // the escape VC of the dimension-order output
      int vc = 0;
      if (on_escape && port_dim_[at(i)] == port_dim_[at(o)]) vc = v;  // stays in the dimension
      if (escape_vcs > 1 && dateline_[at(o)]) vc = escape_vcs - 1;
      if (credit_[at(o) * V + at(vc)] == 0) continue;
      best_out = o;
      best_vc = vc;
    }
    want[r] = best_out;
    next_vc[r] = best_vc;
  }
  // 4. One grant per output, round robin over the requesters.
  std::vector<std::uint32_t> freed(at(ports_), 0);
  bool ejected = false;
  for (int o = 0; o <= ports_; ++o) {
    std::size_t& ptr = pointer_[at(o)];
    std::size_t pick = R;
    for (std::size_t k = 0; k < R && pick == R; ++k) {
      const std::size_t r = (ptr + k) % R;
      if (want[r] == o) pick = r;
    }
    if (pick == R) {
      if (o < ports_) out_valid[at(o)].write(false);
      continue;
    }
    ptr = (pick + 1) % R;
    const std::uint64_t m = fifo_[pick].front();
    fifo_[pick].pop_front();
    const int i = static_cast<int>(pick / V);
    if (i < ports_) freed[at(i)] |= 1U << (pick % V);
    if (o == ports_) {
      ejected = true;
      ej_data.write(m);
    } else {
      out_valid[at(o)].write(true);
      out_vc[at(o)].write(next_vc[pick]);
      out_data[at(o)].write(m);
      --credit_[at(o) * V + at(next_vc[pick])];
    }
  }
  ej_valid.write(ejected);
  for (int i = 0; i < ports_; ++i) in_credit[at(i)].write(freed[at(i)]);
  inj_ready.write(inject.size() < depth_);
  std::size_t held = 0;
  for (const auto& f : fifo_) held += f.size();
  occupancy.write(static_cast<int>(held));
}

}  // namespace totex::sim
