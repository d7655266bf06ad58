// One test per validation rule of docs/spec/declaration.md (and docs/decl-decoder.md).
#include "tests/decl_test_util.h"

using namespace vpsim::decl;

namespace {
const uint32_t S0 = D3DVSD_STREAM(0), S1 = D3DVSD_STREAM(1), ST = D3DVSD_STREAM_TESS(), E = D3DVSD_END();
const uint32_t R0 = D3DVSD_REG(0, D3DVSDT_FLOAT3);
}  // namespace

TEST_CASE("A valid declaration decodes with no diagnostics and ends with END") {
    const auto d = strict({S0, R0, D3DVSD_REG(3, D3DVSDT_FLOAT3), E});
    CHECK(d.valid);
    CHECK(d.diagnostics.empty());
    REQUIRE(d.events.size() == 4);
    CHECK(d.events.back() == Event{EventKind::End, 0, 4, 0, 0, {}});
    CHECK(d.length == 4);
}

TEST_CASE("Rule 1: token type 6 is an error in both modes") {
    for (bool len : {false, true}) {
        const auto d = len ? lenient({S0, R0, 0xC0000000u, E}) : strict({S0, R0, 0xC0000000u, E});
        CHECK_FALSE(d.valid);
        CHECK(error_rule(d) == 1);
        CHECK(error_index(d) == 2);
        REQUIRE(d.diagnostics.size() == 1);
        CHECK(d.diagnostics[0].token == 0xC0000000u);
        CHECK(d.diagnostics[0].has_token);
    }
}

TEST_CASE("Rule 2: a type-7 token other than 0xFFFFFFFF is an error") {
    const auto d = strict({S0, R0, 0xFFFFFFFEu});
    CHECK(error_rule(d) == 2);
    CHECK(error_index(d) == 2);
    CHECK(error_rule(lenient({S0, R0, 0xE0000000u, E})) == 2);
}

TEST_CASE("Rule 3: a NOP with bits set is an error in strict mode and ignored in lenient mode") {
    CHECK(error_rule(strict({0x00000001u, S0, R0, E})) == 3);
    const auto d = lenient({0x00000001u, S0, R0, E});
    CHECK(d.valid);
    CHECK(has_warning(d, 3));
    CHECK(d.events.size() == 3);  // STREAM, ELEMENT, END: the NOP makes no event
    CHECK(strict({D3DVSD_NOP(), S0, D3DVSD_NOP(), R0, E}).valid);
}

TEST_CASE("Rule 4: reserved bits in every token form") {
    const std::vector<uint32_t> bad = {
        S0 | 0x10u,                                // STREAM [27:4]
        ST | 0x1u,                                 // STREAM_TESS [27:0]
        R0 | 0x00100000u, R0 | 0x20u,              // REG [27:20], [15:5]
        D3DVSD_SKIP(1) | 0x1u,                     // SKIP [15:0]
        D3DVSD_CONST(0, 1) | 0x80u,                // CONST [24:7]
    };
    for (uint32_t t : bad) {
        INFO(std::hex << t);
        std::vector<uint32_t> arr;
        if (token_type(t) == TokenType::StreamData) arr = {S0, t, E};
        else if (token_type(t) == TokenType::ConstMem) arr = {S0, R0, t, 0, 0, 0, 0, E};
        else arr = {t, R0, E};
        CHECK(error_rule(strict(arr)) == 4);
        const auto l = lenient(arr);
        CHECK(has_warning(l, 4));
        CHECK(error_rule(l) != 4);
    }
    // TESSUV's input-register field is reserved; TESSNORMAL's is not.
    CHECK(error_rule(strict({S0, R0, ST, D3DVSD_TESSUV(5) | (3u << 20), E})) == 4);
    CHECK(strict({S0, R0, ST, D3DVSD_TESSNORMAL(0, 5), E}).valid);
    CHECK(error_rule(strict({S0, R0, ST, D3DVSD_TESSNORMAL(0, 5) | 0x10u, E})) == 4);
}

TEST_CASE("Lenient mode ignores reserved bits and decodes the fields") {
    const auto d = lenient({S0 | 0x00FF0000u, D3DVSD_REG(5, D3DVSDT_D3DCOLOR) | 0x8000u, E});
    CHECK(d.valid);
    REQUIRE(d.events.size() == 3);
    CHECK(d.events[1] == Event{EventKind::Element, 0, 0, D3DVSDT_D3DCOLOR, 5, {}});
}

TEST_CASE("Rule 5: REG data types 8..15 are errors in both modes") {
    for (uint32_t type = 8; type < 16; ++type) {
        CHECK(error_rule(strict({S0, D3DVSD_REG(1, type), E})) == 5);
        CHECK(error_rule(lenient({S0, D3DVSD_REG(1, type), E})) == 5);
    }
}

TEST_CASE("Rule 6: a register above 16 is an error, 16 is accepted by the decoder") {
    CHECK(error_rule(strict({S0, D3DVSD_REG(17, 0), E})) == 6);
    CHECK(error_rule(lenient({S0, D3DVSD_REG(31, 0), E})) == 6);
    auto d = strict({S0, D3DVSD_REG(16, D3DVSDT_FLOAT3), E});
    CHECK(d.valid);
    // ... and refused by the shader check when a shader function is given.
    const auto diags = check_shader_binding(d, 0x0u);  // a shader reading no input
    REQUIRE(diags.size() == 1);
    CHECK(diags[0].rule == 6);
    CHECK(diags[0].index == 1);
    CHECK_FALSE(d.valid);
    auto ff = strict({S0, D3DVSD_REG(16, D3DVSDT_FLOAT3), E});
    CHECK(check_shader_binding(ff, std::nullopt).empty());
}

TEST_CASE("Rule 7: REG or SKIP before any STREAM, lenient mode uses stream 0") {
    CHECK(error_rule(strict({R0, E})) == 7);
    CHECK(error_rule(strict({D3DVSD_SKIP(1), E})) == 7);
    const auto d = lenient({R0, D3DVSD_SKIP(2), D3DVSD_REG(1, D3DVSDT_FLOAT2), E});
    CHECK(d.valid);
    CHECK(has_warning(d, 7));
    REQUIRE(d.streams.size() == 1);
    CHECK(d.streams[0].stream == 0);
    CHECK(d.streams[0].size == 28);
    CHECK(d.events[0] == Event{EventKind::Element, 0, 0, D3DVSDT_FLOAT3, 0, {}});
}

TEST_CASE("Rule 8: CONST or EXT between a selector and its data is an error, an empty selector warns") {
    CHECK(error_rule(strict({S0, D3DVSD_CONST(0, 1), 1, 2, 3, 4, R0, E})) == 8);
    CHECK(error_rule(strict({S0, D3DVSD_EXT(0, 7), R0, E})) == 8);
    CHECK(error_rule(strict({ST, D3DVSD_CONST(0, 0), E})) == 8);
    const auto l = lenient({S0, D3DVSD_CONST(0, 1), 1, 2, 3, 4, R0, E});
    CHECK(l.valid);
    CHECK(l.constants.size() == 1);
    // NOPs are allowed; a selector followed by another selector or END is only a warning.
    CHECK(strict({S0, D3DVSD_NOP(), R0, E}).valid);
    const auto w = strict({S1, S0, R0, ST, E});
    CHECK(w.valid);
    CHECK(has_warning(w, 8));
    // CONST after the first data definition is fine.
    CHECK(strict({S0, R0, D3DVSD_CONST(0, 1), 1, 2, 3, 4, E}).valid);
}

TEST_CASE("Rule 9: the same stream selected twice, lenient restarts the offset") {
    CHECK(error_rule(strict({S0, R0, S1, D3DVSD_REG(1, 0), S0, D3DVSD_REG(2, 0), E})) == 9);
    CHECK(error_rule(strict({ST, S0, R0, ST, E})) == 9);
    const auto d = lenient({S0, R0, S0, D3DVSD_REG(2, D3DVSDT_FLOAT1), E});
    CHECK(d.valid);
    REQUIRE(d.events.size() == 5);
    CHECK(d.events[3] == Event{EventKind::Element, 0, 0, D3DVSDT_FLOAT1, 2, {}});
    // In lenient mode the implicit stream 0 of rule 7 counts as selected.
    CHECK(has_warning(lenient({R0, S0, D3DVSD_REG(1, 0), E}), 9));
}

TEST_CASE("Rule 10: the same register loaded twice, by REG or by the tessellator") {
    CHECK(error_rule(strict({S0, R0, R0, E})) == 10);
    CHECK(error_rule(strict({S0, R0, S1, D3DVSD_REG(0, 1), E})) == 10);
    CHECK(error_rule(strict({S0, R0, ST, D3DVSD_TESSUV(0), E})) == 10);
    const auto d = lenient({S0, D3DVSD_REG(4, D3DVSDT_FLOAT1), D3DVSD_REG(4, D3DVSDT_FLOAT4), E});
    CHECK(d.valid);
    REQUIRE(d.last_element(4));
    CHECK(d.last_element(4)->type == D3DVSDT_FLOAT4);  // the later one wins
}

TEST_CASE("Rule 11: tessellator tokens and memory-stream tokens in the wrong stream, types, TESSNORMAL input") {
    CHECK(error_rule(strict({S0, R0, D3DVSD_TESSUV(5), E})) == 11);       // TESSUV in a memory stream
    CHECK(error_rule(strict({D3DVSD_TESSUV(5), E})) == 11);               // before any stream
    CHECK(error_rule(lenient({D3DVSD_TESSNORMAL(0, 5), E})) == 11);
    CHECK(error_rule(strict({S0, R0, ST, D3DVSD_REG(1, 0), E})) == 11);   // REG in the tess stream
    CHECK(error_rule(strict({S0, R0, ST, D3DVSD_SKIP(1), E})) == 11);
    CHECK(error_rule(strict({S0, R0, ST, D3DVSD_TESSUV(5) ^ (3u << 16), E})) == 11);       // UV type FLOAT3
    CHECK(error_rule(strict({S0, R0, ST, D3DVSD_TESSNORMAL(0, 5) ^ (1u << 16), E})) == 11); // NORMAL type FLOAT4
    CHECK(error_rule(strict({S0, R0, ST, D3DVSD_TESSNORMAL(2, 5), E})) == 11);  // v2 not loaded
    const auto d = strict({S0, R0, ST, D3DVSD_TESSNORMAL(0, 5), D3DVSD_TESSUV(6), E});
    CHECK(d.valid);
    REQUIRE(d.tess.size() == 2);
    CHECK(d.tess[0].kind == TessKind::Normal);
    CHECK(d.tess[0].input == 0);
    CHECK(d.tess[0].reg == 5);
    CHECK(d.tess[1].kind == TessKind::UV);
    CHECK(d.events[3] == Event{EventKind::Tess, 16, 0, 1, 5, {}});
}

TEST_CASE("Rule 12: CONST beyond the constant count is an error, count 0 warns") {
    CHECK(error_rule(strict({D3DVSD_CONST(95, 2), E})) == 12);
    CHECK(strict({D3DVSD_CONST(95, 1), 1, 2, 3, 4, E}).valid);
    DecoderOptions o;
    o.const_count = 192;
    CHECK(decode({D3DVSD_CONST(120, 15), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, E},
                 o).valid);
    const auto w = strict({D3DVSD_CONST(3, 0), S0, R0, E});
    CHECK(w.valid);
    CHECK(has_warning(w, 12));
    CHECK(w.constants.empty());
}

TEST_CASE("Rule 13: a CONST or EXT payload running past the end, reported at its header") {
    const auto d = strict({S0, R0, D3DVSD_CONST(4, 2), 1, 2, 3, 4, 5, 6});
    CHECK(error_rule(d) == 13);
    CHECK(error_index(d) == 2);
    REQUIRE(d.events.size() == 4);  // STREAM, ELEMENT, CONST c4, ERROR
    CHECK(d.events[2].kind == EventKind::Const);
    CHECK(d.events[2].reg == 4);
    REQUIRE(d.diagnostics.size() == 1);
    CHECK(d.diagnostics[0].token == D3DVSD_CONST(4, 2));  // the diagnostic names the header
    CHECK(error_rule(strict({D3DVSD_EXT(3, 0), 0, 0})) == 13);
    CHECK(error_rule(strict({D3DVSD_CONST(0, 1)})) == 13);
}

TEST_CASE("Rule 14: no END in the array or within the maximum length") {
    const auto d = strict({S0, R0});
    CHECK(error_rule(d) == 14);
    CHECK(error_index(d) == 2);
    CHECK(error_rule(strict({})) == 14);
    DecoderOptions o;
    o.max_length = 8;
    std::vector<uint32_t> t(12, 0u);
    t.back() = E;
    const auto m = decode(t, o);
    CHECK(error_rule(m) == 14);
    CHECK(error_index(m) == 8);
    t.resize(8);
    t.back() = E;  // END at index 7 < 8: accepted
    CHECK(decode(t, o).valid);
}

TEST_CASE("Rule 15: EXT tokens warn, emit an EXT event and skip their payload") {
    const auto d = strict({S0, R0, D3DVSD_EXT(2, 0x1234), 0xFFFFFFFFu, 0xC0000000u, E});
    CHECK(d.valid);
    CHECK(has_warning(d, 15));
    REQUIRE(d.events.size() == 4);
    CHECK(d.events[2] == Event{EventKind::Ext, 0, 0x1234, 2, 0, {}});
    CHECK(d.length == 6);
}

TEST_CASE("CONST payloads may hold 0xFFFFFFFF and 0: the decoder counts, it does not scan for END") {
    const auto d = strict({D3DVSD_CONST(0, 1), 0xFFFFFFFFu, 0, 0xFFFFFFFFu, 0, S0, R0, E});
    CHECK(d.valid);
    REQUIRE(d.constants.size() == 1);
    CHECK(d.constants[0].bits == std::array<uint32_t, 4>{0xFFFFFFFFu, 0, 0xFFFFFFFFu, 0});
    CHECK(d.length == 8);
}

TEST_CASE("Rule order: the lowest-numbered broken rule is reported, lenient rules are skipped") {
    // Reserved bits + bad type + before any stream.
    const uint32_t t = D3DVSD_REG(1, 9) | 0x100u;
    CHECK(error_rule(strict({t, E})) == 4);
    CHECK(error_rule(lenient({t, E})) == 5);
}

TEST_CASE("Rule 16: fixed function needs NORMAL as FLOAT3") {
    auto d = strict({S0, R0, D3DVSD_REG(D3DVSDE_NORMAL, D3DVSDT_SHORT4), E});
    REQUIRE(d.valid);
    auto diags = check_shader_binding(d, std::nullopt);
    REQUIRE(diags.size() == 1);
    CHECK(diags[0].rule == 16);
    CHECK(diags[0].index == 2);
    CHECK_FALSE(d.valid);
    auto s = strict({S0, R0, D3DVSD_REG(D3DVSDE_NORMAL, D3DVSDT_SHORT4), E});
    CHECK(check_shader_binding(s, 0x9u).empty());  // with a shader function it is fine
}

TEST_CASE("Rule 17: the shader reads a register the declaration does not load") {
    auto d = strict({S0, R0, ST, D3DVSD_TESSUV(7), E});
    const auto diags = check_shader_binding(d, (1u << 0) | (1u << 7) | (1u << 9));
    REQUIRE(diags.size() == 1);
    CHECK(diags[0].rule == 17);
    CHECK(diags[0].message.find("v9") != std::string::npos);
}

TEST_CASE("Every diagnostic names the token index, the token and a stable rule id") {
    const auto d = strict({S0, D3DVSD_REG(20, 0), E});
    REQUIRE(d.diagnostics.size() == 1);
    const auto s = to_string(d.diagnostics[0]);
    CHECK(s.find("D6") != std::string::npos);
    CHECK(s.find("[1]") != std::string::npos);
    CHECK(s.find("0x40000014") != std::string::npos);
    CHECK(rule_id(6) == "D6");
    CHECK(std::string(rule_name(6)) == "bad-register");
}
