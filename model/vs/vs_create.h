// CreateVertexShader: a declaration and an optional shader function checked together, as the
// D3D8 runtime does — declaration rules 1-15 (with the shader's `def` constants appended as
// CONST tokens), bytecode decoding, shader validation, then declaration rules 16-17.
#pragma once

#include "model/decl/decl_decoder.h"
#include "model/vs/vs_load.h"
#include "model/vs/vs_validate.h"

#include <optional>

namespace vpsim::vs {

struct CreatedShader {
    decl::Declaration decl;           // with the def constants
    std::optional<Program> program;   // decoded function (none: fixed function, or bad bytecode)
    Validation validation;            // shader diagnostics (a decoding error is one of them)
    bool fixed_function = true;
    bool valid = false;               // declaration and shader both accepted
};

// `shader` = nullptr for fixed function.
CreatedShader create_vertex_shader(const std::vector<uint32_t>& decl_tokens, const LoadedShader* shader,
                                   const decl::DecoderOptions& decl_options, const Profile& profile);

}  // namespace vpsim::vs
