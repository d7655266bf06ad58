// The d3dx8 compatibility layer's token rewriting (examples/irrlicht/d3dx8/d3dx8_tokens.h): what
// it makes of shaders as d3dx9 assembles them, for Direct3D 8 (docs/real-frames.md).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "examples/irrlicht/d3dx8/d3dx8_tokens.h"

namespace {

using Tokens = std::vector<uint32_t>;
constexpr uint32_t kVs11 = 0xFFFE0101u, kPs11 = 0xFFFF0101u, kEnd = 0x0000FFFFu;
// dcl_position v0: the instruction, the usage token, the register v0.xyzw
const Tokens kDclPosition = {0x0000001Fu, 0x80000000u, 0x900F0000u};
// def c95, 0.5, 0.5, 0.5, 0.5 (the register, then four raw values)
const Tokens kDefC95 = {0x00000051u, 0xA00F005Fu, 0x3F000000u, 0x3F000000u, 0x3F000000u, 0x3F000000u};
// mov oPos, v0
const Tokens kMovOposV0 = {0x00000001u, 0xC00F0000u, 0x90E40000u};

Tokens shader(uint32_t version, std::initializer_list<Tokens> parts, bool end = true) {
  Tokens t = {version};
  for (const Tokens &p : parts) t.insert(t.end(), p.begin(), p.end());
  if (end) t.push_back(kEnd);
  return t;
}

d3dx8::Rewritten rewrite(const Tokens &t) { return d3dx8::rewrite(t.data(), t.size()); }

}  // namespace

TEST_CASE("d3dx8 tokens: a vertex shader's dcl instructions are removed, the rest kept in order") {
  const d3dx8::Rewritten r = rewrite(shader(kVs11, {kDclPosition, kMovOposV0}));
  REQUIRE(r.error.empty());
  CHECK(r.function == shader(kVs11, {kMovOposV0}));
  CHECK(r.constants.empty());
}

TEST_CASE("d3dx8 tokens: a vertex shader's def becomes D3DVSD_CONST(register, 1) and its four values") {
  const d3dx8::Rewritten r = rewrite(shader(kVs11, {kDefC95, kMovOposV0}));
  REQUIRE(r.error.empty());
  CHECK(r.function == shader(kVs11, {kMovOposV0}));
  // D3DVSD_CONST(95, 1) = 4 << 29 | 1 << 25 | 95
  CHECK(r.constants == Tokens{0x8200005Fu, 0x3F000000u, 0x3F000000u, 0x3F000000u, 0x3F000000u});
}

TEST_CASE("d3dx8 tokens: a pixel shader keeps its def instructions") {
  const Tokens ps = shader(kPs11, {kDefC95, {0x00000001u, 0x800F0000u, 0xA0E4005Fu}});  // mov r0, c95
  const d3dx8::Rewritten r = rewrite(ps);
  REQUIRE(r.error.empty());
  CHECK(r.function == ps);
  CHECK(r.constants.empty());
}

TEST_CASE("d3dx8 tokens: a comment is kept whole, whatever its words look like") {
  // a comment of 3 words, the first of which looks like a dcl instruction
  const Tokens comment = {0x0003FFFEu, 0x0000001Fu, 0x80000000u, 0x900F0000u};
  const d3dx8::Rewritten r = rewrite(shader(kVs11, {comment, kMovOposV0}));
  REQUIRE(r.error.empty());
  CHECK(r.function == shader(kVs11, {comment, kMovOposV0}));
}

TEST_CASE("d3dx8 tokens: tokens without the end token are an error naming where they end") {
  const d3dx8::Rewritten r = rewrite(shader(kVs11, {kMovOposV0}, false));
  CHECK(r.error == "token 4: no end token 0x0000FFFF");
}

TEST_CASE("d3dx8 tokens: a def cut short is an error naming its token") {
  const Tokens cut = {kVs11, 0x00000051u, 0xA00F005Fu, 0x3F000000u};
  CHECK(rewrite(cut).error == "token 1: the instruction's 6 tokens go past the end of the shader");
}

TEST_CASE("d3dx8 tokens: a shader model 2 version token is refused") {
  CHECK(rewrite(shader(0xFFFE0200u, {kMovOposV0})).error ==
        "token 0: version token is not a vs.1.x or ps.1.x one");
}
