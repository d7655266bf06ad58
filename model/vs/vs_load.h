// Loading a shader file: binary bytecode (.bin), hex DWORDs (.hex) or assembly (anything
// else, e.g. .vsh). Assembly's `def` lines come back as D3DVSD_CONST tokens.
#pragma once

#include "model/vs/vs_asm.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vpsim::vs {

struct LoadedShader {
    std::vector<uint32_t> bytecode;
    std::vector<uint32_t> const_tokens;  // from `def`: to append to the declaration before END
    std::vector<std::string> warnings;   // assembler warnings, "file:line:col: warning: ..."
    bool from_assembly = false;
    std::vector<InputDcl> dcls;          // a D3D9 vs_1_1 source's dcl_ lines (vs_d3d9.h)
    // Assembly: where instruction i stands, "file:line:column" (empty for bytecode files).
    std::vector<std::string> instruction_places;
};

// Throws decl::InputError (I/O, bad .bin/.hex) or the assembler's error (with line:column).
LoadedShader load_shader(const std::string& path, uint32_t const_count = 96);

LoadedShader load_shader(const std::string& path, const AsmOptions& options);

// Assembly text (named `name` in messages) as a loaded shader; throws the assembler's error.
LoadedShader shader_from_assembly(std::string_view text, std::string_view name, uint32_t const_count = 96);
LoadedShader shader_from_assembly(std::string_view text, std::string_view name, const AsmOptions& options);

// The declaration with `const_tokens` inserted before its END (or appended when it has none).
std::vector<uint32_t> with_def_constants(const std::vector<uint32_t>& decl_tokens, uint32_t decl_length,
                                         const std::vector<uint32_t>& const_tokens);

}  // namespace vpsim::vs
