// SPDX-License-Identifier: Apache-2.0
/// Link x step utilisation with the idle share of every step and the lower bound drawn in.
#include <algorithm>
#include <numeric>

#include "plot_svg.hpp"
#include "totex/plot/plot.hpp"

namespace totex::plot {

using detail::num;

std::string heatmap_svg(const LinkUsage& u, const Bound& bound, const std::string& step_unit, const std::string& title) {
  constexpr int kMaxRows = 256, kMaxCols = 600;  // larger inputs are binned: a cell is then a busy fraction
  constexpr double kLeft = 90, kTop = 70, kIdleBand = 60;
  // Rows grouped by what they are (port name / stage), so a dimension or stage reads as a band.
  std::vector<std::int32_t> order(static_cast<std::size_t>(u.links));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
    return u.group[static_cast<std::size_t>(a)] < u.group[static_cast<std::size_t>(b)];
  });
  std::vector<std::int32_t> rank(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) rank[static_cast<std::size_t>(order[i])] = static_cast<std::int32_t>(i);
  const int steps = u.steps();
  const int rows = std::min(u.links, kMaxRows), cols = std::max(1, std::min(steps, kMaxCols));
  const double per_row = static_cast<double>(u.links) / rows, per_col = static_cast<double>(std::max(steps, 1)) / cols;
  const double cw = std::clamp(900.0 / cols, 1.0, 12.0), ch = std::clamp(520.0 / rows, 1.0, 10.0);
  const double grid_w = cw * cols, grid_h = ch * rows;
  const double width = std::max(640.0, kLeft + grid_w + 60), height = kTop + grid_h + kIdleBand + 110;
  detail::Svg svg(width, height, title);
  svg.text(12, 22, title, 15, "font-weight=\"bold\"");
  std::int64_t busy_total = 0;
  for (const auto& b : u.busy) busy_total += static_cast<std::int64_t>(b.size());
  const double mean_idle = steps == 0 ? 0 : 1 - static_cast<double>(busy_total) / (static_cast<double>(steps) * static_cast<double>(u.links));
  const std::int64_t gap = steps - bound.steps;
  svg.text(12, 40,
           std::to_string(steps) + " " + step_unit + "s against the lower bound " + std::to_string(bound.steps) +
               (bound.term.empty() ? "" : " (" + bound.term + ")") + ": " +
               (gap <= 0 ? "meets the bound" : "gap " + std::to_string(gap) + " (" +
                                                    num(100.0 * static_cast<double>(gap) / static_cast<double>(std::max<std::int64_t>(1, bound.steps))) + " %)") +
               "; mean idle share " + num(100 * mean_idle) + " %",
           11);
  if (u.links > kMaxRows || steps > kMaxCols)
    svg.text(12, 56, "binned: a cell is the busy share of " + num(per_row) + " rows x " + num(per_col) + " " + step_unit + "s", 10);
  svg.rect(kLeft, kTop, grid_w, grid_h, "#f4f4f4");
  // Steps past the bound tinted first, so that their idle cells show it (no opacity: every renderer agrees).
  const double bound_x = kLeft + (static_cast<double>(bound.steps) / per_col) * cw;
  if (bound.steps > 0 && bound.steps < steps) svg.rect(bound_x, kTop, kLeft + grid_w - bound_x, grid_h, "#cfe1f2");
  // Busy counts per cell, then one rect per non-empty cell.
  std::vector<int> cell(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols), 0);
  for (int s = 0; s < steps; ++s)
    for (const std::int32_t id : u.busy[static_cast<std::size_t>(s)]) {
      const int r = std::min(rows - 1, static_cast<int>(rank[static_cast<std::size_t>(id)] / per_row));
      const int c = std::min(cols - 1, static_cast<int>(s / per_col));
      ++cell[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c)];
    }
  // The viewer's slider draws a cursor over the step it shows; these say where steps are.
  svg.raw("<g id=\"cells\" shape-rendering=\"crispEdges\" data-left=\"" + num(kLeft) + "\" data-top=\"" + num(kTop) +
          "\" data-step-width=\"" + num(cw / per_col) + "\" data-height=\"" + num(grid_h) + "\">\n");
  // Runs of equal cells in a row are one rect: a busy link is usually busy for many steps in a row,
  // and the file stays small enough to put in a README.
  for (int r = 0; r < rows; ++r) {
    const int* row = &cell[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols)];
    for (int c = 0; c < cols;) {
      int e = c + 1;
      while (e < cols && row[e] == row[c]) ++e;
      if (row[c] > 0)
        svg.rect(kLeft + c * cw, kTop + r * ch, (e - c) * cw, ch, detail::heat_colour(0.35 + 0.65 * row[c] / (per_row * per_col)));
      c = e;
    }
  }
  svg.raw("</g>\n");
  // Group labels at the first row of each group that has room for one.
  double last_label = -100;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::string& g = u.group[static_cast<std::size_t>(order[i])];
    if (i > 0 && g == u.group[static_cast<std::size_t>(order[i - 1])]) continue;
    const double y = kTop + (static_cast<double>(i) / per_row) * ch;
    if (i > 0) svg.line(kLeft - 4, y, kLeft + grid_w, y, "#999", 0.5);
    if (y - last_label >= 10) {
      svg.text(kLeft - 6, y + 9, g, 9, "text-anchor=\"end\"");
      last_label = y;
    }
  }
  svg.text(12, kTop - 6, u.links > kMaxRows ? "rows (binned)" : "links", 10);
  // Idle share per step, as bars hanging below the grid.
  const double band = kTop + grid_h + 12;
  svg.rect(kLeft, band, grid_w, kIdleBand, "#fafafa", "stroke=\"#ccc\" stroke-width=\"0.5\"");
  for (int c = 0; c < cols; ++c) {
    std::int64_t busy = 0;
    const int s0 = static_cast<int>(c * per_col), s1 = std::min(steps, static_cast<int>((c + 1) * per_col));
    for (int s = s0; s < std::max(s1, s0 + 1) && s < steps; ++s) busy += static_cast<std::int64_t>(u.busy[static_cast<std::size_t>(s)].size());
    const double idle = 1 - static_cast<double>(busy) / (std::max(1, std::max(s1, s0 + 1) - s0) * static_cast<double>(u.links));
    svg.rect(kLeft + c * cw, band, cw, kIdleBand * idle, "#969696");
  }
  svg.text(kLeft - 6, band + 10, "idle", 9, "text-anchor=\"end\"");
  svg.text(kLeft - 6, band + 22, "share", 9, "text-anchor=\"end\"");
  svg.text(kLeft + grid_w + 4, band + 8, "0 %", 8);
  svg.text(kLeft + grid_w + 4, band + kIdleBand, "100 %", 8);
  // Step axis.
  const int tick = std::max(1, steps / 10);
  for (int s = 0; s < steps; s += tick)
    svg.text(kLeft + (s / per_col) * cw, band + kIdleBand + 14, std::to_string(s), 9);
  svg.text(kLeft + grid_w / 2, band + kIdleBand + 30, step_unit, 10, "text-anchor=\"middle\"");
  // The bound: everything right of it is time the bound says might not be needed.
  if (bound.steps > 0 && bound.steps <= steps) {
    const double x = bound_x;
    svg.line(x, kTop - 10, x, band + kIdleBand, detail::kBound, 2, "id=\"bound\"");
    svg.text(x + 3, kTop - 12, "lower bound " + std::to_string(bound.steps), 10, "fill=\"#1f78b4\"");
  }
  svg.heat_legend(12, height - 30, 0, 1, u.links > kMaxRows || steps > kMaxCols ? "busy share of a cell" : "busy");
  return svg.str();
}

}  // namespace totex::plot
