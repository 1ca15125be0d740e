// SPDX-License-Identifier: Apache-2.0
/// The single-file HTML viewer: the drawing of one step, a slider that redraws it, the heatmap.
/// No network access, no external script: the data sits in the page as JSON arrays.
#include <string>

#include "plot_svg.hpp"
#include "totex/plot/plot.hpp"

namespace totex::plot {
namespace {

using detail::num;
using detail::xml_escape;

/// An SVG document without its XML declaration, which has no place inside HTML.
std::string strip_declaration(const std::string& doc) { return doc.substr(doc.find("<svg")); }

std::string page_head(const std::string& title, int last) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + xml_escape(title) +
         "</title>\n<style>body{font-family:DejaVu Sans,Arial,sans-serif;margin:16px}"
         "#bar{position:sticky;top:0;background:#fff;padding:6px 0}input[type=range]{width:480px}"
         ".fig{margin:10px 0}</style></head>\n<body data-step=\"0\">\n<div id=\"bar\"><label>step "
         "<input type=\"range\" id=\"slider\" min=\"0\" max=\"" +
         std::to_string(last) + "\" value=\"0\"></label> <b id=\"steplabel\">0</b> of 0.." + std::to_string(last) +
         " <span id=\"drawn\"></span></div>\n";
}

/// Slider and URL: `#step=K` selects K through the slider's own handler; `#selftest` (for tests)
/// records what step K drew in #initial, then moves the slider to the first and the last step,
/// checks the drawing against the data each time and writes PASS or FAIL into #selftest.
const char* kSliderScript = R"JS(
const slider = document.getElementById('slider');
function cursor(k) {  // a box over step k in the heatmap below the drawing
  const cells = document.querySelector('#heat #cells');
  if (!cells) return;
  let box = document.getElementById('cursor');
  if (!box) {
    box = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    box.id = 'cursor'; box.setAttribute('fill', 'none'); box.setAttribute('stroke', '#000'); box.setAttribute('stroke-width', '1.5');
    cells.parentNode.appendChild(box);
  }
  const w = Number(cells.dataset.stepWidth);
  box.setAttribute('x', Number(cells.dataset.left) + k * w); box.setAttribute('width', Math.max(w, 2));
  box.setAttribute('y', Number(cells.dataset.top) - 2); box.setAttribute('height', Number(cells.dataset.height) + 4);
}
slider.addEventListener('input', () => { show(Number(slider.value)); cursor(Number(slider.value)); });
function moveTo(k) { slider.value = String(k); slider.dispatchEvent(new Event('input')); }
function start() {
  const h = location.hash;
  const m = /step=(\d+)/.exec(h);
  moveTo(m ? Math.min(Number(m[1]), Number(slider.max)) : 0);
  if (h.indexOf('selftest') >= 0) {  // keep what the URL's step drew, then move the slider
    const initial = document.createElement('pre'); initial.id = 'initial';
    initial.textContent = 'initial ' + document.getElementById('drawn').textContent;
    document.body.appendChild(initial);
    moveTo(0); const first = drawnSignature();
    moveTo(Number(slider.max)); const last = drawnSignature();
    const ok = drawnMatchesData(0) && drawnMatchesData(Number(slider.max)) && first !== last;
    const out = document.createElement('pre'); out.id = 'selftest';
    out.textContent = 'selftest: ' + (ok ? 'PASS' : 'FAIL') + ' step 0 drew [' + first + '], step ' + slider.max +
                      ' drew [' + last + ']';
    document.body.appendChild(out);
  }
}
document.addEventListener('DOMContentLoaded', start);
)JS";

}  // namespace

std::string viewer_html(const Topology& t, const LinkUsage& u, const Bound& bound, const std::string& title) {
  std::string busy = "[";
  for (int s = 0; s < u.steps(); ++s) {
    busy += s ? ",[" : "[";
    for (std::size_t i = 0; i < u.busy[static_cast<std::size_t>(s)].size(); ++i)
      busy += (i ? "," : "") + std::to_string(u.busy[static_cast<std::size_t>(s)][i]);
    busy += "]";
  }
  busy += "]";
  std::string html = page_head(title, u.steps() - 1);
  html += "<div class=\"fig\" id=\"net\">" + strip_declaration(network_svg(t, u, 0, title)) + "</div>\n";
  html += "<div class=\"fig\" id=\"heat\">" +
          strip_declaration(heatmap_svg(u, bound, "step", title + ": link x step utilisation")) + "</div>\n";
  html += "<script>\nconst BUSY = " + busy + ";\nconst LINKS = " + std::to_string(u.links) + ";\nconst IDLE = '" +
          detail::kIdle + "', HOT = '" + detail::kBusy + R"JS(';
const links = document.querySelectorAll('#net #links > *');
function show(k) {
  const on = new Set(BUSY[k]);
  links.forEach(el => {
    const b = on.has(Number(el.id.slice(1)));
    el.setAttribute('stroke', b ? HOT : IDLE);
    el.setAttribute('stroke-width', b ? '2.6' : '1.1');
  });
  document.body.dataset.step = String(k);
  document.getElementById('steplabel').textContent = String(k);
  const idle = (100 * (1 - BUSY[k].length / LINKS)).toFixed(1);
  document.getElementById('stepinfo').textContent =
      BUSY[k].length + ' of ' + LINKS + ' directed links busy (' + idle + ' % idle) in step ' + k + ' of ' + BUSY.length;
  document.getElementById('caption').textContent = 'step ' + k;
  document.getElementById('drawn').textContent = 'drawn: step ' + k + ', ' + drawnBusy().length + ' busy links';
}
function drawnBusy() { return Array.from(links).filter(el => el.getAttribute('stroke') === HOT).map(el => el.id); }
function drawnSignature() { return drawnBusy().join(' '); }
function drawnMatchesData(k) {
  moveTo(k);
  const drawn = drawnBusy().map(id => Number(id.slice(1))).sort((a, b) => a - b);
  return drawn.length === BUSY[k].length && drawn.every((v, i) => v === BUSY[k][i]);
}
)JS";
  html += kSliderScript;
  html += "</script>\n</body></html>\n";
  return html;
}

std::string viewer_html(const MinNetwork& net, const MinSchedule& s, const Bound& bound, const std::string& title) {
  const int n = net.terminals(), d = net.radix(), stages = net.stages();
  const detail::MinGeometry g = detail::min_geometry(n, stages);
  std::string into = "[", cfg = "[", idle = "[", sx = "[";
  for (int j = 0; j < stages; ++j) {
    into += j ? ",[" : "[";
    for (int l = 0; l < n; ++l) into += (l ? "," : "") + std::to_string(net.line_into_stage(j, l));
    into += "]";
    sx += (j ? "," : "") + num(g.stage_x[static_cast<std::size_t>(j)]);
  }
  for (std::size_t x = 0; x < s.configurations.size(); ++x) {
    cfg += x ? ",[" : "[";
    idle += x ? ",[" : "[";
    for (std::size_t i = 0; i < s.configurations[x].size(); ++i) cfg += (i ? "," : "") + std::to_string(s.configurations[x][i]);
    for (int t = 0, k = 0; t < n; ++t)
      if (!s.sends(x, t)) idle += (k++ ? "," : "") + std::to_string(t);
    cfg += "]";
    idle += "]";
  }
  into += "]";
  cfg += "]";
  idle += "]";
  sx += "]";
  std::string html = page_head(title, static_cast<int>(s.configurations.size()) - 1);
  html += "<div class=\"fig\" id=\"net\">" + strip_declaration(min_network_svg(net, s, 0, title)) + "</div>\n";
  if (n <= kMaxLatinTerminals)
    html += "<div class=\"fig\" id=\"latin\">" + strip_declaration(latin_svg(net, s, 0, title + ": matrix A")) + "</div>\n";
  html += "<div class=\"fig\" id=\"heat\">" +
          strip_declaration(heatmap_svg(min_line_usage(net, s), bound, "cycle", title + ": line x cycle utilisation")) + "</div>\n";
  html += "<script>\nconst N = " + std::to_string(n) + ", D = " + std::to_string(d) + ", STAGES = " +
          std::to_string(stages) + ", PER = " + std::to_string(net.switches_per_stage()) + ";\nconst INTO = " + into +
          ";\nconst CFG = " + cfg + ";\nconst IDLE = " + idle + ";\nconst G = {top: " + num(g.top) + ", pitch: " +
          num(g.pitch) + ", box: " + num(g.box) + ", termIn: " + num(g.term_in) + ", termOut: " + num(g.term_out) +
          ", stageX: " + sx + "};\nconst IDLE_COLOUR = '" + detail::kIdle + R"JS(';
const NS = 'http://www.w3.org/2000/svg';
const y = line => G.top + line * G.pitch;
function hue(i) {  // the same HSV wheel as the static pictures (s = 0.75, v = 0.85)
  const h = 6 * (i % N) / N, v = 0.85 * 255, c = v * 0.75, x = c * (1 - Math.abs(h % 2 - 1)), m = v - c;
  const k = Math.floor(h) % 6, r = [c, x, 0, 0, x, c][k], g = [x, c, c, x, 0, 0][k], b = [0, 0, x, c, c, x][k];
  return '#' + [r, g, b].map(q => Math.round(q + m).toString(16).padStart(2, '0')).join('');
}
function seg(group, x1, y1, x2, y2, colour, w) {
  const l = document.createElementNS(NS, 'line');
  l.setAttribute('x1', x1); l.setAttribute('y1', y1); l.setAttribute('x2', x2); l.setAttribute('y2', y2);
  l.setAttribute('stroke', colour); l.setAttribute('stroke-width', w);
  group.appendChild(l);
}
const hl = document.getElementById('highlight');
const hlX0 = hl ? Number(hl.getAttribute('x')) : 0, hlW = hl ? Number(hl.getAttribute('width')) : 0;
function show(k) {
  const paths = document.querySelector('#net #paths');
  while (paths.firstChild) paths.removeChild(paths.firstChild);
  const w = Math.min(2, Math.max(0.8, G.pitch / 4)), idle = new Set(IDLE[k]), c = CFG[k];
  for (let src = 0; src < N; ++src) {
    const colour = idle.has(src) ? IDLE_COLOUR : hue(src);
    let x = G.termIn, yy = y(src), line = src;
    for (let j = 0; j < STAGES; ++j) {
      line = INTO[j][line];
      const sx = G.stageX[j], sw = Math.floor(line / D), out = sw * D + (line % D + c[j * PER + sw]) % D;
      seg(paths, x, yy, sx, y(line), colour, w);
      seg(paths, sx, y(line), sx + G.box, y(out), colour, w);
      x = sx + G.box; yy = y(out); line = out;
    }
    seg(paths, x, yy, G.termOut, yy, colour, w);
  }
  const states = document.querySelectorAll('#net #states text');
  states.forEach((t, i) => { t.textContent = String(c[i]); });
  if (hl) hl.setAttribute('x', hlX0 + k * hlW);
  document.body.dataset.step = String(k);
  document.getElementById('steplabel').textContent = String(k);
  document.getElementById('caption').textContent = 'configuration ' + k + ' of ' + CFG.length + ': shift states and paths';
  document.getElementById('drawn').textContent = 'drawn: configuration ' + k + ', paths end at ' + drawnSignature();
}
function drawnSignature() {  // what the page shows: the first switch states and where each path ends
  const ends = Array.from(document.querySelectorAll('#net #paths line')).filter((l, i) => i % (2 * STAGES + 1) === 2 * STAGES)
                   .map(l => Math.round((Number(l.getAttribute('y1')) - G.top) / G.pitch));
  return ends.join(' ');
}
function drawnMatchesData(k) {
  moveTo(k);
  const ends = drawnSignature().split(' ').map(Number);
  for (let src = 0; src < N; ++src) {  // route independently of show(): where must src end?
    let line = src;
    for (let j = 0; j < STAGES; ++j) {
      line = INTO[j][line];
      const sw = Math.floor(line / D);
      line = sw * D + (line % D + CFG[k][j * PER + sw]) % D;
    }
    if (ends[src] !== line) return false;
  }
  return true;
}
)JS";
  html += kSliderScript;
  html += "</script>\n</body></html>\n";
  return html;
}

}  // namespace totex::plot
