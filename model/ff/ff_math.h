// Small float32 algebra shared by the reference processor, the program compiler (its CPU-side
// constants) and the scene's MultiplyTransform: D3D's row vectors times D3DMATRIX, dot products
// and normalisation. Each sum is written out in one order, so every caller gets the same bits.
#pragma once

#include "model/ff/ff_state.h"

#include <cmath>
#include <cstddef>

namespace vpsim::ff {

// D3DCOLOR 0xAARRGGBB as a D3DCOLORVALUE.
inline Color from_d3dcolor(uint32_t c) {
    return {float((c >> 16) & 0xFFu) / 255.0f, float((c >> 8) & 0xFFu) / 255.0f, float(c & 0xFFu) / 255.0f,
            float((c >> 24) & 0xFFu) / 255.0f};
}

// The number of blend weights a VERTEXBLEND value reads from the vertex (n of nWEIGHTS); -1 when
// it does not blend matrices (DISABLE, TWEENING).
inline int blend_weights(VertexBlend b) {
    switch (b) {
        case VertexBlend::Weights0: return 0;
        case VertexBlend::Weights1: return 1;
        case VertexBlend::Weights2: return 2;
        case VertexBlend::Weights3: return 3;
        default: return -1;
    }
}

inline float dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// norm(): a zero (or NaN) vector becomes zero, so the dot products it feeds contribute nothing.
inline Vec3 normalize(const Vec3& a) {
    const float l2 = dot(a, a);
    if (!(l2 > 0.0f)) return {0, 0, 0};
    const float s = 1.0f / std::sqrt(l2);
    return {a[0] * s, a[1] * s, a[2] * s};
}

// Row vector times D3DMATRIX: v' = v * M.
inline Vec4 mul(const Vec4& v, const Matrix& m) {
    Vec4 r{};
    for (int c = 0; c < 4; ++c)
        r[size_t(c)] = v[0] * m.at(0, c) + v[1] * m.at(1, c) + v[2] * m.at(2, c) + v[3] * m.at(3, c);
    return r;
}

// A direction (w = 0) through the upper 3x3.
inline Vec3 mul3(const Vec3& v, const Matrix& m) {
    Vec3 r{};
    for (int c = 0; c < 3; ++c) r[size_t(c)] = v[0] * m.at(0, c) + v[1] * m.at(1, c) + v[2] * m.at(2, c);
    return r;
}

// A x B (apply A, then B, for row vectors).
inline Matrix mul(const Matrix& a, const Matrix& b) {
    Matrix r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            r.m[size_t(i * 4 + j)] = a.at(i, 0) * b.at(0, j) + a.at(i, 1) * b.at(1, j) + a.at(i, 2) * b.at(2, j) +
                                     a.at(i, 3) * b.at(3, j);
    return r;
}

// The matrix that takes a normal to camera space when no vertex blending is on: the upper 3x3 of
// the inverse transpose of the 4x4 world-view matrix `wv` (D3D8's "Camera Space
// Transformations", and Windows: docs/fixed-function.md, choice 1). The inverse is computed in
// double precision by cofactors and rounded to float32 once (a driver inverts on the CPU); the
// result's rows and column 3 other than the upper 3x3 are the identity's. A singular `wv`
// (determinant exactly 0, or an inverse that is not finite) has no inverse: its own upper 3x3 is
// used, as Wine's wined3d does ("singular modelview matrices are used unchanged as normal
// matrices"). `singular`, when given, tells which happened.
Matrix normal_matrix(const Matrix& wv, bool* singular = nullptr);

// The inverse of `m` (double precision, rounded to float32 once); false when `m` is singular or
// the inverse is not finite (then `inv` is unchanged).
bool invert(const Matrix& m, Matrix& inv);

// Whether the upper 3x3 of `m` is a rotation (or reflection) times a uniform scale s: the rows are
// orthogonal and of one length s, within `tol` relative; `scale` receives s.
bool similarity3(const Matrix& m, float tol, float* scale = nullptr);

}  // namespace vpsim::ff
