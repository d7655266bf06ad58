// CreateVertexShader validation: one test per rule V1..V13.
#include "model/vs/vs_validate.h"
#include "tests/vs_test_util.h"

#include <catch2/catch.hpp>

using namespace vpsim::vs;
using namespace vpsim::vs::test;

namespace {
// The rules of the errors (and warnings) of a validation, in order.
std::vector<std::string> rules(const Validation& v, Severity sev = Severity::Error) {
    std::vector<std::string> r;
    for (const auto& d : v.diagnostics)
        if (d.severity == sev) r.push_back(d.rule);
    return r;
}
using R = std::vector<std::string>;
const Src v0 = src(REG_INPUT, 0), v1 = src(REG_INPUT, 1), c0 = src(REG_CONST, 0), c1 = src(REG_CONST, 1);
}  // namespace

TEST_CASE("A transform shader validates and reports what it reads", "[validate]") {
    const auto v = validate(program({ins(OP_M4x4, dst(REG_RASTOUT, RAST_POS), {v0, c0}),
                                     ins(OP_MOV, dst(REG_ATTROUT, 0), {src(REG_INPUT, 5)})}));
    CHECK(v.valid);
    CHECK(v.diagnostics.empty());
    CHECK(v.info.input_reads == ((1u << 0) | (1u << 5)));
    CHECK(v.info.const_reads == std::set<uint32_t>{0, 1, 2, 3});
    CHECK(v.info.slots == 5);
    CHECK(v.info.outputs_written == (kOutPos | kOutD0));
}

TEST_CASE("V1: at most 128 slots, exp and log cost 12 in the d3d8 profile, 10 in DX9's", "[validate]") {
    std::vector<Instruction> code(128, kWritePos);
    Program p;
    p.code = code;
    CHECK(validate(decode_bytecode(encode_program(p))).valid);
    p.code.push_back(kWritePos);
    CHECK(rules(validate(decode_bytecode(encode_program(p)))) == R{"V1"});
    Program q;
    q.code = std::vector<Instruction>(10, ins(OP_EXP, dst(REG_TEMP, 0, 1), {src(REG_INPUT, 0, 0xFF)}));
    q.code.push_back(kWritePos);
    q = decode_bytecode(encode_program(q));
    CHECK(validate(q).info.slots == 121);
    Profile dx9;
    dx9.exp_log_slots = 10;
    CHECK(validate(q, dx9).info.slots == 101);
    q.code.insert(q.code.begin(), ins(OP_LOG, dst(REG_TEMP, 1, 1), {src(REG_INPUT, 0, 0xFF)}));
    CHECK(rules(validate(q)) == R{"V1"});
}

TEST_CASE("V2: register ranges, with the device's constant count", "[validate]") {
    CHECK(rules(validate(program({kWritePos, ins(OP_MOV, dst(REG_TEMP, 12), {v0})}))) == R{"V2"});
    CHECK(rules(validate(program({kWritePos, ins(OP_MOV, dst(REG_TEXCRDOUT, 8), {v0})}))) == R{"V2"});
    CHECK(rules(validate(program({kWritePos, ins(OP_MOV, dst(REG_ATTROUT, 2), {v0})}))) == R{"V2"});
    CHECK(rules(validate(program({kWritePos, ins(OP_MOV, dst(REG_ATTROUT, 0), {src(REG_INPUT, 16)})}))) == R{"V2"});
    const auto p = program({kWritePos, ins(OP_MOV, dst(REG_ATTROUT, 0), {src(REG_CONST, 100)})});
    CHECK(rules(validate(p)) == R{"V2"});
    Profile nv2a;
    nv2a.const_count = 192;
    CHECK(validate(p, nv2a).valid);
    // m4x4 reads four rows: c93..c96 is out of range.
    CHECK(rules(validate(program({ins(OP_M4x4, dst(REG_RASTOUT, 0), {v0, src(REG_CONST, 93)})}))) == R{"V2"});
}

TEST_CASE("V3: register types in places they cannot stand", "[validate]") {
    CHECK(rules(validate(program({kWritePos, ins(OP_MOV, dst(REG_INPUT, 1), {v0})}))) == R{"V3"});
    CHECK(rules(validate(program({kWritePos, ins(OP_MOV, dst(REG_CONST, 1), {v0})}))) == R{"V3"});
    CHECK(rules(validate(program({kWritePos, ins(OP_MOV, dst(REG_TEMP, 0), {src(REG_RASTOUT, 0)})}))) == R{"V3"});
    CHECK(rules(validate(program({kWritePos, ins(OP_ADD, dst(REG_ADDR, 0, 1), {v0, v0})}))) == R{"V3"});
}

TEST_CASE("V4: one distinct constant and one distinct input per instruction, temps thrice", "[validate]") {
    CHECK(rules(validate(program({kWritePos, ins(OP_ADD, dst(REG_TEMP, 0), {c0, c1})}))) == R{"V4"});
    CHECK(rules(validate(program({kWritePos, ins(OP_ADD, dst(REG_TEMP, 0), {v0, v1})}))) == R{"V4"});
    CHECK(validate(program({kWritePos, ins(OP_MAD, dst(REG_TEMP, 0), {c0, c0, v1})})).valid);
    CHECK(validate(program({kWritePos, ins(OP_MOV, dst(REG_TEMP, 0), {v0}),
                            ins(OP_MAD, dst(REG_TEMP, 1), {src(REG_TEMP, 0), src(REG_TEMP, 0), src(REG_TEMP, 0)})}))
              .valid);
}

TEST_CASE("V5: a temp component read before it is written is an error with temps=strict, a warning in the d3d8 profile", "[validate]") {
    Profile strict;
    strict.set("temps=strict");
    CHECK(rules(validate(program({kWritePos, ins(OP_MOV, dst(REG_ATTROUT, 0), {src(REG_TEMP, 3)})}), strict)) == R{"V5"});
    // r0.xy written, then r0.z read through a swizzle: error; r0.x read: fine.
    const Instruction w = ins(OP_MOV, dst(REG_TEMP, 0, 0x3), {v0});
    CHECK(rules(validate(program({kWritePos, w, ins(OP_MOV, dst(REG_ATTROUT, 0, 1), {src(REG_TEMP, 0, 0xAA)})}), strict)) ==
          R{"V5"});
    CHECK(validate(program({kWritePos, w, ins(OP_MOV, dst(REG_ATTROUT, 0), {src(REG_TEMP, 0, 0x00)})}), strict).valid);
    // dp3 reads .xyz only.
    CHECK(rules(validate(program({kWritePos, w, ins(OP_DP3, dst(REG_ATTROUT, 0), {src(REG_TEMP, 0), v0})}), strict)) ==
          R{"V5"});
    // The d3d8 profile: the same programs are valid, each with a V5 warning.
    const auto d = validate(program({kWritePos, w, ins(OP_DP3, dst(REG_ATTROUT, 0), {src(REG_TEMP, 0), v0})}));
    CHECK(d.valid);
    CHECK(rules(d, Severity::Warning) == R{"V5"});
}

TEST_CASE("V6 and V7: a0 written before relative reads, and not in vs.1.0", "[validate]") {
    const Src rel = src(REG_CONST, 4, kSwizzleIdentity, false, true);
    const Instruction seta0 = ins(OP_MOV, dst(REG_ADDR, 0, 1), {src(REG_INPUT, 2, 0x00)});
    CHECK(rules(validate(program({kWritePos, ins(OP_MOV, dst(REG_ATTROUT, 0), {rel})}))) == R{"V6"});
    const auto ok = validate(program({kWritePos, seta0, ins(OP_MOV, dst(REG_ATTROUT, 0), {rel})}));
    CHECK(ok.valid);
    CHECK(ok.info.relative);
    CHECK(rules(validate(program({kWritePos, seta0}, kVersion10))) == R{"V7"});
    CHECK(rules(validate(program({kWritePos, ins(OP_MOV, dst(REG_ADDR, 0, 3), {v0})}))) == R{"V9"});
}

TEST_CASE("V8: oPos must be written in all four components", "[validate]") {
    CHECK(rules(validate(program({ins(OP_MOV, dst(REG_ATTROUT, 0), {v0})}))) == R{"V8"});
    CHECK(rules(validate(program({ins(OP_MOV, dst(REG_RASTOUT, 0, 0x7), {v0})}))) == R{"V8"});
    CHECK(validate(program({ins(OP_MOV, dst(REG_RASTOUT, 0, 0x3), {v0}), ins(OP_MOV, dst(REG_RASTOUT, 0, 0xC), {v1})})).valid);
}

TEST_CASE("V9: write masks of frc, m-instructions, oFog and oPts", "[validate]") {
    CHECK(validate(program({kWritePos, ins(OP_FRC, dst(REG_TEMP, 0, 0x3), {v0})})).valid);
    CHECK(rules(validate(program({kWritePos, ins(OP_FRC, dst(REG_TEMP, 0, 0x4), {v0})}))) == R{"V9"});
    Profile strict;
    strict.strict_masks = true;  // m3x2 .xyz is wider than .xy: a d3d8 warning (tests/test_vs_d3d8.cpp)
    CHECK(rules(validate(program({kWritePos, ins(OP_M3x2, dst(REG_TEMP, 0, 0x7), {v0, c0})}), strict)) == R{"V9"});
    CHECK(rules(validate(program({kWritePos, ins(OP_M3x2, dst(REG_TEMP, 0, 0x4), {v0, c0})}))) == R{"V9"});
    CHECK(validate(program({kWritePos, ins(OP_M3x4, dst(REG_TEMP, 0, 0x7), {v0, c0})})).valid);
    CHECK(rules(validate(program({kWritePos, ins(OP_MOV, dst(REG_RASTOUT, RAST_FOG, 0x3), {v0})}))) == R{"V9"});
    CHECK(validate(program({kWritePos, ins(OP_MOV, dst(REG_RASTOUT, RAST_PTS, 0x1), {v0})})).valid);
}

TEST_CASE("V9: oFog and oPts without a mask (.xyzw) are a d3d8 warning, an error with masks=strict", "[validate]") {
    // Wine's d3d8 visual.c fog_with_shader_test creates `mul oFog, r0.x, c0.x` (token 0xC00F0001) and checks it succeeds.
    for (const uint32_t out : {RAST_FOG, RAST_PTS}) {
        const Validation v = validate(program({kWritePos, ins(OP_MOV, dst(REG_RASTOUT, out, 0xF), {v0})}));
        CHECK(v.valid);
        CHECK(rules(v, Severity::Warning) == R{"V9"});
        Profile strict;
        strict.strict_masks = true;
        CHECK_FALSE(validate(program({kWritePos, ins(OP_MOV, dst(REG_RASTOUT, out, 0xF), {v0})}), strict).valid);
    }
}

TEST_CASE("V10: m-instructions take no swizzle and write somewhere else than src0", "[validate]") {
    CHECK(rules(validate(program({kWritePos, ins(OP_M4x4, dst(REG_TEMP, 0), {src(REG_INPUT, 0, 0x00), c0})}))) == R{"V10"});
    const Instruction w = ins(OP_MOV, dst(REG_TEMP, 1), {v0});
    CHECK(rules(validate(program({kWritePos, w, ins(OP_M4x4, dst(REG_TEMP, 1), {src(REG_TEMP, 1), c0})}))) == R{"V10"});
}

TEST_CASE("V11: relative addressing only on constants", "[validate]") {
    const Instruction seta0 = ins(OP_MOV, dst(REG_ADDR, 0, 1), {src(REG_INPUT, 2, 0x00)});
    CHECK(rules(validate(program({kWritePos, seta0,
                                  ins(OP_MOV, dst(REG_ATTROUT, 0), {src(REG_INPUT, 1, kSwizzleIdentity, false, true)})}))) ==
          R{"V11"});
}

TEST_CASE("V12: the COISSUE bit is rejected in the d3d8 profile", "[validate]") {
    Instruction i = ins(OP_MOV, dst(REG_ATTROUT, 0), {v0});
    i.coissue = true;
    const auto p = program({kWritePos, i});
    CHECK(rules(validate(p)) == R{"V12"});
    Profile explore;
    explore.coissue_allowed = true;
    CHECK(validate(p, explore).valid);
}

TEST_CASE("V13: scalar ops accept the D3D8 forms with a warning", "[validate]") {
    const auto v = validate(program({kWritePos, ins(OP_RCP, dst(REG_ATTROUT, 0), {c0})}));  // rcp oD0, c0
    CHECK(v.valid);
    CHECK(rules(v, Severity::Warning) == R{"V13"});
    CHECK(validate(program({kWritePos, ins(OP_RCP, dst(REG_TEMP, 0, 1), {src(REG_CONST, 0, 0xFF)})})).diagnostics.empty());
}

TEST_CASE("Diagnostics name the instruction, the token index and the rule", "[validate]") {
    const auto v = validate(program({kWritePos, ins(OP_ADD, dst(REG_TEMP, 0), {c0, c1})}));
    REQUIRE(v.diagnostics.size() == 1);
    CHECK(v.diagnostics[0].instruction == 1);
    CHECK(v.diagnostics[0].token_index == 4);
    CHECK(to_string(v.diagnostics[0]).find("V4 (read-ports) at instruction 1 (token 4)") != std::string::npos);
}

TEST_CASE("Profile options are set from KEY=VALUE text, and a bad one names the valid keys", "[validate]") {
    Profile p;
    p.set("a0=round");
    p.set("scalar=x");
    p.set("logp=replicate");
    p.set("exp-log-slots=10");
    p.set("outputs=zero");
    p.set("zero-recip=max");
    p.set("coissue=allow");
    CHECK(p.a0 == Profile::A0Rounding::Round);
    CHECK(p.scalar_component == Profile::ScalarComponent::X);
    CHECK(p.logp_replicate);
    CHECK(p.exp_log_slots == 10);
    CHECK(p.outputs == Profile::OutputDefaults::Zero);
    CHECK(p.zero_recip == Profile::ZeroReciprocal::Max);
    CHECK(p.coissue_allowed);
    CHECK(p.slots(OP_LOG) == 10);
    CHECK_THROWS_WITH(p.set("a0=nearest"), Catch::Contains("a0=floor|round"));
    CHECK_THROWS_AS(p.set("frobnicate=1"), std::invalid_argument);
    CHECK_THROWS_AS(p.set("a0"), std::invalid_argument);
}
