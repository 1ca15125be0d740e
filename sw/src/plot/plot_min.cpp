// SPDX-License-Identifier: Apache-2.0
/// MIN pictures: stages of shift switches with one configuration's states and paths, and paper
/// 002's matrix A with its Latin-square check.
#include <algorithm>
#include <cmath>

#include "plot_svg.hpp"
#include "totex/error.hpp"
#include "totex/generators/generators.hpp"
#include "totex/plot/plot.hpp"

namespace totex::plot {

namespace detail {
MinGeometry min_geometry(int terminals, int stages) {
  MinGeometry g;
  g.pitch = std::clamp(560.0 / terminals, 3.0, 16.0);
  g.box = std::max(18.0, g.pitch * 1.6);
  g.top = 70;
  g.term_in = 50;
  const double gap = std::max(90.0, terminals * 1.2);  // room for the wiring's crossings
  for (int j = 0; j < stages; ++j) g.stage_x.push_back(g.term_in + 40 + j * (g.box + gap));
  g.term_out = g.stage_x.back() + g.box + 40;
  g.width = std::max(520.0, g.term_out + 60);
  g.height = g.top + terminals * g.pitch + 70;
  return g;
}
}  // namespace detail

using detail::num;

std::string min_network_svg(const MinNetwork& net, const MinSchedule& s, int config, const std::string& title) {
  const int n = net.terminals(), d = net.radix(), stages = net.stages();
  if (n > kMaxDrawnTerminals)
    throw UsageError("--kind network: a MIN of " + std::to_string(n) + " terminals is too large to draw (at most " +
                     std::to_string(kMaxDrawnTerminals) + "); --kind heatmap and --kind latin draw up to " +
                     std::to_string(kMaxLatinTerminals));
  if (config < 0 || config >= static_cast<int>(s.configurations.size()))
    throw UsageError("--step: '" + std::to_string(config) + "' is not accepted; accepted: 0.." +
                     std::to_string(s.configurations.size() - 1) + " (a MIN step is a configuration)");
  const detail::MinGeometry g = detail::min_geometry(n, stages);
  detail::Svg svg(g.width, g.height, title);
  svg.text(12, 22, title, 15, "font-weight=\"bold\"");
  svg.text(12, 40, "configuration " + std::to_string(config) + " of " + std::to_string(s.configurations.size()) +
                       ": switch states k (input u leaves on port (u+k) mod " + std::to_string(d) +
                       "), paths coloured by source",
           11, "id=\"caption\"");
  // Switch boxes, stage labels.
  for (int j = 0; j < stages; ++j) {
    svg.text(g.stage_x[static_cast<std::size_t>(j)], g.top - 18, "stage " + std::to_string(j), 10);
    for (int i = 0; i < net.switches_per_stage(); ++i)
      svg.rect(g.stage_x[static_cast<std::size_t>(j)], g.y(i * d) - g.pitch / 2, g.box, g.pitch * d, "#f2f2f2",
               "stroke=\"#737373\" stroke-width=\"0.8\"");
  }
  // Every terminal's path through this configuration, segment by segment.
  const MinConfiguration& c = s.configurations[static_cast<std::size_t>(config)];
  const double w = std::clamp(g.pitch / 4, 0.8, 2.0);
  svg.raw("<g id=\"paths\" fill=\"none\">\n");
  for (int src = 0; src < n; ++src) {
    const bool sends = s.sends(static_cast<std::size_t>(config), src);
    const std::string colour = sends ? detail::hue_colour(src, n) : detail::kIdle;
    double x = g.term_in, y = g.y(src);
    int line = src;
    for (int j = 0; j < stages; ++j) {
      line = net.line_into_stage(j, line);
      const double sx = g.stage_x[static_cast<std::size_t>(j)];
      svg.line(x, y, sx, g.y(line), colour, w);  // wiring into stage j
      const int sw = line / d;
      const int out = sw * d + (line % d + c[static_cast<std::size_t>(j * net.switches_per_stage() + sw)]) % d;
      svg.line(sx, g.y(line), sx + g.box, g.y(out), colour, w);  // through the switch in its state
      x = sx + g.box;
      y = g.y(out);
      line = out;
    }
    svg.line(x, y, g.term_out, y, colour, w);
  }
  svg.raw("</g>\n<g id=\"states\" font-size=\"" + num(std::min(11.0, g.pitch * d * 0.5)) + "\" fill=\"#000\">\n");
  if (g.pitch * d >= 10)
    for (int j = 0; j < stages; ++j)
      for (int i = 0; i < net.switches_per_stage(); ++i)
        svg.raw("<text x=\"" + num(g.stage_x[static_cast<std::size_t>(j)] + g.box / 2) + "\" y=\"" +
                num(g.y(i * d) - g.pitch / 2 - 2) + "\" text-anchor=\"middle\">" +
                std::to_string(c[static_cast<std::size_t>(j * net.switches_per_stage() + i)]) + "</text>\n");
  svg.raw("</g>\n");
  // Terminals.
  for (int t = 0; t < n; ++t) {
    svg.circle(g.term_in, g.y(t), std::max(1.5, g.pitch / 4), "#252525");
    svg.circle(g.term_out, g.y(t), std::max(1.5, g.pitch / 4), "#252525");
    if (g.pitch >= 8) {
      svg.text(g.term_in - 6, g.y(t) + 3, std::to_string(t), 8, "text-anchor=\"end\"");
      svg.text(g.term_out + 6, g.y(t) + 3, std::to_string(t), 8);
    }
  }
  svg.text(g.term_in - 20, g.top - 18, "inputs", 10);
  svg.text(g.term_out - 10, g.top - 18, "outputs", 10);
  svg.text(12, g.height - 24,
           net.spec() + ": " + std::to_string(stages) + " stages of " + std::to_string(net.switches_per_stage()) + " " +
               std::to_string(d) + "x" + std::to_string(d) + " shift switches; state numbers above the boxes",
           10);
  return svg.str();
}

std::string latin_svg(const MinNetwork& net, const MinSchedule& s, std::optional<int> highlight, const std::string& title) {
  const int n = net.terminals();
  if (n > kMaxLatinTerminals)
    throw UsageError("--kind latin: a MIN of " + std::to_string(n) + " terminals is too large to draw (at most " +
                     std::to_string(kMaxLatinTerminals) + ")");
  const int cols = static_cast<int>(s.configurations.size());
  if (highlight && (*highlight < 0 || *highlight >= cols))
    throw UsageError("--step: '" + std::to_string(*highlight) + "' is not accepted; accepted: 0.." + std::to_string(cols - 1));
  const std::vector<std::vector<int>> a = arrival_matrix(net, s);
  const bool latin = is_latin_square(a);
  const double cell = std::clamp(640.0 / std::max(n, cols), 0.6, 22.0);
  const double left = 70, top = 100;
  const double width = std::max(560.0, left + cols * cell + 30), height = top + n * cell + 60;
  detail::Svg svg(width, height, title);
  svg.text(12, 22, title, 15, "font-weight=\"bold\"");
  svg.text(12, 40,
           "matrix A: row j = output terminal, column x = configuration, cell = the input that reaches j in x "
           "(colour = input)",
           11);
  svg.text(12, 56,
           latin ? "a Latin square: every row and every column holds each input once, so every pair meets exactly once"
                 : "not a Latin square: some input reaches an output twice, or a pair is missing",
           11, latin ? "fill=\"#238b45\"" : "fill=\"#cb181d\"");
  svg.raw("<g id=\"matrix\">\n");
  for (int j = 0; j < n; ++j)
    for (int x = 0; x < cols; ++x) {
      const int src = a[static_cast<std::size_t>(j)][static_cast<std::size_t>(x)];
      svg.rect(left + x * cell, top + j * cell, cell, cell, src < 0 ? detail::kIdle : detail::hue_colour(src, n));
      if (cell >= 14 && src >= 0)
        svg.text(left + x * cell + cell / 2, top + j * cell + cell * 0.7, std::to_string(src), cell * 0.5,
                 "text-anchor=\"middle\" fill=\"#fff\"");
    }
  svg.raw("</g>\n");
  const int tick = std::max(1, static_cast<int>(std::ceil(14 / cell)));
  for (int x = 0; x < cols; x += tick) svg.text(left + x * cell + cell / 2, top - 4, std::to_string(x), 8, "text-anchor=\"middle\"");
  for (int j = 0; j < n; j += tick) svg.text(left - 4, top + j * cell + cell * 0.8, std::to_string(j), 8, "text-anchor=\"end\"");
  svg.text(left, top - 16, "configuration x", 10);
  if (highlight)
    svg.rect(left + *highlight * cell, top, cell, n * cell, "none", "stroke=\"#000\" stroke-width=\"2\" id=\"highlight\"");
  svg.text(12, height - 22,
           s.m0.empty() ? "configurations as stored (table form)"
                        : "computed form: M^x = M^0 (+)_d digit_{n-1-j}(x) (paper 002)",
           10);
  return svg.str();
}

}  // namespace totex::plot
