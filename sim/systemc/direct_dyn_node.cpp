// SPDX-License-Identifier: Apache-2.0
#include "direct_dyn_node.hpp"

#include "direct_dyn_router.hpp"

namespace totex::sim {

namespace {
std::size_t at(int i) { return static_cast<std::size_t>(i); }
}  // namespace

DirectDynNode::DirectDynNode(const sc_core::sc_module_name& name, const DirectLayout& l, const DirectRoutes& r,
                             int node, int deg, DirectBus& b, const Links& ln, DirectChecks& c,
                             const DirectDynRouterFactory& router)
    : sc_module(name),
      layout(l),
      routes(r),
      id(node),
      degree(deg),
      bus(b),
      checks(c),
      links(ln),
      inj_valid("inj_valid"),
      inj_data("inj_data"),
      inj_ready("inj_ready"),
      ej_valid("ej_valid"),
      ej_data("ej_data"),
      done("done"),
      router_error("router_error"),
      nic_error("nic_error"),
      occupancy("occupancy"),
      sent_count("sent_count"),
      recv_count("recv_count"),
      zero_valid_("zero_valid"),
      zero_vc_("zero_vc"),
      zero_data_("zero_data"),
      zero_credit_("zero_credit"),
      open_valid_("open_valid", at(l.ports - deg)),
      open_vc_("open_vc", at(l.ports - deg)),
      open_data_("open_data", at(l.ports - deg)),
      open_credit_("open_credit", at(l.ports - deg)),
      nic_("nic", l, node, c) {
  links.in_valid.resize(at(l.ports), &zero_valid_);
  links.in_vc.resize(at(l.ports), &zero_vc_);
  links.in_data.resize(at(l.ports), &zero_data_);
  links.out_credit.resize(at(l.ports), &zero_credit_);
  for (int p = deg; p < l.ports; ++p) {
    links.out_valid.push_back(&open_valid_[at(p - deg)]);
    links.out_vc.push_back(&open_vc_[at(p - deg)]);
    links.out_data.push_back(&open_data_[at(p - deg)]);
    links.in_credit.push_back(&open_credit_[at(p - deg)]);
  }
  nic_.clk(bus.clk);
  nic_.clear(bus.clear);
  nic_.active(bus.busy);
  nic_.cfg_we(bus.cfg_we);
  nic_.cfg_addr(bus.cfg_addr);
  nic_.cfg_data(bus.cfg_data);
  nic_.inj_valid(inj_valid);
  nic_.inj_data(inj_data);
  nic_.inj_ready(inj_ready);
  nic_.ej_valid(ej_valid);
  nic_.ej_data(ej_data);
  nic_.done(done);
  nic_.error(nic_error);
  nic_.sent_count(sent_count);
  nic_.recv_count(recv_count);
  router_ = router(*this);
}

std::unique_ptr<sc_core::sc_module> make_systemc_dyn_router(DirectDynNode& node) {
  auto r = std::make_unique<DirectDynRouter>("router", node.layout, node.routes, node.id, node.degree, node.checks);
  r->clk(node.bus.clk);
  r->clear(node.bus.clear);
  for (int i = 0; i < node.layout.ports; ++i) {
    const auto u = at(i);
    r->in_valid[u](*node.links.in_valid[u]);
    r->in_vc[u](*node.links.in_vc[u]);
    r->in_data[u](*node.links.in_data[u]);
    r->in_credit[u](*node.links.in_credit[u]);
    r->out_valid[u](*node.links.out_valid[u]);
    r->out_vc[u](*node.links.out_vc[u]);
    r->out_data[u](*node.links.out_data[u]);
    r->out_credit[u](*node.links.out_credit[u]);
  }
  r->inj_valid(node.inj_valid);
  r->inj_data(node.inj_data);
  r->inj_ready(node.inj_ready);
  r->ej_valid(node.ej_valid);
  r->ej_data(node.ej_data);
  r->error(node.router_error);
  r->occupancy(node.occupancy);
  return r;
}

}  // namespace totex::sim
