// Helpers shared by the fixed-function tests (tests/test_ff_*.cpp): one definition each, so that
// the files also compile as one unity batch (tests/CMakeLists.txt) without a file's helper
// silently taking the place of another's.
#pragma once

#include "model/ff/ff_state.h"

#include <catch2/catch.hpp>

#include <cstddef>
#include <initializer_list>

namespace vpsim::ff::test {

inline constexpr float kPi = 3.14159265358979323846f;

// A matrix from its 16 values in memory order (D3DMATRIX's _11, _12, ..., _44).
inline Matrix rows(std::initializer_list<float> values) {
    Matrix m;
    size_t i = 0;
    for (float f : values) {
        REQUIRE(i < 16);
        m.m[i++] = f;
    }
    REQUIRE(i == 16);
    return m;
}

}  // namespace vpsim::ff::test
