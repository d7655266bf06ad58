// The vs.1.x assembler, disassembler and random program generator: exact tokens, errors with
// line:column, warnings, canonical text, round trips on the examples and on random programs.
#include "model/decl/decl_tokens.h"
#include "model/vs/vs_asm.h"
#include "model/vs/vs_random.h"
#include "model/vs/vs_validate.h"
#include "tests/test_seed.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace vpsim::vs;
using Tokens = std::vector<uint32_t>;

namespace {

// Parameter tokens computed from the spec's bit layout, independently of the encoders:
// dst [31]=1 [30:28] type [19:16] mask [10:0] number;
// src [31]=1 [30:28] type [27:24] modifier [23:16] swizzle [13] relative [10:0] number.
constexpr uint32_t D(uint32_t type, uint32_t num, uint32_t mask = 0xF) {
    return 0x80000000u | (type << 28) | (mask << 16) | num;
}
constexpr uint32_t S(uint32_t type, uint32_t num, uint32_t swizzle = 0xE4, bool negate = false, bool relative = false) {
    return 0x80000000u | (type << 28) | (negate ? 1u << 24 : 0u) | (swizzle << 16) | (relative ? 1u << 13 : 0u) | num;
}
constexpr uint32_t kV11 = 0xFFFE0101u, kV10 = 0xFFFE0100u, kEnd = 0x0000FFFFu;

Tokens tokens_of(const std::string& text) { return assemble(text, "t.vsh").bytecode; }

// Tokens of one instruction line in a vs.1.1 program (without version and END).
Tokens line_tokens(const std::string& line) {
    Tokens t = tokens_of("vs.1.1\n" + line);
    REQUIRE(t.size() >= 2);
    return Tokens(t.begin() + 1, t.end() - 1);
}

std::string read_example(const std::string& name) {
    std::ifstream f(std::string(VPSIM_SOURCE_DIR) + "/examples/shaders/" + name, std::ios::binary);
    REQUIRE(f.good());
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

bool has_errors(const Validation& v) {
    for (const Diagnostic& d : v.diagnostics)
        if (d.severity == Severity::Error) return true;
    return false;
}
std::string diagnostics_text(const Validation& v) {
    std::string s;
    for (const Diagnostic& d : v.diagnostics) s += to_string(d) + "\n";
    return s;
}

bool same_instruction(const Instruction& a, const Instruction& b) {
    if (a.opcode != b.opcode || a.coissue != b.coissue || a.nsrc != b.nsrc || a.token_index != b.token_index) return false;
    if (op_info(a.opcode)->has_dst &&
        (a.dst.type != b.dst.type || a.dst.num != b.dst.num || a.dst.mask != b.dst.mask))
        return false;
    for (int i = 0; i < a.nsrc; ++i) {
        const Src &x = a.src[size_t(i)], &y = b.src[size_t(i)];
        if (x.type != y.type || x.num != y.num || x.swizzle != y.swizzle || x.negate != y.negate ||
            x.relative != y.relative)
            return false;
    }
    return true;
}

}  // namespace

// ---------------------------------------------------------------------------------
// Exact tokens
// ---------------------------------------------------------------------------------

TEST_CASE("m4x4 oPos, v0, c0 assembles to the tokens of the spec's bit layout", "[asm]") {
    CHECK(tokens_of("vs.1.1\nm4x4 oPos, v0, c0") ==
          Tokens{0xFFFE0101u, 0x00000014u, 0xC00F0000u, 0x90E40000u, 0xA0E40000u, 0x0000FFFFu});
    CHECK(tokens_of("vs.1.0\nm4x4 oPos, v0, c0") == Tokens{kV10, 20, D(4, 0), S(1, 0), S(2, 0), kEnd});
    CHECK(tokens_of("vs.1.1") == Tokens{kV11, kEnd});
}

TEST_CASE("Write masks, swizzles, negation and every register kind encode as the spec says", "[asm]") {
    CHECK(line_tokens("mov r1.xz, -v2.wzyx") == Tokens{1, D(0, 1, 0x5), S(1, 2, 0x1B, true)});
    CHECK(line_tokens("add oD1.w, c95.x, r11.xy") == Tokens{2, D(5, 1, 0x8), S(2, 95, 0x00), S(0, 11, 0x54)});
    CHECK(line_tokens("mad oT7.xyz, v15.xyz, -c0.yzwx, r0.w") ==
          Tokens{4, D(6, 7, 0x7), S(1, 15, 0xA4), S(2, 0, 0x39, true), S(0, 0, 0xFF)});
    CHECK(line_tokens("mov a0.x, v0.x") == Tokens{1, D(3, 0, 0x1), S(1, 0, 0x00)});
    CHECK(line_tokens("mov oT3, c[a0.x + 5]") == Tokens{1, D(6, 3), 0xA0E42005u});
    CHECK(line_tokens("mov oT3, c[5 + a0.x].y") == Tokens{1, D(6, 3), S(2, 5, 0x55, false, true)});
    CHECK(line_tokens("mov oT3, c[ A0.X ]") == Tokens{1, D(6, 3), S(2, 0, 0xE4, false, true)});
    CHECK(line_tokens("mov oT3, -c[a0.x+94].zw") == Tokens{1, D(6, 3), S(2, 94, 0xFE, true, true)});
    CHECK(line_tokens("mov oT3, c[7]") == Tokens{1, D(6, 3), S(2, 7)});
    CHECK(line_tokens("mov oFog.x, v1.z") == Tokens{1, D(4, 1, 0x1), S(1, 1, 0xAA)});
    CHECK(line_tokens("mov oPts.x, v1") == Tokens{1, D(4, 2, 0x1), S(1, 1)});
    CHECK(line_tokens("mov oD0, r3") == Tokens{1, D(5, 0), S(0, 3)});
    CHECK(line_tokens("mov r0.rgba, v0.abgr") == Tokens{1, D(0, 0), S(1, 0, 0x1B)});
    CHECK(line_tokens("+mov r0, v0") == Tokens{0x40000001u, D(0, 0), S(1, 0)});
    CHECK(line_tokens("nop") == Tokens{0});
    CHECK(line_tokens("  M4X4   OPOS ,V0,C0  ") == line_tokens("m4x4 oPos, v0, c0"));
    CHECK(line_tokens("Mov oT0.XyZ, -V1.W") == line_tokens("mov oT0.xyz, -v1.w"));
    CHECK(line_tokens("mov r0, - v0") == line_tokens("mov r0, -v0"));
}

TEST_CASE("Every opcode assembles to its number and parameter count, named as op_info names it", "[asm]") {
    for (uint32_t op : all_opcodes()) {
        const OpInfo* info = op_info(op);
        REQUIRE(info);
        INFO(info->name);
        CHECK(opcode_from_name(info->name) == int(op));
        std::string line = info->name;
        if (info->has_dst) line += " r0, v0";
        if (info->sources >= 2) line += ", c0";
        if (info->sources >= 3) line += ", r1";
        const Tokens t = line_tokens(line);
        CHECK(t[0] == op);
        CHECK(t.size() == size_t(1 + (info->has_dst ? 1 : 0) + info->sources));
    }
    CHECK(opcode_from_name("M3X2") == OP_M3x2);
    CHECK(opcode_from_name("lrp") == -1);
    CHECK(all_opcodes().size() == 26);
}

TEST_CASE("def gives D3DVSD_CONST tokens for the declaration, not bytecode", "[asm]") {
    const AsmResult r = assemble("vs.1.1\ndef c5, 1.0, -0.5f, 2, 1e3\ndef c0, -0, .25, +3.5F, 0\nmov oPos, c5", "d.vsh");
    CHECK(r.bytecode == Tokens{kV11, 1, D(4, 0), S(2, 5), kEnd});
    CHECK(r.const_tokens == Tokens{vpsim::decl::D3DVSD_CONST(5, 1), 0x3F800000u, 0xBF000000u, 0x40000000u, 0x447A0000u,
                                   0x82000000u, 0x80000000u, 0x3E800000u, 0x40600000u, 0x00000000u});
    CHECK(r.const_tokens[0] == 0x82000005u);
    REQUIRE(r.defs.size() == 2);
    CHECK(r.defs[0].reg == 5);
    CHECK(r.defs[0].line == 2);
    CHECK(r.defs[1].value[2] == 3.5f);
    CHECK(r.warnings.empty());
}

TEST_CASE("Comments (semicolon, // and /* */), blank lines and the source line of each instruction", "[asm]") {
    const AsmResult r = assemble("; header\n// more\n\n/* a block\n   over lines */ vs.1.1 ; version\n"
                                 "mov r0, v0 // tail\n/* inline */ mov oPos, r0 /* x */ ; y\n\r\n   \t\n",
                                 "c.vsh");
    CHECK(r.bytecode == Tokens{kV11, 1, D(0, 0), S(1, 0), 1, D(4, 0), S(0, 0), kEnd});
    CHECK(r.instruction_lines == std::vector<int>{6, 7});
    CHECK(r.program.code.size() == 2);
    CHECK(r.program.code[1].token_index == 4);
    CHECK(r.program.tokens == r.bytecode);
    CHECK(tokens_of("vs_1_0\nmov oPos, v0") == Tokens{kV10, 1, D(4, 0), S(1, 0), kEnd});
    CHECK(tokens_of("\xEF\xBB\xBFvs.1.0\nmov oPos, v0") == Tokens{kV10, 1, D(4, 0), S(1, 0), kEnd});  // UTF-8 BOM
}

TEST_CASE("Assembly errors name line:column and say what was expected", "[asm]") {
    struct Case {
        const char* text;
        int line, column;
        const char* says;
        uint32_t const_count = 96;
    };
    const Case cases[] = {
        {"", 1, 1, "expected the version line"},
        {"; nothing\n", 2, 1, "expected the version line"},
        {"mov r0, v0", 1, 1, "expected the version line 'vs.1.0' or 'vs.1.1' first, found 'mov'"},
        {"vs.2.0", 1, 1, "unsupported version 'vs.2.0'"},
        {"ps.1.1", 1, 1, "pixel shader"},
        {"vs.1.1 mov", 1, 8, "after the version"},
        {"vs.1.1\nvs.1.1", 2, 1, "a second version line"},
        {"vs.1.1\n  foo r0, v0", 2, 3, "unknown instruction 'foo'"},
        {"vs.1.1\nmov_sat r0, v0", 2, 1, "unknown instruction 'mov_sat'"},
        {"vs.1.1\n+", 2, 2, "expected an instruction after '+'"},
        {"vs.1.1\n+def c0, 1, 2, 3, 4", 2, 1, "'+' cannot prefix def"},
        {"vs.1.1\nmov r12, v0", 2, 5, "r12 is out of range: temporaries are r0..r11"},
        {"vs.1.1\nmov r0, v16", 2, 9, "inputs are v0..v15"},
        {"vs.1.1\nmov r0, c96", 2, 9, "constants are c0..c95"},
        {"vs.1.1\nmov r0, c8", 2, 9, "constants are c0..c7 (8 constant registers)", 8},
        {"vs.1.1\nmov r0, c[a0.x + 96]", 2, 18, "relative offset 96 is out of range"},
        {"vs.1.1\nmov r0, c[a0.x - 1]", 2, 16, "negative offsets"},
        {"vs.1.1\nmov r0, c[a0.y + 1]", 2, 14, "reads a0.x"},
        {"vs.1.1\nmov r0, c[a0 + 1]", 2, 13, "expected '.x' after a0"},
        {"vs.1.1\nmov r0, c[a0.x + 1", 2, 19, "expected '+' or ']'"},
        {"vs.1.1\nmov r0, c[r0.x]", 2, 11, "expected a0.x or a number"},
        {"vs.1.1\nmov r0, v[a0.x]", 2, 10, "only possible on constant registers"},
        {"vs.1.1\nmov c[a0.x], r0", 2, 6, "only possible on source operands"},
        {"vs.1.1\nmov r0.yx, v0", 2, 9, "in the order x, y, z, w"},
        {"vs.1.1\nmov r0.xx, v0", 2, 9, "each at most once"},
        {"vs.1.1\nmov r0.q, v0", 2, 8, "'q' is not a write mask component"},
        {"vs.1.1\nmov r0., v0", 2, 8, "expected write mask components"},
        {"vs.1.1\nmov r0.xg, v0", 2, 9, "do not mix"},
        {"vs.1.1\nmov r0, v0.xyzwx", 2, 16, "at most 4 components"},
        {"vs.1.1\nmov r0, v0.xk", 2, 13, "'k' is not a swizzle component"},
        {"vs.1.1\nmov r0", 2, 7, "expected ',' and 1 more source operand (mov dst, src)"},
        {"vs.1.1\nmad r0, v0, c0", 2, 15, "expected ',' and 1 more source operand (mad dst, src0, src1, src2)"},
        {"vs.1.1\nmov", 2, 4, "expected the operands of mov (dst, src)"},
        {"vs.1.1\nmov r0, v0, v1", 2, 11, "too many operands: mov takes dst, src"},
        {"vs.1.1\nmov -r0, v0", 2, 5, "a destination cannot be negated"},
        {"vs.1.1\nmov r0, v0 v1", 2, 12, "unexpected 'v1' after the last operand"},
        {"vs.1.1\nadd r0, v0 v1", 2, 12, "expected ','"},
        {"vs.1.1\nnop r0", 2, 5, "nop takes no operands"},
        {"vs.1.1\nmov r0, q0", 2, 9, "expected a source register"},
        {"vs.1.1\nmov 5, v0", 2, 5, "expected a destination register"},
        {"vs.1.1\nmov oD2, v0", 2, 5, "color outputs are oD0, oD1"},
        {"vs.1.1\nmov oT8, v0", 2, 5, "oT0..oT7"},
        {"vs.1.1\nmov a1.x, v0", 2, 5, "the address register is a0"},
        {"vs.1.1\nm4x4 r0, v0, c93", 2, 14, "m4x4 reads c93..c96"},
        {"vs.1.1\nm3x3 r0, r10, r9", 2, 15, "m3x3 reads r9..r11"},  // in range: no error expected below
        {"vs.1.1\nm3x3 r0, v0, r10", 2, 14, "m3x3 reads r10..r12"},
        {"vs.1.1\nm4x4 r0, v0, c[a0.x + 93]", 2, 14, "m4x4 reads c[a0.x + 93]..c[a0.x + 96]"},
        {"vs.1.1\ndef r0, 1, 2, 3, 4", 2, 5, "def needs a constant register"},
        {"vs.1.1\ndef c0.x, 1, 2, 3, 4", 2, 7, "no write mask"},
        {"vs.1.1\ndef c0, 1, 2, 3", 2, 16, "expected ',' and 1 more value"},
        {"vs.1.1\ndef c0, 1, 2, 3, 4, 5", 2, 19, "too many values"},
        {"vs.1.1\ndef c0, 1, 2, x, 4", 2, 15, "expected a number, found 'x'"},
        {"vs.1.1\ndef c0, 1, 2, 0x10, 4", 2, 15, "expected a number, found '0x10'"},
        {"vs.1.1\ndef c0, 1, , 3, 4", 2, 12, "expected a number, found ','"},
        {"vs.1.1\ndef c0, 1, 2, 1e50, 4", 2, 15, "out of the float range"},
        {"vs.1.1\ndef c200, 1, 2, 3, 4", 2, 5, "addresses only c0..c127", 256},
        {"vs.1.1\nmov r0, v0 /* unterminated\n", 2, 12, "unterminated /* comment"},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        if (std::string(c.says) == "m3x3 reads r9..r11") {
            CHECK_NOTHROW(assemble(c.text, "t.vsh", c.const_count));
            continue;
        }
        try {
            assemble(c.text, "t.vsh", c.const_count);
            FAIL("no error");
        } catch (const AsmError& e) {
            CHECK(e.file == "t.vsh");
            CHECK(e.line == c.line);
            CHECK(e.column == c.column);
            CHECK_THAT(e.message, Catch::Contains(c.says));
            CHECK(std::string(e.what()) ==
                  "t.vsh:" + std::to_string(c.line) + ":" + std::to_string(c.column) + ": error: " + e.message);
        }
    }
}

TEST_CASE("The assembler warns, with line:column, on forms D3D8 accepts but the DX9 docs dislike", "[asm]") {
    auto warnings = [](const std::string& body) { return assemble("vs.1.1\n" + body, "w.vsh").warnings; };
    {
        const auto w = warnings("rcp r0, v0");
        REQUIRE(w.size() == 2);
        CHECK(w[0].line == 2);
        CHECK(w[0].column == 9);
        CHECK_THAT(w[0].message, Catch::Contains("replicate swizzle"));
        CHECK(w[1].column == 5);
        CHECK_THAT(w[1].message, Catch::Contains("single-component write mask"));
        CHECK(w[0].to_string() == "w.vsh:2:9: warning: " + w[0].message);
    }
    CHECK(warnings("rcp r0.x, v0.w").empty());
    CHECK(warnings("rsq r0.y, -c3.x").empty());
    CHECK(warnings("exp r0.z, v0.xxxx").empty());
    CHECK(warnings("expp r0, v0.x").empty());  // the DX8 form writes four different components
    CHECK(warnings("logp r0, v0.y").empty());
    CHECK(warnings("log r0.w, v0.xy").size() == 1);
    CHECK(warnings("mov r0, v0\nmul r1, r0.x, c0.xyzw").empty());
    {
        const auto w = warnings("+mov r0, v0");
        REQUIRE(w.size() == 1);
        CHECK(w[0].column == 1);
        CHECK_THAT(w[0].message, Catch::Contains("V12"));
    }
    {
        const auto w = warnings("def c1, 1, 2, 3, 4\nmov r0, v0\ndef c1, 0, 0, 0, 0");
        REQUIRE(w.size() == 2);
        CHECK(w[0].line == 4);
        CHECK_THAT(w[0].message, Catch::Contains("before instructions"));
        CHECK_THAT(w[1].message, Catch::Contains("defined again (first on line 2)"));
    }
}

TEST_CASE("Forms that only validation rejects (under the strict profile options) still assemble, so validate() reports them by rule", "[asm]") {
    struct Case {
        const char* body;
        const char* rule;
    };
    const Case cases[] = {
        {"mov v0, r0", "V3"},                       // writing an input
        {"add r0, a0.x, v0", "V3"},                 // a0 as a source
        {"mov r1, oPos", "V3"},                     // reading an output
        {"mov r0, c0\nadd r1, c0, c1", "V4"},       // two constants
        {"mad r0, v0, v1, c0", "V4"},               // two inputs
        {"mov r1, r0", "V5"},                       // temp read before written
        {"mov oT0, c[a0.x + 1]", "V6"},             // a0 read before written
        {"mov oFog, v0", "V9"},                     // oFog is scalar
        {"frc r0, v0", "V9"},                       // frc writes .x/.y/.xy
        {"mov a0, v0.x", "V9"},                     // a0 takes .x
        {"m4x3 r0.xy, v0, c0", "V9"},               // m4x3 writes .xyz
        {"m4x3 r0.xyzw, v0, c0", "V9"},             // wider than computed: masks=strict
        {"m4x4 r0, v0.wzyx, c0", "V10"},            // no swizzle on m-instructions
        {"mov r0, v0\nm4x4 r0, r0, c0", "V10"},     // dst == src0
        {"+mov r0, v0", "V12"},                     // co-issue
    };
    for (const Case& c : cases) {
        INFO(c.body);
        const AsmResult r = assemble(std::string("vs.1.1\n") + c.body + "\nmov oPos, v0", "v.vsh");
        Profile strict;  // D3D9's strictness: what the d3d8 profile only warns about is an error
        strict.set("temps=strict");
        strict.set("masks=strict");
        const Validation v = validate(r.program, strict);
        bool found = false;
        for (const Diagnostic& d : v.diagnostics) found = found || (d.rule == c.rule && d.severity == Severity::Error);
        INFO(diagnostics_text(v));
        CHECK(found);
    }
    const Validation v10 = validate(assemble("vs.1.0\nmov a0.x, v0.x\nmov oPos, c[a0.x + 1]", "v.vsh").program);
    CHECK(!v10.valid);
    CHECK(v10.diagnostics.at(0).rule == "V7");
    CHECK(!validate(assemble("vs.1.1\nmov oPos.xyz, v0", "v.vsh").program).valid);  // V8
}

// ---------------------------------------------------------------------------------
// Disassembler
// ---------------------------------------------------------------------------------

TEST_CASE("Swizzles print in the shortest form that assembles back to them, full masks are omitted", "[asm]") {
    CHECK(swizzle_suffix(0xE4) == "");
    CHECK(swizzle_suffix(0x00) == ".x");
    CHECK(swizzle_suffix(0xFF) == ".w");
    CHECK(swizzle_suffix(0x54) == ".xy");    // .xyyy
    CHECK(swizzle_suffix(0xA4) == ".xyz");   // .xyzz
    CHECK(swizzle_suffix(0x04) == ".xyx");   // .xyxx
    CHECK(swizzle_suffix(0x1B) == ".wzyx");
    CHECK(swizzle_suffix(0xF4) == ".xyw");   // .xyww
    CHECK(swizzle_suffix(0x5F) == ".wwy");   // .wwyy
    CHECK(mask_suffix(0xF) == "");
    CHECK(mask_suffix(0x5) == ".xz");
    CHECK(mask_suffix(0x8) == ".w");
    CHECK(mask_suffix(0x0) == ".");
    // Every one of the 256 swizzles survives text -> tokens.
    for (uint32_t swz = 0; swz < 256; ++swz) {
        Src s;
        s.type = REG_INPUT;
        s.num = 1;
        s.swizzle = swz;
        const Tokens t = line_tokens("mov r0, " + format_src(s));
        CHECK(t[2] == S(1, 1, swz));
    }
}

TEST_CASE("The disassembler prints canonical text", "[asm]") {
    const std::string text = "vs.1.1\n"
                             "nop\n"
                             "mov a0.x, v2.x\n"
                             "mad r0.xz, -v0.wzyx, c[a0.x + 3].xy, r1.w\n"
                             "+mov oT7, c[a0.x + 0]\n"
                             "m4x4 oPos, r0, c0\n"
                             "mov oFog.x, -r0.x\n"
                             "mov oPts.x, r0.y\n"
                             "dp3 oD1, v3.xyz, c95\n";
    const std::string messy = "VS.1.1\nNOP\nMOV A0.X, V2.XXXX\nmad r0.xz, -v0.wzyx, c[3 + a0.x].xyyy, r1.wwww\n"
                              "+ mov oT7.xyzw, c[a0.x]\nm4x4 opos, r0.xyzw, c0\nmov OFOG.x, -r0.x\nmov oPts.r, r0.g\n"
                              "dp3 od1, v3.xyzz, c95.rgba\n";
    const AsmResult r = assemble(messy, "m.vsh");
    CHECK(disassemble(r.program) == text);
    CHECK(disassemble_tokens(r.bytecode) == text);
    CHECK(assemble(text, "c.vsh").bytecode == r.bytecode);
    CHECK(format_instruction(r.program.code[2]) == "mad r0.xz, -v0.wzyx, c[a0.x + 3].xy, r1.w");
    CHECK(register_name(REG_RASTOUT, 0) == "oPos");
    CHECK(register_name(REG_TEXCRDOUT, 5) == "oT5");
    const std::vector<ConstDef> defs{{3, {1.0f, -0.5f, 1e20f, 0.1f}, 0}};
    CHECK(disassemble(r.program, defs).rfind("vs.1.1\ndef c3, 1, -0.5, 1e+20, 0.1\nnop\n", 0) == 0);
    CHECK(disassemble(Program{kVersion10, {}, {}}) == "vs.1.0\n");
}

TEST_CASE("Comment blocks in bytecode print as assembler comment lines and do not survive re-assembly", "[asm]") {
    const Tokens t{kV11, 0x0002FFFEu, 0x64636261u, 0x00006665u, 1, D(4, 0), S(1, 0), 0x0001FFFEu, 0x00000001u, kEnd};
    const std::string text = disassemble_tokens(t);
    CHECK(text == "vs.1.1\n; comment: 2 DWORDs \"abcdef\"\nmov oPos, v0\n; comment: 1 DWORD\n");
    CHECK(tokens_of(text) == Tokens{kV11, 1, D(4, 0), S(1, 0), kEnd});
    CHECK_THROWS_AS(disassemble_tokens({kV11, 1, D(4, 0)}), BytecodeError);
}

// ---------------------------------------------------------------------------------
// Examples
// ---------------------------------------------------------------------------------

TEST_CASE("The example shaders assemble without warnings, validate and round-trip", "[asm]") {
    const char* names[] = {"transform.vsh", "transform_light.vsh", "fog.vsh", "skinning.vsh", "all_opcodes.vsh"};
    std::set<uint32_t> all_ops;
    for (const char* name : names) {
        INFO(name);
        const AsmResult r = assemble(read_example(name), name);
        CHECK(r.warnings.empty());
        const Validation v = validate(r.program);
        INFO(diagnostics_text(v));
        CHECK(v.valid);
        const std::string text = disassemble(r.program, r.defs);
        const AsmResult r2 = assemble(text, "canonical.vsh");
        CHECK(r2.bytecode == r.bytecode);
        CHECK(r2.const_tokens == r.const_tokens);
        CHECK(disassemble(r2.program, r2.defs) == text);
        CHECK(disassemble_tokens(r.bytecode) == disassemble(r.program));
        if (std::string(name) == "all_opcodes.vsh") {
            for (const Instruction& ins : r.program.code) all_ops.insert(ins.opcode);
            CHECK(r.defs.size() == 2);
            CHECK(v.info.relative);
        }
    }
    CHECK(all_ops == std::set<uint32_t>(all_opcodes().begin(), all_opcodes().end()));
    CHECK(assemble(read_example("transform.vsh"), "t").bytecode ==
          Tokens{0xFFFE0101u, 0x00000014u, 0xC00F0000u, 0x90E40000u, 0xA0E40000u, 0x0000FFFFu});
}

// ---------------------------------------------------------------------------------
// Random programs
// ---------------------------------------------------------------------------------

TEST_CASE("10,000 random programs validate and round-trip tokens -> text -> tokens -> text", "[asm][random]") {
    const uint64_t seed = test_seed("random programs round trip");
    SplitMix64 rng(seed);
    Profile x_profile = Profile::d3d8();
    x_profile.scalar_component = Profile::ScalarComponent::X;
    std::set<uint32_t> ops;
    std::map<std::string, int> seen;
    for (int n = 0; n < 10000; ++n) {
        const Program p = random_program(rng);
        INFO("seed " << seed << ", program " << n);
        const std::string text = disassemble(p);
        INFO(text);
        const Validation v = validate(p);
        INFO(diagnostics_text(v));
        REQUIRE(v.valid);
        REQUIRE(!has_errors(validate(p, x_profile)));
        REQUIRE(v.info.slots <= 128);
        REQUIRE(p.tokens == encode_program(p));
        const Program d = decode_bytecode(p.tokens);
        REQUIRE(d.code.size() == p.code.size());
        for (size_t i = 0; i < p.code.size(); ++i) REQUIRE(same_instruction(d.code[i], p.code[i]));
        const AsmResult r = assemble(text, "random.vsh");
        REQUIRE(r.bytecode == p.tokens);
        REQUIRE(disassemble(r.program) == text);
        REQUIRE(disassemble_tokens(r.bytecode) == text);
        // Coverage.
        seen[p.is_11() ? "vs.1.1" : "vs.1.0"]++;
        for (const Instruction& ins : p.code) {
            ops.insert(ins.opcode);
            if (ins.dst.type == REG_ADDR) seen["a0"]++;
            if (ins.opcode != OP_NOP) seen["dst type " + std::to_string(ins.dst.type) + "." + std::to_string(ins.dst.num)]++;
            if (ins.opcode != OP_NOP && ins.dst.mask != 0xF) seen["partial mask"]++;
            if (ins.opcode == OP_M3x4 && ins.dst.mask == 0x7) seen["m3x4 .xyz"]++;
            if (ins.opcode == OP_FRC) seen["frc mask " + std::to_string(ins.dst.mask)]++;
            for (int s = 0; s < ins.nsrc; ++s) {
                const Src& src = ins.src[size_t(s)];
                if (src.relative) seen["relative"]++;
                if (src.negate) seen["negate"]++;
                if (src.swizzle != kSwizzleIdentity) seen["swizzle"]++;
                if (src.type == REG_TEMP && src.swizzle == kSwizzleIdentity && ins.opcode >= OP_M4x4 && ins.opcode <= OP_M3x2)
                    seen["matrix from temp"]++;
                if (src.relative && s == 1 && ins.opcode >= OP_M4x4 && ins.opcode <= OP_M3x2) seen["relative matrix"]++;
            }
            if (ins.nsrc >= 2 && ins.src[0].type == ins.src[1].type && ins.src[0].num == ins.src[1].num &&
                ins.src[0].type != REG_TEMP)
                seen["same port twice"]++;
            if (op_info(ins.opcode)->scalar) {
                const uint32_t sw = ins.src[0].swizzle;
                seen[(sw & 3u) * 0x55u == sw ? "scalar replicate" : "scalar non-replicate"]++;
            }
        }
        for (const Diagnostic& dg : v.diagnostics)
            if (dg.rule == "V13") seen["V13 warning"]++;
    }
    CHECK(ops == std::set<uint32_t>(all_opcodes().begin(), all_opcodes().end()));
    for (const char* key : {"vs.1.0", "vs.1.1", "a0", "partial mask", "m3x4 .xyz", "frc mask 1", "frc mask 2", "frc mask 3",
                            "relative", "negate", "swizzle", "matrix from temp", "relative matrix", "same port twice",
                            "scalar replicate", "scalar non-replicate", "V13 warning", "dst type 4.0", "dst type 4.1",
                            "dst type 4.2", "dst type 5.0", "dst type 5.1", "dst type 6.0", "dst type 6.7",
                            "dst type 0.0", "dst type 0.11"}) {
        INFO(key);
        CHECK(seen[key] > 0);
    }
}

TEST_CASE("Random programs follow their options and are deterministic", "[asm][random]") {
    const uint64_t seed = test_seed("random program options");
    CHECK(random_program(seed).tokens == random_program(seed).tokens);
    SplitMix64 rng(seed);
    for (int n = 0; n < 300; ++n) {
        INFO("seed " << seed << ", program " << n);
        RandomProgramOptions o;
        o.version = RandomProgramOptions::Version::V10;
        o.min_length = 5;
        o.max_length = 9;
        Program p = random_program(rng, o);
        CHECK(!p.is_11());
        CHECK(p.code.size() >= 5);
        CHECK(p.code.size() <= 9);
        CHECK(validate(p).valid);
        for (const Instruction& ins : p.code) {
            CHECK(ins.dst.type != REG_ADDR);
            for (int s = 0; s < ins.nsrc; ++s) CHECK(!ins.src[size_t(s)].relative);
        }
        // Slot-heavy opcodes only: the 128-slot limit stops the program, oPos is still written.
        o = {};
        o.version = RandomProgramOptions::Version::V11;
        o.opcodes = {OP_EXP, OP_LOG, OP_M4x4};
        o.min_length = o.max_length = 128;
        o.profile.const_count = 16;
        p = random_program(rng, o);
        const Validation v = validate(p, o.profile);
        INFO(diagnostics_text(v));
        CHECK(v.valid);
        CHECK(v.info.slots <= 128);
        CHECK(v.info.slots >= 116);
        for (const Instruction& ins : p.code) {
            CHECK((ins.opcode == OP_EXP || ins.opcode == OP_LOG || ins.opcode == OP_M4x4 || ins.opcode == OP_MOV));
            for (int s = 0; s < ins.nsrc; ++s)
                if (ins.src[size_t(s)].type == REG_CONST) CHECK(ins.src[size_t(s)].num < 16);
        }
    }
    // Vertex data helpers.
    SplitMix64 a(seed), b(seed);
    for (int i = 0; i < 100; ++i) CHECK(vpsim::decl::float_bits(random_float(a, true)) == vpsim::decl::float_bits(random_float(b, true)));
}
