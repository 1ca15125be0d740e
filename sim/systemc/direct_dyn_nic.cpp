// SPDX-License-Identifier: Apache-2.0
#include "direct_dyn_nic.hpp"

namespace totex::sim {

DirectDynNic::DirectDynNic(const sc_core::sc_module_name& name, const DirectLayout& layout, int node,
                           DirectChecks& checks)
    : sc_module(name),
      layout_(layout),
      fmt_{layout.node_bits, layout.params.payload_bits},
      node_(node),
      checks_(checks),
      queue_(static_cast<std::size_t>(direct_queue_slots(layout)), 0) {  // (N - 1) x the heaviest pair's flits
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

bool DirectDynNic::store(const LoadAddress& a, std::uint64_t data) {
  if (a.node != static_cast<std::uint64_t>(node_)) return false;
  if (a.region == DirectLayout::kRegionMessages && a.index < queue_.size()) {
    queue_[a.index] = data & low_mask(layout_.node_bits + layout_.params.payload_bits);
    return true;
  }
  if (a.region == DirectLayout::kRegionControl && a.index == DirectLayout::kControlSendCount) {
    send_ = std::min<std::size_t>(data, queue_.size());
    return true;
  }
  if (a.region == DirectLayout::kRegionControl && a.index == DirectLayout::kControlRecvCount) {
    recv_target_ = data;
    return true;
  }
  return false;
}

void DirectDynNic::on_clock() {
  if (cfg_we.read()) (void)store(layout_.fields(cfg_addr.read()), cfg_data.read());
  bool running = active.read();
  if (clear.read()) {
    sent_ = received_ = 0;
    error.write(false);
    running = true;  // busy from the next cycle on
  } else {
    if (inj_valid.read() && inj_ready.read()) ++sent_;
    if (ej_valid.read()) {
      const std::uint64_t dst = fmt_.dst(ej_data.read());
      if (dst != static_cast<std::uint64_t>(node_)) {
        checks_.fail("dynamic nic: node " + std::to_string(node_) + ": ejected a message for node " + std::to_string(dst));
        error.write(true);
      }
      if (received_ == recv_target_) {
        checks_.fail("dynamic nic: node " + std::to_string(node_) + ": more messages than expected");
        error.write(true);
      }
      ++received_;
    }
  }
  const bool offer = running && sent_ < send_;
  inj_valid.write(offer);
  if (offer) {
    const std::uint64_t e = queue_[sent_];
    inj_data.write(fmt_.pack(static_cast<std::uint64_t>(node_), e >> layout_.params.payload_bits, e));
  }
  done.write(sent_ == send_ && received_ == recv_target_);
  sent_count.write(static_cast<int>(sent_));
  recv_count.write(static_cast<int>(received_));
}

}  // namespace totex::sim
