#include "model/vs/vs_create.h"

namespace vpsim::vs {

CreatedShader create_vertex_shader(const std::vector<uint32_t>& decl_tokens, const LoadedShader* shader,
                                   const decl::DecoderOptions& decl_options, const Profile& profile) {
    CreatedShader c;
    c.fixed_function = shader == nullptr;
    c.decl = decl::decode(decl_tokens, decl_options);
    if (shader && c.decl.valid && !shader->const_tokens.empty())  // def constants join the declaration's CONST tokens
        c.decl = decl::decode(with_def_constants(decl_tokens, c.decl.length, shader->const_tokens), decl_options);
    std::optional<uint32_t> reads;  // nullopt: fixed function
    if (shader) {
        try {
            c.program = decode_bytecode(shader->bytecode);
            c.validation = validate(*c.program, profile);
            reads = c.validation.info.input_reads;
        } catch (const BytecodeError& e) {
            c.validation.valid = false;
            c.validation.diagnostics.push_back({Severity::Error, e.rule, -1, e.index, e.message});
        }
    } else {
        c.validation.valid = true;
    }
    if (c.decl.valid && c.validation.valid) decl::check_shader_binding(c.decl, reads);
    c.valid = c.decl.valid && c.validation.valid;
    return c;
}

}  // namespace vpsim::vs
