// Helpers for the tessellator tests.
#pragma once

#include "model/decl/decl_decoder.h"
#include "model/tess/npatch.h"
#include "model/tess/patch_cache.h"
#include "model/tess/tessellator.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace tess_test {

using namespace vpsim;
using namespace vpsim::tess;
using vpsim::vs::Vec4;

inline uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}
inline bool same(const Vec4& a, const Vec4& b) { return std::memcmp(a.data(), b.data(), sizeof(Vec4)) == 0; }
inline std::string show(const Vec4& v) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "(%.9g, %.9g, %.9g, %.9g)", v[0], v[1], v[2], v[3]);
    return buf;
}

inline decl::Declaration make_decl(const std::vector<uint32_t>& tokens) {
    decl::Declaration d = decl::decode(tokens);
    INFO("declaration diagnostics: " << d.diagnostics.size());
    REQUIRE(d.valid);
    return d;
}

// A little-endian vertex buffer writer.
struct Buffer {
    std::vector<uint8_t> bytes;
    void f(float x) {
        const uint32_t u = bits(x);
        for (int i = 0; i < 4; ++i) bytes.push_back(uint8_t(u >> (8 * i)));
    }
    void u32(uint32_t u) {
        for (int i = 0; i < 4; ++i) bytes.push_back(uint8_t(u >> (8 * i)));
    }
    vs::StreamBinding bind(uint32_t stride) const { return {bytes.data(), bytes.size(), stride, true}; }
};

// Control points as registers: v0 = position (x, y, z, 1) and nothing else.
inline std::vector<Registers> positions(const std::vector<std::array<float, 3>>& p) {
    std::vector<Registers> out(p.size());
    for (size_t k = 0; k < p.size(); ++k) out[k][0] = {p[k][0], p[k][1], p[k][2], 1.0f};
    return out;
}

// A declaration loading v0 as FLOAT3 from stream 0 (positions only).
inline decl::Declaration position_decl() {
    using namespace vpsim::decl;
    return make_decl({D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_END()});
}
// ... plus TESSUV(8) and TESSNORMAL(0 -> 3).
inline decl::Declaration position_uv_normal_decl() {
    using namespace vpsim::decl;
    return make_decl({D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_STREAM_TESS(), D3DVSD_TESSUV(8),
                      D3DVSD_TESSNORMAL(0, 3), D3DVSD_END()});
}

inline RectPatchInfo rect_info(uint32_t w, uint32_t h, Basis b, Order o, uint32_t stride = 0, uint32_t ow = 0,
                               uint32_t oh = 0) {
    RectPatchInfo i;
    i.width = w;
    i.height = h;
    i.stride = stride ? stride : w;
    i.start_vertex_offset_width = ow;
    i.start_vertex_offset_height = oh;
    i.basis = b;
    i.order = o;
    return i;
}
inline TriPatchInfo tri_info(Order o, uint32_t start = 0) {
    TriPatchInfo i;
    i.order = o;
    i.basis = Basis::Bezier;
    i.start_vertex_offset = start;
    i.num_vertices = tri_point_count(uint32_t(o));
    return i;
}

// Expects `expr` to throw TessError with `rule`.
#define CHECK_TESS_RULE(expr, id)                                        \
    do {                                                                 \
        std::string rule_seen = "none";                                  \
        try {                                                            \
            (void)(expr);                                                \
        } catch (const vpsim::tess::TessError& e) {                      \
            rule_seen = e.rule;                                          \
            INFO(e.what());                                              \
            CHECK(std::string(e.what()).find(id) != std::string::npos);  \
        }                                                                \
        CHECK(rule_seen == std::string(id));                             \
    } while (0)

}  // namespace tess_test
