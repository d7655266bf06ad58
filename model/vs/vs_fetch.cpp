// Vertex fetch, functional (see vs_fetch.h and docs/exec.md, "Vertex fetch").
#include "model/vs/vs_fetch.h"

#include <fmt/format.h>

#include <cstring>

namespace vpsim::vs {

namespace {

std::string fetch_message(uint32_t stream, int64_t index, const std::string& message) {
    return index < 0 ? fmt::format("stream {}: {}", stream, message)
                     : fmt::format("stream {}, vertex {}: {}", stream, index, message);
}

// Little-endian loads, independent of the host's byte order.
uint32_t load_u32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
float load_f32(const uint8_t* p) {
    const uint32_t u = load_u32(p);
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}
float load_s16(const uint8_t* p) {
    const uint16_t u = uint16_t(p[0] | p[1] << 8);
    int16_t s;
    std::memcpy(&s, &u, sizeof s);
    return float(s);
}
// D3DCOLOR and nothing else is normalised: the correctly rounded quotient byte / 255.
float unorm8(uint8_t b) { return float(b) / 255.0f; }

}  // namespace

FetchError::FetchError(uint32_t stream_, int64_t index_, const std::string& message)
    : std::runtime_error(fetch_message(stream_, index_, message)), stream(stream_), index(index_) {}

void check_streams(const decl::Declaration& d, const Streams& streams) {
    for (const auto& s : d.streams) {
        if (s.tess) continue;
        const StreamBinding& b = streams[s.stream];
        if (!b.bound)
            throw FetchError(
                s.stream, -1,
                fmt::format("not bound, but the declaration selects it (declared vertex size {} bytes)", s.size));
        if (b.stride < s.size)
            throw FetchError(s.stream, -1,
                             fmt::format("stride {} is smaller than the declared vertex size {}", b.stride, s.size));
    }
}

Vec4 expand_element(uint32_t type, const uint8_t* p) {
    switch (type) {
    case decl::D3DVSDT_FLOAT1: return {load_f32(p), 0.0f, 0.0f, 1.0f};
    case decl::D3DVSDT_FLOAT2: return {load_f32(p), load_f32(p + 4), 0.0f, 1.0f};
    case decl::D3DVSDT_FLOAT3: return {load_f32(p), load_f32(p + 4), load_f32(p + 8), 1.0f};
    case decl::D3DVSDT_FLOAT4: return {load_f32(p), load_f32(p + 4), load_f32(p + 8), load_f32(p + 12)};
    // A little-endian ARGB DWORD: the bytes in memory are B, G, R, A.
    case decl::D3DVSDT_D3DCOLOR: return {unorm8(p[2]), unorm8(p[1]), unorm8(p[0]), unorm8(p[3])};
    case decl::D3DVSDT_UBYTE4: return {float(p[0]), float(p[1]), float(p[2]), float(p[3])};
    case decl::D3DVSDT_SHORT2: return {load_s16(p), load_s16(p + 2), 0.0f, 1.0f};
    case decl::D3DVSDT_SHORT4: return {load_s16(p), load_s16(p + 2), load_s16(p + 4), load_s16(p + 6)};
    default: throw std::invalid_argument(fmt::format("expand_element: {} is not a D3DVSDT_ data type", type));
    }
}

std::array<Vec4, kNumInputs> fetch_vertex(const decl::Declaration& d, const Streams& streams, uint32_t index) {
    std::array<Vec4, kNumInputs> v{};
    // The events in declaration order, so that (lenient mode) the later load of a register wins.
    for (const decl::Event& e : d.events) {
        if (e.reg >= kNumInputs) continue;  // register 16 (NORMAL2) is fixed-function only
        if (e.kind == decl::EventKind::Tess) {
            v[e.reg] = Vec4{};  // tessellator data: not loaded by a non-patch draw
            continue;
        }
        if (e.kind != decl::EventKind::Element) continue;
        const StreamBinding& b = streams[e.stream];
        if (!b.bound) throw FetchError(e.stream, index, fmt::format("not bound (v{} is loaded from it)", e.reg));
        const uint32_t size = decl::data_type_size(e.code);
        const uint64_t start = uint64_t(b.stride) * index + e.value;
        if (start + size > b.size)
            throw FetchError(e.stream, index,
                             fmt::format("v{} ({} at offset {}) needs bytes {}..{}, past the end of the {}-byte buffer",
                                         e.reg, decl::data_type_name(e.code), e.value, start, start + size - 1,
                                         b.size));
        v[e.reg] = expand_element(e.code, b.data + start);
    }
    return v;
}

}  // namespace vpsim::vs
