// Vertex fetch: the exact expansion of every data type, layout, strides and draw-time errors.
#include "model/decl/decl_decoder.h"
#include "model/vs/vs_fetch.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace vpsim;
using namespace vpsim::decl;
using vpsim::vs::Vec4;

namespace {

uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}
// Bit-exact comparison of four floats (so -0 != +0 and NaN payloads count).
bool same(const Vec4& a, const Vec4& b) {
    for (int i = 0; i < 4; ++i)
        if (bits(a[i]) != bits(b[i])) return false;
    return true;
}
std::string show(const Vec4& v) {
    return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + ", " +
           std::to_string(v[3]) + ")";
}
#define CHECK_VEC(a, b) \
    do { \
        const Vec4 a_ = (a), b_ = (b); \
        INFO(show(a_) << " vs " << show(b_)); \
        CHECK(same(a_, b_)); \
    } while (0)

// Little-endian byte writers for hand-made vertex buffers.
void put32(std::vector<uint8_t>& b, uint32_t u) {
    for (int i = 0; i < 4; ++i) b.push_back(uint8_t(u >> (8 * i)));
}
void putf(std::vector<uint8_t>& b, float f) { put32(b, bits(f)); }
void put16(std::vector<uint8_t>& b, int16_t s) {
    const uint16_t u = uint16_t(s);
    b.push_back(uint8_t(u));
    b.push_back(uint8_t(u >> 8));
}

vs::StreamBinding binding(const std::vector<uint8_t>& buf, uint32_t stride) {
    return {buf.data(), buf.size(), stride, true};
}

Declaration valid_decl(const std::vector<uint32_t>& tokens, bool lenient_mode = false) {
    DecoderOptions o;
    o.lenient = lenient_mode;
    Declaration d = decode(tokens, o);
    REQUIRE(d.valid);
    return d;
}

}  // namespace

TEST_CASE("D3DCOLOR: bytes B,G,R,A in memory expand to (R, G, B, A) / 255", "[fetch]") {
    std::vector<uint8_t> b;
    put32(b, 0x80FF4000u);  // A=0x80 R=0xFF G=0x40 B=0x00, stored 00 40 FF 80
    REQUIRE(b == std::vector<uint8_t>{0x00, 0x40, 0xFF, 0x80});
    CHECK_VEC(vs::expand_element(D3DVSDT_D3DCOLOR, b.data()), (Vec4{1.0f, 64.0f / 255.0f, 0.0f, 128.0f / 255.0f}));
    // Every byte value is the correctly rounded float quotient byte / 255.
    for (int v = 0; v < 256; ++v) {
        const uint8_t p[4] = {uint8_t(v), uint8_t(255 - v), uint8_t(v ^ 0x5A), uint8_t(v)};
        const Vec4 e = vs::expand_element(D3DVSDT_D3DCOLOR, p);
        CHECK(bits(e[2]) == bits(float(double(v) / 255.0)));  // B; a float quotient rounds the same way
        CHECK(bits(e[1]) == bits(float(255 - v) / 255.0f));
        CHECK(bits(e[0]) == bits(float(v ^ 0x5A) / 255.0f));
        CHECK(bits(e[3]) == bits(float(v) / 255.0f));
    }
    const uint8_t white[4] = {0xFF, 0xFF, 0xFF, 0xFF}, black[4] = {0, 0, 0, 0};
    CHECK_VEC(vs::expand_element(D3DVSDT_D3DCOLOR, white), (Vec4{1, 1, 1, 1}));
    CHECK_VEC(vs::expand_element(D3DVSDT_D3DCOLOR, black), (Vec4{0, 0, 0, 0}));
}

TEST_CASE("UBYTE4: four bytes in memory order, not normalised", "[fetch]") {
    const uint8_t p[4] = {0, 1, 128, 255};
    CHECK_VEC(vs::expand_element(D3DVSDT_UBYTE4, p), (Vec4{0, 1, 128, 255}));
    const uint8_t q[4] = {255, 255, 255, 255};
    CHECK_VEC(vs::expand_element(D3DVSDT_UBYTE4, q), (Vec4{255, 255, 255, 255}));
}

TEST_CASE("SHORT2 and SHORT4: signed little-endian 16-bit, not normalised", "[fetch]") {
    std::vector<uint8_t> b;
    put16(b, -1);
    put16(b, -32768);
    put16(b, 32767);
    put16(b, 300);
    REQUIRE(b == std::vector<uint8_t>{0xFF, 0xFF, 0x00, 0x80, 0xFF, 0x7F, 0x2C, 0x01});
    CHECK_VEC(vs::expand_element(D3DVSDT_SHORT2, b.data()), (Vec4{-1, -32768, 0, 1}));
    CHECK_VEC(vs::expand_element(D3DVSDT_SHORT4, b.data()), (Vec4{-1, -32768, 32767, 300}));
    CHECK_VEC(vs::expand_element(D3DVSDT_SHORT2, b.data() + 4), (Vec4{32767, 300, 0, 1}));
}

TEST_CASE("FLOAT1..FLOAT4: the bits as stored, missing components (0, 0, 1)", "[fetch]") {
    std::vector<uint8_t> b;
    putf(b, 1.5f);
    putf(b, -0.0f);
    putf(b, 1e-45f);  // a denormal is kept
    putf(b, -7.25f);
    const Vec4 f1 = vs::expand_element(D3DVSDT_FLOAT1, b.data());
    const Vec4 f2 = vs::expand_element(D3DVSDT_FLOAT2, b.data());
    const Vec4 f3 = vs::expand_element(D3DVSDT_FLOAT3, b.data());
    const Vec4 f4 = vs::expand_element(D3DVSDT_FLOAT4, b.data());
    CHECK_VEC(f1, (Vec4{1.5f, 0, 0, 1}));
    CHECK_VEC(f2, (Vec4{1.5f, -0.0f, 0, 1}));
    CHECK_VEC(f3, (Vec4{1.5f, -0.0f, 1e-45f, 1}));
    CHECK_VEC(f4, (Vec4{1.5f, -0.0f, 1e-45f, -7.25f}));
    CHECK(bits(f2[1]) == 0x80000000u);
    CHECK(bits(f3[2]) == 0x00000001u);
}

TEST_CASE("FLOATn: NaN payloads and infinities pass through unchanged", "[fetch]") {
    std::vector<uint8_t> b;
    put32(b, 0x7FC00001u);
    put32(b, 0xFF800000u);
    put32(b, 0x7F800001u);  // signalling NaN: no arithmetic, so it stays signalling
    put32(b, 0x7F7FFFFFu);
    const Vec4 f = vs::expand_element(D3DVSDT_FLOAT4, b.data());
    CHECK(bits(f[0]) == 0x7FC00001u);
    CHECK(bits(f[1]) == 0xFF800000u);
    CHECK(bits(f[2]) == 0x7F800001u);
    CHECK(bits(f[3]) == 0x7F7FFFFFu);
}

TEST_CASE("expand_element refuses a code that is not a D3D8 data type", "[fetch]") {
    const uint8_t p[16] = {};
    CHECK_THROWS_AS(vs::expand_element(8, p), std::invalid_argument);
}

TEST_CASE("fetch_vertex reads base + stride * index + offset, SKIP moves the offset", "[fetch]") {
    // STREAM(0) REG(0,FLOAT3) SKIP(1) REG(5,D3DCOLOR) REG(7,SHORT2): offsets 0, 16, 20; size 24.
    const auto d = valid_decl({D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_SKIP(1),
                               D3DVSD_REG(5, D3DVSDT_D3DCOLOR), D3DVSD_REG(7, D3DVSDT_SHORT2), D3DVSD_END()});
    REQUIRE(d.streams[0].size == 24);
    std::vector<uint8_t> b;
    for (int i = 0; i < 3; ++i) {  // stride 28: 4 bytes of padding after each vertex
        putf(b, float(i));
        putf(b, float(i) + 0.5f);
        putf(b, -float(i));
        put32(b, 0xDEADBEEFu);  // skipped
        put32(b, 0xFF0000FFu + uint32_t(i) * 0x100u);
        put16(b, int16_t(-i));
        put16(b, int16_t(1000 * i));
        put32(b, 0xCAFEBABEu);  // padding
    }
    vs::Streams s{};
    s[0] = binding(b, 28);
    vs::check_streams(d, s);
    for (uint32_t i = 0; i < 3; ++i) {
        const auto v = vs::fetch_vertex(d, s, i);
        CHECK_VEC(v[0], (Vec4{float(i), float(i) + 0.5f, -float(i), 1}));
        CHECK_VEC(v[5], (Vec4{0.0f, float(i) / 255.0f, 1.0f, 1.0f}));
        CHECK_VEC(v[7], (Vec4{float(-int(i)), 1000.0f * float(i), 0, 1}));
        for (uint32_t r : {1u, 2u, 3u, 4u, 6u, 8u, 15u}) CHECK_VEC(v[r], (Vec4{0, 0, 0, 0}));
    }
}

TEST_CASE("fetch_vertex: two streams with different strides", "[fetch]") {
    const auto d = valid_decl({D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT2), D3DVSD_STREAM(3),
                               D3DVSD_REG(2, D3DVSDT_UBYTE4), D3DVSD_REG(9, D3DVSDT_SHORT4), D3DVSD_END()});
    std::vector<uint8_t> pos, extra;
    for (int i = 0; i < 4; ++i) {
        putf(pos, 10.0f * float(i));
        putf(pos, 0.25f);
    }
    for (int i = 0; i < 4; ++i) {  // stride 20: 12 bytes of elements + 8 unused
        for (int k = 0; k < 4; ++k) extra.push_back(uint8_t(i * 4 + k));
        for (int k = 0; k < 4; ++k) put16(extra, int16_t(-100 * i - k));
        put32(extra, 0);
        put32(extra, 0);
    }
    vs::Streams s{};
    s[0] = binding(pos, 8);
    s[3] = binding(extra, 20);
    vs::check_streams(d, s);
    const auto v = vs::fetch_vertex(d, s, 2);
    CHECK_VEC(v[0], (Vec4{20, 0.25f, 0, 1}));
    CHECK_VEC(v[2], (Vec4{8, 9, 10, 11}));
    CHECK_VEC(v[9], (Vec4{-200, -201, -202, -203}));
    const auto v3 = vs::fetch_vertex(d, s, 3);
    CHECK_VEC(v3[0], (Vec4{30, 0.25f, 0, 1}));
    CHECK_VEC(v3[2], (Vec4{12, 13, 14, 15}));
}

TEST_CASE("check_streams: a stride below the declared vertex size names the stream", "[fetch]") {
    const auto d = valid_decl({D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_STREAM(2),
                               D3DVSD_REG(1, D3DVSDT_FLOAT1), D3DVSD_SKIP(1), D3DVSD_END()});
    std::vector<uint8_t> a(64), b(64);
    vs::Streams s{};
    s[0] = binding(a, 12);
    s[2] = binding(b, 7);
    try {
        vs::check_streams(d, s);
        FAIL("no error");
    } catch (const vs::FetchError& e) {
        CHECK(e.stream == 2);
        CHECK(e.index == -1);
        CHECK(std::string(e.what()) == "stream 2: stride 7 is smaller than the declared vertex size 8");
    }
    s[2].stride = 8;
    CHECK_NOTHROW(vs::check_streams(d, s));
    s[0].stride = 11;
    CHECK_THROWS_WITH(vs::check_streams(d, s), "stream 0: stride 11 is smaller than the declared vertex size 12");
}

TEST_CASE("check_streams and fetch_vertex: an unbound stream is an error naming it", "[fetch]") {
    const auto d = valid_decl({D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_STREAM(5),
                               D3DVSD_REG(1, D3DVSDT_D3DCOLOR), D3DVSD_END()});
    std::vector<uint8_t> a(48);
    vs::Streams s{};
    s[0] = binding(a, 12);
    try {
        vs::check_streams(d, s);
        FAIL("no error");
    } catch (const vs::FetchError& e) {
        CHECK(e.stream == 5);
        CHECK(e.index == -1);
        CHECK_THAT(e.what(), Catch::StartsWith("stream 5: not bound"));
    }
    try {
        (void)vs::fetch_vertex(d, s, 1);
        FAIL("no error");
    } catch (const vs::FetchError& e) {
        CHECK(e.stream == 5);
        CHECK(e.index == 1);
        CHECK_THAT(e.what(), Catch::StartsWith("stream 5, vertex 1: not bound"));
    }
    // A selected stream with no data definition (a warning) must be bound too, with any stride.
    const auto empty = valid_decl({D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_STREAM(2), D3DVSD_END()});
    CHECK_THROWS_WITH(vs::check_streams(empty, s),
                      "stream 2: not bound, but the declaration selects it (declared vertex size 0 bytes)");
    s[2] = vs::StreamBinding{nullptr, 0, 0, true};
    CHECK_NOTHROW(vs::check_streams(empty, s));
    CHECK_NOTHROW(vs::fetch_vertex(empty, s, 3));
}

TEST_CASE("fetch_vertex: reading past the end of a buffer names the stream and the index", "[fetch]") {
    const auto d = valid_decl({D3DVSD_STREAM(1), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_REG(1, D3DVSDT_D3DCOLOR),
                               D3DVSD_END()});
    std::vector<uint8_t> b(16 * 3 + 15);  // three whole vertices and 15 bytes of a fourth
    vs::Streams s{};
    s[1] = binding(b, 16);
    for (uint32_t i = 0; i < 3; ++i) CHECK_NOTHROW(vs::fetch_vertex(d, s, i));
    try {
        (void)vs::fetch_vertex(d, s, 3);
        FAIL("no error");
    } catch (const vs::FetchError& e) {
        CHECK(e.stream == 1);
        CHECK(e.index == 3);
        CHECK(std::string(e.what()) ==
              "stream 1, vertex 3: v1 (D3DCOLOR at offset 12) needs bytes 60..63, past the end of the 63-byte buffer");
    }
    // A huge index does not wrap around.
    try {
        (void)vs::fetch_vertex(d, s, 0xFFFFFFFFu);
        FAIL("no error");
    } catch (const vs::FetchError& e) {
        CHECK(e.index == 0xFFFFFFFF);
    }
}

TEST_CASE("fetch_vertex: a trailing SKIP is not read", "[fetch]") {
    const auto d = valid_decl({D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT1), D3DVSD_SKIP(3), D3DVSD_END()});
    std::vector<uint8_t> b;
    putf(b, 1.0f);
    putf(b, 0.0f);
    putf(b, 0.0f);
    putf(b, 0.0f);
    putf(b, 2.0f);  // vertex 1 ends after its element; its skipped DWORDs are missing
    vs::Streams s{};
    s[0] = binding(b, 16);
    CHECK_VEC(vs::fetch_vertex(d, s, 1)[0], (Vec4{2, 0, 0, 1}));
    CHECK_THROWS_AS(vs::fetch_vertex(d, s, 2), vs::FetchError);
}

TEST_CASE("fetch_vertex, lenient mode: the later load of a register wins", "[fetch]") {
    const auto d = valid_decl({D3DVSD_STREAM(0), D3DVSD_REG(4, D3DVSDT_FLOAT1), D3DVSD_REG(4, D3DVSDT_UBYTE4),
                               D3DVSD_STREAM(1), D3DVSD_REG(6, D3DVSDT_SHORT2), D3DVSD_STREAM(0),
                               D3DVSD_REG(6, D3DVSDT_UBYTE4), D3DVSD_END()},
                              true);
    std::vector<uint8_t> a, b;
    putf(a, 2.0f);          // v4 FLOAT1 at 0
    put32(a, 0x04030201u);  // v4 UBYTE4 at 4
    put16(b, -5);           // v6 SHORT2 on stream 1
    put16(b, 6);
    vs::Streams s{};
    s[0] = binding(a, 8);
    s[1] = binding(b, 4);
    const auto v = vs::fetch_vertex(d, s, 0);
    CHECK_VEC(v[4], (Vec4{1, 2, 3, 4}));
    // Stream 0 selected again: its offset restarts at 0, and this later v6 wins over stream 1's:
    // the bytes of 2.0f, 00 00 00 40.
    CHECK_VEC(v[6], (Vec4{0, 0, 0, 64}));
}

TEST_CASE("fetch_vertex: tessellator registers are not loaded by a non-patch draw", "[fetch]") {
    const auto d = valid_decl({D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_STREAM_TESS(),
                               D3DVSD_TESSNORMAL(0, 3), D3DVSD_TESSUV(8), D3DVSD_END()});
    std::vector<uint8_t> b;
    putf(b, 1);
    putf(b, 2);
    putf(b, 3);
    vs::Streams s{};
    s[0] = binding(b, 12);
    vs::check_streams(d, s);  // the tessellator stream needs no binding
    const auto v = vs::fetch_vertex(d, s, 0);
    CHECK_VEC(v[0], (Vec4{1, 2, 3, 1}));
    CHECK_VEC(v[3], (Vec4{0, 0, 0, 0}));
    CHECK_VEC(v[8], (Vec4{0, 0, 0, 0}));
}

TEST_CASE("fetch_vertex: register 16 (fixed-function NORMAL2) is no shader input", "[fetch]") {
    const auto d = valid_decl({D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT1), D3DVSD_REG(16, D3DVSDT_FLOAT3),
                               D3DVSD_END()});
    std::vector<uint8_t> b;
    putf(b, 9);
    putf(b, 1);
    putf(b, 2);
    putf(b, 3);
    vs::Streams s{};
    s[0] = binding(b, 16);
    const auto v = vs::fetch_vertex(d, s, 0);
    CHECK_VEC(v[0], (Vec4{9, 0, 0, 1}));
    for (uint32_t r = 1; r < vs::kNumInputs; ++r) CHECK_VEC(v[r], (Vec4{0, 0, 0, 0}));
}
