#include "model/pipe/primitive_assembly.h"

#include <cctype>

namespace vpsim::pipe {

const char* primitive_type_name(PrimitiveType t) {
    switch (t) {
    case PrimitiveType::PointList: return "pointlist";
    case PrimitiveType::LineList: return "linelist";
    case PrimitiveType::LineStrip: return "linestrip";
    case PrimitiveType::TriangleList: return "trianglelist";
    case PrimitiveType::TriangleStrip: return "trianglestrip";
    case PrimitiveType::TriangleFan: return "trianglefan";
    }
    return "?";
}

std::optional<PrimitiveType> parse_primitive_type(const std::string& name) {
    std::string n = name;
    for (auto& c : n) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (n.rfind("d3dpt_", 0) == 0) n = n.substr(6);
    for (PrimitiveType t : kAllPrimitiveTypes)
        if (n == primitive_type_name(t)) return t;
    return std::nullopt;
}

unsigned vertices_per_primitive(PrimitiveType t) {
    switch (t) {
    case PrimitiveType::PointList: return 1;
    case PrimitiveType::LineList:
    case PrimitiveType::LineStrip: return 2;
    default: return 3;
    }
}

bool is_triangle_type(PrimitiveType t) { return vertices_per_primitive(t) == 3; }

uint64_t vertex_count(PrimitiveType t, uint64_t p) {
    if (p == 0) return 0;
    switch (t) {
    case PrimitiveType::PointList: return p;
    case PrimitiveType::LineList: return 2 * p;
    case PrimitiveType::LineStrip: return p + 1;
    case PrimitiveType::TriangleList: return 3 * p;
    case PrimitiveType::TriangleStrip:
    case PrimitiveType::TriangleFan: return p + 2;
    }
    return 0;
}

uint64_t primitive_count(PrimitiveType t, uint64_t n) {
    switch (t) {
    case PrimitiveType::PointList: return n;
    case PrimitiveType::LineList: return n / 2;
    case PrimitiveType::LineStrip: return n >= 2 ? n - 1 : 0;
    case PrimitiveType::TriangleList: return n / 3;
    case PrimitiveType::TriangleStrip:
    case PrimitiveType::TriangleFan: return n >= 3 ? n - 2 : 0;
    }
    return 0;
}

bool PrimitiveAssembler::push() {
    ++vertices_;
    const uint64_t now = primitive_count(type_, vertices_);
    const bool completed = now != primitives_;
    primitives_ = now;
    return completed;
}

}  // namespace vpsim::pipe
