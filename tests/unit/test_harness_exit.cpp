// SPDX-License-Identifier: Apache-2.0
// How the engines read a harness's end (sim/harness_exit.hpp): a refusal of the user's input is a
// usage error; a crash, an unexpected exit or a missing result is a tool failure, never the user's.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "harness.hpp"  // sw/hw/src
#include "harness_exit.hpp"  // sim/
#include "totex/error.hpp"

using namespace totex;

TEST_CASE("a harness that crashes or prints no result is a tool failure, a refusal is a usage error", "[harness]") {
  // The harness is started from an argv (no shell of totex's); /bin/sh stands in for it here.
  const auto run = [](const std::string& script) { return hw::run_harness("/bin/sh", {"-c", script}, "the test harness"); };
  REQUIRE_THROWS_AS(run("exit 2"), UsageError);
  // A real crash: the process is killed by SIGSEGV.
  REQUIRE_THROWS_WITH(run("kill -SEGV $$"), Catch::Contains("tool: the test harness failed (killed by signal 11)"));
  REQUIRE_THROWS_AS(run("kill -SEGV $$"), ToolError);
  REQUIRE_THROWS_WITH(run("exit 3"), Catch::Contains("failed (exit 3)"));
  REQUIRE_THROWS_WITH(run("echo no result; exit 0"), Catch::Contains("tool: the test harness printed no result"));
  // An argument reaches the harness as one word, whatever it holds.
  REQUIRE_THROWS_WITH(hw::run_harness("/bin/sh", {"-c", "echo \"$1\" >&2; exit 3", "sh", "a b'c;$(x)"}, "the test harness"),
                      Catch::Contains("failed (exit 3)"));
  REQUIRE_THROWS_AS(hw::run_harness("/nonexistent/harness", {}, "the test harness"), ToolError);
}

TEST_CASE("harness_main maps what escapes a harness onto the exit codes", "[harness]") {
  CHECK(sim::harness_main("t", [] { return 1; }) == 1);
  CHECK(sim::harness_main("t", []() -> int { throw UsageError("bad option"); }) == sim::kHarnessUsageExit);
  CHECK(sim::harness_main("t", []() -> int { throw FileError("f", 3, "bad line"); }) == sim::kHarnessUsageExit);
  CHECK(sim::harness_main("t", []() -> int { throw std::logic_error("a bug"); }) == sim::kHarnessToolExit);
  CHECK(sim::harness_main("t", []() -> int { throw ToolError("a combinational loop"); }) == sim::kHarnessToolExit);
}
