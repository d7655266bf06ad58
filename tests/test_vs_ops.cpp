// The vertex ALU's operations and the reference interpreter (docs/spec/vs-isa.md,
// "Semantics"; docs/vs-semantics.md). Expected values are exact bit patterns; where one comes
// from libm it was cross-checked against a long-double computation rounded to float.
#include "model/vs/vs_exec.h"
#include "tests/vs_test_util.h"
#include "model/common/float_bits.h"
#include "tests/test_seed.h"

#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <stdexcept>

using namespace vpsim::vs;
using vpsim::vs::test::dst;
using vpsim::vs::test::ins;
using vpsim::vs::test::src;
using vpsim::bits_float;
using vpsim::float_bits;

namespace {

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = bits_float(0x7FC00000u);
const uint32_t kQNaN = 0x7FC00000u, kPosInf = 0x7F800000u, kNegInf = 0xFF800000u, kOne = 0x3F800000u, kZero = 0u;

constexpr uint32_t swz(uint32_t x, uint32_t y, uint32_t z, uint32_t w) { return x | y << 2 | z << 4 | w << 6; }
constexpr uint32_t kX = swz(0, 0, 0, 0), kY = swz(1, 1, 1, 1);

Src c(uint32_t n, uint32_t swizzle = kSwizzleIdentity) { return src(REG_CONST, n, swizzle); }
Src crel(uint32_t n) { return src(REG_CONST, n, kSwizzleIdentity, false, true); }
Src v(uint32_t n, uint32_t swizzle = kSwizzleIdentity) { return src(REG_INPUT, n, swizzle); }
Src r(uint32_t n, uint32_t swizzle = kSwizzleIdentity) { return src(REG_TEMP, n, swizzle); }

Dst rd(uint32_t n, uint32_t mask = 0xF) { return dst(REG_TEMP, n, mask); }
const Dst oPos = dst(REG_RASTOUT, RAST_POS);
const Dst oFog = dst(REG_RASTOUT, RAST_FOG, 1);
const Dst oPts = dst(REG_RASTOUT, RAST_PTS, 1);
const Dst oD0 = dst(REG_ATTROUT, 0), oD1 = dst(REG_ATTROUT, 1);
Dst oT(uint32_t n, uint32_t mask = 0xF) { return dst(REG_TEXCRDOUT, n, mask); }
const Dst a0x = dst(REG_ADDR, 0, 1);

Program program(std::initializer_list<Instruction> code) {
    Program p;
    p.code = code;
    return p;
}

struct Run {
    Profile profile = Profile::d3d8();
    std::array<Vec4, kNumInputs> inputs{};
    Constants constants = Constants(96, Vec4{});
    VertexOutputs operator()(const Program& p) const { return execute_reference(p, profile, inputs, constants); }
};

// The bits of a Vec4, for whole-vector comparisons with readable failure messages.
std::array<uint32_t, 4> vbits(const Vec4& x) { return {float_bits(x[0]), float_bits(x[1]), float_bits(x[2]), float_bits(x[3])}; }
std::array<uint32_t, 4> ubits(uint32_t x, uint32_t y, uint32_t z, uint32_t w) { return {x, y, z, w}; }
std::array<uint32_t, 4> fvec(float x, float y, float z, float w) { return vbits(Vec4{x, y, z, w}); }

const Profile d3d8 = Profile::d3d8();
Profile with_zero_max() {
    Profile p;
    p.zero_recip = Profile::ZeroReciprocal::Max;
    return p;
}
Profile with_round() {
    Profile p;
    p.a0 = Profile::A0Rounding::Round;
    return p;
}

}  // namespace

// ---------------------------------------------------------------- single operations

TEST_CASE("rcp: 1 exactly, +-0 to +inf (or FLT_MAX), otherwise a rounded division", "[ops]") {
    CHECK(float_bits(ops::rcp(1.0f, d3d8)) == kOne);
    CHECK(float_bits(ops::rcp(0.0f, d3d8)) == kPosInf);
    CHECK(float_bits(ops::rcp(-0.0f, d3d8)) == kPosInf);
    CHECK(float_bits(ops::rcp(3.0f, d3d8)) == 0x3EAAAAABu);  // 1/3 rounded to nearest
    CHECK(float_bits(ops::rcp(-2.0f, d3d8)) == 0xBF000000u);
    CHECK(float_bits(ops::rcp(kInf, d3d8)) == kZero);
    CHECK(float_bits(ops::rcp(-kInf, d3d8)) == 0x80000000u);
    CHECK(float_bits(ops::rcp(bits_float(0xFFC12345u), d3d8)) == kQNaN);  // NaN results are canonical
    const Profile mx = with_zero_max();
    CHECK(float_bits(ops::rcp(0.0f, mx)) == 0x7F7FFFFFu);
    CHECK(float_bits(ops::rcp(-0.0f, mx)) == 0x7F7FFFFFu);
    CHECK(float_bits(ops::rcp(3.0f, mx)) == 0x3EAAAAABu);
}

TEST_CASE("rsq: |f|, 1 exactly, 0 to +inf (or FLT_MAX), otherwise 1/sqrtf", "[ops]") {
    CHECK(float_bits(ops::rsq(-4.0f, d3d8)) == 0x3F000000u);  // |-4| -> 0.5
    CHECK(float_bits(ops::rsq(4.0f, d3d8)) == 0x3F000000u);
    CHECK(float_bits(ops::rsq(1.0f, d3d8)) == kOne);
    CHECK(float_bits(ops::rsq(-1.0f, d3d8)) == kOne);
    CHECK(float_bits(ops::rsq(0.0f, d3d8)) == kPosInf);
    CHECK(float_bits(ops::rsq(-0.0f, d3d8)) == kPosInf);
    CHECK(float_bits(ops::rsq(2.0f, d3d8)) == 0x3F3504F3u);  // 1 / sqrtf(2) = 1 / 0x3FB504F3
    CHECK(float_bits(ops::rsq(3.0f, d3d8)) == 0x3F13CD3Au);
    CHECK(float_bits(ops::rsq(kInf, d3d8)) == kZero);
    CHECK(float_bits(ops::rsq(0.0f, with_zero_max())) == 0x7F7FFFFFu);
    CHECK(float_bits(ops::rsq(bits_float(0x7F800001u), d3d8)) == kQNaN);
}

TEST_CASE("exp and log: full precision, log of |f|, log of 0 is -inf", "[ops]") {
    CHECK(float_bits(ops::exp2_full(3.0f)) == 0x41000000u);
    CHECK(float_bits(ops::exp2_full(-1.0f)) == 0x3F000000u);
    CHECK(float_bits(ops::exp2_full(2.5f)) == 0x40B504F3u);
    CHECK(float_bits(ops::exp2_full(-kInf)) == kZero);
    CHECK(float_bits(ops::exp2_full(200.0f)) == kPosInf);
    CHECK(float_bits(ops::log2_full(0.0f)) == kNegInf);
    CHECK(float_bits(ops::log2_full(-0.0f)) == kNegInf);
    CHECK(float_bits(ops::log2_full(8.0f)) == 0x40400000u);
    CHECK(float_bits(ops::log2_full(-8.0f)) == 0x40400000u);
    CHECK(float_bits(ops::log2_full(10.0f)) == 0x40549A78u);
    CHECK(float_bits(ops::log2_full(kInf)) == kPosInf);
    CHECK(float_bits(ops::log2_full(bits_float(0xFFC12345u))) == kQNaN);
    CHECK(float_bits(ops::exp2_full(bits_float(0x7FC12345u))) == kQNaN);
}

TEST_CASE("expp: (2^floor(v), v - floor(v), 2^v with the 8 low mantissa bits cleared, 1)", "[ops]") {
    SECTION("positive v") {
        const Vec4 d = ops::expp(2.5f);
        CHECK(vbits(d) == ubits(0x40800000u, 0x3F000000u, 0x40B50400u, kOne));  // 4, 0.5, 0x40B504F3 & ~0xFF, 1
    }
    SECTION("negative v floors downward") {
        const Vec4 d = ops::expp(-1.25f);
        CHECK(vbits(d) == ubits(0x3E800000u, 0x3F400000u, 0x3ED74400u, kOne));  // 0.25, 0.75, 0x3ED744FD & ~0xFF
    }
    SECTION("the low-bit masking keeps every other bit of the full result") {
        for (float x : {0.3f, -7.77f, 13.1f, 2.5f, -1.25f, 0.001f}) {
            const uint32_t full = float_bits(ops::exp2_full(x));
            const uint32_t z = float_bits(ops::expp(x)[2]);
            CHECK((z & 0xFFu) == 0u);
            CHECK(z == (full & 0xFFFFFF00u));
        }
        REQUIRE((float_bits(ops::exp2_full(0.3f)) & 0xFFu) != 0u);  // the case above really had low bits to clear
    }
    SECTION("integral v, range ends and non-finite v") {
        CHECK(vbits(ops::expp(3.0f)) == ubits(0x41000000u, kZero, 0x41000000u, kOne));
        CHECK(vbits(ops::expp(-149.0f)) == ubits(0x00000001u, kZero, 0x00000001u & 0xFFFFFF00u, kOne));
        CHECK(float_bits(ops::expp(128.0f)[0]) == kPosInf);
        CHECK(float_bits(ops::expp(-200.5f)[0]) == kZero);
        const Vec4 pinf = ops::expp(kInf);
        CHECK(float_bits(pinf[0]) == kPosInf);
        CHECK(float_bits(pinf[1]) == kQNaN);  // inf - inf
        CHECK(float_bits(pinf[2]) == kPosInf);
        CHECK(vbits(ops::expp(bits_float(0xFFC12345u))) == ubits(kQNaN, kQNaN, kQNaN, kOne));
        CHECK(vbits(ops::expp(bits_float(0x7F800001u))) == ubits(kQNaN, kQNaN, kQNaN, kOne));
    }
}

TEST_CASE("logp: (exponent, mantissa in 1..2, log2 with 8 low bits cleared, 1)", "[ops]") {
    CHECK(vbits(ops::logp(8.0f, d3d8)) == fvec(3.0f, 1.0f, 3.0f, 1.0f));
    CHECK(vbits(ops::logp(-0.75f, d3d8)) == ubits(0xBF800000u, 0x3FC00000u, 0xBED47F00u, kOne));  // -1, 1.5
    SECTION("the low-bit masking keeps every other bit of the full result") {
        for (float x : {10.0f, 0.75f, 3.0f, 1e-30f, 12345.678f, 1.0001f}) {
            const uint32_t full = float_bits(ops::log2_full(x));
            const uint32_t z = float_bits(ops::logp(x, d3d8)[2]);
            CHECK((z & 0xFFu) == 0u);
            CHECK(z == (full & 0xFFFFFF00u));
        }
        CHECK(float_bits(ops::logp(10.0f, d3d8)[2]) == 0x40549A00u);  // 0x40549A78 & ~0xFF
    }
    SECTION("zero") {
        CHECK(vbits(ops::logp(0.0f, d3d8)) == ubits(kNegInf, kOne, kNegInf, kOne));
        CHECK(vbits(ops::logp(-0.0f, d3d8)) == ubits(kNegInf, kOne, kNegInf, kOne));
    }
    SECTION("denormal: the IEEE exponent field (-127) and the unnormalised mantissa bits") {
        const Vec4 d = ops::logp(bits_float(0x00000200u), d3d8);  // 2^-140
        CHECK(vbits(d) == ubits(0xC2FE0000u, 0x3F800200u, 0xC30C0000u, kOne));  // -127, 1 + 2^-14, -140
    }
    SECTION("infinity and NaN: exponent field 255 -> 128") {
        CHECK(vbits(ops::logp(-kInf, d3d8)) == ubits(0x43000000u, kOne, kPosInf, kOne));
        CHECK(vbits(ops::logp(bits_float(0xFFC00001u), d3d8)) == ubits(0x43000000u, 0x3FC00001u, kQNaN, kOne));
        CHECK(vbits(ops::logp(bits_float(0x7F800001u), d3d8)) == ubits(0x43000000u, 0x3F800001u, kQNaN, kOne));
    }
    SECTION("logp_replicate writes the log result to all four components") {
        Profile rep;
        rep.logp_replicate = true;
        CHECK(vbits(ops::logp(8.0f, rep)) == fvec(3.0f, 3.0f, 3.0f, 3.0f));
        CHECK(vbits(ops::logp(10.0f, rep)) == ubits(0x40549A00u, 0x40549A00u, 0x40549A00u, 0x40549A00u));
        CHECK(vbits(ops::logp(0.0f, rep)) == ubits(kNegInf, kNegInf, kNegInf, kNegInf));
    }
}

TEST_CASE("lit: x <= 0, y <= 0, power clamp to +-127.9961", "[ops]") {
    CHECK(float_bits(127.9961f) == 0x42FFFE01u);  // the clamp constant
    SECTION("x <= 0 gives (1, 0, 0, 1)") {
        CHECK(vbits(ops::lit({0.0f, 0.5f, 0.0f, 2.0f})) == fvec(1, 0, 0, 1));
        CHECK(vbits(ops::lit({-1.0f, 0.5f, 0.0f, 2.0f})) == fvec(1, 0, 0, 1));
        CHECK(vbits(ops::lit({kNaN, 0.5f, 0.0f, 2.0f})) == fvec(1, 0, 0, 1));
    }
    SECTION("y <= 0 gives z = 0") {
        CHECK(vbits(ops::lit({0.25f, 0.0f, 7.0f, 2.0f})) == fvec(1, 0.25f, 0, 1));
        CHECK(vbits(ops::lit({0.25f, -0.5f, 7.0f, 2.0f})) == fvec(1, 0.25f, 0, 1));
    }
    SECTION("the lit case") {
        CHECK(vbits(ops::lit({0.25f, 0.5f, 7.0f, 2.0f})) == fvec(1, 0.25f, 0.25f, 1));
        CHECK(float_bits(ops::lit({1.0f, 3.0f, 0.0f, 2.5f})[2]) == 0x41796A52u);  // 3^2.5 rounded
        CHECK(float_bits(ops::lit({1.0f, 0.5f, 0.0f, 0.0f})[2]) == kOne);        // power 0 -> 1
        CHECK(float_bits(ops::lit({1.0f, 0.5f, 0.0f, -0.0f})[2]) == kOne);
    }
    SECTION("power clamp") {
        // 2^200 would be +inf; clamped: 2^127.99610138 = 0x7F7F4F24 (finite).
        CHECK(float_bits(ops::lit({1.0f, 2.0f, 0.0f, 200.0f})[2]) == 0x7F7F4F24u);
        CHECK(float_bits(ops::lit({1.0f, 2.0f, 0.0f, 127.9961f})[2]) == 0x7F7F4F24u);
        CHECK(float_bits(ops::lit({1.0f, 2.0f, 0.0f, kInf})[2]) == 0x7F7F4F24u);
        // 2^-200 would be 0; clamped: 2^-127.99610138 = 0x0020162B (a denormal).
        CHECK(float_bits(ops::lit({1.0f, 2.0f, 0.0f, -200.0f})[2]) == 0x0020162Bu);
        CHECK(float_bits(ops::lit({1.0f, 0.5f, 0.0f, 200.0f})[2]) == 0x0020162Bu);
    }
}

TEST_CASE("dst, frc, dp3/dp4 order", "[ops]") {
    CHECK(vbits(ops::dst({9, 2, 3, 9}, {9, 5, 9, 7})) == fvec(1, 10, 3, 7));
    CHECK(float_bits(ops::frc(-0.25f)) == 0x3F400000u);  // 0.75
    CHECK(float_bits(ops::frc(1.75f)) == 0x3F400000u);
    CHECK(float_bits(ops::frc(-1.0f)) == kZero);
    CHECK(float_bits(ops::frc(-3.5f)) == 0x3F000000u);
    CHECK(float_bits(ops::frc(-1e-10f)) == kOne);  // 1 - 1e-10 rounds to 1.0 (documented)
    CHECK(float_bits(ops::frc(kInf)) == kQNaN);
    CHECK(float_bits(ops::frc(-kInf)) == kQNaN);
    // Left to right: ((1e8 + 1) + -1e8) + 1 = (1e8 + -1e8) + 1 = 1.
    // Pairwise (1e8 + 1) + (-1e8 + 1) would give 0; right to left also 0.
    const Vec4 a{1e8f, 1.0f, -1e8f, 1.0f}, ones{1, 1, 1, 1};
    CHECK(float_bits(ops::dp4(a, ones)) == kOne);
    CHECK(float_bits((a[0] + a[1]) + (a[2] + a[3])) == kZero);  // the pairwise sum really differs
    // dp3 = (x + y) + z: (1e8 + 1) + -1e8 = 0; (x + z) + y would be 1.
    CHECK(float_bits(ops::dp3(a, ones)) == kZero);
    CHECK(float_bits(ops::dp3({-1e8f, 1e8f, 1.0f, 99.0f}, ones)) == kOne);
    // Each product is rounded before it is added: a*a = 1 + 2^-11 + 2^-24 rounds to 1 + 2^-11, so
    // the sum is 0 (a fused multiply-add would keep 2^-24 = 0x33800000).
    const float e = 1.0f + std::ldexp(1.0f, -12), m = -(1.0f + std::ldexp(1.0f, -11));
    CHECK(float_bits(ops::dp3({m, e, 0, 0}, {1, e, 0, 0})) == kZero);
    CHECK(float_bits(ops::dp4({m, 0, 0, e}, {1, 0, 0, e})) == kZero);
}

TEST_CASE("a0 from a float: floor (vs.1.1) and round half away from zero (DX9 mova)", "[ops]") {
    CHECK(ops::a0_from(-2.4f, d3d8) == -3);
    CHECK(ops::a0_from(-0.4f, d3d8) == -1);
    CHECK(ops::a0_from(0.4f, d3d8) == 0);
    CHECK(ops::a0_from(1.6f, d3d8) == 1);
    CHECK(ops::a0_from(-0.0f, d3d8) == 0);
    CHECK(ops::a0_from(2.0f, d3d8) == 2);
    const Profile rnd = with_round();
    CHECK(ops::a0_from(-2.4f, rnd) == -2);
    CHECK(ops::a0_from(-0.4f, rnd) == 0);
    CHECK(ops::a0_from(0.4f, rnd) == 0);
    CHECK(ops::a0_from(1.6f, rnd) == 2);
    CHECK(ops::a0_from(0.5f, rnd) == 1);
    CHECK(ops::a0_from(-0.5f, rnd) == -1);
    CHECK(ops::a0_from(2.5f, rnd) == 3);
    CHECK(ops::a0_from(-2.5f, rnd) == -3);
    for (const Profile& p : {d3d8, rnd}) {
        CHECK(ops::a0_from(kNaN, p) == INT32_MIN);
        CHECK(ops::a0_from(1e10f, p) == INT32_MAX);
        CHECK(ops::a0_from(kInf, p) == INT32_MAX);
        CHECK(ops::a0_from(-1e10f, p) == INT32_MIN);
        CHECK(ops::a0_from(-kInf, p) == INT32_MIN);
        CHECK(ops::a0_from(2147483520.0f, p) == 2147483520);  // largest float below 2^31
        CHECK(ops::a0_from(-2147483648.0f, p) == INT32_MIN);
    }
}

// ---------------------------------------------------------------- the interpreter

TEST_CASE("Interpreter: output defaults (D3D8 and Zero profiles)", "[ops]") {
    Run run;
    run.inputs[0] = {1, 2, 3, 4};
    const Program p = program({ins(OP_MOV, oPos, {v(0)})});
    const VertexOutputs o = run(p);
    CHECK(vbits(o.pos) == fvec(1, 2, 3, 4));
    CHECK(vbits(o.d0) == fvec(1, 1, 1, 1));
    CHECK(vbits(o.d1) == fvec(0, 0, 0, 1));
    for (uint32_t i = 0; i < kNumTexcoords; ++i) CHECK(vbits(o.t[i]) == fvec(0, 0, 0, 0));
    CHECK(float_bits(o.fog) == kZero);
    CHECK(float_bits(o.pts) == kZero);

    run.profile.outputs = Profile::OutputDefaults::Zero;
    const VertexOutputs z = run(p);
    CHECK(vbits(z.d0) == fvec(0, 0, 0, 0));
    CHECK(vbits(z.d1) == fvec(0, 0, 0, 0));
    CHECK(vbits(z.pos) == fvec(1, 2, 3, 4));

    // A partial write keeps the other components' defaults.
    run.profile = d3d8;
    run.constants[0] = {0.25f, 0.5f, 0.75f, 0.125f};
    const VertexOutputs m = run(program({ins(OP_MOV, oPos, {v(0)}), ins(OP_MOV, dst(REG_ATTROUT, 1, 0x3), {c(0)})}));
    CHECK(vbits(m.d1) == fvec(0.25f, 0.5f, 0, 1));
}

TEST_CASE("Interpreter: oD0/oD1 saturated, oFog clamped, oPts and oPos not", "[ops]") {
    Run run;
    run.constants[0] = {2.0f, -1.0f, 0.5f, kNaN};
    run.constants[1] = {-0.0f, 1.0f, kInf, -kInf};
    run.constants[2] = {2.0f, -1.0f, 0, 0};
    const VertexOutputs o = run(program({
        ins(OP_MOV, oPos, {c(0)}),
        ins(OP_MOV, oD0, {c(0)}),
        ins(OP_MOV, oD1, {c(1)}),
        ins(OP_MOV, oFog, {c(2, kX)}),
        ins(OP_MOV, oPts, {c(2, kX)}),
        ins(OP_MOV, oT(0), {c(0)}),
    }));
    CHECK(vbits(o.d0) == ubits(kOne, kZero, 0x3F000000u, kZero));  // NaN -> 0
    CHECK(vbits(o.d1) == ubits(kZero, kOne, kOne, kZero));          // -0 -> +0
    CHECK(float_bits(o.fog) == kOne);
    CHECK(float_bits(o.pts) == 0x40000000u);
    CHECK(vbits(o.pos) == vbits(run.constants[0]));  // not clamped (NaN kept)
    CHECK(vbits(o.t[0]) == vbits(run.constants[0]));

    const VertexOutputs n = run(program({
        ins(OP_MOV, oPos, {c(0)}),
        ins(OP_MOV, oFog, {c(2, kY)}),
        ins(OP_MOV, oPts, {c(2, kY)}),
    }));
    CHECK(float_bits(n.fog) == kZero);
    CHECK(float_bits(n.pts) == 0xBF800000u);  // -1 kept
}

TEST_CASE("Interpreter: sge/slt/min/max with equal values and NaN", "[ops]") {
    Run run;
    run.constants[0] = {1.0f, kNaN, 1.0f, -0.0f};
    run.constants[1] = {1.0f, 1.0f, kNaN, 0.0f};
    const auto op = [&](uint32_t opcode) {
        return run(program({ins(opcode, oPos, {c(0), c(1)})})).pos;
    };
    // components: (1 vs 1), (NaN vs 1), (1 vs NaN), (-0 vs +0)
    CHECK(vbits(op(OP_SGE)) == fvec(1, 0, 0, 1));
    CHECK(vbits(op(OP_SLT)) == fvec(0, 0, 0, 0));
    // min = (a < b) ? a : b; max = (a >= b) ? a : b.
    const Vec4 mn = op(OP_MIN), mx = op(OP_MAX);
    CHECK(float_bits(mn[0]) == kOne);
    CHECK(float_bits(mn[1]) == kOne);  // NaN < 1 false -> b
    CHECK(float_bits(mn[2]) == kQNaN);  // 1 < NaN false -> b = NaN (bits moved unchanged)
    CHECK(float_bits(mn[3]) == kZero);  // -0 < +0 false -> +0
    CHECK(float_bits(mx[0]) == kOne);
    CHECK(float_bits(mx[1]) == kOne);  // NaN >= 1 false -> b
    CHECK(float_bits(mx[2]) == kQNaN);
    CHECK(float_bits(mx[3]) == 0x80000000u);  // -0 >= +0 true -> -0
}

TEST_CASE("Interpreter: mov a0.x (floor / round) and relative constant reads", "[ops]") {
    Run run;
    for (uint32_t i = 0; i < 96; ++i) run.constants[i] = {float(i), float(i) + 0.5f, -float(i), 1.0f};
    // mov a0.x, v0.x ; mov oPos, c[a0.x + n]. The x component of c[k] is k.
    const auto relative_read = [&](float a0_source, uint32_t n) {
        Run rr = run;
        rr.inputs[0] = {a0_source, 0, 0, 0};
        return rr(program({ins(OP_MOV, a0x, {v(0)}), ins(OP_MOV, oPos, {crel(n)})})).pos;
    };
    const auto with_a0 = [&](float a0_source, uint32_t n) { return relative_read(a0_source, n)[0]; };
    CHECK(with_a0(-2.4f, 10) == 7.0f);
    CHECK(with_a0(-0.4f, 10) == 9.0f);
    CHECK(with_a0(0.4f, 10) == 10.0f);
    CHECK(with_a0(1.6f, 10) == 11.0f);
    run.profile = with_round();
    CHECK(with_a0(-2.4f, 10) == 8.0f);
    CHECK(with_a0(-0.4f, 10) == 10.0f);
    CHECK(with_a0(0.4f, 10) == 10.0f);
    CHECK(with_a0(1.6f, 10) == 12.0f);
    CHECK(with_a0(-0.5f, 10) == 9.0f);
    CHECK(with_a0(0.5f, 10) == 11.0f);
    run.profile = d3d8;

    SECTION("outside 0..count-1 reads (0,0,0,0)") {
        const std::pair<float, uint32_t> cases[] = {{-1.0f, 0}, {-11.0f, 10}, {90.0f, 6},   {95.0f, 1},
                                                    {1e10f, 5}, {-1e10f, 95}, {kNaN, 50},   {kInf, 0},
                                                    {-kInf, 95}, {2147483520.0f, 2047}};
        for (const auto& [value, n] : cases) {
            INFO("a0 source " << value << ", offset " << n);
            CHECK(vbits(relative_read(value, n)) == fvec(0, 0, 0, 0));
        }
        // The edges inside the range.
        CHECK(vbits(relative_read(-5.0f, 5)) == fvec(0, 0.5f, -0.0f, 1));
        CHECK(vbits(relative_read(90.0f, 5)) == fvec(95, 95.5f, -95, 1));
    }
    SECTION("the profile's const_count bounds the range") {
        run.profile.const_count = 16;
        CHECK(vbits(relative_read(15.0f, 0)) == fvec(15, 15.5f, -15, 1));
        CHECK(vbits(relative_read(15.0f, 1)) == fvec(0, 0, 0, 0));
    }
    SECTION("registers beyond the caller's vector read 0") {
        run.constants.resize(20);
        CHECK(vbits(relative_read(19.0f, 0)) == fvec(19, 19.5f, -19, 1));
        CHECK(vbits(relative_read(20.0f, 0)) == fvec(0, 0, 0, 0));
    }
    SECTION("a0 starts at 0") {
        CHECK(vbits(run(program({ins(OP_MOV, oPos, {crel(7)})})).pos) == fvec(7, 7.5f, -7, 1));
    }
    SECTION("mov a0.x uses the x component of the swizzled, negated source") {
        Run rr = run;
        rr.inputs[0] = {100.0f, -3.5f, 0, 0};
        Src s = v(0, kY);
        s.negate = true;  // -(-3.5) = 3.5 -> 3
        CHECK(rr(program({ins(OP_MOV, a0x, {s}), ins(OP_MOV, oPos, {crel(1)})})).pos[0] == 4.0f);
    }
}

TEST_CASE("Interpreter: m-instructions equal the dot products bit for bit", "[ops]") {
    std::mt19937_64 rng(test_seed("m-instructions"));
    const auto random_float = [&]() {
        switch (rng() % 4) {
            case 0: return bits_float(static_cast<uint32_t>(rng()));  // any bit pattern (NaN, inf, denormals)
            case 1: return std::ldexp(float(int32_t(rng() % 2000001) - 1000000) / 1e6f, int(rng() % 60) - 30);
            default: return float(int32_t(rng() % 20001) - 10000) / float(1 + rng() % 1000);
        }
    };
    const std::pair<uint32_t, int> ms[] = {{OP_M4x4, 4}, {OP_M4x3, 3}, {OP_M3x4, 4}, {OP_M3x3, 3}, {OP_M3x2, 2}};
    for (int iter = 0; iter < 300; ++iter) {
        Run run;
        for (auto& in : run.inputs)
            for (float& f : in) f = random_float();
        for (auto& k : run.constants)
            for (float& f : k) f = random_float();
        for (const auto& [opcode, rows] : ms) {
            const bool four = opcode == OP_M4x4 || opcode == OP_M4x3;
            const uint32_t base = static_cast<uint32_t>(rng() % 90);
            const bool relative = rng() % 2;
            const uint32_t a0 = static_cast<uint32_t>(rng() % 3);  // a0.x = 0..2
            run.constants[95] = {float(a0), 0, 0, 0};
            const Src row0 = src(REG_CONST, base, kSwizzleIdentity, false, relative);
            const uint32_t computed = (1u << rows) - 1u;
            Program p;
            p.code.push_back(ins(OP_MOV, a0x, {c(95)}));
            p.code.push_back(ins(OP_MOV, rd(0), {v(1)}));  // r0 = prior contents, partly overwritten below
            const uint32_t mask = 1u + static_cast<uint32_t>(rng() % 15);  // any non-empty mask, also beyond the rows
            p.code.push_back(ins(opcode, rd(0, mask), {v(0), row0}));
            p.code.push_back(ins(OP_MOV, oPos, {r(0)}));
            const VertexOutputs o = run(p);

            const uint32_t first = relative ? base + a0 : base;
            Vec4 expect = run.inputs[1];
            for (int i = 0; i < rows; ++i) {
                const uint32_t k = first + static_cast<uint32_t>(i);
                const Vec4 row = k < 96 ? run.constants[k] : Vec4{};
                if (mask & computed & (1u << i))
                    expect[i] = four ? ops::dp4(run.inputs[0], row) : ops::dp3(run.inputs[0], row);
            }
            INFO("opcode " << opcode << " base " << base << " relative " << relative << " mask " << mask);
            CHECK(vbits(o.pos) == vbits(expect));

            // The same through dp3/dp4 instructions.
            Program q;
            q.code.push_back(ins(OP_MOV, a0x, {c(95)}));
            q.code.push_back(ins(OP_MOV, rd(0), {v(1)}));
            for (int i = 0; i < rows; ++i)
                if (mask & (1u << i)) {
                    Src row = row0;
                    row.num += static_cast<uint32_t>(i);
                    q.code.push_back(ins(four ? OP_DP4 : OP_DP3, rd(0, 1u << i), {v(0), row}));
                }
            q.code.push_back(ins(OP_MOV, oPos, {r(0)}));
            CHECK(same_bits(o, run(q)));
        }
    }
}

TEST_CASE("Interpreter: the m-instruction rows carry src1's swizzle and negation", "[ops]") {
    Run run;
    run.inputs[0] = {1, 2, 3, 4};
    run.constants[4] = {1, 10, 100, 1000};
    run.constants[5] = {2, 20, 200, 2000};
    Src m = c(4, swz(3, 2, 1, 0));  // .wzyx
    m.negate = true;
    const VertexOutputs o = run(program({ins(OP_M4x3, oPos, {v(0), m})}));
    // row k = -(c[4+k].wzyx): dp4 with (1,2,3,4)
    // c6 is (0,0,0,0): its negation is -0 everywhere, so the dot product is -0. No w row: w stays 0.
    CHECK(vbits(o.pos) == fvec(-(1000 + 200 + 30 + 4), -(2000 + 400 + 60 + 8), -0.0f, 0));
}

TEST_CASE("Interpreter: mad is not fused, dp4 is left to right", "[ops]") {
    Run run;
    const float a = 1.0f + std::ldexp(1.0f, -12);  // a*a = 1 + 2^-11 + 2^-24: the 2^-24 is lost when rounded
    run.constants[0] = {a, a, a, a};
    run.constants[1] = {-(1.0f + std::ldexp(1.0f, -11)), 0, 0, 0};
    run.constants[2] = {1e8f, 1.0f, -1e8f, 1.0f};
    run.constants[3] = {1, 1, 1, 1};
    const VertexOutputs o = run(program({
        ins(OP_MAD, oPos, {c(0), c(0), c(1)}),
        ins(OP_DP4, oT(0), {c(2), c(3)}),
        ins(OP_DP3, oT(1), {c(2), c(3)}),
    }));
    CHECK(float_bits(o.pos[0]) == kZero);                           // unfused: 0
    CHECK(float_bits(std::fma(a, a, run.constants[1][0])) == 0x33800000u);  // fused would be 2^-24
    CHECK(vbits(o.t[0]) == fvec(1, 1, 1, 1));
    CHECK(vbits(o.t[1]) == fvec(0, 0, 0, 0));
}

TEST_CASE("Interpreter: frc of negative numbers, written to .xy", "[ops]") {
    Run run;
    run.constants[0] = {-0.25f, -2.75f, 5.5f, -1.5f};
    const VertexOutputs o = run(program({
        ins(OP_MOV, rd(0), {c(0)}),
        ins(OP_FRC, rd(0, 0x3), {c(0)}),
        ins(OP_MOV, oPos, {r(0)}),
    }));
    CHECK(vbits(o.pos) == fvec(0.75f, 0.25f, 5.5f, -1.5f));
}

TEST_CASE("Interpreter: scalar sources (.w, replicate swizzle, X profile) and replication", "[ops]") {
    Run run;
    run.constants[0] = {2.0f, 4.0f, 8.0f, 16.0f};
    SECTION("no replicate swizzle: .w of the swizzled source") {
        CHECK(vbits(run(program({ins(OP_RCP, oPos, {c(0)})})).pos) == fvec(0.0625f, 0.0625f, 0.0625f, 0.0625f));
        CHECK(vbits(run(program({ins(OP_RCP, oPos, {c(0, swz(3, 2, 1, 0))})})).pos) == fvec(0.5f, 0.5f, 0.5f, 0.5f));
    }
    SECTION("replicate swizzle") {
        CHECK(vbits(run(program({ins(OP_RCP, oPos, {c(0, kY)})})).pos) == fvec(0.25f, 0.25f, 0.25f, 0.25f));
        CHECK(vbits(run(program({ins(OP_EXP, oPos, {c(0, kX)})})).pos) == fvec(4, 4, 4, 4));
        CHECK(vbits(run(program({ins(OP_LOG, oPos, {c(0, kY)})})).pos) == fvec(2, 2, 2, 2));
    }
    SECTION("ScalarComponent::X reads .x of the swizzled source") {
        run.profile.scalar_component = Profile::ScalarComponent::X;
        CHECK(vbits(run(program({ins(OP_RCP, oPos, {c(0)})})).pos) == fvec(0.5f, 0.5f, 0.5f, 0.5f));
        CHECK(vbits(run(program({ins(OP_RCP, oPos, {c(0, kY)})})).pos) == fvec(0.25f, 0.25f, 0.25f, 0.25f));
    }
    SECTION("a partial mask writes only its components") {
        const VertexOutputs o = run(program({ins(OP_RSQ, dst(REG_RASTOUT, RAST_POS, 0x5), {c(0, kY)})}));
        CHECK(vbits(o.pos) == fvec(0.5f, 0, 0.5f, 0));
    }
    SECTION("expp/logp through the interpreter, logp_replicate") {
        const VertexOutputs e = run(program({ins(OP_EXPP, oPos, {c(0, kX)}), ins(OP_LOGP, oT(0), {c(0)})}));
        CHECK(vbits(e.pos) == fvec(4, 0, 4, 1));
        CHECK(vbits(e.t[0]) == fvec(4, 1, 4, 1));
        run.profile.logp_replicate = true;
        CHECK(vbits(run(program({ins(OP_LOGP, oT(0), {c(0)})})).t[0]) == fvec(4, 4, 4, 4));
    }
}

TEST_CASE("Interpreter: negation flips the sign bit (of 0 and NaN too)", "[ops]") {
    Run run;
    run.constants[0] = {0.0f, bits_float(0x7FC00000u), 1.0f, -2.0f};
    Src s = c(0);
    s.negate = true;
    CHECK(vbits(run(program({ins(OP_MOV, oPos, {s})})).pos) == ubits(0x80000000u, 0xFFC00000u, 0xBF800000u, 0x40000000u));
    // Swizzle before negation: -c0.yxwz
    s.swizzle = swz(3, 3, 2, 0);
    CHECK(vbits(run(program({ins(OP_MOV, oPos, {s})})).pos) == fvec(2, 2, -1, -0.0f));
}

TEST_CASE("Interpreter: sources are read before the destination is written, temps start at 0", "[ops]") {
    Run run;
    run.constants[0] = {1, 2, 3, 4};
    const VertexOutputs o = run(program({
        ins(OP_MOV, oT(1), {r(5)}),  // never written: (0,0,0,0)
        ins(OP_MOV, rd(0), {c(0)}),
        ins(OP_ADD, rd(0), {r(0, swz(1, 0, 3, 2)), r(0)}),  // (2+1, 1+2, 4+3, 3+4)
        ins(OP_DST, oT(0), {r(0), c(0)}),                   // (1, 3*2, 7, 4)
        ins(OP_MOV, oPos, {r(0)}),
    }));
    CHECK(vbits(o.pos) == fvec(3, 3, 7, 7));
    CHECK(vbits(o.t[0]) == fvec(1, 6, 7, 4));
    CHECK(vbits(o.t[1]) == fvec(0, 0, 0, 0));
}

TEST_CASE("Interpreter: every arithmetic opcode on one vector", "[ops]") {
    Run run;
    run.constants[0] = {1.5f, -2.0f, 0.25f, 8.0f};
    run.constants[1] = {2.0f, 3.0f, -4.0f, 0.5f};
    run.inputs[0] = {10, 20, 30, 40};
    const auto op = [&](uint32_t opcode) {
        return vbits(run(program({ins(opcode, oPos, {c(0), c(1), v(0)})})).pos);
    };
    CHECK(op(OP_ADD) == fvec(3.5f, 1, -3.75f, 8.5f));
    CHECK(op(OP_SUB) == fvec(-0.5f, -5, 4.25f, 7.5f));
    CHECK(op(OP_MUL) == fvec(3, -6, -1, 4));
    CHECK(op(OP_MAD) == fvec(13, 14, 29, 44));
    CHECK(op(OP_DP3) == fvec(-4, -4, -4, -4));
    CHECK(op(OP_DP4) == fvec(0, 0, 0, 0));
    CHECK(op(OP_LIT) == fvec(1, 1.5f, 0, 1));
}

TEST_CASE("NaN: arithmetic results are the canonical 0x7FC00000, copies (mov, min, max, dst.zw) move bits", "[ops]") {
    Run run;
    run.constants[0] = {bits_float(0xFFC12345u), bits_float(0x7F800001u), kInf, 1.0f};
    run.constants[1] = {1.0f, 2.0f, -kInf, bits_float(0x7FC0BEEFu)};
    const auto op = [&](uint32_t opcode, Src a, Src b) {
        return vbits(run(program({ins(opcode, oPos, {a, b, c(1)})})).pos);
    };
    // add: NaN + 1, sNaN + 2, inf + -inf, 1 + NaN
    CHECK(op(OP_ADD, c(0), c(1)) == ubits(kQNaN, kQNaN, kQNaN, kQNaN));
    CHECK(op(OP_SUB, c(0), c(1)) == ubits(kQNaN, kQNaN, kPosInf, kQNaN));
    CHECK(op(OP_MUL, c(0), c(1)) == ubits(kQNaN, kQNaN, kNegInf, kQNaN));
    CHECK(op(OP_MAD, c(0), c(1)) == ubits(kQNaN, kQNaN, kNegInf, kQNaN));  // inf * -inf + -inf
    CHECK(op(OP_DP4, c(0), c(1)) == ubits(kQNaN, kQNaN, kQNaN, kQNaN));
    CHECK(op(OP_DST, c(0), c(1)) == ubits(kOne, kQNaN, kPosInf, 0x7FC0BEEFu));  // z, w: copies
    CHECK(op(OP_DST, c(1), c(0)) == ubits(kOne, kQNaN, kNegInf, kOne));
    CHECK(op(OP_DST, c(0, swz(0, 3, 0, 0)), c(1)) == ubits(kOne, 0x40000000u, 0xFFC12345u, 0x7FC0BEEFu));
    // mov, min and max move the bits unchanged (negation flips the sign bit).
    CHECK(op(OP_MOV, c(0), c(1)) == ubits(0xFFC12345u, 0x7F800001u, kPosInf, kOne));
    Src neg = c(0);
    neg.negate = true;
    CHECK(op(OP_MOV, neg, c(1)) == ubits(0x7FC12345u, 0xFF800001u, kNegInf, 0xBF800000u));
    CHECK(op(OP_MIN, c(1), c(0)) == ubits(0xFFC12345u, 0x7F800001u, kNegInf, 0x3F800000u));
    CHECK(op(OP_MAX, c(0), c(1)) == ubits(kOne, 0x40000000u, kPosInf, 0x7FC0BEEFu));
}

TEST_CASE("same_bits compares every float's bits", "[ops]") {
    VertexOutputs a, b;
    CHECK(same_bits(a, b));
    b.pos[2] = -0.0f;
    CHECK_FALSE(same_bits(a, b));
    b = a;
    b.t[7][3] = 1.0f;
    CHECK_FALSE(same_bits(a, b));
    b = a;
    b.pts = bits_float(1);
    CHECK_FALSE(same_bits(a, b));
    b = a;
    b.fog = -0.0f;
    CHECK_FALSE(same_bits(a, b));
    a.d1[0] = kNaN;
    b = a;
    CHECK(same_bits(a, b));  // the same NaN
    b.d1[0] = bits_float(0x7FC00001u);
    CHECK_FALSE(same_bits(a, b));
}

TEST_CASE("The interpreter rejects what validation forbids", "[ops]") {
    Run run;
    CHECK_THROWS_AS(run(program({ins(OP_MOV, oPos, {src(REG_RASTOUT, RAST_POS)})})), std::invalid_argument);
    CHECK_THROWS_AS(run(program({ins(OP_MOV, dst(REG_INPUT, 0), {c(0)})})), std::invalid_argument);
    CHECK_THROWS_AS(run(program({ins(18 /* lrp: pixel shaders only */, oPos, {c(0), c(1), c(2)})})),
                    std::invalid_argument);
    CHECK_THROWS_AS(run(program({ins(OP_MOV, oPos, {src(REG_TEMP, 0, kSwizzleIdentity, false, true)})})),
                    std::invalid_argument);
    CHECK_THROWS_AS(run(program({ins(OP_MOV, rd(12), {c(0)})})), std::invalid_argument);
}
