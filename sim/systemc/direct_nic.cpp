// SPDX-License-Identifier: Apache-2.0
#include "direct_nic.hpp"

#include <algorithm>

namespace totex::sim {

DirectNic::DirectNic(const sc_core::sc_module_name& name, const DirectLayout& layout, int node, DirectChecks& checks)
    : sc_module(name),
      lane_valid("lane_valid", static_cast<std::size_t>(layout.lanes)),
      lane_slot("lane_slot", static_cast<std::size_t>(layout.lanes)),
      lane_data("lane_data", static_cast<std::size_t>(layout.lanes)),
      eject("eject", static_cast<std::size_t>(layout.ports)),
      in_data("in_data", static_cast<std::size_t>(layout.ports)),
      layout_(layout),
      fmt_{layout.node_bits, layout.params.payload_bits},
      node_(node),
      n_(layout.nodes),
      own_(layout.own_slots),
      slots_(layout.params.buffer_slots),
      checks_(checks),
      payload_(static_cast<std::size_t>(layout.own_slots), 0),
      sent_(static_cast<std::size_t>(layout.own_slots), 0),
      buffer_(static_cast<std::size_t>(std::max(1, slots_)), 0),
      full_(static_cast<std::size_t>(std::max(1, slots_)), 0) {
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
  SC_METHOD(read_lanes);
  sensitive << changed_;
  for (auto& p : lane_valid) sensitive << p;
  for (auto& p : lane_slot) sensitive << p;
}

void DirectNic::fail(const std::string& what) {
  checks_.fail("nic: node " + std::to_string(node_) + " step " + std::to_string(step.read()) + ": " + what);
}

void DirectNic::read_lanes() {
  for (std::size_t l = 0; l < lane_data.size(); ++l) {
    std::uint64_t m = 0;
    const int slot = lane_slot[l].read();
    if (lane_valid[l].read()) {
      if (slot >= 0 && slot < own_)  // own flit {flit, dst}: the destination is the low node bits
        m = fmt_.pack(static_cast<std::uint64_t>(node_), static_cast<std::uint64_t>(dst_of(slot)),
                      payload_[static_cast<std::size_t>(slot)]);
      else if (slot - own_ >= 0 && slot - own_ < slots_)
        m = buffer_[static_cast<std::size_t>(slot - own_)];
    }
    lane_data[l].write(m);
  }
}

bool DirectNic::store(const LoadAddress& a, std::uint64_t data) {
  if (a.region != DirectLayout::kRegionMessages || a.node != static_cast<std::uint64_t>(node_) ||
      a.index >= static_cast<std::uint64_t>(own_))
    return false;
  payload_[a.index] = fmt_.payload(data);
  changed_.notify(sc_core::SC_ZERO_TIME);
  return true;
}

void DirectNic::on_clock() {
  if (cfg_we.read()) (void)store(layout_.fields(cfg_addr.read()), cfg_data.read());
  if (clear.read()) {
    std::fill(sent_.begin(), sent_.end(), 0);
    std::fill(full_.begin(), full_.end(), 0);
    error.write(false);
    occupancy.write(0);
    recv_count.write(0);
    changed_.notify(sc_core::SC_ZERO_TIME);
    return;
  }
  bool bad = false;
  // Lane reads: own messages once each, buffer entries only when full (and then freed).
  std::vector<int> freed;
  for (std::size_t l = 0; l < lane_valid.size(); ++l) {
    if (!lane_valid[l].read()) continue;
    const int slot = lane_slot[l].read();
    if (slot >= 0 && slot < own_) {
      char& s = sent_[static_cast<std::size_t>(slot)];
      const int dst = dst_of(slot), flit = slot >> layout_.node_bits;
      const std::string what = "the message for " + std::to_string(dst) + (own_ > n_ ? " (flit " + std::to_string(flit) + ")" : "");
      if (dst == node_) { fail("lane " + std::to_string(l) + " sends the node's message to itself"); bad = true; }
      else if (dst >= n_) { fail("lane " + std::to_string(l) + " reads own slot " + std::to_string(slot) + ", destination " + std::to_string(dst) + " does not exist"); bad = true; }
      else if (s) { fail("lane " + std::to_string(l) + " sends " + what + " again"); bad = true; }
      s = 1;
    } else if (slot - own_ >= 0 && slot - own_ < slots_) {
      if (!full_[static_cast<std::size_t>(slot - own_)]) {
        fail("lane " + std::to_string(l) + " reads empty relay-buffer entry " + std::to_string(slot - own_));
        bad = true;
      }
      freed.push_back(slot - own_);
    } else {
      fail("lane " + std::to_string(l) + " reads slot " + std::to_string(slot) + ", which does not exist");
      bad = true;
    }
  }
  for (const int j : freed) full_[static_cast<std::size_t>(j)] = 0;
  if (store_valid.read()) {
    const int j = store_entry.read();
    if (j < 0 || j >= slots_) {
      fail("store into relay-buffer entry " + std::to_string(j) + ", which does not exist");
      bad = true;
    } else {
      if (full_[static_cast<std::size_t>(j)]) { fail("store into full relay-buffer entry " + std::to_string(j)); bad = true; }
      full_[static_cast<std::size_t>(j)] = 1;
      buffer_[static_cast<std::size_t>(j)] = store_data.read();
    }
  }
  int received = 0;
  for (std::size_t i = 0; i < eject.size(); ++i) {
    if (!eject[i].read()) continue;
    ++received;
    const std::uint64_t dst = fmt_.dst(in_data[i].read());
    if (dst != static_cast<std::uint64_t>(node_)) {
      fail("input " + std::to_string(i) + " ejects a message for node " + std::to_string(dst));
      bad = true;
    }
  }
  if (bad) error.write(true);
  if (received > 0) recv_count.write(recv_count.read() + received);
  occupancy.write(static_cast<int>(std::count(full_.begin(), full_.begin() + slots_, 1)));
  if (!freed.empty() || store_valid.read()) changed_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace totex::sim
