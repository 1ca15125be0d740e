// SPDX-License-Identifier: Apache-2.0
/// The single-port NIC of one MIN terminal as a SystemC model (paper 002's two phases). Send side:
/// in phase 0 the NIC injects its label {src = id, dst = 0, seq = x, payload = id} in every step
/// x; in phase 1 slot x of its send queue, {idle, dst, payload}, unless idle. Receive side: every
/// message must be for this terminal (phase 1) or a well-formed label (phase 0), carry the step the
/// network carried it with, and come from a source not seen before in the run (when `unique`).
#pragma once
#include <systemc>

#include <string>
#include <vector>

#include "min_ports.hpp"
#include "model_check.hpp"
#include "totex/min_controller.hpp"

namespace totex::sim {

class MinNic : public MinNicPorts {
 public:
  MinNic(const sc_core::sc_module_name& name, int id, int terminals, const MinPortLayout& layout, int max_steps)
      : MinNicPorts(name), id_(static_cast<std::uint32_t>(id)), n_(terminals), layout_(layout),
        queue_(static_cast<std::size_t>(max_steps)), seen_(static_cast<std::size_t>(terminals), false) {
    SC_HAS_PROCESS(MinNic);
    SC_METHOD(edge);
    sensitive << clk.pos();
    dont_initialize();
    SC_METHOD(send);
    sensitive << inject << step << phase << queue_written_;
    SC_METHOD(receive_status);
    sensitive << ej << ej_step << clear << phase << unique << state_changed_;
  }

 private:
  struct Slot {
    bool idle = true;
    std::uint32_t dst = 0, payload = 0;
  };

  /// What is wrong with the message on `ej` now ("" if nothing or nothing is there).
  [[nodiscard]] std::string check(const MinFlit& m) const {
    if (!m.valid || clear.read()) return "";
    if (m.src >= static_cast<std::uint32_t>(n_)) return "received src " + std::to_string(m.src) + " >= N";
    if (unique.read() && seen_[m.src]) return "source " + std::to_string(m.src) + " received twice in one run";
    if (m.seq != ej_step.read())
      return "seq " + std::to_string(m.seq) + " but network step " + std::to_string(ej_step.read());
    if (phase.read() && m.dst != id_) return "message for " + std::to_string(m.dst) + " delivered here";
    if (!phase.read() && (m.dst != 0 || m.payload != m.src)) return "malformed label from " + std::to_string(m.src);
    return "";
  }

  void edge() {
    if (!rst_n.read()) {
      std::fill(seen_.begin(), seen_.end(), false);
      count_ = 0;
      error_ = false;
      state_changed_.notify(sc_core::SC_ZERO_TIME);
      return;
    }
    if (q_we.read()) {
      const std::uint64_t data = q_data.read();
      const int pw = layout_.payload_bits, iw = layout_.terminal_bits;
      Slot slot{((data >> (pw + iw)) & 1U) != 0, static_cast<std::uint32_t>((data >> pw) & ((1U << iw) - 1)),
                static_cast<std::uint32_t>(data & ((std::uint64_t{1} << pw) - 1))};
      if (q_slot.read() >= queue_.size()) model_check_failed(name(), "queue slot " + std::to_string(q_slot.read()) + " >= MaxSteps");
      else if (slot.dst >= static_cast<std::uint32_t>(n_)) model_check_failed(name(), "queued dst " + std::to_string(slot.dst) + " >= N");
      else queue_[q_slot.read()] = slot;
      queue_written_.notify(sc_core::SC_ZERO_TIME);
    }
    const MinFlit m = ej.read();
    if (clear.read()) {
      std::fill(seen_.begin(), seen_.end(), false);
      count_ = 0;
      error_ = false;
    } else if (m.valid) {
      if (const std::string bad = check(m); !bad.empty()) {
        model_check_failed(name(), bad);
        error_ = true;
      }
      if (m.src < static_cast<std::uint32_t>(n_)) seen_[m.src] = true;
      ++count_;
    }
    state_changed_.notify(sc_core::SC_ZERO_TIME);
  }

  void send() {
    MinFlit f;
    const unsigned x = step.read();
    if (!inject.read() || x >= queue_.size()) {
      inj.write(f);
      return;
    }
    if (!phase.read()) {
      f = {true, id_, 0, x, id_};
    } else {
      const Slot& s = queue_[x];
      f = {!s.idle, id_, s.dst, x, s.payload};
    }
    inj.write(f);
  }

  /// recv_count and error include the message on `ej` in this cycle.
  void receive_status() {
    const MinFlit m = ej.read();
    const bool now = m.valid && !clear.read();
    recv_count.write(count_ + (now ? 1U : 0U));
    error.write(error_ || (now && !check(m).empty()));
  }

  std::uint32_t id_;
  int n_;
  MinPortLayout layout_;
  std::vector<Slot> queue_;
  std::vector<bool> seen_;
  unsigned count_ = 0;
  bool error_ = false;
  sc_core::sc_event queue_written_, state_changed_;
};

}  // namespace totex::sim
