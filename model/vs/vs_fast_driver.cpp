// The fast path's driver (vs_fast_driver.h).
#include "model/vs/vs_fast_driver.h"
#include "model/common/float_bits.h"

namespace vpsim::vs::fast {

Work::Work(const FastShader& fs, const Constants& constants) {
    mem.reset(new float[size_t(fs.num_slots) * B + 16]);
    float* base = mem.get();
    const uintptr_t mis = reinterpret_cast<uintptr_t>(base) & 63u;
    if (mis) base += (64u - mis) / sizeof(float);
    a0.reset(new int32_t[B]);
    uni.resize(fs.uniforms.size());
    const int64_t limit = std::min<int64_t>(fs.profile.const_count, int64_t(constants.size()));
    for (size_t i = 0; i < fs.uniforms.size(); ++i) {
        const FastShader::Uniform& u = fs.uniforms[i];
        if (u.immediate) {
            uni[i] = bits_float(u.bits);
            continue;
        }
        // As the interpreter's constant(): outside 0..const_count-1 or the vector reads 0.
        float f = int64_t(u.reg) < limit ? constants[u.reg][u.comp] : 0.0f;
        if (u.negate) f = bits_float(float_bits(f) ^ 0x80000000u);
        uni[i] = f;
    }
    ctx.slots = base;
    ctx.a0 = a0.get();
    ctx.uni = uni.data();
    ctx.consts = &constants;
    ctx.const_limit = limit;
    ctx.profile = &fs.profile;
}

}  // namespace vpsim::vs::fast

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace vpsim::vs::fast {

namespace {

// What fused_transform needs: the element's 16-byte lanes or constants for the source's
// components, the rows.
struct TransformPlan {
    const FetchElement* e = nullptr;
    int lane[4] = {-1, -1, -1, -1};  // source component k = lane k of the loaded 16 bytes, or
    float konst[4] = {};             // (lane -1) this constant
    int k = 0;                       // 3 (DP3 rows) or 4 (DP4)
    bool negate = false;
    const float* rows = nullptr;     // 4 rows of 4 uniforms
};

// Whether the program alone qualifies: one MATVEC of 4 rows, no uniform source, its rows the only
// output register's 4 components in record order (m4x4 and dp4 written out). Checked before the
// call's storage and fetch plan are built, so a program it does not take costs nothing more.
bool transform_program(const FastShader& fs) {
    if (fs.ops.size() != 1 || fs.packed_stride != 4) return false;
    const FastShader::MicroOp& m = fs.ops[0];
    if ((m.code != FastShader::MATVEC3 && m.code != FastShader::MATVEC4) || m.comp != 4) return false;
    for (int k = 0; k < (m.code == FastShader::MATVEC4 ? 4 : 3); ++k)
        if (m.src[size_t(k)].kind == FastShader::OPND_UNI) return false;
    unsigned reg = 0;
    while (reg < kNumFastOutRegs && !(fs.outputs_written >> reg & 1u)) ++reg;
    if (reg >= kNumFastOutRegs || fast_out_width(reg) != 4) return false;
    for (int c = 0; c < 4; ++c) {
        int row = -1;
        for (int r = 0; r < 4; ++r)
            if (fs.output_slot[reg][size_t(c)] == m.dst[size_t(r)]) row = r;
        if (row != c) return false;
    }
    return true;
}

// The source's components in the fetch plan of a program transform_program takes.
bool plan_transform(const FastShader& fs, const Work& w, const FetchPlan& plan, TransformPlan& t) {
    if (plan.elements.size() != 1) return false;
    const FastShader::MicroOp& m = fs.ops[0];
    const FetchElement& e = plan.elements[0];
    if (e.type != decl::D3DVSDT_FLOAT2 && e.type != decl::D3DVSDT_FLOAT3 && e.type != decl::D3DVSDT_FLOAT4)
        return false;
    t.e = &e;
    t.k = m.code == FastShader::MATVEC4 ? 4 : 3;
    t.negate = m.src[0].kind == FastShader::OPND_NEG;
    for (int k = 0; k < t.k; ++k) {
        const float* s = w.ctx.slot(m.src[size_t(k)].index);
        bool found = false;
        for (int c = 0; c < 4 && !found; ++c)
            if (e.dst[size_t(c)] == s) t.lane[k] = c, found = true;
        for (const auto& [slot, v] : plan.constants)
            if (!found && slot == s) t.konst[k] = v, found = true;
        if (!found) return false;
    }
    t.rows = w.ctx.uni + m.reg;
    return true;
}

#if defined(__SSE2__)
// Vertices 0 .. n-1 (n a multiple of 4, each 16 bytes readable) of t: each row summed exactly as
// KMatVec sums it (source component times row component, left to right, each step rounded,
// canonical NaN), 4 vertices per instruction. K: components per row; NL: source components
// 0 .. NL-1 are lanes 0 .. NL-1 of the loaded bytes, the others constants (fixed at compile time
// so that everything stays in registers).
template <int K, int NL>
void transform4(const TransformPlan& t, const uint8_t* base, size_t stride, size_t n, float* out) {
    __m128 row[4][K];
    for (int r = 0; r < 4; ++r)
        for (int k = 0; k < K; ++k) row[r][k] = _mm_set1_ps(t.rows[4 * r + k]);
    const __m128 sign = _mm_castsi128_ps(_mm_set1_epi32(t.negate ? int(0x80000000u) : 0));
    const __m128 qnan = _mm_castsi128_ps(_mm_set1_epi32(0x7FC00000));
    __m128 konst[4];
    for (int k = 0; k < 4; ++k) konst[k] = _mm_xor_ps(_mm_set1_ps(t.konst[k]), sign);
    for (size_t i = 0; i < n; i += 4) {
        const uint8_t* p = base + i * stride;
        __m128 l0 = _mm_loadu_ps(reinterpret_cast<const float*>(p));
        __m128 l1 = _mm_loadu_ps(reinterpret_cast<const float*>(p + stride));
        __m128 l2 = _mm_loadu_ps(reinterpret_cast<const float*>(p + 2 * stride));
        __m128 l3 = _mm_loadu_ps(reinterpret_cast<const float*>(p + 3 * stride));
        _MM_TRANSPOSE4_PS(l0, l1, l2, l3);
        const __m128 x[4] = {_mm_xor_ps(l0, sign), _mm_xor_ps(l1, sign), NL > 2 ? _mm_xor_ps(l2, sign) : konst[2],
                             NL > 3 ? _mm_xor_ps(l3, sign) : konst[3]};
        __m128 o[4];
        for (int r = 0; r < 4; ++r) {
            __m128 s = _mm_mul_ps(x[0], row[r][0]);
            for (int k = 1; k < K; ++k) s = _mm_add_ps(s, _mm_mul_ps(x[k], row[r][k]));
            const __m128 nan = _mm_cmpunord_ps(s, s);
            o[r] = _mm_or_ps(_mm_and_ps(nan, qnan), _mm_andnot_ps(nan, s));
        }
        _MM_TRANSPOSE4_PS(o[0], o[1], o[2], o[3]);
        float* rec = out + 4 * i;
        for (int v = 0; v < 4; ++v) _mm_storeu_ps(rec + 4 * v, o[v]);
    }
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VPSIM_FUSED_AVX2 1
// The same with AVX2 (no FMA: the same mulps/addps, hence the same bits), 8 vertices per
// instruction: vertices i..i+3 in the low 128-bit lane, i+4..i+7 in the high one, each lane
// transposed as in transform4.
#define VPSIM_TRANSPOSE8(a, b, c, d)                                                  \
    do {                                                                             \
        const __m256 t0 = _mm256_unpacklo_ps(a, b), t1 = _mm256_unpacklo_ps(c, d);   \
        const __m256 t2 = _mm256_unpackhi_ps(a, b), t3 = _mm256_unpackhi_ps(c, d);   \
        a = _mm256_shuffle_ps(t0, t1, 0x44);                                          \
        b = _mm256_shuffle_ps(t0, t1, 0xEE);                                          \
        c = _mm256_shuffle_ps(t2, t3, 0x44);                                          \
        d = _mm256_shuffle_ps(t2, t3, 0xEE);                                          \
    } while (0)
template <int K, int NL>
__attribute__((target("avx2"))) void transform8(const TransformPlan& t, const uint8_t* base, size_t stride, size_t n,
                                                 float* out) {
    __m256 row[4][K];
    for (int r = 0; r < 4; ++r)
        for (int k = 0; k < K; ++k) row[r][k] = _mm256_set1_ps(t.rows[4 * r + k]);
    const __m256 sign = _mm256_castsi256_ps(_mm256_set1_epi32(t.negate ? int(0x80000000u) : 0));
    const __m256 qnan = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FC00000));
    __m256 konst[4];
    for (int k = 0; k < 4; ++k) konst[k] = _mm256_xor_ps(_mm256_set1_ps(t.konst[k]), sign);
#define VPSIM_LOAD8(q)                                                                                     \
    _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(reinterpret_cast<const float*>(q))),           \
                         _mm_loadu_ps(reinterpret_cast<const float*>((q) + 4 * stride)), 1)
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const uint8_t* p = base + i * stride;
        __m256 l0 = VPSIM_LOAD8(p), l1 = VPSIM_LOAD8(p + stride), l2 = VPSIM_LOAD8(p + 2 * stride),
               l3 = VPSIM_LOAD8(p + 3 * stride);
        VPSIM_TRANSPOSE8(l0, l1, l2, l3);
        const __m256 x[4] = {_mm256_xor_ps(l0, sign), _mm256_xor_ps(l1, sign),
                             NL > 2 ? _mm256_xor_ps(l2, sign) : konst[2], NL > 3 ? _mm256_xor_ps(l3, sign) : konst[3]};
        __m256 o[4];
        for (int r = 0; r < 4; ++r) {
            __m256 s = _mm256_mul_ps(x[0], row[r][0]);
            for (int k = 1; k < K; ++k) s = _mm256_add_ps(s, _mm256_mul_ps(x[k], row[r][k]));
            o[r] = _mm256_blendv_ps(s, qnan, _mm256_cmp_ps(s, s, _CMP_UNORD_Q));
        }
        VPSIM_TRANSPOSE8(o[0], o[1], o[2], o[3]);
        float* rec = out + 4 * i;
        // o[v] = records of vertices i+v (low lane) and i+4+v (high): two records per store.
        _mm256_storeu_ps(rec, _mm256_permute2f128_ps(o[0], o[1], 0x20));
        _mm256_storeu_ps(rec + 8, _mm256_permute2f128_ps(o[2], o[3], 0x20));
        _mm256_storeu_ps(rec + 16, _mm256_permute2f128_ps(o[0], o[1], 0x31));
        _mm256_storeu_ps(rec + 24, _mm256_permute2f128_ps(o[2], o[3], 0x31));
    }
    if (i < n) transform4<K, NL>(t, base + i * stride, stride, n - i, out + 4 * i);
}
#undef VPSIM_TRANSPOSE8
#undef VPSIM_LOAD8
#endif

template <int K, int NL>
void transform_isa(const TransformPlan& t, bool avx2, const uint8_t* base, size_t stride, size_t n, float* out) {
#ifdef VPSIM_FUSED_AVX2
    if (avx2) return transform8<K, NL>(t, base, stride, n, out);
#endif
    (void)avx2;
    transform4<K, NL>(t, base, stride, n, out);
}

void transform_for(const TransformPlan& t, int nl, bool avx2, const uint8_t* base, size_t stride, size_t n,
                    float* out) {
    if (t.k == 3) {
        if (nl == 2) transform_isa<3, 2>(t, avx2, base, stride, n, out);
        else transform_isa<3, 3>(t, avx2, base, stride, n, out);
    } else {
        if (nl == 2) transform_isa<4, 2>(t, avx2, base, stride, n, out);
        else if (nl == 3) transform_isa<4, 3>(t, avx2, base, stride, n, out);
        else transform_isa<4, 4>(t, avx2, base, stride, n, out);
    }
}
#endif

}  // namespace

size_t fused_transform(const FastShader& fs, const decl::Declaration& d, const Streams& streams,
                       const Constants& constants, uint32_t first, uint32_t count, float* out) {
#if defined(__SSE2__)
    if (count < 4 || !transform_program(fs)) return 0;
    Work w(fs, constants);
    const FetchPlan plan = plan_fetch(fs, w.ctx, d, streams, first, count);
    TransformPlan t;
    if (!plan_transform(fs, w, plan, t)) return 0;
    // Vertices whose 16 bytes from the element's start lie in the buffer, and that can be fetched.
    const uint64_t end = std::min(plan.valid_end, t.e->wide_end);
    const size_t n = end > first ? size_t(end - first) & ~size_t(3) : 0;
    const uint8_t* base = t.e->data + uint64_t(first) * t.e->stride;
    int nl = 0;  // source components 0 .. nl-1 are lanes 0 .. nl-1, the others constants
    while (nl < t.k && t.lane[nl] == nl) ++nl;
    for (int k = nl; k < t.k; ++k)
        if (t.lane[k] >= 0) return 0;
    if (nl < 2) return 0;
    transform_for(t, nl, isa_setting().load(std::memory_order_relaxed) == FastIsa::Avx2, base, t.e->stride, n, out);
    return n;
#else
    (void)fs, (void)d, (void)streams, (void)constants, (void)first, (void)count, (void)out;
    return 0;
#endif
}

}  // namespace vpsim::vs::fast
