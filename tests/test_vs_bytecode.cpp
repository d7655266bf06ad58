// The vs.1.x bytecode decoder and encoders.
#include "tests/vs_test_util.h"

#include <catch2/catch.hpp>

using namespace vpsim::vs;
using namespace vpsim::vs::test;

namespace {
uint32_t error_index(const std::vector<uint32_t>& t, std::string* rule = nullptr) {
    try {
        decode_bytecode(t);
    } catch (const BytecodeError& e) {
        if (rule) *rule = e.rule;
        return e.index;
    }
    return ~0u;
}
}  // namespace

TEST_CASE("m4x4 oPos, v0, c0 encodes to the documented tokens", "[bytecode]") {
    Program p;
    p.code = {ins(OP_M4x4, dst(REG_RASTOUT, RAST_POS), {src(REG_INPUT, 0), src(REG_CONST, 0)})};
    const auto t = encode_program(p);
    // dst: bit31 | type 4 << 28 | mask 0xF << 16 | 0; src: bit31 | type << 28 | swizzle 0xE4 << 16 | num
    CHECK(t == std::vector<uint32_t>{0xFFFE0101u, 0x00000014u, 0xC00F0000u, 0x90E40000u, 0xA0E40000u, 0x0000FFFFu});
    const Program d = decode_bytecode(t);
    REQUIRE(d.code.size() == 1);
    CHECK(d.code[0].opcode == OP_M4x4);
    CHECK(d.code[0].dst.type == REG_RASTOUT);
    CHECK(d.code[0].src[1].type == REG_CONST);
    CHECK(d.code[0].token_index == 1);
}

TEST_CASE("Sources decode swizzle, negation and relative addressing", "[bytecode]") {
    // mov r1.xz, -c[a0.x + 5].wzyx
    const uint32_t s = 0x80000000u | (2u << 28) | (1u << 24) | (0x1Bu << 16) | (1u << 13) | 5u;
    const auto p = decode_bytecode({kVersion11, 1, 0x80050001u, s, kEndToken});
    const Src& src = p.code[0].src[0];
    CHECK(src.negate);
    CHECK(src.relative);
    CHECK(src.num == 5);
    CHECK(src.swizzle == 0x1B);
    CHECK(src.component(0) == 3);
    CHECK(p.code[0].dst.mask == 0x5);
    CHECK(encode_src(src) == s);
}

TEST_CASE("Comments are skipped and the decoder counts parameters per opcode", "[bytecode]") {
    const auto p = decode_bytecode({kVersion10, 0x0002FFFEu, 0xFFFFFFFFu, 0x0000FFFFu, 0, 4, 0x800F0000u, 0x90E40000u,
                                    0x90E40001u, 0x90E40002u, kEndToken});
    REQUIRE(p.code.size() == 2);
    CHECK(p.code[0].opcode == OP_NOP);
    CHECK(p.code[1].opcode == OP_MAD);
    CHECK(p.code[1].nsrc == 3);
    CHECK(p.code[1].token_index == 5);
}

TEST_CASE("Malformed bytecode is an error with the token index, never a crash", "[bytecode]") {
    std::string rule;
    CHECK(error_index({}, &rule) == 0);
    CHECK(rule == "B1");
    CHECK(error_index({0xFFFE0200u, kEndToken}, &rule) == 0);
    CHECK(error_index({kVersion11, 18, 0x800F0000u, 0x90E40000u, 0x90E40000u, 0x90E40000u, kEndToken}, &rule) == 1);
    CHECK(rule == "B2");  // lrp is pixel-shader only
    CHECK(error_index({kVersion11, 2, 0x800F0000u, 0x90E40000u}, &rule) == 1);
    CHECK(rule == "B3");  // truncated
    CHECK(error_index({kVersion11, 1, 0x000F0000u, 0x90E40000u, kEndToken}, &rule) == 2);
    CHECK(rule == "B4");  // dst without bit 31
    CHECK(error_index({kVersion11, 1, 0x800F0000u, 0x92E40000u, kEndToken}, &rule) == 3);
    CHECK(rule == "B4");  // source modifier 2
    CHECK(error_index({kVersion11, 1, 0x801F0000u, 0x90E40000u, kEndToken}, &rule) == 2);
    CHECK(rule == "B4");  // result modifier
    CHECK(error_index({kVersion11, 0x00010001u, 0x800F0000u, 0x90E40000u, kEndToken}, &rule) == 1);
    CHECK(rule == "B4");  // reserved instruction bits
    CHECK(error_index({kVersion11, 1, 0x800F0000u, 0x90E40000u}, &rule) == 4);
    CHECK(rule == "B5");  // no END
    CHECK(error_index({kVersion11, kEndToken, 0}, &rule) == 2);
    CHECK(rule == "B6");
    CHECK(error_index({kVersion11, 0x0005FFFEu, 1, kEndToken}, &rule) == 1);
    CHECK(rule == "B7");
}

TEST_CASE("Random token streams never crash the decoder", "[bytecode]") {
    uint64_t x = 0x1234567;
    auto next = [&] { return uint32_t((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 32); };
    int decoded = 0;
    for (int i = 0; i < 20000; ++i) {
        std::vector<uint32_t> t{kVersion11};
        const int n = int(next() % 12);
        for (int k = 0; k < n; ++k) {
            const uint32_t r = next();
            t.push_back(r % 3 == 0 ? (r >> 8) % 25 : r % 3 == 1 ? (0x80000000u | (r & 0x70FF27FFu)) : r);
        }
        t.push_back(kEndToken);
        try {
            decode_bytecode(t);
            ++decoded;
        } catch (const BytecodeError& e) {
            CHECK(e.index < t.size());
        }
    }
    CHECK(decoded > 0);
}
