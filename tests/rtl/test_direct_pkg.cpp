// SPDX-License-Identifier: Apache-2.0
// The hardware interface has one definition, rtl/totex_direct_pkg.sv. This test Verilates the package
// (tb_direct_pkg_wrap) and compares every constant and every width function with the C++ side,
// totex::DirectLayout, for many topologies and parameter sets: if someone changes a field width or a
// code in the package and the C++ layout does not follow, `ctest -R rtl.direct_pkg` fails here,
// before any network is built.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "Vtb_direct_pkg_wrap.h"
#include "totex/direct_controller.hpp"
#include "totex/network/spec.hpp"

namespace {

using totex::DirectLayout;

struct Package {
  Package() : ctx(std::make_unique<VerilatedContext>()), top(std::make_unique<Vtb_direct_pkg_wrap>(ctx.get(), "top")) {}
  ~Package() { top->final(); }
  Package(const Package&) = delete;
  Package& operator=(const Package&) = delete;
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vtb_direct_pkg_wrap> top;
};

/// Drives the layout's parameters into the package's width functions and compares each result.
void check_widths(Package& pkg, const DirectLayout& l) {
  auto& t = *pkg.top;
  const bool dynamic = l.params.mode == totex::DirectMode::Dynamic;
  t.nodes_i = static_cast<std::uint32_t>(l.nodes);
  t.ports_i = static_cast<std::uint32_t>(l.ports);
  t.model_i = static_cast<std::uint32_t>(l.params.model);
  t.buf_slots_i = static_cast<std::uint32_t>(l.params.buffer_slots);
  t.flits_i = static_cast<std::uint32_t>(l.params.flits);
  t.depth_i = static_cast<std::uint32_t>(l.params.depth);
  t.payload_w_i = static_cast<std::uint32_t>(l.params.payload_bits);
  t.dynamic_i = dynamic ? 1 : 0;
  t.eval();
  INFO(l.spec << (dynamic ? " dynamic" : " scheduled " + totex::to_string(l.params.model)) << " depth "
              << l.params.depth << " buffer " << l.params.buffer_slots << " flits " << l.params.flits);
  CHECK(t.node_w_o == static_cast<std::uint32_t>(l.node_bits));
  CHECK(t.msg_w_o == static_cast<std::uint32_t>(l.msg_bits));
  CHECK(t.lanes_o == static_cast<std::uint32_t>(l.lanes));
  CHECK(t.act_w_o == static_cast<std::uint32_t>(l.act_bits));
  CHECK(t.route_w_o == static_cast<std::uint32_t>(l.route_bits));
  CHECK(t.own_slots_o == static_cast<std::uint32_t>(l.own_slots));
  CHECK(t.slot_w_o == static_cast<std::uint32_t>(l.slot_bits));
  CHECK(t.buffer_w_o == static_cast<std::uint32_t>(l.buffer_bits));
  CHECK(t.entry_w_o == static_cast<std::uint32_t>(l.entry_bits));
  CHECK(t.entry_words_o == static_cast<std::uint32_t>(l.words));
  CHECK(t.word_w_o == static_cast<std::uint32_t>(l.word_bits));
  CHECK(t.step_w_o == static_cast<std::uint32_t>(l.step_bits));
  CHECK(t.index_w_o == static_cast<std::uint32_t>(l.index_bits));
  CHECK(t.addr_w_o == static_cast<std::uint32_t>(l.addr_bits));
}

}  // namespace

TEST_CASE("direct package: every code and field width the C++ side uses", "[direct_pkg]") {
  Package pkg;
  auto& t = *pkg.top;
  t.eval();
  namespace rtl = totex::rtl::totex_direct_pkg;  // generated from the package at build time
  CHECK(t.region_w_o == DirectLayout::kRegionBits);
  CHECK(t.load_data_w_o == DirectLayout::kWordBits);
  CHECK(t.region_table_o == DirectLayout::kRegionTable);
  CHECK(t.region_messages_o == DirectLayout::kRegionMessages);
  CHECK(t.region_control_o == DirectLayout::kRegionControl);
  CHECK(t.control_last_o == DirectLayout::kControlLast);
  CHECK(t.control_send_count_o == DirectLayout::kControlSendCount);
  CHECK(t.control_recv_count_o == DirectLayout::kControlRecvCount);
  CHECK(t.act_none_o == DirectLayout::kActNone);
  CHECK(t.act_eject_o == DirectLayout::kActEject);
  CHECK(t.act_store_o == DirectLayout::kActStore);
  CHECK(t.act_forward_o == DirectLayout::kActForward);
  CHECK(t.route_idle_o == DirectLayout::kRouteIdle);
  CHECK(t.route_port0_o == DirectLayout::kRoutePort0);
  CHECK(t.topo_link_w_o == rtl::TOPO_LINK_W);
  CHECK(t.topo_port_w_o == rtl::TOPO_PORT_W);
  CHECK(t.model_single_port_o == static_cast<std::uint32_t>(totex::Model::SinglePort));
  CHECK(t.model_all_port_o == static_cast<std::uint32_t>(totex::Model::AllPort));
  CHECK(t.model_nic_o == static_cast<std::uint32_t>(totex::Model::Nic));
}

TEST_CASE("direct package: width functions = DirectLayout on many networks and parameter sets", "[direct_pkg]") {
  Package pkg;
  for (const char* spec : {"ring:2", "ring:7", "path:5", "hypercube:3", "hypercube:6", "torus:4x4", "torus:3x5",
                           "torus:8x8", "torus:3x3x3", "ghc:3x4", "metacube:2,1", "torus:6x6@linear",
                           "complete:9", "torus:16x16"}) {
    const totex::Topology topo = totex::parse_topology(spec);
    for (const totex::Model model : {totex::Model::SinglePort, totex::Model::AllPort, totex::Model::Nic})
      for (const int depth : {2, 16, 64, 1024})
        for (const int buffer : {0, 1, 5, 64})
          for (const int flits : {1, 2, 3, 8}) {  // multi-flit traffic: own slots {flit, dst}
            totex::DirectParams p;
            p.model = model;
            p.depth = depth;
            p.buffer_slots = buffer;
            p.flits = flits;
            check_widths(pkg, DirectLayout(topo, p));
          }
    totex::DirectParams dyn;
    dyn.mode = totex::DirectMode::Dynamic;
    check_widths(pkg, DirectLayout(topo, dyn));
  }
}
