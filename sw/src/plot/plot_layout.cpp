// SPDX-License-Identifier: Apache-2.0
/// Natural layouts of direct networks: rings on a circle, 2-D products on a grid (wrap links are
/// drawn as stubs by the caller), 3-D products as slices in depth, hypercubes and longer products as
/// nested grids (dimensions alternate between x and y, each block spaced past the previous one).
#include <cmath>
#include <numbers>

#include "totex/error.hpp"
#include "totex/plot/plot.hpp"

namespace totex::plot {
namespace {

constexpr double kMargin = 40;   // around the drawing
constexpr double kTop = 50;      // room for the title
constexpr double kBottom = 70;   // room for the legend

double unit_for(int nodes) { return nodes <= 64 ? 48 : nodes <= 256 ? 32 : 20; }

Layout circle(const Topology& t, std::string name) {
  Layout l;
  const int n = t.nodes();
  l.unit = unit_for(n);
  const double r = std::max(90.0, n * l.unit / (2 * std::numbers::pi));
  for (int v = 0; v < n; ++v) {
    const double a = 2 * std::numbers::pi * v / n - std::numbers::pi / 2;
    l.pos.push_back({kMargin + r + r * std::cos(a), kTop + r + r * std::sin(a)});
  }
  l.width = 2 * (kMargin + r);
  l.height = kTop + 2 * r + kBottom;
  l.curve_long = false;  // chords are already apart on a circle
  l.name = std::move(name);
  return l;
}

}  // namespace

Layout layout(const Topology& t) {
  if (t.nodes() > kMaxDrawnNodes)
    throw UsageError("--kind network: " + std::to_string(t.nodes()) + " nodes are too many to draw (at most " +
                     std::to_string(kMaxDrawnNodes) + "); --kind heatmap draws any size");
  if (!t.is_product()) return circle(t, "circle");
  const auto& f = t.factors();
  if (f.size() == 1 && f[0].kind != FactorKind::Path) return circle(t, f[0].kind == FactorKind::Ring ? "ring" : "circle");
  bool hypercube = f.size() > 1, ring = false;
  for (const Factor& x : f) {
    hypercube = hypercube && x.kind == FactorKind::Complete && x.size == 2;
    ring = ring || (x.kind == FactorKind::Ring && x.size > 2);
  }
  Layout l;
  l.unit = unit_for(t.nodes());
  if (f.size() == 3) {  // a 3-D grid in depth: slice d2 = c drawn c steps down and right of slice 0
    const double depth = std::max(2.6 * std::max(3.0, 0.13 * l.unit), 0.3 * l.unit);
    const double cell = l.unit + (f[2].size - 1) * depth;
    for (NodeId v = 0; v < t.nodes(); ++v) {
      const std::vector<int> c = t.coordinates(v);
      l.pos.push_back({kMargin + c[0] * cell + c[2] * depth, kTop + l.unit * 0.5 + c[1] * cell + c[2] * depth});
    }
    const double extent = (f[2].size - 1) * depth + l.unit;
    l.width = std::max(420.0, 2 * kMargin + (f[0].size - 1) * cell + extent);
    l.height = kTop + l.unit * 0.5 + (f[1].size - 1) * cell + extent + kBottom;
    l.name = ring ? "3-D grid with wrap links, slices along d2 in depth" : "3-D grid, slices along d2 in depth";
    return l;
  }
  // Dimensions alternate x, y; each further dimension on an axis repeats the block drawn so far,
  // one and a half units past its end.
  std::vector<double> stride(f.size());
  double extent[2] = {0, 0};
  for (std::size_t i = 0; i < f.size(); ++i) {
    const int axis = static_cast<int>(i % 2);
    stride[i] = extent[axis] == 0 && i < 2 ? l.unit : extent[axis] + 1.5 * l.unit;
    extent[axis] += (f[i].size - 1) * stride[i];
  }
  for (NodeId v = 0; v < t.nodes(); ++v) {
    const std::vector<int> c = t.coordinates(v);
    Point p{kMargin, kTop + l.unit * 0.5};
    for (std::size_t i = 0; i < f.size(); ++i) (i % 2 == 0 ? p.x : p.y) += c[i] * stride[i];
    l.pos.push_back(p);
  }
  const double slack = ring ? l.unit : 0;  // wrap stubs reach past the last row / column
  l.width = std::max(420.0, 2 * kMargin + extent[0] + slack);
  l.height = kTop + l.unit * 0.5 + extent[1] + slack + kBottom;
  l.name = hypercube ? "hypercube" : f.size() == 1 ? "line" : f.size() == 2 ? (ring ? "grid with wrap links" : "grid")
           : "nested grid";
  return l;
}

}  // namespace totex::plot
