// FVF codes (model/ff/fvf.h): the layout of every flag class in D3D8's documented order and sizes
// (d3d8types.h values; the D3DFVF reference page's "data order and type"), the equivalent
// declaration tokens, D3D8's refusals with the rule named, and the fixed-function inputs of a
// declaration. Every expected figure below is written out by hand from the documentation.
#include "model/decl/decl_decoder.h"
#include "model/decl/decl_text.h"
#include "model/ff/fvf.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace vpsim;
using namespace vpsim::ff;
using Catch::Matchers::Contains;

namespace {

struct El {
    uint32_t reg, type, offset, size;
};

// The layout's elements as (register, D3DVSDT type, offset, bytes); a skip is (kSkipElement, dwords, ...).
void check_elements(const FvfLayout& l, const std::vector<El>& want) {
    REQUIRE(l.elements.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        INFO("element " << i);
        CHECK(l.elements[i].reg == want[i].reg);
        CHECK(l.elements[i].type == want[i].type);
        CHECK(l.elements[i].offset == want[i].offset);
        CHECK(l.elements[i].size == want[i].size);
    }
}

// The declaration decoder (an independent implementation) agrees with the layout: valid, one
// stream 0 of `stride` bytes, each REG at the layout's offset.
void check_decodes(const FvfLayout& l) {
    decl::Declaration d = decl::decode(l.declaration);
    decl::check_shader_binding(d, std::nullopt);  // the fixed-function rules
    REQUIRE(d.valid);
    REQUIRE(d.streams.size() == 1);
    CHECK(d.streams[0].stream == 0);
    CHECK(d.streams[0].size == l.stride);
    size_t k = 0;
    for (const auto& e : l.elements) {
        if (e.reg == kSkipElement) continue;
        REQUIRE(k < d.streams[0].elements.size());
        CHECK(d.streams[0].elements[k].reg == e.reg);
        CHECK(d.streams[0].elements[k].offset == e.offset);
        ++k;
    }
    CHECK(k == d.streams[0].elements.size());
}

std::string rule_of(const std::string& text) {
    try {
        parse_fvf(text);
    } catch (const FvfError& e) {
        return e.rule;
    }
    return "accepted";
}
std::string rule_of(uint32_t code) {
    try {
        validate_fvf(code);
    } catch (const FvfError& e) {
        return e.rule;
    }
    return "accepted";
}

// D3DVSDT_*: FLOAT1 0, FLOAT2 1, FLOAT3 2, FLOAT4 3, D3DCOLOR 4, UBYTE4 5.
constexpr uint32_t F1 = 0, F2 = 1, F3 = 2, F4 = 3, COLOR = 4, UB4 = 5;

}  // namespace

TEST_CASE("FVF names parse to d3d8types.h's values", "[ff][fvf]") {
    CHECK(parse_fvf("D3DFVF_XYZ|D3DFVF_NORMAL|D3DFVF_TEX1") == 0x112);
    CHECK(parse_fvf(" XYZ | normal | D3DFVF_TEX1 ") == 0x112);  // prefix optional, spaces, any case
    CHECK(parse_fvf("0x112") == 0x112);
    CHECK(parse_fvf("274") == 0x112);
    CHECK(parse_fvf(std::vector<std::string>{"D3DFVF_XYZ", "NORMAL", "TEX1"}) == 0x112);
    CHECK(parse_fvf("D3DFVF_XYZRHW|D3DFVF_DIFFUSE|D3DFVF_SPECULAR|D3DFVF_TEX1") == 0x1C4);  // D3DFVF_TLVERTEX
    CHECK(parse_fvf("XYZB4|LASTBETA_UBYTE4") == 0x100C);
    CHECK(parse_fvf("XYZB5|PSIZE") == 0x02E);
    CHECK(parse_fvf("XYZ|TEX8") == 0x802);
    // D3DFVF_TEXCOORDSIZEn(i): format (2 floats 0, 3 -> 1, 4 -> 2, 1 -> 3) << (16 + 2i).
    CHECK(parse_fvf("XYZ|TEX1|D3DFVF_TEXCOORDSIZE3(0)") == 0x00010102);
    CHECK(parse_fvf("XYZ|TEX1|TEXCOORDSIZE4(0)") == 0x00020102);
    CHECK(parse_fvf("XYZ|TEX1|TEXCOORDSIZE1(0)") == 0x00030102);
    CHECK(parse_fvf("XYZ|TEX1|TEXCOORDSIZE2(0)") == 0x00000102);
    CHECK(parse_fvf("XYZ|TEX8|TEXCOORDSIZE1(7)") == 0xC0000802);
    CHECK(fvf_to_string(0x10152) == "D3DFVF_XYZ|D3DFVF_NORMAL|D3DFVF_DIFFUSE|D3DFVF_TEX1|D3DFVF_TEXCOORDSIZE3(0)");
    CHECK(parse_fvf(fvf_to_string(0xC000F1EE & ~0xE000u)) == (0xC000F1EE & ~0xE000u));
}

TEST_CASE("FVF position classes: XYZ, XYZRHW, XYZB1..5 and LASTBETA_UBYTE4", "[ff][fvf]") {
    SECTION("XYZ: FLOAT3 in v0, 12 bytes") {
        FvfLayout l = fvf_layout(0x002);
        check_elements(l, {{0, F3, 0, 12}});
        CHECK(l.stride == 12);
        CHECK(l.declaration == std::vector<uint32_t>{0x20000000, 0x40020000, 0xFFFFFFFF});
        CHECK_FALSE(l.inputs.pretransformed);
        CHECK(l.inputs.loaded == 0x1);
        CHECK(l.inputs.components[0] == 3);
        check_decodes(l);
    }
    SECTION("XYZRHW: FLOAT4 in v0, 16 bytes, pre-transformed") {
        FvfLayout l = fvf_layout(0x004);
        check_elements(l, {{0, F4, 0, 16}});
        CHECK(l.stride == 16);
        CHECK(l.declaration == std::vector<uint32_t>{0x20000000, 0x40030000, 0xFFFFFFFF});
        CHECK(l.inputs.pretransformed);
        CHECK(l.inputs.components[0] == 4);
        check_decodes(l);
    }
    SECTION("XYZB1..XYZB4: n betas as FLOATn in BLENDWEIGHT (v1)") {
        for (uint32_t n = 1; n <= 4; ++n) {
            INFO("XYZB" << n);
            FvfLayout l = fvf_layout(0x004 + 2 * n);
            check_elements(l, {{0, F3, 0, 12}, {1, n - 1, 12, 4 * n}});
            CHECK(l.stride == 12 + 4 * n);
            CHECK(l.betas == n);
            CHECK(l.weights == n);
            CHECK_FALSE(l.indices);
            CHECK(l.inputs.loaded == 0x3);
            CHECK(l.inputs.components[1] == n);
            check_decodes(l);
        }
    }
    SECTION("XYZB5: four betas as FLOAT4, the fifth skipped; 32 bytes") {
        FvfLayout l = fvf_layout(0x00E);
        check_elements(l, {{0, F3, 0, 12}, {1, F4, 12, 16}, {kSkipElement, 1, 28, 4}});
        CHECK(l.stride == 32);
        // D3DVSD_SKIP(1) = 0x50010000.
        CHECK(l.declaration == std::vector<uint32_t>{0x20000000, 0x40020000, 0x40030001, 0x50010000, 0xFFFFFFFF});
        check_decodes(l);
    }
    SECTION("XYZB4 | LASTBETA_UBYTE4: 3 weights and UBYTE4 indices in BLENDINDICES (v2)") {
        FvfLayout l = fvf_layout(0x100C);
        check_elements(l, {{0, F3, 0, 12}, {1, F3, 12, 12}, {2, UB4, 24, 4}});
        CHECK(l.stride == 28);
        CHECK(l.declaration == std::vector<uint32_t>{0x20000000, 0x40020000, 0x40020001, 0x40050002, 0xFFFFFFFF});
        CHECK(l.weights == 3);
        CHECK(l.indices);
        CHECK(l.inputs.loaded == 0x7);
        CHECK(l.inputs.components[2] == 4);
        check_decodes(l);
    }
    SECTION("DirectX 8's Indexed Vertex Blending example: XYZB2 | LASTBETA_UBYTE4 | NORMAL") {
        // struct VERTEX { float x, y, z; float weight; DWORD matrixIndices; float normal[3]; }
        FvfLayout l = fvf_layout(parse_fvf("D3DFVF_XYZB2|D3DFVF_LASTBETA_UBYTE4|D3DFVF_NORMAL"));
        check_elements(l, {{0, F3, 0, 12}, {1, F1, 12, 4}, {2, UB4, 16, 4}, {3, F3, 20, 12}});
        CHECK(l.stride == 32);
        check_decodes(l);
    }
    SECTION("XYZB1 | LASTBETA_UBYTE4: indices only") {
        FvfLayout l = fvf_layout(0x1006);
        check_elements(l, {{0, F3, 0, 12}, {2, UB4, 12, 4}});
        CHECK(l.stride == 16);
        CHECK(l.weights == 0);
        CHECK(l.inputs.loaded == 0x5);
        check_decodes(l);
    }
    SECTION("XYZB5 | LASTBETA_UBYTE4: 4 weights and the indices, 32 bytes") {
        FvfLayout l = fvf_layout(0x100E);
        check_elements(l, {{0, F3, 0, 12}, {1, F4, 12, 16}, {2, UB4, 28, 4}});
        CHECK(l.stride == 32);
        check_decodes(l);
    }
}

TEST_CASE("FVF elements follow D3D8's order: position, betas, normal, psize, diffuse, specular, texcoords", "[ff][fvf]") {
    // XYZB2 | NORMAL | PSIZE | DIFFUSE | SPECULAR | TEX1: 12 + 8 + 12 + 4 + 4 + 4 + 8 = 52 bytes.
    FvfLayout l = fvf_layout(parse_fvf("D3DFVF_TEX1|D3DFVF_SPECULAR|D3DFVF_DIFFUSE|D3DFVF_PSIZE|D3DFVF_NORMAL|D3DFVF_XYZB2"));
    check_elements(l, {{0, F3, 0, 12},
                       {1, F2, 12, 8},
                       {3, F3, 20, 12},
                       {4, F1, 32, 4},
                       {5, COLOR, 36, 4},
                       {6, COLOR, 40, 4},
                       {7, F2, 44, 8}});
    CHECK(l.stride == 52);
    CHECK(l.declaration == std::vector<uint32_t>{0x20000000, 0x40020000, 0x40010001, 0x40020003, 0x40000004,
                                                 0x40040005, 0x40040006, 0x40010007, 0xFFFFFFFF});
    CHECK(l.inputs.loaded == 0xFB);  // v0, v1, v3, v4, v5, v6, v7
    CHECK(l.inputs.components[3] == 3);
    CHECK(l.inputs.components[4] == 1);
    CHECK(l.inputs.components[5] == 4);
    CHECK(l.inputs.components[7] == 2);
    check_decodes(l);

    SECTION("XYZRHW | DIFFUSE | SPECULAR | TEX1 (D3DFVF_TLVERTEX): 32 bytes") {
        FvfLayout t = fvf_layout(0x1C4);
        check_elements(t, {{0, F4, 0, 16}, {5, COLOR, 16, 4}, {6, COLOR, 20, 4}, {7, F2, 24, 8}});
        CHECK(t.stride == 32);
        CHECK(t.inputs.pretransformed);
        check_decodes(t);
    }
}

TEST_CASE("FVF texture coordinate sets: TEX0..TEX8 and TEXCOORDSIZE1..4", "[ff][fvf]") {
    SECTION("TEX8: eight 2-float sets in TEXCOORD0..7 (v7..v14)") {
        FvfLayout l = fvf_layout(0x802);
        REQUIRE(l.elements.size() == 9);
        for (uint32_t i = 0; i < 8; ++i) {
            CHECK(l.elements[1 + i].reg == 7 + i);
            CHECK(l.elements[1 + i].type == F2);
            CHECK(l.elements[1 + i].offset == 12 + 8 * i);
        }
        CHECK(l.stride == 76);
        CHECK(l.tex_count == 8);
        CHECK(l.inputs.loaded == 0x7F81);
        check_decodes(l);
    }
    SECTION("sizes 3, 1 and 4 floats") {
        FvfLayout l = fvf_layout(parse_fvf("XYZ|TEX3|TEXCOORDSIZE3(0)|TEXCOORDSIZE1(1)|TEXCOORDSIZE4(2)"));
        check_elements(l, {{0, F3, 0, 12}, {7, F3, 12, 12}, {8, F1, 24, 4}, {9, F4, 28, 16}});
        CHECK(l.stride == 44);
        CHECK(l.inputs.components[7] == 3);
        CHECK(l.inputs.components[8] == 1);
        CHECK(l.inputs.components[9] == 4);
        check_decodes(l);
    }
    SECTION("TEXCOORDSIZE of a set beyond the count is accepted and ignored") {
        FvfLayout l = fvf_layout(parse_fvf("XYZ|TEX1|TEXCOORDSIZE3(1)"));
        check_elements(l, {{0, F3, 0, 12}, {7, F2, 12, 8}});
        CHECK(l.stride == 20);
    }
    SECTION("TEX0: no set") {
        FvfLayout l = fvf_layout(parse_fvf("XYZ|DIFFUSE|TEX0"));
        check_elements(l, {{0, F3, 0, 12}, {5, COLOR, 12, 4}});
    }
}

TEST_CASE("FVF codes D3D8 refuses name the rule", "[ff][fvf]") {
    CHECK(rule_of("D3DFVF_NORMAL|D3DFVF_DIFFUSE") == "no-position");
    CHECK(rule_of(0x000u) == "no-position");
    CHECK(rule_of("D3DFVF_XYZRHW|D3DFVF_NORMAL") == "xyzrhw-normal");
    CHECK(rule_of("XYZ|LASTBETA_UBYTE4") == "lastbeta-no-betas");
    CHECK(rule_of("XYZRHW|LASTBETA_UBYTE4") == "lastbeta-no-betas");
    CHECK(rule_of(0x902u) == "tex-count");
    CHECK(rule_of(0xF02u) == "tex-count");
    CHECK(rule_of("XYZ|TEX9") == "tex-count");
    CHECK(rule_of(0x003u) == "reserved-bits");  // D3DFVF_RESERVED0
    CHECK(rule_of(0x2002u) == "reserved-bits"); // D3DFVF_RESERVED2 = 0xE000 in D3D8
    CHECK(rule_of(0x4002u) == "reserved-bits"); // D3D9's XYZW: reserved in D3D8
    CHECK(rule_of(0x8002u) == "reserved-bits"); // D3D9's LASTBETA_D3DCOLOR: reserved in D3D8
    // Names that would silently combine into another code.
    CHECK(rule_of("XYZ|XYZRHW") == "twice");  // 0x2 | 0x4 would be XYZB1
    CHECK(rule_of("XYZ|0x4") == "twice");
    CHECK(rule_of("XYZ|TEX1|TEX2") == "twice");  // 0x100 | 0x200 would be TEX3
    CHECK(rule_of("XYZ|NORMAL|NORMAL") == "twice");
    CHECK(rule_of("XYZ|TEX1|TEXCOORDSIZE3(0)|TEXCOORDSIZE4(0)") == "twice");
    CHECK(rule_of("XYZ|FOO") == "syntax");
    CHECK(rule_of("XYZ|") == "syntax");
    CHECK(rule_of("") == "syntax");
    CHECK(rule_of("XYZ|TEXCOORDSIZE5(0)") == "syntax");
    CHECK(rule_of("XYZ|TEXCOORDSIZE2(8)") == "syntax");
    CHECK(rule_of("XYZ|TEXCOORDSIZE2(0") == "syntax");
    CHECK(rule_of("0x1FFFFFFFF") == "syntax");
    CHECK_THROWS_WITH(parse_fvf("XYZRHW|NORMAL"), Contains("xyzrhw-normal") && Contains("D3DFVF_NORMAL"));
    CHECK_THROWS_WITH(parse_fvf("XYZ|BOGUS"), Contains("BOGUS") && Contains("TEXCOORDSIZE1..4"));
    CHECK_THROWS_AS(fvf_layout(0x010), FvfError);
    // Every valid position class is accepted.
    for (uint32_t pos = 0x2; pos <= 0xE; pos += 2) CHECK(rule_of(pos) == "accepted");
}

TEST_CASE("A declaration's fixed-function inputs: registers and components by type", "[ff][fvf]") {
    const auto tokens = decl::parse_text(
        "D3DVSD_STREAM(0), D3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3), D3DVSD_REG(D3DVSDE_BLENDWEIGHT, D3DVSDT_FLOAT2), "
        "D3DVSD_REG(D3DVSDE_NORMAL, D3DVSDT_SHORT4), D3DVSD_STREAM(1), D3DVSD_REG(D3DVSDE_DIFFUSE, D3DVSDT_D3DCOLOR), "
        "D3DVSD_REG(D3DVSDE_TEXCOORD0, D3DVSDT_SHORT2), D3DVSD_REG(D3DVSDE_TEXCOORD1, D3DVSDT_FLOAT1), "
        "D3DVSD_REG(D3DVSDE_POSITION2, D3DVSDT_FLOAT4), D3DVSD_END()",
        "t");
    const decl::Declaration d = decl::decode(tokens);
    REQUIRE(d.valid);
    const FfInputs in = declaration_inputs(d);
    CHECK(in.loaded == ((1u << 0) | (1u << 1) | (1u << 3) | (1u << 5) | (1u << 7) | (1u << 8) | (1u << 15)));
    CHECK(in.components[0] == 3);
    CHECK(in.components[1] == 2);
    CHECK(in.components[3] == 4);  // SHORT4
    CHECK(in.components[5] == 4);  // D3DCOLOR
    CHECK(in.components[7] == 2);  // SHORT2
    CHECK(in.components[8] == 1);
    CHECK(in.components[15] == 4);
    CHECK_FALSE(in.pretransformed);

    SECTION("the tessellator's outputs: TESSNORMAL 3 components, TESSUV 2") {
        const auto t2 = decl::parse_text(
            "D3DVSD_STREAM(0), D3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3), D3DVSD_STREAM_TESS(), "
            "D3DVSD_TESSNORMAL(D3DVSDE_POSITION, D3DVSDE_NORMAL), D3DVSD_TESSUV(D3DVSDE_TEXCOORD0), D3DVSD_END()",
            "t");
        const decl::Declaration d2 = decl::decode(t2);
        REQUIRE(d2.valid);
        const FfInputs i2 = declaration_inputs(d2);
        CHECK(i2.loaded == ((1u << 0) | (1u << 3) | (1u << 7)));
        CHECK(i2.components[3] == 3);
        CHECK(i2.components[7] == 2);
    }
}
