// SPDX-License-Identifier: Apache-2.0
#include "direct_node.hpp"

#include "direct_router.hpp"

namespace totex::sim {

namespace {
std::size_t at(int i) { return static_cast<std::size_t>(i); }
}  // namespace

DirectNode::DirectNode(const sc_core::sc_module_name& name, const DirectLayout& l, int node, int deg, DirectBus& b,
                       const Links& ln, DirectChecks& c, const DirectRouterFactory& router)
    : sc_module(name),
      layout(l),
      id(node),
      degree(deg),
      bus(b),
      checks(c),
      links(ln),
      act("act", at(l.ports)),
      lane_valid("lane_valid", at(l.lanes)),
      lane_port("lane_port", at(l.lanes)),
      lane_slot("lane_slot", at(l.lanes)),
      store_entry("store_entry"),
      lane_data("lane_data", at(l.lanes)),
      eject("eject", at(l.ports)),
      store_valid("store_valid"),
      store_data("store_data"),
      router_error("router_error"),
      nic_error("nic_error"),
      occupancy("occupancy"),
      recv_count("recv_count"),
      zero_valid_("zero_valid"),
      zero_data_("zero_data"),
      open_valid_("open_valid", at(l.ports - deg)),
      open_data_("open_data", at(l.ports - deg)),
      mem_("schedule_mem", l, node),
      nic_("nic", l, node, c) {
  links.in_valid.resize(at(l.ports), &zero_valid_);
  links.in_data.resize(at(l.ports), &zero_data_);
  for (int p = deg; p < l.ports; ++p) {
    links.out_valid.push_back(&open_valid_[at(p - deg)]);
    links.out_data.push_back(&open_data_[at(p - deg)]);
  }
  mem_.clk(bus.clk);
  mem_.cfg_we(bus.cfg_we);
  mem_.cfg_addr(bus.cfg_addr);
  mem_.cfg_data(bus.cfg_data);
  mem_.step(bus.step);
  mem_.active(bus.busy);
  mem_.act(act);
  mem_.lane_valid(lane_valid);
  mem_.lane_port(lane_port);
  mem_.lane_slot(lane_slot);
  mem_.store_entry(store_entry);

  nic_.clk(bus.clk);
  nic_.clear(bus.clear);
  nic_.cfg_we(bus.cfg_we);
  nic_.cfg_addr(bus.cfg_addr);
  nic_.cfg_data(bus.cfg_data);
  nic_.step(bus.step);
  nic_.lane_valid(lane_valid);
  nic_.lane_slot(lane_slot);
  nic_.lane_data(lane_data);
  nic_.store_valid(store_valid);
  nic_.store_entry(store_entry);
  nic_.store_data(store_data);
  nic_.eject(eject);
  for (int i = 0; i < l.ports; ++i) nic_.in_data[at(i)](*links.in_data[at(i)]);
  nic_.error(nic_error);
  nic_.occupancy(occupancy);
  nic_.recv_count(recv_count);

  router_ = router(*this);
}

std::unique_ptr<sc_core::sc_module> make_systemc_router(DirectNode& node) {
  auto r = std::make_unique<DirectRouter>("router", node.layout, node.id, node.degree, node.checks);
  r->clk(node.bus.clk);
  r->clear(node.bus.clear);
  r->active(node.bus.busy);
  r->step(node.bus.step);
  for (int i = 0; i < node.layout.ports; ++i) {
    r->in_valid[at(i)](*node.links.in_valid[at(i)]);
    r->in_data[at(i)](*node.links.in_data[at(i)]);
    r->out_valid[at(i)](*node.links.out_valid[at(i)]);
    r->out_data[at(i)](*node.links.out_data[at(i)]);
  }
  r->act(node.act);
  r->lane_valid(node.lane_valid);
  r->lane_port(node.lane_port);
  r->lane_data(node.lane_data);
  r->eject(node.eject);
  r->store_valid(node.store_valid);
  r->store_data(node.store_data);
  r->error(node.router_error);
  return r;
}

}  // namespace totex::sim
