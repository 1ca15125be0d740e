// SPDX-License-Identifier: Apache-2.0
#include "direct_ctrl.hpp"

namespace totex::sim {

DirectCtrl::DirectCtrl(const sc_core::sc_module_name& name, const DirectLayout& layout, DirectChecks& checks)
    : sc_module(name),
      layout_(layout),
      checks_(checks),
      dynamic_(layout.params.mode == DirectMode::Dynamic),
      step_max_(static_cast<int>(low_mask(layout.step_bits))),
      last_("last") {
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
  SC_METHOD(decide);
  sensitive << start << busy << step << all_done << last_;
}

void DirectCtrl::decide() {
  clear.write(start.read() && !busy.read());
  done.write(busy.read() && (dynamic_ ? all_done.read() : step.read() == last_.read()));
}

void DirectCtrl::on_clock() {
  // Inputs read here hold their values from before the edge.
  if (start.read() && busy.read()) checks_.fail("controller: start while busy (ignored)");
  if (cfg_we.read()) {
    const LoadAddress a = layout_.fields(cfg_addr.read());
    if (a.region == DirectLayout::kRegionControl && a.index == DirectLayout::kControlLast)
      last_.write(static_cast<int>(cfg_data.read() & low_mask(layout_.step_bits)));
  }
  if (clear.read()) {
    busy.write(true);
    step.write(0);
  } else if (busy.read()) {
    if (done.read()) busy.write(false);
    else if (step.read() != step_max_) step.write(step.read() + 1);
  }
}

}  // namespace totex::sim
