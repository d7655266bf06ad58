// vpsim asm / vpsim disasm: vs.1.x assembly text <-> bytecode.
#include "model/cli/commands.h"
#include "model/common/file_util.h"
#include "model/decl/decl_io.h"
#include "model/decl/decl_text.h"
#include "model/vs/vs_asm.h"
#include "model/vs/vs_d3d9.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace vpsim::cli {

namespace {

struct AsmArgs {
    std::string file;
    std::string output;
    std::string const_tokens;
    bool hex = false;
    uint32_t const_count = vs::kDefaultConstCount;
    bool d3d9 = false;                   // D3D9 vs_1_1 source with dcl_ lines
    std::vector<std::string> dcl_types;  // usage[N]=TYPE
    std::string decl_out;                // the D3D8 declaration of the dcl_ lines
    std::vector<std::string> defines, include_dirs;  // the preprocessor's -D NAME[=VALUE], -I DIR
};

struct DisasmArgs {
    std::string file;
    std::string output;
    uint32_t const_count = vs::kDefaultConstCount;
    bool d3d9 = false;
    std::vector<std::string> defines, include_dirs;
};

// The preprocessor's -D and -I options (vs_preproc.h), on asm and disasm.
void add_preprocessor_options(CLI::App* c, std::vector<std::string>& defines, std::vector<std::string>& dirs) {
    c->add_option("-D,--define", defines, "Preprocessor: define NAME (as 1) or NAME=VALUE (repeatable)");
    c->add_option("-I,--include-dir", dirs,
                  "Preprocessor: a directory #include \"...\" searches after the including file's own (repeatable)");
}

std::string display_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }

bool is_bin(const std::string& path) { return decl::format_for_path(path) == decl::TokenFormat::Binary; }
bool is_hex(const std::string& path) { return decl::format_for_path(path) == decl::TokenFormat::Hex; }

std::string to_bytes(const std::vector<uint32_t>& tokens) {
    std::string bytes(tokens.size() * 4, '\0');
    for (size_t i = 0; i < tokens.size(); ++i)
        for (size_t k = 0; k < 4; ++k) bytes[i * 4 + k] = char((tokens[i] >> (8 * k)) & 0xFF);
    return bytes;
}

std::string hex_words(const std::vector<uint32_t>& t, size_t from, size_t to) {
    std::string s;
    for (size_t i = from; i < to; ++i) s += fmt::format("{}0x{:08X}", i == from ? "" : " ", t[i]);
    return s;
}

// Hex DWORDs, one instruction per line with its text as a `//` comment (the .hex loader and
// `vpsim disasm` read it back).
std::string annotated_hex(const vs::Program& p) {
    const std::vector<uint32_t>& t = p.tokens;
    std::string out = fmt::format("0x{:08X}  // {}\n", t[0], p.is_11() ? "vs.1.1" : "vs.1.0");
    for (size_t n = 0; n < p.code.size(); ++n) {
        const size_t from = p.code[n].token_index;
        const size_t to = n + 1 < p.code.size() ? p.code[n + 1].token_index : t.size() - 1;
        out += fmt::format("{:<54}  // {}\n", hex_words(t, from, to), vs::format_instruction(p.code[n]));
    }
    out += fmt::format("0x{:08X}  // end\n", t.back());
    return out;
}

// D3DVSD_CONST(n, 1) + 4 DWORDs per def, one def per line.
std::string const_hex(const vs::AsmResult& r) {
    std::string out;
    for (size_t i = 0; i < r.defs.size(); ++i)
        out += fmt::format("{}  // {}\n", hex_words(r.const_tokens, i * 5, i * 5 + 5), vs::format_def(r.defs[i]));
    return out;
}

void write_out(const std::string& path, const std::string& content) {
    if (path.empty() || path == "-") {
        std::fwrite(content.data(), 1, content.size(), stdout);
        std::fflush(stdout);
    } else {
        write_file_atomic(path, content);
    }
}

int run_asm(const AsmArgs& a) {
    const std::string name = display_name(a.file);
    vs::AsmResult r;
    vs::AsmOptions opt;
    opt.const_count = a.const_count;
    opt.d3d9 = a.d3d9;
    opt.preprocess.defines = a.defines;
    opt.preprocess.include_dirs = a.include_dirs;
    if (a.file != "-") opt.path = a.file;
    try {
        r = vs::assemble(read_file(a.file), name, opt);
    } catch (const std::exception& e) {  // AsmError (file:line:column) or InputError
        std::fprintf(stderr, "vpsim asm: %s\n", e.what());
        return 2;
    }
    for (const vs::AsmWarning& w : r.warnings) std::fprintf(stderr, "vpsim asm: %s\n", w.to_string().c_str());
    try {
        if (!a.decl_out.empty() || !a.dcl_types.empty()) {
            if (!r.d3d9) {
                std::fprintf(stderr, "vpsim asm: %s: --decl-out and --dcl-type need a D3D9 vs_1_1 source with dcl_ lines\n",
                             name.c_str());
                return 2;
            }
            const vs::D3D9Declaration d = vs::d3d8_declaration(r, a.dcl_types, name);
            if (a.decl_out.empty())
                std::fprintf(stderr, "vpsim asm: note: --dcl-type without --decl-out: the declaration is not written\n");
            else
                write_out(a.decl_out, is_bin(a.decl_out) ? to_bytes(d.tokens)
                                      : is_hex(a.decl_out) ? decl::to_hex(d.tokens)
                                                           : d.text);
        } else if (r.d3d9) {
            std::fprintf(stderr, "vpsim asm: note: %zu dcl_ line(s) make a D3D8 declaration; --decl-out FILE writes it\n",
                         r.dcls.size());
        }
        if (!a.const_tokens.empty())
            write_out(a.const_tokens, is_bin(a.const_tokens) ? to_bytes(r.const_tokens) : const_hex(r));
        else if (!r.defs.empty() && a.decl_out.empty())  // --decl-out holds them
            std::fprintf(stderr, "vpsim asm: note: %zu def(s) give %zu declaration tokens; --const-tokens FILE writes them\n",
                         r.defs.size(), r.const_tokens.size());
        const bool hex = a.output.empty() || a.hex || is_hex(a.output);
        write_out(a.output, hex ? annotated_hex(r.program) : to_bytes(r.bytecode));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim asm: %s\n", e.what());
        return 2;
    }
    return 0;
}

enum class Kind { Bin, Hex, Asm };

// .bin, .hex and .vsh by extension; standard input and other extensions sniffed: binary if the
// bytes hold a NUL or a control character (bytecode nearly always holds a zero byte), hex if they
// parse as hex words, otherwise assembly.
Kind input_kind(const std::string& path, const std::string& bytes, const std::string& name) {
    if (is_bin(path)) return Kind::Bin;
    if (is_hex(path)) return Kind::Hex;
    std::string ext = path.size() >= 4 ? path.substr(path.size() - 4) : "";
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".vsh") return Kind::Asm;
    for (unsigned char c : bytes)
        if (c == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v')) return Kind::Bin;
    try {
        decl::parse_hex(bytes, name);
        return Kind::Hex;
    } catch (const decl::InputError&) {
        return Kind::Asm;
    }
}

int run_disasm(const DisasmArgs& a) {
    const std::string name = display_name(a.file);
    std::string text;
    try {
        const std::string bytes = read_file(a.file);
        const Kind kind = input_kind(a.file, bytes, name);
        if (kind == Kind::Asm) {
            vs::AsmOptions opt;
            opt.const_count = a.const_count;
            opt.d3d9 = a.d3d9;
            opt.preprocess.defines = a.defines;
            opt.preprocess.include_dirs = a.include_dirs;
            if (a.file != "-") opt.path = a.file;
            const vs::AsmResult r = vs::assemble(bytes, name, opt);
            for (const vs::AsmWarning& w : r.warnings) std::fprintf(stderr, "vpsim disasm: %s\n", w.to_string().c_str());
            text = vs::disassemble(r.program, r.defs);
        } else {
            const std::vector<uint32_t> tokens = kind == Kind::Bin ? decl::parse_bin(bytes, name) : decl::parse_hex(bytes, name);
            try {
                text = vs::disassemble_tokens(tokens);
            } catch (const vs::BytecodeError& e) {
                const std::string value = e.index < tokens.size() ? fmt::format(" (0x{:08X})", tokens[e.index]) : "";
                std::fprintf(stderr, "vpsim disasm: %s: error %s at token %u%s: %s\n", name.c_str(), e.rule.c_str(),
                             e.index, value.c_str(), e.message.c_str());
                return 2;
            }
        }
        write_out(a.output, text);
    } catch (const std::exception& e) {  // AsmError, InputError, OutputError
        std::fprintf(stderr, "vpsim disasm: %s\n", e.what());
        return 2;
    }
    return 0;
}

}  // namespace

void add_asm_commands(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<AsmArgs>();
    CLI::App* c = app.add_subcommand(
        "asm",
        "Assemble a vs.1.0/vs.1.1 shader (D3DX8 syntax after the C preprocessor, see docs/spec/vs-isa.md) into "
        "bytecode; `def`s become D3DVSD_CONST declaration tokens.\nWarnings (forms the DX9 docs dislike) go to standard error as file:line:column.\n"
        "Exit status: 0 assembled, 2 assembly error (file:line:column) or usage/I-O error.");
    c->add_option("file", a->file, "Assembly text (.vsh); - reads standard input")->required();
    c->add_option("-o,--output", a->output,
                  "Write the bytecode here (atomically): .hex -> hex DWORDs, one instruction per line with its text "
                  "as a // comment; anything else -> little-endian binary (- = standard output). Default: hex on "
                  "standard output");
    c->add_option("--const-tokens", a->const_tokens,
                  "Write the defs' declaration tokens here: D3DVSD_CONST(n, 1) + 4 DWORDs per def, to append to a "
                  "declaration before its END (hex DWORDs; .bin -> binary)");
    c->add_flag("--hex", a->hex, "Write -o as hex DWORDs whatever its extension");
    c->add_option("--const-count", a->const_count, "Constant registers c0..c(N-1) (default 96)")
        ->check(CLI::Range(1u, 2048u));
    c->add_flag("--d3d9", a->d3d9,
                "The source is a D3D9 vs_1_1 shader: its dcl_usage[n] vN lines make a D3D8 declaration (--decl-out), "
                "the rest assembles as vs.1.1 (automatic when the version line is spelled vs_1_1)");
    c->add_option("--dcl-type", a->dcl_types,
                  "D3D9 sources: the D3D8 data type of a usage's input, USAGE[N]=TYPE, e.g. texcoord0=SHORT2, "
                  "color=D3DCOLOR (repeatable; default FLOAT: FLOATn for an n-component dcl mask, else position/normal/"
                  "tangent/binormal FLOAT3, texcoord FLOAT2, psize/fog/depth/tessfactor FLOAT1, others FLOAT4)");
    c->add_option("--decl-out", a->decl_out,
                  "D3D9 sources: write the D3D8 declaration here (stream 0 with the dcl_ inputs in order, the defs' "
                  "D3DVSD_CONST tokens, END): text form, .hex hex DWORDs, .bin binary");
    add_preprocessor_options(c, a->defines, a->include_dirs);
    c->callback([a, &exit_code] { exit_code = run_asm(*a); });

    auto d = std::make_shared<DisasmArgs>();
    CLI::App* dc = app.add_subcommand(
        "disasm",
        "Print a vs.1.x shader as canonical assembly text: bytecode (.bin, .hex) is decoded; assembly (.vsh) is "
        "assembled and printed back canonically (defs included).\nComment blocks in bytecode print as "
        "`; comment: N DWORDs` lines (they do not survive a round trip).\nExit status: 0 ok, 2 malformed bytecode "
        "(with its token index), assembly error (file:line:column) or usage/I-O error.");
    dc->add_option("file", d->file,
                   "Bytecode (.bin little-endian DWORDs, .hex hex DWORDs) or assembly text (.vsh); - reads standard "
                   "input; standard input and other extensions are sniffed (binary, hex words, or assembly)")
        ->required();
    dc->add_option("-o,--output", d->output, "Write the text here (atomically) instead of standard output");
    dc->add_option("--const-count", d->const_count, "For assembly input: constant registers (default 96)")
        ->check(CLI::Range(1u, 2048u));
    dc->add_flag("--d3d9", d->d3d9, "For assembly input: accept a D3D9 vs_1_1 source's dcl_ lines (as asm --d3d9)");
    add_preprocessor_options(dc, d->defines, d->include_dirs);
    dc->callback([d, &exit_code] { exit_code = run_disasm(*d); });
}

}  // namespace vpsim::cli
