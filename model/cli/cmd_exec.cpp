// vpsim exec: run a vs.1.x shader on vertices fetched from vertex buffer files through a
// declaration, and print every vertex's outputs (docs/exec.md).
#include "model/cli/commands.h"
#include "model/cli/vertex_format.h"
#include "model/decl/decl_io.h"
#include "model/vs/vs_exec.h"
#include "model/vs/vs_fast.h"
#include "model/vs/vs_fetch.h"
#include "model/vs/vs_create.h"
#include "model/vs/vs_validate.h"
#include "model/common/file_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vpsim::cli {

namespace {

struct ExecArgs {
    std::string decl, shader;
    std::vector<std::string> streams;  // N=FILE[:STRIDE]
    std::vector<std::string> consts;   // cI=x,y,z,w
    std::optional<uint32_t> count;
    uint32_t first = 0;
    bool json = false, reference = false, lenient = false;
    uint32_t const_count = 96;
    std::vector<std::string> profile;  // KEY=VALUE options of vs::Profile
    bool d3d9 = false;                 // assembly: a D3D9 vs_1_1 source (dcl_ lines)
    std::vector<std::string> defines, include_dirs;  // assembly: the preprocessor's -D, -I
};

// Ends the command with an exit status; the message lines go to standard error.
struct Failure {
    int status;
    std::vector<std::string> lines;
};
[[noreturn]] void fail(int status, std::string line) { throw Failure{status, {std::move(line)}}; }

bool all_digits(const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; }

// ---- Options ----

struct StreamSpec {
    uint32_t stream = 0;
    std::string file;
    std::optional<uint32_t> stride;
};

// "N=FILE[:STRIDE]": a trailing ":digits" is the stride, so a file whose name ends that way
// needs an explicit stride.
StreamSpec parse_stream(const std::string& text) {
    auto bad = [&](const std::string& why) { fail(2, fmt::format("--stream {}: {}", text, why)); };
    StreamSpec s;
    const size_t eq = text.find('=');
    if (eq == std::string::npos) bad("expected N=FILE[:STRIDE]");
    const std::string num = text.substr(0, eq);
    if (!all_digits(num) || num.size() > 2 || std::stoul(num) > 15) bad(fmt::format("'{}' is not a stream 0..15", num));
    s.stream = uint32_t(std::stoul(num));
    s.file = text.substr(eq + 1);
    const size_t colon = s.file.rfind(':');
    if (colon != std::string::npos && all_digits(s.file.substr(colon + 1))) {
        const std::string digits = s.file.substr(colon + 1);
        if (digits.size() > 10 || std::stoull(digits) > 0xFFFFFFFFull)
            bad(fmt::format("stride {} is out of range", digits));
        s.stride = uint32_t(std::stoull(digits));
        s.file.resize(colon);
    }
    if (s.file.empty()) bad("no file name");
    return s;
}

struct ConstSpec {
    uint32_t reg = 0;
    vs::Vec4 value{};
};

// "cI=x,y,z,w" with four floats (strtof syntax: decimal, hex floats, inf, nan).
ConstSpec parse_const(const std::string& text, uint32_t const_count) {
    auto bad = [&](const std::string& why) { fail(2, fmt::format("--const {}: {}", text, why)); };
    ConstSpec c;
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq < 2 || (text[0] != 'c' && text[0] != 'C')) bad("expected cI=x,y,z,w");
    const std::string num = text.substr(1, eq - 1);
    if (!all_digits(num))
        bad(fmt::format("'{}' is not a constant register c0..c{}", text.substr(0, eq), const_count - 1));
    if (num.size() > 9 || std::stoul(num) >= const_count)
        bad(fmt::format("c{} is out of range: the device has {} constant registers, c0..c{}", num, const_count,
                        const_count - 1));
    c.reg = uint32_t(std::stoul(num));
    size_t pos = eq + 1;
    for (int i = 0; i < 4; ++i) {
        const size_t comma = text.find(',', pos);
        if ((i < 3) != (comma != std::string::npos)) bad("expected four comma-separated floats x,y,z,w");
        std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        const size_t a = item.find_first_not_of(" \t"), b = item.find_last_not_of(" \t");
        item = a == std::string::npos ? "" : item.substr(a, b - a + 1);
        char* end = nullptr;
        errno = 0;
        const float f = std::strtof(item.c_str(), &end);
        if (item.empty() || *end != '\0') bad(fmt::format("'{}' is not a float", item));
        if (errno == ERANGE && std::isinf(f)) bad(fmt::format("{} is out of the float range", item));
        c.value[size_t(i)] = f;
        pos = comma + 1;
    }
    return c;
}

// ---- Output ----


// The outputs the shader writes (the others hold their start values; --json prints all).
std::string vertex_text(uint32_t index, const vs::VertexOutputs& o, uint32_t written) {
    std::string s = fmt::format("vertex {}\n", index);
    if (written & vs::kOutPos) s += "  oPos = " + vec_text(o.pos) + "\n";
    if (written & vs::kOutD0) s += "  oD0  = " + vec_text(o.d0) + "\n";
    if (written & vs::kOutD1) s += "  oD1  = " + vec_text(o.d1) + "\n";
    if (written & vs::kOutFog) s += "  oFog = " + float_text(o.fog) + "\n";
    if (written & vs::kOutPts) s += "  oPts = " + float_text(o.pts) + "\n";
    for (uint32_t i = 0; i < vs::kNumTexcoords; ++i)
        if (written & (vs::kOutT0 << i)) s += fmt::format("  oT{}  = {}\n", i, vec_text(o.t[i]));
    return s;
}

// ---- The run ----

// The command line's files, read and parsed: any I/O or syntax problem is exit 2.
struct ExecInputs {
    std::vector<uint32_t> decl_tokens;
    vs::LoadedShader shader;
    std::vector<StreamSpec> specs;
    std::vector<ConstSpec> consts;
    std::array<std::string, 16> buffers;
};

ExecInputs read_inputs(const ExecArgs& a) {
    ExecInputs in;
    try {
        in.decl_tokens = decl::load_tokens(a.decl);
        vs::AsmOptions opt;
        opt.const_count = a.const_count;
        opt.d3d9 = a.d3d9;
        opt.preprocess.defines = a.defines;
        opt.preprocess.include_dirs = a.include_dirs;
        in.shader = vs::load_shader(a.shader, opt);
    } catch (const std::exception& e) {
        fail(2, e.what());
    }
    for (const auto& text : a.streams) {
        in.specs.push_back(parse_stream(text));
        for (size_t k = 0; k + 1 < in.specs.size(); ++k)
            if (in.specs[k].stream == in.specs.back().stream)
                fail(2, fmt::format("--stream {}: stream {} is bound twice", text, in.specs.back().stream));
    }
    for (const auto& text : a.consts) in.consts.push_back(parse_const(text, a.const_count));
    for (const auto& s : in.specs) {
        try {
            in.buffers[s.stream] = read_file(s.file);
        } catch (const std::exception& e) {
            fail(2, e.what());
        }
    }
    return in;
}

// CreateVertexShader: the declaration (with the shader's def constants) and the function. Errors
// reject the shader (exit 1); warnings go to stderr.
vs::CreatedShader create_shader(const ExecArgs& a, const ExecInputs& in, const vs::Profile& profile) {
    decl::DecoderOptions dopt;
    dopt.lenient = a.lenient;
    dopt.const_count = a.const_count;
    vs::CreatedShader created = vs::create_vertex_shader(in.decl_tokens, &in.shader, dopt, profile);
    Failure rejected{1, {}};
    for (const auto& x : created.decl.diagnostics) {
        const std::string line = fmt::format("{}: {}", a.decl, decl::to_string(x));
        if (x.severity == decl::Severity::Error) rejected.lines.push_back(line);
        else std::fprintf(stderr, "%s\n", line.c_str());
    }
    for (const auto& x : created.validation.diagnostics) {
        const std::string line = fmt::format("{}: {}", a.shader, vs::to_string(x));
        if (x.severity == vs::Severity::Error) rejected.lines.push_back(line);
        else std::fprintf(stderr, "%s\n", line.c_str());
    }
    if (!created.decl.valid || !created.validation.valid) throw rejected;
    return created;
}

// SetStreamSource: a stride defaults to the stream's declared vertex size.
vs::Streams bind_streams(const decl::Declaration& d, const ExecInputs& in) {
    vs::Streams streams{};
    for (const auto& s : in.specs) {
        const decl::StreamDecl* sd = d.find_stream(s.stream);
        if (!sd)
            std::fprintf(stderr, "vpsim exec: warning: stream %u is bound but the declaration does not use it\n",
                         s.stream);
        const std::string& buf = in.buffers[s.stream];
        streams[s.stream] = {reinterpret_cast<const uint8_t*>(buf.data()), buf.size(),
                             s.stride ? *s.stride : (sd ? sd->size : 0u), true};
    }
    return streams;
}

// SetVertexShader loads the CONST tokens (the declaration's, then def's); then
// SetVertexShaderConstant in command-line order.
vs::Constants load_constants(const decl::Declaration& d, const ExecInputs& in, uint32_t const_count) {
    vs::Constants constants(const_count, vs::Vec4{});
    for (const auto& c : d.constants)
        for (size_t i = 0; i < 4; ++i) constants[c.reg][i] = decl::bits_float(c.bits[i]);
    for (const auto& c : in.consts) constants[c.reg] = c.value;
    return constants;
}

// The number of vertices to run: --count, or every vertex the bound streams hold from --first.
// An explicit --count past the end fails with the first vertex that cannot be fetched, before
// anything is allocated or run.
uint32_t vertex_count(const ExecArgs& a, const decl::Declaration& d, const vs::Streams& streams) {
    std::optional<uint64_t> holds;  // the vertices every stream holds: the last one has all its elements
    uint32_t limiting = 0;
    for (const auto& sd : d.streams) {
        if (sd.tess) continue;
        uint32_t extent = 0;  // bytes of a vertex that are read (a trailing SKIP is not)
        for (const auto& el : sd.elements)
            if (el.reg < vs::kNumInputs) extent = std::max(extent, el.offset + el.size);
        if (extent == 0) continue;
        const vs::StreamBinding& b = streams[sd.stream];
        const uint64_t n = b.size < extent ? 0 : (b.size - extent) / b.stride + 1;
        if (!holds || n < *holds) holds = n, limiting = sd.stream;
    }
    uint32_t count = 0;
    if (a.count) {
        count = *a.count;
    } else if (!holds) {
        fail(2, "no stream limits the number of vertices (the declaration fetches nothing): give --count");
    } else if (a.first > *holds) {
        throw vs::FetchError(limiting, a.first,
                             fmt::format("past the end of the buffer, which holds {} vertices", *holds));
    } else {
        count = uint32_t(std::min<uint64_t>(*holds - a.first, 0xFFFFFFFFull));
    }
    if (uint64_t(a.first) + count > 0x100000000ull)
        fail(2, fmt::format("--first {} --count {}: vertex indices go past 0xFFFFFFFF", a.first, count));
    if (holds && uint64_t(a.first) + count > *holds)
        (void)vs::fetch_vertex(d, streams, uint32_t(std::max<uint64_t>(a.first, *holds)));
    return count;
}

// Runs `count` vertices from --first and writes them in chunks, so memory does not grow with
// --count.
void write_vertices(const ExecArgs& a, const vs::CreatedShader& created, const vs::Profile& profile,
                    const vs::Streams& streams, const vs::Constants& constants, uint32_t count,
                    std::FILE* out_file) {
    const decl::Declaration& d = created.decl;
    constexpr uint32_t kChunk = 4096;  // vertices run and written at a time
    std::vector<vs::VertexOutputs> out;
    std::string text;
    auto flush = [&] {
        if (!text.empty() && std::fwrite(text.data(), 1, text.size(), out_file) != text.size())
            fail(2, "standard output: write failed");
        text.clear();
    };
    std::optional<vs::FastShader> fast;
    if (!a.reference) fast.emplace(vs::compile_fast(*created.program, profile));
    if (a.json) {
        text = "{\"vertices\": [";
    } else {
        text = fmt::format("{}: {} {}{}, {}\n", a.shader, count, count == 1 ? "vertex" : "vertices",
                           count ? fmt::format(" ({}..{})", a.first, uint64_t(a.first) + count - 1) : "",
                           a.reference ? "reference interpreter" : "fast path");
    }
    out.resize(std::min(count, kChunk));
    for (uint64_t done = 0; done < count;) {
        const uint32_t n = uint32_t(std::min<uint64_t>(kChunk, count - done));
        const uint32_t first = uint32_t(a.first + done);
        if (fast) {
            vs::run_fast_fetch(*fast, d, streams, constants, first, n, out.data());
        } else {
            for (uint32_t k = 0; k < n; ++k)
                out[k] = vs::execute_reference(*created.program, profile, vs::fetch_vertex(d, streams, first + k),
                                               constants);
        }
        for (uint32_t k = 0; k < n; ++k) {
            if (a.json)
                text += (done + k ? ",\n  " : "\n  ") + vertex_json(first + k, out[k]);
            else
                text += vertex_text(first + k, out[k], created.validation.info.outputs_written);
        }
        done += n;
        flush();
    }
    if (a.json) text += count ? "\n]}\n" : "]}\n";
    flush();
}

// Runs the shader and writes every vertex to `out_file`. Everything that can be rejected is
// checked before the first byte is written.
void run_exec(const ExecArgs& a, std::FILE* out_file) {
    const ExecInputs in = read_inputs(a);
    for (const auto& w : in.shader.warnings) std::fprintf(stderr, "%s\n", w.c_str());
    vs::Profile profile = vs::Profile::d3d8();
    profile.const_count = a.const_count;
    for (const auto& kv : a.profile) profile.set(kv);
    const vs::CreatedShader created = create_shader(a, in, profile);
    const vs::Streams streams = bind_streams(created.decl, in);
    const vs::Constants constants = load_constants(created.decl, in, profile.const_count);
    try {
        vs::check_streams(created.decl, streams);
        const uint32_t count = vertex_count(a, created.decl, streams);
        write_vertices(a, created, profile, streams, constants, count, out_file);
    } catch (const vs::FetchError& e) {  // named by the stream's file, or the declaration when it is unbound
        std::string file = a.decl;
        for (const auto& s : in.specs)
            if (s.stream == e.stream) file = s.file;
        fail(1, fmt::format("{}: {}", file, e.what()));
    }
}

}  // namespace

void add_exec_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<ExecArgs>();
    CLI::App* c = app.add_subcommand(
        "exec",
        "Run a vs.1.x shader on vertices fetched from vertex buffer files through a declaration and print each "
        "vertex's outputs.\nExit status: 0 ok, 1 rejected (invalid declaration or shader, a stream that is unbound, "
        "too narrow or too short), 2 usage or I/O error.");
    c->add_option("--decl", a->decl, "The declaration (.bin, .hex or text form)")->required();
    c->add_option("--shader", a->shader, "The shader function: bytecode (.bin, .hex) or assembly (.vsh)")->required();
    c->add_option("--stream", a->streams,
                  "N=FILE[:STRIDE]: bind the raw bytes of FILE to stream N (0..15); STRIDE defaults to the stream's "
                  "declared vertex size. Repeat for each stream");
    c->add_option("--const", a->consts,
                  "cI=x,y,z,w: SetVertexShaderConstant after the declaration's CONST tokens, in command-line order. "
                  "Repeatable");
    c->add_option("--first", a->first, "Index of the first vertex (default 0)");
    c->add_option("--count", a->count, "Vertices to run (default: as many as every stream holds from --first)");
    c->add_flag("--json", a->json, "Print {\"vertices\": [...]} with every output of every vertex (docs/exec.md)");
    c->add_flag("--reference", a->reference, "Run the reference interpreter instead of the fast path");
    c->add_flag("--lenient", a->lenient, "Decode the declaration in lenient mode");
    c->add_option("--profile", a->profile,
                  std::string("Semantics option where sources disagree (repeatable; docs/vs-semantics.md): ") +
                      vs::Profile::option_help())
        ->check(profile_option_check());
    c->add_flag("--d3d9", a->d3d9, "Assembly: a D3D9 vs_1_1 source, its dcl_ lines accepted (as asm --d3d9; the declaration is --decl)");
    c->add_option("-D,--define", a->defines, "Assembly: preprocessor NAME or NAME=VALUE (repeatable)");
    c->add_option("-I,--include-dir", a->include_dirs, "Assembly: a directory #include \"...\" searches (repeatable)");
    c->add_option("--const-count", a->const_count, "Device constant registers (default 96)")
        ->check(CLI::Range(1u, 8192u));
    c->callback([a, &exit_code] {
        try {
            run_exec(*a, stdout);
            if (std::fflush(stdout) != 0) throw Failure{2, {"standard output: write failed"}};
            exit_code = 0;
        } catch (const Failure& f) {
            for (const auto& line : f.lines) std::fprintf(stderr, "vpsim exec: %s\n", line.c_str());
            exit_code = f.status;
        }
    });
}

}  // namespace vpsim::cli
