// FNV-1a, 64 bits: the content hash of scenes (config.json's "scene.hash") and of sweep points.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace vpsim {

struct Fnv {
    uint64_t h = 0xcbf29ce484222325ull;
    static constexpr uint64_t kPrime = 0x100000001b3ull;
    void add(const void* p, size_t n) {
        // Byte by byte, as FNV-1a must be (each step needs the last), but 8 bytes per loop
        // iteration: the loop's own count and branch were half the instructions of hashing a
        // scene's tens of megabytes of generated buffers (the chain of multiplies, one per
        // byte, stays: the time per byte is bounded by it either way).
        const auto* b = static_cast<const uint8_t*>(p);
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            h = (h ^ b[i]) * kPrime, h = (h ^ b[i + 1]) * kPrime, h = (h ^ b[i + 2]) * kPrime;
            h = (h ^ b[i + 3]) * kPrime, h = (h ^ b[i + 4]) * kPrime, h = (h ^ b[i + 5]) * kPrime;
            h = (h ^ b[i + 6]) * kPrime, h = (h ^ b[i + 7]) * kPrime;
        }
        for (; i < n; ++i) h = (h ^ b[i]) * kPrime;
    }
    // A string and a terminating NUL, so consecutive strings cannot run together.
    void add(const std::string& s) {
        add(s.data(), s.size());
        add("\0", 1);
    }
};

}  // namespace vpsim
