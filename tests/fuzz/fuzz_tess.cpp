// The tessellator (model/tess): sequences of DrawRectPatch / DrawTriPatch (handle 0, a new
// handle, a cached handle redrawn with NULL info), DeletePatch and N-patch draws, on control
// points taken from the input. Properties: only TessError escapes; every triangle indexes a
// generated vertex; one vertex per domain point; segment counts within the profile's maximum per span;
// a cached redraw gives the same vertices (bits) and triangles as drawing the cached info
// afresh; an N-patch draw gives n^2 triangles and at most (n+1)(n+2)/2 vertices per triangle.
//
// Input: 1 profile byte, 256 bytes of control points (FLOAT3 position + FLOAT3 normal, 24 bytes
// a vertex, 10 vertices; shorter inputs are zero-padded), then up to 16 operations of 8 bytes
// each. The profile's maximum segment count is 8 or 24 (not D3D's 64): the clamp is the same code
// at any maximum (24.0 is the boundary, 65.0 and 1e30 are clamped), and 64 operations of up to
// 65 x 65 segments made a campaign run 52-147 inputs/s.
#include "fuzz_util.h"

#include "model/decl/decl_decoder.h"
#include "model/decl/decl_tokens.h"
#include "model/tess/npatch.h"
#include "model/tess/patch_cache.h"
#include "model/tess/tess_basis.h"
#include "model/tess/tessellator.h"

#include <cmath>

using namespace vpsim;
using namespace vpsim::tess;
using namespace vpsim::decl;

namespace {

constexpr size_t kCpBytes = 256;
constexpr uint32_t kSizes[16] = {1, 2, 3, 4, 4, 4, 5, 6, 7, 8, 2, 3, 16, 0, 65536, 0xFFFFFFFFu};
constexpr uint32_t kTriVerts[8] = {10, 3, 6, 21, 10, 1, 0, 0xFFFFFFFFu};
const float kSegs[16] = {1.0f, 2.0f, 2.5f, 3.0f, 4.0f, 7.9f, 0.0f, -1.0f, NAN, INFINITY, 1e30f, 24.0f,
                         65.0f, 1.5f, 8.0f, 5.0f};
constexpr Order kOrders[4] = {Order::Linear, Order::Quadratic, Order::Cubic, Order::Quintic};

bool same_vertices(const std::vector<Registers>& a, const std::vector<Registers>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Registers)) == 0);
}

// spans: the spans of each edge's direction (rect edges 0 and 2 run along u, 1 and 3 along v; a tri
// patch has one span). The profile's maximum clamps the count per span (docs/tessellation.md, choice 5).
void check_output(const TessOutput& t, const TessProfile& prof, const char* what, const uint32_t spans[4]) {
    FUZZ_CHECK(t.vertices.size() == t.domain.points.size(), "%s: %zu vertices for %zu points", what,
               t.vertices.size(), t.domain.points.size());
    for (const Triangle& tri : t.domain.triangles)
        for (uint32_t i : tri) FUZZ_CHECK(i < t.vertices.size(), "%s: index %u of %zu", what, i, t.vertices.size());
    for (int e = 0; e < 4; ++e)
        FUZZ_CHECK(uint64_t(t.segments[e]) <= uint64_t(prof.max_segments) * spans[e], "%s: edge %d: %u segments, %u spans",
                   what, e, t.segments[e], spans[e]);
}

Declaration patch_decl(bool normal) {
    std::vector<uint32_t> t = {D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_REG(3, D3DVSDT_FLOAT3),
                               D3DVSD_STREAM_TESS(), D3DVSD_TESSUV(7)};
    if (normal) t.push_back(D3DVSD_TESSNORMAL(0, 8));
    t.push_back(D3DVSD_END());
    return decode(t);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 1 + kCpBytes + 8 * 16) return fuzz::kReject;
    fuzz::Reader in(data, size);
    const uint8_t pb = in.byte();
    TessProfile prof;
    if (pb & 1) prof.rounding = TessProfile::Rounding::Ceil;
    if (pb & 2) prof.transitions = false;
    if (pb & 4) prof.continuous_round_up = false;
    if (pb & 8) prof.winding = TessProfile::Winding::CounterClockwise;
    if (pb & 16) prof.catmull_rom_ends = TessProfile::CatmullRomEnds::Duplicate;
    if (pb & 32) prof.normal_normalize = false;
    if (pb & 64) prof.quintic_cap = false;
    prof.max_segments = (pb & 128) ? 8 : 24;

    std::vector<uint8_t> cp(kCpBytes, 0);
    for (size_t i = 0; i < kCpBytes && in.left(); ++i) cp[i] = in.byte();
    vs::Streams streams{};
    streams[0].data = cp.data();
    streams[0].size = cp.size();
    streams[0].stride = 24;
    streams[0].bound = true;
    const Declaration decls[2] = {patch_decl(false), patch_decl(true)};
    PatchCache cache(prof);

    while (in.left() >= 8) {
        uint8_t b[8];
        for (uint8_t& x : b) x = in.byte();
        const Declaration& d = decls[b[0] >> 7];
        const uint32_t handle = (b[0] >> 2) & 3;
        const bool with_info = !(b[0] & 0x40);
        const bool with_segs = !(b[0] & 0x20);
        PatchState st;
        st.edge_style = (b[0] & 0x10) ? EdgeStyle::Continuous : EdgeStyle::Discrete;
        st.patch_segments = kSegs[b[1] & 15];
        const float segs[4] = {kSegs[b[1] >> 4], kSegs[b[2] & 15], kSegs[b[2] >> 4], kSegs[b[3] & 15]};
        const char* what = "?";
        try {
            switch (b[0] & 3) {
            case 0: {  // DrawRectPatch
                what = "DrawRectPatch";
                RectPatchInfo info;
                info.width = kSizes[b[4] & 15];
                info.height = kSizes[b[4] >> 4];
                info.start_vertex_offset_width = b[5] & 3;
                info.start_vertex_offset_height = (b[5] >> 2) & 3;
                info.stride = info.width + ((b[5] >> 4) & 3);
                info.basis = Basis(b[6] % 3);
                info.order = kOrders[(b[6] >> 2) & 3];
                const float* sp = with_segs ? segs : nullptr;
                const RectPatchInfo* ci0 = cache.rect_info(handle);
                const RectPatchInfo used = (with_info || !ci0) ? info : *ci0;
                const TessOutput t = cache.draw_rect(handle, sp, with_info ? &info : nullptr, d, streams, st);
                const uint32_t su = span_count(used.basis, uint32_t(used.order), used.width),
                               sv = span_count(used.basis, uint32_t(used.order), used.height);
                const uint32_t spans[4] = {su, sv, su, sv};
                check_output(t, prof, what, spans);
                if (const RectPatchInfo* ci = cache.rect_info(handle); ci && handle != 0) {
                    const TessOutput f = draw_patch(d, streams, *ci, sp, st, prof);
                    FUZZ_CHECK(same_vertices(t.vertices, f.vertices) && t.domain.triangles == f.domain.triangles,
                               "handle %u: cached draw differs from a fresh one", handle);
                }
                break;
            }
            case 1: {  // DrawTriPatch
                what = "DrawTriPatch";
                TriPatchInfo info;
                info.num_vertices = kTriVerts[b[4] & 7];
                info.start_vertex_offset = (b[4] >> 3) & 3;
                info.basis = Basis(b[6] % 3);
                info.order = kOrders[(b[6] >> 2) & 3];
                const float* sp = with_segs ? segs : nullptr;
                const TessOutput t = cache.draw_tri(handle, sp, with_info ? &info : nullptr, d, streams, st);
                const uint32_t spans[4] = {1, 1, 1, 1};
                check_output(t, prof, what, spans);
                if (const TriPatchInfo* ci = cache.tri_info(handle); ci && handle != 0) {
                    const TessOutput f = draw_patch(d, streams, *ci, sp, st, prof);
                    FUZZ_CHECK(same_vertices(t.vertices, f.vertices) && t.domain.triangles == f.domain.triangles,
                               "handle %u: cached tri draw differs from a fresh one", handle);
                }
                break;
            }
            case 2: {  // DeletePatch
                what = "DeletePatch";
                const bool had = cache.contains(handle);
                cache.delete_patch(handle);
                FUZZ_CHECK(had && !cache.contains(handle), "DeletePatch(%u) of a handle it did not hold returned", handle);
                break;
            }
            case 3: {  // N-patch draw of triangles made of the control points
                what = "N-patch";
                NPatchState ns;
                ns.segments = kSegs[b[1] & 15];
                ns.position_order = (b[5] & 1) ? Order::Linear : Order::Cubic;
                ns.normal_order = (b[5] & 2) ? Order::Quadratic : Order::Linear;
                ns.edge_style = st.edge_style;
                const pipe::PrimitiveType types[3] = {pipe::PrimitiveType::TriangleList,
                                                      pipe::PrimitiveType::TriangleStrip,
                                                      pipe::PrimitiveType::TriangleFan};
                const pipe::PrimitiveType type = types[b[6] % 3];
                std::vector<Registers> refs;
                for (size_t k = 0; k < size_t(b[4] % 16); ++k) refs.push_back(vs::fetch_vertex(d, streams, uint32_t(b[7] + k) % 10));
                const uint32_t n = npatch_segments(ns, prof);
                const NPatchOutput o = npatch_draw(type, refs, ns, prof);
                const uint64_t tris = type == pipe::PrimitiveType::TriangleList ? refs.size() / 3
                                                                                : (refs.size() >= 3 ? refs.size() - 2 : 0);
                FUZZ_CHECK(o.triangles.size() == tris * npatch_triangle_count(n), "%zu triangles for %llu at n=%u",
                           o.triangles.size(), (unsigned long long)tris, n);
                FUZZ_CHECK(o.vertices.size() <= tris * npatch_vertex_count(n), "%zu vertices", o.vertices.size());
                for (const Triangle& tri : o.triangles)
                    for (uint32_t i : tri) FUZZ_CHECK(i < o.vertices.size(), "N-patch index %u", i);
                break;
            }
            }
        } catch (const TessError& e) {
            FUZZ_CHECK(e.rule.size() >= 2 && e.rule[0] == 'T', "%s: rule '%s'", what, e.rule.c_str());
        }
    }
    return 0;
}
