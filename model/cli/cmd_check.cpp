// vpsim check: CreateVertexShader semantics for a declaration and an optional shader function.
#include "model/cli/commands.h"
#include "model/cli/decl_report.h"
#include "model/decl/decl_io.h"
#include "model/vs/vs_create.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>

namespace vpsim::cli {

namespace {

struct CheckArgs {
    std::string decl, shader;
    bool json = false, lenient = false;
    uint32_t const_count = 96;
    int exp_log_slots = 12;
    std::vector<std::string> profile;  // KEY=VALUE options of vs::Profile
    bool d3d9 = false;                 // assembly: a D3D9 vs_1_1 source (dcl_ lines)
    std::vector<std::string> defines, include_dirs;  // assembly: the preprocessor's -D, -I
};

int run_check(const CheckArgs& a) {
    std::vector<uint32_t> decl_tokens;
    vs::LoadedShader shader;
    try {
        decl_tokens = decl::load_tokens(a.decl);
        if (!a.shader.empty()) {
            vs::AsmOptions opt;
            opt.const_count = a.const_count;
            opt.d3d9 = a.d3d9;
            opt.preprocess.defines = a.defines;
            opt.preprocess.include_dirs = a.include_dirs;
            shader = vs::load_shader(a.shader, opt);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim check: %s\n", e.what());
        return 2;
    }
    for (const auto& w : shader.warnings) std::fprintf(stderr, "%s\n", w.c_str());

    decl::DecoderOptions dopt;
    dopt.lenient = a.lenient;
    dopt.const_count = a.const_count;
    vs::Profile profile;
    profile.const_count = a.const_count;
    profile.exp_log_slots = a.exp_log_slots;
    for (const auto& kv : a.profile) profile.set(kv);
    const vs::CreatedShader c = vs::create_vertex_shader(decl_tokens, a.shader.empty() ? nullptr : &shader, dopt, profile);
    const decl::Declaration& d = c.decl;
    const std::vector<vs::Diagnostic>& shader_diags = c.validation.diagnostics;
    const bool valid = c.valid;
    // An assembly source's diagnostic is placed at its instruction's file:line:column.
    auto place = [&](const vs::Diagnostic& x) {
        return x.instruction >= 0 && size_t(x.instruction) < shader.instruction_places.size()
                   ? shader.instruction_places[size_t(x.instruction)]
                   : std::string();
    };
    nlohmann::ordered_json shader_json;
    if (c.program) {
        const vs::ShaderInfo& info = c.validation.info;
        shader_json = {{"version", c.program->is_11() ? "vs.1.1" : "vs.1.0"},
                       {"instructions", c.program->code.size()},
                       {"slots", info.slots},
                       {"inputs_read", nlohmann::ordered_json::array()},
                       {"constants_read", info.const_reads},
                       {"relative_addressing", info.relative}};
        for (uint32_t r = 0; r < vs::kNumInputs; ++r)
            if (info.input_reads >> r & 1u) shader_json["inputs_read"].push_back(r);
    }

    if (a.json) {
        nlohmann::ordered_json j;
        j["valid"] = valid;
        j["diagnostics"] = nlohmann::ordered_json::array();
        for (const auto& x : d.diagnostics) {
            auto dj = diagnostic_json(x);
            dj["source"] = "declaration";
            j["diagnostics"].push_back(dj);
        }
        for (const auto& x : shader_diags)
            j["diagnostics"].push_back({{"severity", x.severity == vs::Severity::Error ? "error" : "warning"},
                                        {"place", place(x).empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(place(x))},
                                        {"rule", x.rule},
                                        {"rule_name", vs::rule_name(x.rule)},
                                        {"index", x.token_index},
                                        {"instruction", x.instruction >= 0 ? nlohmann::ordered_json(x.instruction) : nullptr},
                                        {"message", x.message},
                                        {"source", "shader"}});
        j["declaration"] = declaration_json(d);
        j["shader"] = a.shader.empty() ? nlohmann::ordered_json(nullptr) : shader_json;
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << fmt::format("{}{}: {}\n", a.decl, a.shader.empty() ? " (fixed function)" : " + " + a.shader,
                                 valid ? "accepted" : "rejected");
        for (const auto& x : d.diagnostics) std::cout << "  " << a.decl << ": " << decl::to_string(x) << "\n";
        for (const auto& x : shader_diags)
            std::cout << "  " << (place(x).empty() ? a.shader : place(x)) << ": " << vs::to_string(x) << "\n";
    }
    return valid ? 0 : 1;
}

}  // namespace

void add_check_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<CheckArgs>();
    CLI::App* c = app.add_subcommand(
        "check",
        "CreateVertexShader semantics: declaration rules 1-17 and every shader validation rule (no --shader = fixed "
        "function).\nExit status: 0 accepted, 1 rejected, 2 usage or I/O error.");
    c->add_option("--decl", a->decl, "The declaration (.bin, .hex or text form)")->required();
    c->add_option("--shader", a->shader, "The shader function: bytecode (.bin, .hex) or assembly (.vsh)");
    c->add_flag("--lenient", a->lenient, "Decode the declaration in lenient mode");
    c->add_flag("--json", a->json, "Print one JSON object: valid, diagnostics, declaration, shader");
    c->add_option("--const-count", a->const_count, "Device constant registers (default 96)")->check(CLI::Range(1u, 8192u));
    c->add_option("--exp-log-slots", a->exp_log_slots, "Slot cost of exp and log: 12 (DX8.0 docs, default) or 10 (DX9)")
        ->check(CLI::IsMember({10, 12}));
    c->add_option("--profile", a->profile,
                  std::string("Validation option (repeatable; docs/vs-semantics.md): ") + vs::Profile::option_help())
        ->check(profile_option_check());
    c->add_flag("--d3d9", a->d3d9, "Assembly: a D3D9 vs_1_1 source, its dcl_ lines accepted (as asm --d3d9; the declaration is --decl)");
    c->add_option("-D,--define", a->defines, "Assembly: preprocessor NAME or NAME=VALUE (repeatable)");
    c->add_option("-I,--include-dir", a->include_dirs, "Assembly: a directory #include \"...\" searches (repeatable)");
    c->callback([a, &exit_code] { exit_code = run_check(*a); });
}

}  // namespace vpsim::cli
