// See d3dx8_tokens.h.
#include "d3dx8_tokens.h"

namespace d3dx8 {
namespace {

constexpr uint32_t kEnd = 0x0000FFFFu;
constexpr uint32_t kOpDcl = 31;
constexpr uint32_t kOpDef = 81;
constexpr uint32_t kOpComment = 0xFFFE;
constexpr uint32_t kVertexVersion = 0xFFFE0000u;
constexpr uint32_t kPixelVersion = 0xFFFF0000u;
// D3DVSD_CONST(register, count): token type 4 (constant memory) in bits 29..31, count in 25..28.
uint32_t vsd_const(uint32_t reg, uint32_t count) { return (4u << 29) | (count << 25) | reg; }

std::string at(size_t i, const std::string &rule) {
  return "token " + std::to_string(i) + ": " + rule;
}

}  // namespace

Rewritten rewrite(const uint32_t *tokens, size_t count) {
  Rewritten out;
  if (count == 0) {
    out.error = at(0, "no version token");
    return out;
  }
  const uint32_t version = tokens[0];
  const uint32_t kind = version & 0xFFFF0000u;
  if ((kind != kVertexVersion && kind != kPixelVersion) || ((version >> 8) & 0xFFu) != 1) {
    out.error = at(0, "version token is not a vs.1.x or ps.1.x one");
    return out;
  }
  const bool vertex = kind == kVertexVersion;
  out.function.push_back(version);
  size_t i = 1;
  while (i < count) {
    const uint32_t token = tokens[i];
    if (token == kEnd) {
      out.function.push_back(token);
      return out;
    }
    const uint32_t op = token & 0xFFFFu;
    size_t len = 1;
    if (op == kOpComment) {
      len = 1 + ((token >> 16) & 0x7FFFu);
    } else if (op == kOpDef) {
      len = 6;
    } else {
      while (i + len < count && (tokens[i + len] & 0x80000000u)) ++len;
    }
    if (i + len > count) {
      out.error = at(i, "the instruction's " + std::to_string(len) +
                            " tokens go past the end of the shader");
      return out;
    }
    if (op == kOpDcl) {
      // dropped
    } else if (op == kOpDef && vertex) {
      out.constants.push_back(vsd_const(tokens[i + 1] & 0x7FFu, 1));
      out.constants.insert(out.constants.end(), tokens + i + 2, tokens + i + 6);
    } else {
      out.function.insert(out.function.end(), tokens + i, tokens + i + len);
    }
    i += len;
  }
  out.error = at(count, "no end token 0x0000FFFF");
  return out;
}

}  // namespace d3dx8
