// N-patches (see npatch.h and docs/tessellation.md, "N-patches").
#include "model/tess/npatch.h"
#include "model/tess/tessellator.h"

#include <fmt/format.h>

#include <cmath>
#include <numeric>
#include <stdexcept>

namespace vpsim::tess {

namespace {

struct D3 {
    double x = 0, y = 0, z = 0;
};
D3 operator+(D3 a, D3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
D3 operator-(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
D3 operator*(double s, D3 a) { return {s * a.x, s * a.y, s * a.z}; }
double dot(D3 a, D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
D3 xyz(const Vec4& v) { return {v[0], v[1], v[2]}; }
D3 normalize_or(D3 a, D3 fallback) {
    const double l = std::sqrt(dot(a, a));
    return l > 0 ? (1.0 / l) * a : fallback;
}

}  // namespace

uint32_t npatch_segments(const NPatchState& state, const TessProfile& profile, std::string* warning,
                         bool* approximated) {
    if (!(state.segments > 1.0f)) return 1;  // N-patches off
    return segment_count(state.segments, state.edge_style, profile, warning, approximated);
}

void npatch_triangle(const Registers& v1, const Registers& v2, const Registers& v3, uint32_t n,
                     const NPatchState& state, const TessProfile& profile, NPatchOutput& out) {
    const uint32_t pr = profile.npatch_position_reg, nr = profile.npatch_normal_reg;
    if (pr >= vs::kNumInputs || nr >= vs::kNumInputs)
        throw std::invalid_argument(fmt::format("N-patch registers v{} (position) and v{} (normal) must be 0..15", pr, nr));
    if (n < 1) n = 1;
    const D3 P1 = xyz(v1[pr]), P2 = xyz(v2[pr]), P3 = xyz(v3[pr]);
    const D3 N1 = xyz(v1[nr]), N2 = xyz(v2[nr]), N3 = xyz(v3[nr]);
    const bool cubic = state.position_order == Order::Cubic;
    const bool quadratic = state.normal_order == Order::Quadratic;

    // Cubic control net (Vlachos et al. 2001).
    auto edge_pt = [](D3 Pi, D3 Pj, D3 Ni) { return (1.0 / 3.0) * (2.0 * Pi + Pj - dot(Pj - Pi, Ni) * Ni); };
    const D3 b210 = edge_pt(P1, P2, N1), b120 = edge_pt(P2, P1, N2), b021 = edge_pt(P2, P3, N2),
             b012 = edge_pt(P3, P2, N3), b102 = edge_pt(P3, P1, N3), b201 = edge_pt(P1, P3, N1);
    const D3 E = (1.0 / 6.0) * (b210 + b120 + b021 + b012 + b102 + b201);
    const D3 V = (1.0 / 3.0) * (P1 + P2 + P3);
    const D3 b111 = E + 0.5 * (E - V);
    // Quadratic normal net.
    auto mid_normal = [](D3 Pi, D3 Pj, D3 Ni, D3 Nj) {
        const D3 d = Pj - Pi;
        const double l2 = dot(d, d);
        const double v = l2 > 0 ? 2.0 * dot(d, Ni + Nj) / l2 : 0.0;
        return normalize_or(Ni + Nj - v * d, normalize_or(Ni + Nj, Ni));
    };
    const D3 n110 = mid_normal(P1, P2, N1, N2), n011 = mid_normal(P2, P3, N2, N3), n101 = mid_normal(P3, P1, N3, N1);

    // Domain: apex = v1, bottom-right = v2, bottom-left = v3, so the domain's winding is the input's.
    TessProfile dp = profile;
    dp.winding = TessProfile::Winding::Clockwise;
    const Domain dom = tri_domain({n, n, n}, dp);
    const uint32_t base = uint32_t(out.vertices.size());
    for (const DomainPoint& p : dom.points) {
        const uint64_t D = std::lcm(uint64_t(p.un), uint64_t(p.vn));
        const uint64_t U = uint64_t(p.ui) * (D / p.un), Vv = uint64_t(p.vi) * (D / p.vn);
        const uint64_t A = D - Vv, B = Vv - U, C = U;  // weights of v1, v3, v2
        if (A == D) { out.vertices.push_back(v1); continue; }
        if (C == D) { out.vertices.push_back(v2); continue; }
        if (B == D) { out.vertices.push_back(v3); continue; }
        const double w1 = double(A) / double(D), w2 = double(C) / double(D), w3 = double(B) / double(D);
        Registers r{};
        for (uint32_t k = 0; k < vs::kNumInputs; ++k)
            for (int c = 0; c < 4; ++c) r[k][c] = float(w1 * v1[k][c] + w2 * v2[k][c] + w3 * v3[k][c]);
        if (cubic) {
            const D3 b = (w1 * w1 * w1) * P1 + (w2 * w2 * w2) * P2 + (w3 * w3 * w3) * P3 +
                         (3 * w1 * w1 * w2) * b210 + (3 * w1 * w2 * w2) * b120 + (3 * w1 * w1 * w3) * b201 +
                         (3 * w2 * w2 * w3) * b021 + (3 * w1 * w3 * w3) * b102 + (3 * w2 * w3 * w3) * b012 +
                         (6 * w1 * w2 * w3) * b111;
            r[pr][0] = float(b.x);
            r[pr][1] = float(b.y);
            r[pr][2] = float(b.z);
        }
        D3 nn = quadratic ? (w1 * w1) * N1 + (w2 * w2) * N2 + (w3 * w3) * N3 + (w1 * w2) * n110 + (w2 * w3) * n011 +
                                (w3 * w1) * n101
                          : w1 * N1 + w2 * N2 + w3 * N3;
        if (profile.npatch_renormalize) nn = normalize_or(nn, nn);
        r[nr][0] = float(nn.x);
        r[nr][1] = float(nn.y);
        r[nr][2] = float(nn.z);
        out.vertices.push_back(r);
    }
    for (const Triangle& t : dom.triangles) out.triangles.push_back({base + t[0], base + t[1], base + t[2]});
}

void check_npatch_limit(uint64_t triangles, uint32_t segments, const TessProfile& profile) {
    const uint64_t per = (uint64_t(segments) + 1) * (uint64_t(segments) + 2) / 2;
    check_vertex_limit(triangles * per, "N-patch draw", profile);
}

NPatchOutput npatch_draw(pipe::PrimitiveType type, const std::vector<Registers>& refs, const NPatchState& state,
                         const TessProfile& profile) {
    if (!pipe::is_triangle_type(type))
        throw std::invalid_argument(fmt::format("N-patches apply to triangle draws, not {}", pipe::primitive_type_name(type)));
    NPatchOutput out;
    std::string warning;
    out.segments = npatch_segments(state, profile, &warning, &out.approximated);
    if (!warning.empty()) out.warnings.push_back(warning);
    const uint64_t prims = pipe::primitive_count(type, refs.size());
    check_npatch_limit(prims, out.segments, profile);
    for (uint64_t i = 0; i < prims; ++i) {
        size_t a, b, c;
        if (type == pipe::PrimitiveType::TriangleList) {
            a = 3 * i, b = 3 * i + 1, c = 3 * i + 2;
        } else if (type == pipe::PrimitiveType::TriangleStrip) {
            a = i % 2 ? i + 1 : i, b = i % 2 ? i : i + 1, c = i + 2;
        } else {
            a = 0, b = i + 1, c = i + 2;
        }
        npatch_triangle(refs[a], refs[b], refs[c], out.segments, state, profile, out);
    }
    return out;
}

}  // namespace vpsim::tess
