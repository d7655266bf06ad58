// Real DX8-era shader sources: the m-macros' implicit masks and the d3d8 / strict treatment of
// wider masks in bytecode (docs/vs-isa.md, rule V9).
#include "model/decl/decl_text.h"
#include "model/decl/decl_tokens.h"
#include "model/vs/vs_asm.h"
#include "model/vs/vs_d3d9.h"
#include "model/vs/vs_validate.h"
#include "tests/vs_test_util.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace vpsim::vs;
using namespace vpsim::vs::test;

namespace {
std::vector<const Diagnostic*> with_rule(const Validation& v, const std::string& rule, Severity sev) {
    std::vector<const Diagnostic*> r;
    for (const auto& d : v.diagnostics)
        if (d.rule == rule && d.severity == sev) r.push_back(&d);
    return r;
}
Profile strict(const char* option) {
    Profile p;
    p.set(option);
    return p;
}
}  // namespace

TEST_CASE("An m-macro written without a mask gets the mask of what it computes", "[asm][d3d8]") {
    struct Case {
        const char* op;
        uint32_t mask;
    };
    const Case cases[] = {{"m3x2", 0x3}, {"m3x3", 0x7}, {"m4x3", 0x7}, {"m3x4", 0xF}, {"m4x4", 0xF}};
    for (const Case& c : cases) {
        INFO(c.op);
        const AsmResult r = assemble(std::string("vs.1.1\n") + c.op + " r5, v0, c3\nmov oPos, v0\n", "m.vsh");
        REQUIRE(r.program.code.size() == 2);
        CHECK(r.program.code[0].dst.mask == c.mask);
        const Validation v = validate(r.program);
        CHECK(v.valid);
        CHECK(v.diagnostics.empty());
    }
    // The D3DX9 assembler's token for `m3x3 r7, v8, c0`: mask .xyz (0x80070007).
    const AsmResult r = assemble("vs.1.1\nm3x3 r7, v8, c0\nmov oPos, v0\n", "m.vsh");
    CHECK(r.bytecode.at(2) == 0x80070007u);
    // An explicit mask is kept as written.
    CHECK(assemble("vs.1.1\nm3x3 r7.xyzw, v8, c0\n", "m.vsh").program.code[0].dst.mask == 0xFu);
    CHECK(assemble("vs.1.1\nm3x2 r7.x, v8, c0\n", "m.vsh").program.code[0].dst.mask == 0x1u);
}

TEST_CASE("Wider m-instruction masks in bytecode: a d3d8 warning naming what is not written, a masks=strict error",
          "[validate][d3d8]") {
    const Src v0 = src(REG_INPUT, 0), c0 = src(REG_CONST, 0);
    struct Case {
        uint32_t op, mask;
        const char* says;
    };
    const Case cases[] = {{OP_M3x3, 0xF, "m3x3 r1.xyzw: m3x3 computes .xyz only"},
                          {OP_M4x3, 0xF, "m4x3 r1.xyzw: m4x3 computes .xyz only"},
                          {OP_M3x2, 0xF, "does not write .zw"},
                          {OP_M3x2, 0x7, "does not write .z"}};
    for (const Case& c : cases) {
        INFO(c.says);
        const Program p = program({kWritePos, ins(c.op, dst(REG_TEMP, 1, c.mask), {v0, c0})});
        const Validation v = validate(p);
        CHECK(v.valid);
        const auto w = with_rule(v, "V9", Severity::Warning);
        REQUIRE(w.size() == 1);
        CHECK(w[0]->instruction == 1);
        CHECK_THAT(w[0]->message, Catch::Contains(c.says));
        CHECK_THAT(w[0]->message, Catch::Contains("masks=strict"));
        const Validation s = validate(p, strict("masks=strict"));
        CHECK(!s.valid);
        CHECK(with_rule(s, "V9", Severity::Error).size() == 1);
    }
    // Narrower masks than computed (and m4x4 .xyz) stay errors in both profiles.
    CHECK(!validate(program({kWritePos, ins(OP_M3x3, dst(REG_TEMP, 1, 0x3), {v0, c0})})).valid);
    CHECK(!validate(program({kWritePos, ins(OP_M4x4, dst(REG_TEMP, 1, 0x7), {v0, c0})})).valid);
    CHECK(validate(program({kWritePos, ins(OP_M3x4, dst(REG_TEMP, 1, 0x7), {v0, c0})}), strict("masks=strict")).valid);
}

TEST_CASE("A wider mask does not write the uncomputed components: oPos.w stays unwritten (V8)", "[validate][d3d8]") {
    const Src v0 = src(REG_INPUT, 0), c0 = src(REG_CONST, 0);
    const Validation v = validate(program({ins(OP_M4x3, dst(REG_RASTOUT, RAST_POS, 0xF), {v0, c0})}));
    CHECK(!v.valid);
    CHECK(with_rule(v, "V8", Severity::Error).size() == 1);
    CHECK(validate(program({ins(OP_M4x3, dst(REG_RASTOUT, RAST_POS, 0xF), {v0, c0}),
                            ins(OP_MOV, dst(REG_RASTOUT, RAST_POS, 0x8), {v0})}))
              .valid);
}

TEST_CASE("The disassembler spells out .xyzw on m3x2, m3x3 and m4x3, so the mask survives a round trip",
          "[asm][d3d8]") {
    const Src v0 = src(REG_INPUT, 0), c0 = src(REG_CONST, 0);
    const Program p = program({ins(OP_M3x3, dst(REG_TEMP, 1, 0xF), {v0, c0}), ins(OP_M3x3, dst(REG_TEMP, 2, 0x7), {v0, c0}),
                               ins(OP_M4x4, dst(REG_TEMP, 3, 0xF), {v0, c0})});
    const std::string text = disassemble(p);
    CHECK(text == "vs.1.1\nm3x3 r1.xyzw, v0, c0\nm3x3 r2.xyz, v0, c0\nm4x4 r3, v0, c0\n");
    CHECK(assemble(text, "d.vsh").bytecode == encode_program(p));
}

TEST_CASE("Temp reads of never-written components: a d3d8 warning naming the instruction and component, a temps=strict error",
          "[validate][d3d8]") {
    // bumpshader.vsh style: r7.w read after `m3x3 r7` (which writes .xyz only).
    const AsmResult bump = assemble("vs.1.1\nm4x4 oPos, v0, c0\nm3x3 r7, v3, c4\nmov oT1, r7\n", "bump.vsh");
    const Validation v = validate(bump.program);
    CHECK(v.valid);
    auto w = with_rule(v, "V5", Severity::Warning);
    REQUIRE(w.size() == 1);
    CHECK(w[0]->instruction == 2);
    CHECK_THAT(w[0]->message, Catch::StartsWith("mov reads r7.w before it is written"));
    CHECK_THAT(w[0]->message, Catch::Contains("start value 0"));
    CHECK_THAT(w[0]->message, Catch::Contains("temps=strict"));
    CHECK_THAT(to_string(*w[0]), Catch::Contains("instruction 2"));
    const Validation s = validate(bump.program, strict("temps=strict"));
    CHECK(!s.valid);
    CHECK(with_rule(s, "V5", Severity::Error).size() == 1);
    CHECK(with_rule(s, "V5", Severity::Warning).empty());

    // skinmesh style: r4.w read before it is written, r4 written later.
    const AsmResult skin = assemble("vs.1.1\nmov r4.xyz, v0\ndp4 oPos.x, r4, c0\nmov r4.w, c1.x\nmov oPos.yzw, r4\n", "skin.vsh");
    const Validation vs = validate(skin.program);
    w = with_rule(vs, "V5", Severity::Warning);
    REQUIRE(w.size() == 1);
    CHECK_THAT(w[0]->message, Catch::StartsWith("dp4 reads r4.w before it is written"));

    // A temp never written at all.
    const AsmResult never = assemble("vs.1.1\nmov oPos, v0\nadd oD0, r9.xy, v0\n", "never.vsh");
    const Validation vn = validate(never.program);
    w = with_rule(vn, "V5", Severity::Warning);
    REQUIRE(w.size() == 1);
    CHECK_THAT(w[0]->message, Catch::StartsWith("add reads r9.xy, and the shader never writes r9"));
    CHECK(!validate(never.program, strict("temps=strict")).valid);
}

// ---------------------------------------------------------------------------------
// D3D9 vs_1_1 sources
// ---------------------------------------------------------------------------------

TEST_CASE("A dcl_ line without --d3d9 is an error that says what it is and names the flag", "[asm][d3d9]") {
    try {
        assemble("vs.1.1\ndcl_position v0\nmov oPos, v0\n", "nine.vsh");
        FAIL("no error");
    } catch (const AsmError& e) {
        CHECK(e.line == 2);
        CHECK(e.column == 1);
        CHECK_THAT(e.message, Catch::Contains("D3D9 input declaration"));
        CHECK_THAT(e.message, Catch::Contains("--d3d9"));
        CHECK_THAT(std::string(e.what()), Catch::StartsWith("nine.vsh:2:1: error: 'dcl_position'"));
    }
}

TEST_CASE("D3D9 vs_1_1: dcl_ lines are collected (with --d3d9, or seen from the vs_1_1 spelling), the rest is vs.1.1",
          "[asm][d3d9]") {
    const char* text = "vs_1_1\ndcl_position v0\ndcl_normal v3\ndcl_texcoord1 v8.xy\ndcl_color v5\n"
                       "def c20, 1, 0, 0, 1\nm4x4 oPos, v0, c0\ndp3 oD0, v3, c4\nmov oT0.xy, v8\nmul oD1, v5, c20\n";
    const AsmResult r = assemble(text, "nine.vsh");  // automatic: vs_1_1 spelling
    CHECK(r.d3d9);
    REQUIRE(r.dcls.size() == 4);
    CHECK(r.dcls[0].usage == "position");
    CHECK(r.dcls[2].usage == "texcoord");
    CHECK(r.dcls[2].index == 1);
    CHECK(r.dcls[2].reg == 8);
    CHECK(r.dcls[2].mask == 0x3);
    CHECK(r.program.code.size() == 4);
    CHECK(validate(r.program).valid);
    // The same instructions written as D3D8 source give the same bytecode.
    const AsmResult d8 = assemble("vs.1.1\ndef c20, 1, 0, 0, 1\nm4x4 oPos, v0, c0\ndp3 oD0, v3, c4\nmov oT0.xy, v8\n"
                                  "mul oD1, v5, c20\n",
                                  "eight.vsh");
    CHECK(r.bytecode == d8.bytecode);
    // With the D3D8 spelling the flag is needed.
    AsmOptions o;
    o.d3d9 = true;
    CHECK(assemble(std::string("vs.1.1") + (text + 6), "nine.vsh", o).bytecode == r.bytecode);
    CHECK_THROWS_AS(assemble(std::string("vs.1.1") + (text + 6), "nine.vsh"), AsmError);

    // The declaration: stream 0, the inputs in dcl_ order with FLOAT defaults, the def, END.
    const D3D9Declaration d = d3d8_declaration(r, {}, "nine.vsh");
    using namespace vpsim::decl;
    const std::vector<uint32_t> want_head{D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_REG(3, D3DVSDT_FLOAT3),
                                          D3DVSD_REG(8, D3DVSDT_FLOAT2), D3DVSD_REG(5, D3DVSDT_FLOAT4), D3DVSD_CONST(20, 1)};
    REQUIRE(d.tokens.size() == want_head.size() + 4 + 1);
    CHECK(std::vector<uint32_t>(d.tokens.begin(), d.tokens.begin() + 6) == want_head);
    CHECK(d.tokens.back() == D3DVSD_END());
    CHECK(parse_text(d.text, "decl") == d.tokens);
    CHECK_THAT(d.text, Catch::Contains("v3 dcl_normal0: D3DVSDT_FLOAT3 (default), offset 12, = D3DVSDE_NORMAL"));
    CHECK_THAT(d.text, Catch::Contains("v8 dcl_texcoord1: D3DVSDT_FLOAT2 (default), offset 24, = D3DVSDE_TEXCOORD1"));
    CHECK_THAT(d.text, Catch::Contains("v0 dcl_position0: D3DVSDT_FLOAT3 (default), offset 0, = D3DVSDE_POSITION"));
    // --dcl-type: a usage for every index, or one index (which wins).
    const D3D9Declaration t = d3d8_declaration(r, {"color=D3DCOLOR", "texcoord=SHORT4", "texcoord1=SHORT2"}, "nine.vsh");
    CHECK(t.tokens[3] == D3DVSD_REG(8, D3DVSDT_SHORT2));
    CHECK(t.tokens[4] == D3DVSD_REG(5, D3DVSDT_D3DCOLOR));
    CHECK_THROWS_WITH(d3d8_declaration(r, {"texcoord3=FLOAT2"}, "n"), Catch::Contains("no dcl_texcoord3 line"));
    CHECK_THROWS_WITH(d3d8_declaration(r, {"colour=FLOAT2"}, "n"), Catch::Contains("not a D3DDECLUSAGE name"));
    CHECK_THROWS_WITH(d3d8_declaration(r, {"color=FLOAT5"}, "n"), Catch::Contains("not a D3D8 data type"));
}

TEST_CASE("D3D9 sources: dcl_ errors name line:column", "[asm][d3d9]") {
    struct Case {
        const char* body;
        int line, column;
        const char* says;
    };
    const Case cases[] = {
        {"dcl_positon v0", 2, 1, "unknown dcl_ usage 'dcl_positon'"},
        {"dcl_position r0", 2, 14, "declares an input register v#"},
        {"dcl_position v0\ndcl_normal v0", 3, 12, "v0 is declared twice (first on line 2)"},
        {"dcl_texcoord v0\ndcl_texcoord0 v1", 3, 1, "usage texcoord0 is declared twice"},
        {"dcl_position v0\nmov oPos, v0\ndcl_normal v1", 4, 1, "after the first instruction"},
        {"dcl_position v0\nmov oPos, v0\nmov oD0, v5", 4, 10, "v5 is read but has no dcl_ line"},
        {"dcl_texcoord16 v1", 2, 13, "usage index 16 is out of range"},
    };
    for (const Case& c : cases) {
        INFO(c.body);
        try {
            assemble(std::string("vs_1_1\n") + c.body + "\n", "nine.vsh");
            FAIL("no error");
        } catch (const AsmError& e) {
            CHECK(e.line == c.line);
            CHECK(e.column == c.column);
            CHECK_THAT(e.message, Catch::Contains(c.says));
        }
    }
}
