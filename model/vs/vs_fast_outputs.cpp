// The fast path's output stores (vs_fast_outputs.h).
#include "model/vs/vs_fast_outputs.h"

#if defined(__SSE2__)
#include <emmintrin.h>  // loads, stores and shuffles only: bits move unchanged
#endif

namespace vpsim::vs::fast {

float* field(VertexOutputs& o, unsigned reg) {
    switch (reg) {
        case FOUT_POS: return o.pos.data();
        case FOUT_D0: return o.d0.data();
        case FOUT_D1: return o.d1.data();
        case FOUT_FOG: return &o.fog;
        case FOUT_PTS: return &o.pts;
        default: return o.t[reg - FOUT_T0].data();
    }
}

VertexOutputs default_outputs(const Profile& p) {
    VertexOutputs o;  // all zero
    if (p.outputs == Profile::OutputDefaults::D3D8) {
        o.d0 = {1.0f, 1.0f, 1.0f, 1.0f};  // saturate() leaves 0 and 1 unchanged
        o.d1 = {0.0f, 0.0f, 0.0f, 1.0f};
    }
    return o;
}

void store_outputs(const FastShader& fs, const Ctx& c, const VertexOutputs& def, VertexOutputs* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = def;
    for (unsigned reg = 0; reg < kNumFastOutRegs; ++reg) {
        if (!(fs.outputs_written >> reg & 1u)) continue;
        for (unsigned k = 0; k < fast_out_width(reg); ++k) {
            const float* s = c.slot(fs.output_slot[reg][k]);
            for (size_t i = 0; i < n; ++i) field(out[i], reg)[k] = s[i];
        }
    }
}

namespace {

#if defined(__SSE2__)
template <bool Streaming>
VPSIM_INLINE void store4(float* p, __m128 v) {
    if constexpr (Streaming) _mm_stream_ps(p, v);
    else _mm_storeu_ps(p, v);
}
#endif

// Records of vertices [i, n): the 4-wide registers src[r] at record offsets off[r], r < nr. NR > 0
// fixes the register count at compile time (the loops unroll, the transposes stay in registers).
template <bool Streaming, int NR>
VPSIM_INLINE void store_records(float* out, size_t stride, const float* const (*src)[4], const size_t* off, size_t nr,
                                size_t n) {
    const size_t cnt = NR > 0 ? size_t(NR) : nr;
    size_t i = 0;
#if defined(__SSE2__)
    // 4 vertices at a time: each register SoA -> AoS by a 4x4 transpose, then the records written
    // one after the other (whole cache lines for the non-temporal stores).
    for (; i + 4 <= n; i += 4) {
        __m128 t[NR > 0 ? NR : kNumFastOutRegs][4];
        for (size_t r = 0; r < cnt; ++r) {
            __m128 vx = _mm_load_ps(src[r][0] + i), vy = _mm_load_ps(src[r][1] + i),
                   vz = _mm_load_ps(src[r][2] + i), vw = _mm_load_ps(src[r][3] + i);
            _MM_TRANSPOSE4_PS(vx, vy, vz, vw);
            t[r][0] = vx;
            t[r][1] = vy;
            t[r][2] = vz;
            t[r][3] = vw;
        }
        float* rec = out + i * stride;
        for (size_t v = 0; v < 4; ++v, rec += stride)
            for (size_t r = 0; r < cnt; ++r) store4<Streaming>(rec + off[r], t[r][v]);
    }
#endif
    for (; i < n; ++i) {
        float* rec = out + i * stride;
        for (size_t r = 0; r < cnt; ++r)
            for (size_t k = 0; k < 4; ++k) rec[off[r] + k] = src[r][k][i];
    }
}

}  // namespace

template <bool Streaming>
void store_packed(const FastShader& fs, const Ctx& c, float* out, size_t n) {
    const size_t stride = fs.packed_stride;
    // The 4-wide registers: their slots and record offsets.
    const float* src[kNumFastOutRegs][4];
    size_t off[kNumFastOutRegs];
    size_t nr = 0;
    for (unsigned reg = 0; reg < kNumFastOutRegs; ++reg) {
        if (!(fs.outputs_written >> reg & 1u) || fast_out_width(reg) != 4) continue;
        for (unsigned k = 0; k < 4; ++k) src[nr][k] = c.slot(fs.output_slot[reg][k]);
        off[nr++] = size_t(fs.packed_offset[reg]);
    }
    switch (nr) {
        case 0: break;
        case 1: store_records<Streaming, 1>(out, stride, src, off, nr, n); break;
        case 2: store_records<Streaming, 2>(out, stride, src, off, nr, n); break;
        case 3: store_records<Streaming, 3>(out, stride, src, off, nr, n); break;
        case 4: store_records<Streaming, 4>(out, stride, src, off, nr, n); break;
        default: store_records<Streaming, 0>(out, stride, src, off, nr, n); break;
    }
    for (unsigned reg = FOUT_FOG; reg <= FOUT_PTS; ++reg) {  // 1-wide (then no streaming: see below)
        if (!(fs.outputs_written >> reg & 1u)) continue;
        const float* s = c.slot(fs.output_slot[reg][0]);
        float* o = out + fs.packed_offset[reg];
        for (size_t j = 0; j < n; ++j) o[j * stride] = s[j];
    }
}

template void store_packed<false>(const FastShader&, const Ctx&, float*, size_t);
#if defined(__SSE2__)
template void store_packed<true>(const FastShader&, const Ctx&, float*, size_t);
#endif

}  // namespace vpsim::vs::fast
