// Patch draws from declarations and streams: register placement, validation rules, the handle
// cache, N-patches.
#include "test_seed.h"
#include "test_tess_util.h"

#include <random>

using namespace tess_test;
using namespace vpsim::decl;

namespace {

// A 4x4 grid (stride `stride` vertices) of: position FLOAT3, colour D3DCOLOR, texcoord FLOAT2.
// The texcoord and the colour carry the position's x, y (colour as bytes) so they can be compared.
struct ColourGrid {
    Buffer buf;
    std::vector<std::array<float, 3>> pos;
    std::vector<uint32_t> colour;
};
ColourGrid colour_grid(uint32_t w, uint32_t h, std::mt19937_64& rng) {
    ColourGrid g;
    std::uniform_int_distribution<uint32_t> byte(0, 255);
    for (uint32_t r = 0; r < h; ++r)
        for (uint32_t c = 0; c < w; ++c) {
            const uint32_t R = byte(rng), G = byte(rng), B = byte(rng), A = byte(rng);
            const uint32_t argb = A << 24 | R << 16 | G << 8 | B;
            // Position = the colour's converted (R, G, B): the fetch converts bytes to float first.
            const std::array<float, 3> p{float(R) / 255.0f, float(G) / 255.0f, float(B) / 255.0f};
            g.buf.f(p[0]), g.buf.f(p[1]), g.buf.f(p[2]);
            g.buf.u32(argb);
            g.buf.f(p[0]), g.buf.f(p[1]);
            g.pos.push_back(p);
            g.colour.push_back(argb);
        }
    return g;
}
Declaration full_decl() {
    return make_decl({D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_REG(5, D3DVSDT_D3DCOLOR),
                      D3DVSD_REG(7, D3DVSDT_FLOAT2), D3DVSD_STREAM_TESS(), D3DVSD_TESSUV(10), D3DVSD_TESSNORMAL(0, 3),
                      D3DVSD_END()});
}

}  // namespace

TEST_CASE("TESSUV and TESSNORMAL land in their declared registers and the rest stay zero", "[tess][draw]") {
    const uint64_t seed = test_seed("tess registers");
    std::mt19937_64 rng(seed);
    ColourGrid g = colour_grid(4, 4, rng);
    vs::Streams s{};
    s[0] = g.buf.bind(24);
    const RectSegments segs{3, 4, 5, 6};
    const TessOutput t =
        draw_patch(full_decl(), s, rect_info(4, 4, Basis::Bezier, Order::Cubic), segs.data(), PatchState{}, TessProfile{});
    REQUIRE(t.vertices.size() == rect_vertex_count({3, 4, 5, 6}));
    for (size_t k = 0; k < t.vertices.size(); ++k) {
        const Registers& v = t.vertices[k];
        CHECK(v[10] == Vec4{t.domain.points[k].u, t.domain.points[k].v, 0.0f, 1.0f});
        const double len = std::sqrt(double(v[3][0]) * v[3][0] + double(v[3][1]) * v[3][1] + double(v[3][2]) * v[3][2]);
        CHECK(len == Approx(1.0).margin(1e-6));
        CHECK(v[3][3] == 1.0f);
        for (uint32_t r : {1u, 2u, 4u, 6u, 8u, 9u, 11u, 12u, 13u, 14u, 15u}) CHECK(v[r] == Vec4{0, 0, 0, 0});
    }
    // Tri patch: TESSUV is allowed (choice 7) with the apex at (0, 0).
    const TriSegments ts{2, 3, 4};
    const TessOutput tt = draw_patch(full_decl(), s, tri_info(Order::Cubic, 2), ts.data(), PatchState{}, TessProfile{});
    CHECK(tt.vertices.size() == tri_vertex_count({2, 3, 4}));
    CHECK(tt.vertices[0][10] == Vec4{0, 0, 0, 1});
}

TEST_CASE("Colour and texcoord registers are interpolated like positions", "[tess][draw]") {
    const uint64_t seed = test_seed("attribute interpolation");
    std::mt19937_64 rng(seed);
    ColourGrid g = colour_grid(6, 5, rng);
    vs::Streams s{};
    s[0] = g.buf.bind(24);
    for (const auto& info : {rect_info(4, 4, Basis::Bezier, Order::Cubic, 6, 1, 1), rect_info(6, 5, Basis::BSpline, Order::Cubic, 6),
                             rect_info(5, 4, Basis::Interpolate, Order::Cubic, 6, 1, 0)}) {
        const RectSegments segs{4, 3, 2, 5};
        const TessOutput t = draw_patch(full_decl(), s, info, segs.data(), PatchState{}, TessProfile{});
        for (const Registers& v : t.vertices) {
            // Colour (R, G, B) and texcoord (x, y) went through the same weights as the position.
            CHECK(bits(v[5][0]) == bits(v[0][0]));
            CHECK(bits(v[5][1]) == bits(v[0][1]));
            CHECK(bits(v[5][2]) == bits(v[0][2]));
            CHECK(bits(v[7][0]) == bits(v[0][0]));
            CHECK(bits(v[7][1]) == bits(v[0][1]));
            CHECK(v[7][3] == 1.0f);
        }
    }
}

TEST_CASE("Draws with spans generate the counts of the closed forms", "[tess][draw]") {
    std::mt19937_64 rng(test_seed("draws with spans"));
    ColourGrid g = colour_grid(7, 6, rng);
    vs::Streams s{};
    s[0] = g.buf.bind(24);
    // Cubic B-spline 7x6: 4 x 3 spans; segments apply per span.
    const RectSegments segs{2, 3, 1, 2};
    const TessOutput t =
        draw_patch(full_decl(), s, rect_info(7, 6, Basis::BSpline, Order::Cubic), segs.data(), PatchState{}, TessProfile{});
    CHECK(t.segments == std::array<uint32_t, 4>{8, 9, 4, 6});
    CHECK(t.vertices.size() == rect_vertex_count({8, 9, 4, 6}));
    CHECK(t.domain.triangles.size() == rect_triangle_count({8, 9, 4, 6}));
    // NULL segments: D3DRS_PATCHSEGMENTS on every edge; Catmull-Rom 7x6 has 6 x 5 spans.
    PatchState st;
    st.patch_segments = 2.7f;
    const TessOutput c = draw_patch(full_decl(), s, rect_info(7, 6, Basis::Interpolate, Order::Cubic), nullptr, st, TessProfile{});
    CHECK(c.segments == std::array<uint32_t, 4>{12, 10, 12, 10});
    CHECK(c.vertices.size() == 13 * 11);
    CHECK(!c.approximated);
    st.edge_style = EdgeStyle::Continuous;
    const TessOutput cc = draw_patch(full_decl(), s, rect_info(4, 4, Basis::Bezier, Order::Cubic), nullptr, st, TessProfile{});
    CHECK(cc.segments == std::array<uint32_t, 4>{3, 3, 3, 3});
    CHECK(cc.approximated);
    st = PatchState{};
    st.patch_segments = NAN;
    const TessOutput w = draw_patch(full_decl(), s, rect_info(4, 4, Basis::Bezier, Order::Cubic), nullptr, st, TessProfile{});
    CHECK(w.vertices.size() == 4);
    CHECK(w.warnings.size() == 1);
}

TEST_CASE("Invalid rect patch infos give rules T1 T2 and T3", "[tess][rules]") {
    TessProfile p;
    CHECK_TESS_RULE(validate(rect_info(3, 3, Basis::Bezier, Order::Quadratic), p), "T1");
    CHECK_TESS_RULE(validate(rect_info(2, 2, Basis::Interpolate, Order::Linear), p), "T1");
    CHECK_TESS_RULE(validate(rect_info(6, 6, Basis::Interpolate, Order::Quintic), p), "T1");
    CHECK_TESS_RULE(validate(rect_info(4, 4, Basis(7), Order::Cubic), p), "T1");
    CHECK_TESS_RULE(validate(rect_info(4, 4, Basis::Bezier, Order(4)), p), "T1");
    CHECK_TESS_RULE(validate(rect_info(4, 5, Basis::Bezier, Order::Cubic), p), "T2");
    CHECK_TESS_RULE(validate(rect_info(3, 3, Basis::Bezier, Order::Cubic), p), "T2");
    CHECK_TESS_RULE(validate(rect_info(3, 5, Basis::BSpline, Order::Cubic), p), "T2");
    CHECK_TESS_RULE(validate(rect_info(4, 3, Basis::Interpolate, Order::Cubic), p), "T2");
    CHECK_TESS_RULE(validate(rect_info(4, 4, Basis::Bezier, Order::Cubic, 5, 2, 0), p), "T2");  // 2 + 4 > stride 5
    CHECK_NOTHROW(validate(rect_info(4, 4, Basis::Bezier, Order::Cubic, 6, 2, 0), p));
    CHECK_NOTHROW(validate(rect_info(6, 6, Basis::Bezier, Order::Quintic), p));
    CHECK_NOTHROW(validate(rect_info(2, 9, Basis::BSpline, Order::Linear), p));
    p.quintic_cap = false;
    CHECK_TESS_RULE(validate(rect_info(6, 6, Basis::Bezier, Order::Quintic), p), "T3");
}

TEST_CASE("Invalid tri patch infos give rules T1 T3 and T5", "[tess][rules]") {
    TessProfile p;
    TriPatchInfo i = tri_info(Order::Cubic);
    i.basis = Basis::BSpline;
    CHECK_TESS_RULE(validate(i, p), "T1");
    i = tri_info(Order::Cubic);
    i.order = Order::Quadratic;
    i.num_vertices = 6;
    CHECK_TESS_RULE(validate(i, p), "T1");
    i = tri_info(Order::Cubic);
    i.num_vertices = 9;
    CHECK_TESS_RULE(validate(i, p), "T5");
    i = tri_info(Order::Linear);
    i.num_vertices = 10;
    CHECK_TESS_RULE(validate(i, p), "T5");
    CHECK_NOTHROW(validate(tri_info(Order::Quintic), p));
    p.quintic_cap = false;
    CHECK_TESS_RULE(validate(tri_info(Order::Quintic), p), "T3");
}

TEST_CASE("Control points outside the bound buffers give rule T4", "[tess][rules]") {
    std::mt19937_64 rng(test_seed("control points outside the buffers"));
    ColourGrid g = colour_grid(4, 4, rng);
    vs::Streams s{};
    s[0] = g.buf.bind(24);
    const Declaration d = full_decl();
    CHECK_TESS_RULE(draw_patch(d, s, rect_info(4, 4, Basis::Bezier, Order::Cubic, 4, 0, 1), nullptr, PatchState{}, TessProfile{}), "T4");
    CHECK_TESS_RULE(draw_patch(d, s, tri_info(Order::Cubic, 7), nullptr, PatchState{}, TessProfile{}), "T4");
    RectPatchInfo huge = rect_info(4, 4, Basis::Bezier, Order::Cubic, 0x40000000u, 0, 3);
    CHECK_TESS_RULE(control_indices(huge), "T4");
    vs::Streams unbound{};
    CHECK_TESS_RULE(draw_patch(d, unbound, rect_info(4, 4, Basis::Bezier, Order::Cubic), nullptr, PatchState{}, TessProfile{}), "T4");
    CHECK_NOTHROW(draw_patch(d, s, rect_info(4, 4, Basis::Bezier, Order::Cubic), nullptr, PatchState{}, TessProfile{}));
}

TEST_CASE("Declaration rules for patch draws give T9 T10 and T11", "[tess][rules]") {
    TessProfile p;
    // T9: TESSNORMAL whose input is not loaded from a memory stream (the decoder rejects it, so
    // the declaration is altered by hand as a broken producer would).
    Declaration d = full_decl();
    for (Event& e : d.events)
        if (e.kind == EventKind::Tess && e.code == 1) e.value = 9;
    CHECK_TESS_RULE(validate_declaration(d, false, p), "T9");
    // T10: TESSUV on a tri patch when the profile forbids it.
    CHECK_NOTHROW(validate_declaration(full_decl(), true, p));
    p.tessuv_on_tri = false;
    CHECK_TESS_RULE(validate_declaration(full_decl(), true, p), "T10");
    CHECK_NOTHROW(validate_declaration(full_decl(), false, p));
    // T11: a declaration with errors, e.g. TESSUV outside a tessellator stream.
    const Declaration bad = decode({D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_TESSUV(8), D3DVSD_END()});
    REQUIRE(!bad.valid);
    CHECK_TESS_RULE(validate_declaration(bad, false, TessProfile{}), "T11");
}

TEST_CASE("The patch cache counts inserts hits replacements and deletes and enforces the handle rules", "[tess][cache]") {
    std::mt19937_64 rng(test_seed("patch cache counts"));
    ColourGrid g = colour_grid(4, 4, rng);
    vs::Streams s{};
    s[0] = g.buf.bind(24);
    const Declaration d = full_decl();
    PatchCache cache;
    const RectPatchInfo info = rect_info(4, 4, Basis::Bezier, Order::Cubic);
    const RectSegments segs{4, 4, 4, 4};
    CHECK_TESS_RULE(cache.draw_rect(0, segs.data(), nullptr, d, s, PatchState{}), "T6");
    CHECK_TESS_RULE(cache.draw_rect(5, segs.data(), nullptr, d, s, PatchState{}), "T7");
    CHECK_TESS_RULE(cache.delete_patch(5), "T8");
    CHECK_TESS_RULE(cache.delete_patch(0), "T8");

    const TessOutput first = cache.draw_rect(5, segs.data(), &info, d, s, PatchState{});
    CHECK(cache.counters().inserts == 1);
    CHECK(cache.contains(5));
    // A redraw ignores the currently bound streams.
    const vs::Streams none{};
    const TessOutput again = cache.draw_rect(5, segs.data(), nullptr, d, none, PatchState{});
    CHECK(cache.counters().hits == 1);
    CHECK(cache.counters().reused == 1);
    REQUIRE(again.vertices.size() == first.vertices.size());
    CHECK(std::memcmp(again.vertices.data(), first.vertices.data(), first.vertices.size() * sizeof(Registers)) == 0);
    // New segment counts still apply.
    const RectSegments more{8, 8, 8, 8};
    const TessOutput finer = cache.draw_rect(5, more.data(), nullptr, d, none, PatchState{});
    CHECK(finer.vertices.size() == 81);
    CHECK(cache.counters().hits == 2);
    CHECK(cache.counters().reused == 1);
    // A tri patch with NULL info on a rect handle, and the shared handle space.
    CHECK_TESS_RULE(cache.draw_tri(5, nullptr, nullptr, d, none, PatchState{}), "T12");
    const TriPatchInfo ti = tri_info(Order::Cubic);
    cache.draw_tri(5, nullptr, &ti, d, s, PatchState{});
    CHECK(cache.counters().replacements == 1);
    CHECK_NOTHROW(cache.draw_tri(5, nullptr, nullptr, d, none, PatchState{}));
    // Handle 0 caches nothing; an invalid info leaves the cache alone.
    cache.draw_rect(0, segs.data(), &info, d, s, PatchState{});
    CHECK(cache.counters().uncached == 1);
    CHECK(cache.size() == 1);
    const RectPatchInfo bad = rect_info(3, 3, Basis::Bezier, Order::Cubic);
    CHECK_TESS_RULE(cache.draw_rect(5, segs.data(), &bad, d, s, PatchState{}), "T2");
    CHECK_NOTHROW(cache.draw_tri(5, nullptr, nullptr, d, none, PatchState{}));
    cache.delete_patch(5);
    CHECK(cache.counters().deletes == 1);
    CHECK(!cache.contains(5));
    CHECK_TESS_RULE(cache.draw_tri(5, nullptr, nullptr, d, s, PatchState{}), "T7");
}

namespace {
Registers npatch_vertex(std::array<float, 3> p, std::array<float, 3> n, float tex) {
    Registers r{};
    r[0] = {p[0], p[1], p[2], 1.0f};
    r[3] = {n[0], n[1], n[2], 1.0f};
    r[7] = {tex, 1.0f - tex, 0.0f, 1.0f};
    return r;
}
}  // namespace

TEST_CASE("N-patch corners reproduce the input vertices exactly", "[tess][npatch]") {
    const float s = 1.0f / std::sqrt(3.0f);
    const Registers a = npatch_vertex({1, 0, 0}, {1, 0.2f, 0}, 0.1f), b = npatch_vertex({0, 1, 0}, {0, 1, 0.3f}, 0.7f),
                    c = npatch_vertex({0, 0, 1}, {s, s, s}, 0.4f);
    for (Order po : {Order::Cubic, Order::Linear})
        for (Order no : {Order::Quadratic, Order::Linear}) {
            NPatchState st;
            st.segments = 5;
            st.position_order = po;
            st.normal_order = no;
            NPatchOutput out;
            npatch_triangle(a, b, c, 5, st, TessProfile{}, out);
            int found = 0;
            for (const Registers& v : out.vertices)
                for (const Registers* x : {&a, &b, &c})
                    if (std::memcmp(v.data(), x->data(), sizeof(Registers)) == 0) ++found;
            CHECK(found == 3);
        }
}

TEST_CASE("N-patch linear position order gives flat positions", "[tess][npatch]") {
    const Registers a = npatch_vertex({0, 0, 0}, {0, 0.6f, 0.8f}, 0), b = npatch_vertex({4, 0, 0}, {0.6f, 0, 0.8f}, 1),
                    c = npatch_vertex({0, 4, 0}, {-0.6f, 0, 0.8f}, 0.5f);
    NPatchState st;
    st.segments = 6;
    st.position_order = Order::Linear;
    NPatchOutput out;
    npatch_triangle(a, b, c, 6, st, TessProfile{}, out);
    for (const Registers& v : out.vertices) CHECK(v[0][2] == 0.0f);
    // Cubic bulges out along the normals.
    st.position_order = Order::Cubic;
    NPatchOutput cubic;
    npatch_triangle(a, b, c, 6, st, TessProfile{}, cubic);
    float maxz = 0;
    for (const Registers& v : cubic.vertices) maxz = std::max(maxz, v[0][2]);
    CHECK(maxz > 0.1f);
    // Other registers are linear in both cases.
    for (size_t k = 0; k < out.vertices.size(); ++k) CHECK(same(out.vertices[k][7], cubic.vertices[k][7]));
}

TEST_CASE("A flat N-patch triangle with equal normals stays flat", "[tess][npatch]") {
    const Registers a = npatch_vertex({-1, 2, 3}, {0, 0, 1}, 0), b = npatch_vertex({5, 1, 3}, {0, 0, 1}, 1),
                    c = npatch_vertex({0.5f, -4, 3}, {0, 0, 1}, 0.5f);
    for (Order no : {Order::Linear, Order::Quadratic}) {
        NPatchState st;
        st.segments = 7;
        st.normal_order = no;
        NPatchOutput out;
        npatch_triangle(a, b, c, 7, st, TessProfile{}, out);
        for (const Registers& v : out.vertices) {
            CHECK(v[0][2] == 3.0f);
            CHECK(v[3] == Vec4{0, 0, 1, 1});
        }
    }
}

TEST_CASE("N-patch vertex and triangle counts equal the closed forms for lists strips and fans", "[tess][npatch]") {
    std::vector<Registers> refs;
    for (int k = 0; k < 9; ++k) refs.push_back(npatch_vertex({float(k), float(k * k % 5), 0}, {0, 0, 1}, 0));
    for (uint32_t n = 1; n <= 20; ++n) {
        NPatchState st;
        st.segments = float(n) + 0.5f;
        CHECK(npatch_segments(st, TessProfile{}) == std::min(n, 64u));
        for (auto type : {pipe::PrimitiveType::TriangleList, pipe::PrimitiveType::TriangleStrip, pipe::PrimitiveType::TriangleFan}) {
            const NPatchOutput out = npatch_draw(type, refs, st, TessProfile{});
            const uint64_t prims = pipe::primitive_count(type, refs.size());
            CHECK(out.segments == n);
            CHECK(out.vertices.size() == prims * npatch_vertex_count(n));
            CHECK(out.triangles.size() == prims * npatch_triangle_count(n));
        }
    }
    NPatchState off;  // 1.0: N-patches off, the triangles pass through
    const NPatchOutput o = npatch_draw(pipe::PrimitiveType::TriangleList, refs, off, TessProfile{});
    CHECK(o.segments == 1);
    CHECK(o.vertices.size() == 9);
    CHECK(o.triangles.size() == 3);
}

TEST_CASE("N-patch strips keep each input triangle's winding", "[tess][npatch]") {
    // A strip of two triangles in z = 0 whose input windings (0 1 2) and (2 1 3) are both clockwise seen from -z.
    std::vector<Registers> refs = {npatch_vertex({0, 0, 0}, {0, 0, -1}, 0), npatch_vertex({1, 0, 0}, {0, 0, -1}, 0),
                                   npatch_vertex({0, -1, 0}, {0, 0, -1}, 0), npatch_vertex({1, -1, 0}, {0, 0, -1}, 0)};
    NPatchState st;
    st.segments = 3;
    const NPatchOutput out = npatch_draw(pipe::PrimitiveType::TriangleStrip, refs, st, TessProfile{});
    auto area = [&](const Triangle& t) {
        const Vec4 &a = out.vertices[t[0]][0], &b = out.vertices[t[1]][0], &c = out.vertices[t[2]][0];
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    };
    // Input triangle (0,0) (1,0) (0,-1): negative in this x-right y-up area, like (1,0) (0,-1) (1,-1).
    for (const Triangle& t : out.triangles) CHECK(area(t) < 0);  // same sign as the input triangles
}
