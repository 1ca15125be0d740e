// SPDX-License-Identifier: Apache-2.0
// T-CREST formats: S4NoC .shd routes and slot tables, Poseidon schedule XML (docs/periodic.md).
#include "totex/io/shd.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <map>
#include <ostream>
#include <sstream>
#include <vector>

#include "totex/error.hpp"
#include "line_reader.hpp"

namespace totex {
namespace {

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

/// No route is longer than this many characters (its slot's spaces included).
constexpr std::size_t kMaxShdLine = 100000;

/// Router ports as T-CREST names them, in the order the tables list them.
constexpr char kPortName[5] = {'N', 'E', 'S', 'W', 'L'};
enum Side { kN = 0, kE = 1, kS = 2, kW = 3, kL = 4 };

/// The side of `from` that link from->to leaves by (E: x + 1, W: x - 1, S: y + 1, N: y - 1; x is
/// dimension 0, y dimension 1, wrapping round a ring).
int side_of(const Topology& t, NodeId from, NodeId to) {
  const std::vector<int> a = t.coordinates(from), b = t.coordinates(to);
  for (int d = 0; d < 2; ++d) {
    const int k = t.factors()[at(d)].size;
    if (a[at(d)] == b[at(d)]) continue;
    const bool plus = (a[at(d)] + 1) % k == b[at(d)];
    return d == 0 ? (plus ? kE : kW) : (plus ? kS : kN);
  }
  return kL;
}

int opposite(int side) { return side == kN ? kS : side == kS ? kN : side == kE ? kW : side == kW ? kE : kL; }

/// One node's routes: per destination, the injection step and the sides taken.
struct Route {
  std::int64_t slot = -1;
  std::string letters;
};

std::map<std::vector<int>, Route> routes_of(const Topology& t, const std::vector<std::vector<std::pair<std::int64_t, Transfer>>>& by_src,
                                            NodeId v) {
  std::map<std::vector<int>, Route> out;
  const std::vector<int> cv = t.coordinates(v);
  for (const auto& [step, tr] : by_src[at(v)]) {
    const std::vector<int> cd = t.coordinates(tr.msg.dst);
    std::vector<int> off(2);
    for (int d = 0; d < 2; ++d) {
      const int k = t.factors()[at(d)].size;
      off[at(d)] = ((cd[at(d)] - cv[at(d)]) % k + k) % k;
    }
    Route& r = out[off];
    if (r.slot < 0) r.slot = step;
    r.letters += static_cast<char>(std::tolower(kPortName[side_of(t, tr.from, t.neighbor(tr.from, tr.port))]));
  }
  return out;
}

void require_torus(const Topology& t, const char* what) {
  if (!shd_torus(t)) throw UsageError(std::string(what) + ": needs a 2-D torus torus:K1xK2, not " + t.spec());
}

}  // namespace

bool shd_torus(const Topology& t) {
  return shd_topology(t) && t.factors()[0].kind != FactorKind::Path && !t.is_partial();
}

bool shd_topology(const Topology& t) {
  if (!t.is_product() || t.factors().size() != 2) return false;
  const auto& f = t.factors();
  // Sizes >= 2: a side of 2 is one link, which e and w (or s and n) both name (S4NoC's bt2x2).
  auto ring = [](const Factor& x) { return x.kind == FactorKind::Ring || (x.kind == FactorKind::Complete && x.size == 2); };
  return (ring(f[0]) && ring(f[1])) || (f[0].kind == FactorKind::Path && f[1].kind == FactorKind::Path);
}

Schedule read_shd(std::istream& in, const std::string& name, const Topology& t, Model m) {
  require_torus(t, "reading .shd");
  Schedule s{t.spec(), m, "shd", {}};
  struct Line {
    int slot;
    std::string hops;
    int no;
  };
  std::vector<Line> lines;
  // Streamed, inflated when gzip, and a line refused as soon as it passes the limit (no route is
  // that long), so a small file cannot grow memory before it is refused.
  io_detail::ByteSource bytes(in, name);
  io_detail::LineReader reader(bytes, name, {kMaxShdLine, ".shd"});
  std::string_view raw;
  const std::int64_t destinations = t.nodes() - 1;
  std::uint64_t letters = 0;
  while (reader.next_raw(raw)) {
    const int line_no = reader.line();
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);  // the S4NoC files end lines with CRLF
    const std::size_t first = raw.find_first_not_of(' ');
    if (first == std::string_view::npos) continue;  // blank
    std::string_view hops = raw.substr(first);
    while (!hops.empty() && hops.back() == ' ') hops.remove_suffix(1);
    for (std::size_t i = 0; i < hops.size(); ++i)
      if (hops[i] != 'n' && hops[i] != 'e' && hops[i] != 's' && hops[i] != 'w')
        throw FileError(name, line_no, "'" + printable(hops.substr(i, 1)) + "' at column " + std::to_string(first + i + 1) +
                                           " is not a hop letter (n e s w) or a leading space");
    if (static_cast<std::int64_t>(lines.size()) == destinations)
      throw FileError(name, line_no, "more than " + std::to_string(destinations) + " routes, the destinations of a node of " +
                                         t.spec() + " (.shd has one route per destination)");
    letters += hops.size();
    check_memory(letters * static_cast<std::uint64_t>(t.nodes()), sizeof(Transfer), "the routes of this .shd on " + t.spec());
    lines.push_back({static_cast<int>(first), std::string(hops), line_no});
  }
  if (lines.empty())
    throw FileError(name, std::max(reader.line(), 1), std::string(reader.line() == 0 ? "empty file" : "no routes") +
                                                        " (expected one line per route: spaces then n/e/s/w letters)");
  const int kx = t.factors()[0].size, ky = t.factors()[1].size;
  std::map<std::pair<int, int>, int> line_of_offset;  // one route per destination
  for (const Line& l : lines) {
    int dx = 0, dy = 0;
    for (char c : l.hops) {
      if (c == 'e') ++dx;
      if (c == 'w') --dx;
      if (c == 's') ++dy;
      if (c == 'n') --dy;
    }
    const std::pair<int, int> offset{((dx % kx) + kx) % kx, ((dy % ky) + ky) % ky};
    if (offset == std::pair<int, int>{0, 0})
      throw FileError(name, l.no, "route '" + printable(l.hops) + "' returns to its source on " + t.spec());
    if (const auto [it, fresh] = line_of_offset.emplace(offset, l.no); !fresh)
      throw FileError(name, l.no, "route '" + printable(l.hops) + "' goes to offset (" + std::to_string(offset.first) + "," +
                                      std::to_string(offset.second) + "), as line " + std::to_string(it->second) +
                                      " does; .shd has one route per destination");
  }
  for (NodeId v = 0; v < t.nodes(); ++v) {
    for (const Line& l : lines) {
      std::vector<int> c = t.coordinates(v);
      std::vector<std::pair<NodeId, NodeId>> hops;
      for (char ch : l.hops) {
        const NodeId from = t.node_at(c);
        if (ch == 'e') c[0] = (c[0] + 1) % kx;
        if (ch == 'w') c[0] = (c[0] + kx - 1) % kx;
        if (ch == 's') c[1] = (c[1] + 1) % ky;
        if (ch == 'n') c[1] = (c[1] + ky - 1) % ky;
        hops.emplace_back(from, t.node_at(c));
      }
      const NodeId dst = t.node_at(c);
      for (std::size_t j = 0; j < hops.size(); ++j) {
        const std::size_t step = at(l.slot) + j;
        if (s.steps.size() <= step) s.steps.resize(step + 1);
        s.steps[step].push_back({{v, dst}, hops[j].first, *t.port_to(hops[j].first, hops[j].second)});
      }
    }
  }
  return s;
}

Schedule read_shd_file(const std::string& path, const Topology& t, Model m) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw FileError(path, 0, "is a directory, not a .shd file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FileError(path, 0, std::string("cannot open file: ") + std::strerror(errno));
  return read_shd(in, path, t, m);
}

namespace {

/// Node 0's routes, after checking every node uses the same ones (translation invariance).
std::map<std::vector<int>, Route> invariant_routes(const Topology& t, const Schedule& s, std::int64_t& makespan) {
  std::vector<std::vector<std::pair<std::int64_t, Transfer>>> by_src(at(t.nodes()));
  makespan = 0;
  s.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
    for (const Transfer& tr : step) {
      if (tr.msg.src < 0 || tr.msg.src >= t.nodes()) throw UsageError("the schedule has a message from a node not in " + t.spec());
      by_src[at(tr.msg.src)].emplace_back(static_cast<std::int64_t>(i), tr);
      makespan = static_cast<std::int64_t>(i) + 1;
    }
  });
  // Steps are visited in order, so each message's hops are in order within by_src.
  for (auto& list : by_src)
    std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.second.msg.dst < b.second.msg.dst; });
  const auto base = routes_of(t, by_src, 0);
  for (NodeId v = 1; v < t.nodes(); ++v) {
    const auto mine = routes_of(t, by_src, v);
    bool same = mine.size() == base.size();
    for (auto it = mine.begin(), jt = base.begin(); same && it != mine.end(); ++it, ++jt)
      same = it->first == jt->first && it->second.slot == jt->second.slot && it->second.letters == jt->second.letters;
    if (!same)
      throw UsageError("the schedule is not translation-invariant: node " + std::to_string(v) +
                       "'s routes differ from node 0's (.shd gives one route list for every node)");
  }
  return base;
}

}  // namespace

void write_shd(std::ostream& out, const Topology& t, const Schedule& s) {
  require_torus(t, "writing .shd");
  std::int64_t makespan = 0;
  const auto routes = invariant_routes(t, s, makespan);
  std::vector<const Route*> order;
  for (const auto& [off, r] : routes) order.push_back(&r);
  std::stable_sort(order.begin(), order.end(), [](const Route* a, const Route* b) { return a->slot < b->slot; });
  if (s.period <= 0 || makespan <= s.period) {
    for (const Route* r : order) out << std::string(at(r->slot), ' ') << r->letters << '\n';
    return;
  }
  // The routes run past the period. A periodic schedule is the same schedule from any slot on, so
  // look for a slot c that no route spans (mod P): started there, every route ends inside the period
  // and .shd (which has no period) holds the schedule exactly. Otherwise .shd cannot express it.
  const std::int64_t P = s.period;
  for (std::int64_t c = 0; c < P; ++c) {
    const bool fits = std::all_of(order.begin(), order.end(), [&](const Route* r) {
      return ((r->slot - c) % P + P) % P + static_cast<std::int64_t>(r->letters.size()) <= P;
    });
    if (!fits) continue;
    std::vector<std::pair<std::int64_t, const Route*>> shifted;
    for (const Route* r : order) shifted.emplace_back(((r->slot - c) % P + P) % P, r);
    std::stable_sort(shifted.begin(), shifted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [slot, r] : shifted) out << std::string(at(slot), ' ') << r->letters << '\n';
    return;
  }
  throw UsageError("--format shd: the routes of this period-" + std::to_string(P) + " schedule run past the period from every "
                   "starting slot (one period's makespan " + std::to_string(makespan) + "), which .shd cannot express; write a "
                   "totex schedule file instead (-o NAME.sched keeps the period), or a one-shot .shd (schedule without --periodic)");
}

void write_poseidon(std::ostream& out, const Topology& t, const Schedule& s) {
  if (!shd_topology(t) || t.is_partial()) throw UsageError("--format poseidon: needs a 2-D torus or mesh (K1xK2), not " + t.spec());
  // Poseidon's network adapter sends one flit and receives one per slot, and each router output
  // forwards one input: totex's nic model. Other models' schedules would be written in part.
  if (s.model != Model::Nic)
    throw UsageError("--format poseidon: Poseidon's network adapter sends and receives one flit per slot (totex's nic model); "
                     "a schedule under the " + to_string(s.model) + " model cannot be written completely. Use --model nic, or a totex schedule file");
  std::int64_t makespan = 0;
  s.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
    if (!step.empty()) makespan = static_cast<std::int64_t>(i) + 1;
  });
  const std::int64_t length = s.period > 0 ? s.period : makespan;
  const auto L = at(length);
  const auto n = at(t.nodes());
  auto refuse_partial = [](const std::string& what) {
    throw UsageError("--format poseidon: " + what + ", which Poseidon's one-slot-deep routers and adapters cannot hold; "
                     "the schedule would be written in part");
  };
  // Per node and slot: router outputs' inputs, the NA's tx (destination injected) and rx (source ejected).
  std::vector<std::array<char, 5>> router(n * L, std::array<char, 5>{'D', 'D', 'D', 'D', 'D'});
  std::vector<NodeId> tx(n * L, -1), rx(n * L, -1);
  std::vector<std::string> route(n * L);
  std::vector<std::vector<std::pair<std::int64_t, Transfer>>> by_msg;
  std::map<std::pair<NodeId, NodeId>, std::vector<std::pair<std::int64_t, Transfer>>> hops;
  s.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
    for (const Transfer& tr : step) hops[{tr.msg.src, tr.msg.dst}].emplace_back(static_cast<std::int64_t>(i), tr);
  });
  for (const auto& [m, list] : hops) {
    int input = kL;
    std::string letters;
    for (const auto& [step, tr] : list) {
      const NodeId to = t.neighbor(tr.from, tr.port);
      const int side = side_of(t, tr.from, to);
      char& use = router[at(tr.from) * L + at(step) % L][at(side)];
      if (use != 'D') refuse_partial("two flits leave router " + std::to_string(tr.from) + " by one output in slot " + std::to_string(step % length));
      use = kPortName[input];
      input = opposite(side);
      letters += kPortName[side];
    }
    // The ejection at the destination's router one slot after the last hop, when the flit is
    // there: Poseidon's routers take a flit in the slot after its previous router (router depth
    // 1, as its converter traces a route), and totex's nic model ejects in the last hop's step.
    const std::int64_t first = list.front().first, eject = list.back().first + 1;
    const std::size_t in_slot = at(m.first) * L + at(first) % L, out_slot = at(m.second) * L + at(eject) % L;
    if (router[out_slot][kL] != 'D' || rx[out_slot] >= 0)
      refuse_partial("node " + std::to_string(m.second) + " receives two flits in slot " + std::to_string(eject % length));
    if (tx[in_slot] >= 0) refuse_partial("node " + std::to_string(m.first) + " sends two flits in slot " + std::to_string(first % length));
    router[out_slot][kL] = kPortName[input];
    tx[in_slot] = m.second;
    route[in_slot] = letters;
    rx[out_slot] = m.first;
  }
  auto coord = [&](NodeId v) {
    const auto c = t.coordinates(v);
    return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + ")";
  };
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<!-- totex " << t.spec() << " " << to_string(s.model) << ", algorithm " << s.algorithm
      << ": Poseidon-style schedule (docs/periodic.md). x = dimension 0, y = dimension 1; E = x+1, W = x-1,\n"
      << "     S = y+1, N = y-1. No router pipeline offset: a flit's hop j is in slot (s + j) mod length. -->\n"
      << "<schedule length=\"" << length << "\" width=\"" << t.factors()[0].size << "\" height=\"" << t.factors()[1].size
      << "\" topology=\"" << (t.factors()[0].kind == FactorKind::Ring ? "bitorus" : "mesh") << "\">\n";
  for (NodeId v = 0; v < t.nodes(); ++v) {
    out << "  <tile id=\"" << coord(v) << "\">\n";
    for (std::size_t sl = 0; sl < L; ++sl) {
      const std::size_t k = at(v) * L + sl;
      out << "    <timeslot value=\"" << sl << "\">\n      <na rx=\"" << coord(rx[k] < 0 ? v : rx[k]) << "\" tx=\""
          << coord(tx[k] < 0 ? v : tx[k]) << '"';
      if (!route[k].empty()) out << " route=\"" << route[k] << '"';
      out << "/>\n      <router>";
      for (int p : {kN, kS, kE, kW, kL}) out << "<output id=\"" << kPortName[p] << "\" input=\"" << router[k][at(p)] << "\"/>";
      out << "</router>\n    </timeslot>\n";
    }
    out << "  </tile>\n";
  }
  out << "</schedule>\n";
}

}  // namespace totex
