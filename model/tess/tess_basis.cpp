// Basis evaluation (see tess_basis.h and docs/tessellation.md, "Evaluation").
#include "model/tess/tess_basis.h"

#include <fmt/format.h>

#include <cmath>
#include <mutex>
#include <numeric>
#include <stdexcept>

namespace vpsim::tess {

namespace {

uint64_t binom(uint32_t n, uint32_t k) {
    uint64_t r = 1;
    for (uint32_t i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return r;
}

// Uniform B-spline of degree p, span [0, 1] with knots t_i = i - p: Bernstein coefficient m of
// control point j is the blossom f(0^(p-m), 1^m) of the unit control vector e_j, times p!.
std::vector<long long> bspline_matrix_scaled(uint32_t p) {
    std::vector<long long> out((p + 1) * (p + 1));
    double fact = 1;
    for (uint32_t i = 2; i <= p; ++i) fact *= i;
    auto knot = [&](int i) { return double(i) - double(p); };
    for (uint32_t j = 0; j <= p; ++j)
        for (uint32_t m = 0; m <= p; ++m) {
            std::vector<double> d(p + 1, 0.0);
            d[j] = 1.0;
            // de Boor on span k = p with argument x_r at level r (x = m ones, then zeros).
            for (uint32_t r = 1; r <= p; ++r) {
                const double x = r <= m ? 1.0 : 0.0;
                for (uint32_t q = p; q >= r; --q) {
                    const int lo = int(q) + int(p) - int(p);     // t_{q+k-p}, k = p
                    const int hi = int(q) + 1 + int(p) - int(r);  // t_{q+1+k-r}
                    const double alpha = (x - knot(lo)) / (knot(hi) - knot(lo));
                    d[q] = (1.0 - alpha) * d[q - 1] + alpha * d[q];
                }
            }
            out[j * (p + 1) + m] = std::llround(d[p] * fact);
        }
    return out;
}

}  // namespace

std::vector<float> span_matrix(Basis basis, uint32_t degree) {
    const uint32_t n = degree + 1;
    std::vector<float> c(n * n, 0.0f);
    if (basis == Basis::Bezier || degree <= 1) {
        for (uint32_t j = 0; j < n; ++j) c[j * n + j] = 1.0f;
        return c;
    }
    if (basis == Basis::Interpolate) {
        if (degree != 3) throw std::invalid_argument("Catmull-Rom (INTERPOLATE) is cubic only");
        // Bezier points of the span P1..P2: P1, P1 + (P2 - P0)/6, P2 - (P3 - P1)/6, P2.
        const int m6[4][4] = {{0, -1, 0, 0}, {6, 6, 1, 0}, {0, 1, 6, 6}, {0, 0, -1, 0}};
        for (uint32_t j = 0; j < 4; ++j)
            for (uint32_t m = 0; m < 4; ++m) c[j * 4 + m] = float(m6[j][m]) / 6.0f;
        return c;
    }
    // B-spline: integers over degree!, so that mirrored entries are bit-identical.
    const std::vector<long long> s = bspline_matrix_scaled(degree);
    double fact = 1;
    for (uint32_t i = 2; i <= degree; ++i) fact *= i;
    for (uint32_t k = 0; k < n * n; ++k) c[k] = float(double(s[k]) / fact);
    return c;
}

namespace {

struct MatrixCache {
    std::once_flag once;
    std::vector<float> bezier[6], bspline[6], cr3;
};
MatrixCache& matrices() {
    static MatrixCache m;
    std::call_once(m.once, [] {
        for (uint32_t d = 0; d <= 5; ++d) {
            m.bezier[d] = span_matrix(Basis::Bezier, d);
            if (d % 2 == 1) m.bspline[d] = span_matrix(Basis::BSpline, d);
        }
        m.cr3 = span_matrix(Basis::Interpolate, 3);
    });
    return m;
}
const std::vector<float>& matrix_for(Basis basis, uint32_t degree) {
    MatrixCache& m = matrices();
    if (degree > 5) throw std::invalid_argument(fmt::format("degree {} is not supported", degree));
    if (basis == Basis::Bezier || degree <= 1) return m.bezier[degree];
    if (basis == Basis::Interpolate) {
        if (degree != 3) throw std::invalid_argument("Catmull-Rom (INTERPOLATE) is cubic only");
        return m.cr3;
    }
    if (degree % 2 == 0) throw std::invalid_argument("B-spline degree must be 1, 3 or 5");
    return m.bspline[degree];
}

float ipow(float x, uint32_t e) {
    float r = 1.0f;
    for (uint32_t i = 0; i < e; ++i) r = r * x;
    return r;
}

}  // namespace

uint32_t span_count(Basis basis, uint32_t degree, uint32_t count) {
    switch (basis) {
    case Basis::Bezier: return count == degree + 1 ? 1 : 0;
    case Basis::BSpline: return count > degree ? count - degree : 0;
    case Basis::Interpolate: return count >= 2 ? count - 1 : 0;
    }
    return 0;
}

void curve_weights(Basis basis, uint32_t degree, uint32_t count, uint64_t k, uint64_t N, const TessProfile& profile,
                   CurveWeights& out) {
    const uint32_t S = span_count(basis, degree, count);
    if (S == 0 || N == 0 || k > N)
        throw std::invalid_argument(fmt::format("curve_weights: {} {} points of degree {}, sample {} of {}",
                                                count, basis_name(basis), degree, k, N));
    out.w.assign(count, 0.0f);
    out.dw.assign(count, 0.0f);
    const std::vector<float>& c = matrix_for(basis, degree);
    const uint32_t d = degree, n1 = d + 1;

    // Span and local parameter, from exact integers: t = num / N, 1 - t = (N - num) / N.
    const uint64_t x = k * S;
    uint64_t span = x / N;
    if (span >= S) span = S - 1;
    const uint64_t num = x - span * N;
    const float t = float(num) / float(N), s = float(N - num) / float(N);

    // Bernstein values and derivatives (d/dt) of degree d at (t, s).
    float bern[6], dbern[6];
    for (uint32_t m = 0; m <= d; ++m) {
        const float bc = float(binom(d, m));
        bern[m] = bc * (ipow(t, m) * ipow(s, d - m));
        float db = 0.0f;
        if (m > 0) db = db + float(m) * (ipow(t, m - 1) * ipow(s, d - m));
        if (m < d) db = db - float(d - m) * (ipow(t, m) * ipow(s, d - m - 1));
        dbern[m] = bc * db;
    }
    const float scale = float(S);  // dt/du
    // Local weights: pairs (m, d-m) from the outside in, so mirrored samples are mirrored bits.
    float wl[6], dwl[6];
    for (uint32_t j = 0; j <= d; ++j) {
        const float* cj = &c[j * n1];
        float acc = 0.0f, dacc = 0.0f;
        for (uint32_t m = 0; m < (d + 2) / 2; ++m) {
            const uint32_t m2 = d - m;
            const float term = m == m2 ? cj[m] * bern[m] : cj[m] * bern[m] + cj[m2] * bern[m2];
            const float dterm = m == m2 ? cj[m] * dbern[m] : cj[m] * dbern[m] + cj[m2] * dbern[m2];
            acc = m == 0 ? term : acc + term;
            dacc = m == 0 ? dterm : dacc + dterm;
        }
        wl[j] = acc;
        dwl[j] = dacc * scale;
    }
    // Scatter to the control points (Catmull-Rom spans start one before, with phantom ends).
    const int64_t first = basis == Basis::Interpolate ? int64_t(span) - 1 : int64_t(span);
    const bool reflect = profile.catmull_rom_ends == TessProfile::CatmullRomEnds::Reflect;
    for (uint32_t j = 0; j <= d; ++j) {
        const int64_t q = first + j;
        if (q >= 0 && q < int64_t(count)) {
            out.w[q] = out.w[q] + wl[j];
            out.dw[q] = out.dw[q] + dwl[j];
            continue;
        }
        // Phantom point: 2*P_end - P_next (reflect) or P_end (duplicate).
        const bool low = q < 0;
        const uint32_t end = low ? 0 : count - 1;
        out.w[end] = out.w[end] + (reflect ? 2.0f * wl[j] : wl[j]);
        out.dw[end] = out.dw[end] + (reflect ? 2.0f * dwl[j] : dwl[j]);
        if (reflect && count >= 2) {
            const uint32_t next = low ? 1 : count - 2;
            out.w[next] = out.w[next] - wl[j];
            out.dw[next] = out.dw[next] - dwl[j];
        }
    }
    out.dd.assign(count > 0 ? count - 1 : 0, 0.0f);
    double cum = 0;
    for (uint32_t q = 0; q + 1 < count; ++q) {
        cum += double(out.dw[q]);
        out.dd[q] = float(-cum);
    }
}

RectWeights rect_weights(Basis basis, uint32_t degree, uint32_t width, uint32_t height, const DomainPoint& p,
                         const TessProfile& profile) {
    RectWeights r;
    r.width = width;
    r.height = height;
    curve_weights(basis, degree, width, p.ui, p.un, profile, r.u);
    curve_weights(basis, degree, height, p.vi, p.vn, profile, r.v);
    r.on_u_edge = p.ui == 0 || p.ui == p.un;
    r.on_v_edge = p.vi == 0 || p.vi == p.vn;
    return r;
}

SurfaceSample evaluate(const RectWeights& w, const ControlView& cp) {
    const uint32_t W = w.width, H = w.height;
    SurfaceSample out;
    // Columns first (collapse u in each row), then v.
    auto cols_first = [&] {
        std::vector<Vec4> rows(H);
        for (uint32_t r = 0; r < H; ++r)
            if (w.v.w[r] != 0.0f) rows[r] = symmetric_sum(w.u.w.data(), W, [&](uint32_t c) -> const Vec4& { return cp[r * W + c]; });
        return symmetric_sum(w.v.w.data(), H, [&](uint32_t r) -> const Vec4& { return rows[r]; });
    };
    // Rows first (collapse v in each column), then u.
    auto rows_first = [&] {
        std::vector<Vec4> cols(W);
        for (uint32_t c = 0; c < W; ++c)
            if (w.u.w[c] != 0.0f) cols[c] = symmetric_sum(w.v.w.data(), H, [&](uint32_t r) -> const Vec4& { return cp[r * W + c]; });
        return symmetric_sum(w.u.w.data(), W, [&](uint32_t c) -> const Vec4& { return cols[c]; });
    };
    if (w.on_u_edge && w.on_v_edge) {
        // A corner: the mean of both orders, invariant under any symmetry of the square.
        const Vec4 a = cols_first(), b = rows_first();
        for (int c = 0; c < 4; ++c) out.value[c] = (a[c] + b[c]) * 0.5f;
    } else if (w.on_v_edge) {
        out.value = rows_first();
    } else {
        out.value = cols_first();
    }
    // Derivatives in difference form: du = sum_r wv_r sum_c ddu_c (P[r][c+1] - P[r][c]), and
    // likewise dv.
    for (uint32_t r = 0; r < H; ++r) {
        const float wv = w.v.w[r];
        if (wv == 0.0f) continue;
        Vec4 s{};
        for (uint32_t c = 0; c + 1 < W; ++c) {
            const float dd = w.u.dd[c];
            if (dd == 0.0f) continue;
            const Vec4 &P0 = cp[r * W + c], &P1 = cp[r * W + c + 1];
            for (int k = 0; k < 4; ++k) s[k] = s[k] + dd * (P1[k] - P0[k]);
        }
        for (int k = 0; k < 4; ++k) out.du[k] = out.du[k] + wv * s[k];
    }
    for (uint32_t c = 0; c < W; ++c) {
        const float wu = w.u.w[c];
        if (wu == 0.0f) continue;
        Vec4 s{};
        for (uint32_t r = 0; r + 1 < H; ++r) {
            const float dd = w.v.dd[r];
            if (dd == 0.0f) continue;
            const Vec4 &P0 = cp[r * W + c], &P1 = cp[(r + 1) * W + c];
            for (int k = 0; k < 4; ++k) s[k] = s[k] + dd * (P1[k] - P0[k]);
        }
        for (int k = 0; k < 4; ++k) out.dv[k] = out.dv[k] + wu * s[k];
    }
    return out;
}

TriWeights tri_weights(uint32_t degree, const DomainPoint& p, const TessProfile& profile) {
    TriWeights tw;
    tw.degree = degree;
    const uint32_t d = degree, np = tri_point_count(d);
    // Barycentric integers over a common denominator D: apex a = 1 - v, bottom-left b = v - u,
    // bottom-right c = u.
    const uint64_t D = std::lcm(uint64_t(p.un), uint64_t(p.vn));
    const uint64_t U = uint64_t(p.ui) * (D / p.un), V = uint64_t(p.vi) * (D / p.vn);
    if (U > V || V > D) throw std::invalid_argument("tri_weights: (u, v) outside 0 <= u <= v <= 1");
    const uint64_t A = D - V, B = V - U, C = U;

    if (C == 0) {  // edge 6->0 (u = 0): points (r, 0) from the apex, parameter v
        tw.edge = 2;
        for (uint32_t r = 0; r <= d; ++r) tw.edge_points.push_back(r * (r + 1) / 2);
        curve_weights(Basis::Bezier, d, d + 1, V, D, profile, tw.edge_w);
    } else if (B == 0) {  // edge 0->9 (u = v): points (r, r), parameter v
        tw.edge = 0;
        for (uint32_t r = 0; r <= d; ++r) tw.edge_points.push_back(r * (r + 1) / 2 + r);
        curve_weights(Basis::Bezier, d, d + 1, V, D, profile, tw.edge_w);
    } else if (A == 0) {  // edge 9->6 (v = 1): the bottom row from bottom-left, parameter u
        tw.edge = 1;
        for (uint32_t e = 0; e <= d; ++e) tw.edge_points.push_back(d * (d + 1) / 2 + e);
        curve_weights(Basis::Bezier, d, d + 1, U, D, profile, tw.edge_w);
    }

    const float a = float(A) / float(D), b = float(B) / float(D), c = float(C) / float(D);
    tw.w.assign(np, 0.0f);
    for (uint32_t i = 0; i <= d; ++i)
        for (uint32_t j = 0; i + j <= d; ++j) {
            const uint32_t k = d - i - j;
            const float coef = float(binom(d, i) * binom(d - i, j));
            tw.w[tri_point_index(i, j, k)] = coef * (ipow(a, i) * ipow(b, j) * ipow(c, k));
        }
    if (d >= 1) {
        // dP/du = d * sum B^{d-1}_{ijk} (P_{i,j,k+1} - P_{i,j+1,k}),
        // dP/dv = d * sum B^{d-1}_{ijk} (P_{i,j+1,k} - P_{i+1,j,k}).
        const uint32_t e = d - 1;
        for (uint32_t i = 0; i <= e; ++i)
            for (uint32_t j = 0; i + j <= e; ++j) {
                const uint32_t k = e - i - j;
                const float bw = float(d) * float(binom(e, i) * binom(e - i, j)) * (ipow(a, i) * ipow(b, j) * ipow(c, k));
                if (bw == 0.0f) continue;
                tw.du.push_back({bw, tri_point_index(i, j, k + 1), tri_point_index(i, j + 1, k)});
                tw.dv.push_back({bw, tri_point_index(i, j + 1, k), tri_point_index(i + 1, j, k)});
            }
    }
    return tw;
}

SurfaceSample evaluate(const TriWeights& w, const ControlView& cp) {
    SurfaceSample out;
    const size_t np = w.w.size();
    if (w.edge >= 0) {
        out.value = symmetric_sum(w.edge_w.w.data(), w.edge_points.size(),
                                  [&](uint32_t q) -> const Vec4& { return cp[w.edge_points[q]]; });
    } else {
        for (size_t p = 0; p < np; ++p) {
            if (w.w[p] == 0.0f) continue;
            const Vec4& P = cp[p];
            for (int k = 0; k < 4; ++k) out.value[k] = out.value[k] + w.w[p] * P[k];
        }
    }
    for (const TriWeights::Diff& t : w.du)
        for (int k = 0; k < 4; ++k) out.du[k] = out.du[k] + t.weight * (cp[t.a][k] - cp[t.b][k]);
    for (const TriWeights::Diff& t : w.dv)
        for (int k = 0; k < 4; ++k) out.dv[k] = out.dv[k] + t.weight * (cp[t.a][k] - cp[t.b][k]);
    return out;
}

}  // namespace vpsim::tess
