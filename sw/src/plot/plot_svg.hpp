// SPDX-License-Identifier: Apache-2.0
/// Private to the plot_*.cpp files: a minimal SVG writer and the colour scales they share.
#pragma once
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace totex::plot::detail {

/// Text content or attribute value with &, <, >, " escaped (titles quote user specs).
[[nodiscard]] std::string xml_escape(std::string_view text);
/// A number as SVG wants it: at most 2 decimals, no exponent.
[[nodiscard]] std::string num(double v);
/// Sequential scale for loads: t in [0,1] from pale yellow through orange to dark red.
[[nodiscard]] std::string heat_colour(double t);
/// A distinct hue per index (sources, destinations): i of n around the colour wheel.
[[nodiscard]] std::string hue_colour(int i, int n);

inline constexpr const char* kIdle = "#d9d9d9";
inline constexpr const char* kBusy = "#d7301f";
inline constexpr const char* kBound = "#1f78b4";

/// Where the MIN drawing puts things, shared by the static SVG and the viewer's script.
struct MinGeometry {
  double top = 0, pitch = 0, box = 0;  // y of line 0, distance between lines, switch box width
  double term_in = 0, term_out = 0;     // x of the input and output terminals
  std::vector<double> stage_x;          // x of the left edge of each stage's switches
  double width = 0, height = 0;
  [[nodiscard]] double y(int line) const { return top + line * pitch; }
};
[[nodiscard]] MinGeometry min_geometry(int terminals, int stages);

/// Builds one SVG document; elements are written as they are added.
class Svg {
 public:
  Svg(double width, double height, std::string_view title);
  void rect(double x, double y, double w, double h, std::string_view fill, std::string_view extra = "");
  void line(double x1, double y1, double x2, double y2, std::string_view stroke, double width,
            std::string_view extra = "");
  /// Quadratic curve from (x1,y1) to (x2,y2) bent through control point (cx,cy).
  void curve(double x1, double y1, double cx, double cy, double x2, double y2, std::string_view stroke, double width,
             std::string_view extra = "");
  void circle(double x, double y, double r, std::string_view fill, std::string_view extra = "");
  void text(double x, double y, std::string_view content, double size = 12, std::string_view extra = "");
  /// Raw markup (groups, ids); the caller writes well-formed XML.
  void raw(std::string_view markup) { out_ << markup; }
  /// A horizontal legend of the heat scale from `lo` to `hi` at (x, y).
  void heat_legend(double x, double y, double lo, double hi, std::string_view label);
  /// The finished document (the <svg> root closed).
  [[nodiscard]] std::string str() const { return out_.str() + "</svg>\n"; }

 private:
  std::ostringstream out_;
};

}  // namespace totex::plot::detail
