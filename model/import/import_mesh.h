// One mesh of an imported model as a DirectX 8 title would draw it (docs/import.md): its
// triangles, skinning (the strongest influences per vertex, triangles fitted to bone palettes,
// D3DX-style bone combinations), the vertex layout (an FVF, or a declaration for tweening and
// --effect skin-shader), the vertex and index buffers' bytes and the ACMR figures.
#pragma once
#include "model/import/import_detail.h"

#include <assimp/mesh.h>

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::import::detail {

// A bone combination: the triangles drawn with one palette.
struct Subset {
    std::vector<uint32_t> bones;      // mesh bone indices, palette slot = position
    std::vector<uint32_t> triangles;  // mesh triangle numbers, file order
    uint32_t first_vertex = 0, vertex_count = 0, start_index = 0;
};

struct BuiltMesh {
    std::string name;
    uint32_t source_index = 0;
    std::string fvf;                   // empty when a declaration is used (tweening)
    std::string declaration;           // tweening
    uint32_t stride0 = 0, stride1 = 0;
    std::vector<uint8_t> vb0, vb1, ib;
    bool index32 = false;
    uint32_t vertices = 0, triangles = 0;
    bool skinned = false, indexed = false, shader = false;  // shader: --effect skin-shader
    uint32_t blend_count = 0;          // max matrices per vertex (skinned)
    std::vector<Subset> subsets;
    std::vector<aiMatrix4x4> offsets;  // per mesh bone
    std::string program;               // --effect skin-shader: the vs.1.1 program
    std::vector<std::string> bone_names;
    uint64_t dropped_weights = 0, unweighted_vertices = 0, weights_dropped_for_palette = 0;
    double acmr_file = 0, acmr_optimised = 0;  // of the drawn order vs meshoptimizer's
    double acmr_drawn = 0;
};

// Builds mesh `mesh_index` (`m`); `mb` is frame B's mesh for tweening (same vertex and face count),
// else null. Bad data (a non-finite attribute or weight, frames that differ, too many vertices)
// fails through `log`; what is left out is noted there.
BuiltMesh build_mesh(const aiMesh* m, const aiMesh* mb, uint32_t mesh_index, const ImportOptions& opt, ImportLog& log);

}  // namespace vpsim::import::detail
