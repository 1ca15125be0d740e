// SPDX-License-Identifier: Apache-2.0
/// Exchange tables of paper 001 (Coolsaet, Fack & De Meyer, "A tabular method for verification of
/// data exchange algorithms"): locally defined all-port total exchange without intermediate
/// buffering on Cayley networks.
///
/// The network is a cartesian product of rings (a hypercube is a product of K2's). Each dimension
/// of size k is seen as a group acting regularly on its k nodes:
///   - `Order2`   (k == 2): the group C_2, one generator `a` (the single link);
///   - `Cyclic`   (k >= 3): C_k, generators `a+` (+1) and `a-` (-1);
///   - `Dihedral` (k even, k >= 4): D_k = <a, A | a^2 = A^2 = (aA)^(k/2) = 1>, two reflections.
///     As ring moves, from a node with even coordinate `a` goes +1 and `A` goes -1; from a node
///     with odd coordinate `a` goes -1 and `A` goes +1.
/// Dimension d uses the letter 'a' + d. The group is the direct product of the dimension groups,
/// the generators are listed dimension by dimension (0 fastest), and the node with coordinates
/// (0, ..., 0) is the identity.
///
/// A table has one row (lane) per generator and `columns` columns. A row holds words placed at
/// columns; a word occupies consecutive columns (no waiting). Every node g sends its message for
/// destination g*w along the path spelled by w, starting at the word's column (Theorem 1).
/// The table is valid when every column holds each generator at most once, words in a row do not
/// overlap, and the words reach every non-identity group element exactly once. Time = columns.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"

namespace totex {

/// The group used for one dimension (see the file comment).
enum class CayleyGroup { Order2, Cyclic, Dihedral };
[[nodiscard]] std::string to_string(CayleyGroup g);

/// A word placed in a row: letters are generator indices, the first letter is sent in `column`.
struct PlacedWord {
  int column = 0;
  std::vector<int> letters;
  bool operator==(const PlacedWord& o) const { return column == o.column && letters == o.letters; }
};

struct ExchangeTable {
  std::string topology;                       // spec
  std::vector<CayleyGroup> groups;            // one per dimension
  int columns = 0;                            // the time the table claims
  std::vector<std::vector<PlacedWord>> rows;  // one row per generator, words sorted by column
  bool operator==(const ExchangeTable& o) const {
    return topology == o.topology && groups == o.groups && columns == o.columns && rows == o.rows;
  }

  /// Generators in order: (dimension, index within the dimension).
  [[nodiscard]] int generator_count() const;
  [[nodiscard]] int generator_dimension(int g) const;
  [[nodiscard]] int generator_index(int g) const;  // 0 = a / a+, 1 = A / a-
  /// "a", "a+", "a-", "A", ... (throws UsageError for an out-of-range generator).
  [[nodiscard]] std::string generator_name(int g) const;
  /// The index of generator `name`, or -1.
  [[nodiscard]] int generator_by_name(const std::string& name) const;
  /// Letters of a word as names separated by spaces.
  [[nodiscard]] std::string word_text(const std::vector<int>& letters) const;
};

/// The families make_exchange_table builds, in one line (for error messages and help).
[[nodiscard]] std::string exchange_table_support();

/// The paper's claimed optimal time for this topology, when the paper states one:
/// ring:n odd (n^2-1)/8, n even n^2/8 (n/2 even) or (n^2+4)/8 (n/2 odd); hypercube:n 2^(n-1);
/// torus:nxn odd n(n^2-1)/8, even n >= 6 n^3/8; torus:nxnxn odd n^2(n^2-1)/8, even n > 4 n^4/8.
[[nodiscard]] std::optional<std::int64_t> exchange_table_paper_time(const Topology& t);

/// Builds a table at the paper's time for: ring:N (N >= 2), hypercube:n (every n: a string
/// search for n <= 6, the doubling construction's grid beyond),
/// torus:NxN and torus:NxNxN for N >= 3 (N = 4 via the hypercube table on D_4 = C_2 x C_2),
/// and products of rings of sizes 2 and 4 with at most 6 generators. Returns nullopt for
/// anything else (see exchange_table_support()).
[[nodiscard]] std::optional<ExchangeTable> make_exchange_table(const Topology& t);
/// As make_exchange_table, but throws UsageError naming the supported families.
[[nodiscard]] ExchangeTable require_exchange_table(const Topology& t);

/// All violations of Theorem 1 and of total-exchange coverage, one sentence each; empty = valid.
[[nodiscard]] std::vector<std::string> check_exchange_table(const Topology& t, const ExchangeTable& table);

/// The all-port schedule the table defines: step c + i moves, for every node g, the message of
/// the word at column c across the link of its i-th letter. Works on invalid tables too (so the
/// verifier can judge them); throws UsageError only when the table's groups do not fit `t`.
/// Above kTableLazyTransfers transfers the schedule is lazy (Schedule::source): generated column
/// by column, and verified from the table by Theorem 1 when the checker finds nothing (all-port).
[[nodiscard]] Schedule expand_exchange_table(const Topology& t, const ExchangeTable& table);
inline constexpr std::int64_t kTableLazyTransfers = std::int64_t{1} << 22;
/// Same, lazy above `lazy_above` transfers (0: always lazy).
[[nodiscard]] Schedule expand_exchange_table(const Topology& t, const ExchangeTable& table, std::int64_t lazy_above);

/// Text format, version 1:
///   totex-exchange-table 1
///   model all-port
///   topology <spec>
///   algorithm table
///   generators <name> ...          (all generators, dimension by dimension)
///   columns <T>
///   row <r> <cell> ... (exactly T cells)
/// A cell is '.' (blank), '|g' (generator g starting a word) or 'g' (g continuing the word to
/// its left). '#' starts a comment; blank lines are ignored.
void write_exchange_table(std::ostream& out, const ExchangeTable& table);
/// Validates everything (header, sizes, names, cells, the topology spec); throws
/// FileError(file, line, what). It does not run the Theorem 1 checker.
[[nodiscard]] ExchangeTable read_exchange_table(std::istream& in, const std::string& file);
void write_exchange_table_file(const std::string& path, const ExchangeTable& table);
[[nodiscard]] ExchangeTable read_exchange_table_file(const std::string& path);

}  // namespace totex
