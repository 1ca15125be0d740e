// SPDX-License-Identifier: Apache-2.0
// Reads the Poseidon-style schedule XML that write_poseidon writes (docs/periodic.md), with expat:
// the routes become a periodic schedule, and the router tables and adapters must say exactly what
// the routes do (no flit without its table entries, no table entry without its flit).
#include <expat.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <unordered_map>
#include <string>
#include <vector>

#include "line_reader.hpp"
#include "totex/error.hpp"
#include "totex/io/shd.hpp"
#include "totex/network/spec.hpp"

namespace totex {
namespace {

constexpr const char* kSides = "NESWL";
constexpr int kMaxSide = 4096;              // the widest torus or mesh side read
constexpr std::int64_t kMaxLength = 1 << 20;  // slots per period

std::size_t at(std::int64_t i) { return static_cast<std::size_t>(i); }

/// One adapter slot and one router slot of one tile.
struct Slot {
  bool seen = false;
  int line = 0;
  std::string route;                         // the na's route letters (N E S W), empty: sends nothing
  NodeId tx = -1, rx = -1;                   // the na's tx and rx tiles
  std::array<char, 5> input{'?', '?', '?', '?', '?'};  // per output N E S W L: the input, 'D' none
  std::array<bool, 5> used{};                // an output some route takes
};

class PoseidonReader {
 public:
  explicit PoseidonReader(std::string name) : name_(std::move(name)) {}

  void start(const char* element, const char** attrs, int line) {
    line_ = line;
    const std::string e = element;
    auto attr = [&](const char* key) -> std::string {
      for (int i = 0; attrs[i] != nullptr; i += 2)
        if (std::strcmp(attrs[i], key) == 0) return attrs[i + 1];
      fail("<" + printable(e) + "> needs the attribute " + key);
    };
    if (e == "schedule") {
      if (topo_) fail("a second <schedule>");
      length_ = number(attr("length"), 1, kMaxLength, "length");
      const auto w = number(attr("width"), 2, kMaxSide, "width"), h = number(attr("height"), 2, kMaxSide, "height");
      const std::string kind = attr("topology");
      if (kind != "bitorus" && kind != "mesh") fail("topology '" + printable(kind) + "' is not bitorus or mesh");
      topo_ = parse_topology((kind == "mesh" ? "mesh:" : "torus:") + std::to_string(w) + "x" + std::to_string(h));
      return;
    }
    if (!topo_) fail("<" + printable(e) + "> before <schedule>");
    if (e == "tile") {
      tile_ = coordinate(attr("id"));
      if (tiles_seen_.count(tile_)) fail("tile " + printable(attr("id")) + " given twice");
      tiles_seen_[tile_] = line;
      slot_ = nullptr;
    } else if (e == "timeslot") {
      if (tile_ < 0) fail("<timeslot> outside a <tile>");
      const auto t = number(attr("value"), 0, length_ - 1, "timeslot value");
      // Slots are stored as the file gives them, so memory follows the file's size, not its header.
      slot_ = &slots_[at(tile_) * at(length_) + at(t)];
      if (slot_->seen) fail("timeslot " + std::to_string(t) + " given twice in this tile");
      slot_->seen = true;
      slot_->line = line;
    } else if (e == "na") {
      if (!slot_) fail("<na> outside a <timeslot>");
      slot_->rx = coordinate(attr("rx"));
      slot_->tx = coordinate(attr("tx"));
      for (int i = 0; attrs[i] != nullptr; i += 2)
        if (std::strcmp(attrs[i], "route") == 0) slot_->route = attrs[i + 1];
      for (char c : slot_->route)
        if (c != 'N' && c != 'E' && c != 'S' && c != 'W') fail("route '" + printable(slot_->route) + "' has a letter other than N E S W");
      if (slot_->route.size() > at(topo_->nodes())) fail("route longer than the " + std::to_string(topo_->nodes()) + " tiles");
    } else if (e == "output") {
      if (!slot_) fail("<output> outside a <timeslot>");
      const std::string id = attr("id"), input = attr("input");
      const char* side = id.size() == 1 ? std::strchr(kSides, id[0]) : nullptr;
      if (side == nullptr || id[0] == '\0') fail("output id '" + printable(id) + "' is not N E S W or L");
      if (input.size() != 1 || std::strchr("NESWLD", input[0]) == nullptr || input[0] == '\0')
        fail("output input '" + printable(input) + "' is not N E S W L or D");
      slot_->input[at(side - kSides)] = input[0];
    }
  }

  void end(const char* element) {
    if (std::strcmp(element, "tile") == 0) tile_ = -1;
    if (std::strcmp(element, "timeslot") == 0) slot_ = nullptr;
  }

  /// The routes as a periodic schedule, after checking the tables say what they do.
  Schedule finish() {
    if (!topo_) throw FileError(name_, line_, "no <schedule> element");
    const Topology& t = *topo_;
    for (NodeId v = 0; v < t.nodes(); ++v) {
      if (!tiles_seen_.count(v)) throw FileError(name_, line_, "tile " + coord_text(v) + " is missing");
      for (std::int64_t s = 0; s < length_; ++s) {
        const auto it = slots_.find(at(v) * at(length_) + at(s));
        if (it == slots_.end()) throw FileError(name_, tiles_seen_[v], "tile " + coord_text(v) + " has no timeslot " + std::to_string(s));
        const Slot& sl = it->second;
        if (sl.tx < 0) throw FileError(name_, sl.line, "no <na> in this timeslot");
        for (int o = 0; o < 5; ++o)
          if (sl.input[at(o)] == '?') throw FileError(name_, sl.line, std::string("no router output ") + kSides[o] + " in this timeslot");
      }
    }
    Schedule out{t.spec(), Model::Nic, "poseidon", {}};
    out.period = static_cast<int>(length_);
    for (NodeId v = 0; v < t.nodes(); ++v)
      for (std::int64_t s = 0; s < length_; ++s) follow(out, v, s);
    for (NodeId v = 0; v < t.nodes(); ++v)
      for (std::int64_t s = 0; s < length_; ++s) {
        const Slot& sl = slot(v, s);
        for (int o = 0; o < 5; ++o)
          if (sl.input[at(o)] != 'D' && !sl.used[at(o)])
            throw FileError(name_, sl.line, std::string("router output ") + kSides[o] + " forwards input " + sl.input[at(o)] +
                                                ", but no route's flit is there in this slot");
        if (sl.route.empty() && sl.tx != v) throw FileError(name_, sl.line, "na tx names another tile but gives no route");
      }
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw FileError(name_, line_, what); }
  /// A slot finish() found present.
  Slot& slot(NodeId v, std::int64_t s) { return slots_.at(at(v) * at(length_) + at(s % length_)); }

  std::int64_t number(const std::string& text, std::int64_t lo, std::int64_t hi, const char* what) const {
    std::int64_t v = 0;
    if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos)
      fail(std::string(what) + " '" + printable(text) + "' is not a whole number");
    v = std::stoll(text);
    if (v < lo || v > hi) fail(std::string(what) + " " + text + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
    return v;
  }
  NodeId coordinate(const std::string& text) const {
    const std::size_t comma = text.find(',');
    if (text.size() < 5 || text.front() != '(' || text.back() != ')' || comma == std::string::npos)
      fail("'" + printable(text) + "' is not a tile coordinate (x,y)");
    const auto x = number(text.substr(1, comma - 1), 0, topo_->factors()[0].size - 1, "x");
    const auto y = number(text.substr(comma + 1, text.size() - comma - 2), 0, topo_->factors()[1].size - 1, "y");
    return topo_->node_at({static_cast<int>(x), static_cast<int>(y)});
  }
  std::string coord_text(NodeId v) const {
    const auto c = topo_->coordinates(v);
    return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + ")";
  }

  /// The tiles a route from v passes, v first; FileError when it leaves a mesh.
  std::vector<NodeId> walk(NodeId v, const Slot& start) const {
    const Topology& t = *topo_;
    std::vector<NodeId> tiles{v};
    for (std::size_t j = 0; j < start.route.size(); ++j) {
      const char side = start.route[j];
      std::vector<int> c = t.coordinates(tiles.back());
      const std::size_t d = side == 'E' || side == 'W' ? 0 : 1;
      const int k = t.factors()[d].size, step = side == 'E' || side == 'S' ? 1 : -1;
      if (t.factors()[d].kind == FactorKind::Path && (c[d] + step < 0 || c[d] + step >= k))
        throw FileError(name_, start.line, "route '" + start.route + "' leaves the mesh at hop " + std::to_string(j));
      c[d] = (c[d] + step + k) % k;
      tiles.push_back(t.node_at(c));
    }
    return tiles;
  }

  /// The flit tile v injects in slot s, hop by hop through the router tables: hop j leaves in slot
  /// s + j by the output its letter names, from the input it arrived on (L at the source), and the
  /// destination ejects it (output L, na rx) in slot s + hops.
  void follow(Schedule& out, NodeId v, std::int64_t s) {
    const Slot& start = slot(v, s);
    if (start.route.empty()) return;
    const std::vector<NodeId> tiles = walk(v, start);
    const NodeId dst = tiles.back();
    if (dst != start.tx)
      throw FileError(name_, start.line, "route '" + start.route + "' ends at " + coord_text(dst) + ", tx names " + coord_text(start.tx));
    if (dst == v) throw FileError(name_, start.line, "route '" + start.route + "' returns to its source");
    char input = 'L';
    for (std::size_t j = 0; j <= start.route.size(); ++j) {
      const char side = j < start.route.size() ? start.route[j] : 'L';
      Slot& sl = slot(tiles[j], s + static_cast<std::int64_t>(j));
      const auto o = at(std::strchr(kSides, side) - kSides);
      if (sl.input[o] != input || sl.used[o] || (side == 'L' && sl.rx != v))
        throw FileError(name_, sl.line, "tile " + coord_text(tiles[j]) + ": the flit " + coord_text(v) + " injects in slot " +
                                            std::to_string(s) + " needs output " + side + " to take input " + input +
                                            (side == 'L' ? " and na rx " + coord_text(v) : std::string()) + " here");
      sl.used[o] = true;
      if (side == 'L') break;
      const std::size_t index = at(s) + j;
      if (out.steps.size() <= index) out.steps.resize(index + 1);
      out.steps[index].push_back({{v, dst}, tiles[j], *topo_->port_to(tiles[j], tiles[j + 1])});
      input = side == 'N' ? 'S' : side == 'S' ? 'N' : side == 'E' ? 'W' : 'E';
    }
  }

  std::string name_;
  int line_ = 0;
  std::optional<Topology> topo_;
  std::int64_t length_ = 0;
  std::unordered_map<std::size_t, Slot> slots_;
  std::map<NodeId, int> tiles_seen_;
  NodeId tile_ = -1;
  Slot* slot_ = nullptr;
};

struct ParserHandle {
  XML_Parser parser;
  explicit ParserHandle() : parser(XML_ParserCreate(nullptr)) {
    if (parser == nullptr) throw std::bad_alloc();
  }
  ~ParserHandle() { XML_ParserFree(parser); }
  ParserHandle(const ParserHandle&) = delete;
  ParserHandle& operator=(const ParserHandle&) = delete;
};

struct Context {
  PoseidonReader* reader;
  XML_Parser parser;
  std::exception_ptr error;
};

}  // namespace

Schedule read_poseidon(std::istream& in, const std::string& name) {
  PoseidonReader reader(name);
  ParserHandle handle;
  Context ctx{&reader, handle.parser, nullptr};
  XML_SetUserData(handle.parser, &ctx);
  XML_SetElementHandler(
      handle.parser,
      [](void* data, const XML_Char* element, const XML_Char** attrs) {
        auto* c = static_cast<Context*>(data);
        try {
          c->reader->start(element, attrs, static_cast<int>(XML_GetCurrentLineNumber(c->parser)));
        } catch (...) {  // no exception may cross expat's C frames
          c->error = std::current_exception();
          XML_StopParser(c->parser, XML_FALSE);
        }
      },
      [](void* data, const XML_Char* element) { static_cast<Context*>(data)->reader->end(element); });
  io_detail::ByteSource bytes(in, name);  // gzip inflated, read in chunks
  std::vector<char> buf(std::size_t{1} << 16);
  while (true) {
    const int line = static_cast<int>(XML_GetCurrentLineNumber(handle.parser));
    const std::size_t n = bytes.read(buf.data(), buf.size(), line);
    if (XML_Parse(handle.parser, buf.data(), static_cast<int>(n), n == 0) == XML_STATUS_ERROR) {
      if (ctx.error) std::rethrow_exception(ctx.error);
      throw FileError(name, static_cast<int>(XML_GetCurrentLineNumber(handle.parser)),
                      std::string("not well-formed XML: ") + XML_ErrorString(XML_GetErrorCode(handle.parser)));
    }
    if (n == 0) break;
  }
  return reader.finish();
}

Schedule read_poseidon_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw FileError(path, 0, "is a directory, not a schedule file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FileError(path, 0, std::string("cannot open file: ") + std::strerror(errno));
  return read_poseidon(in, path);
}

}  // namespace totex
