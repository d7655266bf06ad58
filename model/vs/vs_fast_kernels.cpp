// The arithmetic kernels of the fast functional path (vs_fast_kernels.h). Every micro-operation
// computes, per vertex, exactly the expression the interpreter (vs_interp.cpp) computes for that
// component, written the same way: the same operand order, one rounding per operation
// (-ffp-contract=off for the whole project), a NaN result of arithmetic replaced by the canonical
// 0x7FC00000, negation as a sign flip, the comparisons of min/max/slt/sge/saturate spelled
// identically, and ops:: for everything that is not a single IEEE operation or a select.
#include "model/vs/vs_fast_kernels.h"

#include <cmath>
#include <cstdlib>
#include <type_traits>
#include <cstring>

namespace vpsim::vs::fast {

using Opnd = FastShader::Opnd;
using MicroOp = FastShader::MicroOp;

namespace {

// ===================================================================================== kernels
//
// Each kernel is a plain loop over the n vertices of a batch. Destinations never alias sources
// (the slot allocator guarantees it), hence __restrict. An operand is read through a loader of
// its kind (slot, negated slot, uniform), and every combination of kinds is its own
// instantiation, so that a uniform is a register, not a load. Everything here is always_inline:
// run_op_body is compiled once per instruction set (run_op_baseline, run_op_avx2) and every loop
// must be compiled inside it to get that set's vectors.

struct LdV {
    const float* __restrict p;
    VPSIM_INLINE float operator()(size_t i) const { return p[i]; }
};
struct LdN {
    const float* __restrict p;
    VPSIM_INLINE float operator()(size_t i) const { return -p[i]; }  // a sign flip (xorps), also of 0 and NaN
};
struct LdU {
    float v;
    VPSIM_INLINE float operator()(size_t) const { return v; }
};
// A dot product source: 4 loaders of one kind.
template <class L>
struct Src4 {
    L c[4];
};

// Calls f(loader_0, ..., loader_{N-1}) for operands o[0..N-1], each loader of its operand's kind.
template <int N, class F, class... L>
VPSIM_INLINE void dispatch(const Ctx& c, const Opnd* o, const F& f, L... l) {
    if constexpr (sizeof...(L) == size_t(N)) {
        f(l...);
    } else {
        const Opnd x = o[sizeof...(L)];
        switch (x.kind) {
            case FastShader::OPND_SLOT: dispatch<N>(c, o, f, l..., LdV{c.slot(x.index)}); break;
            case FastShader::OPND_NEG: dispatch<N>(c, o, f, l..., LdN{c.slot(x.index)}); break;
            default: dispatch<N>(c, o, f, l..., LdU{c.uni[x.index]}); break;
        }
    }
}
// The same for the two 4-component sources of a dot product (o[0..3] and o[4..7]; compile_fast
// gives each source's components one kind).
template <class F, class... S>
VPSIM_INLINE void dispatch_dot(const Ctx& c, const Opnd* o, const F& f, S... s) {
    if constexpr (sizeof...(S) == 2) {
        f(s...);
    } else {
        const Opnd* x = o + 4 * sizeof...(S);
        switch (x[0].kind) {
            case FastShader::OPND_SLOT:
                dispatch_dot(c, o, f, s...,
                             Src4<LdV>{{LdV{c.slot(x[0].index)}, LdV{c.slot(x[1].index)}, LdV{c.slot(x[2].index)},
                                        LdV{c.slot(x[3].index)}}});
                break;
            case FastShader::OPND_NEG:
                dispatch_dot(c, o, f, s...,
                             Src4<LdN>{{LdN{c.slot(x[0].index)}, LdN{c.slot(x[1].index)}, LdN{c.slot(x[2].index)},
                                        LdN{c.slot(x[3].index)}}});
                break;
            default:
                dispatch_dot(c, o, f, s...,
                             Src4<LdU>{{LdU{c.uni[x[0].index]}, LdU{c.uni[x[1].index]}, LdU{c.uni[x[2].index]},
                                        LdU{c.uni[x[3].index]}}});
                break;
        }
    }
}

// NaN results of arithmetic are the canonical quiet NaN (docs/vs-semantics.md): which operand's
// payload an addss/mulss propagates depends on the operand order the compiler picks. Written as
// a compare and a select so that the loops stay vectorised (cmpunordps + blend).
VPSIM_INLINE float canon(float f) {
    const float qnan = __builtin_bit_cast(float, 0x7FC00000u);
    return f != f ? qnan : f;
}

// The per-component operations, each exactly the interpreter's expression.
struct OpAdd { static VPSIM_INLINE float f(float a, float b) { return canon(a + b); } };
struct OpSub { static VPSIM_INLINE float f(float a, float b) { return canon(a - b); } };
struct OpMul { static VPSIM_INLINE float f(float a, float b) { return canon(a * b); } };
struct OpMin { static VPSIM_INLINE float f(float a, float b) { return (a < b) ? a : b; } };
struct OpMax { static VPSIM_INLINE float f(float a, float b) { return (a >= b) ? a : b; } };
struct OpSlt { static VPSIM_INLINE float f(float a, float b) { return (a < b) ? 1.0f : 0.0f; } };
struct OpSge { static VPSIM_INLINE float f(float a, float b) { return (a >= b) ? 1.0f : 0.0f; } };
struct OpMove { VPSIM_INLINE float operator()(float a) const { return a; } };
struct OpSat {  // oD0/oD1/oFog: NaN -> +0, -0 -> +0, as the interpreter
    VPSIM_INLINE float operator()(float f) const { return f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f; }
};
struct OpLitY { VPSIM_INLINE float operator()(float x) const { return x > 0.0f ? x : 0.0f; } };
// Per vertex through ops:: (not vectorisable; the same function calls as the interpreter).
struct OpRcp { const Profile* p; VPSIM_INLINE float operator()(float f) const { return ops::rcp(f, *p); } };
struct OpRsq { const Profile* p; VPSIM_INLINE float operator()(float f) const { return ops::rsq(f, *p); } };
struct OpExp { VPSIM_INLINE float operator()(float f) const { return ops::exp2_full(f); } };
struct OpLog { VPSIM_INLINE float operator()(float f) const { return ops::log2_full(f); } };
struct OpFrc { VPSIM_INLINE float operator()(float f) const { return ops::frc(f); } };

template <class Op>
struct KBinary {
    float* __restrict d;
    size_t n;
    template <class A, class Bx>
    VPSIM_INLINE void operator()(A a, Bx b) const {
        for (size_t i = 0; i < n; ++i) d[i] = Op::f(a(i), b(i));
    }
};
struct KMad {
    float* __restrict d;
    size_t n;
    template <class A, class Bx, class C>
    VPSIM_INLINE void operator()(A a, Bx b, C c) const {
        for (size_t i = 0; i < n; ++i) {
            const float product = a(i) * b(i);  // rounded to float
            d[i] = canon(product + c(i));       // then the sum (not fused: -ffp-contract=off)
        }
    }
};
template <class Op>
struct KUnary {
    float* __restrict d;
    size_t n;
    Op op;
    template <class A>
    VPSIM_INLINE void operator()(A a) const {
        for (size_t i = 0; i < n; ++i) d[i] = op(a(i));
    }
};
struct KDp3 {
    float* __restrict d;
    size_t n;
    template <class A, class Bx>
    VPSIM_INLINE void operator()(Src4<A> a, Src4<Bx> b) const {
        for (size_t i = 0; i < n; ++i) {
            float sum = a.c[0](i) * b.c[0](i);  // as ops::dp3: left to right, each step rounded
            sum = sum + a.c[1](i) * b.c[1](i);
            sum = sum + a.c[2](i) * b.c[2](i);
            d[i] = canon(sum);
        }
    }
};
struct KDp4 {
    float* __restrict d;
    size_t n;
    template <class A, class Bx>
    VPSIM_INLINE void operator()(Src4<A> a, Src4<Bx> b) const {
        for (size_t i = 0; i < n; ++i) {
            float sum = a.c[0](i) * b.c[0](i);  // as ops::dp4
            sum = sum + a.c[1](i) * b.c[1](i);
            sum = sum + a.c[2](i) * b.c[2](i);
            sum = sum + a.c[3](i) * b.c[3](i);
            d[i] = canon(sum);
        }
    }
};
// R dot products (MATVEC3/4) of one K-component source with uniform rows u[4*r .. 4*r+K-1]:
// each row's sum exactly as KDp3/KDp4 (source component times row component, left to right,
// each step rounded, canonical NaN), the source read once per vertex.
template <int K, int R>
struct KMatVec {
    float* __restrict d[R];
    size_t n;
    const float* u;
    template <class A>
    VPSIM_INLINE void operator()(Src4<A> a) const {
        float m[R][K];
        for (int r = 0; r < R; ++r)
            for (int k = 0; k < K; ++k) m[r][k] = u[4 * r + k];
        float* __restrict d0 = d[0];
        float* __restrict d1 = d[1];
        float* __restrict d2 = R > 2 ? d[2] : nullptr;
        float* __restrict d3 = R > 3 ? d[3] : nullptr;
        // The destinations never alias the source slots (the slot allocator), but with R + K
        // pointers GCC gives up its run-time overlap checks and the loop would stay scalar.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC ivdep
#endif
        for (size_t i = 0; i < n; ++i) {
            float x[K];
            for (int k = 0; k < K; ++k) x[k] = a.c[k](i);
            float out[R];
            for (int r = 0; r < R; ++r) {
                float sum = x[0] * m[r][0];
                for (int k = 1; k < K; ++k) sum = sum + x[k] * m[r][k];
                out[r] = canon(sum);
            }
            d0[i] = out[0];
            d1[i] = out[1];
            if constexpr (R > 2) d2[i] = out[2];
            if constexpr (R > 3) d3[i] = out[3];
        }
    }
};

template <int K, int R>
VPSIM_INLINE void run_matvec(const MicroOp& m, Ctx& c, size_t n) {
    KMatVec<K, R> k{{}, n, c.uni + m.reg};
    for (int r = 0; r < R; ++r) k.d[r] = c.slot(m.dst[size_t(r)]);
    const Opnd* o = m.src.data();
    if (o[0].kind == FastShader::OPND_NEG)
        k(Src4<LdN>{{LdN{c.slot(o[0].index)}, LdN{c.slot(o[1].index)}, LdN{c.slot(o[2].index)},
                     LdN{c.slot(o[K - 1].index)}}});
    else
        k(Src4<LdV>{{LdV{c.slot(o[0].index)}, LdV{c.slot(o[1].index)}, LdV{c.slot(o[2].index)},
                     LdV{c.slot(o[K - 1].index)}}});
}
template <int K>
VPSIM_INLINE void run_matvec_rows(const MicroOp& m, Ctx& c, size_t n) {
    switch (m.comp) {
        case 2: run_matvec<K, 2>(m, c, n); break;
        case 3: run_matvec<K, 3>(m, c, n); break;
        default: run_matvec<K, 4>(m, c, n); break;
    }
}

struct KExppLogp {
    float* ds[4];
    size_t n;
    bool expp;
    const Profile* p;
    template <class A>
    VPSIM_INLINE void operator()(A a) const {
        for (size_t i = 0; i < n; ++i) {
            const Vec4 r = expp ? ops::expp(a(i)) : ops::logp(a(i), *p);
            for (int k = 0; k < 4; ++k)
                if (ds[k]) ds[k][i] = r[size_t(k)];
        }
    }
};
struct KLitZ {
    float* __restrict d;
    size_t n;
    template <class X, class Y, class W>
    VPSIM_INLINE void operator()(X x, Y y, W w) const {
        if constexpr (std::is_same_v<W, LdU>) {
            // A uniform power (the usual `mov r0.w, cN.w`): ops::lit's z, written out with the
            // power clamped once: 0 unless x > 0 and y > 0, then the double pow of the float
            // operands rounded to float, canonical NaN (vs_interp.cpp, ops::lit).
            const float power = ops::clamp_lit_power(w(0));
            for (size_t i = 0; i < n; ++i) {
                const float xi = x(i), yi = y(i);
                float z = 0.0f;
                if (xi > 0.0f && yi > 0.0f)
                    z = canon(static_cast<float>(std::pow(static_cast<double>(yi), static_cast<double>(power))));
                d[i] = z;
            }
        } else {
            for (size_t i = 0; i < n; ++i) d[i] = ops::lit(Vec4{x(i), y(i), 0.0f, w(i)})[2];  // lit ignores s.z
        }
    }
};
struct KA0 {
    int32_t* a0;
    size_t n;
    const Profile* p;
    template <class A>
    VPSIM_INLINE void operator()(A a) const {
        for (size_t i = 0; i < n; ++i) a0[i] = ops::a0_from(a(i), *p);
    }
};

VPSIM_INLINE void run_op_body(const MicroOp& m, Ctx& c, size_t n) {
    using FS = FastShader;
    float* d = m.dst[0] == FS::kNoSlot ? nullptr : c.slot(m.dst[0]);
    const Profile* prof = c.profile;
    const Opnd* o = m.src.data();
    switch (m.code) {
        case FS::ADD: dispatch<2>(c, o, KBinary<OpAdd>{d, n}); break;
        case FS::SUB: dispatch<2>(c, o, KBinary<OpSub>{d, n}); break;
        case FS::MUL: dispatch<2>(c, o, KBinary<OpMul>{d, n}); break;
        case FS::MIN: dispatch<2>(c, o, KBinary<OpMin>{d, n}); break;
        case FS::MAX: dispatch<2>(c, o, KBinary<OpMax>{d, n}); break;
        case FS::SLT: dispatch<2>(c, o, KBinary<OpSlt>{d, n}); break;
        case FS::SGE: dispatch<2>(c, o, KBinary<OpSge>{d, n}); break;
        case FS::MAD: dispatch<3>(c, o, KMad{d, n}); break;
        case FS::DP3: dispatch_dot(c, o, KDp3{d, n}); break;
        case FS::DP4: dispatch_dot(c, o, KDp4{d, n}); break;
        case FS::MATVEC3: run_matvec_rows<3>(m, c, n); break;
        case FS::MATVEC4: run_matvec_rows<4>(m, c, n); break;
        case FS::MOVE: dispatch<1>(c, o, KUnary<OpMove>{d, n, {}}); break;
        case FS::SAT: dispatch<1>(c, o, KUnary<OpSat>{d, n, {}}); break;
        case FS::LIT_Y: dispatch<1>(c, o, KUnary<OpLitY>{d, n, {}}); break;
        case FS::RCP: dispatch<1>(c, o, KUnary<OpRcp>{d, n, {prof}}); break;
        case FS::RSQ: dispatch<1>(c, o, KUnary<OpRsq>{d, n, {prof}}); break;
        case FS::EXP: dispatch<1>(c, o, KUnary<OpExp>{d, n, {}}); break;
        case FS::LOG: dispatch<1>(c, o, KUnary<OpLog>{d, n, {}}); break;
        case FS::FRC: dispatch<1>(c, o, KUnary<OpFrc>{d, n, {}}); break;
        case FS::EXPP:
        case FS::LOGP: {
            KExppLogp k{{}, n, m.code == FS::EXPP, prof};
            for (int i = 0; i < 4; ++i) k.ds[i] = m.dst[size_t(i)] == FS::kNoSlot ? nullptr : c.slot(m.dst[size_t(i)]);
            dispatch<1>(c, o, k);
            break;
        }
        case FS::LIT_Z: dispatch<3>(c, o, KLitZ{d, n}); break;
        case FS::A0: dispatch<1>(c, o, KA0{c.a0, n, prof}); break;
        case FS::A0_ZERO:
            for (size_t i = 0; i < n; ++i) c.a0[i] = 0;
            break;
        case FS::GATHER: {
            const Vec4* k = c.consts->data();
            const int64_t limit = c.const_limit, reg = int64_t(m.reg);
            const size_t comp = m.comp;
            for (size_t i = 0; i < n; ++i) {
                const int64_t idx = int64_t(c.a0[i]) + reg;
                d[i] = (idx >= 0 && idx < limit) ? k[idx][comp] : 0.0f;
            }
            break;
        }
    }
}

// Baseline x86-64 (SSE2) and AVX2 without FMA: the same IEEE single operations in the same
// order, hence the same bits (-ffp-contract=off forbids contraction, and the avx2 target does not
// enable FMA). The AVX2 copy is chosen at run time when the CPU has it (see FastIsa).
__attribute__((flatten)) void run_op_baseline(const MicroOp& m, Ctx& c, size_t n) { run_op_body(m, c, n); }
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VPSIM_FAST_AVX2 1
__attribute__((flatten, target("avx2"))) void run_op_avx2(const MicroOp& m, Ctx& c, size_t n) {
    run_op_body(m, c, n);
}
#endif

FastIsa initial_isa() {
    const char* e = std::getenv("VPSIM_FAST_ISA");
    if (e && std::strcmp(e, "baseline") == 0) return FastIsa::Baseline;
    return cpu_has_avx2() ? FastIsa::Avx2 : FastIsa::Baseline;
}

}  // namespace

bool cpu_has_avx2() {
#ifdef VPSIM_FAST_AVX2
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

std::atomic<FastIsa>& isa_setting() {
    static std::atomic<FastIsa> isa{initial_isa()};
    return isa;
}

RunOp run_op_for(FastIsa isa) {
#ifdef VPSIM_FAST_AVX2
    if (isa == FastIsa::Avx2) return run_op_avx2;
#endif
    (void)isa;
    return run_op_baseline;
}

}  // namespace vpsim::vs::fast
