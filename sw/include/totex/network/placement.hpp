// SPDX-License-Identifier: Apache-2.0
/// Partially populated tori of paper 004 (Azizoglu & Egecioglu): processors on a subset of the
/// nodes of the d-dimensional k-torus T_k^d (`torus:KxKx...`, all sides equal, K >= 3, d >= 2),
/// the load of every directed link under complete exchange among the processors (Definition 4),
/// and the paper's lower bounds and formulas.
///
/// Conventions (paper dimension i = our dimension i-1; dimension 0 varies fastest in node ids):
///   - linear placement     P = { p : p_1 + ... + p_d == 0 (mod k) }               |P| = k^(d-1)
///   - multiple:T placement P = { p : p_1 + ... + p_d mod k in {0, ..., T-1} }    |P| = T k^(d-1)
///     (the paper asks T < k; T = k, the fully populated torus, is accepted for comparison)
///   - every dimension is corrected along the shortest cyclic direction; when both directions
///     are shortest (k even, offset k/2) the + direction is taken, for ODR and for UDR alike
///     (the paper states the tie rule for ODR and counts |C^UDR| = s!, which needs the same rule)
///   - odr: dimensions corrected in the order 1..d (one path per pair)
///   - udr: the s differing dimensions corrected in any of the s! orders, each with probability
///     1/s!, so a link's load counts the fraction of a pair's paths that cross it (Eq. 5).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "totex/network/topology.hpp"

namespace totex {

struct Placement {
  int classes = 1;        // T: residues 0..T-1 of the coordinate sum
  bool multiple = false;  // spelled multiple:T (false: linear)
  bool operator==(const Placement& o) const { return classes == o.classes && multiple == o.multiple; }
};
enum class Routing { Odr, Udr };

/// Parses `linear` or `multiple:T` (T >= 1); throws UsageError naming the accepted values.
[[nodiscard]] Placement parse_placement(std::string_view text);
/// Parses `odr` or `udr`; throws UsageError naming the accepted values.
[[nodiscard]] Routing parse_routing(std::string_view text);
[[nodiscard]] std::string to_string(const Placement& p);
[[nodiscard]] std::string to_string(Routing r);

/// Checks t is torus:KxK..x (d >= 2 equal ring sides K >= 3) and that p fits (T <= K);
/// throws UsageError otherwise. Returns K.
int check_placement_torus(const Topology& t, const Placement& p);
/// The processors, in increasing node id.
[[nodiscard]] std::vector<NodeId> placement_nodes(const Topology& t, const Placement& p);
/// The routing's paths from p to q, each as the node sequence p ... q (1 path for ODR, s! for
/// UDR where s = number of differing coordinates; orders in lexicographic order of dimensions).
[[nodiscard]] std::vector<std::vector<NodeId>> routes(const Topology& t, NodeId p, NodeId q, Routing r);

struct DimensionLoad {
  int dimension = 0;   // 0-based
  int direction = 1;   // +1 or -1
  double max_load = 0;
  double mean_load = 0;  // over all k^d links of this dimension and direction
};

struct LoadReport {
  std::string topology;
  std::string placement;
  std::string routing;
  int k = 0;
  int d = 0;
  int processors = 0;
  double max_load = 0;      // E_max (Definition 5)
  LinkId max_link = -1;     // the lowest link id that carries max_load
  /// max(bisection_bound, single_bound): Lemma 1 applied to the cuts below.
  double lower_bound = 0;
  /// Lemma 1 with S = the processors in floor(k/2) consecutive principal subtori along one
  /// dimension and dS the 4 k^(d-1) directed links of Theorem 1's cut (counted), best dimension.
  /// For even k and uniform placements this is |P|^2 / (8 k^(d-1)) = c^2 k^(d-1)/8.
  double bisection_bound = 0;
  /// Lemma 1 with |S| = 1: (|P| - 1) / (2d), the bound (1)/(6) of Blaum et al.
  double single_bound = 0;
  /// The paper's closed form for E_max where it gives one: linear placement with ODR (Thm 2):
  /// k^(d-1)/8 + k^(d-2)/4 (k even), k^(d-1)/8 - k^(d-3)/8 (k odd). Otherwise empty.
  std::optional<double> paper_formula;
  /// The paper's upper bound on E_max: ODR k^(d-1) (Thm 2), t^2 k^(d-1) (Thm 3); UDR
  /// 2^(d-1) k^(d-1) (Thm 4, strict), t^2 2^(d-1) k^(d-1) (Thm 5, strict).
  std::optional<double> paper_upper_bound;
  std::vector<DimensionLoad> dimensions;  // dimension-major, + before -
  /// Exact loads: load of link l = scaled_loads[l] / load_denominator (denominator d! for UDR,
  /// 1 for ODR); loads[l] is the same as a double. Indexed by LinkId.
  std::vector<std::int64_t> scaled_loads;
  std::int64_t load_denominator = 1;
  std::vector<double> loads;
};

/// Loads of every directed link under complete exchange among the processors of the placement.
/// Work: O(|P|^2 d 2^(d-1) k) for UDR, O(|P|^2 d k) for ODR.
[[nodiscard]] LoadReport compute_loads(const Topology& t, Placement p, Routing r);

}  // namespace totex
