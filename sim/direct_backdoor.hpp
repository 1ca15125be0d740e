// SPDX-License-Identifier: Apache-2.0
/// The backdoor load of a direct network (`--load backdoor`), shared by the top's harness
/// (sim/direct_rtl_main.cpp) and the wired one (sim/direct_wired_main.cpp): a load-port word for
/// a schedule table, a payload memory (scheduled) or a send queue (dynamic) is written straight
/// into that memory of the addressed node, made public by rtl/totex_backdoor.vlt. Control
/// registers and out-of-range writes are left to the port (write() returns false).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "totex/direct_controller.hpp"
#include "vl_harness.hpp"

namespace totex::sim {

class DirectBackdoor {
 public:
  /// `node_scope(v)`: the scope of node v's node module (totex_direct_node or
  /// totex_direct_dyn_node), ending in '.'. The memories are found on the first write.
  DirectBackdoor(const DirectLayout& layout, std::function<std::string(int)> node_scope)
      : layout_(layout), node_scope_(std::move(node_scope)) {}

  bool write(VerilatedContext& ctx, std::uint64_t addr, std::uint64_t data) {
    using L = DirectLayout;
    const auto [region, node, index] = layout_.fields(addr);
    if (node >= static_cast<std::uint64_t>(layout_.nodes)) return false;
    if (nodes_.empty()) find_memories(ctx);
    NodeMemories& m = nodes_[node];
    if (region == L::kRegionTable && layout_.params.mode == DirectMode::Scheduled) {
      const std::uint64_t word = index & ((std::uint64_t{1} << layout_.word_bits) - 1);
      const std::uint64_t step = index >> layout_.word_bits;
      if (word >= m.table.size() || step >= m.table[word].size()) return false;
      m.table[word].write(step, data);
      return true;
    }
    if (region == L::kRegionMessages && !m.messages.empty() && index < m.messages.front().size()) {
      m.messages.front().write(index, data);
      return true;
    }
    return false;
  }

 private:
  /// Per node: the schedule table's word memories and the payload memory (scheduled), or the
  /// send queue (dynamic).
  struct NodeMemories {
    std::vector<PublicMemory> table;
    std::vector<PublicMemory> messages;  // one memory
  };
  void find_memories(VerilatedContext& ctx) {
    const bool scheduled = layout_.params.mode == DirectMode::Scheduled;
    for (int v = 0; v < layout_.nodes; ++v) {
      const std::string node = node_scope_(v);
      NodeMemories m;
      if (scheduled)
        for (int w = 0; w < layout_.words; ++w)
          m.table.emplace_back(ctx, node + "u_table.gen_word[" + std::to_string(w) + "]", "mem");
      m.messages.emplace_back(ctx, node + "u_nic", scheduled ? "payload_mem" : "queue");
      nodes_.push_back(std::move(m));
    }
  }

  const DirectLayout& layout_;
  std::function<std::string(int)> node_scope_;
  std::vector<NodeMemories> nodes_;
};

}  // namespace totex::sim
