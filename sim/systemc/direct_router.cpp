// SPDX-License-Identifier: Apache-2.0
#include "direct_router.hpp"

namespace totex::sim {

DirectRouter::DirectRouter(const sc_core::sc_module_name& name, const DirectLayout& layout, int node, int degree,
                           DirectChecks& checks)
    : sc_module(name),
      in_valid("in_valid", static_cast<std::size_t>(layout.ports)),
      in_data("in_data", static_cast<std::size_t>(layout.ports)),
      act("act", static_cast<std::size_t>(layout.ports)),
      lane_valid("lane_valid", static_cast<std::size_t>(layout.lanes)),
      lane_port("lane_port", static_cast<std::size_t>(layout.lanes)),
      lane_data("lane_data", static_cast<std::size_t>(layout.lanes)),
      out_valid("out_valid", static_cast<std::size_t>(layout.ports)),
      out_data("out_data", static_cast<std::size_t>(layout.ports)),
      eject("eject", static_cast<std::size_t>(layout.ports)),
      model_(layout.params.model),
      node_(node),
      ports_(layout.ports),
      degree_(degree),
      checks_(checks),
      next_valid_(static_cast<std::size_t>(layout.ports), 0),
      next_data_(static_cast<std::size_t>(layout.ports), 0) {
  SC_METHOD(decide);
  sensitive << active;
  for (auto& p : in_valid) sensitive << p;
  for (auto& p : in_data) sensitive << p;
  for (auto& p : act) sensitive << p;
  for (auto& p : lane_valid) sensitive << p;
  for (auto& p : lane_port) sensitive << p;
  for (auto& p : lane_data) sensitive << p;
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

void DirectRouter::decide() {
  const bool on = active.read();
  const auto P = static_cast<std::size_t>(ports_);
  std::fill(next_valid_.begin(), next_valid_.end(), 0);
  std::fill(next_data_.begin(), next_data_.end(), 0);
  faults_.clear();
  int sends = 0, receives = 0, ejects = 0, stores = 0;
  std::uint64_t stored = 0;
  bool store_seen = false;
  std::vector<int> drivers(P, 0);
  auto drive = [&](int o, std::uint64_t m) {
    const auto u = static_cast<std::size_t>(o);
    ++drivers[u];
    next_valid_[u] = 1;
    next_data_[u] |= m;  // two drivers: the wires OR, and the check below fires
    ++sends;
  };
  for (std::size_t i = 0; i < P; ++i) {
    const bool valid = in_valid[i].read();
    const int a = on ? act[i].read() : DirectLayout::kActNone;
    receives += valid ? 1 : 0;
    bool ej = false;
    if (a == DirectLayout::kActNone) {
      if (valid) faults_.push_back("message dropped on input " + std::to_string(i));
    } else {
      if (!valid) faults_.push_back("action " + std::to_string(a) + " on empty input " + std::to_string(i));
      if (a == DirectLayout::kActEject) {
        ej = valid;
        ejects += valid ? 1 : 0;
      } else if (a == DirectLayout::kActStore) {
        ++stores;
        stored |= in_data[i].read();
        store_seen = store_seen || valid;
      } else {
        const int o = a - DirectLayout::kActForward;
        if (o >= degree_) faults_.push_back("input " + std::to_string(i) + " forwarded to port " + std::to_string(o) + ", which has no link");
        else drive(o, in_data[i].read());
      }
    }
    eject[i].write(ej);
  }
  for (std::size_t l = 0; l < lane_valid.size(); ++l) {
    if (!on || !lane_valid[l].read()) continue;
    const int o = lane_port[l].read();
    if (o < 0 || o >= degree_) {
      faults_.push_back("lane " + std::to_string(l) + " injects on port " + std::to_string(o) + ", which has no link");
      ++sends;
    } else {
      drive(o, lane_data[l].read());
    }
  }
  for (std::size_t o = 0; o < P; ++o)
    if (drivers[o] > 1) faults_.push_back("link driven twice (output " + std::to_string(o) + ")");
  if (model_ == Model::SinglePort && sends > 1) faults_.push_back("single-port: sends more than one message");
  if (model_ == Model::SinglePort && receives > 1) faults_.push_back("single-port: receives more than one message");
  if (model_ != Model::SinglePort && stores > 0) faults_.push_back("store without a relay buffer (" + to_string(model_) + ")");
  if (model_ == Model::Nic && ejects > 1) faults_.push_back("nic: ejects more than one message");
  if (stores > 1) faults_.push_back("more than one store");
  store_valid.write(store_seen);
  store_data.write(stored);
}

void DirectRouter::on_clock() {
  if (clear.read()) {
    for (std::size_t o = 0; o < out_valid.size(); ++o) out_valid[o].write(false);
    error.write(false);
    return;
  }
  for (std::size_t o = 0; o < out_valid.size(); ++o) {
    out_valid[o].write(next_valid_[o] != 0);
    out_data[o].write(next_data_[o]);
  }
  if (!faults_.empty()) {
    for (const std::string& f : faults_)
      checks_.fail("router: node " + std::to_string(node_) + " step " + std::to_string(step.read()) + ": " + f);
    error.write(true);
  }
}

}  // namespace totex::sim
