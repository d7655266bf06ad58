// Token-array generators for the declaration decoder cross-check (docs/decl-decoder.md).
//
// Everything here is deterministic across platforms and compilers: the RNG is xoshiro256**
// seeded through splitmix64, and bounded draws use fixed integer arithmetic (no <random>
// distributions, whose output is implementation-defined). The same seed gives the same
// arrays everywhere, so a failing seed printed by the cross-check reproduces anywhere.
//
//   gen_valid  constrained-random declarations that decode without error in strict mode
//   mutate     1..3 targeted mutations of a valid array (reserved bits, bad types, ordering,
//              truncation, duplicated streams/registers, misplaced tessellator tokens, ...)
//   gen_raw    short raw DWORD arrays with every token type common
//   gen_mixed  the cross-check's mix of the three, with lenient mode drawn at random
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace vpsim::tb {

// xoshiro256** (Blackman & Vigna), state seeded by splitmix64.
// Inline: the cross-check draws several numbers per token.
struct Rng {
    explicit Rng(uint64_t seed);
    uint64_t next() {
        const uint64_t result = rotl(s[1] * 5, 7) * 9;
        const uint64_t t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = rotl(s[3], 45);
        return result;
    }
    uint32_t u32() { return uint32_t(next() >> 32); }
    // Uniform in [0, n); n == 0 returns 0. Lemire's multiply-shift with rejection (exact).
    uint32_t below(uint32_t n) {
        if (n == 0) return 0;
        uint64_t m = uint64_t(u32()) * n;
        uint32_t low = uint32_t(m);
        if (low < n) {
            const uint32_t threshold = uint32_t(-n) % n;
            while (low < threshold) {
                m = uint64_t(u32()) * n;
                low = uint32_t(m);
            }
        }
        return uint32_t(m >> 32);
    }
    // Uniform in [lo, hi] (inclusive); lo <= hi.
    uint32_t range(uint32_t lo, uint32_t hi) { return lo + below(hi - lo + 1); }
    // True with probability p (53-bit resolution).
    bool chance(double p) { return double(next() >> 11) * 0x1.0p-53 < p; }

    uint64_t s[4];

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
};

struct GenOptions {
    uint32_t const_count = 96;        // device constant registers (rule 12); CONST blocks stay inside
    uint32_t max_length = 4096;       // END must be at an index < max_length (rule 14); >= 256
    double long_chance = 1.0 / 4000;  // a long valid array of 3000..max_length tokens (big CONST blocks)
    double max_chance = 0.03;         // bias every count/number to its maximum in this array
    double garbage_chance = 0.05;     // trailing DWORDs after END (ignored by the decoder)
    double tess_chance = 0.2;         // a STREAM_TESS stream with TESSUV and/or TESSNORMAL
    double empty_selector_chance = 0.02;  // a selector with no data definition (warning only)
};

// Reusable buffers for the generators' in-place forms below: with one per thread, generating
// an array allocates nothing once the buffers have grown. The arrays are the same as the
// returning forms give for the same Rng state.
struct Scan;
struct GenScratch {
    GenScratch();
    ~GenScratch();
    std::unique_ptr<Scan> scan;          // mutate: the array's header positions
    std::vector<uint32_t> original, block;
};

// A declaration that decode(tokens, {strict, opt.const_count, opt.max_length}) accepts
// (valid == true, no ERROR event). Warnings (empty selector, CONST count 0, EXT) may occur.
std::vector<uint32_t> gen_valid(Rng& rng, const GenOptions& opt = {});
void gen_valid(Rng& rng, std::vector<uint32_t>& out, const GenOptions& opt = {});

// Applies 1..3 mutations to `valid` (normally gen_valid's output; any array is accepted).
// The result differs from the input and is never empty; it is usually invalid.
// Rare mutations make an array longer than opt.max_length without an END in range (rule 14).
std::vector<uint32_t> mutate(Rng& rng, std::vector<uint32_t> valid, const GenOptions& opt = {});
void mutate(Rng& rng, std::vector<uint32_t>& valid, GenScratch& scratch, const GenOptions& opt = {});

// Raw random DWORD array of length 1..48: the token type (bits 31:29) is uniform, low bits
// are often zero or well-formed fields, sometimes the token is exactly 0xFFFFFFFF, and the
// last element is END with probability 1/2.
std::vector<uint32_t> gen_raw(Rng& rng);
void gen_raw(Rng& rng, std::vector<uint32_t>& out);

// The cross-check's mix: 40% gen_valid, 40% mutate(gen_valid), 20% gen_raw. `lenient` is set
// to true with probability 0.3 (the mode the array should be decoded in).
std::vector<uint32_t> gen_mixed(Rng& rng, bool& lenient, const GenOptions& opt = {});
void gen_mixed(Rng& rng, bool& lenient, std::vector<uint32_t>& out, GenScratch& scratch, const GenOptions& opt = {});

}  // namespace vpsim::tb
