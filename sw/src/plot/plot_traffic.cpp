// SPDX-License-Identifier: Apache-2.0
/// The traffic matrix as a heatmap (`totex plot --kind traffic`): flits from row to column, each
/// row's sum (what a node sends) and each column's (what it receives) as bars, and the lower bound
/// with the terms that bind.
#include <algorithm>

#include "plot_svg.hpp"
#include "totex/plot/plot.hpp"

namespace totex::plot {

using detail::num;

std::string traffic_svg(const Traffic& tr, const LowerBound& lb, const std::string& title) {
  constexpr int kMaxCells = 256;  // larger matrices are binned: a cell sums a block of pairs
  constexpr double kLeft = 70, kTop = 92, kBar = 80;
  const int n = tr.nodes();
  const int cells = std::min(n, kMaxCells);
  const double per_cell = static_cast<double>(n) / cells;
  const double cw = std::clamp(560.0 / cells, 1.0, 24.0), grid = cw * cells;
  auto bin = [&](NodeId v) { return std::min(cells - 1, static_cast<int>(v / per_cell)); };
  std::vector<std::int64_t> cell(static_cast<std::size_t>(cells) * static_cast<std::size_t>(cells), 0);
  tr.for_each([&](NodeId s, NodeId d, std::int64_t f) {
    cell[static_cast<std::size_t>(bin(s)) * static_cast<std::size_t>(cells) + static_cast<std::size_t>(bin(d))] += f;
  });
  std::vector<std::int64_t> row_sum(static_cast<std::size_t>(cells), 0), col_sum(static_cast<std::size_t>(cells), 0);
  std::int64_t max_sent = 0, max_received = 0;
  NodeId top_sender = 0, top_receiver = 0;
  for (NodeId v = 0; v < n; ++v) {
    row_sum[static_cast<std::size_t>(bin(v))] += tr.sent(v);
    col_sum[static_cast<std::size_t>(bin(v))] += tr.received(v);
    if (tr.sent(v) > max_sent) {
      max_sent = tr.sent(v);
      top_sender = v;
    }
    if (tr.received(v) > max_received) {
      max_received = tr.received(v);
      top_receiver = v;
    }
  }
  const std::int64_t cell_max = std::max<std::int64_t>(1, *std::max_element(cell.begin(), cell.end()));
  const std::int64_t row_max = std::max<std::int64_t>(1, *std::max_element(row_sum.begin(), row_sum.end()));
  const std::int64_t col_max = std::max<std::int64_t>(1, *std::max_element(col_sum.begin(), col_sum.end()));
  const double width = std::max(680.0, kLeft + grid + kBar + 90), height = kTop + grid + kBar + 70;
  detail::Svg svg(width, height, title);
  svg.text(12, 22, title, 15, "font-weight=\"bold\"");
  const std::string binding = main_term(lb).term;
  svg.text(12, 40,
           std::to_string(tr.total_flits()) + " flits over " + std::to_string(tr.pairs()) + " pairs; lower bound " +
               std::to_string(lb.steps) + " steps (" + binding + ")",
           11);
  svg.text(12, 56,
           "most sent: node " + std::to_string(top_sender) + ", " + std::to_string(max_sent) + " flits; most received: node " +
               std::to_string(top_receiver) + ", " + std::to_string(max_received) + " flits; digest " +
               tr.sha256().substr(0, 12),
           10);
  if (n > kMaxCells) svg.text(12, 70, "binned: a cell sums " + num(per_cell) + " x " + num(per_cell) + " pairs", 10);
  svg.text(kLeft, kTop - 6, "row: source, column: destination", 10);
  svg.rect(kLeft, kTop, grid, grid, "#f4f4f4");
  svg.raw("<g id=\"matrix\" shape-rendering=\"crispEdges\">\n");
  for (int r = 0; r < cells; ++r)
    for (int c = 0; c < cells; ++c) {
      const std::int64_t f = cell[static_cast<std::size_t>(r) * static_cast<std::size_t>(cells) + static_cast<std::size_t>(c)];
      if (f == 0) continue;
      svg.rect(kLeft + c * cw, kTop + r * cw, cw, cw, detail::heat_colour(static_cast<double>(f) / static_cast<double>(cell_max)),
               "data-flits=\"" + std::to_string(f) + "\"");
    }
  svg.raw("</g>\n");
  // Row sums (sent) to the right, column sums (received) below: the per-node terms of the bound.
  const double bar_x = kLeft + grid + 8, bar_y = kTop + grid + 8;
  svg.raw("<g id=\"sums\" shape-rendering=\"crispEdges\">\n");
  for (int i = 0; i < cells; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const double sent = kBar * static_cast<double>(row_sum[k]) / static_cast<double>(row_max);
    const double received = kBar * static_cast<double>(col_sum[k]) / static_cast<double>(col_max);
    if (sent > 0) svg.rect(bar_x, kTop + i * cw, sent, cw, detail::kBound, "data-sent=\"" + std::to_string(row_sum[k]) + "\"");
    if (received > 0)
      svg.rect(kLeft + i * cw, bar_y, cw, received, detail::kBusy, "data-received=\"" + std::to_string(col_sum[k]) + "\"");
  }
  svg.raw("</g>\n");
  svg.text(bar_x, kTop - 6, "sent (max " + std::to_string(row_max) + ")", 10);
  svg.text(kLeft + grid + 8, bar_y + kBar + 4, "received (max " + std::to_string(col_max) + ")", 10);
  svg.heat_legend(kLeft, height - 28, 0, static_cast<double>(cell_max), n > kMaxCells ? "flits per cell" : "flits per pair");
  return svg.str();
}

}  // namespace totex::plot
