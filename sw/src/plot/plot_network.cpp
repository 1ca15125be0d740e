// SPDX-License-Identifier: Apache-2.0
/// A direct network in its natural layout, links coloured by load or by busy / idle in one step.
#include <algorithm>
#include <cmath>

#include "plot_svg.hpp"
#include "totex/error.hpp"
#include "totex/plot/plot.hpp"

namespace totex::plot {

using detail::num;

namespace {
/// How a link is drawn: a ring's wrap-around link (ends differ in one ring coordinate by its size
/// - 1) as two stubs; a step along a ring or path as a straight line; anything else (complete
/// graphs, hypercube dimensions past the first two) bent when it is longer than a unit.
enum class Shape { Wrap, Straight, Long };
Shape shape_of(const Topology& t, NodeId a, NodeId b) {
  if (!t.is_product()) return Shape::Long;
  const std::vector<int> ca = t.coordinates(a), cb = t.coordinates(b);
  for (std::size_t i = 0; i < ca.size(); ++i) {
    const Factor& f = t.factors()[i];
    if (ca[i] == cb[i]) continue;
    const int diff = std::abs(ca[i] - cb[i]);
    if (f.kind == FactorKind::Ring && f.size > 2 && diff == f.size - 1) return Shape::Wrap;
    return f.kind != FactorKind::Complete && diff == 1 ? Shape::Straight : Shape::Long;
  }
  return Shape::Long;
}
}  // namespace

std::string network_svg(const Topology& t, const LinkUsage& u, std::optional<int> step, const std::string& title) {
  const Layout l = layout(t);
  if (step && (*step < 0 || *step >= u.steps()))
    throw UsageError("--step: '" + std::to_string(*step) + "' is not accepted; accepted: 0.." +
                     std::to_string(u.steps() - 1));
  detail::Svg svg(l.width, l.height, title);
  svg.text(12, 22, title, 15, "font-weight=\"bold\"");
  svg.text(12, 40, "layout: " + l.name + (l.name.find("wrap") != std::string::npos ? " (dashed stubs)" : "") + (step ? "; step " + std::to_string(*step) : "; load over all steps"), 11,
           "id=\"caption\"");
  std::vector<bool> busy(static_cast<std::size_t>(t.links()), false);
  if (step)
    for (const std::int32_t id : u.busy[static_cast<std::size_t>(*step)]) busy[static_cast<std::size_t>(id)] = true;
  const std::int64_t max_load = u.load.empty() ? 0 : *std::max_element(u.load.begin(), u.load.end());
  const double node_r = std::max(3.0, l.unit * 0.13);
  svg.raw("<g id=\"links\" stroke-linecap=\"round\">\n");
  for (NodeId a = 0; a < t.nodes(); ++a)
    for (Port p = 0; p < t.degree(a); ++p) {
      const NodeId b = t.neighbor(a, p);
      const LinkId id = t.link_id(a, p);
      const Point lo = l.pos[static_cast<std::size_t>(std::min(a, b))], hi = l.pos[static_cast<std::size_t>(std::max(a, b))];
      const double dx = hi.x - lo.x, dy = hi.y - lo.y, len = std::hypot(dx, dy);
      if (len == 0) continue;
      const double nx = -dy / len, ny = dx / len;  // one normal per undirected edge
      const double side = a < b ? 1.8 : -1.8;      // the two directions side by side
      const Point& pa = l.pos[static_cast<std::size_t>(a)];
      const Point& pb = l.pos[static_cast<std::size_t>(b)];
      const std::string colour = step ? (busy[static_cast<std::size_t>(id)] ? detail::kBusy : detail::kIdle)
                                 : u.load[static_cast<std::size_t>(id)] == 0
                                     ? detail::kIdle
                                     : detail::heat_colour(static_cast<double>(u.load[static_cast<std::size_t>(id)]) /
                                                           static_cast<double>(max_load));
      const double width = step && busy[static_cast<std::size_t>(id)] ? 2.6 : step ? 1.1 : 2.0;
      const std::string attrs = "id=\"l" + std::to_string(id) + "\"";
      const Shape shape = shape_of(t, a, b);
      if (shape == Shape::Wrap && l.curve_long) {  // a ring's wrap link: a stub off each edge of the grid, one element
        const double ux = (pb.x - pa.x) / len, uy = (pb.y - pa.y) / len, stub = 0.42 * l.unit;
        svg.raw("<path d=\"M" + num(pa.x + nx * side) + ' ' + num(pa.y + ny * side) + " l" + num(-ux * stub) + ' ' +
                num(-uy * stub) + " M" + num(pb.x + nx * side) + ' ' + num(pb.y + ny * side) + " l" + num(ux * stub) +
                ' ' + num(uy * stub) + "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"" + num(width) +
                "\" stroke-dasharray=\"4 1.5\" " + attrs + "/>\n");
      } else if (shape == Shape::Long && l.curve_long && len > l.unit * 1.05) {  // long links (complete graphs, between slices): bent
        const double bend = std::min(0.25 * len, 0.45 * l.unit);
        const double cx = (pa.x + pb.x) / 2 + nx * (bend + side), cy = (pa.y + pb.y) / 2 + ny * (bend + side);
        svg.curve(pa.x + nx * side, pa.y + ny * side, cx, cy, pb.x + nx * side, pb.y + ny * side, colour, width, attrs);
      } else {
        svg.line(pa.x + nx * side, pa.y + ny * side, pb.x + nx * side, pb.y + ny * side, colour, width, attrs);
      }
    }
  svg.raw("</g>\n<g id=\"nodes\">\n");
  for (NodeId v = 0; v < t.nodes(); ++v) {
    const Point& p = l.pos[static_cast<std::size_t>(v)];
    if (t.is_processor(v)) svg.circle(p.x, p.y, node_r, "#252525");
    else svg.circle(p.x, p.y, node_r, "white", "stroke=\"#252525\" stroke-width=\"1.2\"");  // router only
    if (t.nodes() <= 64) svg.text(p.x + node_r + 1, p.y - node_r - 1, std::to_string(v), 8, "fill=\"#555\"");
  }
  svg.raw("</g>\n");
  const double y = l.height - 50;
  if (step) {
    const auto n_busy = static_cast<double>(u.busy[static_cast<std::size_t>(*step)].size());
    svg.rect(12, y, 16, 4, detail::kBusy);
    svg.text(32, y + 6, "busy", 10);
    svg.rect(72, y, 16, 4, detail::kIdle);
    svg.text(92, y + 6, "idle", 10);
    svg.text(12, y + 24,
             std::to_string(static_cast<long long>(n_busy)) + " of " + std::to_string(t.links()) + " directed links busy (" +
                 num(100.0 * (1 - n_busy / std::max(1, t.links()))) + " % idle) in step " + std::to_string(*step) +
                 " of " + std::to_string(u.steps()),
             11, "id=\"stepinfo\"");
  } else {
    svg.heat_legend(12, y, 1, static_cast<double>(max_load), "messages per directed link over the schedule");
    std::int64_t total = 0;
    for (const std::int64_t x : u.load) total += x;
    svg.text(12, y + 38,
             std::to_string(u.steps()) + " steps, " + std::to_string(total) + " link crossings, mean " +
                 num(static_cast<double>(total) / std::max(1, t.links())) + " per link" + (t.is_partial() ? "; hollow nodes: routers without a processor" : ""),
             10);
  }
  return svg.str();
}

}  // namespace totex::plot
