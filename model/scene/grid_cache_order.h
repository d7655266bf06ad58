#pragma once

#include <cstdint>

namespace vpsim::scene {

// The triangles of a generated grid (columns x rows quads, (columns + 1) vertices per row; quad
// (i, j) is the triangles (a, c, b) and (b, c, d) with a = j (columns + 1) + i, b = a + 1,
// c = a + columns + 1, d = c + 1, quads in row order) in exactly the order
// meshopt_optimizeVertexCache of meshoptimizer 0.18 gives that triangle list, written to `out`
// as little-endian indices of `index_size` (2 or 4) bytes, 6 per quad.
//
// Why not call meshoptimizer: it needs the input list beside the output and about 46 bytes of
// working memory per vertex besides (adjacency lists, counts, scores), which made a generated
// mesh's peak memory grow by ~70 bytes per vertex beyond its buffers. Here the adjacency of
// the grid is computed, not stored, and the state is 16.25 bytes per vertex (a packed
// adjacency list that also holds the vertex's place in the cache list, the vertex and triangle
// scores, an emitted bit per triangle) and 16 KB for the cache list, freed before the caller
// allocates its vertex streams. tests/test_scene.cpp checks that the order is meshoptimizer's,
// byte for byte, on grids of many shapes.
void grid_cache_order(uint32_t columns, uint32_t rows, uint8_t* out, uint32_t index_size);

}  // namespace vpsim::scene
