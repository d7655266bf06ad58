// The reference interpreter: the golden semantics of vs.1.0 / vs.1.1 (docs/spec/vs-isa.md,
// "Semantics"; every decision the spec leaves open is in docs/vs-semantics.md).
//
// Written to be obviously right, not fast: one instruction at a time, every source read into a
// Vec4 first, the whole result computed, then the masked components written. The fast path
// (vs_fast.h, kernels in vs_fast_kernels.cpp) is compared to this bit for bit and calls the same
// ops:: functions.
//
// Rounding: every operation below is one IEEE-754 single-precision operation rounded to nearest
// even, in the order written. The project builds with -ffp-contract=off, so a*b+c is never fused.
#include "model/vs/vs_exec.h"
#include "model/common/float_bits.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace vpsim::vs {

namespace {


// NaN results: every arithmetic result (everything but mov, min, max and the components of dst
// and lit that copy a source component, which only move bits) is the one canonical quiet NaN
// 0x7FC00000 in place of any NaN. Which operand's payload an x86 addition or
// multiplication propagates depends on the operand order the compiler picks (it may commute
// a + b), so payloads would not be reproducible between two compilations of the same formula.
constexpr uint32_t kCanonicalNaN = 0x7FC00000u;

float canon(float f) { return std::isnan(f) ? bits_float(kCanonicalNaN) : f; }
Vec4 canon(const Vec4& x) { return Vec4{canon(x[0]), canon(x[1]), canon(x[2]), canon(x[3])}; }

// Clears the 8 low mantissa bits (the "partial precision" results of expp/logp). A NaN is made
// canonical first, so it stays the canonical NaN (its low 8 bits are 0).
float clear_low8(float f) { return bits_float(float_bits(canon(f)) & 0xFFFFFF00u); }

// Negation modifier: flips the sign bit, also of 0 (0 -> -0) and of NaN.
float flip_sign(float f) { return bits_float(float_bits(f) ^ 0x80000000u); }

// 2^n for an integral float n (the result of floorf), exact: +-inf and NaN pass through as
// 2^+inf = +inf, 2^-inf = +0, NaN.
float pow2_integral(float n) {
    if (std::isnan(n)) return n;
    if (n >= 128.0f) return std::numeric_limits<float>::infinity();
    if (n < -150.0f) return 0.0f;
    return std::ldexp(1.0f, static_cast<int>(n));  // exact (denormal results included)
}

// Saturation of oD0/oD1 and clamp of oFog to [0,1]: NaN -> +0, -0 -> +0.
float saturate(float f) {
    if (f > 0.0f) return f < 1.0f ? f : 1.0f;
    return 0.0f;
}

float zero_recip(const Profile& p) {
    return p.zero_recip == Profile::ZeroReciprocal::Max ? FLT_MAX : std::numeric_limits<float>::infinity();
}

[[noreturn]] void invalid(const Instruction& ins, const std::string& what) {
    throw std::invalid_argument("execute_reference: instruction at token " + std::to_string(ins.token_index) +
                                ": " + what + " (the program was not validated)");
}

// The register state of one vertex.
struct Machine {
    std::array<Vec4, kNumTemps> r{};
    int32_t a0 = 0;
    Vec4 pos{}, fog{}, pts{}, d0{}, d1{};
    std::array<Vec4, kNumTexcoords> t{};

    const Profile& profile;
    const std::array<Vec4, kNumInputs>& v;
    const Constants& c;

    Machine(const Profile& p, const std::array<Vec4, kNumInputs>& in, const Constants& k) : profile(p), v(in), c(k) {
        if (p.outputs == Profile::OutputDefaults::D3D8) {
            d0 = {1.0f, 1.0f, 1.0f, 1.0f};
            d1 = {0.0f, 0.0f, 0.0f, 1.0f};
        }
    }

    // Constant register `index` (already including a0.x for relative reads). Anything outside
    // 0..const_count-1 reads (0,0,0,0); so does a register the caller's vector does not hold.
    Vec4 constant(int64_t index) const {
        if (index < 0 || index >= static_cast<int64_t>(profile.const_count)) return Vec4{};
        if (index >= static_cast<int64_t>(c.size())) return Vec4{};
        return c[static_cast<size_t>(index)];
    }

    // The raw (unswizzled) register a source names, `row` added to its number (m-instructions).
    Vec4 raw(const Instruction& ins, const Src& s, uint32_t row) const {
        const uint32_t num = s.num + row;
        if (s.relative && s.type != REG_CONST) invalid(ins, "relative addressing on a non-constant source");
        switch (s.type) {
            case REG_TEMP:
                if (num >= kNumTemps) invalid(ins, "temp register out of range");
                return r[num];
            case REG_INPUT:
                if (num >= kNumInputs) invalid(ins, "input register out of range");
                return v[num];
            case REG_CONST:
                return constant(s.relative ? int64_t{a0} + int64_t{num} : int64_t{num});
            default:
                invalid(ins, "register type " + std::to_string(s.type) + " is not a source");
        }
    }

    // A source as the operation sees it: swizzled, then negated.
    Vec4 read(const Instruction& ins, const Src& s, uint32_t row = 0) const {
        const Vec4 in = raw(ins, s, row);
        Vec4 out{};
        for (int i = 0; i < 4; ++i) {
            out[i] = in[s.component(i)];
            if (s.negate) out[i] = flip_sign(out[i]);
        }
        return out;
    }

    // The scalar source component of rcp/rsq/exp/log/expp/logp: .w of the swizzled source (a
    // replicate swizzle .c makes .w equal to c), or .x with ScalarComponent::X.
    float scalar(const Vec4& s) const { return profile.scalar_component == Profile::ScalarComponent::X ? s[0] : s[3]; }

    void write(const Instruction& ins, const Vec4& value, uint32_t computed_mask) {
        const Dst& d = ins.dst;
        const uint32_t mask = d.mask & computed_mask;
        Vec4* reg = nullptr;
        switch (d.type) {
            case REG_TEMP:
                if (d.num >= kNumTemps) invalid(ins, "temp register out of range");
                reg = &r[d.num];
                break;
            case REG_ADDR:
                if (d.num != 0) invalid(ins, "address register other than a0");
                if (mask & 1u) a0 = ops::a0_from(value[0], profile);
                return;
            case REG_RASTOUT:
                if (d.num == RAST_POS) reg = &pos;
                else if (d.num == RAST_FOG) reg = &fog;
                else if (d.num == RAST_PTS) reg = &pts;
                else invalid(ins, "rasteriser output out of range");
                break;
            case REG_ATTROUT:
                if (d.num == 0) reg = &d0;
                else if (d.num == 1) reg = &d1;
                else invalid(ins, "attribute output out of range");
                break;
            case REG_TEXCRDOUT:
                if (d.num >= kNumTexcoords) invalid(ins, "texture coordinate output out of range");
                reg = &t[d.num];
                break;
            default:
                invalid(ins, "register type " + std::to_string(d.type) + " is not a destination");
        }
        for (int i = 0; i < 4; ++i)
            if (mask & (1u << i)) (*reg)[i] = value[i];
    }

    void step(const Instruction& ins) {
        const auto src = [&](int k) {
            if (k >= ins.nsrc) invalid(ins, "missing source operand");
            return read(ins, ins.src[k]);
        };
        const auto replicate = [](float f) { return Vec4{f, f, f, f}; };
        Vec4 d{};
        uint32_t computed = 0xF;  // components the operation produces
        switch (ins.opcode) {
            case OP_NOP:
                return;
            case OP_MOV:
                d = src(0);
                break;
            case OP_ADD: {
                const Vec4 a = src(0), b = src(1);
                for (int i = 0; i < 4; ++i) d[i] = canon(a[i] + b[i]);
                break;
            }
            case OP_SUB: {
                const Vec4 a = src(0), b = src(1);
                for (int i = 0; i < 4; ++i) d[i] = canon(a[i] - b[i]);
                break;
            }
            case OP_MUL: {
                const Vec4 a = src(0), b = src(1);
                for (int i = 0; i < 4; ++i) d[i] = canon(a[i] * b[i]);
                break;
            }
            case OP_MAD: {
                const Vec4 a = src(0), b = src(1), c2 = src(2);
                for (int i = 0; i < 4; ++i) {
                    const float product = a[i] * b[i];  // rounded to float
                    d[i] = canon(product + c2[i]);      // then the sum rounded (not fused)
                }
                break;
            }
            case OP_DP3:
                d = replicate(ops::dp3(src(0), src(1)));
                break;
            case OP_DP4:
                d = replicate(ops::dp4(src(0), src(1)));
                break;
            case OP_MIN: {
                const Vec4 a = src(0), b = src(1);
                for (int i = 0; i < 4; ++i) d[i] = (a[i] < b[i]) ? a[i] : b[i];
                break;
            }
            case OP_MAX: {
                const Vec4 a = src(0), b = src(1);
                for (int i = 0; i < 4; ++i) d[i] = (a[i] >= b[i]) ? a[i] : b[i];
                break;
            }
            case OP_SLT: {
                const Vec4 a = src(0), b = src(1);
                for (int i = 0; i < 4; ++i) d[i] = (a[i] < b[i]) ? 1.0f : 0.0f;
                break;
            }
            case OP_SGE: {
                const Vec4 a = src(0), b = src(1);
                for (int i = 0; i < 4; ++i) d[i] = (a[i] >= b[i]) ? 1.0f : 0.0f;
                break;
            }
            case OP_RCP:
                d = replicate(ops::rcp(scalar(src(0)), profile));
                break;
            case OP_RSQ:
                d = replicate(ops::rsq(scalar(src(0)), profile));
                break;
            case OP_EXP:
                d = replicate(ops::exp2_full(scalar(src(0))));
                break;
            case OP_LOG:
                d = replicate(ops::log2_full(scalar(src(0))));
                break;
            case OP_EXPP:
                d = ops::expp(scalar(src(0)));
                break;
            case OP_LOGP:
                d = ops::logp(scalar(src(0)), profile);
                break;
            case OP_LIT:
                d = ops::lit(src(0));
                break;
            case OP_DST:
                d = ops::dst(src(0), src(1));
                break;
            case OP_FRC: {
                const Vec4 a = src(0);
                for (int i = 0; i < 4; ++i) d[i] = ops::frc(a[i]);
                break;
            }
            case OP_M4x4:
            case OP_M4x3:
            case OP_M3x4:
            case OP_M3x3:
            case OP_M3x2: {
                const bool four = ins.opcode == OP_M4x4 || ins.opcode == OP_M4x3;  // dp4 (else dp3)
                const int rows = ins.opcode == OP_M4x4 || ins.opcode == OP_M3x4   ? 4
                                 : ins.opcode == OP_M4x3 || ins.opcode == OP_M3x3 ? 3
                                                                                  : 2;
                if (ins.nsrc < 2) invalid(ins, "missing source operand");
                const Vec4 a = src(0);
                computed = 0;
                for (int row = 0; row < rows; ++row) {
                    // Row `row` is src1's register number + row, same type, same relative flag,
                    // same swizzle and negation as src1.
                    const Vec4 m = read(ins, ins.src[1], static_cast<uint32_t>(row));
                    d[row] = four ? ops::dp4(a, m) : ops::dp3(a, m);
                    computed |= 1u << row;
                }
                break;
            }
            default:
                invalid(ins, "opcode " + std::to_string(ins.opcode) + " is not a vs.1.x operation");
        }
        write(ins, d, computed);
    }

    VertexOutputs outputs() const {
        VertexOutputs o;
        o.pos = pos;
        for (int i = 0; i < 4; ++i) {
            o.d0[i] = saturate(d0[i]);
            o.d1[i] = saturate(d1[i]);
        }
        o.fog = saturate(fog[0]);
        o.pts = pts[0];  // not clamped
        o.t = t;
        return o;
    }
};

}  // namespace

bool same_bits(const VertexOutputs& a, const VertexOutputs& b) {
    const auto vec_same = [](const Vec4& x, const Vec4& y) {
        for (int i = 0; i < 4; ++i)
            if (float_bits(x[i]) != float_bits(y[i])) return false;
        return true;
    };
    if (!vec_same(a.pos, b.pos) || !vec_same(a.d0, b.d0) || !vec_same(a.d1, b.d1)) return false;
    if (float_bits(a.fog) != float_bits(b.fog) || float_bits(a.pts) != float_bits(b.pts)) return false;
    for (uint32_t i = 0; i < kNumTexcoords; ++i)
        if (!vec_same(a.t[i], b.t[i])) return false;
    return true;
}

bool same_bits(const Constants& a, const Constants& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec4)) == 0);
}

VertexOutputs execute_reference(const Program& p, const Profile& profile, const std::array<Vec4, kNumInputs>& inputs,
                                const Constants& constants) {
    Machine m(profile, inputs, constants);
    for (const Instruction& ins : p.code) m.step(ins);
    return m.outputs();
}

namespace ops {

float rcp(float f, const Profile& p) {
    if (f == 1.0f) return 1.0f;
    if (f == 0.0f) return zero_recip(p);  // +0 and -0
    return canon(1.0f / f);
}

float rsq(float f, const Profile& p) {
    f = std::fabs(f);
    if (f == 1.0f) return 1.0f;
    if (f == 0.0f) return zero_recip(p);
    const float root = std::sqrt(f);  // correctly rounded float square root
    return canon(1.0f / root);        // then a correctly rounded float division
}

float exp2_full(float f) { return canon(std::exp2(f)); }  // libm's exp2f

float log2_full(float f) {
    f = std::fabs(f);
    if (f == 0.0f) return -std::numeric_limits<float>::infinity();
    return canon(std::log2(f));  // libm's log2f
}

Vec4 expp(float v) {
    const float fl = std::floor(v);
    return canon(Vec4{pow2_integral(fl), v - fl, clear_low8(std::exp2(v)), 1.0f});
}

Vec4 logp(float f, const Profile& p) {
    f = std::fabs(f);  // clears the sign bit (of NaN too)
    Vec4 d;
    if (f == 0.0f) {
        const float ninf = -std::numeric_limits<float>::infinity();
        d = Vec4{ninf, 1.0f, ninf, 1.0f};
    } else {
        // The IEEE fields as the DX8 reference code reads them: exponent field - 127 (so a
        // denormal gives -127 and inf/NaN give 128), mantissa bits under exponent 0 (a value in
        // [1,2); a denormal's bits are not renormalised).
        const uint32_t u = float_bits(f);
        const int exponent = static_cast<int>(u >> 23) - 127;
        d = Vec4{static_cast<float>(exponent), bits_float((u & 0x007FFFFFu) | 0x3F800000u), clear_low8(std::log2(f)),
                 1.0f};
    }
    d[2] = canon(d[2]);  // x and y are never NaN
    if (p.logp_replicate) d = Vec4{d[2], d[2], d[2], d[2]};
    return d;
}

Vec4 lit(const Vec4& s) {
    const float power = clamp_lit_power(s[3]);
    Vec4 d{1.0f, 0.0f, 0.0f, 1.0f};
    if (s[0] > 0.0f) {
        d[1] = s[0];
        if (s[1] > 0.0f)  // as the DX8 reference code: double pow of the float operands, rounded to float
            d[2] = canon(static_cast<float>(std::pow(static_cast<double>(s[1]), static_cast<double>(power))));
    }
    return d;
}

// z and w are copies of source components: their bits move unchanged, as with mov.
Vec4 dst(const Vec4& s0, const Vec4& s1) { return Vec4{1.0f, canon(s0[1] * s1[1]), s0[2], s1[3]}; }

float dp3(const Vec4& a, const Vec4& b) {
    float sum = a[0] * b[0];
    sum = sum + a[1] * b[1];
    sum = sum + a[2] * b[2];
    return canon(sum);
}

float dp4(const Vec4& a, const Vec4& b) {
    float sum = a[0] * b[0];
    sum = sum + a[1] * b[1];
    sum = sum + a[2] * b[2];
    sum = sum + a[3] * b[3];
    return canon(sum);
}

float frc(float f) { return canon(f - std::floor(f)); }

int32_t a0_from(float f, const Profile& p) {
    if (std::isnan(f)) return std::numeric_limits<int32_t>::min();
    // Floor (vs.1.1 mov a0.x) or round half away from zero (DX9 mova's "round to nearest").
    const float n = p.a0 == Profile::A0Rounding::Round ? std::round(f) : std::floor(f);
    // Saturate to int32 (2^31 is exactly representable; every float >= it saturates).
    if (n >= 2147483648.0f) return std::numeric_limits<int32_t>::max();
    if (n < -2147483648.0f) return std::numeric_limits<int32_t>::min();
    return static_cast<int32_t>(n);
}

}  // namespace ops

}  // namespace vpsim::vs
