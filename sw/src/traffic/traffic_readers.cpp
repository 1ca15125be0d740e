// SPDX-License-Identifier: Apache-2.0
// Readers of traffic files: matrix:FILE, groups:FILE and poseidon:FILE.xml (docs/traffic.md).
// Every count is checked as it is read; nothing is allocated from an unchecked number, no line is
// read past kMaxTrafficLine bytes and no file past kMaxTrafficFileBytes.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "totex/error.hpp"
#include "totex/traffic/traffic.hpp"
#include "traffic_internal.hpp"

namespace totex {
namespace traffic_detail {

std::int64_t LineReader::count(std::string_view token, std::int64_t limit, const char* what) const {
  return parse_count(token, limit, what, name(), line());
}

std::int64_t parse_count(std::string_view token, std::int64_t limit, const char* what, const std::string& file, int line) {
  const bool negative = !token.empty() && token[0] == '-';
  const std::string_view digits = negative ? token.substr(1) : token;
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos)
    throw FileError(file, line, std::string(what) + " '" + printable(token) + "' is not a non-negative integer");
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  const bool too_big = ec == std::errc::result_out_of_range || v > limit;
  if (negative) {
    if (too_big || v > 0) throw FileError(file, line, std::string("negative ") + what + " " + printable(token));
    return 0;  // "-0"
  }
  if (too_big)
    throw ResourceError("resources: " + file + ":" + std::to_string(line) + ": " + what + " " + printable(token) +
                        " is above the limit of " + std::to_string(limit));
  return v;
}

NodeId parse_node(std::string_view token, int nodes, const std::string& file, int line) {
  const bool digits = !token.empty() && token.find_first_not_of("0123456789", token[0] == '-' ? 1 : 0) == std::string_view::npos &&
                      token != "-";
  if (!digits) throw FileError(file, line, "node '" + printable(token) + "' is not an integer");
  long long v = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (ec != std::errc() || v < 0 || v >= nodes)
    throw FileError(file, line, "node " + printable(token) + " is out of range 0.." + std::to_string(nodes - 1));
  return static_cast<NodeId>(v);
}

}  // namespace traffic_detail

using traffic_detail::LineReader;

Traffic read_traffic_matrix(std::istream& in, const std::string& name, int nodes, std::string spec) {
  if (nodes > kMaxTrafficNodes)
    throw ResourceError("resources: a traffic matrix on " + std::to_string(nodes) + " nodes is above the limit of " +
                        std::to_string(kMaxTrafficNodes) + " nodes");
  LineReader r(in, name);
  std::vector<Traffic::Triplet> triplets;  // sparse form
  std::vector<std::size_t> row{0};         // dense form: rows built directly
  std::vector<Traffic::Entry> entries;
  std::int64_t total = 0;
  enum class Form { Unknown, Dense, Sparse } form = Form::Unknown;
  const auto n = static_cast<std::size_t>(nodes);
  const std::int64_t max_sparse = static_cast<std::int64_t>(nodes) * (nodes - 1);
  std::int64_t rows = 0, sparse_lines = 0;
  while (r.next()) {
    const auto& f = r.fields();
    if (form == Form::Unknown) {
      if (f.size() == 1 && (f[0] == "dense" || f[0] == "sparse")) {
        form = f[0] == "dense" ? Form::Dense : Form::Sparse;
        continue;
      }
      if (f.size() == n) form = Form::Dense;
      else if (f.size() == 3) form = Form::Sparse;
      else
        r.fail("line has " + std::to_string(f.size()) + " entries; a dense matrix row has " + std::to_string(nodes) +
               " (one per node) and a sparse line 3 (src dst flits)");
    }
    if (form == Form::Dense) {
      if (rows == nodes) r.fail("more than " + std::to_string(nodes) + " rows (the network has " + std::to_string(nodes) + " nodes)");
      if (f.size() != n)
        r.fail("row " + std::to_string(rows) + " has " + std::to_string(f.size()) + " entries, expected " + std::to_string(nodes));
      for (std::size_t d = 0; d < n; ++d) {
        const std::int64_t w = r.count(f[d], kMaxPairFlits, "entry");
        if (w == 0) continue;
        if (d == static_cast<std::size_t>(rows))
          r.fail("self-traffic: node " + std::to_string(rows) + " sends " + std::to_string(w) + " flits to itself");
        total += w;
        if (total > kMaxTrafficFlits)
          throw ResourceError("resources: " + name + ":" + std::to_string(r.line()) + ": the traffic adds up to more than " +
                              std::to_string(kMaxTrafficFlits) + " flits");
        entries.push_back({static_cast<NodeId>(d), static_cast<std::uint32_t>(w)});
      }
      row.push_back(entries.size());
      ++rows;
    } else {
      if (f.size() != 3) r.fail("a sparse line is 'src dst flits'; this one has " + std::to_string(f.size()) + " fields");
      if (++sparse_lines > max_sparse)
        r.fail("more than N(N-1) = " + std::to_string(max_sparse) + " sparse lines, so some pair is given twice");
      const NodeId s = traffic_detail::parse_node(f[0], nodes, name, r.line());
      const NodeId d = traffic_detail::parse_node(f[1], nodes, name, r.line());
      const std::int64_t w = r.count(f[2], kMaxPairFlits, "flit count");
      triplets.push_back({s, d, static_cast<std::uint32_t>(w), r.line()});
    }
  }
  if (form == Form::Unknown) r.fail("no matrix: the file has no entries (a dense matrix has " + std::to_string(nodes) + " rows)");
  if (form == Form::Dense && rows != nodes)
    r.fail("the matrix has " + std::to_string(rows) + " rows, expected " + std::to_string(nodes) + " (one per node)");
  if (form == Form::Dense) return Traffic::from_rows(nodes, std::move(row), std::move(entries), "matrix", std::move(spec));
  return Traffic::from_triplets(nodes, std::move(triplets), Traffic::Duplicates::Refuse, "matrix", std::move(spec), name);
}

void write_traffic_matrix(std::ostream& out, const Traffic& t) {
  out << "sparse\n# totex traffic '" << printable(t.spec(), 200) << "', " << t.nodes() << " nodes, " << t.total_flits()
      << " flits\n# sha256 " << t.sha256() << "\n";
  t.for_each([&](NodeId s, NodeId d, std::int64_t w) { out << s << ' ' << d << ' ' << w << '\n'; });
}

Traffic read_traffic_groups(std::istream& in, const std::string& name, int nodes, std::string spec) {
  if (nodes > kMaxTrafficNodes)
    throw ResourceError("resources: a traffic of groups on " + std::to_string(nodes) + " nodes is above the limit of " +
                        std::to_string(kMaxTrafficNodes) + " nodes");
  LineReader r(in, name);
  std::vector<Traffic::Triplet> triplets;
  std::vector<int> seen(static_cast<std::size_t>(nodes), 0);  // line that last named the node
  constexpr std::size_t kMaxPairs = std::size_t{1} << 25;
  int groups = 0;
  while (r.next()) {
    std::vector<NodeId> group;
    for (std::string_view tok : r.fields()) {
      const NodeId v = traffic_detail::parse_node(tok, nodes, name, r.line());
      if (seen[static_cast<std::size_t>(v)] == r.line()) r.fail("node " + std::to_string(v) + " appears twice in this group");
      seen[static_cast<std::size_t>(v)] = r.line();
      group.push_back(v);
    }
    ++groups;
    const std::size_t g = group.size();
    if (triplets.size() + g * (g - 1) > kMaxPairs)
      throw ResourceError("resources: " + name + ":" + std::to_string(r.line()) + ": the groups name more than " +
                          std::to_string(kMaxPairs) + " pairs in all");
    for (NodeId s : group)
      for (NodeId d : group)
        if (s != d) triplets.push_back({s, d, 1, r.line()});
  }
  if (groups == 0) r.fail("no groups: the file names no node");
  return Traffic::from_triplets(nodes, std::move(triplets), Traffic::Duplicates::Add, "groups", std::move(spec), name);
}

// ---------------------------------------------------------------------------------------------
// A small XML reader: elements, attributes (quoted, with the five predefined entities and
// character references), comments, processing instructions (also Poseidon's "<?xmlversion...?>"),
// CDATA and DOCTYPE skipped, text ignored; several top-level elements allowed (as pugixml does).
namespace {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attrs;
  int line = 0;
  std::vector<XmlElement> children;
  [[nodiscard]] const std::string* attr(std::string_view key) const {
    for (const auto& [k, v] : attrs)
      if (k == key) return &v;
    return nullptr;
  }
  [[nodiscard]] const XmlElement* child(std::string_view n) const {
    for (const XmlElement& c : children)
      if (c.name == n) return &c;
    return nullptr;
  }
};

class XmlReader {
 public:
  XmlReader(std::string text, std::string name) : s_(std::move(text)), name_(std::move(name)) {}

  std::vector<XmlElement> parse() {
    XmlElement root;  // holds the top-level elements
    std::vector<XmlElement*> stack{&root};
    while (i_ < s_.size()) {
      if (s_[i_] != '<') {
        if (s_[i_] == '\n') ++line_;
        ++i_;
        continue;
      }
      if (starts("<!--")) {
        skip_past("-->", "comment");
      } else if (starts("<![CDATA[")) {
        skip_past("]]>", "CDATA section");
      } else if (starts("<?")) {
        skip_past("?>", "processing instruction");
      } else if (starts("<!")) {
        skip_past(">", "declaration");
      } else if (starts("</")) {
        const int at = line_;
        i_ += 2;
        const std::string n = read_name("closing tag");
        skip_space();
        expect('>', "'>' after </" + n);
        if (stack.size() == 1) fail(at, "closing tag </" + printable(n) + "> without an opening tag");
        if (stack.back()->name != n)
          fail(at, "closing tag </" + printable(n) + "> does not match <" + printable(stack.back()->name) + "> on line " +
                       std::to_string(stack.back()->line));
        stack.pop_back();
      } else {
        const int at = line_;
        ++i_;
        XmlElement e;
        e.line = at;
        e.name = read_name("element");
        bool closed = false;
        while (true) {
          const bool spaced = skip_space();
          if (i_ >= s_.size()) fail(at, "<" + printable(e.name) + "> is not closed with '>'");
          if (s_[i_] == '>') {
            ++i_;
            break;
          }
          if (starts("/>")) {
            i_ += 2;
            closed = true;
            break;
          }
          if (!spaced) fail(line_, "expected a space, '>' or '/>' in <" + printable(e.name) + ">");
          std::string key = read_name("attribute");
          if (e.attr(key) != nullptr) fail(line_, "attribute '" + printable(key) + "' given twice");
          skip_space();
          expect('=', "'=' after attribute '" + printable(key) + "'");
          skip_space();
          e.attrs.emplace_back(std::move(key), read_value());
        }
        if (++elements_ > kMaxElements) throw ResourceError("resources: " + name_ + ":" + std::to_string(at) + ": more than " +
                                                            std::to_string(kMaxElements) + " XML elements");
        stack.back()->children.push_back(std::move(e));
        if (!closed) {
          if (stack.size() > kMaxDepth) fail(at, "elements nested deeper than " + std::to_string(kMaxDepth));
          stack.push_back(&stack.back()->children.back());
        }
      }
    }
    if (stack.size() > 1) fail(stack.back()->line, "<" + printable(stack.back()->name) + "> is never closed");
    return std::move(root.children);
  }

 private:
  static constexpr std::size_t kMaxDepth = 64;
  static constexpr std::size_t kMaxElements = std::size_t{1} << 22;
  std::string s_;
  std::string name_;
  std::size_t i_ = 0;
  int line_ = 1;
  std::size_t elements_ = 0;

  [[noreturn]] void fail(int line, const std::string& what) const { throw FileError(name_, line, what); }
  bool starts(std::string_view p) const { return std::string_view(s_).substr(i_, p.size()) == p; }
  void skip_past(std::string_view end, const char* what) {
    const int at = line_;
    const std::size_t pos = s_.find(end, i_);
    if (pos == std::string::npos) fail(at, std::string(what) + " is never closed");
    line_ += static_cast<int>(std::count(s_.begin() + static_cast<std::ptrdiff_t>(i_), s_.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
    i_ = pos + end.size();
  }
  bool skip_space() {
    const std::size_t start = i_;
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r' || s_[i_] == '\n')) {
      if (s_[i_] == '\n') ++line_;
      ++i_;
    }
    return i_ > start;
  }
  void expect(char c, const std::string& what) {
    if (i_ >= s_.size() || s_[i_] != c) fail(line_, "expected " + what);
    ++i_;
  }
  static bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_' || c == ':'; }
  static bool name_char(char c) {
    return name_start(c) || std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '.';
  }
  std::string read_name(const char* what) {
    const std::size_t start = i_;
    if (i_ >= s_.size() || !name_start(s_[i_]))
      fail(line_, std::string("expected a name of ") + what + " at '" + printable(std::string_view(s_).substr(i_, 20)) + "'");
    while (i_ < s_.size() && name_char(s_[i_])) ++i_;
    return s_.substr(start, i_ - start);
  }
  std::string read_value() {
    if (i_ >= s_.size() || (s_[i_] != '"' && s_[i_] != '\'')) fail(line_, "expected a quoted attribute value");
    const char quote = s_[i_++];
    const int at = line_;
    std::string out;
    while (true) {
      if (i_ >= s_.size()) fail(at, "attribute value is never closed");
      const char c = s_[i_++];
      if (c == quote) return out;
      if (c == '<') fail(line_, "'<' in an attribute value");
      if (c == '\n') ++line_;
      if (c != '&') {
        out += c;
        continue;
      }
      const std::size_t semi = s_.find(';', i_);
      if (semi == std::string::npos || semi - i_ > 10) fail(line_, "'&' without an entity");
      const std::string_view ent = std::string_view(s_).substr(i_, semi - i_);
      i_ = semi + 1;
      if (ent == "lt") out += '<';
      else if (ent == "gt") out += '>';
      else if (ent == "amp") out += '&';
      else if (ent == "quot") out += '"';
      else if (ent == "apos") out += '\'';
      else if (ent.size() > 1 && ent[0] == '#') {
        const bool hex = ent[1] == 'x';
        const std::string_view digits = ent.substr(hex ? 2 : 1);
        unsigned v = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, hex ? 16 : 10);
        if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || v == 0 || v > 0x7f)
          fail(line_, "character reference '&" + printable(ent) + ";' is not an ASCII character");
        out += static_cast<char>(v);
      } else {
        fail(line_, "unknown entity '&" + printable(ent) + ";'");
      }
    }
  }
};

std::string slurp(std::istream& in, const std::string& name) {
  std::string text;
  std::vector<char> chunk(std::size_t{1} << 16);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto n = static_cast<std::size_t>(in.gcount());
    if (text.size() + n > kMaxTrafficFileBytes)
      throw ResourceError("resources: " + name + ":0: file longer than " + std::to_string(kMaxTrafficFileBytes >> 20) + " MiB");
    text.append(chunk.data(), n);
    if (n == 0) break;
  }
  if (in.bad()) throw FileError(name, 0, "read error");
  return text;
}

std::string trim(std::string_view v) {
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front())) != 0) v.remove_prefix(1);
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back())) != 0) v.remove_suffix(1);
  return std::string(v);
}

class PoseidonReader {
 public:
  explicit PoseidonReader(std::string name) : name_(std::move(name)) {}

  std::int64_t integer(const XmlElement& e, const char* key, std::optional<std::int64_t> fallback, std::int64_t limit) const {
    const std::string* v = e.attr(key);
    if (v == nullptr) {
      if (!fallback) fail(e.line, "<" + e.name + "> has no attribute '" + key + "'");
      return *fallback;
    }
    return traffic_detail::parse_count(trim(*v), limit, key, name_, e.line);
  }
  std::string text(const XmlElement& e, const char* key, const char* alternative) const {
    const std::string* v = e.attr(key);
    if (v == nullptr) v = e.attr(alternative);
    if (v == nullptr) fail(e.line, "<" + e.name + "> has neither '" + key + "' nor '" + alternative + "'");
    return trim(*v);
  }
  /// "(x,y)" -> node x + width*y.
  NodeId router(const XmlElement& e, const char* key, int width, int height) const {
    const std::string* v = e.attr(key);
    if (v == nullptr) fail(e.line, "<" + e.name + "> has no attribute '" + key + "'");
    std::string_view s = *v;
    auto strip = [&s]() {
      while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
    };
    auto number = [&](const char* what) -> std::int64_t {
      strip();
      std::size_t len = 0;
      while (len < s.size() && (std::isdigit(static_cast<unsigned char>(s[len])) != 0 || (len == 0 && s[0] == '-'))) ++len;
      const std::int64_t x = traffic_detail::parse_count(s.substr(0, len), 1 << 20, what, name_, e.line);
      s.remove_prefix(len);
      strip();
      return x;
    };
    const std::string bad = std::string(key) + " '" + printable(*v) + "' is not a router '(x,y)'";
    strip();
    if (s.empty() || s[0] != '(') fail(e.line, bad);
    s.remove_prefix(1);
    const std::int64_t x = number("x");
    if (s.empty() || s[0] != ',') fail(e.line, bad);
    s.remove_prefix(1);
    const std::int64_t y = number("y");
    if (s.empty() || s[0] != ')') fail(e.line, bad);
    s.remove_prefix(1);
    strip();
    if (!s.empty()) fail(e.line, bad);
    if (x >= width || y >= height)
      fail(e.line, "router (" + std::to_string(x) + "," + std::to_string(y) + ") is not in the " + std::to_string(width) + "x" +
                       std::to_string(height) + " platform");
    return static_cast<NodeId>(x + static_cast<std::int64_t>(width) * y);
  }
  [[noreturn]] void fail(int line, const std::string& what) const { throw FileError(name_, line, what); }
  [[nodiscard]] const std::string& name() const { return name_; }

 private:
  std::string name_;
};

}  // namespace

PoseidonSpec read_poseidon_traffic(std::istream& in, const std::string& name, std::string spec) {
  const std::vector<XmlElement> top = XmlReader(slurp(in, name), name).parse();
  const PoseidonReader r(name);
  auto find = [&](std::string_view n) -> const XmlElement* {
    for (const XmlElement& e : top)
      if (e.name == n) return &e;
    return nullptr;
  };
  // Poseidon's first, single-file format (its test/ files): <topology width= height=> holding
  // <graph type=...>, and <channels> instead of <communication>.
  const XmlElement* platform = find("platform");
  const bool legacy = platform == nullptr && find("topology") != nullptr && find("topology")->child("graph") != nullptr;
  if (legacy) platform = find("topology");
  if (platform == nullptr) r.fail(top.empty() ? 1 : top.front().line, "no <platform> element (Poseidon's platform spec)");
  PoseidonSpec out;
  const std::int64_t width = r.integer(*platform, "width", std::nullopt, kMaxTrafficNodes);
  const std::int64_t height = r.integer(*platform, "height", std::nullopt, kMaxTrafficNodes);
  if (width < 1 || height < 1) r.fail(platform->line, "width and height must be at least 1");
  if (width * height > kMaxTrafficNodes)
    throw ResourceError("resources: " + name + ":" + std::to_string(platform->line) + ": a " + std::to_string(width) + "x" +
                        std::to_string(height) + " platform is above the limit of " + std::to_string(kMaxTrafficNodes) + " nodes");
  out.width = static_cast<int>(width);
  out.height = static_cast<int>(height);
  const int nodes = out.width * out.height;
  const XmlElement* topology = platform->child(legacy ? "graph" : "topology");
  if (topology == nullptr) r.fail(platform->line, "<platform> has no <topology>");
  out.router_depth = static_cast<int>(r.integer(*topology, "routerDepth", 1, 1 << 20));
  out.link_depth = static_cast<int>(r.integer(*topology, "linkDepth", 0, 1 << 20));
  out.topology_type = r.text(*topology, "type", "topoType");
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  if (out.topology_type == "bitorus") {
    out.topology_spec = "torus:" + size;
  } else if (out.topology_type == "mesh") {
    out.topology_spec = "mesh:" + size;
  } else if (out.topology_type == "custom") {
    for (const XmlElement& link : topology->children) {
      if (link.name != "link") continue;
      const NodeId a = r.router(link, "source", out.width, out.height);
      const NodeId b = r.router(link, "sink", out.width, out.height);
      const int ax = a % out.width, ay = a / out.width, bx = b % out.width, by = b / out.width;
      if (a == b) r.fail(link.line, "a link from a router to itself");
      if (ax != bx && ay != by) r.fail(link.line, "the routers of a link must be in the same row or column");
      const int dist = std::max(std::abs(ax - bx), std::abs(ay - by));
      const int wrap = (ax == bx ? out.height : out.width) - 1;
      if (dist != 1 && dist != wrap) r.fail(link.line, "the routers of a link must be neighbours or the two ends of a row or column");
      out.links.emplace_back(a, b);
    }
  } else {
    r.fail(topology->line, "topology type '" + printable(out.topology_type) + "' is not bitorus, mesh or custom");
  }
  const XmlElement* com = find(legacy ? "channels" : "communication");
  if (com == nullptr) {  // Poseidon's default: all-to-all, one phit, bandwidth one
    out.traffic = Traffic::uniform(nodes, 1, {}, "poseidon", std::move(spec));
    return out;
  }
  const std::int64_t phits = r.integer(*com, "phits", 1, kMaxPairFlits);
  const std::int64_t bandwidth = r.integer(*com, "bandwidth", 1, kMaxPairFlits);
  // The legacy <channels> lists its channels whatever its type says ("arbitrary", "custom" or none).
  std::string type = legacy && com->attr("type") == nullptr ? "custom" : r.text(*com, "type", "comType");
  if (legacy && type != "all2all") type = "custom";
  auto flits = [&](std::int64_t b, std::int64_t f, int line) {
    if (b < 1 || f < 1) r.fail(line, "bandwidth and phits must be at least 1");
    if (b > kMaxPairFlits / f)
      throw ResourceError("resources: " + name + ":" + std::to_string(line) + ": bandwidth " + std::to_string(b) + " x " +
                          std::to_string(f) + " phits is above the limit of " + std::to_string(kMaxPairFlits) + " flits per pair");
    return b * f;
  };
  std::vector<Traffic::Triplet> triplets;
  if (type == "all2all") {
    const std::int64_t w = flits(bandwidth, phits, com->line);
    if (com->attr("reconfig") == nullptr) {
      out.traffic = Traffic::uniform(nodes, w, {}, "poseidon", std::move(spec));
      return out;
    }
    for (NodeId s = 0; s < nodes; ++s)
      for (NodeId d = 0; d < nodes; ++d)
        if (s != d) triplets.push_back({s, d, static_cast<std::uint32_t>(w), com->line});
  } else if (type == "custom") {
    for (const XmlElement& ch : com->children) {
      if (ch.name != "channel") continue;
      if (triplets.size() >= (std::size_t{1} << 25))
        throw ResourceError("resources: " + name + ":" + std::to_string(ch.line) + ": more than 2^25 channels");
      const NodeId s = r.router(ch, "from", out.width, out.height);
      const NodeId d = r.router(ch, "to", out.width, out.height);
      const std::int64_t w = flits(r.integer(ch, "bandwidth", bandwidth, kMaxPairFlits), r.integer(ch, "phits", phits, kMaxPairFlits), ch.line);
      if (s == d) r.fail(ch.line, "self-traffic: a channel from router " + std::to_string(s) + " to itself");
      triplets.push_back({s, d, static_cast<std::uint32_t>(w), ch.line});
    }
  } else {
    r.fail(com->line, "communication type '" + printable(type) + "' is not custom or all2all");
  }
  if (com->attr("reconfig") != nullptr) {  // Poseidon adds 2-phit channels of bandwidth 1 from the master
    const NodeId master = r.router(*com, "reconfig", out.width, out.height);
    for (NodeId d = 0; d < nodes; ++d)
      if (d != master) triplets.push_back({master, d, 2, com->line});
  }
  out.traffic = Traffic::from_triplets(nodes, std::move(triplets), Traffic::Duplicates::Add, "poseidon", std::move(spec), name);
  return out;
}

}  // namespace totex
