#include "model/scene/generators.h"

#include "model/decl/decl_tokens.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace vpsim::scene {

namespace {
constexpr double kPi = 3.14159265358979323846;
const char* const kAttributeNames[] = {"position", "normal", "texcoord", "color", "blendweight", "blendindices"};
}  // namespace

const char* attribute_name(Attribute a) { return kAttributeNames[size_t(a)]; }

bool attribute_from_name(const std::string& name, Attribute& out) {
    for (size_t i = 0; i < std::size(kAttributeNames); ++i)
        if (name == kAttributeNames[i]) {
            out = Attribute(i);
            return true;
        }
    return false;
}

uint32_t type_size(uint32_t t) {
    switch (t) {
    case decl::D3DVSDT_FLOAT1: return 4;
    case decl::D3DVSDT_FLOAT2: return 8;
    case decl::D3DVSDT_FLOAT3: return 12;
    case decl::D3DVSDT_FLOAT4: return 16;
    case decl::D3DVSDT_D3DCOLOR: return 4;
    case decl::D3DVSDT_UBYTE4: return 4;
    case decl::D3DVSDT_SHORT2: return 4;
    case decl::D3DVSDT_SHORT4: return 8;
    default: return 0;
    }
}

GenAttributes generate_attributes(const GenParams& p) {
    GenAttributes a;
    const uint32_t cols = p.columns, rows = p.rows;
    const size_t n = size_t(cols + 1) * (rows + 1);
    a.position.reserve(n), a.normal.reserve(n), a.texcoord.reserve(n), a.color.reserve(n);
    a.blend_weight.reserve(n), a.blend_indices.reserve(n);
    for (uint32_t j = 0; j <= rows; ++j) {
        for (uint32_t i = 0; i <= cols; ++i) {
            const double u = double(i) / cols, v = double(j) / rows;
            vs::Vec4 pos{}, nrm{};
            switch (p.shape) {
            case Shape::Grid:
                pos = {float((u - 0.5) * p.size), float((v - 0.5) * p.size), 0.0f, 1.0f};
                nrm = {0.0f, 0.0f, -1.0f, 0.0f};
                break;
            case Shape::Sphere: {
                const double theta = v * kPi, phi = u * 2 * kPi;
                const double nx = std::sin(theta) * std::cos(phi), ny = std::cos(theta),
                             nz = std::sin(theta) * std::sin(phi);
                nrm = {float(nx), float(ny), float(nz), 0.0f};
                pos = {float(p.radius * nx), float(p.radius * ny), float(p.radius * nz), 1.0f};
                break;
            }
            case Shape::Torus: {
                const double phi = u * 2 * kPi, theta = v * 2 * kPi;
                const double nx = std::cos(theta) * std::cos(phi), ny = std::sin(theta),
                             nz = std::cos(theta) * std::sin(phi);
                nrm = {float(nx), float(ny), float(nz), 0.0f};
                pos = {float(p.radius * std::cos(phi) + p.tube * nx), float(p.tube * ny),
                       float(p.radius * std::sin(phi) + p.tube * nz), 1.0f};
                break;
            }
            }
            a.position.push_back(pos);
            a.normal.push_back(nrm);
            a.texcoord.push_back({float(u), float(v), 0.0f, 1.0f});
            a.color.push_back({float(u), float(v), float(1 - u), 1.0f});
            // Two bones per vertex along the rows: palette entries b, b + 1 with weights 1 - f, f.
            if (p.bones <= 1) {
                a.blend_weight.push_back({1.0f, 0.0f, 0.0f, 0.0f});
                a.blend_indices.push_back({0.0f, 0.0f, 0.0f, 0.0f});
            } else {
                const double t = v * (p.bones - 1);
                const uint32_t b = std::min(uint32_t(t), p.bones - 2);
                const float f = float(t - b);
                a.blend_weight.push_back({1.0f - f, f, 0.0f, 0.0f});
                a.blend_indices.push_back({float(b), float(b + 1), 0.0f, 0.0f});
            }
        }
    }
    return a;
}

std::vector<uint32_t> generate_triangles(const GenParams& p) {
    std::vector<uint32_t> t;
    t.reserve(size_t(p.columns) * p.rows * 6);
    const uint32_t w = p.columns + 1;
    for (uint32_t j = 0; j < p.rows; ++j)
        for (uint32_t i = 0; i < p.columns; ++i) {
            const uint32_t a = j * w + i, b = a + 1, c = a + w, d = c + 1;
            t.insert(t.end(), {a, c, b, b, c, d});
        }
    return t;
}

void store_element(const GenElement& e, const vs::Vec4& value, uint8_t* out) {
    auto clamp_round = [](double x, double lo, double hi) { return std::clamp(std::nearbyint(x), lo, hi); };
    switch (e.type) {
    case decl::D3DVSDT_FLOAT1:
    case decl::D3DVSDT_FLOAT2:
    case decl::D3DVSDT_FLOAT3:
    case decl::D3DVSDT_FLOAT4: std::memcpy(out, value.data(), type_size(e.type)); break;
    case decl::D3DVSDT_D3DCOLOR: {
        const int order[4] = {2, 1, 0, 3};  // bytes B, G, R, A
        for (int k = 0; k < 4; ++k)
            out[k] = uint8_t(clamp_round(double(std::clamp(value[size_t(order[k])], 0.0f, 1.0f)) * 255.0, 0, 255));
        break;
    }
    case decl::D3DVSDT_UBYTE4:
        for (size_t k = 0; k < 4; ++k) out[k] = uint8_t(clamp_round(double(value[k]) * e.scale, 0, 255));
        break;
    case decl::D3DVSDT_SHORT2:
    case decl::D3DVSDT_SHORT4: {
        const size_t n = e.type == decl::D3DVSDT_SHORT2 ? 2 : 4;
        for (size_t k = 0; k < n; ++k) {
            const auto s = int16_t(clamp_round(double(value[k]) * e.scale, -32768, 32767));
            const auto u = uint16_t(s);
            out[2 * k] = uint8_t(u & 0xFF);
            out[2 * k + 1] = uint8_t(u >> 8);
        }
        break;
    }
    default: throw std::invalid_argument("unknown vertex data type " + std::to_string(e.type));
    }
}

GenResult generate(const GenParams& p) {
    if (p.columns == 0 || p.rows == 0) throw std::invalid_argument("the grid needs at least one column and one row");
    const uint64_t n = uint64_t(p.columns + 1ull) * (p.rows + 1ull);
    if (n > (1ull << 24)) throw std::invalid_argument("more than 16777216 vertices");
    if (p.index_size != 0 && p.index_size != 2 && p.index_size != 4)
        throw std::invalid_argument("index size must be 0, 2 or 4 bytes");
    if (p.index_size == 2 && n > 65536)
        throw std::invalid_argument(std::to_string(n) + " vertices do not fit 16-bit indices: use INDEX32");
    GenResult r;
    r.vertex_count = uint32_t(n);
    r.triangle_count = 2 * p.columns * p.rows;
    const GenAttributes a = generate_attributes(p);
    for (const auto& s : p.streams) {
        uint32_t stride = 0;
        for (const auto& e : s.elements) {
            if (type_size(e.type) == 0) throw std::invalid_argument("unknown vertex data type " + std::to_string(e.type));
            stride += type_size(e.type);
        }
        std::vector<uint8_t> bytes(size_t(stride) * n);
        for (size_t k = 0; k < n; ++k) {
            uint8_t* out = bytes.data() + k * stride;
            for (const auto& e : s.elements) {
                const std::vector<vs::Vec4>* src = nullptr;
                switch (e.attribute) {
                case Attribute::Position: src = &a.position; break;
                case Attribute::Normal: src = &a.normal; break;
                case Attribute::Texcoord: src = &a.texcoord; break;
                case Attribute::Color: src = &a.color; break;
                case Attribute::BlendWeight: src = &a.blend_weight; break;
                case Attribute::BlendIndices: src = &a.blend_indices; break;
                }
                store_element(e, (*src)[k], out);
                out += type_size(e.type);
            }
        }
        r.streams.push_back(std::move(bytes));
        r.strides.push_back(stride);
    }
    if (p.index_size) {
        const std::vector<uint32_t> tri = generate_triangles(p);
        r.indices.resize(tri.size() * p.index_size);
        for (size_t k = 0; k < tri.size(); ++k)
            for (uint32_t b = 0; b < p.index_size; ++b) r.indices[k * p.index_size + b] = uint8_t(tri[k] >> (8 * b));
    }
    return r;
}

}  // namespace vpsim::scene
