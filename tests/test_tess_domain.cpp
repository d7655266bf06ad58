// Domain generation: counts against the closed forms, watertight triangulations, winding,
// exact (u, v), segment rounding.
#include "test_seed.h"
#include "test_tess_util.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>

using namespace tess_test;

namespace {

double pu(const DomainPoint& p) { return double(p.ui) / double(p.un); }
double pv(const DomainPoint& p) { return double(p.vi) / double(p.vn); }

// Checks a domain is a consistently clockwise, watertight triangulation of the unit square (or
// the tri domain) whose boundary on each side is exactly that side's own samples.
template <size_t E>
void check_domain(const Domain& d, const std::array<uint32_t, E>& n, bool tri) {
    INFO("counts " << n[0] << " " << n[1] << " " << n[2] << (E == 4 ? " " + std::to_string(n[E - 1]) : ""));
    double area = 0;
    bool all_cw = true, all_in_range = true;
    std::map<std::pair<uint32_t, uint32_t>, int> directed;
    std::vector<bool> used(d.points.size(), false);
    for (const Triangle& t : d.triangles) {
        for (uint32_t i : t) {
            if (i >= d.points.size()) all_in_range = false;
        }
        if (!all_in_range) break;
        const DomainPoint &a = d.points[t[0]], &b = d.points[t[1]], &c = d.points[t[2]];
        const double cross = (pu(b) - pu(a)) * (pv(c) - pv(a)) - (pv(b) - pv(a)) * (pu(c) - pu(a));
        if (!(cross > 0)) all_cw = false;
        area += cross / 2;
        for (int k = 0; k < 3; ++k) {
            used[t[k]] = true;
            ++directed[{t[k], t[(k + 1) % 3]}];
        }
    }
    REQUIRE(all_in_range);
    CHECK(all_cw);
    CHECK(area == Approx(tri ? 0.5 : 1.0).epsilon(1e-12));
    CHECK(std::all_of(used.begin(), used.end(), [](bool b) { return b; }));
    // Each directed edge once; boundary edges (no reverse) lie on the domain boundary.
    bool directed_once = true, boundary_ok = true;
    uint64_t boundary = 0;
    for (const auto& [e, count] : directed) {
        if (count != 1) directed_once = false;
        if (directed.count({e.second, e.first})) continue;
        ++boundary;
        if ((d.points[e.first].edges & d.points[e.second].edges) == 0) boundary_ok = false;
    }
    CHECK(directed_once);
    CHECK(boundary_ok);
    uint64_t total = 0;
    for (uint32_t x : n) total += x;
    CHECK(boundary == total);
    // Each side's points are exactly k / n_e.
    for (size_t side = 0; side < E; ++side) {
        const uint8_t bit = uint8_t(1u << side);
        std::vector<double> params;
        for (const DomainPoint& p : d.points) {
            if (!(p.edges & bit)) continue;
            const bool along_u = tri ? side != 2 : side % 2 == 0;
            params.push_back(along_u ? pu(p) : pv(p));
        }
        std::sort(params.begin(), params.end());
        REQUIRE(params.size() == n[side] + 1);
        for (uint32_t k = 0; k <= n[side]; ++k) CHECK(params[k] == Approx(double(k) / n[side]).margin(1e-15));
    }
}

}  // namespace

TEST_CASE("Segment counts truncate, clamp to 1..64 and turn NaN or less than 1 into 1 with a warning", "[tess][domain]") {
    TessProfile p;
    std::string w;
    CHECK(segment_count(1.0f, EdgeStyle::Discrete, p, &w) == 1);
    CHECK(w.empty());
    CHECK(segment_count(3.99f, EdgeStyle::Discrete, p) == 3);
    CHECK(segment_count(64.0f, EdgeStyle::Discrete, p) == 64);
    CHECK(segment_count(1000.0f, EdgeStyle::Discrete, p) == 64);
    CHECK(segment_count(INFINITY, EdgeStyle::Discrete, p) == 64);
    CHECK(segment_count(0.5f, EdgeStyle::Discrete, p, &w) == 1);
    CHECK(!w.empty());
    w.clear();
    CHECK(segment_count(NAN, EdgeStyle::Discrete, p, &w) == 1);
    CHECK(!w.empty());
    w.clear();
    CHECK(segment_count(-3.0f, EdgeStyle::Discrete, p, &w) == 1);
    CHECK(!w.empty());
    p.rounding = TessProfile::Rounding::Ceil;
    CHECK(segment_count(3.01f, EdgeStyle::Discrete, p) == 4);
    CHECK(segment_count(3.0f, EdgeStyle::Discrete, p) == 3);
}

TEST_CASE("Continuous edge style rounds up and is reported as approximated", "[tess][domain]") {
    TessProfile p;
    bool approx = false;
    CHECK(segment_count(2.2f, EdgeStyle::Continuous, p, nullptr, &approx) == 3);
    CHECK(approx);
    approx = false;
    CHECK(segment_count(2.2f, EdgeStyle::Discrete, p, nullptr, &approx) == 2);
    CHECK(!approx);
    p.continuous_round_up = false;
    CHECK(segment_count(2.2f, EdgeStyle::Continuous, p, nullptr, &approx) == 2);
    CHECK(approx);
}

TEST_CASE("A uniform rect domain is a row-major grid split along the i j to i+1 j+1 diagonal, clockwise", "[tess][domain]") {
    const Domain d = rect_domain({2, 3, 2, 3});
    REQUIRE(d.points.size() == 12);
    for (uint32_t j = 0; j <= 3; ++j)
        for (uint32_t i = 0; i <= 2; ++i) {
            const DomainPoint& p = d.points[j * 3 + i];
            CHECK(pu(p) == Approx(i / 2.0));
            CHECK(pv(p) == Approx(j / 3.0));
        }
    REQUIRE(d.triangles.size() == 12);
    // Cell (0, 0): (TL, TR, BR) and (TL, BR, BL).
    CHECK(d.triangles[0] == Triangle{0, 1, 4});
    CHECK(d.triangles[1] == Triangle{0, 4, 3});
    TessProfile ccw;
    ccw.winding = TessProfile::Winding::CounterClockwise;
    const Domain r = rect_domain({2, 3, 2, 3}, ccw);
    REQUIRE(r.triangles.size() == d.triangles.size());
    for (size_t k = 0; k < r.triangles.size(); ++k)
        CHECK(r.triangles[k] == Triangle{d.triangles[k][0], d.triangles[k][2], d.triangles[k][1]});
}

TEST_CASE("A uniform tri domain is rows from the apex, clockwise with the apex on top", "[tess][domain]") {
    const Domain d = tri_domain({3, 3, 3});
    REQUIRE(d.points.size() == 10);
    uint32_t k = 0;
    for (uint32_t j = 0; j <= 3; ++j)
        for (uint32_t i = 0; i <= j; ++i, ++k) {
            CHECK(pu(d.points[k]) == Approx(i / 3.0));
            CHECK(pv(d.points[k]) == Approx(j / 3.0));
        }
    REQUIRE(d.triangles.size() == 9);
    CHECK(d.triangles[0] == Triangle{0, 2, 1});  // apex, bottom-right, bottom-left
    check_domain<3>(d, {3, 3, 3}, true);
}

TEST_CASE("Rect domain vertex and triangle counts equal the closed forms and the mesh is watertight", "[tess][domain]") {
    for (uint32_t t = 1; t <= 7; ++t)
        for (uint32_t r = 1; r <= 7; ++r)
            for (uint32_t b = 1; b <= 7; ++b)
                for (uint32_t l = 1; l <= 7; ++l) {
                    const std::array<uint32_t, 4> n{t, r, b, l};
                    const Domain d = rect_domain(n);
                    CHECK(d.points.size() == rect_vertex_count(n));
                    CHECK(d.triangles.size() == rect_triangle_count(n));
                    if ((t * 7 + r + b * 3 + l) % 5 == 0) check_domain<4>(d, n, false);  // a fifth in depth
                }
    const uint64_t seed = test_seed("rect domain counts");
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<uint32_t> dist(1, 64);
    for (int k = 0; k < 200; ++k) {
        const std::array<uint32_t, 4> n{dist(rng), dist(rng), dist(rng), dist(rng)};
        const Domain d = rect_domain(n);
        CHECK(d.points.size() == rect_vertex_count(n));
        CHECK(d.triangles.size() == rect_triangle_count(n));
        if (k % 10 == 0) check_domain<4>(d, n, false);
    }
}

TEST_CASE("Tri domain vertex and triangle counts equal the closed forms and the mesh is watertight", "[tess][domain]") {
    for (uint32_t a = 1; a <= 12; ++a)
        for (uint32_t b = 1; b <= 12; ++b)
            for (uint32_t c = 1; c <= 12; ++c) {
                const std::array<uint32_t, 3> n{a, b, c};
                const Domain d = tri_domain(n);
                CHECK(d.points.size() == tri_vertex_count(n));
                CHECK(d.triangles.size() == tri_triangle_count(n));
                check_domain<3>(d, n, true);
            }
    const uint64_t seed = test_seed("tri domain counts");
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<uint32_t> dist(1, 64);
    for (int k = 0; k < 100; ++k) {
        const std::array<uint32_t, 3> n{dist(rng), dist(rng), dist(rng)};
        const Domain d = tri_domain(n);
        CHECK(d.points.size() == tri_vertex_count(n));
        CHECK(d.triangles.size() == tri_triangle_count(n));
        if (k % 10 == 0) check_domain<3>(d, n, true);
    }
}

TEST_CASE("Without transitions every edge takes the interior count", "[tess][domain]") {
    TessProfile p;
    p.transitions = false;
    const Domain d = rect_domain({2, 5, 4, 1}, p);
    CHECK(d.points.size() == 5 * 6);
    CHECK(d.triangles.size() == 2 * 4 * 5);
    const Domain t = tri_domain({2, 5, 3}, p);
    CHECK(t.points.size() == 6 * 7 / 2);
    CHECK(t.triangles.size() == 25);
}

TEST_CASE("Domain u and v are exact at corners and on edges", "[tess][domain]") {
    for (const auto& n : {std::array<uint32_t, 4>{3, 7, 5, 2}, std::array<uint32_t, 4>{64, 1, 13, 9}}) {
        const Domain d = rect_domain(n);
        for (const DomainPoint& p : d.points) {
            CHECK(bits(p.u) == bits(float(p.ui) / float(p.un)));
            CHECK(bits(p.v) == bits(float(p.vi) / float(p.vn)));
            if (p.edges & kRectTop) CHECK(bits(p.v) == bits(0.0f));
            if (p.edges & kRectBottom) CHECK(bits(p.v) == bits(1.0f));
            if (p.edges & kRectLeft) CHECK(bits(p.u) == bits(0.0f));
            if (p.edges & kRectRight) CHECK(bits(p.u) == bits(1.0f));
        }
        // The four corners are there, exactly.
        int corners = 0;
        for (const DomainPoint& p : d.points)
            if ((p.u == 0.0f || p.u == 1.0f) && (p.v == 0.0f || p.v == 1.0f)) ++corners;
        CHECK(corners == 4);
    }
    const Domain t = tri_domain({5, 3, 8});
    for (const DomainPoint& p : t.points) {
        if (p.edges & kTriEdge0) CHECK(bits(p.u) == bits(p.v));
        if (p.edges & kTriEdge1) CHECK(bits(p.v) == bits(1.0f));
        if (p.edges & kTriEdge2) CHECK(bits(p.u) == bits(0.0f));
    }
}
