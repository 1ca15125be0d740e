// SPDX-License-Identifier: Apache-2.0
// Constructions of exchange tables at the times claimed in paper 001, section 3.
//
//  - rings: C_n (n odd) by the sigma scheme (row 1 = row 0 with x <-> x^-1); D_n (n even) by an
//    explicit placement of the alternating words (the paper only shows n = 10, 12).
//  - hypercubes: rows are cyclic shifts of one letter string (row r = s + r mod n), each row cut
//    into words on its own; string and cuts are found by a deterministic backtracking search.
//  - 2D/3D symmetric tori: the paper's sigma scheme (row r = sigma^r(row 0), one word per class
//    of size #S) plus blocks for the classes of smaller size. The blocks are instantiated from
//    block-level templates (a cell is a generator, or a run of alternating letters of the block's
//    run length): the 3D even block 1 is the paper's table (one garbled cell repaired), the 2D even
//    block is derived from the paper's sketch, and the 3D odd block and 3D even blocks 2 and 3 were
//    found by a block-level backtracking search over the paper's word classes.
// Every table is checked by check_exchange_table; tests also expand it and run verify().
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "totex/error.hpp"
#include "totex/io/exchange_table.hpp"
#include "hypercube_doubling.hpp"

namespace totex {
namespace {

std::size_t uz(int i) { return static_cast<std::size_t>(i); }

/// The group of a table on ring sizes: elements are coordinate vectors.
class Shape {
 public:
  Shape(std::vector<int> sizes, std::vector<CayleyGroup> groups) : sizes_(std::move(sizes)), groups_(std::move(groups)) {
    for (std::size_t d = 0; d < groups_.size(); ++d) {
      base_.push_back(static_cast<int>(dim_.size()));
      for (int k = 0; k < (groups_[d] == CayleyGroup::Order2 ? 1 : 2); ++k) {
        dim_.push_back(static_cast<int>(d));
        index_.push_back(k);
      }
    }
    elements_ = 1;
    for (int k : sizes_) elements_ *= k;
  }
  int gens() const { return static_cast<int>(dim_.size()); }
  int elements() const { return elements_; }
  int gen(int d, int k) const { return base_[uz(d)] + k; }
  int dim(int g) const { return dim_[uz(g)]; }
  int index(int g) const { return index_[uz(g)]; }
  const std::vector<CayleyGroup>& groups() const { return groups_; }
  const std::vector<int>& sizes() const { return sizes_; }

  void apply(std::vector<int>& x, int g) const {
    const auto d = uz(dim(g));
    const int k = sizes_[d];
    switch (groups_[d]) {
      case CayleyGroup::Order2: x[d] = 1 - x[d]; break;
      case CayleyGroup::Cyclic: x[d] = index(g) == 0 ? (x[d] + 1) % k : (x[d] + k - 1) % k; break;
      case CayleyGroup::Dihedral: {
        const int e = x[d] % 2 == 0 ? 1 : -1;
        x[d] = ((index(g) == 0 ? x[d] + e : x[d] - e) % k + k) % k;
        break;
      }
    }
  }
  std::vector<int> eval(const std::vector<int>& word) const {
    std::vector<int> x(sizes_.size(), 0);
    for (int g : word) apply(x, g);
    return x;
  }
  int linear(const std::vector<int>& x) const {
    int v = 0;
    for (std::size_t d = sizes_.size(); d-- > 0;) v = v * sizes_[d] + x[d];
    return v;
  }
  std::vector<int> coords(int v) const {
    std::vector<int> x(sizes_.size());
    for (std::size_t d = 0; d < sizes_.size(); ++d) {
      x[d] = v % sizes_[d];
      v /= sizes_[d];
    }
    return x;
  }
  /// A shortest word: dimension by dimension, straight (cyclic) or alternating (dihedral).
  std::vector<int> shortest_word(const std::vector<int>& x) const {
    std::vector<int> w;
    for (std::size_t d = 0; d < sizes_.size(); ++d) {
      const int k = sizes_[d];
      const int di = static_cast<int>(d);
      if (x[d] == 0) continue;
      switch (groups_[d]) {
        case CayleyGroup::Order2: w.push_back(gen(di, 0)); break;
        case CayleyGroup::Cyclic: {
          const bool plus = x[d] <= k / 2;
          for (int i = 0; i < (plus ? x[d] : k - x[d]); ++i) w.push_back(gen(di, plus ? 0 : 1));
          break;
        }
        case CayleyGroup::Dihedral: {
          const bool plus = x[d] <= k / 2;
          const int len = plus ? x[d] : k - x[d];
          for (int i = 0; i < len; ++i) w.push_back(gen(di, (plus ? 0 : 1) ^ (i % 2)));
          break;
        }
      }
    }
    return w;
  }

 private:
  std::vector<int> sizes_;
  std::vector<CayleyGroup> groups_;
  std::vector<int> base_, dim_, index_;
  int elements_ = 1;
};

class Builder {
 public:
  Builder(const Topology& t, std::vector<int> sizes, std::vector<CayleyGroup> groups)
      : shape(std::move(sizes), std::move(groups)) {
    table.topology = t.spec();
    table.groups = shape.groups();
    table.rows.resize(uz(shape.gens()));
    covered.assign(uz(shape.elements()), false);
  }
  void place(int row, int col, std::vector<int> letters) {
    end = std::max(end, col + static_cast<int>(letters.size()));
    covered[uz(shape.linear(shape.eval(letters)))] = true;
    table.rows[uz(row)].push_back(PlacedWord{col, std::move(letters)});
  }
  ExchangeTable finish() {
    for (auto& row : table.rows)
      std::sort(row.begin(), row.end(), [](const PlacedWord& a, const PlacedWord& b) { return a.column < b.column; });
    table.columns = end;
    return std::move(table);
  }

  /// Sigma scheme: one representative word per orbit of sigma (a permutation of the generators
  /// that is an automorphism and cycles all of them) over every element not yet covered; row 0
  /// holds the representatives from column `start`, row r holds sigma^r of row 0.
  int sigma_part(const std::vector<int>& sigma, int start) {
    const int g = shape.gens();
    std::vector<std::vector<int>> reps;
    std::vector<bool> seen = covered;
    seen[uz(shape.linear(std::vector<int>(shape.sizes().size(), 0)))] = true;
    for (int v = 0; v < shape.elements(); ++v) {
      if (seen[uz(v)]) continue;
      const std::vector<int> w0 = shape.shortest_word(shape.coords(v));
      std::vector<int> w = w0;
      int orbit = 0;
      do {
        const int u = shape.linear(shape.eval(w));
        if (seen[uz(u)]) throw std::logic_error("exchange table: sigma orbit meets a covered element");
        seen[uz(u)] = true;
        ++orbit;
        for (int& l : w) l = sigma[uz(l)];
      } while (shape.linear(shape.eval(w)) != v);
      if (orbit != g) throw std::logic_error("exchange table: sigma orbit of size " + std::to_string(orbit));
      reps.push_back(w0);
    }
    int col = start;
    for (const auto& w0 : reps) {
      std::vector<int> w = w0;
      for (int r = 0; r < g; ++r) {
        place(r, col, w);
        for (int& l : w) l = sigma[uz(l)];
      }
      col += static_cast<int>(w0.size());
    }
    return col;
  }

  /// Instantiates a block template at column `start`. Tokens: '|' starts a word; a letter a..c
  /// (upper case = second dihedral generator, '+'/'-' suffix = cyclic generator); '*' = a run of
  /// `run` alternating letters starting with that generator; a plain letter is repeated `scale`
  /// times. Returns the block's end column.
  int block(const std::vector<std::string>& rows, int start, int run, int scale) {
    int width = -1;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      int col = start;
      std::vector<int> word;
      int word_col = start;
      std::size_t pos = 0;
      const std::string& s = rows[r];
      auto flush = [&]() {
        if (!word.empty()) place(static_cast<int>(r), word_col, word);
        word.clear();
      };
      while (pos < s.size()) {
        if (s[pos] == ' ') {
          ++pos;
          continue;
        }
        if (s[pos] == '|') {
          flush();
          word_col = col;
          ++pos;
        }
        const char c = s[pos++];
        const int d = c >= 'a' ? c - 'a' : c - 'A';
        int k = c >= 'a' ? 0 : 1;
        if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) k = s[pos++] == '+' ? 0 : 1;
        bool is_run = false;
        if (pos < s.size() && s[pos] == '*') {
          is_run = true;
          ++pos;
        }
        const int len = is_run ? run : scale;
        for (int i = 0; i < len; ++i) {
          const bool alternate = shape.groups()[uz(d)] == CayleyGroup::Dihedral;
          word.push_back(shape.gen(d, alternate ? k ^ (i % 2) : k));
        }
        col += len;
      }
      flush();
      if (width >= 0 && col != width) throw std::logic_error("exchange table: block rows differ in width");
      width = col;
    }
    return width;
  }

  Shape shape;
  ExchangeTable table;
  std::vector<bool> covered;
  int end = 0;
};

// ------------------------------------------------------------------ rings

ExchangeTable ring_table(const Topology& t, int n) {
  if (n % 2 == 1) {
    Builder b(t, {n}, {CayleyGroup::Cyclic});
    b.sigma_part({1, 0}, 0);
    return b.finish();
  }
  Builder b(t, {n}, {CayleyGroup::Dihedral});
  // Row 0 reads y Y y Y ... from column 0 and row 1 the complement, so every column holds y and
  // Y once. A word of length L at column c of row r starts with y iff (c + r) is even and then
  // reaches +L, else -L; the antipode m is either.
  const int m = n / 2;
  auto put = [&](int row, int col, int len) {
    std::vector<int> w;
    for (int i = 0; i < len; ++i) w.push_back((col + i + row) % 2 == 0 ? 0 : 1);
    b.place(row, col, w);
    return col + len;
  };
  int c0 = 0, c1 = 0;
  auto stacked = [&](int k) {  // +-k and +-(m-k): both rows [k][m-k]
    c0 = put(0, put(0, c0, k), m - k);
    c1 = put(1, put(1, c1, k), m - k);
  };
  if (m % 2 == 1) {
    const int q = (m - 1) / 2;
    for (int k = 1; k <= q - 1; ++k) stacked(k);
    // Final region for m, +-q, +-(q+1): width 3q + 2, one blank at the end of row 1.
    if (q % 2 == 1) {
      c0 = put(0, put(0, c0, m), q + 1);
    } else {
      c0 = put(0, put(0, c0, q + 1), m);
    }
    c1 = put(1, put(1, put(1, c1, q), q + 1), q);
  } else {
    const int q = m / 2;
    if (q % 2 == 1) {
      for (int k = 1; k <= q - 1; ++k) stacked(k);
      c0 = put(0, c0, m);
      c1 = put(1, put(1, c1, q), q);
    } else {
      for (int k = 2; k <= q - 1; ++k) stacked(k);
      c0 = put(0, put(0, put(0, c0, m), 1), m - 1);
      c1 = put(1, put(1, put(1, put(1, c1, 1), q), m - 1), q);
    }
  }
  return b.finish();
}

// ------------------------------------------------------------------ hypercubes

/// Deterministic search for a hypercube table on n generators: a string s of length 2^(n-1);
/// row r reads (s_j + r) mod n and is cut into words (sets of distinct generators) so that every
/// non-empty subset is exactly one word. Returns rows of (column, letters).
class HypercubeSearch {
 public:
  explicit HypercubeSearch(int n) : n_(n), len_(1 << (n - 1)), full_((1u << n) - 1) {}

  bool run(std::vector<std::vector<PlacedWord>>& rows) {
    for (std::uint64_t attempt = 1; attempt <= 200; ++attempt) {
      rng_ = 0x9E3779B97F4A7C15ull * attempt + 12345;
      used_.assign(std::size_t{1} << n_, false);
      cur_.assign(uz(n_), 0);
      s_.assign(uz(len_), 0);
      words_.assign(uz(n_), {});
      nodes_ = 0;
      try {
        if (column(0)) {
          rows.assign(uz(n_), {});
          for (int r = 0; r < n_; ++r) {
            std::vector<int> cuts = words_[uz(r)];
            cuts.push_back(len_);
            for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
              PlacedWord w{cuts[i], {}};
              for (int j = cuts[i]; j < cuts[i + 1]; ++j) w.letters.push_back((s_[uz(j)] + r) % n_);
              rows[uz(r)].push_back(w);
            }
          }
          return true;
        }
      } catch (const Limit&) {
      }
    }
    return false;
  }

 private:
  struct Limit {};
  std::uint64_t next_random() {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return rng_;
  }
  bool has_free_superset(unsigned p) const {
    const unsigned rest = full_ & ~p;
    unsigned x = rest;
    while (true) {
      if (!used_[p | x]) return true;
      if (x == 0) return false;
      x = (x - 1) & rest;
    }
  }
  bool column(int j) {
    if (++nodes_ > 400000) throw Limit{};
    if (j == len_) {
      for (int r = 0; r < n_; ++r) {
        if (used_[cur_[uz(r)]]) return false;
        for (int q = 0; q < r; ++q)
          if (cur_[uz(q)] == cur_[uz(r)]) return false;
      }
      return true;  // counting: all letters placed and all words distinct => every subset once
    }
    std::vector<int> letters(uz(n_));
    for (int i = 0; i < n_; ++i) letters[uz(i)] = i;
    for (int i = n_ - 1; i > 0; --i) std::swap(letters[uz(i)], letters[next_random() % (uz(i) + 1)]);
    for (int c : letters) {
      s_[uz(j)] = c;
      if (lane(j, c, 0)) return true;
    }
    return false;
  }
  bool lane(int j, int c, int r) {
    if (r == n_) return column(j + 1);
    const unsigned bit = 1u << ((c + r) % n_);
    const unsigned old = cur_[uz(r)];
    const bool cont_ok = j > 0 && !(old & bit) && has_free_superset(old | bit);
    const bool break_ok = (j == 0 || !used_[old]) && has_free_superset(bit);
    const bool cont_first = (next_random() & 1) != 0;
    for (int attempt = 0; attempt < 2; ++attempt) {
      const bool cont = (attempt == 0) == cont_first;
      if (cont && cont_ok) {
        cur_[uz(r)] = old | bit;
        if (lane(j, c, r + 1)) return true;
        cur_[uz(r)] = old;
      } else if (!cont && break_ok) {
        if (j > 0) used_[old] = true;
        cur_[uz(r)] = bit;
        words_[uz(r)].push_back(j);
        if (lane(j, c, r + 1)) return true;
        words_[uz(r)].pop_back();
        cur_[uz(r)] = old;
        if (j > 0) used_[old] = false;
      }
    }
    return false;
  }

  int n_, len_;
  unsigned full_;
  std::uint64_t rng_ = 1;
  std::vector<bool> used_;
  std::vector<unsigned> cur_;
  std::vector<int> s_;
  std::vector<std::vector<int>> words_;
  long nodes_ = 0;
};

constexpr int kMaxHypercube = 6;  // the string search: 7 is reached too, but it takes ~40 s

/// hypercube:n for n > kMaxHypercube: the doubling construction's dimension x step grid
/// (hypercube_doubling.hpp) written as the table. Each of its 2^n - 1 patterns is a word whose
/// letters are its moves' dimensions (generator d of C_2 is dimension d), placed at its start
/// column. The grid holds every dimension once per column, so a column holds each generator once;
/// the rows (lanes) only need words that do not overlap, and since at most n words are active in
/// any column (one letter each), first-fit by start column (interval colouring) needs at most n.
std::optional<ExchangeTable> hypercube_table_from_doubling(const Topology& t, int n) {
  const auto patterns = hypercube_doubling_patterns(t);
  if (!patterns) return std::nullopt;
  std::vector<PlacedWord> words;
  for (const PlacedPattern& p : *patterns) {
    PlacedWord w{static_cast<int>(p.start), {}};
    for (const auto& [dim, delta] : p.word.moves) w.letters.push_back(dim);
    words.push_back(std::move(w));
  }
  std::sort(words.begin(), words.end(), [](const PlacedWord& a, const PlacedWord& b) {
    return a.column != b.column ? a.column < b.column : a.letters < b.letters;
  });
  ExchangeTable table;
  table.topology = t.spec();
  table.groups.assign(uz(n), CayleyGroup::Order2);
  table.columns = 1 << (n - 1);
  table.rows.assign(uz(n), {});
  std::vector<int> free_from(uz(n), 0);  // first column each row has free
  for (PlacedWord& w : words) {
    const auto row = std::find_if(free_from.begin(), free_from.end(), [&](int f) { return f <= w.column; });
    if (row == free_from.end()) return std::nullopt;  // more than n words at once: never for a valid grid
    *row = w.column + static_cast<int>(w.letters.size());
    table.rows[static_cast<std::size_t>(row - free_from.begin())].push_back(std::move(w));
  }
  return table;
}

/// A hypercube table for a product of K2's and 4-rings (a 4-ring is D_4 = C_2 x C_2).
std::optional<ExchangeTable> hypercube_table(const Topology& t, const std::vector<int>& sizes) {
  std::vector<CayleyGroup> groups;
  int n = 0;
  for (int k : sizes) {
    groups.push_back(k == 2 ? CayleyGroup::Order2 : CayleyGroup::Dihedral);
    n += k == 2 ? 1 : 2;
  }
  if (n > kMaxHypercube) {
    if (!std::all_of(sizes.begin(), sizes.end(), [](int k) { return k == 2; })) return std::nullopt;
    return hypercube_table_from_doubling(t, n);
  }
  ExchangeTable table;
  table.topology = t.spec();
  table.groups = groups;
  if (n == 1) {
    table.rows = {{PlacedWord{0, {0}}}};
  } else {
    HypercubeSearch search(n);
    if (!search.run(table.rows)) return std::nullopt;
  }
  table.columns = 1 << (n - 1);
  return table;
}

// ------------------------------------------------------------------ tori

// sigma: a -> b -> a^-1 -> b^-1 -> a (generators a+ a- b+ b- / a A b B).
const std::vector<int> kSigma2 = {2, 3, 1, 0};
// sigma: a -> b -> c -> a^-1 -> b^-1 -> c^-1 -> a.
const std::vector<int> kSigma3 = {2, 3, 4, 5, 1, 0};

ExchangeTable torus2_table(const Topology& t, int n) {
  if (n % 2 == 1) {
    Builder b(t, {n, n}, {CayleyGroup::Cyclic, CayleyGroup::Cyclic});
    b.sigma_part(kSigma2, 0);
    return b.finish();
  }
  Builder b(t, {n, n}, {CayleyGroup::Dihedral, CayleyGroup::Dihedral});
  const int m = n / 2;
  const int a = 0, A = 1, bb = 2, B = 3;
  // alt(g, len): alternating run of the dimension of g starting with g.
  auto alt = [&](int g, int len) {
    std::vector<int> w;
    for (int i = 0; i < len; ++i) w.push_back(i % 2 == 0 ? g : g ^ 1);
    return w;
  };
  auto cat = [](std::vector<int> x, const std::vector<int>& y) {
    x.insert(x.end(), y.begin(), y.end());
    return x;
  };
  // The 3 special messages (a^m-ish, b^m-ish, their product) and the 8 words of length m with
  // exactly one letter of one dimension, in 4 rows x 3m columns (paper section 3.3).
  b.place(0, 0, cat(alt(a, m), alt(bb, m)));
  b.place(0, 2 * m, cat({B}, alt(a, m - 1)));
  b.place(1, 0, cat({bb}, alt(a, m - 1)));
  b.place(1, m, cat({a}, alt(bb, m - 1)));
  b.place(1, 2 * m, cat({bb}, alt(A, m - 1)));
  b.place(2, 0, cat({A}, alt(B, m - 1)));
  b.place(2, m, cat({B}, alt(A, m - 1)));
  b.place(2, 2 * m, cat({A}, alt(bb, m - 1)));
  b.place(3, 0, alt(B, m));
  b.place(3, m, alt(A, m));
  b.place(3, 2 * m, cat({a}, alt(B, m - 1)));
  b.sigma_part(kSigma2, 3 * m);
  return b.finish();
}

// 3D odd: per i, the size-2 class {(i,-i,i), (-i,i,-i)} with the classes of (i,0,0), (i,i,0),
// (i,-i,0) in 6 rows x 6i columns (every letter stands for i equal letters).
const std::vector<std::string> kOdd3Block = {
    "|c+ |a- |a- c+ |c- a-",   "|a- b+ |b- a+ |a+ b+", "|b- |b- c- |b+ |a- b-",
    "|b+ c- |a+ c- |b- c+",    "|a+ |a+ c+ |a- b+ c-", "|c- |c+ b+ |b- c+ a+"};
// 3D even block 1 (paper): classes of (m,m,m), (m,0,0), (m,m,0), (m-1,0,1), (m-1,-1,0);
// runs have length m-1. The paper's row 6, cell 7 reads 'C'; the column and the word classes
// need 'c'.
const std::vector<std::string> kEven3Block1 = {
    "|a A* |B b* c C* |b A*", "|A a* b B* |C c* |a B*", "|B b* |c C* a A* |C b*",
    "|C c* A a* b B* |B c*", "|c B* |a c* |B a* |A C*", "|b C* |C A* |A b* |c a*"};
// 3D even block 2: size-2 classes for i = 1, 2 with the classes of (2,0,-1) and (2,1,0).
const std::vector<std::string> kEven3Block2 = {
    "|c A a |C B c |A c C", "|A b C |B A b |c b B", "|B c b a C A |b a A",
    "|b C B A c a |a C c",  "|a B c |b a B |C B b", "|C a A |c b C |B A a"};
// 3D even block 3 (3 <= i < m): size-2 class for i with the classes of (i-1,0,1), (i-1,-1,0);
// runs have length i-1.
const std::vector<std::string> kEven3Block3 = {
    "|c B* |A C* |B c*", "|A b* |C A* |C b*", "|B a* |c a* |a B*",
    "|b C* |a c* |b A*", "|a A* B b* c C*",   "|C c* b B* A a*"};

ExchangeTable torus3_table(const Topology& t, int n) {
  if (n % 2 == 1) {
    Builder b(t, {n, n, n}, {CayleyGroup::Cyclic, CayleyGroup::Cyclic, CayleyGroup::Cyclic});
    int col = 0;
    for (int i = 1; i <= (n - 1) / 2; ++i) col = b.block(kOdd3Block, col, 0, i);
    b.sigma_part(kSigma3, col);
    return b.finish();
  }
  Builder b(t, {n, n, n}, {CayleyGroup::Dihedral, CayleyGroup::Dihedral, CayleyGroup::Dihedral});
  const int m = n / 2;
  int col = b.block(kEven3Block1, 0, m - 1, 1);
  col = b.block(kEven3Block2, col, 0, 1);
  for (int i = 3; i < m; ++i) col = b.block(kEven3Block3, col, i - 1, 1);
  b.sigma_part(kSigma3, col);
  return b.finish();
}

}  // namespace

std::string exchange_table_support() {
  return "exchange tables are built for ring:N (N >= 2), hypercube:n (every n; n > " + std::to_string(kMaxHypercube) +
         " from the doubling grid), torus:NxN and torus:NxNxN (N >= 3; N = 4 via the hypercube table), and products of rings of size 2 "
         "and 4 with at most " + std::to_string(kMaxHypercube) + " generators";
}

std::optional<std::int64_t> exchange_table_paper_time(const Topology& t) {
  if (!t.is_product()) return std::nullopt;
  std::vector<int> sizes;
  for (const Factor& f : t.factors()) {
    if (f.kind != FactorKind::Ring && f.size != 2) return std::nullopt;
    sizes.push_back(f.size);
  }
  const auto dims = static_cast<std::int64_t>(sizes.size());
  if (std::all_of(sizes.begin(), sizes.end(), [](int k) { return k == 2 || k == 4; })) {
    // hypercube:n is 2^(n-1); a 4-ring is D_4 = C_2 x C_2, so torus:4x4 and torus:4x4x4 are
    // hypercube:4 and hypercube:6 (as the paper notes), and the formulas below agree.
    std::int64_t gens = 0;
    for (int k : sizes) gens += k == 2 ? 1 : 2;
    return std::int64_t{1} << (gens - 1);
  }
  if (!std::all_of(sizes.begin(), sizes.end(), [&](int k) { return k == sizes[0]; })) return std::nullopt;
  const std::int64_t n = sizes[0];
  if (dims == 1) {
    if (n % 2 == 1) return (n * n - 1) / 8;
    return (n / 2) % 2 == 0 ? n * n / 8 : (n * n + 4) / 8;
  }
  if (dims == 2) return n % 2 == 1 ? n * (n * n - 1) / 8 : n * n * n / 8;  // n = 4: hypercube:4
  if (dims == 3) return n % 2 == 1 ? n * n * (n * n - 1) / 8 : n * n * n * n / 8;  // n = 4: hypercube:6
  return std::nullopt;
}

std::optional<ExchangeTable> make_exchange_table(const Topology& t) {
  if (!t.is_product() || t.is_partial()) return std::nullopt;  // tables exchange among every node
  std::vector<int> sizes;
  for (const Factor& f : t.factors()) {
    if (f.kind != FactorKind::Ring && f.size != 2) return std::nullopt;
    sizes.push_back(f.size);
  }
  if (std::all_of(sizes.begin(), sizes.end(), [](int k) { return k == 2 || k == 4; }) &&
      !(sizes.size() == 1 && sizes[0] == 4))
    return hypercube_table(t, sizes);
  if (sizes.size() == 1) {
    if (sizes[0] == 2) return hypercube_table(t, sizes);
    return ring_table(t, sizes[0]);
  }
  if (!std::all_of(sizes.begin(), sizes.end(), [&](int k) { return k == sizes[0]; })) return std::nullopt;
  const int n = sizes[0];
  if (n < 3) return std::nullopt;
  if (sizes.size() == 2) return torus2_table(t, n);
  if (sizes.size() == 3) return torus3_table(t, n);
  return std::nullopt;
}

ExchangeTable require_exchange_table(const Topology& t) {
  auto table = make_exchange_table(t);
  if (!table) throw UsageError("no exchange table for '" + t.spec() + "': " + exchange_table_support());
  return *table;
}

}  // namespace totex
