// The random tests' seeds (tests/test_seed.h): fixed unless VPSIM_TEST_SEED asks otherwise.
#include "tests/test_seed.h"

#include <catch2/catch.hpp>

#include <set>

TEST_CASE("Test seeds: fixed by default, VPSIM_TEST_SEED=N replays N, VPSIM_TEST_SEED=random draws one", "[seed]") {
    CHECK(parse_test_seed(nullptr) == kDefaultTestSeed);
    CHECK(parse_test_seed("") == kDefaultTestSeed);
    CHECK(parse_test_seed(nullptr, 42) == 42);
    CHECK(parse_test_seed("12345") == 12345);
    CHECK(parse_test_seed("0x10") == 16);
    CHECK(parse_test_seed("18446744073709551615") == 18446744073709551615ull);
    std::set<uint64_t> drawn;
    for (int i = 0; i < 4; ++i) drawn.insert(parse_test_seed("random"));
    CHECK(drawn.size() > 1);  // fresh each time (4 equal 64-bit draws: never)
    CHECK_THROWS_WITH(parse_test_seed("12abc"), Catch::Contains("expected a number or \"random\""));
    CHECK_THROWS_AS(parse_test_seed("randm"), std::invalid_argument);
    CHECK_THROWS_AS(parse_test_seed("-3"), std::invalid_argument);
}
