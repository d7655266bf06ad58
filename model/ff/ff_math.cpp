// The matrix algebra of ff_math.h that is not inline: the 4x4 inverse by cofactors, the normal
// matrix, and the similarity test the program compiler uses to light in object space.
#include "model/ff/ff_math.h"

#include <array>
#include <cmath>

namespace vpsim::ff {

namespace {

// The 3x3 minor of `a` without row r and column c.
double minor3(const std::array<double, 16>& a, int r, int c) {
    std::array<double, 9> m{};
    int k = 0;
    for (int i = 0; i < 4; ++i) {
        if (i == r) continue;
        for (int j = 0; j < 4; ++j) {
            if (j == c) continue;
            m[size_t(k++)] = a[size_t(i * 4 + j)];
        }
    }
    return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
}

// The inverse in double precision: false when the determinant is 0 or not finite.
bool inverse_d(const Matrix& m, std::array<double, 16>& inv) {
    std::array<double, 16> a{};
    for (size_t i = 0; i < 16; ++i) a[i] = double(m.m[i]);
    std::array<double, 16> cof{};  // cofactor(r, c) = (-1)^(r+c) minor(r, c)
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) cof[size_t(r * 4 + c)] = ((r + c) % 2 ? -1.0 : 1.0) * minor3(a, r, c);
    const double det = a[0] * cof[0] + a[1] * cof[1] + a[2] * cof[2] + a[3] * cof[3];
    if (!(det != 0.0) || !std::isfinite(det)) return false;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) inv[size_t(i * 4 + j)] = cof[size_t(j * 4 + i)] / det;  // adjugate / det
    return true;
}

}  // namespace

bool invert(const Matrix& m, Matrix& inv) {
    std::array<double, 16> d{};
    if (!inverse_d(m, d)) return false;
    Matrix r;
    for (size_t i = 0; i < 16; ++i) {
        r.m[i] = float(d[i]);
        if (!std::isfinite(r.m[i])) return false;
    }
    inv = r;
    return true;
}

Matrix normal_matrix(const Matrix& wv, bool* singular) {
    Matrix inv;
    const bool ok = invert(wv, inv);
    Matrix n;  // identity outside the upper 3x3
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) n.m[size_t(i * 4 + j)] = ok ? inv.at(j, i) : wv.at(i, j);
    if (singular) *singular = !ok;
    return n;
}

bool similarity3(const Matrix& m, float tol, float* scale) {
    double len2[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) len2[i] += double(m.at(i, k)) * double(m.at(i, k));
    const double s2 = (len2[0] + len2[1] + len2[2]) / 3.0;
    if (!(s2 > 0.0) || !std::isfinite(s2)) return false;
    for (int i = 0; i < 3; ++i) {
        if (std::fabs(len2[i] - s2) > double(tol) * s2) return false;
        for (int j = i + 1; j < 3; ++j) {
            double d = 0;
            for (int k = 0; k < 3; ++k) d += double(m.at(i, k)) * double(m.at(j, k));
            if (std::fabs(d) > double(tol) * s2) return false;
        }
    }
    if (scale) *scale = float(std::sqrt(s2));
    return true;
}

}  // namespace vpsim::ff
