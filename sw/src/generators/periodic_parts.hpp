// SPDX-License-Identifier: Apache-2.0
/// The periodic generators' parts (private; the public header is totex/generators/periodic.hpp):
/// a packing of items modulo a period. An item
/// (a translation-invariant route offset, or one message) has candidate routes; a candidate uses
/// resources (a direction track, a directed link, a NIC's inject or eject port) at offsets from
/// its slot s: placed at s, it holds resource `res` in slot (s + offset) mod P. Packings never
/// hold a resource twice in one slot.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cnf.hpp"
#include "totex/network/topology.hpp"
#include "totex/schedule.hpp"

namespace totex::periodic {

struct Use {
  int res;
  int offset;
};
struct Candidate {
  std::vector<Use> uses;
  std::vector<NodeId> path;  // node-level items: the nodes visited, source first
  std::vector<Port> ports;   // translation-invariant items: the port taken at each hop
};
struct Item {
  std::vector<Candidate> cands;
  Message msg{-1, -1};        // node-level items
  std::vector<int> offset;    // translation-invariant items: the coordinate offset
};
struct Placement {
  int cand = -1;
  int slot = -1;
};
struct Problem {
  std::vector<Item> items;
  int resources = 0;
  /// Sets of resources (a cut's links in one direction) of which every candidate of an item holds
  /// the same number; when they add up to |group| x P, every resource of the group is held in
  /// every slot (sat_pack adds that as redundant clauses). Single resources are checked anyway.
  std::vector<std::vector<int>> groups;
};

/// The most offsets an item's candidates span (its route's hops).
[[nodiscard]] int max_len(const Item& it);

/// First fit: items in the given order (longest first when `order` is empty), each at the first
/// (slot, candidate) whose resources are free. nullopt when some item fits nowhere. `work` (if
/// given) counts the resource look-ups.
[[nodiscard]] std::optional<std::vector<Placement>> greedy_pack(const Problem& p, int period,
                                                                std::vector<int> order = {},
                                                                std::int64_t* work = nullptr);
/// The local search's work (resource look-ups) per second of --budget: measured on the 2-core
/// development machine (mesh:11x11's per-message packing: about 4.5e8 a second).
constexpr double kLookupsPerSecond = 4.0e8;
/// Local search for one period (breakout: min-conflicts with a weight per resource and slot that
/// grows where conflicts persist): from `start` (slots taken mod `period`), moves a conflicted item
/// to its least-weighted (candidate, slot), ties broken at random (seeded, so the same on every
/// machine), until no resource is held twice or `work` (resource look-ups) runs out. Returns the
/// packing when conflict-free.
[[nodiscard]] std::optional<std::vector<Placement>> local_search_pack(const Problem& p, int period,
                                                                      const std::vector<Placement>& start,
                                                                      std::int64_t work, std::uint64_t seed);
/// Local search one period down at a time from `period` (packed by `best`) to `lowest`, passing
/// over the periods `skip` names, until a call fails within `work`: the lowest period packed, with
/// `best` its packing.
[[nodiscard]] int local_search_descend(const Problem& p, std::vector<Placement>& best, int period, int lowest,
                                       std::int64_t work, const std::function<bool(int)>& skip = {});
/// LikelySat: CaDiCaL's "sat" preset, for a model that is expected to be satisfiable (a symmetric
/// quotient at the bound): it found torus:7x7's and mesh:4x4's in a third of the default's time.
enum class SatHint { None, LikelySat };
/// The exact packing question for one period as SAT (one variable per item, candidate and slot;
/// at most one holder per resource and slot; item 0 fixed to slot 0, as every packing shifts to
/// one). Unknown when `limit.conflicts` run out (or the safety cap fires: `stats->capped`).
[[nodiscard]] SatOutcome sat_pack(const Problem& p, int period, const SatLimit& limit, std::vector<Placement>& out,
                                  std::int64_t* variables = nullptr, SatHint hint = SatHint::None,
                                  SatStats* stats = nullptr);

/// The translation-invariant problem of a product of rings: one item per non-zero offset with its
/// minimal routes (every order of the dimensions up to 3 dimensions, the rotations above; a tie at
/// k/2 alternates between + and - over the offsets that have it), resources: one track per port
/// direction, then the NIC's inject track and its eject track (`nic`). With `detours`, each route
/// also two hops longer (one step out in a ring dimension first and back last) and, in a used ring
/// dimension of odd size, the long way round.
[[nodiscard]] Problem translation_invariant_problem(const Topology& t, bool nic, bool detours = false);
/// The quarter-turn quotient of a translation-invariant problem on a k x k torus, k odd, for a
/// period P divisible by 4: the rotation sigma(x, y) = (-y, x) maps a translation-invariant
/// schedule to another; a schedule equal to its own image with every slot moved by P/4 is fixed by
/// one route per orbit {o, sigma o, sigma^2 o, sigma^3 o} of offsets (k odd: every orbit has four).
/// The quotient has one item per orbit (the representative's candidates) and three resources:
/// the four direction tracks as one (port sigma^j(+x) in slot s is track 0 in slot s - jP/4), and
/// the inject and eject tracks, of which an orbit holds a slot and its three shifts by P/4.
/// nullopt where it does not apply (not a square 2-D torus of odd side, P % 4 != 0).
struct QuarterTurn {
  Problem quotient;
  std::vector<int> rep_item;                  // per quotient item: its item in the full problem
  std::vector<std::array<int, 4>> orbit_item;  // per quotient item: the full items of sigma^j(rep)
};
[[nodiscard]] std::optional<QuarterTurn> quarter_turn_quotient(const Topology& t, const Problem& full, int period, bool nic);
/// The full problem's packing of a quotient packing: item sigma^j(rep) takes the rotated route
/// of the representative's candidate in slot s + jP/4 (the returned problem has that one candidate
/// per item; expand it with expand_translation_invariant).
[[nodiscard]] std::pair<Problem, std::vector<Placement>> quarter_turn_unfold(const Problem& full, const QuarterTurn& q,
                                                                             const std::vector<Placement>& pl,
                                                                             int period, bool nic);
/// The per-message problem: one item per message; candidates: dimension-order routes (every
/// order of the dimensions), or every shortest path when `all_shortest`, and with `detours` also
/// every path two hops longer that visits no node twice; resources: directed links, then per node
/// an inject and an eject port (`nic`).
[[nodiscard]] Problem node_problem(const Topology& t, bool nic, bool all_shortest, bool detours = false);
/// The resource uses node_problem(t, nic, true) holds, counted without building it: per ordered
/// pair of processors its shortest paths (at most kMaxPathsPerMessage) times the uses of one (its
/// hops, and under nic the inject and eject ports). Each use is about 20 bytes of the problem.
inline constexpr std::int64_t kMaxPathsPerMessage = 512;
[[nodiscard]] std::int64_t every_shortest_path_uses(const Topology& t, bool nic);

/// The quotient of the per-message problem by a group of node automorphisms that moves every
/// message (its ends are distinct nodes, and no element but the identity fixes both): a schedule
/// fixed by the group (message g(m) takes g's image of m's route, in slots moved by g's shift) is
/// fixed by one route per orbit of messages. The quotient has one item per orbit, whose candidates
/// hold the images' links and NIC ports. UNSAT in it says nothing of unsymmetric schedules.
struct NodeOrbits {
  Problem quotient;
  std::vector<std::vector<NodeId>> element;  // element[j][v]: the image of node v; element 0 the identity
  std::vector<int> shift;                    // element j's slot shift
  std::vector<std::vector<int>> orbit_item;  // per quotient item: the full item of element j's image
};
/// Meshes (every node a processor) with an even side: the mirrors of the even sides (x -> k - 1 - x)
/// and their products, with no slot shift (any P). A mirror of an even side fixes no node. Every
/// side odd and P even: the half turn, with a shift of P/2. nullopt otherwise.
[[nodiscard]] std::optional<NodeOrbits> mesh_mirror_quotient(const Topology& t, const Problem& full, int period,
                                                             bool nic);
/// Tori with two rings of even size: the four translations by half of either ring; hypercubes of
/// at least 4 dimensions: the four that flip dimensions {0, 1}, {2, 3} or both. No slot shift (any
/// P); nullopt otherwise.
[[nodiscard]] std::optional<NodeOrbits> half_translation_quotient(const Topology& t, const Problem& full, bool nic);
/// The full problem's packing of a quotient packing (one candidate per item: the moved route).
[[nodiscard]] std::pair<Problem, std::vector<Placement>> orbit_unfold(const Topology& t, const Problem& full,
                                                                      const NodeOrbits& q,
                                                                      const std::vector<Placement>& pl, int period,
                                                                      bool nic);

/// The schedule of a packing (absolute steps: item placed at s takes hop j in step s + j).
[[nodiscard]] Schedule expand_translation_invariant(const Topology& t, Model m, const Problem& p,
                                                    const std::vector<Placement>& pl, int period);
[[nodiscard]] Schedule expand_node(const Topology& t, Model m, const Problem& p, const std::vector<Placement>& pl,
                                   int period);

}  // namespace totex::periodic
