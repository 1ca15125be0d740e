// SPDX-License-Identifier: Apache-2.0
// Exchange tables of paper 001: types, the Theorem 1 checker, expansion to a schedule, text format.
#include "totex/io/exchange_table.hpp"

#include <algorithm>
#include <fstream>
#include <istream>
#include <map>
#include <memory>
#include <ostream>

#include "totex/error.hpp"
#include "line_reader.hpp"
#include "totex/io/output_file.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"

namespace totex {
namespace {

std::size_t uz(int i) { return static_cast<std::size_t>(i); }

/// A row of 16777216 columns (the most the format takes) is 32 MiB of cells.
constexpr std::size_t kMaxTableLine = std::size_t{40} << 20;

int gens_of(CayleyGroup g) { return g == CayleyGroup::Order2 ? 1 : 2; }

/// Sizes of the dimensions when `t` is a product of rings / K2's, else an explanation.
std::optional<std::vector<int>> ring_sizes(const Topology& t, std::string* why) {
  if (!t.is_product()) {
    if (why) *why = "'" + t.spec() + "' is not a product of rings";
    return std::nullopt;
  }
  if (t.is_partial()) {  // a table's words send from every node to every node
    if (why) *why = "'" + t.spec() + "' is partially populated; exchange tables need a processor at every node";
    return std::nullopt;
  }
  std::vector<int> sizes;
  for (const Factor& f : t.factors()) {
    if (f.kind != FactorKind::Ring && f.size != 2) {
      if (why) *why = "factor " + to_string(f) + " of '" + t.spec() + "' is not a ring";
      return std::nullopt;
    }
    sizes.push_back(f.size);
  }
  if (sizes.size() > 26) {
    if (why) *why = "'" + t.spec() + "' has more than 26 dimensions";
    return std::nullopt;
  }
  return sizes;
}

/// Why `g` cannot act on a ring of `size` nodes, or "".
std::string group_mismatch(CayleyGroup g, int size) {
  switch (g) {
    case CayleyGroup::Order2:
      return size == 2 ? "" : "order-2 group needs a dimension of size 2, not " + std::to_string(size);
    case CayleyGroup::Cyclic:
      return size >= 3 ? "" : "cyclic group needs a dimension of size >= 3, not " + std::to_string(size);
    case CayleyGroup::Dihedral:
      return size >= 4 && size % 2 == 0 ? ""
                                        : "dihedral group needs an even dimension size >= 4, not " + std::to_string(size);
  }
  return "unknown group";
}

int step_coordinate(CayleyGroup g, int size, int x, int index) {
  switch (g) {
    case CayleyGroup::Order2: return 1 - x;
    case CayleyGroup::Cyclic: return index == 0 ? (x + 1) % size : (x + size - 1) % size;
    case CayleyGroup::Dihedral: {
      const int e = x % 2 == 0 ? 1 : -1;
      return ((index == 0 ? x + e : x - e) % size + size) % size;
    }
  }
  return x;
}

/// The Cayley structure of a table on a topology: for every node and generator, the next node
/// and the port that reaches it.
struct Cayley {
  std::vector<int> sizes;
  std::vector<CayleyGroup> groups;
  std::vector<int> gen_dim, gen_index;
  int nodes = 0;
  int gens = 0;
  std::vector<NodeId> next;  // node * gens + g
  std::vector<Port> port;
  NodeId identity = 0;

  NodeId step(NodeId v, int g) const { return next[uz(v) * uz(gens) + uz(g)]; }
  Port port_of(NodeId v, int g) const { return port[uz(v) * uz(gens) + uz(g)]; }
};

/// Builds the Cayley structure, or returns the reason the table does not fit the topology.
std::optional<Cayley> make_cayley(const Topology& t, const ExchangeTable& table, std::string& why) {
  const auto sizes = ring_sizes(t, &why);
  if (!sizes) return std::nullopt;
  if (table.groups.size() != sizes->size()) {
    why = "table has " + std::to_string(table.groups.size()) + " dimension groups but '" + t.spec() + "' has " +
          std::to_string(sizes->size()) + " dimensions";
    return std::nullopt;
  }
  Cayley c;
  c.sizes = *sizes;
  c.groups = table.groups;
  for (std::size_t d = 0; d < c.sizes.size(); ++d) {
    const std::string m = group_mismatch(c.groups[d], c.sizes[d]);
    if (!m.empty()) {
      why = "dimension " + std::to_string(d) + ": " + m;
      return std::nullopt;
    }
    for (int k = 0; k < gens_of(c.groups[d]); ++k) {
      c.gen_dim.push_back(static_cast<int>(d));
      c.gen_index.push_back(k);
    }
  }
  c.gens = static_cast<int>(c.gen_dim.size());
  c.nodes = t.nodes();
  c.next.resize(uz(c.nodes) * uz(c.gens));
  c.port.resize(c.next.size());
  for (NodeId v = 0; v < c.nodes; ++v) {
    const std::vector<int> x = t.coordinates(v);
    for (int g = 0; g < c.gens; ++g) {
      const auto d = uz(c.gen_dim[uz(g)]);
      std::vector<int> y = x;
      y[d] = step_coordinate(c.groups[d], c.sizes[d], x[d], c.gen_index[uz(g)]);
      const NodeId w = t.node_at(y);
      const auto p = t.port_to(v, w);
      if (!p) {
        why = "internal: generator does not follow a link";
        return std::nullopt;
      }
      c.next[uz(v) * uz(c.gens) + uz(g)] = w;
      c.port[uz(v) * uz(c.gens) + uz(g)] = *p;
    }
  }
  c.identity = t.node_at(std::vector<int>(c.sizes.size(), 0));
  return c;
}

std::string coords_text(const Topology& t, NodeId v) {
  std::string s = "(";
  const std::vector<int> x = t.coordinates(v);
  for (std::size_t i = 0; i < x.size(); ++i) s += (i ? "," : "") + std::to_string(x[i]);
  return s + ")";
}

/// Caps the number of sentences of one kind, then summarizes.
class ErrorList {
 public:
  explicit ErrorList(std::vector<std::string>& out) : out_(out) {}
  /// `text()` builds the sentence, called only for the first kPerKind of a kind (a table with
  /// millions of errors costs a count each, not a string each).
  template <class Text>
  void add(const std::string& kind, const Text& text) {
    if (++count_[kind] <= kPerKind) out_.push_back(text());
  }
  void finish() {
    for (const auto& [kind, n] : count_)
      if (n > kPerKind) out_.push_back("... and " + std::to_string(n - kPerKind) + " more " + kind + " errors");
  }

 private:
  static constexpr int kPerKind = 20;
  std::vector<std::string>& out_;
  std::map<std::string, int> count_;
};

}  // namespace

std::string to_string(CayleyGroup g) {
  switch (g) {
    case CayleyGroup::Order2: return "order2";
    case CayleyGroup::Cyclic: return "cyclic";
    case CayleyGroup::Dihedral: return "dihedral";
  }
  return "?";
}

int ExchangeTable::generator_count() const {
  int n = 0;
  for (CayleyGroup g : groups) n += gens_of(g);
  return n;
}

int ExchangeTable::generator_dimension(int g) const {
  int base = 0;
  for (std::size_t d = 0; d < groups.size(); ++d) {
    if (g >= base && g < base + gens_of(groups[d])) return static_cast<int>(d);
    base += gens_of(groups[d]);
  }
  return -1;
}

int ExchangeTable::generator_index(int g) const {
  int base = 0;
  for (CayleyGroup grp : groups) {
    if (g >= base && g < base + gens_of(grp)) return g - base;
    base += gens_of(grp);
  }
  return -1;
}

std::string ExchangeTable::generator_name(int g) const {
  const int d = generator_dimension(g);
  if (d < 0 || d >= 26) throw UsageError("generator " + std::to_string(g) + " is not a generator of this table");
  const char lower = static_cast<char>('a' + d);
  const int k = generator_index(g);
  switch (groups[uz(d)]) {
    case CayleyGroup::Order2: return std::string(1, lower);
    case CayleyGroup::Cyclic: return std::string(1, lower) + (k == 0 ? "+" : "-");
    case CayleyGroup::Dihedral: return std::string(1, k == 0 ? lower : static_cast<char>('A' + d));
  }
  return "?";
}

int ExchangeTable::generator_by_name(const std::string& name) const {
  for (int g = 0; g < generator_count(); ++g)
    if (generator_name(g) == name) return g;
  return -1;
}

std::string ExchangeTable::word_text(const std::vector<int>& letters) const {
  std::string s;
  for (std::size_t i = 0; i < letters.size(); ++i) {
    s += i ? " " : "";
    const int g = letters[i];
    s += g >= 0 && g < generator_count() ? generator_name(g) : "?" + std::to_string(g);
  }
  return s;
}

std::vector<std::string> check_exchange_table(const Topology& t, const ExchangeTable& table) {
  std::vector<std::string> errors;
  std::string why;
  const auto cayley = make_cayley(t, table, why);
  if (!cayley) {
    errors.push_back("table does not fit " + t.spec() + ": " + why);
    return errors;
  }
  const Cayley& c = *cayley;
  ErrorList err(errors);
  if (!table.topology.empty() && table.topology != t.spec())
    err.add("topology", [&] { return "table is for '" + table.topology + "', not '" + t.spec() + "'"; });
  if (table.rows.size() != uz(c.gens))
    err.add("rows", [&] { return "table has " + std::to_string(table.rows.size()) + " rows, expected one per generator (" +
                        std::to_string(c.gens) + ")"; });
  if (table.columns < 0) err.add("columns", [&] { return "column count " + std::to_string(table.columns) + " is negative"; });
  const int cols = std::max(0, table.columns);

  // occupant[col * gens + g] = (row, word) first seen there
  std::vector<std::pair<int, int>> occupant(uz(cols) * uz(c.gens), {-1, -1});
  std::vector<bool> column_used(uz(cols), false);
  // reached[v] = (row, word) whose destination is v
  std::vector<std::pair<int, int>> reached(uz(c.nodes), {-1, -1});
  auto where = [&](int r, int w) {
    const PlacedWord& pw = table.rows[uz(r)][uz(w)];
    return "word '" + table.word_text(pw.letters) + "' (row " + std::to_string(r) + ", column " +
           std::to_string(pw.column) + ")";
  };
  for (std::size_t ri = 0; ri < table.rows.size(); ++ri) {
    const int r = static_cast<int>(ri);
    int prev_end = -1, prev_word = -1;
    for (std::size_t wi = 0; wi < table.rows[ri].size(); ++wi) {
      const int w = static_cast<int>(wi);
      const PlacedWord& pw = table.rows[ri][wi];
      const int len = static_cast<int>(pw.letters.size());
      bool ok = true;
      if (len == 0) {
        err.add("word", [&] { return "row " + std::to_string(r) + ": empty word at column " + std::to_string(pw.column); });
        ok = false;
      }
      for (int g : pw.letters) {
        if (g < 0 || g >= c.gens) {
          err.add("word", [&] { return "row " + std::to_string(r) + ": word at column " + std::to_string(pw.column) +
                              " uses generator index " + std::to_string(g) + ", which does not exist"; });
          ok = false;
          break;
        }
      }
      if (pw.column < 0 || pw.column + len > cols) {
        err.add("range", [&] { return where(r, w) + " occupies columns " + std::to_string(pw.column) + ".." +
                             std::to_string(pw.column + len - 1) + ", outside the table's columns 0.." +
                             std::to_string(cols - 1); });
        ok = false;
      }
      if (prev_word >= 0 && pw.column < prev_end)
        err.add("overlap", [&] { return where(r, w) + " overlaps " + where(r, prev_word) + " in the same row"; });
      if (pw.column + len > prev_end || prev_word < 0) {
        prev_end = std::max(prev_end, pw.column + len);
        prev_word = w;
      }
      if (!ok) continue;
      // Theorem 1 (2): each column holds each generator at most once.
      for (int i = 0; i < len; ++i) {
        const int col = pw.column + i;
        const int g = pw.letters[uz(i)];
        column_used[uz(col)] = true;
        auto& occ = occupant[uz(col) * uz(c.gens) + uz(g)];
        if (occ.first >= 0)
          err.add("column", [&] { return "column " + std::to_string(col) + ": generator " + table.generator_name(g) +
                                " appears twice, in " + where(occ.first, occ.second) + " and in " + where(r, w); });
        else
          occ = {r, w};
      }
      // Destinations: every non-identity element exactly once.
      NodeId v = c.identity;
      for (int g : pw.letters) v = c.step(v, g);
      if (v == c.identity) {
        err.add("destination", [&] { return where(r, w) + " leads back to its source (the identity), not to another node"; });
        continue;
      }
      auto& rc = reached[uz(v)];
      if (rc.first >= 0)
        err.add("destination", [&] { return "destination " + coords_text(t, v) + " is reached twice, by " +
                                   where(rc.first, rc.second) + " and by " + where(r, w); });
      else
        rc = {r, w};
    }
  }
  for (NodeId v = 0; v < c.nodes; ++v)
    if (v != c.identity && reached[uz(v)].first < 0)
      err.add("missing", [&] { return "destination " + coords_text(t, v) + " (node " + std::to_string(v) +
                             " from the identity) is reached by no word"; });
  if (cols > 0 && !column_used[uz(cols - 1)])
    err.add("columns", [&] { return "last column " + std::to_string(cols - 1) +
                           " is empty: the table claims more time than its words take"; });
  err.finish();
  return errors;
}

namespace {

/// The expansion of a table, produced step by step: for every word active in a column, every
/// node's message for it advances one letter. Per active word (at most one per generator and
/// column) the current node and the destination of every source: O(N) memory per word.
struct TablePlan {
  Topology topo;
  ExchangeTable table;
  Cayley c;
  int cols = 0;
  std::int64_t transfers = 0;
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> active;  // column -> (row, word), table order
};

class TableCursor : public StepCursor {
 public:
  explicit TableCursor(std::shared_ptr<const TablePlan> p) : p_(std::move(p)) {}
  bool next(std::vector<Transfer>& out) override {
    out.clear();
    if (col_ >= p_->cols) return false;
    const Cayley& c = p_->c;
    const auto n = uz(c.nodes);
    std::map<std::pair<std::size_t, std::size_t>, State> still;
    for (const auto& rw : p_->active[uz(col_)]) {
      const PlacedWord& pw = p_->table.rows[rw.first][rw.second];
      auto it = state_.find(rw);
      if (it == state_.end()) {  // the word starts here: every node sends its message for g * w
        State st{std::vector<NodeId>(n), std::vector<NodeId>(n)};
        for (NodeId src = 0; src < c.nodes; ++src) {
          NodeId dst = src;
          for (int g : pw.letters) dst = c.step(dst, g);
          st.at[uz(src)] = src;
          st.dst[uz(src)] = dst;
        }
        it = state_.emplace(rw, std::move(st)).first;
      }
      State& st = it->second;
      const std::size_t i = uz(col_ - pw.column);
      const int g = pw.letters[i];
      for (NodeId src = 0; src < c.nodes; ++src) {
        NodeId& at = st.at[uz(src)];
        out.push_back(Transfer{Message{src, st.dst[uz(src)]}, at, c.port_of(at, g)});
        at = c.step(at, g);
      }
      if (i + 1 < pw.letters.size()) still.emplace(rw, std::move(st));
    }
    state_.swap(still);
    ++col_;
    return true;
  }

 private:
  struct State {
    std::vector<NodeId> at, dst;
  };
  std::shared_ptr<const TablePlan> p_;
  std::map<std::pair<std::size_t, std::size_t>, State> state_;
  int col_ = 0;
};

class TableSource : public StepSource {
 public:
  explicit TableSource(std::shared_ptr<const TablePlan> p) : p_(std::move(p)) {}
  [[nodiscard]] std::size_t step_count() const override { return uz(p_->cols); }
  [[nodiscard]] std::int64_t transfer_count() const override { return p_->transfers; }
  [[nodiscard]] std::unique_ptr<StepCursor> cursor() const override { return std::make_unique<TableCursor>(p_); }
  // Theorem 1: a table that passes the checker defines a valid all-port exchange without
  // buffering that takes its last word's end (the unit tests compare this with the replay).
  [[nodiscard]] bool verify_compact(const Topology& t, Model model, VerifyReport& out) const override {
    if (model != Model::AllPort || t.spec() != p_->topo.spec() || t.is_partial()) return false;
    if (!check_exchange_table(t, p_->table).empty()) return false;
    int busy = 0;
    for (const auto& row : p_->table.rows)
      for (const PlacedWord& pw : row) busy = std::max(busy, pw.column + static_cast<int>(pw.letters.size()));
    const auto n = static_cast<std::int64_t>(t.nodes());
    out = VerifyReport{};
    out.ok = true;
    out.steps = busy;
    out.delivered = out.expected = n * (n - 1);
    out.max_buffered = 0;
    return true;
  }

 private:
  std::shared_ptr<const TablePlan> p_;
};

}  // namespace

Schedule expand_exchange_table(const Topology& t, const ExchangeTable& table) {
  return expand_exchange_table(t, table, kTableLazyTransfers);
}

Schedule expand_exchange_table(const Topology& t, const ExchangeTable& table, std::int64_t lazy_above) {
  std::string why;
  auto cayley = make_cayley(t, table, why);
  if (!cayley) throw UsageError("exchange table does not fit " + t.spec() + ": " + why);
  auto plan = std::make_shared<TablePlan>(TablePlan{t, table, std::move(*cayley), 0, 0, {}});
  const Cayley& c = plan->c;
  int cols = std::max(0, table.columns);
  for (const auto& row : table.rows)
    for (const PlacedWord& pw : row) cols = std::max(cols, pw.column + static_cast<int>(pw.letters.size()));
  plan->cols = cols;
  plan->active.resize(uz(cols));
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    for (std::size_t w = 0; w < table.rows[r].size(); ++w) {
      const PlacedWord& pw = table.rows[r][w];
      if (pw.column < 0) continue;
      if (std::any_of(pw.letters.begin(), pw.letters.end(), [&](int g) { return g < 0 || g >= c.gens; })) continue;
      for (std::size_t i = 0; i < pw.letters.size(); ++i) plan->active[uz(pw.column) + i].emplace_back(r, w);
      plan->transfers += static_cast<std::int64_t>(pw.letters.size()) * c.nodes;
    }
  }
  Schedule s;
  s.topology = t.spec();
  s.model = Model::AllPort;
  s.algorithm = "table";
  s.source = std::make_shared<TableSource>(plan);
  if (plan->transfers <= lazy_above) s.materialize();
  return s;
}

// ---------------------------------------------------------------- text format

void write_exchange_table(std::ostream& out, const ExchangeTable& table) {
  out << "totex-exchange-table 1\n";
  out << "model all-port\n";
  out << "topology " << table.topology << "\n";
  out << "algorithm table\n";
  out << "generators";
  for (int g = 0; g < table.generator_count(); ++g) out << ' ' << table.generator_name(g);
  out << "\n";
  out << "columns " << table.columns << "\n";
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    std::vector<std::string> cells(uz(std::max(0, table.columns)), ".");
    for (const PlacedWord& pw : table.rows[r]) {
      for (std::size_t i = 0; i < pw.letters.size(); ++i) {
        const std::size_t col = uz(pw.column) + i;
        if (col >= cells.size()) throw UsageError("word at column " + std::to_string(pw.column) +
                                                  " does not fit the table's " + std::to_string(table.columns) + " columns");
        cells[col] = (i == 0 ? "|" : "") + table.generator_name(pw.letters[i]);
      }
    }
    out << "row " << r;
    for (const std::string& cell : cells) out << ' ' << cell;
    out << "\n";
  }
}

namespace {

bool parse_nonneg(const std::string& s, long long max, long long& v) {
  if (s.empty() || s.size() > 12 || !std::all_of(s.begin(), s.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
    return false;
  v = std::stoll(s);
  return v <= max;
}

}  // namespace

ExchangeTable io_detail::read_exchange_table(io_detail::LineReader& reader) {
  const std::string& file = reader.name();
  int lineno = 0;
  static const std::vector<std::string_view> kEnd;
  // Next non-blank, non-comment line as fields (valid until the next call); empty at end of file.
  auto next = [&]() -> const std::vector<std::string_view>& {
    if (reader.next()) {
      lineno = reader.line();
      return reader.fields();
    }
    lineno = reader.line() + 1;
    return kEnd;
  };
  auto expect_key = [&](const std::string& key, std::size_t min_args) -> const std::vector<std::string_view>& {
    const std::vector<std::string_view>& t = next();
    if (t.empty()) throw FileError(file, lineno, "expected '" + key + "', found end of file");
    if (t[0] != key) throw FileError(file, lineno, "expected '" + key + "', found '" + printable(t[0]) + "'");
    if (t.size() < min_args + 1) throw FileError(file, lineno, "'" + key + "' needs a value");
    return t;
  };

  ExchangeTable table;
  {
    const std::vector<std::string_view>& t = next();
    if (t.empty()) throw FileError(file, lineno, "empty file; expected 'totex-exchange-table 1'");
    if (t[0] != "totex-exchange-table")
      throw FileError(file, lineno, "not an exchange table: expected 'totex-exchange-table 1', found '" + printable(t[0]) + "'");
    if (t.size() != 2) throw FileError(file, lineno, "header needs exactly one version number");
    if (t[1] != "1") throw FileError(file, lineno, "unsupported version '" + printable(t[1]) + "' (this reader knows version 1)");
  }
  {
    const auto& t = expect_key("model", 1);
    if (t.size() != 2 || t[1] != "all-port")
      throw FileError(file, lineno, "exchange tables use model 'all-port', not '" + printable(t[1]) + "'");
  }
  std::optional<Topology> topo;
  int diameter = 0;
  {
    const auto& t = expect_key("topology", 1);
    if (t.size() != 2) throw FileError(file, lineno, "'topology' takes one spec");
    try {
      topo = parse_topology(std::string(t[1]));
    } catch (const std::exception& e) {
      throw FileError(file, lineno, e.what());
    }
    table.topology = std::string(t[1]);
  }
  {
    const auto& t = expect_key("algorithm", 1);
    if (t.size() != 2 || t[1] != "table")
      throw FileError(file, lineno, "exchange tables use algorithm 'table', not '" + printable(t[1]) + "'");
  }
  {
    const auto& t = expect_key("generators", 1);
    std::string why;
    const auto sizes = ring_sizes(*topo, &why);
    if (!sizes) throw FileError(file, lineno, why);
    std::size_t i = 1;
    for (std::size_t d = 0; d < sizes->size(); ++d) {
      const std::string lower(1, static_cast<char>('a' + d));
      const std::string upper(1, static_cast<char>('A' + d));
      const int k = (*sizes)[d];
      auto at = [&](std::size_t j) { return j < t.size() ? std::string(t[j]) : std::string("end of line"); };
      if (k == 2) {
        if (at(i) != lower)
          throw FileError(file, lineno, "dimension " + std::to_string(d) + " (size 2) has generator '" + lower +
                                            "', found '" + printable(at(i)) + "'");
        table.groups.push_back(CayleyGroup::Order2);
        i += 1;
      } else if (at(i) == lower + "+" && at(i + 1) == lower + "-") {
        table.groups.push_back(CayleyGroup::Cyclic);
        i += 2;
      } else if (at(i) == lower && at(i + 1) == upper) {
        if (k % 2 != 0)
          throw FileError(file, lineno, "dimension " + std::to_string(d) + " has odd size " + std::to_string(k) +
                                            "; the dihedral generators '" + lower + " " + upper + "' need an even size");
        table.groups.push_back(CayleyGroup::Dihedral);
        i += 2;
      } else {
        throw FileError(file, lineno, "dimension " + std::to_string(d) + " needs generators '" + lower + "+ " + lower +
                                          "-' (cyclic) or '" + lower + " " + upper + "' (dihedral), found '" + printable(at(i)) +
                                          (i + 1 < t.size() ? " " + printable(t[i + 1]) : "") + "'");
      }
    }
    if (i != t.size()) throw FileError(file, lineno, "extra generator '" + printable(t[i]) + "' after the last dimension");
    diameter = 0;
    for (const int k : *sizes) diameter += k / 2;
  }
  {
    const auto& t = expect_key("columns", 1);
    long long v = 0;
    if (t.size() != 2 || !parse_nonneg(std::string(t[1].substr(0, 13)), 1 << 24, v))
      throw FileError(file, lineno, "'columns' needs one integer in 0..16777216");
    // Every word is a route to its own destination: N - 1 words, none sensibly longer than twice
    // the diameter, even all one after another. Refused here, before rows of that width are read.
    const long long most = static_cast<long long>(topo->nodes() - 1) * (2 * diameter + 2);
    if (v > most)
      throw FileError(file, lineno, "'columns' " + std::to_string(v) + " is more than " + topo->spec() + " can use: " +
                                        std::to_string(topo->nodes() - 1) + " words of at most " + std::to_string(2 * diameter + 2) +
                                        " letters one after another take " + std::to_string(most));
    table.columns = static_cast<int>(v);
  }
  const int gens = table.generator_count();
  std::map<std::string, int, std::less<>> by_name;
  for (int g = 0; g < gens; ++g) by_name[table.generator_name(g)] = g;
  table.rows.resize(uz(gens));
  for (int r = 0; r < gens; ++r) {
    const std::vector<std::string_view>& t = next();
    if (t.empty())
      throw FileError(file, lineno, "expected 'row " + std::to_string(r) + "', found end of file (" +
                                        std::to_string(gens) + " rows needed, one per generator)");
    if (t[0] != "row") throw FileError(file, lineno, "expected 'row " + std::to_string(r) + "', found '" + printable(t[0]) + "'");
    if (t.size() < 2 || t[1] != std::to_string(r))
      throw FileError(file, lineno, "expected row number " + std::to_string(r) + ", found '" +
                                        (t.size() < 2 ? std::string("nothing") : printable(t[1])) + "'");
    if (t.size() - 2 != uz(table.columns))
      throw FileError(file, lineno, "row " + std::to_string(r) + " has " + std::to_string(t.size() - 2) +
                                        " cells, expected " + std::to_string(table.columns));
    PlacedWord* open = nullptr;
    for (std::size_t j = 2; j < t.size(); ++j) {
      const int col = static_cast<int>(j - 2);
      const std::string_view cell = t[j];
      if (cell == ".") {
        open = nullptr;
        continue;
      }
      const bool starts = cell[0] == '|';
      const std::string_view name = starts ? cell.substr(1) : cell;
      const auto it = by_name.find(name);
      if (it == by_name.end())
        throw FileError(file, lineno, "row " + std::to_string(r) + ", column " + std::to_string(col) + ": '" + printable(name) +
                                          "' is not a generator of this table");
      if (starts) {
        table.rows[uz(r)].push_back(PlacedWord{col, {it->second}});
        open = &table.rows[uz(r)].back();
      } else {
        if (!open)
          throw FileError(file, lineno, "row " + std::to_string(r) + ", column " + std::to_string(col) + ": '" + printable(name) +
                                            "' continues a word, but no word is open (mark a word's first letter '|" +
                                            printable(name) + "')");
        open->letters.push_back(it->second);
      }
    }
  }
  if (const auto& t = next(); !t.empty())
    throw FileError(file, lineno, "unexpected '" + printable(t[0]) + "' after the last row");
  return table;
}

ExchangeTable read_exchange_table(std::istream& in, const std::string& file) {
  io_detail::ByteSource bytes(in, file);
  io_detail::LineReader reader(bytes, file, {kMaxTableLine, "exchange-table"});
  return io_detail::read_exchange_table(reader);
}

void write_exchange_table_file(const std::string& path, const ExchangeTable& table) {
  write_output_file(path, [&](std::ostream& out) { write_exchange_table(out, table); });
}

ExchangeTable read_exchange_table_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw FileError(path, 0, "cannot open for reading");
  return read_exchange_table(in, path);
}

}  // namespace totex
