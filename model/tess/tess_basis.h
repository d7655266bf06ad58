// Basis evaluation: Bezier (Bernstein), uniform B-spline and Catmull-Rom curves, tensor
// product rect surfaces and Bezier triangles, with d/du and d/dv (choice 5).
//
// Determinism: weights are computed from the exact rational sample position; a 1-D evaluation
// of sample k of N is the bitwise mirror of sample N-k over the reversed control points, and
// sums pair the first and last non-zero weight from the outside in. An edge point of a surface
// is evaluated by collapsing the direction across the edge first and then the edge's own 1-D
// curve, so two patches that share an edge's control points and count give bit-identical edge
// vertices whatever their other edges, orientation or the side of the patch (docs/tessellation.md).
#pragma once

#include "model/tess/tess_domain.h"
#include "model/tess/tess_types.h"
#include "model/vs/vs_exec.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vpsim::tess {

using vs::Vec4;

// Spans of a curve of `count` control points (Bezier 1, B-spline count - degree, Catmull-Rom
// count - 1); 0 when there are too few points.
uint32_t span_count(Basis basis, uint32_t degree, uint32_t count);

// The weights of every control point of a curve at sample k of N (parameter k / N over the
// whole curve; N must be a multiple of span_count so each span gets N / spans segments, but
// any N works) and their derivatives with respect to that parameter.
struct CurveWeights {
    std::vector<float> w, dw;  // `count` each
    // The derivative in difference form: sum dw[i] P[i] = sum dd[i] (P[i+1] - P[i]) (count - 1
    // entries), so a coordinate that is the same in every control point has derivative exactly 0.
    std::vector<float> dd;
};
void curve_weights(Basis basis, uint32_t degree, uint32_t count, uint64_t k, uint64_t N, const TessProfile& profile,
                   CurveWeights& out);

// The (degree+1)^2 matrix c[j][m] turning a span's control points j into its Bernstein
// coefficients m (Bezier: identity; exposed for the tests).
std::vector<float> span_matrix(Basis basis, uint32_t degree);

struct SurfaceSample {
    Vec4 value{}, du{}, dv{};
};

// Control points of one attribute: point p is at points[p * stride].
struct ControlView {
    const Vec4* points = nullptr;
    size_t stride = 1;
    const Vec4& operator[](size_t p) const { return points[p * stride]; }
};

// Rect patch: width x height control points, row-major (row = constant v).
struct RectWeights {
    CurveWeights u, v;
    uint32_t width = 0, height = 0;
    bool on_u_edge = false;  // u = 0 or 1 (left / right edge)
    bool on_v_edge = false;  // v = 0 or 1 (top / bottom edge)
};
RectWeights rect_weights(Basis basis, uint32_t degree, uint32_t width, uint32_t height, const DomainPoint& p,
                         const TessProfile& profile);
SurfaceSample evaluate(const RectWeights& w, const ControlView& cp);

// Bezier triangle of `degree`: (degree+1)(degree+2)/2 points numbered row by row from the apex.
struct TriWeights {
    uint32_t degree = 0;
    std::vector<float> w;  // one per control point
    // Derivatives as sums of weight * (P[a] - P[b]) (exactly 0 for a constant coordinate).
    struct Diff {
        float weight;
        uint32_t a, b;
    };
    std::vector<Diff> du, dv;
    int edge = -1;                   // 0, 1, 2: evaluated as that edge's 1-D curve
    std::vector<uint32_t> edge_points;  // the edge's control points, in curve order
    CurveWeights edge_w;
};
TriWeights tri_weights(uint32_t degree, const DomainPoint& p, const TessProfile& profile);
SurfaceSample evaluate(const TriWeights& w, const ControlView& cp);
// Number of control points of a Bezier triangle of `degree`, and the index of the point with
// apex / bottom-left / bottom-right exponents (i, j, k).
inline uint32_t tri_point_count(uint32_t degree) { return (degree + 1) * (degree + 2) / 2; }
inline uint32_t tri_point_index([[maybe_unused]] uint32_t i, uint32_t j, uint32_t k) {
    const uint32_t r = j + k;
    return r * (r + 1) / 2 + k;
}

// The symmetric sum used everywhere: sum of w[q] * pts(q) over the non-zero w (count <= 8
// non-zero), pairing first and last from the outside in.
template <class Get>
Vec4 symmetric_sum(const float* w, size_t count, Get pts) {
    uint32_t idx[8];
    unsigned m = 0;
    for (size_t q = 0; q < count; ++q)
        if (w[q] != 0.0f) {
            if (m == 8) break;  // never: the support of a span is at most 6 points
            idx[m++] = uint32_t(q);
        }
    Vec4 acc{};
    for (unsigned q = 0; q < (m + 1) / 2; ++q) {
        const uint32_t a = idx[q], b = idx[m - 1 - q];
        const Vec4& pa = pts(a);
        Vec4 term;
        if (a == b) {
            for (int c = 0; c < 4; ++c) term[c] = w[a] * pa[c];
        } else {
            const Vec4& pb = pts(b);
            for (int c = 0; c < 4; ++c) term[c] = w[a] * pa[c] + w[b] * pb[c];
        }
        if (q == 0)
            acc = term;
        else
            for (int c = 0; c < 4; ++c) acc[c] = acc[c] + term[c];
    }
    return acc;
}

}  // namespace vpsim::tess
