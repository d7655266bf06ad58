// Domain generation: the (u, v) points and triangles of a rect or tri patch for per-edge
// segment counts (choices 2 and 4), and the closed-form counts (docs/tessellation.md).
#pragma once

#include "model/tess/tess_types.h"

#include <array>
#include <cstdint>
#include <vector>

namespace vpsim::tess {

// Edge bits of a domain point.
enum EdgeBits : uint8_t {
    kRectTop = 1, kRectRight = 2, kRectBottom = 4, kRectLeft = 8,
    kTriEdge0 = 1,  // 0->9, u == v
    kTriEdge1 = 2,  // 9->6, v == 1
    kTriEdge2 = 4,  // 6->0, u == 0
};

// One generated point. Its exact position is u = ui / un, v = vi / vn (for tri patches un == vn).
// u and v are those quotients rounded once (float(ui) / float(un)), so 0 and 1 are exact.
struct DomainPoint {
    float u = 0, v = 0;
    uint32_t ui = 0, un = 1, vi = 0, vn = 1;
    uint8_t edges = 0;  // EdgeBits of the edges it lies on
};
using Triangle = std::array<uint32_t, 3>;

struct Domain {
    std::vector<DomainPoint> points;  // sorted by v, then u (row-major for a regular grid)
    std::vector<Triangle> triangles;  // winding per TessProfile::winding
};

// Rect domain for total segment counts per edge n = {top, right, bottom, left} (each >= 1).
// Interior: nu = max(top, bottom) columns, nv = max(left, right) rows; an edge whose count
// differs from its interior count is joined to the interior by a transition strip.
Domain rect_domain(const std::array<uint32_t, 4>& n, const TessProfile& profile = {});
// Tri domain for counts {edge 0->9, edge 9->6, edge 6->0}: rows from the apex with
// n = max of the three; edges that differ get transition strips.
Domain tri_domain(const std::array<uint32_t, 3>& n, const TessProfile& profile = {});

// Closed forms (with transitions; profile.transitions == false: the counts of the equalised edges).
uint64_t rect_vertex_count(const std::array<uint32_t, 4>& n);
uint64_t rect_triangle_count(const std::array<uint32_t, 4>& n);
uint64_t tri_vertex_count(const std::array<uint32_t, 3>& n);
uint64_t tri_triangle_count(const std::array<uint32_t, 3>& n);
// The edge counts the domain really uses (transitions off: each edge takes its interior count).
std::array<uint32_t, 4> effective_rect_counts(const std::array<uint32_t, 4>& n, const TessProfile& profile);
std::array<uint32_t, 3> effective_tri_counts(const std::array<uint32_t, 3>& n, const TessProfile& profile);

}  // namespace vpsim::tess
