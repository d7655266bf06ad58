// FNV-1a, 64 bits: the content hash of scenes (config.json's "scene.hash") and of sweep points.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace vpsim {

struct Fnv {
    uint64_t h = 0xcbf29ce484222325ull;
    void add(const void* p, size_t n) {
        const auto* b = static_cast<const uint8_t*>(p);
        for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
    }
    // A string and a terminating NUL, so consecutive strings cannot run together.
    void add(const std::string& s) {
        add(s.data(), s.size());
        add("\0", 1);
    }
};

}  // namespace vpsim
