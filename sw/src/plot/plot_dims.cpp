// SPDX-License-Identifier: Apache-2.0
/// Paper 004's link loads per dimension and direction on a (placed) torus: ODR against UDR.
#include <algorithm>

#include "plot_svg.hpp"
#include "totex/plot/plot.hpp"

namespace totex::plot {

using detail::num;

std::vector<DimensionLoad> schedule_dimension_loads(const Topology& torus, const LinkUsage& u) {
  std::vector<DimensionLoad> out;
  for (std::size_t j = 0; j < torus.factors().size(); ++j)
    for (const int dir : {1, -1}) {
      DimensionLoad d{static_cast<int>(j), dir, 0, 0};
      const Port p = static_cast<Port>(2 * j + (dir > 0 ? 0 : 1));
      for (NodeId v = 0; v < torus.nodes(); ++v) {
        const auto load = static_cast<double>(u.load[static_cast<std::size_t>(torus.link_id(v, p))]);
        d.max_load = std::max(d.max_load, load);
        d.mean_load += load / torus.nodes();
      }
      out.push_back(d);
    }
  return out;
}

std::string dims_svg(const LoadReport& odr, const LoadReport& udr, const std::string& title,
                     const std::optional<ScheduleLoads>& schedule) {
  constexpr double kLeft = 70, kTop = 80, kPlotH = 300, kBar = 28;
  const int bars = schedule ? 3 : 2;
  const double kGroup = bars * (kBar + 4) + 30;
  const double groups = static_cast<double>(odr.dimensions.size());
  double top_value = std::max(odr.lower_bound, udr.lower_bound);
  for (const auto* r : {&odr, &udr})
    for (const DimensionLoad& d : r->dimensions) top_value = std::max(top_value, d.max_load);
  if (schedule)
    for (const DimensionLoad& d : schedule->dimensions) top_value = std::max(top_value, d.max_load);
  top_value = std::max(1.0, top_value * 1.1);
  const double width = std::max(560.0, kLeft + groups * kGroup + 200), height = kTop + kPlotH + 90;
  auto y_of = [&](double v) { return kTop + kPlotH * (1 - v / top_value); };
  detail::Svg svg(width, height, title);
  svg.text(12, 22, title, 15, "font-weight=\"bold\"");
  svg.text(12, 40,
           std::to_string(odr.processors) + " processors; max link load E_max: ODR " + num(odr.max_load) + ", UDR " +
               num(udr.max_load) + "; lower bound on E_max " + num(odr.lower_bound) + " (paper 004, Lemma 1)",
           11);
  svg.text(12, 56, "bars: max load per dimension and direction; black tick: mean over that dimension's links", 10);
  svg.line(kLeft, kTop, kLeft, kTop + kPlotH, "#444", 1);
  svg.line(kLeft, kTop + kPlotH, kLeft + groups * kGroup + 10, kTop + kPlotH, "#444", 1);
  for (int i = 0; i <= 4; ++i) {
    const double v = top_value * i / 4;
    svg.text(kLeft - 6, y_of(v) + 3, num(v), 9, "text-anchor=\"end\"");
    svg.line(kLeft, y_of(v), kLeft + groups * kGroup + 10, y_of(v), "#eee", 0.5);
  }
  const char* colours[] = {"#e6550d", "#3182bd", "#31a354"};
  const std::vector<DimensionLoad>* series[] = {&odr.dimensions, &udr.dimensions,
                                                 schedule ? &schedule->dimensions : &odr.dimensions};
  for (std::size_t g = 0; g < odr.dimensions.size(); ++g) {
    const double x0 = kLeft + 10 + static_cast<double>(g) * kGroup;
    for (int r = 0; r < bars; ++r) {
      const DimensionLoad& d = (*series[r])[g];
      const double x = x0 + r * (kBar + 4);
      svg.rect(x, y_of(d.max_load), kBar, kTop + kPlotH - y_of(d.max_load), colours[r]);
      svg.text(x + kBar / 2, y_of(d.max_load) - 3, num(d.max_load), 9, "text-anchor=\"middle\"");
      svg.line(x - 2, y_of(d.mean_load), x + kBar + 2, y_of(d.mean_load), "#000", 2);
    }
    const DimensionLoad& d = odr.dimensions[g];
    svg.text(x0 + bars * (kBar + 4) / 2.0, kTop + kPlotH + 16, "d" + std::to_string(d.dimension) + (d.direction > 0 ? "+" : "-"), 11,
             "text-anchor=\"middle\"");
  }
  const double yb = y_of(odr.lower_bound);
  svg.line(kLeft, yb, kLeft + groups * kGroup + 10, yb, detail::kBound, 2, "stroke-dasharray=\"6 3\" id=\"bound\"");
  svg.text(kLeft + groups * kGroup + 14, yb + 4, "lower bound " + num(odr.lower_bound), 10, "fill=\"#1f78b4\"");
  const double lx = kLeft + groups * kGroup + 30;
  for (int r = 0; r < bars; ++r) {
    svg.rect(lx, kTop + 20 + r * 18, 12, 12, colours[r]);
    svg.text(lx + 18, kTop + 30 + r * 18,
             r == 0 ? "ODR (dimension order)" : r == 1 ? "UDR (every order, averaged)" : schedule->name, 10);
  }
  svg.text(12, height - 16, "dimension and direction (placement " + odr.placement + ")", 10);
  return svg.str();
}

}  // namespace totex::plot
