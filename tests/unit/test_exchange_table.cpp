// SPDX-License-Identifier: Apache-2.0
// Exchange tables of paper 001: construction, Theorem 1 checker, expansion checked by verify(),
// text format.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "totex/bounds/bounds.hpp"
#include "totex/error.hpp"
#include "totex/io/exchange_table.hpp"
#include "totex/network/spec.hpp"
#include "totex/verify/verify.hpp"

using namespace totex;

namespace {

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

std::string verify_text(const VerifyReport& r) {
  std::string s;
  for (const auto& v : r.violations) s += v.kind + ": " + v.text + "\n";
  return s;
}

/// Builds, checks, expands and verifies; the time must be the paper's.
void build_and_verify(const std::string& spec) {
  INFO("topology " << spec);
  const Topology t = parse_topology(spec);
  const auto table = make_exchange_table(t);
  REQUIRE(table.has_value());
  const auto errors = check_exchange_table(t, *table);
  INFO(joined(errors));
  REQUIRE(errors.empty());
  const Schedule s = expand_exchange_table(t, *table);
  CHECK(s.model == Model::AllPort);
  const VerifyReport r = verify(t, s, table->columns);
  INFO(verify_text(r));
  REQUIRE(r.ok);
  CHECK(r.steps == table->columns);
  CHECK(r.max_buffered <= static_cast<std::int64_t>(t.max_degree()));
  const auto paper = exchange_table_paper_time(t);
  REQUIRE(paper.has_value());
  CHECK(table->columns == *paper);
  const LowerBound lb = lower_bound(t, Model::AllPort);
  // Reported, not forced: the table can never beat a valid lower bound.
  CHECK(table->columns >= lb.steps);
  UNSCOPED_INFO(spec << ": paper " << *paper << ", table " << table->columns << ", all-port lower bound " << lb.steps);
}

}  // namespace

TEST_CASE("exchange tables for rings reach the paper's time and verify", "[table]") {
  for (int n : {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 22, 26, 30, 31, 32})
    build_and_verify("ring:" + std::to_string(n));
}

TEST_CASE("paper's ring times", "[table]") {
  CHECK(exchange_table_paper_time(parse_topology("ring:6")) == 5);
  CHECK(exchange_table_paper_time(parse_topology("ring:10")) == 13);
  CHECK(exchange_table_paper_time(parse_topology("ring:12")) == 18);
  CHECK(exchange_table_paper_time(parse_topology("ring:7")) == 6);
  CHECK(make_exchange_table(parse_topology("ring:12"))->columns == 18);
  CHECK(make_exchange_table(parse_topology("ring:10"))->columns == 13);
}

TEST_CASE("exchange tables for hypercubes reach 2^(n-1) and verify", "[table]") {
  for (int n = 1; n <= 6; ++n) build_and_verify("hypercube:" + std::to_string(n));
  build_and_verify("torus:2x2");
  build_and_verify("torus:2x4");
}

TEST_CASE("exchange tables for hypercubes past 6 come from the doubling grid and pass the table checker", "[table]") {
  // n = 7..10: the checker (Theorem 1 and coverage) on the table itself, then the replay.
  for (int n = 7; n <= 10; ++n) build_and_verify("hypercube:" + std::to_string(n));
  // The rows are lanes: n of them, each a sequence of non-overlapping words.
  const auto t11 = make_exchange_table(parse_topology("hypercube:11"));
  REQUIRE(t11.has_value());
  CHECK(t11->rows.size() == 11);
  CHECK(t11->columns == 1024);
  CHECK(check_exchange_table(parse_topology("hypercube:11"), *t11).empty());
}

TEST_CASE("exchange tables for 2D tori reach the paper's time and verify", "[table]") {
  for (int n : {3, 4, 5, 6, 7, 8, 9, 10}) build_and_verify("torus:" + std::to_string(n) + "x" + std::to_string(n));
  CHECK(make_exchange_table(parse_topology("torus:5x5"))->columns == 15);
  CHECK(make_exchange_table(parse_topology("torus:6x6"))->columns == 27);
}

TEST_CASE("exchange tables for 3D tori reach the paper's time and verify", "[table]") {
  for (int n : {3, 4, 5, 6, 7, 8})
    build_and_verify("torus:" + std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(n));
}

TEST_CASE("exchange tables for larger tori and rings", "[table_slow][.slow]") {
  for (int n : {9, 10, 11, 12})
    build_and_verify("torus:" + std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(n));
  for (int n = 11; n <= 24; ++n) build_and_verify("torus:" + std::to_string(n) + "x" + std::to_string(n));
  for (int n = 33; n <= 100; ++n) build_and_verify("ring:" + std::to_string(n));
}


TEST_CASE("unsupported topologies", "[table]") {
  CHECK_FALSE(make_exchange_table(parse_topology("torus:3x5")).has_value());
  // More than 6 generators from 4-rings (D_4 = C_2 x C_2): neither the search nor the doubling grid.
  CHECK_FALSE(make_exchange_table(parse_topology("torus:4x4x4x4")).has_value());
  CHECK_FALSE(make_exchange_table(parse_topology("path:5")).has_value());
  CHECK_FALSE(make_exchange_table(parse_topology("complete:4")).has_value());
  CHECK_FALSE(make_exchange_table(parse_topology("torus:3x3x3x3")).has_value());
  CHECK_FALSE(make_exchange_table(parse_topology("metacube:1,1")).has_value());
  CHECK_THROWS_AS(require_exchange_table(parse_topology("torus:3x5")), UsageError);
  try {
    (void)require_exchange_table(parse_topology("torus:3x5"));
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()).find("ring:N") != std::string::npos);
  }
}

TEST_CASE("checker and verifier both reject a generator repeated in a column", "[table]") {
  for (const char* spec : {"ring:7", "torus:5x5", "hypercube:4", "torus:6x6"}) {
    INFO(spec);
    const Topology t = parse_topology(spec);
    ExchangeTable table = *make_exchange_table(t);
    // Take two words X, Y where Y's letter k equals X's first letter; put Y in row 0 at a fresh
    // column C and X in row 1 at column C + k. Destinations stay the same; column C + k now holds
    // that generator twice.
    PlacedWord x, y;
    int k = -1;
    for (std::size_t r = 0; r < table.rows.size() && k < 0; ++r)
      for (std::size_t i = 0; i < table.rows[r].size() && k < 0; ++i)
        for (std::size_t r2 = 0; r2 < table.rows.size() && k < 0; ++r2)
          for (std::size_t j = 0; j < table.rows[r2].size() && k < 0; ++j) {
            if (r == r2 && i == j) continue;
            const auto& yl = table.rows[r2][j].letters;
            for (std::size_t q = 0; q < yl.size() && k < 0; ++q) {
              if (yl[q] != table.rows[r][i].letters[0]) continue;
              k = static_cast<int>(q);
              x = table.rows[r][i];
              y = table.rows[r2][j];
              auto& rr = table.rows[r];
              auto& rr2 = table.rows[r2];
              if (r == r2) {
                rr.erase(rr.begin() + static_cast<std::ptrdiff_t>(std::max(i, j)));
                rr.erase(rr.begin() + static_cast<std::ptrdiff_t>(std::min(i, j)));
              } else {
                rr.erase(rr.begin() + static_cast<std::ptrdiff_t>(i));
                rr2.erase(rr2.begin() + static_cast<std::ptrdiff_t>(j));
              }
            }
          }
    REQUIRE(k >= 0);
    const int c = table.columns;
    y.column = c;
    x.column = c + k;
    const int g = x.letters[0];
    table.rows[0].push_back(y);
    table.rows[1].push_back(x);
    table.columns = std::max(c + static_cast<int>(y.letters.size()), c + k + static_cast<int>(x.letters.size()));
    const auto errors = check_exchange_table(t, table);
    REQUIRE_FALSE(errors.empty());
    CHECK(joined(errors).find("column " + std::to_string(c + k) + ": generator " + table.generator_name(g) +
                              " appears twice") != std::string::npos);
    const VerifyReport r = verify(t, expand_exchange_table(t, table));
    CHECK_FALSE(r.ok);
    std::string kinds;
    bool link_reuse = false;
    for (const auto& v : r.violations) {
      link_reuse = link_reuse || v.kind == "link-reuse";
      if (kinds.find(v.kind) == std::string::npos) kinds += v.kind + " ";
    }
    INFO("verifier found: " << kinds);
    CHECK(link_reuse);
  }
}

TEST_CASE("checker and verifier both reject a missing destination", "[table]") {
  for (const char* spec : {"ring:8", "torus:3x3x3", "hypercube:3", "torus:7x7"}) {
    INFO(spec);
    const Topology t = parse_topology(spec);
    ExchangeTable table = *make_exchange_table(t);
    table.rows[0].erase(table.rows[0].begin());
    const auto errors = check_exchange_table(t, table);
    REQUIRE_FALSE(errors.empty());
    CHECK(joined(errors).find("is reached by no word") != std::string::npos);
    const VerifyReport r = verify(t, expand_exchange_table(t, table));
    CHECK_FALSE(r.ok);
    bool lost = false;
    for (const auto& v : r.violations) lost = lost || v.kind == "lost";
    CHECK(lost);
  }
}

TEST_CASE("checker catches duplicates, overlaps, waiting words and a wrong column count", "[table]") {
  const Topology t = parse_topology("ring:5");
  const ExchangeTable good = *make_exchange_table(t);
  REQUIRE(good.columns == 3);
  SECTION("duplicate destination") {
    ExchangeTable b = good;
    b.rows[0].push_back(PlacedWord{3, {0}});
    b.columns = 4;
    const std::string e = joined(check_exchange_table(t, b));
    CHECK(e.find("is reached twice") != std::string::npos);
  }
  SECTION("overlapping words in a row") {
    ExchangeTable b = good;
    b.rows[0][1].column = 0;
    const std::string e = joined(check_exchange_table(t, b));
    CHECK(e.find("overlaps") != std::string::npos);
  }
  SECTION("word leaving the table") {
    ExchangeTable b = good;
    b.columns = 2;
    const std::string e = joined(check_exchange_table(t, b));
    CHECK(e.find("outside the table") != std::string::npos);
  }
  SECTION("claimed time larger than used") {
    ExchangeTable b = good;
    b.columns = 4;
    const std::string e = joined(check_exchange_table(t, b));
    CHECK(e.find("last column 3 is empty") != std::string::npos);
    CHECK_FALSE(verify(t, expand_exchange_table(t, b), b.columns).ok);
  }
  SECTION("word back to the source") {
    ExchangeTable b = good;
    b.rows[0].push_back(PlacedWord{3, {0, 1}});
    b.columns = 5;
    const std::string e = joined(check_exchange_table(t, b));
    CHECK(e.find("leads back to its source") != std::string::npos);
  }
  SECTION("wrong group for the topology") {
    ExchangeTable b = good;
    b.groups = {CayleyGroup::Dihedral};
    const std::string e = joined(check_exchange_table(t, b));
    CHECK(e.find("dihedral group needs an even dimension size") != std::string::npos);
    CHECK_THROWS_AS(expand_exchange_table(t, b), UsageError);
  }
}

TEST_CASE("exchange table files round-trip", "[table]") {
  for (const char* spec : {"ring:9", "ring:10", "hypercube:4", "torus:5x5", "torus:6x6", "torus:4x4", "torus:3x3x3"}) {
    INFO(spec);
    const Topology t = parse_topology(spec);
    const ExchangeTable table = *make_exchange_table(t);
    std::stringstream ss;
    write_exchange_table(ss, table);
    const ExchangeTable back = read_exchange_table(ss, "mem.table");
    CHECK(back == table);
    CHECK(check_exchange_table(t, back).empty());
  }
  const ExchangeTable ring6 = *make_exchange_table(parse_topology("ring:6"));
  std::stringstream ss;
  write_exchange_table(ss, ring6);
  CHECK(ss.str() ==
        "totex-exchange-table 1\n"
        "model all-port\n"
        "topology ring:6\n"
        "algorithm table\n"
        "generators a A\n"
        "columns 5\n"
        "row 0 |a A a |A a\n"
        "row 1 |A |a A |a .\n");
}

namespace {

std::string read_error(const std::string& text) {
  std::istringstream in(text);
  try {
    (void)read_exchange_table(in, "bad.table");
  } catch (const FileError& e) {
    return e.what();
  }
  return "no error";
}

const std::string kHead =
    "totex-exchange-table 1\nmodel all-port\ntopology ring:5\nalgorithm table\ngenerators a+ a-\ncolumns 3\n";

}  // namespace

TEST_CASE("malformed exchange table files are rejected with file:line", "[table]") {
  // The good file parses.
  CHECK(read_error(kHead + "row 0 |a+ |a+ a+\nrow 1 |a- |a- a-\n") == "no error");
  CHECK(read_error("# comment\n\n" + kHead + "row 0 |a+ |a+ a+ # x\nrow 1 |a- |a- a-\n\n") == "no error");

  CHECK(read_error("") == "bad.table:1: empty file; expected 'totex-exchange-table 1'");
  CHECK(read_error("totex-schedule 1\n").find("bad.table:1: not an exchange table") == 0);
  CHECK(read_error("totex-exchange-table 2\n").find("bad.table:1: unsupported version '2'") == 0);
  CHECK(read_error("totex-exchange-table 1\nmodel single-port\n").find("bad.table:2: exchange tables use model 'all-port'") == 0);
  CHECK(read_error("totex-exchange-table 1\nmodel all-port\ntopology ring:x\n").find("bad.table:3: ") == 0);
  CHECK(read_error("totex-exchange-table 1\nmodel all-port\ntopology complete:4\nalgorithm table\ngenerators a\n")
            .find("bad.table:5: factor complete:4") == 0);
  CHECK(read_error("totex-exchange-table 1\nmodel all-port\ntopology ring:5\nalgorithm greedy\n")
            .find("bad.table:4: exchange tables use algorithm 'table'") == 0);
  CHECK(read_error("totex-exchange-table 1\nmodel all-port\ntopology ring:5\nalgorithm table\ngenerators a A\n")
            .find("bad.table:5: dimension 0 has odd size 5") == 0);
  CHECK(read_error("totex-exchange-table 1\nmodel all-port\ntopology ring:5\nalgorithm table\ngenerators a+ a- b+\n")
            .find("bad.table:5: extra generator 'b+'") == 0);
  CHECK(read_error("totex-exchange-table 1\nmodel all-port\ntopology ring:5\nalgorithm table\ngenerators x\n")
            .find("bad.table:5: dimension 0 needs generators") == 0);
  CHECK(read_error("totex-exchange-table 1\nmodel all-port\ntopology ring:5\nalgorithm table\ngenerators a+ a-\ncolumns -3\n")
            .find("bad.table:6: 'columns' needs one integer") == 0);
  CHECK(read_error(kHead + "row 0 |a+ |a+\n").find("bad.table:7: row 0 has 2 cells, expected 3") == 0);
  CHECK(read_error(kHead + "row 1 |a+ |a+ a+\n").find("bad.table:7: expected row number 0") == 0);
  CHECK(read_error(kHead + "row 0 |a+ |a+ b+\n").find("bad.table:7: row 0, column 2: 'b+' is not a generator") == 0);
  CHECK(read_error(kHead + "row 0 a+ |a+ a+\n").find("bad.table:7: row 0, column 0: 'a+' continues a word") == 0);
  CHECK(read_error(kHead + "row 0 |a+ . a+\n").find("bad.table:7: row 0, column 2") == 0);
  CHECK(read_error(kHead + "row 0 |a+ |a+ a+\n").find("bad.table:8: expected 'row 1', found end of file") == 0);
  CHECK(read_error(kHead + "row 0 |a+ |a+ a+\nrow 1 |a- |a- a-\nrow 2 . . .\n").find("bad.table:9: unexpected 'row'") == 0);
  CHECK(read_error("totex-exchange-table 1\ntopology ring:5\n").find("bad.table:2: expected 'model'") == 0);

  // A file that parses but breaks Theorem 1 is caught by the checker, not the reader.
  std::istringstream in(kHead + "row 0 |a+ |a+ a+\nrow 1 |a+ |a- a-\n");
  const ExchangeTable t = read_exchange_table(in, "x");
  CHECK_FALSE(check_exchange_table(parse_topology("ring:5"), t).empty());
}
