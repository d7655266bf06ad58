// Domain generation (docs/tessellation.md, "Domain").
#include "model/tess/tess_domain.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

namespace vpsim::tess {

namespace {

// A point's exact position: reduced fractions u = un_/ud_, v = vn_/vd_.
struct Key {
    uint64_t un, ud, vn, vd;
    bool operator<(const Key& o) const {
        // v first, then u (exact cross-multiplied comparison of fractions).
        if (vn * o.vd != o.vn * vd) return vn * o.vd < o.vn * vd;
        return un * o.ud < o.un * ud;
    }
};

class Builder {
public:
    uint32_t add(uint64_t un, uint64_t ud, uint64_t vn, uint64_t vd) {
        const uint64_t gu = std::gcd(un, ud), gv = std::gcd(vn, vd);
        const Key k{un / gu, ud / gu, vn / gv, vd / gv};
        auto [it, fresh] = index_.emplace(k, uint32_t(keys_.size()));
        if (fresh) keys_.push_back(k);
        return it->second;
    }
    double u(uint32_t i) const { return double(keys_[i].un) / double(keys_[i].ud); }
    double v(uint32_t i) const { return double(keys_[i].vn) / double(keys_[i].vd); }

    // Appends the triangle with the profile's winding (by its signed area in (u, v), v down).
    void tri(uint32_t a, uint32_t b, uint32_t c) {
        const double cross = (u(b) - u(a)) * (v(c) - v(a)) - (v(b) - v(a)) * (u(c) - u(a));
        const bool clockwise = cross > 0;  // u right, v down: positive is clockwise on screen
        if (clockwise == want_clockwise)
            tris_.push_back({a, b, c});
        else
            tris_.push_back({a, c, b});
    }

    // Joins an outer polyline (an edge's own vertices) to an inner one; `param` gives each
    // point's position along the side, increasing along both polylines.
    template <class Param>
    void stitch(const std::vector<uint32_t>& outer, const std::vector<uint32_t>& inner, Param param) {
        size_t i = 0, k = 0;
        const size_t a = outer.size() - 1, b = inner.size() - 1;
        while (i < a || k < b) {
            const bool adv_outer = k == b || (i < a && param(outer[i + 1]) <= param(inner[k + 1]));
            if (adv_outer) {
                tri(outer[i], outer[i + 1], inner[k]);
                ++i;
            } else {
                tri(outer[i], inner[k + 1], inner[k]);
                ++k;
            }
        }
    }

    Domain finish(bool is_tri) {
        // Sort the points by (v, u) and renumber.
        std::vector<uint32_t> order(keys_.size());
        std::iota(order.begin(), order.end(), 0u);
        std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return keys_[x] < keys_[y]; });
        std::vector<uint32_t> rank(keys_.size());
        for (uint32_t r = 0; r < order.size(); ++r) rank[order[r]] = r;
        Domain d;
        d.points.reserve(keys_.size());
        for (uint32_t idx : order) {
            const Key& k = keys_[idx];
            DomainPoint p;
            p.ui = uint32_t(k.un);
            p.un = uint32_t(k.ud);
            p.vi = uint32_t(k.vn);
            p.vn = uint32_t(k.vd);
            p.u = float(p.ui) / float(p.un);
            p.v = float(p.vi) / float(p.vn);
            if (!is_tri) {
                if (p.vi == 0) p.edges |= kRectTop;
                if (p.ui == p.un) p.edges |= kRectRight;
                if (p.vi == p.vn) p.edges |= kRectBottom;
                if (p.ui == 0) p.edges |= kRectLeft;
            } else {
                if (uint64_t(p.ui) * p.vn == uint64_t(p.vi) * p.un) p.edges |= kTriEdge0;
                if (p.vi == p.vn) p.edges |= kTriEdge1;
                if (p.ui == 0) p.edges |= kTriEdge2;
            }
            d.points.push_back(p);
        }
        d.triangles.reserve(tris_.size());
        for (const Triangle& t : tris_) d.triangles.push_back({rank[t[0]], rank[t[1]], rank[t[2]]});
        return d;
    }

    bool want_clockwise = true;

private:
    std::map<Key, uint32_t> index_;
    std::vector<Key> keys_;
    std::vector<Triangle> tris_;
};

uint32_t at_least_1(uint32_t n) { return n < 1 ? 1 : n; }

}  // namespace

std::array<uint32_t, 4> effective_rect_counts(const std::array<uint32_t, 4>& n_in, const TessProfile& profile) {
    std::array<uint32_t, 4> n;
    for (int i = 0; i < 4; ++i) n[i] = at_least_1(n_in[i]);
    if (!profile.transitions) {
        const uint32_t nu = std::max(n[0], n[2]), nv = std::max(n[1], n[3]);
        n = {nu, nv, nu, nv};
    }
    return n;
}

std::array<uint32_t, 3> effective_tri_counts(const std::array<uint32_t, 3>& n_in, const TessProfile& profile) {
    std::array<uint32_t, 3> n;
    for (int i = 0; i < 3; ++i) n[i] = at_least_1(n_in[i]);
    if (!profile.transitions) {
        const uint32_t m = std::max({n[0], n[1], n[2]});
        n = {m, m, m};
    }
    return n;
}

Domain rect_domain(const std::array<uint32_t, 4>& n_in, const TessProfile& profile) {
    const auto n = effective_rect_counts(n_in, profile);
    const uint32_t T = n[0], R = n[1], B = n[2], L = n[3];
    const uint32_t nu = std::max(T, B), nv = std::max(L, R);
    const bool tT = T != nu, tR = R != nv, tB = B != nu, tL = L != nv;

    Builder bld;
    bld.want_clockwise = profile.winding == TessProfile::Winding::Clockwise;
    auto lat = [&](uint32_t i, uint32_t j) { return bld.add(i, nu, j, nv); };

    // The edges' own vertices first, then the interior lattice.
    std::vector<uint32_t> top, right, bottom, left;
    for (uint32_t k = 0; k <= T; ++k) top.push_back(bld.add(k, T, 0, 1));
    for (uint32_t k = 0; k <= R; ++k) right.push_back(bld.add(1, 1, k, R));
    for (uint32_t k = 0; k <= B; ++k) bottom.push_back(bld.add(k, B, 1, 1));
    for (uint32_t k = 0; k <= L; ++k) left.push_back(bld.add(0, 1, k, L));
    for (uint32_t j = 1; j < nv; ++j)
        for (uint32_t i = 1; i < nu; ++i) lat(i, j);

    // Regular cells: those not touching a transition side, split along (i, j)-(i+1, j+1).
    for (uint32_t j = 0; j < nv; ++j)
        for (uint32_t i = 0; i < nu; ++i) {
            if ((tT && j == 0) || (tB && j == nv - 1) || (tL && i == 0) || (tR && i == nu - 1)) continue;
            bld.tri(lat(i, j), lat(i + 1, j), lat(i + 1, j + 1));
            bld.tri(lat(i, j), lat(i + 1, j + 1), lat(i, j + 1));
        }

    // Transition strips.
    const uint32_t i0 = tL ? 1 : 0, i1 = tR ? nu - 1 : nu, j0 = tT ? 1 : 0, j1 = tB ? nv - 1 : nv;
    auto pu = [&](uint32_t p) { return bld.u(p); };
    auto pv = [&](uint32_t p) { return bld.v(p); };
    if (tT || tB) {
        for (int side = 0; side < 2; ++side) {
            if (!(side == 0 ? tT : tB)) continue;
            std::vector<uint32_t> inner;
            for (uint32_t i = i0; i <= i1; ++i) inner.push_back(lat(i, side == 0 ? 1 : nv - 1));
            bld.stitch(side == 0 ? top : bottom, inner, pu);
        }
    }
    if (tL || tR) {
        for (int side = 0; side < 2; ++side) {
            if (!(side == 0 ? tL : tR)) continue;
            std::vector<uint32_t> inner;
            for (uint32_t j = j0; j <= j1; ++j) inner.push_back(lat(side == 0 ? 1 : nu - 1, j));
            bld.stitch(side == 0 ? left : right, inner, pv);
        }
    }
    return bld.finish(false);
}

Domain tri_domain(const std::array<uint32_t, 3>& n_in, const TessProfile& profile) {
    const auto ne = effective_tri_counts(n_in, profile);
    const uint32_t n = std::max({ne[0], ne[1], ne[2]});
    const bool t0 = ne[0] != n, t1 = ne[1] != n, t2 = ne[2] != n;

    Builder bld;
    bld.want_clockwise = profile.winding == TessProfile::Winding::Clockwise;
    auto lat = [&](uint32_t i, uint32_t j) { return bld.add(i, n, j, n); };

    std::vector<uint32_t> e0, e1, e2;  // apex->BR, BL->BR, apex->BL (increasing side parameter)
    for (uint32_t k = 0; k <= ne[0]; ++k) e0.push_back(bld.add(k, ne[0], k, ne[0]));
    for (uint32_t k = 0; k <= ne[1]; ++k) e1.push_back(bld.add(k, ne[1], 1, 1));
    for (uint32_t k = 0; k <= ne[2]; ++k) e2.push_back(bld.add(0, 1, k, ne[2]));
    for (uint32_t j = 2; j < n; ++j)
        for (uint32_t i = 1; i < j; ++i) lat(i, j);

    auto touches = [&](uint32_t i, uint32_t j) { return (t2 && i == 0) || (t0 && i == j) || (t1 && j == n); };
    for (uint32_t j = 0; j < n; ++j)
        for (uint32_t i = 0; i <= j; ++i) {
            // Up triangle (i, j), (i+1, j+1), (i, j+1).
            if (!touches(i, j) && !touches(i + 1, j + 1) && !touches(i, j + 1))
                bld.tri(lat(i, j), lat(i + 1, j + 1), lat(i, j + 1));
            // Down triangle (i, j), (i+1, j), (i+1, j+1).
            if (i < j && !touches(i, j) && !touches(i + 1, j) && !touches(i + 1, j + 1))
                bld.tri(lat(i, j), lat(i + 1, j), lat(i + 1, j + 1));
        }

    // Transition strips; each side's parameter is the projection from the opposite corner.
    if (t2) {
        std::vector<uint32_t> inner;
        for (uint32_t j = t0 ? 2 : 1; j <= (t1 ? n - 1 : n); ++j) inner.push_back(lat(1, j));
        bld.stitch(e2, inner, [&](uint32_t p) { return (bld.v(p) - bld.u(p)) / (1.0 - bld.u(p)); });
    }
    if (t0) {
        std::vector<uint32_t> inner;
        for (uint32_t j = t2 ? 2 : 1; j <= (t1 ? n - 1 : n); ++j) inner.push_back(lat(j - 1, j));
        bld.stitch(e0, inner, [&](uint32_t p) { return bld.u(p) / (1.0 - bld.v(p) + bld.u(p)); });
    }
    if (t1) {
        std::vector<uint32_t> inner;
        for (uint32_t i = t2 ? 1 : 0; i <= (t0 ? n - 2 : n - 1); ++i) inner.push_back(lat(i, n - 1));
        bld.stitch(e1, inner, [&](uint32_t p) { return bld.u(p) / bld.v(p); });
    }
    return bld.finish(true);
}

uint64_t rect_vertex_count(const std::array<uint32_t, 4>& n_in) {
    std::array<uint64_t, 4> n;
    for (int i = 0; i < 4; ++i) n[i] = at_least_1(n_in[i]);
    const uint64_t nu = std::max(n[0], n[2]), nv = std::max(n[1], n[3]);
    return (nu - 1) * (nv - 1) + n[0] + n[1] + n[2] + n[3];
}

uint64_t rect_triangle_count(const std::array<uint32_t, 4>& n_in) {
    std::array<uint64_t, 4> n;
    for (int i = 0; i < 4; ++i) n[i] = at_least_1(n_in[i]);
    const uint64_t nu = std::max(n[0], n[2]), nv = std::max(n[1], n[3]);
    const uint64_t tT = n[0] != nu, tR = n[1] != nv, tB = n[2] != nu, tL = n[3] != nv;
    const uint64_t iu = nu - tL - tR, iv = nv - tT - tB;  // regular columns and rows
    return 2 * iu * iv + tT * (n[0] + iu) + tB * (n[2] + iu) + tL * (n[3] + iv) + tR * (n[1] + iv);
}

uint64_t tri_vertex_count(const std::array<uint32_t, 3>& n_in) {
    std::array<uint64_t, 3> n;
    for (int i = 0; i < 3; ++i) n[i] = at_least_1(n_in[i]);
    const uint64_t m = std::max({n[0], n[1], n[2]});
    return (m - 1) * (m - 2) / 2 + n[0] + n[1] + n[2];
}

uint64_t tri_triangle_count(const std::array<uint32_t, 3>& n_in) {
    std::array<uint64_t, 3> n;
    for (int i = 0; i < 3; ++i) n[i] = at_least_1(n_in[i]);
    const uint64_t m = std::max({n[0], n[1], n[2]});
    uint64_t t = 0;
    for (int i = 0; i < 3; ++i) t += n[i] != m;
    uint64_t count = (m - t) * (m - t);
    for (int i = 0; i < 3; ++i)
        if (n[i] != m) count += n[i] + (m - t);
    return count;
}

}  // namespace vpsim::tess
