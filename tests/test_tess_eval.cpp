// Basis evaluation: span matrices, mirror-symmetric weights, interpolation properties,
// bit-identical shared edges, accuracy on a known polynomial surface, TESSNORMAL.
#include "test_seed.h"
#include "test_tess_util.h"

#include <iostream>
#include <random>

using namespace tess_test;

namespace {

using Grid = std::vector<Registers>;  // row-major control points

// A random control grid: v0 position, v5 a colour-like attribute.
Grid random_grid(std::mt19937_64& rng, uint32_t w, uint32_t h) {
    std::uniform_real_distribution<float> jitter(-0.3f, 0.3f), col(0.0f, 1.0f);
    Grid g(size_t(w) * h);
    for (uint32_t r = 0; r < h; ++r)
        for (uint32_t c = 0; c < w; ++c) {
            g[r * w + c][0] = {float(c) + jitter(rng), -float(r) + jitter(rng), jitter(rng) * 3, 1.0f};
            g[r * w + c][5] = {col(rng), col(rng), col(rng), col(rng)};
        }
    return g;
}
Grid sub_grid(const Grid& g, uint32_t gw, uint32_t c0, uint32_t r0, uint32_t w, uint32_t h) {
    Grid s;
    for (uint32_t r = 0; r < h; ++r)
        for (uint32_t c = 0; c < w; ++c) s.push_back(g[(r0 + r) * gw + c0 + c]);
    return s;
}
Grid transpose(const Grid& g, uint32_t w, uint32_t h) {
    Grid t(g.size());
    for (uint32_t r = 0; r < h; ++r)
        for (uint32_t c = 0; c < w; ++c) t[c * h + r] = g[r * w + c];
    return t;
}
Grid rotate180(const Grid& g) { return Grid(g.rbegin(), g.rend()); }

decl::Declaration pos_colour_decl() {
    using namespace vpsim::decl;
    return make_decl({D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_REG(5, D3DVSDT_FLOAT4), D3DVSD_END()});
}

TessOutput tess_rect(const Grid& g, uint32_t w, uint32_t h, Basis b, Order o, RectSegments segs,
                     const TessProfile& p = {}, const decl::Declaration* d = nullptr) {
    const decl::Declaration dd = d ? *d : pos_colour_decl();
    const RectPatchInfo info = rect_info(w, h, b, o);
    validate(info, p);
    return tessellate(dd, info, g, segs.data(), PatchState{}, p);
}

// The registers of the points where pick(point) holds, keyed by key(point) (an exact rational).
template <class Pick, class Key>
std::map<std::pair<uint64_t, uint64_t>, Registers> edge_points(const TessOutput& t, Pick pick, Key key) {
    std::map<std::pair<uint64_t, uint64_t>, Registers> m;
    for (size_t k = 0; k < t.domain.points.size(); ++k)
        if (pick(t.domain.points[k])) m[key(t.domain.points[k])] = t.vertices[k];
    return m;
}
// Reduced rational a / b.
std::pair<uint64_t, uint64_t> q(uint64_t a, uint64_t b) {
    const uint64_t g = std::gcd(a, b);
    return {a / g, b / g};
}
auto along_v = [](const DomainPoint& p) { return q(p.vi, p.vn); };
auto along_u = [](const DomainPoint& p) { return q(p.ui, p.un); };
auto along_v_reversed = [](const DomainPoint& p) { return q(p.vn - p.vi, p.vn); };

void check_same_edge(const std::map<std::pair<uint64_t, uint64_t>, Registers>& a,
                     const std::map<std::pair<uint64_t, uint64_t>, Registers>& b, size_t expected) {
    REQUIRE(a.size() == expected);
    REQUIRE(b.size() == expected);
    for (const auto& [key, regs] : a) {
        auto it = b.find(key);
        REQUIRE(it != b.end());
        INFO("edge point " << key.first << "/" << key.second << ": " << show(regs[0]) << " vs " << show(it->second[0]));
        CHECK(std::memcmp(regs.data(), it->second.data(), sizeof(Registers)) == 0);
    }
}

}  // namespace

TEST_CASE("The cubic B-spline span matrix is the known one and every span matrix is mirror-symmetric", "[tess][basis]") {
    const std::vector<float> c3 = span_matrix(Basis::BSpline, 3);
    const float e[16] = {1, 0, 0, 0, 4, 4, 2, 1, 1, 2, 4, 4, 0, 0, 0, 1};
    for (int k = 0; k < 16; ++k) CHECK(bits(c3[k]) == bits(e[k] / 6.0f));
    for (const auto& [b, d] : {std::pair{Basis::BSpline, 1u}, {Basis::BSpline, 3u}, {Basis::BSpline, 5u},
                               {Basis::Interpolate, 3u}, {Basis::Bezier, 5u}}) {
        const std::vector<float> c = span_matrix(b, d);
        const uint32_t n = d + 1;
        for (uint32_t m = 0; m < n; ++m) {
            double col = 0;
            for (uint32_t j = 0; j < n; ++j) {
                CHECK(bits(c[j * n + m]) == bits(c[(d - j) * n + (d - m)]));
                col += c[j * n + m];
            }
            CHECK(col == Approx(1.0).margin(1e-6));  // partition of unity
        }
    }
    // The quintic B-spline at a knot: (1, 26, 66, 26, 1, 0) / 120.
    const std::vector<float> c5 = span_matrix(Basis::BSpline, 5);
    const float k5[6] = {1, 26, 66, 26, 1, 0};
    for (int j = 0; j < 6; ++j) CHECK(bits(c5[j * 6]) == bits(float(double(k5[j]) / 120.0)));
}

TEST_CASE("Curve weights sum to one and sample N-k is the bitwise mirror of sample k", "[tess][basis]") {
    TessProfile p;
    struct Case {
        Basis b;
        uint32_t d, m;
    };
    std::vector<Case> cases;
    for (uint32_t d : {1u, 3u, 5u}) {
        cases.push_back({Basis::Bezier, d, d + 1});
        for (uint32_t m = d + 1; m <= d + 4; ++m) cases.push_back({Basis::BSpline, d, m});
    }
    for (uint32_t m = 4; m <= 7; ++m) cases.push_back({Basis::Interpolate, 3, m});
    CurveWeights a, b;
    for (const Case& c : cases) {
        const uint32_t S = span_count(c.b, c.d, c.m);
        for (uint32_t n = 1; n <= 9; ++n) {
            const uint32_t N = n * S;
            for (uint32_t k = 0; k <= N; ++k) {
                curve_weights(c.b, c.d, c.m, k, N, p, a);
                curve_weights(c.b, c.d, c.m, N - k, N, p, b);
                double sum = 0;
                bool mirrored = true;
                for (uint32_t j = 0; j < c.m; ++j) {
                    sum += a.w[j];
                    if (a.w[j] != 0.0f && bits(a.w[j]) != bits(b.w[c.m - 1 - j])) mirrored = false;
                    if ((a.w[j] == 0.0f) != (b.w[c.m - 1 - j] == 0.0f)) mirrored = false;
                }
                INFO(basis_name(c.b) << " degree " << c.d << " points " << c.m << " sample " << k << "/" << N);
                CHECK(sum == Approx(1.0).margin(1e-6));
                CHECK(mirrored);
            }
        }
    }
}

TEST_CASE("Bezier corners interpolate the corner control points exactly", "[tess][basis]") {
    const uint64_t seed = test_seed("bezier corners");
    std::mt19937_64 rng(seed);
    for (uint32_t d : {1u, 3u, 5u}) {
        const Grid g = random_grid(rng, d + 1, d + 1);
        const TessOutput t = tess_rect(g, d + 1, d + 1, Basis::Bezier, Order(d), {3, 4, 5, 6});
        for (size_t k = 0; k < t.domain.points.size(); ++k) {
            const DomainPoint& p = t.domain.points[k];
            if (!((p.ui == 0 || p.ui == p.un) && (p.vi == 0 || p.vi == p.vn))) continue;
            const uint32_t c = p.ui == 0 ? 0 : d, r = p.vi == 0 ? 0 : d;
            CHECK(same(t.vertices[k][0], g[r * (d + 1) + c][0]));
            CHECK(same(t.vertices[k][5], g[r * (d + 1) + c][5]));
        }
        // Tri: corners 0, bottom-left, bottom-right.
        Grid tc(tri_point_count(d));
        for (auto& x : tc) x = g[std::uniform_int_distribution<size_t>(0, g.size() - 1)(rng)];
        for (size_t i = 0; i < tc.size(); ++i) tc[i][0][2] = float(i) * 0.37f;
        const TessOutput tt =
            tessellate(pos_colour_decl(), tri_info(Order(d)), tc, TriSegments{4, 2, 3}.data(), PatchState{}, TessProfile{});
        const uint32_t bl = d * (d + 1) / 2, br = bl + d;
        int corners = 0;
        for (size_t k = 0; k < tt.domain.points.size(); ++k) {
            const DomainPoint& p = tt.domain.points[k];
            if (p.vi == 0) {
                CHECK(same(tt.vertices[k][0], tc[0][0]));
                ++corners;
            }
            if (p.vi == p.vn && p.ui == 0) {
                CHECK(same(tt.vertices[k][0], tc[bl][0]));
                ++corners;
            }
            if (p.vi == p.vn && p.ui == p.un) {
                CHECK(same(tt.vertices[k][0], tc[br][0]));
                ++corners;
            }
        }
        CHECK(corners == 3);
    }
}

TEST_CASE("Catmull-Rom passes through every control point", "[tess][basis]") {
    const uint64_t seed = test_seed("catmull-rom");
    std::mt19937_64 rng(seed);
    const uint32_t W = 6, H = 5, n = 3;
    const Grid g = random_grid(rng, W, H);
    for (auto ends : {TessProfile::CatmullRomEnds::Reflect, TessProfile::CatmullRomEnds::Duplicate}) {
        TessProfile p;
        p.catmull_rom_ends = ends;
        const TessOutput t = tess_rect(g, W, H, Basis::Interpolate, Order::Cubic, {float(n), float(n), float(n), float(n)}, p);
        CHECK(t.domain.points.size() == size_t((W - 1) * n + 1) * ((H - 1) * n + 1));
        int hits = 0;
        for (size_t k = 0; k < t.domain.points.size(); ++k) {
            const DomainPoint& pt = t.domain.points[k];
            const uint64_t cu = uint64_t(pt.ui) * (W - 1), cv = uint64_t(pt.vi) * (H - 1);
            if (cu % pt.un || cv % pt.vn) continue;  // not at a control point
            const Registers& cp = g[(cv / pt.vn) * W + cu / pt.un];
            CHECK(same(t.vertices[k][0], cp[0]));
            CHECK(same(t.vertices[k][5], cp[5]));
            ++hits;
        }
        CHECK(hits == int(W * H));
    }
}

TEST_CASE("Linear order reproduces bilinear interpolation", "[tess][basis]") {
    const uint64_t seed = test_seed("linear");
    std::mt19937_64 rng(seed);
    for (Basis b : {Basis::Bezier, Basis::BSpline}) {
        const uint32_t W = b == Basis::Bezier ? 2 : 4, H = b == Basis::Bezier ? 2 : 3;
        const Grid g = random_grid(rng, W, H);
        const TessOutput t = tess_rect(g, W, H, b, Order::Linear, {4, 3, 4, 3});
        double max_err = 0;
        for (size_t k = 0; k < t.domain.points.size(); ++k) {
            const DomainPoint& p = t.domain.points[k];
            const double u = double(p.ui) / p.un * (W - 1), v = double(p.vi) / p.vn * (H - 1);
            const uint32_t c = std::min<uint32_t>(uint32_t(u), W - 2), r = std::min<uint32_t>(uint32_t(v), H - 2);
            const double fu = u - c, fv = v - r;
            for (int reg : {0, 5})
                for (int x = 0; x < 4; ++x) {
                    const double e = (1 - fv) * ((1 - fu) * g[r * W + c][reg][x] + fu * g[r * W + c + 1][reg][x]) +
                                     fv * ((1 - fu) * g[(r + 1) * W + c][reg][x] + fu * g[(r + 1) * W + c + 1][reg][x]);
                    max_err = std::max(max_err, std::abs(e - t.vertices[k][reg][x]));
                }
        }
        INFO(basis_name(b) << " linear: max error " << max_err);
        CHECK(max_err < 2e-6);
    }
}

TEST_CASE("A B-spline of several spans is continuous across spans, bit for bit at the knots", "[tess][basis]") {
    const uint64_t seed = test_seed("bspline spans");
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> val(-2.0f, 2.0f);
    TessProfile p;
    for (uint32_t d : {1u, 3u, 5u}) {
        const uint32_t M = d + 5, S = M - d;
        std::vector<Vec4> pts(M);
        for (auto& x : pts) x = {val(rng), val(rng), val(rng), 1.0f};
        CurveWeights w;
        auto eval = [&](const std::vector<Vec4>& ps, uint64_t k, uint64_t N, bool deriv) {
            curve_weights(Basis::BSpline, d, uint32_t(ps.size()), k, N, p, w);
            if (!deriv) return symmetric_sum(w.w.data(), ps.size(), [&](uint32_t i) -> const Vec4& { return ps[i]; });
            Vec4 r{};
            for (size_t i = 0; i < ps.size(); ++i)
                for (int c = 0; c < 4; ++c) r[c] += w.dw[i] * ps[i][c];
            return r;
        };
        for (uint32_t s = 1; s < S; ++s) {
            // The knot as the end of span s-1 alone equals the knot as the start of span s in the full curve.
            const std::vector<Vec4> left(pts.begin() + (s - 1), pts.begin() + (s - 1) + d + 1);
            const Vec4 a = eval(left, 1, 1, false), b = eval(pts, s, S, false);
            INFO("degree " << d << " knot " << s << ": " << show(a) << " vs " << show(b));
            CHECK(same(a, b));
            // Values and derivatives either side of the knot converge (C1 for cubic and quintic).
            const uint64_t n = 1 << 14, N = uint64_t(S) * n;
            const Vec4 lo = eval(pts, s * n - 1, N, false), hi = eval(pts, s * n + 1, N, false);
            const Vec4 dlo = eval(pts, s * n - 1, N, true), dhi = eval(pts, s * n + 1, N, true);
            for (int c = 0; c < 3; ++c) {
                CHECK(std::abs(lo[c] - hi[c]) < 1e-2);
                if (d >= 3) CHECK(std::abs(dlo[c] - dhi[c]) < 0.05 * (1 + std::abs(dlo[c])));
            }
        }
    }
}

TEST_CASE("Adjacent rect patches with the same edge count give bit-identical edge vertices", "[tess][basis][watertight]") {
    const uint64_t seed = test_seed("shared edges");
    std::mt19937_64 rng(seed);
    for (Order o : {Order::Linear, Order::Cubic, Order::Quintic}) {
        const uint32_t d = uint32_t(o), S = d + 1;
        const Grid g = random_grid(rng, 2 * S - 1, S);  // two Bezier patches side by side share column d
        const Grid A = sub_grid(g, 2 * S - 1, 0, 0, S, S), B = sub_grid(g, 2 * S - 1, d, 0, S, S);
        const TessOutput ta = tess_rect(A, S, S, Basis::Bezier, o, {3, 7, 5, 2});
        const TessOutput tb = tess_rect(B, S, S, Basis::Bezier, o, {6, 4, 1, 7});
        auto right = [](const DomainPoint& p) { return p.ui == p.un; };
        auto left = [](const DomainPoint& p) { return p.ui == 0; };
        check_same_edge(edge_points(ta, right, along_v), edge_points(tb, left, along_v), 8);
        // B transposed: the shared column is its top row.
        const TessOutput tt = tess_rect(transpose(B, S, S), S, S, Basis::Bezier, o, {7, 2, 9, 3});
        check_same_edge(edge_points(ta, right, along_v), edge_points(tt, [](const DomainPoint& p) { return p.vi == 0; }, along_u), 8);
        // B rotated by 180 degrees: the shared column is its right column, run backwards.
        const TessOutput tr = tess_rect(rotate180(B), S, S, Basis::Bezier, o, {2, 7, 4, 5});
        check_same_edge(edge_points(ta, right, along_v), edge_points(tr, right, along_v_reversed), 8);
        // Stacked vertically: A's bottom row is C's top row.
        const Grid gv = random_grid(rng, S, 2 * S - 1);
        const Grid U = sub_grid(gv, S, 0, 0, S, S), V = sub_grid(gv, S, 0, d, S, S);
        const TessOutput tu = tess_rect(U, S, S, Basis::Bezier, o, {1, 2, 6, 3});
        const TessOutput tv = tess_rect(V, S, S, Basis::Bezier, o, {6, 5, 3, 9});
        check_same_edge(edge_points(tu, [](const DomainPoint& p) { return p.vi == p.vn; }, along_u),
                        edge_points(tv, [](const DomainPoint& p) { return p.vi == 0; }, along_u), 7);
    }
}

TEST_CASE("Overlapping B-spline and Catmull-Rom neighbours give bit-identical edge vertices", "[tess][basis][watertight]") {
    const uint64_t seed = test_seed("shared spline edges");
    std::mt19937_64 rng(seed);
    auto right = [](const DomainPoint& p) { return p.ui == p.un; };
    auto left = [](const DomainPoint& p) { return p.ui == 0; };
    {
        // Cubic B-spline: A = columns 0..4 (2 spans), B = columns 2..7 (3 spans); A's last
        // three columns are B's first three.
        const Grid g = random_grid(rng, 8, 6);
        const Grid A = sub_grid(g, 8, 0, 0, 5, 6), B = sub_grid(g, 8, 2, 0, 6, 6);
        const TessOutput ta = tess_rect(A, 5, 6, Basis::BSpline, Order::Cubic, {2, 4, 3, 1});
        const TessOutput tb = tess_rect(B, 6, 6, Basis::BSpline, Order::Cubic, {5, 1, 2, 4});
        check_same_edge(edge_points(ta, right, along_v), edge_points(tb, left, along_v), 3 * 4 + 1);
        const TessOutput tr = tess_rect(rotate180(B), 6, 6, Basis::BSpline, Order::Cubic, {1, 4, 3, 2});
        check_same_edge(edge_points(ta, right, along_v), edge_points(tr, right, along_v_reversed), 13);
    }
    {
        // Catmull-Rom: A = columns 0..3, B = columns 3..7 share column 3.
        const Grid g = random_grid(rng, 8, 5);
        const Grid A = sub_grid(g, 8, 0, 0, 4, 5), B = sub_grid(g, 8, 3, 0, 5, 5);
        const TessOutput ta = tess_rect(A, 4, 5, Basis::Interpolate, Order::Cubic, {2, 3, 5, 1});
        const TessOutput tb = tess_rect(B, 5, 5, Basis::Interpolate, Order::Cubic, {4, 6, 1, 3});
        check_same_edge(edge_points(ta, right, along_v), edge_points(tb, left, along_v), 4 * 3 + 1);
    }
}

TEST_CASE("A tri patch and a rect patch sharing an edge give bit-identical edge vertices", "[tess][basis][watertight]") {
    const uint64_t seed = test_seed("tri rect edge");
    std::mt19937_64 rng(seed);
    const Grid g = random_grid(rng, 4, 4);
    Grid tc = random_grid(rng, 10, 1);
    // Tri edge 6->0 (points 0, 1, 3, 6 from the apex) = the rect's left column, top to bottom.
    tc[0] = g[0], tc[1] = g[4], tc[3] = g[8], tc[6] = g[12];
    const TessOutput tr = tess_rect(g, 4, 4, Basis::Bezier, Order::Cubic, {2, 3, 4, 5});
    const TessOutput tt =
        tessellate(pos_colour_decl(), tri_info(Order::Cubic), tc, TriSegments{3, 7, 5}.data(), PatchState{}, TessProfile{});
    check_same_edge(edge_points(tr, [](const DomainPoint& p) { return p.ui == 0; }, along_v),
                    edge_points(tt, [](const DomainPoint& p) { return p.ui == 0; }, along_v), 6);
}

TEST_CASE("A bicubic Bezier patch of a known polynomial surface matches its positions and normals", "[tess][accuracy]") {
    // P(u, v) = sum a[i][j] u^i v^j per coordinate, degree <= 3 in u and in v.
    const double a[3][4][4] = {
        {{0, 0, 0.25, 0}, {2, -0.1, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}},               // x
        {{0, -1.5, 0, 0}, {0, 0, 0, 0}, {0, 0.3, 0, 0}, {0.2, 0, 0, 0}},               // y
        {{0.1, 0, 0.4, -0.2}, {0, 0.7, 0, -0.3}, {0.5, 0.5, 0, 0}, {-0.4, 0, 0.1, 0}}, // z
    };
    // Control point (row r, column c): sum a_ij * (C(c,i)/C(3,i)) * (C(r,j)/C(3,j)).
    auto cbin = [](int n, int k) {
        if (k < 0 || k > n) return 0.0;
        double r = 1;
        for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
        return r;
    };
    Buffer buf;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            for (int x = 0; x < 3; ++x) {
                double s = 0;
                for (int i = 0; i < 4; ++i)
                    for (int j = 0; j < 4; ++j) s += a[x][i][j] * cbin(c, i) / cbin(3, i) * cbin(r, j) / cbin(3, j);
                buf.f(float(s));
            }
    vs::Streams streams{};
    streams[0] = buf.bind(12);
    const decl::Declaration d = position_uv_normal_decl();
    double max_pos = 0, max_nrm = 0;
    for (const RectSegments segs : {RectSegments{16, 16, 16, 16}, RectSegments{5, 9, 13, 7}, RectSegments{64, 64, 64, 64}}) {
        const TessOutput t =
            draw_patch(d, streams, rect_info(4, 4, Basis::Bezier, Order::Cubic), segs.data(), PatchState{}, TessProfile{});
        for (size_t k = 0; k < t.domain.points.size(); ++k) {
            const DomainPoint& p = t.domain.points[k];
            const double u = double(p.ui) / p.un, v = double(p.vi) / p.vn;
            double P[3], Pu[3], Pv[3];
            for (int x = 0; x < 3; ++x) {
                P[x] = Pu[x] = Pv[x] = 0;
                for (int i = 0; i < 4; ++i)
                    for (int j = 0; j < 4; ++j) {
                        P[x] += a[x][i][j] * std::pow(u, i) * std::pow(v, j);
                        if (i) Pu[x] += a[x][i][j] * i * std::pow(u, i - 1) * std::pow(v, j);
                        if (j) Pv[x] += a[x][i][j] * j * std::pow(u, i) * std::pow(v, j - 1);
                    }
            }
            const double n[3] = {Pu[1] * Pv[2] - Pu[2] * Pv[1], Pu[2] * Pv[0] - Pu[0] * Pv[2], Pu[0] * Pv[1] - Pu[1] * Pv[0]};
            const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            for (int x = 0; x < 3; ++x) {
                max_pos = std::max(max_pos, std::abs(P[x] - t.vertices[k][0][x]));
                max_nrm = std::max(max_nrm, std::abs(n[x] / len - t.vertices[k][3][x]));
            }
            CHECK(t.vertices[k][8] == Vec4{p.u, p.v, 0.0f, 1.0f});
        }
    }
    std::cout << "bicubic Bezier polynomial surface: max position error " << max_pos << ", max normal component error "
              << max_nrm << "\n";
    CHECK(max_pos < 2e-6);
    CHECK(max_nrm < 2e-6);
}

TEST_CASE("Planar patches give exact normals for every generated vertex", "[tess][normal]") {
    const uint64_t seed = test_seed("planar normals");
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> jit(-0.2f, 0.2f);
    const decl::Declaration d = position_uv_normal_decl();
    struct Case {
        Basis b;
        Order o;
        uint32_t w, h;
    };
    for (const Case& c : {Case{Basis::Bezier, Order::Cubic, 4, 4}, Case{Basis::Bezier, Order::Quintic, 6, 6},
                          Case{Basis::BSpline, Order::Cubic, 6, 5}, Case{Basis::Interpolate, Order::Cubic, 5, 4},
                          Case{Basis::Bezier, Order::Linear, 2, 2}}) {
        for (int plane = 0; plane < 3; ++plane) {  // the patch in z = const, x = const or y = const
            Grid g(size_t(c.w) * c.h);
            for (uint32_t r = 0; r < c.h; ++r)
                for (uint32_t k = 0; k < c.w; ++k) {
                    const float s = float(k) + jit(rng), t = -float(r) + jit(rng);
                    Vec4 p{};
                    if (plane == 0) p = {s, t, 2.5f, 1};
                    if (plane == 1) p = {-1.25f, s, t, 1};
                    if (plane == 2) p = {t, 0.75f, s, 1};
                    g[r * c.w + k][0] = p;
                }
            // s x t: plane 0: x cross -y = -z; plane 1: y cross -z = -x; plane 2: z cross -x = -y.
            Vec4 expect{0, 0, 0, 1};
            expect[plane == 0 ? 2 : plane == 1 ? 0 : 1] = -1.0f;
            for (bool flip : {false, true}) {
                TessProfile p;
                p.normal_flip = flip;
                const TessOutput t = tess_rect(g, c.w, c.h, c.b, c.o, {5, 3, 4, 6}, p, &d);
                bool all = true;
                for (const Registers& v : t.vertices)
                    for (int x = 0; x < 4; ++x)
                        if (v[3][x] != (flip && x < 3 ? -expect[x] : expect[x])) all = false;
                INFO(basis_name(c.b) << " " << order_name(c.o) << " plane " << plane << (flip ? " flipped" : ""));
                CHECK(all);
                CHECK(t.degenerate_normals == 0);
            }
        }
    }
    // Unnormalised: the raw cross product, here (0, 0, -|Pu x Pv|) on a unit-square bilinear patch.
    TessProfile raw;
    raw.normal_normalize = false;
    const Grid sq = positions({{0, 0, 0}, {2, 0, 0}, {0, -3, 0}, {2, -3, 0}});
    const TessOutput t = tess_rect(sq, 2, 2, Basis::Bezier, Order::Linear, {2, 2, 2, 2}, raw, &d);
    for (const Registers& v : t.vertices) CHECK(v[3] == Vec4{0, 0, -6, 1});
}

TEST_CASE("TESSNORMAL takes the nearest sample's normal where the surface is degenerate", "[tess][normal]") {
    const decl::Declaration d = position_uv_normal_decl();
    // A cubic tri patch in z = 0 whose control points 1 and 2 coincide with the apex: both
    // derivatives vanish there. (With distinct points the (u, v) map is regular at the apex.)
    Grid tc = positions({{0, 3, 0}, {0, 3, 0}, {0, 3, 0}, {-1, 1, 0}, {0, 1, 0}, {1, 1, 0},
                         {-1.5f, 0, 0}, {-0.5f, 0, 0}, {0.5f, 0, 0}, {1.5f, 0, 0}});
    const TessOutput t = tessellate(d, tri_info(Order::Cubic), tc, TriSegments{4, 4, 4}.data(), PatchState{}, TessProfile{});
    CHECK(t.degenerate_normals == 1);
    for (const Registers& v : t.vertices) CHECK(v[3] == Vec4{0, 0, -1, 1});
    tc[1] = tc[3], tc[2] = tc[5];  // distinct again: the apex has a normal of its own
    const TessOutput t2 = tessellate(d, tri_info(Order::Cubic), tc, TriSegments{4, 4, 4}.data(), PatchState{}, TessProfile{});
    CHECK(t2.degenerate_normals == 0);
    for (const Registers& v : t2.vertices) CHECK(v[3] == Vec4{0, 0, -1, 1});
    // A rect whose top row collapses to one point: the top edge takes its neighbours' normals.
    Grid g = positions({{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, -1, 0}, {1, -1, 0}, {2, -1, 0}, {3, -1, 0},
                        {0, -2, 0}, {1, -2, 0}, {2, -2, 0}, {3, -2, 0}, {0, -3, 0}, {1, -3, 0}, {2, -3, 0}, {3, -3, 0}});
    const TessOutput r = tess_rect(g, 4, 4, Basis::Bezier, Order::Cubic, {3, 3, 3, 3}, TessProfile{}, &d);
    CHECK(r.degenerate_normals == 4);
    for (const Registers& v : r.vertices) CHECK(v[3] == Vec4{0, 0, -1, 1});
    // Without the fallback the degenerate samples are (0, 0, 0).
    TessProfile nofb;
    nofb.normal_degenerate_fallback = false;
    const TessOutput z = tess_rect(g, 4, 4, Basis::Bezier, Order::Cubic, {3, 3, 3, 3}, nofb, &d);
    CHECK(z.vertices[0][3] == Vec4{0, 0, 0, 1});
}
