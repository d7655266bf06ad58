// Real DX8-era shader sources: the m-macros' implicit masks and the d3d8 / strict treatment of
// wider masks in bytecode (docs/vs-isa.md, rule V9).
#include "model/vs/vs_asm.h"
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
