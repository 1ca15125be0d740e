// SPDX-License-Identifier: Apache-2.0
#include "plot_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace totex::plot::detail {

std::string xml_escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:  // control bytes are not allowed in XML 1.0 at all
        out += (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') ? '?' : c;
    }
  }
  return out;
}

std::string num(double v) {
  if (!std::isfinite(v)) v = 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

namespace {
std::string rgb(double r, double g, double b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", static_cast<int>(std::lround(std::clamp(r, 0.0, 255.0))),
                static_cast<int>(std::lround(std::clamp(g, 0.0, 255.0))),
                static_cast<int>(std::lround(std::clamp(b, 0.0, 255.0))));
  return buf;
}
}  // namespace

std::string heat_colour(double t) {
  // YlOrRd stops: readable on white, and still distinct from the grey of idle links.
  static constexpr double stops[][3] = {{255, 237, 160}, {254, 178, 76}, {240, 59, 32}, {128, 0, 38}};
  t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * 3;
  const int i = std::min(2, static_cast<int>(t));
  const double f = t - i;
  return rgb(stops[i][0] + f * (stops[i + 1][0] - stops[i][0]), stops[i][1] + f * (stops[i + 1][1] - stops[i][1]),
             stops[i][2] + f * (stops[i + 1][2] - stops[i][2]));
}

std::string hue_colour(int i, int n) {
  const double h = 6.0 * (n > 0 ? static_cast<double>(i % n) / n : 0.0);  // HSV with s = 0.75, v = 0.85
  const double v = 0.85 * 255, c = v * 0.75, x = c * (1 - std::fabs(std::fmod(h, 2.0) - 1)), m = v - c;
  const int sector = static_cast<int>(h) % 6;
  const double r[] = {c, x, 0, 0, x, c}, g[] = {x, c, c, x, 0, 0}, b[] = {0, 0, x, c, c, x};
  return rgb(r[sector] + m, g[sector] + m, b[sector] + m);
}

Svg::Svg(double width, double height, std::string_view title) {
  out_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
       << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\"" << num(height)
       << "\" viewBox=\"0 0 " << num(width) << ' ' << num(height)
       << "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
       << "<title>" << xml_escape(title) << "</title>\n"
       << "<rect x=\"0\" y=\"0\" width=\"" << num(width) << "\" height=\"" << num(height) << "\" fill=\"white\"/>\n";
}

void Svg::rect(double x, double y, double w, double h, std::string_view fill, std::string_view extra) {
  out_ << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(w) << "\" height=\"" << num(h)
       << "\" fill=\"" << fill << '"' << (extra.empty() ? "" : " ") << extra << "/>\n";
}

void Svg::line(double x1, double y1, double x2, double y2, std::string_view stroke, double width, std::string_view extra) {
  out_ << "<line x1=\"" << num(x1) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x2) << "\" y2=\"" << num(y2)
       << "\" stroke=\"" << stroke << "\" stroke-width=\"" << num(width) << '"' << (extra.empty() ? "" : " ") << extra
       << "/>\n";
}

void Svg::curve(double x1, double y1, double cx, double cy, double x2, double y2, std::string_view stroke, double width,
                std::string_view extra) {
  out_ << "<path d=\"M" << num(x1) << ' ' << num(y1) << " Q" << num(cx) << ' ' << num(cy) << ' ' << num(x2) << ' '
       << num(y2) << "\" fill=\"none\" stroke=\"" << stroke << "\" stroke-width=\"" << num(width) << '"'
       << (extra.empty() ? "" : " ") << extra << "/>\n";
}

void Svg::circle(double x, double y, double r, std::string_view fill, std::string_view extra) {
  out_ << "<circle cx=\"" << num(x) << "\" cy=\"" << num(y) << "\" r=\"" << num(r) << "\" fill=\"" << fill << '"'
       << (extra.empty() ? "" : " ") << extra << "/>\n";
}

void Svg::text(double x, double y, std::string_view content, double size, std::string_view extra) {
  out_ << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" font-size=\"" << num(size) << '"'
       << (extra.empty() ? "" : " ") << extra << '>' << xml_escape(content) << "</text>\n";
}

void Svg::heat_legend(double x, double y, double lo, double hi, std::string_view label) {
  constexpr int kCells = 20;
  for (int i = 0; i < kCells; ++i) rect(x + i * 8, y, 8, 10, heat_colour(i / (kCells - 1.0)));
  text(x, y + 22, num(lo), 10);
  text(x + kCells * 8, y + 22, num(hi), 10, "text-anchor=\"end\"");
  text(x + kCells * 8 + 8, y + 9, label, 10);
}

}  // namespace totex::plot::detail
