// Turning a shader assembled by d3dx9 (Wine's d3dx9_36 D3DXAssembleShader) into what d3dx8's
// D3DXAssembleShader gave a Direct3D 8 program. Pure C++, no Windows header: built by the
// d3dx8 layer (mingw-w64) and by its test (tests/test_d3dx8_tokens.cpp) on the host.
#ifndef VPSIM_D3DX8_TOKENS_H
#define VPSIM_D3DX8_TOKENS_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace d3dx8 {

struct Rewritten {
  std::vector<uint32_t> function;   // the shader tokens D3D8's CreateVertexShader / CreatePixelShader take
  std::vector<uint32_t> constants;  // a vertex shader's def constants as D3DVSD_CONST declaration tokens
  std::string error;                // empty when the tokens were rewritten
};

// Rewrites the tokens of one shader, from the version token to the end token 0x0000FFFF:
// - dcl instructions (opcode 31; D3D8 has no such instruction: its vertex inputs are declared
//   in the declaration) are removed from vertex and pixel shaders;
// - a vertex shader's def instructions (opcode 81; D3D8 vertex shaders take constants from the
//   declaration, not from the function) are removed and returned as D3DVSD_CONST(register, 1)
//   and the four values, in the order of the source; a pixel shader keeps its def (ps.1.x has it);
// - comments and every other instruction are kept as they are.
// An instruction is its token and the parameter tokens after it (bit 31 set), as in D3D8 and in
// shader models 1.x of D3D9; def takes a register and four raw values, a comment its length.
// Tokens that are not a 1.x shader, or that end before the end token, give an error naming the
// token index and the rule.
Rewritten rewrite(const uint32_t *tokens, size_t count);

}  // namespace d3dx8

#endif
