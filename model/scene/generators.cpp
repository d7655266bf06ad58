#include "model/scene/generators.h"

#include "model/decl/decl_tokens.h"
#include "model/scene/grid_cache_order.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>

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

namespace {

// What a vertex's attributes take from its column i alone and from its row j alone. A vertex's
// sines and cosines are those of its column's angle and its row's angle, so they are computed
// once per column and once per row (generate() keeps a block of columns at a time), not per
// vertex: the same double values, so the same bytes.
struct ColumnValues {
    double u = 0;
    double cos_phi = 0, sin_phi = 0;  // sphere, torus: phi = 2 pi u
};
struct RowValues {
    double v = 0;
    double cos_theta = 0, sin_theta = 0;  // sphere: theta = pi v; torus: theta = 2 pi v
    vs::Vec4 blend_weight{}, blend_indices{};
};

ColumnValues column_values(const GenParams& p, uint32_t i) {
    ColumnValues c;
    c.u = double(i) / p.columns;
    if (p.shape != Shape::Grid) {
        const double phi = c.u * 2 * kPi;
        c.cos_phi = std::cos(phi), c.sin_phi = std::sin(phi);
    }
    return c;
}

RowValues row_values(const GenParams& p, uint32_t j) {
    RowValues r;
    r.v = double(j) / p.rows;
    if (p.shape != Shape::Grid) {
        const double theta = p.shape == Shape::Sphere ? r.v * kPi : r.v * 2 * kPi;
        r.cos_theta = std::cos(theta), r.sin_theta = std::sin(theta);
    }
    // Two bones per vertex along the rows: palette entries b, b + 1 with weights 1 - f, f.
    if (p.bones <= 1) {
        r.blend_weight = {1.0f, 0.0f, 0.0f, 0.0f};
        r.blend_indices = {0.0f, 0.0f, 0.0f, 0.0f};
    } else {
        const double t = r.v * (p.bones - 1);
        const uint32_t b = std::min(uint32_t(t), p.bones - 2);
        const float f = float(t - b);
        r.blend_weight = {1.0f - f, f, 0.0f, 0.0f};
        r.blend_indices = {float(b), float(b + 1), 0.0f, 0.0f};
    }
    return r;
}

// The six attributes of the vertex at column c, row r, in Attribute order.
std::array<vs::Vec4, 6> vertex_attributes(const GenParams& p, const ColumnValues& c, const RowValues& r) {
    const double u = c.u, v = r.v;
    vs::Vec4 pos{}, nrm{};
    switch (p.shape) {
    case Shape::Grid:
        pos = {float((u - 0.5) * p.size), float((v - 0.5) * p.size), 0.0f, 1.0f};
        nrm = {0.0f, 0.0f, -1.0f, 0.0f};
        break;
    case Shape::Sphere: {
        const double nx = r.sin_theta * c.cos_phi, ny = r.cos_theta, nz = r.sin_theta * c.sin_phi;
        nrm = {float(nx), float(ny), float(nz), 0.0f};
        pos = {float(p.radius * nx), float(p.radius * ny), float(p.radius * nz), 1.0f};
        break;
    }
    case Shape::Torus: {
        const double nx = r.cos_theta * c.cos_phi, ny = r.sin_theta, nz = r.cos_theta * c.sin_phi;
        nrm = {float(nx), float(ny), float(nz), 0.0f};
        pos = {float(p.radius * c.cos_phi + p.tube * nx), float(p.tube * ny),
               float(p.radius * c.sin_phi + p.tube * nz), 1.0f};
        break;
    }
    }
    std::array<vs::Vec4, 6> a{};
    a[size_t(Attribute::Position)] = pos;
    a[size_t(Attribute::Normal)] = nrm;
    a[size_t(Attribute::Texcoord)] = {float(u), float(v), 0.0f, 1.0f};
    a[size_t(Attribute::Color)] = {float(u), float(v), float(1 - u), 1.0f};
    a[size_t(Attribute::BlendWeight)] = r.blend_weight;
    a[size_t(Attribute::BlendIndices)] = r.blend_indices;
    return a;
}

}  // namespace

GenAttributes generate_attributes(const GenParams& p) {
    GenAttributes a;
    const size_t n = size_t(p.columns + 1) * (p.rows + 1);
    a.position.reserve(n), a.normal.reserve(n), a.texcoord.reserve(n), a.color.reserve(n);
    a.blend_weight.reserve(n), a.blend_indices.reserve(n);
    for (uint32_t j = 0; j <= p.rows; ++j) {
        const RowValues r = row_values(p, j);
        for (uint32_t i = 0; i <= p.columns; ++i) {
            const auto v = vertex_attributes(p, column_values(p, i), r);
            a.position.push_back(v[0]);
            a.normal.push_back(v[1]);
            a.texcoord.push_back(v[2]);
            a.color.push_back(v[3]);
            a.blend_weight.push_back(v[4]);
            a.blend_indices.push_back(v[5]);
        }
    }
    return a;
}

bool index_order_from_name(const std::string& name, IndexOrder& out) {
    if (name == "raw") out = IndexOrder::Raw;
    else if (name == "optimised") out = IndexOrder::Optimised;
    else if (name == "random") out = IndexOrder::Random;
    else return false;
    return true;
}

namespace {

// The triangle list in p.order, written to `out` as little-endian indices of `index_size`
// bytes, straight into the buffer: no index list is held beside it.
void write_triangles(const GenParams& p, uint8_t* out, uint32_t index_size) {
    if (p.order == IndexOrder::Optimised) {
        // meshoptimizer's vertex cache optimisation (meshopt_optimizeVertexCache), computed
        // for the grid without meshoptimizer's O(vertices) working memory (grid_cache_order.h).
        grid_cache_order(p.columns, p.rows, out, index_size);
        return;
    }
    uint8_t* o = out;
    const uint32_t w = p.columns + 1;
    for (uint32_t j = 0; j < p.rows; ++j)
        for (uint32_t i = 0; i < p.columns; ++i) {
            const uint32_t a = j * w + i, b = a + 1, c = a + w, d = c + 1;
            for (uint32_t x : {a, c, b, b, c, d})
                for (uint32_t byte = 0; byte < index_size; ++byte) *o++ = uint8_t(x >> (8 * byte));
        }
    if (p.order == IndexOrder::Random) {
        // Fisher-Yates over the triangles, spelled out so the order is the same everywhere:
        // for i = n-1 down to 1, swap triangle i with triangle mt19937(seed)() mod (i + 1).
        std::mt19937 rng(p.seed);
        const size_t tri_bytes = 3 * size_t(index_size);
        for (size_t i = size_t(2) * p.columns * p.rows; i-- > 1;) {
            const size_t j = size_t(rng() % (i + 1));
            std::swap_ranges(out + tri_bytes * i, out + tri_bytes * (i + 1), out + tri_bytes * j);
        }
    }
}

}  // namespace

std::vector<uint32_t> generate_triangles(const GenParams& p) {
    std::vector<uint8_t> bytes(size_t(p.columns) * p.rows * 6 * 4);
    write_triangles(p, bytes.data(), 4);
    std::vector<uint32_t> t(bytes.size() / 4);
    for (size_t k = 0; k < t.size(); ++k)
        t[k] = uint32_t(bytes[4 * k]) | uint32_t(bytes[4 * k + 1]) << 8 | uint32_t(bytes[4 * k + 2]) << 16 |
               uint32_t(bytes[4 * k + 3]) << 24;
    return t;
}

namespace {

// The conversions of store_element, one per type: small enough to be inlined into the loops of
// store_run below, which pick the type once for a run of vertices, not once per vertex.
double clamp_round(double x, double lo, double hi) { return std::clamp(std::nearbyint(x), lo, hi); }

template <size_t Bytes>
void store_floats(const vs::Vec4& value, uint8_t* out) {
    std::memcpy(out, value.data(), Bytes);
}

void store_color(const vs::Vec4& value, uint8_t* out) {
    const int order[4] = {2, 1, 0, 3};  // bytes B, G, R, A
    for (int k = 0; k < 4; ++k)
        out[k] = uint8_t(clamp_round(double(std::clamp(value[size_t(order[k])], 0.0f, 1.0f)) * 255.0, 0, 255));
}

void store_ubyte4(const vs::Vec4& value, float scale, uint8_t* out) {
    for (size_t k = 0; k < 4; ++k) out[k] = uint8_t(clamp_round(double(value[k]) * scale, 0, 255));
}

template <size_t N>
void store_shorts(const vs::Vec4& value, float scale, uint8_t* out) {
    for (size_t k = 0; k < N; ++k) {
        const auto s = int16_t(clamp_round(double(value[k]) * scale, -32768, 32767));
        const auto u = uint16_t(s);
        out[2 * k] = uint8_t(u & 0xFF);
        out[2 * k + 1] = uint8_t(u >> 8);
    }
}

// Element e of `count` vertices: the values attrs[i][attribute] to out + i * stride.
void store_run(const GenElement& e, const std::array<vs::Vec4, 6>* attrs, uint32_t count, uint8_t* out, uint32_t stride) {
    const size_t a = size_t(e.attribute);
    const float scale = e.scale;
    const auto each = [&](auto store) {
        for (uint32_t i = 0; i < count; ++i, out += stride) store(attrs[i][a], out);
    };
    switch (e.type) {
    case decl::D3DVSDT_FLOAT1: each(store_floats<4>); break;
    case decl::D3DVSDT_FLOAT2: each(store_floats<8>); break;
    case decl::D3DVSDT_FLOAT3: each(store_floats<12>); break;
    case decl::D3DVSDT_FLOAT4: each(store_floats<16>); break;
    case decl::D3DVSDT_D3DCOLOR: each(store_color); break;
    case decl::D3DVSDT_UBYTE4: each([scale](const vs::Vec4& v, uint8_t* o) { store_ubyte4(v, scale, o); }); break;
    case decl::D3DVSDT_SHORT2: each([scale](const vs::Vec4& v, uint8_t* o) { store_shorts<2>(v, scale, o); }); break;
    case decl::D3DVSDT_SHORT4: each([scale](const vs::Vec4& v, uint8_t* o) { store_shorts<4>(v, scale, o); }); break;
    default: throw std::invalid_argument("unknown vertex data type " + std::to_string(e.type));
    }
}

}  // namespace

void store_element(const GenElement& e, const vs::Vec4& value, uint8_t* out) {
    std::array<vs::Vec4, 6> one{};
    one[size_t(e.attribute)] = value;
    store_run(e, &one, 1, out, 0);
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
    // The indices first: ordering them needs working memory (grid_cache_order), which is freed
    // before the vertex streams are allocated, so the peak is the buffers' size, not more.
    if (p.index_size) {
        r.indices.resize(size_t(p.columns) * p.rows * 6 * p.index_size);
        write_triangles(p, r.indices.data(), p.index_size);
    }
    // Written straight into the buffers, vertex by vertex: generation holds nothing per vertex
    // beyond the buffers themselves (a 1M-vertex mesh costs its buffers, not 100+ bytes more).
    // Each element's stream and offset in the vertex are worked out once, not per vertex.
    struct Store {
        const GenElement* e;
        size_t stream;
        uint32_t offset;
    };
    std::vector<Store> stores;
    std::vector<uint32_t> strides;
    for (size_t si = 0; si < p.streams.size(); ++si) {
        uint32_t stride = 0;
        for (const auto& e : p.streams[si].elements) {
            if (type_size(e.type) == 0) throw std::invalid_argument("unknown vertex data type " + std::to_string(e.type));
            stores.push_back({&e, si, stride});
            stride += type_size(e.type);
        }
        strides.push_back(stride);
        r.streams.emplace_back(size_t(stride) * n);
        r.strides.push_back(stride);
    }
    // A block of columns at a time, each column's values computed once per block, each row's once
    // per row and block: the sines and cosines cost O(columns + rows x blocks), not O(vertices),
    // and the block's memory is bounded (a grid may be 16M columns by 1 row). The attributes of
    // a row of the block are computed first, then stored element by element (store_run).
    constexpr uint32_t kBlock = 256;
    const size_t block_size = std::min<size_t>(kBlock, size_t(p.columns) + 1);
    std::vector<ColumnValues> block(block_size);
    std::vector<std::array<vs::Vec4, 6>> attrs(block_size);
    for (uint32_t i0 = 0; i0 <= p.columns; i0 += kBlock) {
        const uint32_t width = std::min<uint32_t>(kBlock, p.columns + 1 - i0);
        for (uint32_t i = 0; i < width; ++i) block[i] = column_values(p, i0 + i);
        for (uint32_t j = 0; j <= p.rows; ++j) {
            const RowValues row = row_values(p, j);
            for (uint32_t i = 0; i < width; ++i) attrs[i] = vertex_attributes(p, block[i], row);
            const size_t k = size_t(j) * (p.columns + 1) + i0;  // the row's first vertex in the block
            for (const Store& s : stores)
                store_run(*s.e, attrs.data(), width, r.streams[s.stream].data() + k * strides[s.stream] + s.offset,
                          strides[s.stream]);
        }
    }
    return r;
}

}  // namespace vpsim::scene
