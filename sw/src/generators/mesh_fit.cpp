// SPDX-License-Identifier: Apache-2.0
/// `--algo xyfit` (mesh_fit.hpp).
///
/// Why longest first: a mesh's bound is its central cuts, and a message that is long in one
/// dimension crosses the middle of that dimension with little freedom; placed first (the longest
/// of its distances descending, then fewer hops first), they pack the cut links, and the short
/// messages fill the holes near the ends. Measured on mesh:32x32 nic, one pass of a prototype
/// (docs/scale.md): 1.018 x the bound; with hops descending instead 1.025, x-then-y routes only 1.078.
#include "mesh_fit.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <numeric>
#include <string>
#include <tuple>

#include "product_routes.hpp"
#include "totex/bounds/bounds.hpp"
#include "totex/splitmix.hpp"

namespace totex {
namespace {

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

/// The busy bits of each resource (a directed link, a NIC's inject or eject port) over the steps,
/// 64 steps a word; grows when a message fits only past the end.
class BusyBits {
 public:
  BusyBits(int resources, std::int64_t steps) : resources_(resources) { resize(steps); }
  [[nodiscard]] std::int64_t steps() const { return 64 * words_; }
  /// Bits of steps t .. t+63 of resource r (t + 63 < steps()).
  [[nodiscard]] std::uint64_t window(int r, std::int64_t t) const {
    const std::uint64_t* row = &bits_[at(r) * at(words_)];
    const std::int64_t w = t / 64;
    const int o = static_cast<int>(t % 64);
    const std::uint64_t lo = row[at(w)];
    const std::uint64_t hi = w + 1 < words_ ? row[at(w + 1)] : ~std::uint64_t{0};
    return o == 0 ? lo : (lo >> o) | (hi << (64 - o));
  }
  void set(int r, std::int64_t t) {
    std::uint64_t* row = &bits_[at(r) * at(words_)];
    const std::int64_t w = t / 64;
    row[at(w)] |= std::uint64_t{1} << (t % 64);
    if (row[at(w)] == ~std::uint64_t{0}) full_[at(r) * at(full_words_) + at(w / 64)] |= std::uint64_t{1} << (w % 64);
    std::int64_t& open = open_[at(r)];
    while (open < words_ && row[at(open)] == ~std::uint64_t{0}) ++open;
  }
  /// The first word of r from w on with a free step (words_ when none is).
  [[nodiscard]] std::int64_t next_open_word(int r, std::int64_t w) const {
    const std::uint64_t* full = &full_[at(r) * at(full_words_)];
    for (std::int64_t f = w / 64; f < full_words_; ++f) {
      std::uint64_t open = ~full[at(f)];
      if (f == w / 64) open &= ~std::uint64_t{0} << (w % 64);
      if (open) return std::min(words_, 64 * f + std::countr_zero(open));
    }
    return words_;
  }
  /// No step of r before this one is free.
  [[nodiscard]] std::int64_t first_free(int r) const { return 64 * open_[at(r)]; }
  void resize(std::int64_t steps) {
    const std::int64_t words = (steps + 63) / 64, full_words = (words + 63) / 64;
    std::vector<std::uint64_t> bits(at(resources_) * at(words), 0), full(at(resources_) * at(full_words), 0);
    for (int r = 0; r < resources_ && words_ > 0; ++r) {
      std::copy_n(&bits_[at(r) * at(words_)], at(words_), &bits[at(r) * at(words)]);
      std::copy_n(&full_[at(r) * at(full_words_)], at(full_words_), &full[at(r) * at(full_words)]);
    }
    bits_ = std::move(bits);
    full_ = std::move(full);
    words_ = words;
    full_words_ = full_words;
    open_.resize(at(resources_), 0);
  }

 private:
  int resources_;
  std::int64_t words_ = 0, full_words_ = 0;
  std::vector<std::uint64_t> bits_;
  std::vector<std::uint64_t> full_;  // per resource, bit w: word w has no free step
  std::vector<std::int64_t> open_;   // per resource, its first word with a free step
};

/// A message as placed: its route takes the dimensions in order `route` (an index into the
/// dimension orders, FitPlan::orders), from step `start`.
struct Placed {
  NodeId src = 0, dst = 0;
  std::int32_t start = 0;
  std::uint8_t route = 0;
};

/// Coordinates on a mesh of two or three dimensions (the third 0 on two).
using Coords3 = std::array<int, 3>;
/// The orders in which a dimension-ordered route takes the dimensions, lexicographic: on two
/// dimensions {0, 1} (x first) then {1, 0} (y first), on three the six permutations.
std::vector<Coords3> dimension_orders(int dims) {
  Coords3 o{0, 1, 2};
  std::vector<Coords3> out;
  do out.push_back(o);
  while (std::next_permutation(o.begin(), o.begin() + dims));
  return out;
}

/// The second pass runs where the first compared at most this many windows (64 steps of one
/// resource): about 7 s on the 2-core machine (mesh:32x32 nic: 2.3e8; mesh:48x48: 4.0e9, no second).
constexpr std::int64_t kSecondPassMaxWindows = 1'000'000'000;

/// The move classes, in order, of the route from coordinates a to b taking the first `dims`
/// dimensions in `order`, on a mesh whose path in dimension dim has sides[dim] nodes.
void route_classes(const MoveTable& moves, const Coords3& a, const Coords3& b, const Coords3& sides, int dims,
                   const Coords3& order, std::vector<int>& classes) {
  classes.clear();
  for (int pass = 0; pass < dims; ++pass) {
    const int dim = order[at(pass)];
    if (a[at(dim)] == b[at(dim)]) continue;
    const int cls = moves.move_class(dim, b[at(dim)] > a[at(dim)] ? 1 : sides[at(dim)] - 1);
    for (int i = std::abs(b[at(dim)] - a[at(dim)]); i > 0; --i) classes.push_back(cls);
  }
}

Coords3 coords3(const Topology& t, NodeId v) {
  const std::vector<int> c = t.coordinates(v);
  return {c[0], c[1], c.size() > 2 ? c[2] : 0};
}

/// The mesh's sides (the third 1 on two dimensions).
Coords3 mesh_sides(const Topology& t) {
  return {t.factors()[0].size, t.factors()[1].size, t.factors().size() > 2 ? t.factors()[2].size : 1};
}

/// The placed messages in start order, and what the steps need to be rebuilt from them.
struct FitPlan {
  FitPlan(const Topology& topo, std::vector<Placed> p)
      : t(topo),
        moves(topo),
        dims(static_cast<int>(topo.factors().size())),
        sides(mesh_sides(topo)),
        orders(dimension_orders(dims)),
        placed(std::move(p)) {}
  Topology t;
  MoveTable moves;
  int dims;
  Coords3 sides;
  std::vector<Coords3> orders;
  std::vector<Placed> placed;
  std::int64_t steps = 0;
  std::int64_t transfers = 0;

  void route(const Placed& p, std::vector<int>& classes) const {
    route_classes(moves, coords3(t, p.src), coords3(t, p.dst), sides, dims, orders[p.route], classes);
  }
};

/// Steps of a lazy xyfit schedule, one at a time: the messages on the way, each at its node.
class FitCursor : public StepCursor {
 public:
  explicit FitCursor(std::shared_ptr<const FitPlan> plan) : plan_(std::move(plan)) {}
  bool next(std::vector<Transfer>& out) override {
    out.clear();
    const FitPlan& p = *plan_;
    if (c_ >= p.steps) return false;
    for (; next_ < p.placed.size() && p.placed[next_].start == c_; ++next_) {
      Live l;
      l.index = next_;
      l.at = p.placed[next_].src;
      p.route(p.placed[next_], l.classes);
      live_.push_back(std::move(l));
    }
    for (std::size_t i = 0; i < live_.size();) {
      Live& l = live_[i];
      const Placed& m = p.placed[l.index];
      const int cls = l.classes[l.hop];
      out.push_back({{m.src, m.dst}, l.at, p.moves.port(l.at, cls)});
      l.at = p.moves.next(l.at, cls);
      if (++l.hop == l.classes.size()) {
        live_[i] = std::move(live_.back());
        live_.pop_back();
      } else {
        ++i;
      }
    }
    ++c_;
    return true;
  }

 private:
  struct Live {
    std::size_t index = 0, hop = 0;
    NodeId at = 0;
    std::vector<int> classes;
  };
  std::shared_ptr<const FitPlan> plan_;
  std::vector<Live> live_;
  std::size_t next_ = 0;
  std::int64_t c_ = 0;
};

class FitSource : public StepSource {
 public:
  explicit FitSource(std::shared_ptr<const FitPlan> plan) : plan_(std::move(plan)) {}
  [[nodiscard]] std::size_t step_count() const override { return at(plan_->steps); }
  [[nodiscard]] std::int64_t transfer_count() const override { return plan_->transfers; }
  [[nodiscard]] std::unique_ptr<StepCursor> cursor() const override { return std::make_unique<FitCursor>(plan_); }

 private:
  std::shared_ptr<const FitPlan> plan_;
};

/// The tie order among messages of equal length (splitmix64 seeded by the unit), the same on
/// every platform.
std::uint64_t mix(std::uint64_t x) { return splitmix64(x); }

/// A placement unit: a message and its distinct images under the mesh's turns (the group element
/// of each).
struct Unit {
  NodeId src, dst;
  std::uint32_t index = 0;  // in `units` (a unit split into its images keeps it)
  std::int32_t start = 0;
  std::uint8_t route = 0;   // its dimension order, an index into `orders`
  std::uint8_t images = 0;  // bit g: group element g gives an image of its own
};

/// One xyfit run: the mesh's turns, the units longest first, and the passes that place them.
class MeshFit {
 public:
  MeshFit(const Topology& t, Model m);
  /// The passes (one, or two where the first was short) and the schedule of the better one.
  Schedule run(std::vector<std::string>& log, std::int64_t lazy_above);

 private:
  using Use = std::tuple<int, int, std::int64_t>;  // (centrality, resource, step offset)
  NodeId node(int x, int y, int z) const { return dims_ > 2 ? t_.node_at({x, y, z}) : t_.node_at({x, y}); }
  int dist(NodeId s, NodeId d, int dim) const { return std::abs(xy_[at(d)][at(dim)] - xy_[at(s)][at(dim)]); }
  int hops(NodeId s, NodeId d) const { return dist(s, d, 0) + dist(s, d, 1) + dist(s, d, 2); }
  void build_group();
  void build_units();
  void build_resources();
  void unit_uses(const Unit& u, std::size_t r, std::vector<Use>& out);
  std::int64_t earliest(BusyBits& busy, const std::vector<Use>& use, std::int64_t h);
  Coords3 moving_dims(const Unit& u, std::size_t r) const;
  bool new_route(const Unit& u, std::size_t r) const;
  bool place(Unit u, BusyBits& busy, std::int64_t& makespan);
  std::int64_t place_all();

  const Topology& t_;
  Model m_;
  int n_;
  bool nic_;
  int dims_;
  Coords3 sides_;
  MoveTable moves_;
  std::vector<Coords3> orders_;
  std::vector<Coords3> xy_;
  std::vector<std::vector<NodeId>> group_;              // node maps of the turns, the identity first
  std::vector<std::vector<std::uint8_t>> image_route_;  // [g][r]: the route order of r's image under g
  std::vector<std::vector<LinkId>> link_map_;           // [g][l]: the image of link l under g
  std::vector<Unit> units_;
  std::vector<std::uint32_t> order_;  // units, longest first
  int resources_ = 0;
  std::vector<int> centrality_;
  std::int64_t bound_ = 0;
  int port_rank_ = 0;   // the NIC ports, after every link
  NodeId centre_ = -1;  // the node every turn fixes (odd sides), or -1
  std::int64_t work_ = 0;  // windows compared: the same count on every machine
  std::vector<Unit> placed_;  // the units as placed; a colliding unit becomes one per image
  // Scratch of unit_uses and the passes.
  std::vector<int> classes_;
  std::vector<Use> unsorted_;
  std::vector<std::size_t> count_;
  std::vector<std::vector<Use>> uses_;  // per route choice
};

MeshFit::MeshFit(const Topology& t, Model m)
    : t_(t),
      m_(m),
      n_(t.nodes()),
      nic_(m == Model::Nic),
      dims_(static_cast<int>(t.factors().size())),
      sides_(mesh_sides(t)),
      moves_(t),
      orders_(dimension_orders(dims_)) {
  xy_.resize(at(n_));
  for (NodeId v = 0; v < n_; ++v) xy_[at(v)] = coords3(t, v);
  build_group();
  build_units();
  build_resources();
}

// The mesh's turns (quarter turns of a square, the half turn of a rectangle; on three dimensions
// the point reflection through the centre), as node maps and the link maps they induce. A message
// is placed with its images under them, in the same step on the images of its route: the images
// of a route are routes of the images, so a symmetric placement is as valid as any, and one search
// places up to four messages (mesh:32x32: the same steps within 0.1 %, 30 % fewer windows
// compared; the mirrors as well cost 0.5 %).
void MeshFit::build_group() {
  const int kx = sides_[0], ky = sides_[1], kz = sides_[2];
  const auto add_map = [&](auto f) {
    std::vector<NodeId> g(at(n_));
    for (NodeId v = 0; v < n_; ++v) g[at(v)] = f(xy_[at(v)][0], xy_[at(v)][1], xy_[at(v)][2]);
    group_.push_back(std::move(g));
  };
  add_map([&](int x, int y, int z) { return node(x, y, z); });
  add_map([&](int x, int y, int z) { return node(kx - 1 - x, ky - 1 - y, kz - 1 - z); });
  if (dims_ == 2 && kx == ky) {
    add_map([&](int x, int y, int) { return node(kx - 1 - y, x, 0); });
    add_map([&](int x, int y, int) { return node(y, kx - 1 - x, 0); });
  }
  // The route order of each image: element g maps dimension d onto axis[g][d].
  image_route_.assign(group_.size(), std::vector<std::uint8_t>(orders_.size()));
  for (std::size_t g = 0; g < group_.size(); ++g) {
    Coords3 axis{0, 1, 2};
    const Coords3 o = xy_[at(group_[g][at(node(0, 0, 0))])];
    for (int d = 0; d < dims_; ++d) {
      if (sides_[at(d)] < 2) continue;
      Coords3 e{0, 0, 0};
      e[at(d)] = 1;
      const Coords3 ge = xy_[at(group_[g][at(node(e[0], e[1], e[2]))])];
      for (int a = 0; a < dims_; ++a)
        if (ge[at(a)] != o[at(a)]) axis[at(d)] = a;
    }
    for (std::size_t r = 0; r < orders_.size(); ++r) {
      Coords3 image = orders_[r];
      for (int i = 0; i < dims_; ++i) image[at(i)] = axis[at(orders_[r][at(i)])];
      image_route_[g][r] = static_cast<std::uint8_t>(std::find(orders_.begin(), orders_.end(), image) - orders_.begin());
    }
  }
  const int links = t_.links();
  link_map_.assign(group_.size(), std::vector<LinkId>(at(links)));
  for (std::size_t g = 0; g < group_.size(); ++g)
    for (LinkId l = 0; l < links; ++l) {
      const NodeId a = group_[g][at(t_.link_source(l))], b = group_[g][at(t_.link_target(l))];
      link_map_[g][at(l)] = t_.link_id(a, *t_.port_to(a, b));
    }
}

// Placement units: a message and its distinct images, longest first (the longer distance
// descending, then fewer hops), ties in a fixed pseudo-random order.
void MeshFit::build_units() {
  std::vector<bool> seen(at(n_) * at(n_), false);
  for (NodeId s = 0; s < n_; ++s)
    for (NodeId d = 0; d < n_; ++d) {
      if (s == d || seen[at(s) * at(n_) + at(d)]) continue;
      Unit u{s, d, static_cast<std::uint32_t>(units_.size())};
      for (std::size_t g = 0; g < group_.size(); ++g) {
        const std::size_t key = at(group_[g][at(s)]) * at(n_) + at(group_[g][at(d)]);
        if (seen[key]) continue;
        seen[key] = true;
        u.images = static_cast<std::uint8_t>(u.images | (1U << g));
      }
      units_.push_back(u);
    }
  order_.resize(units_.size());
  std::iota(order_.begin(), order_.end(), std::uint32_t{0});
  const auto key = [&](std::uint32_t i) {
    const int dx = dist(units_[i].src, units_[i].dst, 0), dy = dist(units_[i].src, units_[i].dst, 1),
              dz = dist(units_[i].src, units_[i].dst, 2);
    return std::tuple(-std::max({dx, dy, dz}), dx + dy + dz, mix(i));
  };
  std::sort(order_.begin(), order_.end(), [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
}

// Resources: the directed links, then each node's inject and eject port (nic). Compared most
// central first: a link's distance from the middle of its path (doubled), the ports last. Only
// the centre of a mesh with odd sides is fixed by a turn, so only a message from or to it can have
// two images on one NIC port at once; no link is ever fixed.
void MeshFit::build_resources() {
  const int links = t_.links();
  resources_ = links + (nic_ ? 2 * n_ : 0);
  centrality_.resize(at(links));
  for (LinkId l = 0; l < links; ++l) {
    const auto& a = xy_[at(t_.link_source(l))];
    const auto& b = xy_[at(t_.link_target(l))];
    const int dim = a[0] != b[0] ? 0 : a[1] != b[1] ? 1 : 2;
    centrality_[at(l)] = std::abs(a[at(dim)] + b[at(dim)] + 1 - sides_[at(dim)]);
  }
  bound_ = lower_bound(t_, m_).steps;
  uses_.resize(orders_.size());
  const int kx = sides_[0], ky = sides_[1], kz = sides_[2];
  port_rank_ = kx + ky + kz;
  centre_ = kx % 2 == 1 && ky % 2 == 1 && kz % 2 == 1 ? node(kx / 2, ky / 2, kz / 2) : -1;
  count_.resize(at(port_rank_ + 2));
}

// The resources of unit u's route choice r, most central first (a counting sort: centrality is
// less than the sum of the sides).
void MeshFit::unit_uses(const Unit& u, std::size_t r, std::vector<Use>& out) {
  const int links = t_.links();
  unsorted_.clear();
  route_classes(moves_, xy_[at(u.src)], xy_[at(u.dst)], sides_, dims_, orders_[r], classes_);
  const auto h = static_cast<std::int64_t>(classes_.size());
  for (std::size_t g = 0; g < group_.size(); ++g) {
    if (!(u.images & (1U << g))) continue;
    NodeId v = u.src;
    for (std::int64_t j = 0; j < h; ++j) {
      const LinkId l = link_map_[g][at(moves_.link(v, classes_[at(j)]))];
      unsorted_.push_back({centrality_[at(l)], l, j});
      v = moves_.next(v, classes_[at(j)]);
    }
    if (nic_) {
      unsorted_.push_back({port_rank_, links + group_[g][at(u.src)], 0});
      unsorted_.push_back({port_rank_, links + n_ + group_[g][at(u.dst)], h - 1});
    }
  }
  std::fill(count_.begin(), count_.end(), 0);
  for (const auto& use : unsorted_) ++count_[at(std::get<0>(use)) + 1];
  for (std::size_t c = 1; c < count_.size(); ++c) count_[c] += count_[c - 1];
  out.resize(unsorted_.size());
  for (const auto& use : unsorted_) out[count_[at(std::get<0>(use))]++] = use;
}

// The earliest step from which every use is free.
std::int64_t MeshFit::earliest(BusyBits& busy, const std::vector<Use>& use, std::int64_t h) {
  std::int64_t lo = 0;
  for (const auto& [c, r, j] : use) lo = std::max(lo, busy.first_free(r) - j);
  for (std::int64_t s = lo;; s += 64) {
    // Windows whose first (most central) use is busy in both words it spans: each would stop at
    // that use, one window compared, so skip them and count them (the same count as before).
    const auto& [c0, r0, j0] = use[0];
    const std::int64_t w0 = (s + j0) / 64, skip = busy.next_open_word(r0, w0) - 1 - w0;
    if (skip > 0) {
      s += 64 * skip;
      work_ += skip;
    }
    while (s + h + 64 > busy.steps()) busy.resize(2 * busy.steps());
    std::uint64_t b = 0;
    for (std::size_t q = 0; q < use.size() && b != ~std::uint64_t{0}; ++q, ++work_)
      b |= busy.window(std::get<1>(use[q]), s + std::get<2>(use[q]));
    if (b != ~std::uint64_t{0}) return s + __builtin_ctzll(~b);
  }
}

// The dimensions route choice r of unit u moves in, in order (-1 past them): two choices give the
// same route exactly where these agree (on two dimensions: y first is new only where both
// dimensions have moves).
Coords3 MeshFit::moving_dims(const Unit& u, std::size_t r) const {
  Coords3 seq{-1, -1, -1};
  int k = 0;
  for (int i = 0; i < dims_; ++i)
    if (dist(u.src, u.dst, orders_[r][at(i)]) > 0) seq[at(k++)] = orders_[r][at(i)];
  return seq;
}

bool MeshFit::new_route(const Unit& u, std::size_t r) const {
  const Coords3 mine = moving_dims(u, r);
  for (std::size_t q = 0; q < r; ++q)
    if (moving_dims(u, q) == mine) return false;
  return true;
}

// Unit u at its earliest start on the earliest of its routes (the first in `orders` on a tie: x
// first); false for a unit of several images from or to the centre (placed one image at a time).
bool MeshFit::place(Unit u, BusyBits& busy, std::int64_t& makespan) {
  const std::int64_t h = hops(u.src, u.dst);
  if (std::popcount(u.images) > 1 && (u.src == centre_ || u.dst == centre_)) return false;
  std::int64_t first = -1;
  for (std::size_t r = 0; r < orders_.size(); ++r) {
    if (!new_route(u, r)) continue;
    unit_uses(u, r, uses_[r]);
    const std::int64_t s = earliest(busy, uses_[r], h);
    if (first < 0 || s < first) {
      first = s;
      u.route = static_cast<std::uint8_t>(r);
    }
  }
  u.start = static_cast<std::int32_t>(first);
  for (const auto& [c, r, j] : uses_[u.route]) busy.set(r, u.start + j);
  makespan = std::max(makespan, u.start + h);
  placed_.push_back(u);
  return true;
}

// One pass: every unit in `order_` placed; returns the makespan.
std::int64_t MeshFit::place_all() {
  BusyBits busy(resources_, bound_ + bound_ / 8 + 256);
  placed_.clear();
  std::int64_t makespan = 0;
  for (const std::uint32_t i : order_) {
    if (place(units_[i], busy, makespan)) continue;
    for (std::size_t g = 0; g < group_.size(); ++g)  // images that collide: one at a time
      if (units_[i].images & (1U << g)) {
        Unit one = units_[i];
        one.images = static_cast<std::uint8_t>(1U << g);
        (void)place(one, busy, makespan);
      }
  }
  return makespan;
}

Schedule MeshFit::run(std::vector<std::string>& log, std::int64_t lazy_above) {
  // Then, where the first pass was short, again with the units that ended past the bound moved to
  // the front (in their order); the shorter pass is kept. The prototype's third and fourth passes
  // were no better, so at most two.
  std::int64_t best = place_all();
  std::string passes = std::to_string(best) + " steps";
  std::vector<Unit> kept = placed_;
  if (best > bound_ && work_ <= kSecondPassMaxWindows) {
    std::vector<char> late(units_.size(), 0);
    for (const Unit& u : placed_)
      if (u.start + hops(u.src, u.dst) > bound_) late[u.index] = 1;
    std::stable_partition(order_.begin(), order_.end(), [&](std::uint32_t i) { return late[i] != 0; });
    const std::int64_t again = place_all();
    passes += ", then " + std::to_string(again) + " with the late ones first";
    if (again < best) {
      best = again;
      kept = placed_;
    }
  }
  // Every image as a message of its own, in start order.
  std::vector<Placed> messages;
  messages.reserve(at(n_) * at(n_ - 1));
  std::int64_t transfers = 0;
  for (const Unit& u : kept)
    for (std::size_t g = 0; g < group_.size(); ++g) {
      if (!(u.images & (1U << g))) continue;
      const NodeId s = group_[g][at(u.src)], d = group_[g][at(u.dst)];
      messages.push_back({s, d, u.start, image_route_[g][u.route]});
      transfers += hops(s, d);
    }
  std::stable_sort(messages.begin(), messages.end(), [](const Placed& a, const Placed& b) { return a.start < b.start; });
  auto plan = std::make_shared<FitPlan>(t_, std::move(messages));
  plan->steps = best;
  plan->transfers = transfers;
  log.push_back("xyfit: " + passes + " (" + std::to_string(work_) + " windows compared)");
  Schedule out{t_.spec(), m_, "xyfit", {}};
  out.source = std::make_shared<FitSource>(std::move(plan));
  if (transfers <= lazy_above) out.materialize();  // small: plain steps, as every generator's
  return out;
}

}  // namespace

std::string mesh_fit_why_not(const Topology& t) {
  if (!t.is_product() || t.factors().size() < 2 || t.factors().size() > 3 ||
      std::any_of(t.factors().begin(), t.factors().end(), [](const Factor& f) { return f.kind != FactorKind::Path; }))
    return "needs a 2-D or 3-D mesh (two or three path factors)";
  if (t.is_partial()) return "schedules every node, not the processors of a placed network";
  return "";
}

Schedule mesh_fit_schedule(const Topology& t, Model m, std::vector<std::string>& log, std::int64_t lazy_above) {
  return MeshFit(t, m).run(log, lazy_above);
}

}  // namespace totex
