// Primitive assembly, counting only: how many vertex references P primitives of each D3D
// primitive type need, how many primitives N references make, and an assembler that counts
// primitives as vertices arrive in draw order (the output unit of docs, spec unit 8).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace vpsim::pipe {

// D3DPRIMITIVETYPE values (d3d8types.h).
enum class PrimitiveType : uint8_t {
    PointList = 1,
    LineList = 2,
    LineStrip = 3,
    TriangleList = 4,
    TriangleStrip = 5,
    TriangleFan = 6,
};
inline constexpr PrimitiveType kAllPrimitiveTypes[] = {PrimitiveType::PointList,    PrimitiveType::LineList,
                                                       PrimitiveType::LineStrip,    PrimitiveType::TriangleList,
                                                       PrimitiveType::TriangleStrip, PrimitiveType::TriangleFan};

const char* primitive_type_name(PrimitiveType t);  // "pointlist", "linelist", ..., "trianglefan"
std::optional<PrimitiveType> parse_primitive_type(const std::string& name);  // any case, "D3DPT_" optional

// Vertex references of a DrawPrimitive(type, primitives): P, 2P, P+1, 3P, P+2, P+2 (0 for P=0).
uint64_t vertex_count(PrimitiveType t, uint64_t primitives);
// Whole primitives made by n references: n, n/2, n-1, n/3, n-2, n-2 (never negative).
uint64_t primitive_count(PrimitiveType t, uint64_t vertices);
// Vertices per primitive (1, 2 or 3).
unsigned vertices_per_primitive(PrimitiveType t);
bool is_triangle_type(PrimitiveType t);

// Counts primitives as vertices arrive in draw order. Triangle strips alternate winding: the
// assembler reports whether the primitive just completed is odd (its winding is flipped), but
// only counts.
class PrimitiveAssembler {
public:
    explicit PrimitiveAssembler(PrimitiveType t) : type_(t) {}

    // One vertex reference; returns true when it completes a primitive.
    bool push();
    void reset() { vertices_ = primitives_ = 0; }

    PrimitiveType type() const { return type_; }
    uint64_t vertices() const { return vertices_; }
    uint64_t primitives() const { return primitives_; }
    // For triangle strips: the last completed triangle had flipped winding (the 2nd, 4th, ...).
    bool last_flipped() const { return type_ == PrimitiveType::TriangleStrip && primitives_ % 2 == 0 && primitives_ > 0; }

private:
    PrimitiveType type_;
    uint64_t vertices_ = 0;
    uint64_t primitives_ = 0;
};

}  // namespace vpsim::pipe
