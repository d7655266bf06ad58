// The shader corpus of examples/shaders/corpus (corpus.txt): SDK-sample style (unmasked
// m-macros, partial temp reads), NVIDIA style (#include, #define register names) and D3D9 vs_1_1
// (dcl_). Each assembles, round-trips through the disassembler, passes CreateVertexShader with its
// declaration, is rejected by the strict profile options by the rule corpus.txt names (or not at
// all), and runs on its vertex buffer in the reference interpreter.
#include "model/decl/decl_io.h"
#include "model/vs/vs_asm.h"
#include "model/vs/vs_create.h"
#include "model/vs/vs_d3d9.h"
#include "model/vs/vs_exec.h"
#include "model/vs/vs_fetch.h"
#include "model/vs/vs_load.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace vpsim;
using namespace vpsim::vs;

namespace {

const std::string kDir = std::string(VPSIM_SOURCE_DIR) + "/examples/shaders/corpus/";

struct Entry {
    std::string shader, decl, vb, strict;
    std::vector<std::string> dcl_types;
};

std::vector<Entry> corpus() {
    std::ifstream f(kDir + "corpus.txt");
    std::vector<Entry> r;
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream in(line);
        Entry e;
        in >> e.shader >> e.decl >> e.vb >> e.strict;
        for (std::string t; in >> t;) e.dcl_types.push_back(t);
        r.push_back(e);
    }
    return r;
}

std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

Profile strict_profile() {
    Profile p;
    p.set("temps=strict");
    p.set("masks=strict");
    return p;
}

}  // namespace

TEST_CASE("The corpus has at least 25 shaders of the three styles", "[corpus]") {
    const auto c = corpus();
    int sdk = 0, nv = 0, d9 = 0;
    for (const Entry& e : c) {
        sdk += e.shader.rfind("sdk_", 0) == 0;
        nv += e.shader.rfind("nv_", 0) == 0;
        d9 += e.shader.rfind("d9_", 0) == 0;
    }
    CHECK(c.size() >= 25);
    CHECK(sdk >= 8);
    CHECK(nv >= 8);
    CHECK(d9 >= 8);
}

TEST_CASE("Every corpus shader assembles, round-trips, passes check with its declaration and runs", "[corpus]") {
    for (const Entry& e : corpus()) {
        INFO(e.shader);
        const std::string path = kDir + e.shader;
        AsmOptions opt;
        opt.path = path;
        AsmResult r;
        REQUIRE_NOTHROW(r = assemble(slurp(path), e.shader, opt));
        // The styles use what they are meant to.
        const bool d9 = e.shader.rfind("d9_", 0) == 0;
        CHECK(r.d3d9 == d9);
        if (e.shader.rfind("nv_", 0) == 0) CHECK(has_directives(slurp(path)));

        // Round trip: canonical text assembles to the same bytecode, and decoding the bytecode
        // prints the same text.
        const std::string text = disassemble(r.program, r.defs);
        CHECK(assemble(text, "canonical.vsh").bytecode == r.bytecode);
        CHECK(assemble(text, "canonical.vsh").const_tokens == r.const_tokens);
        CHECK(disassemble_tokens(r.bytecode) == disassemble(r.program));

        // The declaration: the corpus layout (D3D8 sources, plus their defs), or the one the dcl_
        // lines make, which must be that layout too.
        const std::vector<uint32_t> layout = decl::load_tokens(kDir + e.decl);
        std::vector<uint32_t> decl_tokens;
        if (d9) {
            const D3D9Declaration d = d3d8_declaration(r, e.dcl_types, e.shader);
            CHECK(std::vector<uint32_t>(d.tokens.begin(), d.tokens.begin() + long(layout.size() - 1)) ==
                  std::vector<uint32_t>(layout.begin(), layout.end() - 1));
            decl_tokens = d.tokens;
        } else {
            decl_tokens = with_def_constants(layout, uint32_t(layout.size()), r.const_tokens);
        }
        LoadedShader loaded;
        loaded.bytecode = r.bytecode;
        loaded.from_assembly = true;
        const CreatedShader c = create_vertex_shader(decl_tokens, &loaded, decl::DecoderOptions{}, Profile::d3d8());
        std::string diags;
        for (const auto& d : c.decl.diagnostics) diags += decl::to_string(d) + "\n";
        for (const auto& d : c.validation.diagnostics) diags += to_string(d) + "\n";
        INFO(diags);
        REQUIRE(c.valid);

        // The strict options: today's (D3D9's) errors.
        const Validation s = validate(*c.program, strict_profile());
        if (e.strict == "-") {
            CHECK(s.valid);
        } else {
            CHECK(!s.valid);
            bool found = false;
            for (const auto& d : s.diagnostics) found = found || (d.rule == e.strict && d.severity == Severity::Error);
            CHECK(found);
            // ... which the d3d8 profile only warns about.
            bool warned = false;
            for (const auto& d : c.validation.diagnostics) warned = warned || (d.rule == e.strict && d.severity == Severity::Warning);
            CHECK(warned);
        }

        // Runs on the vertex buffer: finite positions for every vertex (constants from the
        // declaration, the rest 0).
        const std::string vb = slurp(kDir + e.vb);
        Streams streams{};
        streams[0] = {reinterpret_cast<const uint8_t*>(vb.data()), vb.size(), c.decl.streams.at(0).size, true};
        Constants constants(96, Vec4{});
        for (const auto& k : c.decl.constants)
            for (size_t i = 0; i < 4; ++i) constants[k.reg][i] = decl::bits_float(k.bits[i]);
        REQUIRE_NOTHROW(check_streams(c.decl, streams));
        const uint32_t n = uint32_t(vb.size() / streams[0].stride);
        CHECK(n == 8);
        for (uint32_t v = 0; v < n; ++v) {
            const VertexOutputs o = execute_reference(*c.program, Profile::d3d8(), fetch_vertex(c.decl, streams, v), constants);
            for (float x : o.pos) CHECK(std::isfinite(x));
        }
    }
}
