// The text form: disassembly, parsing of the three input forms, round trips, errors.
#include "model/decl/decl_io.h"
#include "model/decl/decl_text.h"
#include "tests/decl_test_util.h"

#include "tests/test_seed.h"

#include <random>

using namespace vpsim::decl;

TEST_CASE("The macro form prints one token per line with its index and hex") {
    const std::string s = to_text({D3DVSD_STREAM(0), D3DVSD_REG(D3DVSDE_NORMAL, D3DVSDT_FLOAT3), D3DVSD_CONST(0, 1),
                                   float_bits(0.25f), float_bits(0.5f), float_bits(1.0f), float_bits(2.0f),
                                   D3DVSD_END()});
    CHECK(s.find("D3DVSD_STREAM(0)") != std::string::npos);
    CHECK(s.find("D3DVSD_REG(D3DVSDE_NORMAL, D3DVSDT_FLOAT3)") != std::string::npos);
    CHECK(s.find("D3DVSD_CONST(0, 1), 0.25f, 0.5f, 1.0f, 2.0f") != std::string::npos);
    CHECK(s.find("// [1] 0x40020003") != std::string::npos);
    CHECK(s.find("D3DVSD_END()") != std::string::npos);
}

TEST_CASE("A C array pasted from D3D8 source parses: comments, casts, numeric registers, trailing commas") {
    const char* src = R"(// from a sample
DWORD decl[] = {
    D3DVSD_STREAM(0),
    D3DVSD_REG(0, D3DVSDT_FLOAT3),   /* position */
    D3DVSD_REG(D3DVSDE_DIFFUSE, D3DVSDT_D3DCOLOR),
    D3DVSD_CONST(4, 1), FtoDW(1.0f), (DWORD)0x3F000000, 0, 0,
    D3DVSD_END(),
};
)";
    const auto t = parse_text(src, "sample.h");
    CHECK(t == std::vector<uint32_t>{0x20000000u, 0x40020000u, 0x40040005u, 0x82000004u, 0x3F800000u, 0x3F000000u, 0,
                                     0, 0xFFFFFFFFu});
}

TEST_CASE("Raw hex DWORDs parse") {
    CHECK(parse_text("0x20000000 0x40020003\n0xFFFFFFFF") ==
          std::vector<uint32_t>{0x20000000u, 0x40020003u, 0xFFFFFFFFu});
}

TEST_CASE("Parse errors give line:column and what was expected") {
    try {
        parse_text("D3DVSD_STREAM(0),\n  D3DVSD_REG(0 D3DVSDT_FLOAT3)", "bad.decl");
        FAIL("no error");
    } catch (const TextError& e) {
        CHECK(e.line == 2);
        CHECK(e.column == 16);
        CHECK(std::string(e.what()).rfind("bad.decl:2:16:", 0) == 0);
    }
    CHECK_THROWS_AS(parse_text("D3DVSD_STREAM(16)"), TextError);
    CHECK_THROWS_AS(parse_text("D3DVSD_BOGUS(1)"), TextError);
    CHECK_THROWS_AS(parse_text("/* unterminated"), TextError);
    CHECK_THROWS_AS(parse_text("DWORD d[] = { 1, 2"), TextError);
}

TEST_CASE("A C array's size is checked against its limit before the array is made") {
    // Found by tests/fuzz (regressions/decl_text/c_array_size_4e9.decl): 24 bytes asked for 16 GB.
    CHECK(parse_text("DWORD d[65536] = {0};").size() == kMaxTextArrayDwords);
    try {
        parse_text("DWORD d[4000000000] = {0};", "big.h");
        FAIL("no error");
    } catch (const TextError& e) {
        CHECK(e.line == 1);
        CHECK(e.column == 9);
        CHECK(e.message == "array size 4000000000 exceeds vpsim's limit of 65536 DWORDs");
    }
}

TEST_CASE("Text -> tokens -> text -> tokens is the identity on random arrays") {
    const uint64_t seed = test_seed("text round trip");
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 20000; ++i) {
        std::vector<uint32_t> t(rng() % 40);
        for (auto& w : t) {
            const uint32_t r = uint32_t(rng());
            switch (rng() % 4) {
            case 0: w = r; break;                             // anything
            case 1: w = r & 0xE00F001Fu; break;               // mostly well-formed fields
            case 2: w = (r & 0xE0000000u) | (r & 0x1Fu); break;
            default: w = float_bits(float(int32_t(r)) / 1024.0f);
            }
        }
        const std::string text = to_text(t);
        const auto back = parse_text(text, "roundtrip");
        REQUIRE(back == t);
        REQUIRE(to_text(back) == text);
        REQUIRE(parse_text(to_hex(t)) == t);
        REQUIRE(parse_text(to_c_array(t)) == t);
    }
}

TEST_CASE("Binary and hex files load, and a bad size names the file") {
    CHECK(parse_bin(std::string("\x00\x00\x00\x20\xff\xff\xff\xff", 8), "a.bin") ==
          std::vector<uint32_t>{0x20000000u, 0xFFFFFFFFu});
    try {
        parse_bin("abcde", "odd.bin");
        FAIL("no error");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()).find("odd.bin") != std::string::npos);
        CHECK(std::string(e.what()).find("5") != std::string::npos);
    }
    CHECK(parse_hex("20000000 # stream\nffffffff", "a.hex") == std::vector<uint32_t>{0x20000000u, 0xFFFFFFFFu});
    CHECK_THROWS_AS(parse_hex("2000000g", "b.hex"), InputError);
    CHECK_THROWS_AS(load_tokens("/nonexistent/file.decl"), InputError);
}
