// SPDX-License-Identifier: Apache-2.0
/// Pictures of networks and schedules (`totex plot`, `totex sim --plot`): self-contained SVG
/// documents, and one HTML file with a step slider. Every function returns the whole document.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "totex/bounds/bounds.hpp"
#include "totex/network/min_network.hpp"
#include "totex/network/placement.hpp"
#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"
#include "totex/traffic/traffic.hpp"

namespace totex::plot {

/// Largest pictures drawn element by element; larger inputs are refused with a UsageError that
/// names the limit (a picture of 65536 nodes is not readable, and its SVG would be hundreds of MB).
inline constexpr int kMaxDrawnNodes = 1024;     // direct network drawing
inline constexpr int kMaxDrawnTerminals = 256;  // MIN stages drawing
inline constexpr int kMaxLatinTerminals = 1024; // configuration matrix

/// Which links carry a message in which step. Direct networks: one row per directed link (LinkId),
/// a step per schedule step. MINs: one row per line leaving a stage (stage * N + line), a column
/// per cycle (configuration x crosses stage j in cycle x + j).
struct LinkUsage {
  int links = 0;
  std::vector<std::vector<std::int32_t>> busy;  // per step: the busy rows, increasing
  std::vector<std::int64_t> load;               // per row: messages over the whole schedule
  std::vector<std::string> group;               // per row: what it is ("d0+", "stage 1"), for labels
  [[nodiscard]] int steps() const { return static_cast<int>(busy.size()); }
};
[[nodiscard]] LinkUsage link_usage(const Topology& t, const Schedule& s);
[[nodiscard]] LinkUsage min_line_usage(const MinNetwork& net, const MinSchedule& s);

/// Where each node is drawn, in SVG units, and the name of the layout ("ring", "grid with wrap
/// links", "3-D grid", "hypercube", "nested grid", "circle").
struct Point {
  double x = 0, y = 0;
};
struct Layout {
  std::vector<Point> pos;
  double width = 0, height = 0;
  double unit = 0;           // distance of neighbours in the layout
  bool curve_long = true;    // links longer than a unit (wrap, complete-graph) drawn bent
  std::string name;
};
[[nodiscard]] Layout layout(const Topology& t);

/// What a picture compares against: the lower bound and the term that gives it.
struct Bound {
  std::int64_t steps = 0;
  std::string term;
};
[[nodiscard]] Bound main_term(const LowerBound& lb);

/// The network in its natural layout, every directed link coloured by its load over the whole
/// schedule, or, with `step`, busy / idle in that step. Empty processors (placed tori) are hollow.
[[nodiscard]] std::string network_svg(const Topology& t, const LinkUsage& u, std::optional<int> step,
                                      const std::string& title);
/// Link x step utilisation: a cell per busy (link, step), links grouped by port, the idle share of
/// every step below, and the lower bound as a vertical line (steps past it shaded).
[[nodiscard]] std::string heatmap_svg(const LinkUsage& u, const Bound& bound, const std::string& step_unit,
                                      const std::string& title);
/// The traffic matrix (row: source, column: destination, cell: flits) as a heatmap, binned past 256
/// nodes, with each row's and column's sum as bars and the lower bound `lb` with its binding terms.
[[nodiscard]] std::string traffic_svg(const Traffic& tr, const LowerBound& lb, const std::string& title);
/// The MIN's stages, switches and wiring with the shift state of every switch in configuration
/// `config`, and each terminal's path coloured by its source.
[[nodiscard]] std::string min_network_svg(const MinNetwork& net, const MinSchedule& s, int config,
                                          const std::string& title);
/// Paper 002's matrix A (row = output terminal j, column = configuration x, cell = the input that
/// reaches j in x), whether it is a Latin square, and `highlight` (a configuration) outlined.
[[nodiscard]] std::string latin_svg(const MinNetwork& net, const MinSchedule& s, std::optional<int> highlight,
                                    const std::string& title);
/// Paper 004's link loads per dimension and direction, ODR against UDR (max and mean), with the
/// lower bound on E_max; with `schedule` (from schedule_dimension_loads), a schedule's own loads beside them.
struct ScheduleLoads {
  std::string name;                      // e.g. "pattern schedule"
  std::vector<DimensionLoad> dimensions;  // same order as LoadReport::dimensions
};
[[nodiscard]] std::string dims_svg(const LoadReport& odr, const LoadReport& udr, const std::string& title,
                                   const std::optional<ScheduleLoads>& schedule = std::nullopt);
/// Messages a schedule sends over each link of a torus (ports 2j / 2j+1 are dimension j's + / -),
/// as max and mean per dimension and direction: the same unit as paper 004's loads.
[[nodiscard]] std::vector<DimensionLoad> schedule_dimension_loads(const Topology& torus, const LinkUsage& u);

/// One curve of the cycle-level view: a value per cycle.
struct Series {
  std::string name;
  std::vector<std::int64_t> values;
};
/// Messages in flight (and delivered) per cycle, a curve per engine.
[[nodiscard]] std::string cycles_svg(const std::vector<Series>& series, std::int64_t bound, const std::string& title);

/// One self-contained HTML page: the network drawing with a step slider (direct networks: busy
/// links of the step; MINs: switch states of the configuration and its paths) and the heatmap.
/// `#step=K` in the URL selects step K on load, through the same handler the slider calls.
[[nodiscard]] std::string viewer_html(const Topology& t, const LinkUsage& u, const Bound& bound, const std::string& title);
[[nodiscard]] std::string viewer_html(const MinNetwork& net, const MinSchedule& s, const Bound& bound,
                                      const std::string& title);

}  // namespace totex::plot
