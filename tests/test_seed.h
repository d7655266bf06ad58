// Seeds of random tests: VPSIM_TEST_SEED replays one; otherwise a fresh one. Always printed.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>

inline uint64_t test_seed(const std::string& test) {
    uint64_t seed;
    if (const char* s = std::getenv("VPSIM_TEST_SEED"))
        seed = std::strtoull(s, nullptr, 0);
    else
        seed = (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
    std::cout << test << ": seed " << seed << " (replay: VPSIM_TEST_SEED=" << seed << ")\n";
    return seed;
}
