// Shared helpers of the libFuzzer harnesses (tests/fuzz, docs/fuzzing.md).
//
// FUZZ_CHECK(cond, ...) is a property check: when it fails it prints the condition, the place
// and a printf-style message to stderr and aborts, which libFuzzer reports as a crash and saves
// the input as crash-<sha1> (replay: ./fuzz_<name> crash-<sha1>).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#define FUZZ_CHECK(cond, ...)                                                                   \
    do {                                                                                        \
        if (!(cond)) {                                                                          \
            std::fprintf(stderr, "%s:%d: property failed: %s\n  ", __FILE__, __LINE__, #cond); \
            std::fprintf(stderr, __VA_ARGS__);                                                  \
            std::fprintf(stderr, "\n");                                                         \
            std::abort();                                                                       \
        }                                                                                       \
    } while (0)

namespace vpsim::fuzz {

// Reads the input front to back: small integers first (options), the rest as bytes or DWORDs.
class Reader {
public:
    Reader(const uint8_t* data, size_t size) : p_(data), n_(size) {}
    size_t left() const { return n_; }
    uint8_t byte() {
        if (n_ == 0) return 0;
        --n_;
        return *p_++;
    }
    uint32_t u32() {
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v |= uint32_t(byte()) << (8 * i);
        return v;
    }
    // The remaining input as little-endian DWORDs (a trailing partial DWORD is dropped).
    std::vector<uint32_t> dwords() {
        std::vector<uint32_t> t(n_ / 4);
        if (!t.empty()) std::memcpy(t.data(), p_, t.size() * 4);
        p_ += n_;
        n_ = 0;
        return t;
    }
    std::string rest() {
        std::string s(reinterpret_cast<const char*>(p_), n_);
        p_ += n_;
        n_ = 0;
        return s;
    }

private:
    const uint8_t* p_;
    size_t n_;
};

inline std::string hex_words(const std::vector<uint32_t>& t, size_t max = 16) {
    std::string s;
    char buf[16];
    for (size_t i = 0; i < t.size() && i < max; ++i) {
        std::snprintf(buf, sizeof buf, "%s%08X", i ? " " : "", t[i]);
        s += buf;
    }
    if (t.size() > max) s += " ...";
    return s;
}

// An input a harness does not exercise (too big, names a file): libFuzzer keeps it out of the
// corpus when the entry point returns -1.
inline constexpr int kReject = -1;

}  // namespace vpsim::fuzz

namespace vpsim::fuzz {

// Known defects that other work is fixing (tests/fuzz/known-defects.txt): a harness skips the
// inputs that reach one, so that a campaign goes on finding new things, unless the environment
// sets VPSIM_FUZZ_NO_FILTERS=1 (scripts/fuzz.sh runs the regression inputs that way). Each call
// names the defect; delete the call and its entry when the fix lands.
inline bool skip_known(const char* /*defect*/) {
    static const bool off = [] {
        const char* e = std::getenv("VPSIM_FUZZ_NO_FILTERS");
        return e && *e && *e != '0';
    }();
    return !off;
}

// A deterministic pseudo-random stream seeded from the input (inputs to shade, say).
struct SplitMix {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
};
inline uint64_t hash_bytes(const uint8_t* p, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

}  // namespace vpsim::fuzz
