#include <catch2/catch.hpp>
#include "totex/spec.hpp"
TEST_CASE("smoke") { REQUIRE(totex::parse_topology("ring:5").nodes() == 5); }
