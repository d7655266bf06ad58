// The fast path's fused vertex fetch (vs_fast_fetch.h).
#include "model/vs/vs_fast_fetch.h"

#include <algorithm>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>  // loads, stores and shuffles only: bits move unchanged
#endif
#include <limits>

namespace vpsim::vs::fast {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the fused fetch reads vertex buffers with host loads");

namespace {

// D3DCOLOR bytes to floats, from expand_element itself (so the quotient is the same one).
const float* unorm8_table() {
    static const std::array<float, 256> table = [] {
        std::array<float, 256> t{};
        for (unsigned b = 0; b < 256; ++b) {
            const uint8_t bytes[4] = {uint8_t(b), uint8_t(b), uint8_t(b), uint8_t(b)};
            t[b] = expand_element(decl::D3DVSDT_D3DCOLOR, bytes)[0];
        }
        return t;
    }();
    return table.data();
}

#if defined(__SSE2__)
// FLOAT2/3/4 of 4 vertices at a time: four 16-byte loads and a 4x4 transpose. Returns the
// number of vertices done (a multiple of 4, at most n).
size_t fetch_floats_wide(const uint8_t* base, size_t stride, size_t n, const std::array<float*, 4>& dst) {
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const uint8_t* p = base + i * stride;
        __m128 r0 = _mm_loadu_ps(reinterpret_cast<const float*>(p));
        __m128 r1 = _mm_loadu_ps(reinterpret_cast<const float*>(p + stride));
        __m128 r2 = _mm_loadu_ps(reinterpret_cast<const float*>(p + 2 * stride));
        __m128 r3 = _mm_loadu_ps(reinterpret_cast<const float*>(p + 3 * stride));
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        if (dst[0]) _mm_store_ps(dst[0] + i, r0);
        if (dst[1]) _mm_store_ps(dst[1] + i, r1);
        if (dst[2]) _mm_store_ps(dst[2] + i, r2);
        if (dst[3]) _mm_store_ps(dst[3] + i, r3);
    }
    return i;
}
#endif

}  // namespace

// The element types' component sources: bytes or words in memory, or a constant.
void fetch_element(const FetchElement& e, uint64_t first, size_t n) {
    const uint8_t* base = e.data + first * e.stride;
    const size_t stride = e.stride;
    switch (e.type) {
        case decl::D3DVSDT_FLOAT1: case decl::D3DVSDT_FLOAT2: case decl::D3DVSDT_FLOAT3: case decl::D3DVSDT_FLOAT4: {
            const int nc = int(e.type) + 1;
            size_t done = 0;
#if defined(__SSE2__)
            if (nc > 1 && e.wide_end > first) {
                std::array<float*, 4> dst = e.dst;
                for (int c = nc; c < 4; ++c) dst[size_t(c)] = nullptr;  // the bytes after the element
                done = fetch_floats_wide(base, stride, size_t(std::min<uint64_t>(n, e.wide_end - first)), dst);
            }
#endif
            for (int c = 0; c < nc; ++c) {
                float* __restrict d = e.dst[size_t(c)];
                if (!d) continue;
                const uint8_t* p = base + 4 * c;
                for (size_t i = done; i < n; ++i) std::memcpy(&d[i], p + i * stride, 4);  // the bits as stored
            }
            break;
        }
        case decl::D3DVSDT_D3DCOLOR: {
            static constexpr int byte_of[4] = {2, 1, 0, 3};  // B,G,R,A in memory -> (R,G,B,A)
            const float* lut = unorm8_table();
            for (int c = 0; c < 4; ++c) {
                float* __restrict d = e.dst[size_t(c)];
                if (!d) continue;
                const uint8_t* p = base + byte_of[c];
                for (size_t i = 0; i < n; ++i) d[i] = lut[p[i * stride]];
            }
            break;
        }
        case decl::D3DVSDT_UBYTE4:
            for (int c = 0; c < 4; ++c) {
                float* __restrict d = e.dst[size_t(c)];
                if (!d) continue;
                const uint8_t* p = base + c;
                for (size_t i = 0; i < n; ++i) d[i] = float(p[i * stride]);
            }
            break;
        case decl::D3DVSDT_SHORT2: case decl::D3DVSDT_SHORT4: {
            const int nc = e.type == decl::D3DVSDT_SHORT2 ? 2 : 4;
            for (int c = 0; c < nc; ++c) {
                float* __restrict d = e.dst[size_t(c)];
                if (!d) continue;
                const uint8_t* p = base + 2 * c;
                for (size_t i = 0; i < n; ++i) {
                    int16_t s;
                    std::memcpy(&s, p + i * stride, 2);
                    d[i] = float(s);
                }
            }
            break;
        }
        default: break;
    }
}

FetchPlan plan_fetch(const FastShader& fs, const Ctx& ctx, const decl::Declaration& d, const Streams& streams,
                     uint32_t first, uint32_t count) {
    FetchPlan plan;
    // Every element event is checked, read by the shader or not, as fetch_vertex does.
    uint64_t end = uint64_t(first) + count;
    std::array<const decl::Event*, kNumInputs> last{};
    for (const decl::Event& e : d.events) {
        if (e.reg >= kNumInputs) continue;
        if (e.kind == decl::EventKind::Tess) {
            last[e.reg] = &e;
            continue;
        }
        if (e.kind != decl::EventKind::Element) continue;
        last[e.reg] = &e;
        if (e.code >= decl::kNumDataTypes) {  // expand_element rejects it: fetch_vertex throws
            end = first;
            continue;
        }
        const StreamBinding& b = streams[e.stream];
        const uint64_t size = decl::data_type_size(e.code);
        uint64_t ok;  // vertices 0 .. ok-1 of this element lie in the buffer
        if (!b.bound || uint64_t(e.value) + size > b.size) ok = 0;
        else if (b.stride == 0) ok = std::numeric_limits<uint64_t>::max();
        else ok = (b.size - e.value - size) / b.stride + 1;
        end = std::min(end, std::max<uint64_t>(ok, first));
    }
    plan.valid_end = end;
    static constexpr float kDefault[8][4] = {
        {0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 1}, {0, 0, 0, 0}};
    static constexpr int kComponents[8] = {1, 2, 3, 4, 4, 4, 2, 4};
    for (uint32_t r = 0; r < kNumInputs; ++r) {
        if (!(fs.input_reads >> r & 1u)) continue;
        const decl::Event* e = last[r];
        const bool memory = e && e->kind == decl::EventKind::Element && e->code < decl::kNumDataTypes;
        if (memory && (!streams[e->stream].bound || !streams[e->stream].data)) continue;  // nothing is fetched
        FetchElement fe;
        if (memory) {
            const StreamBinding& b = streams[e->stream];
            fe.data = b.data + e->value;
            fe.stride = b.stride;
            fe.type = e->code;
            // 16 bytes from the element's start stay inside the buffer for vertices below wide_end.
            if (uint64_t(e->value) + 16 > b.size) fe.wide_end = 0;
            else if (b.stride == 0) fe.wide_end = std::numeric_limits<uint64_t>::max();
            else fe.wide_end = (b.size - e->value - 16) / b.stride + 1;
        }
        bool any = false;
        for (int c = 0; c < 4; ++c) {
            const uint16_t s = fs.input_slot[r][size_t(c)];
            if (s == FastShader::kNoSlot) continue;
            if (memory && c < kComponents[e->code]) {
                fe.dst[size_t(c)] = ctx.slot(s);
                any = true;
            } else {
                plan.constants.emplace_back(ctx.slot(s), memory ? kDefault[e->code][c] : 0.0f);
            }
        }
        if (any) plan.elements.push_back(fe);
    }
    return plan;
}

}  // namespace vpsim::vs::fast
