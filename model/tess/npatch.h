// N-patches (curved PN triangles): every triangle of a triangle draw replaced by a cubic Bezier
// triangle built from its positions and normals (choice 9, docs/tessellation.md).
#pragma once

#include "model/pipe/primitive_assembly.h"
#include "model/tess/tessellator.h"

#include <string>
#include <vector>

namespace vpsim::tess {

struct NPatchOutput {
    std::vector<Registers> vertices;
    std::vector<Triangle> triangles;  // indices into vertices, the input triangles' winding
    uint32_t segments = 1;            // per edge
    bool approximated = false;
    std::vector<std::string> warnings;
};

// The per-edge segment count of D3DRS_PATCHSEGMENTS (1 when N-patches are off, <= 1.0).
// Rule T13 for an N-patch draw of `triangles` triangles at `segments` (before any fetch).
void check_npatch_limit(uint64_t triangles, uint32_t segments, const TessProfile& profile);
uint32_t npatch_segments(const NPatchState& state, const TessProfile& profile, std::string* warning = nullptr,
                         bool* approximated = nullptr);
// Closed forms: (n+1)(n+2)/2 vertices and n^2 triangles per input triangle.
inline uint64_t npatch_vertex_count(uint32_t n) { return uint64_t(n + 1) * (n + 2) / 2; }
inline uint64_t npatch_triangle_count(uint32_t n) { return uint64_t(n) * n; }

// Subdivides one triangle (v1, v2, v3) into n segments per edge and appends it to `out`. The
// corner vertices are the input registers unchanged. Throws std::invalid_argument when the
// position or normal register of the profile is not 0..15.
void npatch_triangle(const Registers& v1, const Registers& v2, const Registers& v3, uint32_t n,
                     const NPatchState& state, const TessProfile& profile, NPatchOutput& out);

// A whole draw: `refs` are the vertex references in draw order (indices resolved), assembled as
// a triangle list, strip (odd triangles with swapped first two vertices) or fan.
NPatchOutput npatch_draw(pipe::PrimitiveType type, const std::vector<Registers>& refs, const NPatchState& state,
                         const TessProfile& profile);

}  // namespace vpsim::tess
