// Built-in mesh generators for scenes: grid, sphere, torus. Each is a (columns x rows) grid of
// quads over a parametric surface with (columns+1) x (rows+1) vertices (the seam of a sphere or
// torus is duplicated so texture coordinates are continuous), and an indexed triangle list of
// 2 * columns * rows triangles in row order (docs/scenes.md, "Generators"). Deterministic: the
// same parameters give the same bytes.
#pragma once

#include "model/vs/vs_exec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::scene {

enum class Shape : uint8_t { Grid, Sphere, Torus };

enum class Attribute : uint8_t { Position, Normal, Texcoord, Color, BlendWeight, BlendIndices };
const char* attribute_name(Attribute a);  // "position" ...
bool attribute_from_name(const std::string& name, Attribute& out);

// One element of a generated stream: an attribute stored as a D3DVSDT_ type. Stored value:
// FLOATn: the first n components; D3DCOLOR: each component in [0, 1] as round(255 * c),
// bytes B, G, R, A; UBYTE4 / SHORT2 / SHORT4: round(scale * c), clamped to the type's range.
struct GenElement {
    Attribute attribute = Attribute::Position;
    uint32_t type = 2;  // D3DVSDT_FLOAT3
    float scale = 1.0f;
};
struct GenStream {
    std::string name;
    std::vector<GenElement> elements;  // packed in order: the stride is the sum of the sizes
};

// The order of the generated triangles: row order (raw), reordered for a post-transform cache
// by meshoptimizer (meshopt_optimizeVertexCache), or shuffled (a seeded Fisher-Yates).
enum class IndexOrder : uint8_t { Raw, Optimised, Random };
bool index_order_from_name(const std::string& name, IndexOrder& out);  // "raw", "optimised", "random"

struct GenParams {
    Shape shape = Shape::Grid;
    uint32_t columns = 1, rows = 1;  // grid: quads; sphere: slices, stacks; torus: rings, sides
    float size = 2.0f;               // grid: edge length (the grid spans -size/2 .. size/2 in x and y)
    float radius = 1.0f;             // sphere radius; torus: centre-of-tube radius
    float tube = 0.25f;              // torus tube radius
    uint32_t bones = 2;              // blend indices: palette entries 0..bones-1 along the rows
    uint32_t index_size = 2;         // 0: no index buffer; 2 or 4 bytes
    IndexOrder order = IndexOrder::Raw;
    uint32_t seed = 1;               // IndexOrder::Random
    std::vector<GenStream> streams;
};

struct GenAttributes {  // per vertex, in vertex order
    std::vector<vs::Vec4> position, normal, texcoord, color, blend_weight, blend_indices;
};

struct GenResult {
    uint32_t vertex_count = 0;
    uint32_t triangle_count = 0;
    std::vector<std::vector<uint8_t>> streams;  // one per GenParams::streams
    std::vector<uint32_t> strides;
    std::vector<uint8_t> indices;               // index_size bytes each (empty when index_size == 0)
};

uint32_t type_size(uint32_t d3dvsdt_type);  // bytes of one element (0 for an invalid type)
// The attribute values (exact floats) of every vertex.
GenAttributes generate_attributes(const GenParams& p);
// The vertex indices of the triangle list, three per triangle, in p.order.
std::vector<uint32_t> generate_triangles(const GenParams& p);
// Stores one value as `e` does into `out` (type_size(e.type) bytes).
void store_element(const GenElement& e, const vs::Vec4& value, uint8_t* out);
// Everything. Throws std::invalid_argument (bad sizes, too many vertices for 16-bit indices).
GenResult generate(const GenParams& p);

}  // namespace vpsim::scene
