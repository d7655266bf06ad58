// A float's IEEE-754 bits and back (no aliasing tricks).
#pragma once

#include <cstdint>
#include <cstring>

namespace vpsim {

inline uint32_t float_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}
inline float bits_float(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

}  // namespace vpsim
