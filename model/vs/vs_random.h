// Random valid vs.1.x programs (for round-trip, validation and fast-path equivalence tests), and
// random vertex data. Deterministic: the same seed and options give the same program on every
// platform (own splitmix64 generator, no <random> distributions).
//
// Every program random_program() returns passes validate() with options.profile (no errors; V13
// scalar-form warnings are generated on purpose). It covers every vs.1.x opcode, partial write
// masks, swizzles (replicate, short and arbitrary), negation, relative constant reads
// c[a0.x + n] after `mov a0.x` (vs.1.1), all output registers, temps partially written before
// being read (only written components are read), the read-port limits (at most one distinct
// constant and one distinct input register per instruction), m-instructions with their masks
// (src1 a constant matrix, dst != src0, no swizzle), frc masks .x/.y/.xy, oFog/oPts .x, scalar
// ops with and without replicate swizzles, within the 128-slot limit, oPos fully written.
#pragma once

#include "model/vs/vs_exec.h"
#include "model/vs/vs_isa.h"

#include <cstdint>
#include <vector>

namespace vpsim::vs {

// splitmix64 (Steele, Lea, Flood 2014).
class SplitMix64 {
public:
    explicit SplitMix64(uint64_t seed) : state_(seed) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint32_t below(uint32_t n) { return n ? uint32_t(next() % n) : 0; }  // 0..n-1
    int range(int lo, int hi) { return lo + int(below(uint32_t(hi - lo + 1))); }  // lo..hi
    bool chance(double p) { return double(next() >> 11) * 0x1.0p-53 < p; }
    float unit() { return float(next() >> 40) * 0x1.0p-24f; }  // [0, 1)

private:
    uint64_t state_;
};

struct RandomProgramOptions {
    int min_length = 1;   // instructions, including the final oPos write when one is needed
    int max_length = 32;  // (fewer when the 128-slot limit stops the program early)
    enum class Version { V10, V11, Either } version = Version::Either;
    std::vector<uint32_t> opcodes;  // allowed opcodes; empty = all 26 (mov is used for a0 and the oPos write regardless)
    Profile profile = Profile::d3d8();  // const_count, slot costs
    double negate_rate = 0.2;
    double output_rate = 0.3;    // destination is an output register rather than a temp
    double a0_rate = 0.08;       // vs.1.1: an instruction is `mov a0.x, ...`
    double relative_rate = 0.3;  // vs.1.1 after a0 is written: a constant read is c[a0.x + n]
    double scalar_non_replicate_rate = 0.2;  // scalar ops: a source without a replicate swizzle (V13 warning)
};

// Every vs.1.x opcode, in opcode order.
const std::vector<uint32_t>& all_opcodes();

// Program.tokens holds the bytecode and token_index is set, as decode_bytecode() would give it.
Program random_program(SplitMix64& rng, const RandomProgramOptions& options = {});
Program random_program(uint64_t seed, const RandomProgramOptions& options = {});

// Vertex data: mostly ordinary magnitudes, with exact small integers, zeros of both signs, 0.5,
// large and tiny values; with `specials` also denormals, infinities and NaN.
float random_float(SplitMix64& rng, bool specials = false);
Vec4 random_vec4(SplitMix64& rng, bool specials = false);

}  // namespace vpsim::vs
