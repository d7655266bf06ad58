#include "model/vs/vs_load.h"

#include "model/decl/decl_io.h"
#include "model/vs/vs_asm.h"
#include "model/common/file_util.h"

namespace vpsim::vs {

LoadedShader load_shader(const std::string& path, uint32_t const_count) {
    AsmOptions o;
    o.const_count = const_count;
    return load_shader(path, o);
}

LoadedShader load_shader(const std::string& path, const AsmOptions& options) {
    LoadedShader s;
    switch (decl::format_for_path(path)) {
    case decl::TokenFormat::Binary: s.bytecode = decl::parse_bin(read_file(path), path); break;
    case decl::TokenFormat::Hex: s.bytecode = decl::parse_hex(read_file(path), path); break;
    default: {
        AsmOptions o = options;
        if (path != "-") o.path = path;  // #include "..." relative to the file
        s = shader_from_assembly(read_file(path), path == "-" ? "<stdin>" : path, o);
    }
    }
    return s;
}

LoadedShader shader_from_assembly(std::string_view text, std::string_view name, uint32_t const_count) {
    AsmOptions o;
    o.const_count = const_count;
    return shader_from_assembly(text, name, o);
}

LoadedShader shader_from_assembly(std::string_view text, std::string_view name, const AsmOptions& options) {
    AsmResult r = assemble(text, name, options);
    LoadedShader s;
    s.bytecode = std::move(r.bytecode);
    s.const_tokens = std::move(r.const_tokens);
    for (const auto& w : r.warnings) s.warnings.push_back(w.to_string());
    s.from_assembly = true;
    s.dcls = std::move(r.dcls);
    for (size_t i = 0; i < r.instruction_files.size(); ++i)
        s.instruction_places.push_back(r.instruction_files[i].file + ":" + std::to_string(r.instruction_files[i].line) + ":" +
                                       std::to_string(r.instruction_columns[i]));
    return s;
}

std::vector<uint32_t> with_def_constants(const std::vector<uint32_t>& decl_tokens, uint32_t decl_length,
                                         const std::vector<uint32_t>& const_tokens) {
    std::vector<uint32_t> t(decl_tokens.begin(), decl_tokens.begin() + (decl_length ? decl_length - 1 : decl_tokens.size()));
    t.insert(t.end(), const_tokens.begin(), const_tokens.end());
    t.insert(t.end(), decl_tokens.begin() + (decl_length ? decl_length - 1 : decl_tokens.size()), decl_tokens.end());
    return t;
}

}  // namespace vpsim::vs
