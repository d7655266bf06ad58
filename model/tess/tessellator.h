// The tessellator input stage: from a declaration with STREAM_TESS bindings, the bound streams
// and a patch, the 16 input registers of every generated vertex and the triangles of the draw
// (docs/tessellation.md).
#pragma once

#include "model/decl/decl_decoder.h"
#include "model/tess/tess_basis.h"
#include "model/tess/tess_domain.h"
#include "model/tess/tess_types.h"
#include "model/vs/vs_fetch.h"

#include <string>
#include <vector>

namespace vpsim::tess {

using Registers = std::array<Vec4, vs::kNumInputs>;

// Validation of the patch description (choice 10). Throws TessError T1 (basis/order), T2 (size),
// T3 (quintic without the cap) or T5 (tri NumVertices).
// Rule T13: a draw that would generate more than profile.max_vertices vertices.
void check_vertex_limit(uint64_t vertices, const char* what, const TessProfile& profile);
// T13 for a patch draw: its segment counts (as tessellate() takes them) against max_vertices,
// before its control points are fetched.
void check_output_limit(const RectPatchInfo& info, const float* segs, const PatchState& state,
                        const TessProfile& profile);
void check_output_limit(const TriPatchInfo& info, const float* segs, const PatchState& state,
                        const TessProfile& profile);
void validate(const RectPatchInfo& info, const TessProfile& profile);
void validate(const TriPatchInfo& info, const TessProfile& profile);
// Declaration rules for a patch draw: T11 (declaration with errors), T9 (TESSNORMAL input not
// loaded from a memory stream), T10 (TESSUV on a tri patch when the profile forbids it).
void validate_declaration(const decl::Declaration& d, bool tri_patch, const TessProfile& profile);

// Control-point vertex indices: rect row-major (Width x Height), tri in patch order. Throws T4
// when an index passes 0xFFFFFFFF.
std::vector<uint32_t> control_indices(const RectPatchInfo& info);
std::vector<uint32_t> control_indices(const TriPatchInfo& info);
// Fetches (and converts to float, choice 8) every control point. Throws T4 (unbound or too narrow
// stream, control point past the end of a buffer).
std::vector<Registers> fetch_control_points(const decl::Declaration& d, const vs::Streams& streams,
                                            const std::vector<uint32_t>& indices);

struct TessOutput {
    Domain domain;                    // (u, v) points and triangles
    std::vector<Registers> vertices;  // v0..v15 of each domain point
    std::array<uint32_t, 4> segments{};  // total segments per edge as tessellated (tri: 3 used)
    bool approximated = false;        // continuous edge style (choice 3)
    uint32_t degenerate_normals = 0;  // TESSNORMAL samples that took a neighbour's normal
    std::vector<std::string> warnings;
};

// Tessellates an already validated patch from fetched control points. `segs` may be null
// (D3DRS_PATCHSEGMENTS on every edge). The registers follow the declaration's events: memory
// registers are evaluated with the basis, TESSUV gives (u, v, 0, 1), TESSNORMAL the surface
// normal of its input register (choice 6), the rest (0, 0, 0, 0).
TessOutput tessellate(const decl::Declaration& d, const RectPatchInfo& info, const std::vector<Registers>& control,
                      const float* segs, const PatchState& state, const TessProfile& profile);
TessOutput tessellate(const decl::Declaration& d, const TriPatchInfo& info, const std::vector<Registers>& control,
                      const float* segs, const PatchState& state, const TessProfile& profile);

// Validate, fetch and tessellate in one call (DrawRectPatch / DrawTriPatch with handle 0).
TessOutput draw_patch(const decl::Declaration& d, const vs::Streams& streams, const RectPatchInfo& info,
                      const float* segs, const PatchState& state, const TessProfile& profile);
TessOutput draw_patch(const decl::Declaration& d, const vs::Streams& streams, const TriPatchInfo& info,
                      const float* segs, const PatchState& state, const TessProfile& profile);

// Adds the TESSNORMAL normals of `n` (= du x dv per sample) to out, with the profile's
// normalisation, flip and degenerate fallback (exposed for N-patch-free tests).
struct NormalInput {
    Vec4 du{}, dv{};
};
std::vector<Vec4> tess_normals(const std::vector<NormalInput>& in, const std::vector<DomainPoint>& points,
                               const TessProfile& profile, uint32_t* degenerate = nullptr);

}  // namespace vpsim::tess
