// SPDX-License-Identifier: Apache-2.0
/// Algorithm A2 of paper 000 (Dimakopoulos & Dimopoulos): single-port total exchange in a
/// cartesian product G = G_1 x ... x G_k built from total exchanges of the single dimensions.
///
/// Per-dimension schedules (single-port, every node sends and receives at most once per step):
///   - complete:m  m-1 steps: in step i node v sends its message for v+i (mod m) directly.
///                 Equals AS(K_m) = m-1 (optimal).
///   - ring:k      floor(k^2/4) steps = AS(C_k) (optimal): the messages are taken class by class
///                 (class delta = dst - src mod k); for each hop of a class every node forwards the
///                 message of that class that is currently at it, all in the same direction
///                 (+ for delta <= k/2, else -), so every node sends and receives in every step.
///                 ring:2 is one link (K2): 1 step.
///   - path:k      floor((k^2-1)/2) steps (max-weight steps, see path_exchange()); optimal by the
///                 relay bound path_exchange_lower_bound(), but above ceil(AS(P_k)) for k >= 3, so
///                 products with a path factor are not optimal in the sense of Theorem 3.
///
/// Composition (paper 000, Fig. 4), with A = dims 0..k-2 and B = dim k-1 (dimension 0 varies
/// fastest in node ids, so node (a, b) = a + |A| * b):
///   lines 1-3: for r = 0..|A|-1, every copy B_a = (a, *) runs B's exchange in which node (a, j)
///              sends its batch R_r = messages m_(a,j)(r, l), l != j; the message template
///              (j -> l) of B becomes m_(a,j)(r,l), stored at (a,l) when r != a.
///   lines 4-6: for kk = 0..|B|-1, every copy A_j = (*, j) runs A's exchange (recursively A2)
///              in which node (a, j) sends the messages m_(a,kk)(x, j) it holds, x != a.
/// T = |A| T_B + |B| T_A (Thm 2), i.e. T = n * sum_i T_i/|V_i| (Cor 2). Between blocks, nodes
/// buffer (single-port allows it); a2_buffers() lists what every node holds at a block boundary.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"

namespace totex {

/// Single-port total exchange on one factor graph (on factor_graph(f), spec to_string(f)).
[[nodiscard]] Schedule factor_exchange(const Factor& f);
/// Steps factor_exchange(f) takes, without building it.
[[nodiscard]] std::int64_t factor_exchange_steps(const Factor& f);
/// Single-port total exchange on path:k (k >= 2). Each step is a maximum-weight set of link
/// crossings (each node sends <= 1 and receives <= 1), weight = messages the sender still has to
/// send, chosen exactly by dynamic programming along the path. For k = 2..40 it takes exactly
/// path_exchange_lower_bound(k) = floor((k^2-1)/2) steps (tested), so it is optimal there; that is
/// more than ceil(AS(P_k)) = ceil((k^2-1)/3) for every k >= 3.
[[nodiscard]] Schedule path_exchange(int k);
/// A lower bound for single-port total exchange on path:k under any routing: node v sends its own
/// k-1 messages and relays the 2 v (k-1-v) that must cross it, one per step:
/// max_v (k-1 + 2 v (k-1-v)) = floor((k^2-1)/2).
[[nodiscard]] std::int64_t path_exchange_lower_bound(int k);

/// One block of consecutive steps in which every copy of one dimension runs that dimension's
/// total exchange in parallel. Blocks tile [0, steps) in order; messages wait at nodes between
/// blocks.
struct A2Block {
  std::int64_t first_step = 0;
  std::int64_t steps = 0;
  int dimension = 0;     // the dimension whose links the block uses
  int level = 0;         // the product G_0 x ... x G_level the A2 call at this depth works on
  bool distribute = false;  // true: lines 1-3 (batch R_round over dim `level`); false: a leaf
                            // exchange inside lines 4-6 of an enclosing call (or a 1-dim product)
  int round = 0;         // r (lines 1-3) of the call at `level`
  std::string text;      // human description
};

struct A2Result {
  Schedule schedule;                 // model single-port, algorithm "a2"
  std::vector<A2Block> blocks;       // in step order
  std::vector<std::int64_t> dimension_steps;  // T_i of each dimension's schedule
  std::int64_t predicted_steps = 0;  // n * sum_i T_i / |V_i| (Corollary 2), exact integer
  /// True when every dimension's schedule takes exactly AS(G_i) steps (Theorem 3's condition).
  bool dimensions_reach_as = false;
};

/// Above this many transfers (about 67 MB as Transfer records) a2() returns the schedule lazy
/// (Schedule::source): its steps are generated from the factor schedules when read, each in
/// O(its transfers), so hypercube:12 or torus:64x64 (0.1-0.5 G transfers) need kilobytes.
inline constexpr std::int64_t kA2LazyTransfers = std::int64_t{1} << 22;

/// Algorithm A2 for any product topology (throws UsageError for a metacube).
[[nodiscard]] A2Result a2(const Topology& t);
/// Same, lazy above `lazy_above` transfers (0: always).
[[nodiscard]] A2Result a2(const Topology& t, std::int64_t lazy_above);
/// Same, schedule only.
[[nodiscard]] Schedule a2_schedule(const Topology& t);
/// T = n * sum_i T_i/|V_i| without building the schedule.
[[nodiscard]] std::int64_t a2_predicted_steps(const Topology& t);

/// Messages each node holds at the end of block `block` (after step first_step+steps-1) that
/// have left their source and not reached their destination: the buffer contents the schedule
/// prescribes at that boundary. Derived by replaying the transfers.
[[nodiscard]] std::vector<std::vector<Message>> a2_buffers(const Topology& t, const A2Result& r,
                                                          std::size_t block);

}  // namespace totex
