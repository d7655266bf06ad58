// Seeds of random tests. Fixed by default, so CI and scripts/test.sh run the same cases every
// time; VPSIM_TEST_SEED=N replays seed N, VPSIM_TEST_SEED=random draws a fresh one. The seed is
// always printed.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>

// The seed a test uses when VPSIM_TEST_SEED is not set.
inline constexpr uint64_t kDefaultTestSeed = 1;

// The seed VPSIM_TEST_SEED asks for (`fallback` when unset or empty). Throws on a value that is
// neither a number nor "random".
inline uint64_t parse_test_seed(const char* env, uint64_t fallback = kDefaultTestSeed) {
    if (!env || !*env) return fallback;
    const std::string s = env;
    if (s == "random") return (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
    char* end = nullptr;
    const uint64_t v = std::strtoull(s.c_str(), &end, 0);
    if (end == s.c_str() || *end != '\0' || s[0] == '-')
        throw std::invalid_argument("VPSIM_TEST_SEED=" + s + ": expected a number or \"random\"");
    return v;
}

inline uint64_t test_seed(const std::string& test) {
    const uint64_t seed = parse_test_seed(std::getenv("VPSIM_TEST_SEED"));
    std::cout << test << ": seed " << seed << " (replay: VPSIM_TEST_SEED=" << seed << ")\n";
    return seed;
}
