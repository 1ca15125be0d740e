// SPDX-License-Identifier: Apache-2.0
/// The SystemC direct network (sim/systemc/direct_network.hpp) behind the harness's DirectDut
/// interface (sim/direct_run.hpp): `--engine systemc`, and with Verilated routers `--engine cosim`.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "direct_node.hpp"
#include "direct_dyn_node.hpp"
#include "direct_run.hpp"

namespace totex::sim {

/// The pure SystemC models. `wave`: empty or a .vcd file (plus `<wave>.gtkw`).
[[nodiscard]] std::unique_ptr<DirectDut> make_systemc_direct_dut(const Topology& t, const DirectLayout& layout,
                                                                 const std::string& wave);

/// The same network with each node's router made by the factories (a co-simulation's Verilated
/// routers); `engine` names the checks in messages; `other_failures` counts the assertions that
/// fired outside the SystemC models (the Verilated parts); `elaborated` runs right after
/// elaboration, before reset (where Verilated parts open their own trace).
[[nodiscard]] std::unique_ptr<DirectDut> make_direct_dut(const Topology& t, const DirectLayout& layout,
                                                         const std::string& wave, const std::string& engine,
                                                         DirectRouterFactory router, DirectDynRouterFactory dyn_router,
                                                         std::function<int()> other_failures = {},
                                                         const std::function<void()>& elaborated = {});

}  // namespace totex::sim
