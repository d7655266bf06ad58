// The preprocessor pass of the assembler (model/vs/vs_preproc.h): mcpp in-process. Directives,
// -D / -I, and diagnostics that name the original file and line through includes and macros.
#include "model/vs/vs_asm.h"
#include "model/vs/vs_load.h"
#include "model/vs/vs_preproc.h"
#include "model/vs/vs_validate.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace vpsim::vs;
namespace fs = std::filesystem;

namespace {

// A scratch directory of files, removed at the end.
struct Dir {
    fs::path root;
    Dir() {
        root = fs::temp_directory_path() / ("vpsim-pp-test-" + std::to_string(::getpid()));
        fs::remove_all(root);
        fs::create_directories(root);
    }
    ~Dir() { fs::remove_all(root); }
    std::string write(const std::string& name, const std::string& text) const {
        const fs::path p = root / name;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }
};

AsmResult assemble_file(const std::string& path, const std::string& name, const PreprocOptions& pp = {}) {
    std::ifstream f(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(f)), {});
    AsmOptions o;
    o.path = path;
    o.preprocess = pp;
    return assemble(text, name, o);
}

}  // namespace

TEST_CASE("#define (object- and function-like), #undef, #if/#ifdef/#ifndef/#elif/#else and -D", "[preproc]") {
    const std::string text =
        "#define POS r0\n"
        "#define TWICE(a) add a, a, a\n"
        "vs.1.1\n"
        "mov POS, v0            ; it's a comment with an apostrophe\n"
        "TWICE(POS)\n"
        "#undef POS\n"
        "#ifdef POS\n"
        "mov oD0, c99\n"
        "#elif LEVEL == 2\n"
        "mov oD0, c2\n"
        "#elif LEVEL > 2\n"
        "mov oD0, c3\n"
        "#else\n"
        "mov oD0, c1\n"
        "#endif\n"
        "#ifndef NO_POS\n"
        "mov oPos, r0\n"
        "#endif\n";
    AsmOptions o;
    const AsmResult a = assemble(text, "m.vsh", o);
    REQUIRE(a.program.code.size() == 4);
    CHECK(a.program.code[1].opcode == OP_ADD);
    CHECK(a.program.code[2].src[0].num == 1);  // LEVEL undefined: 0
    CHECK(a.instruction_lines == std::vector<int>{4, 5, 14, 17});
    CHECK(a.warnings.empty());
    o.preprocess.defines = {"LEVEL=3", "NO_POS"};
    const AsmResult b = assemble(text, "m.vsh", o);
    REQUIRE(b.program.code.size() == 3);
    CHECK(b.program.code[2].src[0].num == 3);
    // Without directives or options the text is assembled as it is (no preprocessor run).
    CHECK(!has_directives("vs.1.1\nmov oPos, v0 ; # not a directive\n"));
    CHECK(has_directives("vs.1.1\n  #define X\n"));
}

TEST_CASE("A quoted #include is found relative to the including file, then in -I, and diagnostics name the original file and line",
          "[preproc]") {
    const Dir d;
    d.write("inc/consts.h", "#define CV_WORLD 4\n#define V_POS v0\n");
    d.write("shaders/lib/light.h", "#include \"defs.h\"\n#define BAD_OP(x) mvo x, V_POS\n");
    d.write("shaders/lib/defs.h", "#define N r1\n");
    const std::string main = d.write("shaders/main.vsh",
                                     "#include \"consts.h\"\n"
                                     "#include \"lib/light.h\"\n"
                                     "vs.1.1\n"
                                     "m4x4 oPos, V_POS, c[CV_WORLD]\n"
                                     "mov N, V_POS\n"
                                     "BAD_OP(r2)\n");
    PreprocOptions pp;
    pp.include_dirs = {(d.root / "inc").string()};
    try {
        assemble_file(main, "main.vsh", pp);
        FAIL("no error");
    } catch (const AsmError& e) {
        // The macro's expansion is reported on the line that uses it, in the including file.
        CHECK(e.file == "main.vsh");
        CHECK(e.line == 6);
        CHECK_THAT(e.message, Catch::Contains("unknown instruction 'mvo'"));
    }
    // Without -I the include is not found: the preprocessor's error names the line of the #include.
    try {
        assemble_file(main, "main.vsh");
        FAIL("no error");
    } catch (const AsmError& e) {
        CHECK(e.file == "main.vsh");
        CHECK(e.line == 1);
        CHECK_THAT(e.message, Catch::Contains("preprocessor:"));
        CHECK_THAT(e.message, Catch::Contains("consts.h"));
    }
    // An error inside an included file names that file and line, and the chain of includes.
    const std::string bad = d.write("shaders/bad.vsh", "vs.1.1\n#include \"lib/broken.h\"\nmov oPos, v0\n");
    d.write("shaders/lib/broken.h", "// two lines\n#if\n#endif\n");
    try {
        assemble_file(bad, "bad.vsh");
        FAIL("no error");
    } catch (const AsmError& e) {
        CHECK_THAT(e.file, Catch::EndsWith("shaders/lib/broken.h"));
        CHECK(e.line == 2);
        CHECK_THAT(e.message, Catch::Contains("included from bad.vsh:2"));
    }
    // An assembler error on a line of an included file names it too.
    const std::string inc_err = d.write("shaders/inc_err.vsh", "vs.1.1\n#include \"lib/ops.h\"\nmov oPos, v0\n");
    d.write("shaders/lib/ops.h", "mov r0, v0\nmov r1, v99\n");
    try {
        assemble_file(inc_err, "inc_err.vsh");
        FAIL("no error");
    } catch (const AsmError& e) {
        CHECK_THAT(e.file, Catch::EndsWith("shaders/lib/ops.h"));
        CHECK(e.line == 2);
        CHECK(e.column == 9);
        CHECK_THAT(e.message, Catch::Contains("v99 is out of range"));
    }
    // Each instruction knows where it stands, for validation diagnostics.
    d.write("shaders/lib/ops.h", "mov r0, v0\n  mov r1, r0\n");
    const AsmResult ok = assemble_file(inc_err, "inc_err.vsh");
    REQUIRE(ok.instruction_files.size() == 3);
    CHECK_THAT(ok.instruction_files[1].file, Catch::EndsWith("shaders/lib/ops.h"));
    CHECK(ok.instruction_files[1].line == 2);
    CHECK(ok.instruction_columns[1] == 3);
    CHECK(ok.instruction_files[2].file == "inc_err.vsh");
    CHECK(ok.instruction_files[2].line == 3);
}

TEST_CASE("#error stops with its text at its line, and assembler warnings keep the original line", "[preproc]") {
    try {
        assemble("vs.1.1\n#if !defined(OK)\n#error OK is needed\n#endif\n", "e.vsh", AsmOptions{});
        FAIL("no error");
    } catch (const AsmError& e) {
        CHECK(e.file == "e.vsh");
        CHECK(e.line == 3);
        CHECK_THAT(e.message, Catch::Contains("OK is needed"));
    }
    const AsmResult r = assemble("#define S r0\n\n\nvs.1.1\nmov S, v0\nrcp S.x, S\nmov oPos, v0\n", "w.vsh", AsmOptions{});
    REQUIRE(r.warnings.size() == 1);
    CHECK(r.warnings[0].file == "w.vsh");
    CHECK(r.warnings[0].line == 6);
    CHECK_THAT(r.warnings[0].message, Catch::Contains("rcp reads one component"));
}

TEST_CASE("The preprocessor can be switched off, and repeated runs do not leak definitions", "[preproc]") {
    AsmOptions off;
    off.preprocess.enabled = false;
    CHECK_THROWS_WITH(assemble("#define X r0\nvs.1.1\n", "o.vsh", off), Catch::Contains("expected an instruction, found '#'"));
    AsmOptions d;
    d.preprocess.defines = {"REG=r5"};
    CHECK(assemble("vs.1.1\nmov REG, v0\n", "a.vsh", d).program.code[0].dst.num == 5);
    // The next run has no REG.
    CHECK_THROWS_AS(assemble("#if 1\n#endif\nvs.1.1\nmov REG, v0\n", "b.vsh", AsmOptions{}), AsmError);
}

TEST_CASE("load_shader (check, exec and scene files) preprocesses, #include relative to the shader file", "[preproc]") {
    const Dir d;
    d.write("s/defs.h", "#define WVP c0\n");
    const std::string path = d.write("s/t.vsh", "#include \"defs.h\"\nvs.1.1\nm4x4 oPos, v0, WVP\n");
    const LoadedShader s = load_shader(path);
    CHECK(s.bytecode == std::vector<uint32_t>{0xFFFE0101u, 0x00000014u, 0xC00F0000u, 0x90E40000u, 0xA0E40000u, 0x0000FFFFu});
    const std::string bad = d.write("s/bad.vsh", "#include \"defs.h\"\nvs.1.1\nm4x4 oPos, v0, WVP\nmov oD0, r99\n");
    try {
        load_shader(bad);
        FAIL("no error");
    } catch (const AsmError& e) {
        CHECK(e.file == bad);
        CHECK(e.line == 4);
    }
}
