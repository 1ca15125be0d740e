// SPDX-License-Identifier: Apache-2.0
/// The cycle-level view of a simulation: a curve per engine and quantity over the cycles.
#include <algorithm>

#include "plot_svg.hpp"
#include "totex/plot/plot.hpp"

namespace totex::plot {

using detail::num;

std::string cycles_svg(const std::vector<Series>& series, std::int64_t bound, const std::string& title) {
  constexpr double kLeft = 70, kTop = 60, kW = 760, kH = 300;
  std::size_t cycles = 1;
  std::int64_t top = 1;
  for (const Series& s : series) {
    cycles = std::max(cycles, s.values.size());
    for (const std::int64_t v : s.values) top = std::max(top, v);
  }
  const double width = kLeft + kW + 40, height = kTop + kH + 70 + 16.0 * static_cast<double>(series.size());
  auto x_of = [&](double c) { return kLeft + kW * c / static_cast<double>(std::max<std::size_t>(1, cycles - 1)); };
  auto y_of = [&](double v) { return kTop + kH * (1 - v / static_cast<double>(top)); };
  detail::Svg svg(width, height, title);
  svg.text(12, 22, title, 15, "font-weight=\"bold\"");
  svg.line(kLeft, kTop, kLeft, kTop + kH, "#444", 1);
  svg.line(kLeft, kTop + kH, kLeft + kW, kTop + kH, "#444", 1);
  for (int i = 0; i <= 4; ++i) {
    const double v = static_cast<double>(top) * i / 4;
    svg.text(kLeft - 6, y_of(v) + 3, num(v), 9, "text-anchor=\"end\"");
  }
  const std::size_t tick = std::max<std::size_t>(1, cycles / 10);
  for (std::size_t c = 0; c < cycles; c += tick) svg.text(x_of(static_cast<double>(c)), kTop + kH + 14, std::to_string(c), 9);
  svg.text(kLeft + kW / 2, kTop + kH + 30, "cycle", 10, "text-anchor=\"middle\"");
  if (bound > 0 && static_cast<std::size_t>(bound) < cycles) {
    svg.line(x_of(static_cast<double>(bound)), kTop, x_of(static_cast<double>(bound)), kTop + kH, detail::kBound, 1.5,
             "stroke-dasharray=\"5 3\"");
    svg.text(x_of(static_cast<double>(bound)) + 3, kTop + 10, "lower bound " + std::to_string(bound), 10, "fill=\"#1f78b4\"");
  }
  const char* colours[] = {"#d7301f", "#3182bd", "#31a354", "#756bb1", "#636363"};
  for (std::size_t i = 0; i < series.size(); ++i) {
    std::string points;
    for (std::size_t c = 0; c < series[i].values.size(); ++c)
      points += num(x_of(static_cast<double>(c))) + "," + num(y_of(static_cast<double>(series[i].values[c]))) + " ";
    const char* colour = colours[i % 5];
    svg.raw("<polyline fill=\"none\" stroke=\"" + std::string(colour) + "\" stroke-width=\"" + (i == 0 ? "2.5" : "1.5") +
            "\"" + (i == 0 ? "" : " stroke-dasharray=\"4 2\"") + " points=\"" + points + "\"/>\n");
    const double ly = kTop + kH + 48 + 16.0 * static_cast<double>(i);
    svg.line(kLeft, ly - 4, kLeft + 20, ly - 4, colour, 2.5);
    svg.text(kLeft + 26, ly, series[i].name, 10);
  }
  return svg.str();
}

}  // namespace totex::plot
