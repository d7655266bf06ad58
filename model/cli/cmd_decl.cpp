// vpsim decl: decode, validate and convert a vertex shader declaration.
#include "model/cli/commands.h"
#include "model/cli/decl_report.h"
#include "model/common/file_util.h"
#include "model/decl/decl_io.h"
#include "model/decl/decl_text.h"
#include "model/ff/fvf.h"

#include <fmt/format.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

namespace vpsim::cli {

namespace {

struct DeclArgs {
    std::string file;
    std::string fvf;
    bool lenient = false;
    bool json = false;
    bool fixed_function = false;
    bool events = false;
    std::string reads;
    std::string format;
    std::string output;
    uint32_t const_count = 96;
    uint32_t max_length = 4096;
};

// "v0,v3,7" -> bit set of input registers v0..v15.
uint32_t parse_reads(const std::string& list) {
    uint32_t mask = 0;
    size_t pos = 0;
    while (pos <= list.size()) {
        const size_t comma = list.find(',', pos);
        std::string item = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        const size_t a = item.find_first_not_of(" \t"), b = item.find_last_not_of(" \t");
        item = a == std::string::npos ? "" : item.substr(a, b - a + 1);
        std::string digits = (!item.empty() && (item[0] == 'v' || item[0] == 'V')) ? item.substr(1) : item;
        if (digits.empty() || digits.size() > 2 || digits.find_first_not_of("0123456789") != std::string::npos ||
            std::stoul(digits) > 15)
            throw CLI::ValidationError("--reads", fmt::format("'{}' is not an input register v0..v15", item));
        mask |= 1u << std::stoul(digits);
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    return mask;
}

int run_decl(const DeclArgs& a) {
    std::vector<uint32_t> tokens;
    std::optional<ff::FvfLayout> fvf;
    if (a.file.empty() == a.fvf.empty()) {
        std::fprintf(stderr, "vpsim decl: expected a declaration file or --fvf CODE (one of the two)\n");
        return 2;
    }
    if (!a.fvf.empty()) {
        // An FVF code: its equivalent declaration (stream 0), decoded and checked like any other.
        try {
            fvf = ff::fvf_layout(ff::parse_fvf(a.fvf));
        } catch (const ff::FvfError& e) {
            std::fprintf(stderr, "vpsim decl: --fvf %s: %s\n", a.fvf.c_str(), e.what());
            return e.rule == "syntax" ? 2 : 1;
        }
        tokens = fvf->declaration;
    } else {
        try {
            tokens = decl::load_tokens(a.file);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "vpsim decl: %s\n", e.what());
            return 2;
        }
    }
    const std::string source = fvf ? fmt::format("FVF 0x{:08X}", fvf->fvf) : a.file;
    if (!a.format.empty()) {
        const std::string out = a.format == "text" ? decl::to_text(tokens)
                                : a.format == "hex" ? decl::to_hex(tokens)
                                                    : decl::to_c_array(tokens);
        if (a.output.empty() || a.output == "-") {
            std::fwrite(out.data(), 1, out.size(), stdout);
        } else {
            try {
                write_file_atomic(a.output, out);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "vpsim decl: %s\n", e.what());
                return 2;
            }
        }
        return 0;
    }
    decl::DecoderOptions opt;
    opt.lenient = a.lenient;
    opt.const_count = a.const_count;
    opt.max_length = a.max_length;
    decl::Declaration d = decl::decode(tokens, opt);
    // An FVF is the fixed-function shader's declaration: rules 16-17 for fixed function apply.
    if (d.valid && (a.fixed_function || !a.reads.empty() || fvf))
        decl::check_shader_binding(d, a.fixed_function || fvf ? std::nullopt
                                                              : std::optional<uint32_t>(parse_reads(a.reads)));
    if (a.json) {
        nlohmann::ordered_json j = declaration_json(d);
        if (fvf) {
            j["fvf"] = fmt::format("0x{:08X}", fvf->fvf);
            j["fvf_names"] = ff::fvf_to_string(fvf->fvf);
            j["stride"] = fvf->stride;
            j["pretransformed"] = fvf->inputs.pretransformed;
            j["declaration"] = decl::to_text(tokens);
        } else {
            j["file"] = a.file;
        }
        j["mode"] = a.lenient ? "lenient" : "strict";
        j["tokens"] = tokens.size();
        std::cout << j.dump(2) << "\n";
    } else {
        if (fvf) {
            std::cout << fmt::format("FVF 0x{:08X} = {}: {} bytes per vertex{}\nequivalent declaration:\n",
                                     fvf->fvf, ff::fvf_to_string(fvf->fvf), fvf->stride,
                                     fvf->inputs.pretransformed ? ", pre-transformed (XYZRHW: no transform or lighting)"
                                                                : "");
            std::string text = decl::to_text(tokens);
            size_t pos = 0;
            while (pos < text.size()) {
                const size_t nl = text.find('\n', pos);
                std::cout << "  " << text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos + 1);
                if (nl == std::string::npos) {
                    std::cout << "\n";
                    break;
                }
                pos = nl + 1;
            }
        }
        std::cout << fmt::format("{}: {} ({} mode), {} of {} tokens decoded, {} events\n", source,
                                 d.valid ? "valid" : "invalid", a.lenient ? "lenient" : "strict",
                                 d.length ? d.length : uint32_t(tokens.size()), tokens.size(), d.events.size());
        std::cout << declaration_text(d);
        if (a.events) {
            std::cout << "events (the decoded form the RTL also produces):\n";
            for (size_t i = 0; i < d.events.size(); ++i)
                std::cout << fmt::format("  [{}] {}\n", d.event_index[i], decl::to_string(d.events[i]));
        }
    }
    return d.valid ? 0 : 1;
}

}  // namespace

void add_decl_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<DeclArgs>();
    CLI::App* c = app.add_subcommand(
        "decl",
        "Decode and validate a D3D8 vertex shader declaration (rules 1-15; with --fixed-function or --reads also "
        "16-17), or convert it between text, hex and C forms.\nExit status: 0 valid, 1 invalid, 2 usage or I/O error.");
    c->add_option("file", a->file,
                  "Token array: .bin (little-endian DWORDs), .hex (hex DWORDs), anything else the text form "
                  "(D3DVSD_* macros, raw DWORDs or a pasted C array); - reads standard input");
    c->add_option("--fvf", a->fvf,
                  "Instead of a file: an FVF code (D3DFVF_* names joined by '|', e.g. "
                  "\"D3DFVF_XYZ|D3DFVF_NORMAL|D3DFVF_TEX1\", or a number): print its equivalent declaration and "
                  "layout (with --format: convert it); a code D3D8 refuses exits 1 naming the rule")
        ->excludes("file");
    c->add_flag("--lenient", a->lenient, "Lenient mode: rules 3, 4, 7, 8, 9, 10 give warnings instead of errors");
    c->add_flag("--json", a->json, "Print one JSON object (schema in docs/cli.md)");
    c->add_flag("--events", a->events, "Also print the decoded event list, each with the index of its token");
    c->add_flag("--fixed-function", a->fixed_function,
                "Check rules 16-17 for fixed function (no shader function): NORMAL must be FLOAT3");
    c->add_option("--reads", a->reads,
                  "Check rules 16-17 for a shader reading these input registers, e.g. v0,v3,v7")
        ->excludes("--fixed-function")
        ->excludes("--fvf");
    c->add_option("--format", a->format, "Convert instead of decoding: text (D3DVSD_* macros), hex, or c (a C array)")
        ->check(CLI::IsMember({"text", "hex", "c"}));
    c->add_option("-o,--output", a->output, "With --format: write here (atomically) instead of standard output")
        ->needs("--format");
    c->add_option("--const-count", a->const_count, "Device constant registers, for rule 12 (default 96)")
        ->check(CLI::Range(1u, 8192u));
    c->add_option("--max-length", a->max_length, "END must appear within this many DWORDs, rule 14 (default 4096)")
        ->check(CLI::Range(1u, 1u << 24));
    c->callback([a, &exit_code] { exit_code = run_decl(*a); });
}

}  // namespace vpsim::cli
