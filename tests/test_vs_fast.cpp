// The fast path (model/vs/vs_fast.h) against the reference interpreter, bit for bit: random valid
// programs on random inputs (specials included), directed cases, and the fused fetch against
// fetch_vertex on random vertex buffers of all 8 data types.
#include "model/vs/vs_fast.h"
#include "model/vs/vs_fast_driver.h"  // fused_transform: which vertices it takes

#include "model/decl/decl_tokens.h"
#include "model/vs/vs_asm.h"
#include "model/vs/vs_random.h"
#include "model/vs/vs_validate.h"
#include "tests/test_seed.h"
#include "tests/vs_test_util.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

using namespace vpsim::vs;
using namespace vpsim::vs::test;
namespace decl = vpsim::decl;

namespace {

uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
float from_bits(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// "oD0.y: 0x3f800000 vs 0x7fc00000" for the first differing output component, "" if none.
std::string first_difference(const VertexOutputs& a, const VertexOutputs& b) {
    const auto vec = [&](const char* name, const Vec4& x, const Vec4& y) -> std::string {
        for (int i = 0; i < 4; ++i)
            if (bits(x[size_t(i)]) != bits(y[size_t(i)]))
                return fmt::format("{}.{}: 0x{:08x} ({}) vs 0x{:08x} ({})", name, "xyzw"[i], bits(x[size_t(i)]),
                                   x[size_t(i)], bits(y[size_t(i)]), y[size_t(i)]);
        return "";
    };
    std::string d = vec("oPos", a.pos, b.pos);
    if (d.empty()) d = vec("oD0", a.d0, b.d0);
    if (d.empty()) d = vec("oD1", a.d1, b.d1);
    if (d.empty() && bits(a.fog) != bits(b.fog)) d = fmt::format("oFog: 0x{:08x} vs 0x{:08x}", bits(a.fog), bits(b.fog));
    if (d.empty() && bits(a.pts) != bits(b.pts)) d = fmt::format("oPts: 0x{:08x} vs 0x{:08x}", bits(a.pts), bits(b.pts));
    for (uint32_t t = 0; d.empty() && t < kNumTexcoords; ++t) d = vec(fmt::format("oT{}", t).c_str(), a.t[t], b.t[t]);
    return d;
}

std::string vec_text(const Vec4& v) {
    return fmt::format("(0x{:08x} 0x{:08x} 0x{:08x} 0x{:08x})", bits(v[0]), bits(v[1]), bits(v[2]), bits(v[3]));
}

// Test values: the generator's (ordinary, integral, large, tiny, and with specials denormals,
// infinities, NaN), plus the edges the semantics turn on: both zeros, ±1 (rcp/rsq exact cases),
// FLT_MAX, both infinities, NaNs of both signs with and without payload, a signalling NaN,
// denormals, the lit power clamp, the int32 saturation of a0, integers for a0 indexing.
float test_float(SplitMix64& rng) {
    if (!rng.chance(0.25)) return random_float(rng, true);
    static const uint32_t kEdges[] = {
        0x00000000u, 0x80000000u, 0x3F800000u, 0xBF800000u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F800000u,
        0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x7FC12345u, 0xFFA00001u, 0x7F800001u, 0x00000001u,
        0x80000001u, 0x007FFFFFu, 0x00800000u, 0x42FFFE01u, 0xC2FFFE01u, 0x43000000u, 0x4F000000u,
        0xCF000000u, 0x4EFFFFFFu, 0x3F000000u, 0x3F7FFFFFu, 0x3F800001u,
    };
    const uint32_t k = rng.below(uint32_t(std::size(kEdges)) + 4);
    if (k < std::size(kEdges)) return from_bits(kEdges[k]);
    return float(rng.range(-8, 100));  // a0 indices, in and out of range
}
Vec4 test_vec4(SplitMix64& rng) { return {test_float(rng), test_float(rng), test_float(rng), test_float(rng)}; }

Profile random_profile(SplitMix64& rng) {
    Profile p;
    if (rng.chance(0.5)) return p;  // d3d8 half the time
    p.a0 = rng.chance(0.5) ? Profile::A0Rounding::Floor : Profile::A0Rounding::Round;
    p.scalar_component = rng.chance(0.5) ? Profile::ScalarComponent::W : Profile::ScalarComponent::X;
    p.logp_replicate = rng.chance(0.5);
    p.exp_log_slots = rng.chance(0.5) ? 12 : 10;
    p.outputs = rng.chance(0.5) ? Profile::OutputDefaults::D3D8 : Profile::OutputDefaults::Zero;
    p.zero_recip = rng.chance(0.5) ? Profile::ZeroReciprocal::Inf : Profile::ZeroReciprocal::Max;
    p.const_count = rng.chance(0.5) ? 96 : 192;
    return p;
}

Constants random_constants(SplitMix64& rng, uint32_t count) {
    Constants c(count);
    for (Vec4& v : c) v = test_vec4(rng);
    return c;
}

// Runs `n` vertices through both and returns the description of the first mismatch ("" if none).
std::string compare(const Program& p, const Profile& prof, const Constants& k, const std::vector<Vec4>& in, size_t n,
                    size_t* runs) {
    const FastShader fs = compile_fast(p, prof);
    std::vector<VertexOutputs> fast(n);
    run_fast(fs, k, in.data(), fast.data(), n);
    for (size_t i = 0; i < n; ++i) {
        std::array<Vec4, kNumInputs> v;
        std::copy(in.begin() + long(i * kNumInputs), in.begin() + long((i + 1) * kNumInputs), v.begin());
        const VertexOutputs ref = execute_reference(p, prof, v, k);
        ++*runs;
        if (!same_bits(ref, fast[i])) {
            std::ostringstream os;
            os << "vertex " << i << " of " << n << ": reference vs fast: " << first_difference(ref, fast[i]) << "\n"
               << disassemble(p) << "inputs:\n";
            for (uint32_t r = 0; r < kNumInputs; ++r) os << "  v" << r << " " << vec_text(v[r]) << "\n";
            os << describe(fs);
            return os.str();
        }
    }
    return "";
}

// The instruction sets the kernels can run with on this machine (baseline always).
std::vector<FastIsa> isas() {
    std::vector<FastIsa> v{FastIsa::Baseline};
    const FastIsa saved = fast_isa();
    if (set_fast_isa(FastIsa::Avx2)) v.push_back(FastIsa::Avx2);
    set_fast_isa(saved);
    return v;
}

// Sets the kernels' instruction set for one scope.
struct IsaScope {
    FastIsa saved = fast_isa();
    explicit IsaScope(FastIsa isa) { REQUIRE(set_fast_isa(isa)); }
    ~IsaScope() { set_fast_isa(saved); }
};

}  // namespace

TEST_CASE("The fast path is bit-identical to the interpreter on 100000+ random programs and inputs") {
    const uint64_t seed = test_seed("fast vs reference");
    for (const FastIsa isa : isas()) {
        IsaScope scope(isa);
        SplitMix64 rng(seed);
        size_t runs = 0, programs = 0;
        while (runs < 120000) {
            const Profile prof = random_profile(rng);
            RandomProgramOptions opt;
            opt.profile = prof;
            opt.max_length = rng.chance(0.2) ? 80 : 32;
            opt.negate_rate = rng.chance(0.5) ? 0.2 : 0.5;
            opt.relative_rate = rng.chance(0.5) ? 0.3 : 0.8;
            const Program p = random_program(rng, opt);
            const Validation val = validate(p, prof);
            INFO("seed " << seed << ", kernels " << fast_isa_name(isa) << ", program " << programs);
            REQUIRE(val.valid);
            const Constants k = random_constants(rng, prof.const_count);
            // 1..300 vertices: partial batches, one batch, several.
            const size_t n = rng.chance(0.3) ? 1 + rng.below(8) : 1 + rng.below(300);
            std::vector<Vec4> in(n * kNumInputs);
            for (Vec4& v : in) v = test_vec4(rng);
            const std::string diff = compare(p, prof, k, in, n, &runs);
            INFO(diff);
            REQUIRE(diff.empty());
            ++programs;
        }
        std::cout << "fast vs reference (" << fast_isa_name(isa) << " kernels): " << runs << " vertex runs of "
                  << programs << " programs, all bit-identical\n";
        CHECK(runs >= 100000);
    }
}

TEST_CASE("m4x4 oPos, v0, c0 (the benchmark shader) matches the interpreter, also with a short constant vector") {
    const Program p = program({ins(OP_M4x4, dst(REG_RASTOUT, RAST_POS), {src(REG_INPUT, 0), src(REG_CONST, 0)})});
    const FastShader fs = compile_fast(p, Profile::d3d8());
    CHECK(fs.input_reads == 1u);
    CHECK(fs.outputs_written == 1u << FOUT_POS);
    CHECK(fs.packed_stride == 4);
    CHECK(fs.ops.size() == 1);  // one MATVEC4 of the four rows, nothing else
    CHECK(fs.ops[0].code == FastShader::MATVEC4);
    CHECK(fs.ops[0].comp == 4);
    SplitMix64 rng(7);
    for (size_t count : {size_t(96), size_t(2)}) {  // c2, c3 missing from the vector read as 0
        const Constants k = random_constants(rng, uint32_t(count));
        std::vector<Vec4> in(1000 * kNumInputs);
        for (Vec4& v : in) v = test_vec4(rng);
        size_t runs = 0;
        CHECK(compare(p, Profile::d3d8(), k, in, 1000, &runs) == "");
    }
}

namespace {

// A random source operand for a matrix transform: an input or a temp written before, negated half
// the time, and with a random swizzle half the time where allowed (dp3/dp4: the m-instructions
// take none).
std::string random_matrix_source(SplitMix64& rng, int temps_written, bool swizzle) {
    std::string s = rng.chance(0.5) ? "-" : "";
    if (temps_written > 0 && rng.chance(0.4)) s += fmt::format("r{}", rng.below(uint32_t(temps_written)));
    else s += fmt::format("v{}", rng.below(4));
    if (swizzle && rng.chance(0.5)) {
        s += ".";
        for (int i = 0; i < 4; ++i) s += "xyzw"[rng.below(4)];
    }
    return s;
}

// A random program of matrix transforms: m4x4/m4x3/m3x4/m3x3/m3x2 and written-out dp3/dp4
// groups on one source, with constant matrices (fused into MATVEC) and relative ones (not fused),
// into outputs and temps that later instructions transform again. `fusible` counts the
// transforms with constant rows.
std::string random_matrix_program(SplitMix64& rng, int& fusible) {
    static const char* const kDst[] = {"oPos", "oT0", "oT1", "oT2", "oT3", "oD0", "oD1"};
    // oPos written whole and the temps initialised (the validator's rules); transforms overwrite.
    std::string t = "vs.1.1\nmov a0.x, v3.x\nmov oPos, v0\nmov r0, v1\nmov r1, v2\nmov r2, -v3\nmov r3, v0.wzyx\n";
    int temps = 0;
    const int count = 1 + int(rng.below(6));
    for (int i = 0; i < count; ++i) {
        const bool to_temp = temps < 4 && rng.chance(0.4);
        const std::string dst = to_temp ? fmt::format("r{}", temps) : kDst[rng.below(7)];
        const uint32_t form = rng.below(6);
        const std::string src = random_matrix_source(rng, temps, form == 5);
        const bool relative = rng.chance(0.25);
        const uint32_t base = rng.below(88);
        const std::string rows = relative ? fmt::format("c[a0.x + {}]", base) : fmt::format("c{}", base);
        fusible += relative ? 0 : 1;
        switch (form) {
            case 0: t += fmt::format("m4x4 {}, {}, {}\n", dst, src, rows); break;
            case 1: t += fmt::format("m4x3 {}.xyz, {}, {}\n", dst, src, rows); break;
            case 2: t += fmt::format("m3x4 {}, {}, {}\n", dst, src, rows); break;
            case 3: t += fmt::format("m3x3 {}.xyz, {}, {}\n", dst, src, rows); break;
            case 4: t += fmt::format("m3x2 {}.xy, {}, {}\n", dst, src, rows); break;
            default: {  // dp3 or dp4 per row, other work in between
                const char* op = rng.chance(0.5) ? "dp4" : "dp3";
                for (uint32_t k = 0; k < 4; ++k) {
                    const std::string row = relative ? fmt::format("c[a0.x + {}]", base + k) : fmt::format("c{}", base + k);
                    t += fmt::format("{} {}.{}, {}, {}\n", op, dst, "xyzw"[k], src, row);
                    if (k == 1) t += fmt::format("add r7, v{}, c{}\nmov oT7, r7\n", rng.below(4), rng.below(96));
                }
                break;
            }
        }
        if (to_temp) ++temps;
    }
    return t;
}

}  // namespace

TEST_CASE("Matrix transforms with constant rows fuse into MATVEC micro-ops, bit-identical to the interpreter") {
    const uint64_t seed = test_seed("fast matvec vs reference");
    for (const FastIsa isa : isas()) {
        IsaScope scope(isa);
        SplitMix64 rng(seed);
        size_t runs = 0, matvecs = 0, fusible_total = 0;
        for (int prog = 0; prog < 300; ++prog) {
            int fusible = 0;
            const std::string text = random_matrix_program(rng, fusible);
            INFO("seed " << seed << ", kernels " << fast_isa_name(isa) << ", program " << prog << ":\n" << text);
            const AsmResult a = assemble(text);
            const Profile prof = random_profile(rng);
            const Validation val = validate(a.program, prof);
            INFO((val.diagnostics.empty() ? std::string() : val.diagnostics[0].message));
            REQUIRE(val.valid);
            const FastShader fs = compile_fast(a.program, prof);
            size_t mv = 0;
            for (const FastShader::MicroOp& m : fs.ops)
                mv += m.code == FastShader::MATVEC3 || m.code == FastShader::MATVEC4;
            matvecs += mv;
            fusible_total += size_t(fusible);
            const Constants k = random_constants(rng, prof.const_count);
            const size_t n = 1 + rng.below(300);
            std::vector<Vec4> in(n * kNumInputs);
            for (Vec4& v : in) v = test_vec4(rng);
            const std::string diff = compare(a.program, prof, k, in, n, &runs);
            INFO(diff);
            REQUIRE(diff.empty());
        }
        std::cout << "fast matvec vs reference (" << fast_isa_name(isa) << " kernels): " << runs << " vertex runs, "
                  << matvecs << " MATVEC micro-ops for " << fusible_total << " constant-row transforms, all bit-identical\n";
        // Every transform with constant rows of a live result is fused (some results are dead:
        // overwritten outputs and unread temps), so the count is close to the transforms'.
        CHECK(matvecs * 2 > fusible_total);
    }
}

TEST_CASE("Dot products fuse only when they share the source and their rows are constants") {
    // Same source, constant rows: one MATVEC of 3 rows (the 4th row's dp4 reads another source).
    const AsmResult a = assemble("vs.1.1\nmov a0.x, v2.x\ndp4 oPos.x, v0, c0\ndp4 oPos.y, v0, c1\n"
                                 "dp4 oPos.z, v0, c2\ndp4 oPos.w, v1, c3\ndp4 oT0.x, v0, c[a0.x + 4]\n");
    const FastShader fs = compile_fast(a.program);
    INFO(describe(fs));
    size_t mv = 0, dp = 0;
    for (const FastShader::MicroOp& m : fs.ops) {
        if (m.code == FastShader::MATVEC4) {
            ++mv;
            CHECK(m.comp == 3);
        }
        dp += m.code == FastShader::DP4;
    }
    CHECK(mv == 1);
    CHECK(dp == 2);  // v1 . c3, and the relative row (a gather, not a uniform)
}

TEST_CASE("Directed programs: swizzle hazards, renaming, relative reads, scalar forms, outputs") {
    const char* const sources[] = {
        // in-place swizzles (a destination component read after it is written in the same op)
        "vs.1.1\nmov r0, v0\nmov r0.xy, r0.yx\nadd r0.yzw, r0.wxyz, -r0\nmul r0, r0.zwxy, r0\nmov oPos, r0\n",
        // renaming chains with negation, mixed-kind sources of a dot product
        "vs.1.1\nmov r0.xy, -v0\nmov r0.zw, c3\nmov r1, -r0\ndp4 r2, r1, -c1\ndp3 r3.yw, -r0, r1\n"
        "mov oPos, r2\nmov oT0.yw, r3\nmov oT1, -r1\n",
        // relative reads, in and out of range, negated, in an m-instruction
        "vs.1.1\nmov a0.x, v1.x\nmov r0, c[a0.x + 2]\nm4x4 oPos, v0, c[a0.x + 90]\nmov oT0, -c[a0.x + 0]\n"
        "mov a0.x, v1.y\nm3x2 oT1.xy, -v0, -c[a0.x + 5]\nadd oD0, r0, c[a0.x + 1]\n",
        // scalar ops without replicate swizzles, expp/logp, lit, dst, frc with partial masks
        "vs.1.1\nrcp r0, v0\nrsq r1.y, v0.zyxw\nexp r2.xz, -v0\nlog r3, v0.yzwx\nexpp r4.yz, v1\nlogp r5, -v1.x\n"
        "lit r6.yz, v2\nmov r9, v1\ndst r7, v0, r9\nfrc r8.xy, v2\nmov oPos, r0\nmad oT0.xz, r1.y, r2, r3\nmov oT1.yz, r4\n"
        "mov oT2, r5\nmov oT3.yz, r6\nmov oT4, r7\nmov oT5.xy, r8\n",
        // saturation of oD0/oD1/oFog, oPts unclamped, partially written outputs keep defaults
        "vs.1.1\nmov oPos, v0\nmov oD0.xz, v1\nmov oD1.w, -v1\nmov oFog.x, v2.y\nmov oPts.x, v2.z\nmul oT7.zw, v0, c1\n",
        // min/max/slt/sge with the same register on both sides, dead code
        "vs.1.1\nmin r0, v0, -v0\nmax r1, v0.yxwz, v0\nmov r5, v1\nslt r2, v0, r5\nsge r3, r5, v0\nmov r4, v3\n"
        "mov r4, v2\nadd oPos, r0, r1\nmad oT0, r2, r3, r4\nmov oT0.y, v1\n",
        // vs.1.0 and a program that writes oPos twice
        "vs.1.0\nmov oPos, v0\nm3x4 oPos, v1, c10\nm3x3 oT0.xyz, v1, c10\nm4x3 oT1.xyz, v1, c10\n",
    };
    SplitMix64 rng(11);
    for (const char* text : sources) {
        const AsmResult a = assemble(text);
        for (int variant = 0; variant < 8; ++variant) {
            const Profile prof = variant == 0 ? Profile::d3d8() : random_profile(rng);
            const Validation val = validate(a.program, prof);
            std::string errors;
            for (const auto& dg : val.diagnostics)
                if (dg.severity == Severity::Error) errors += to_string(dg) + "\n";
            INFO(text << errors);
            REQUIRE(val.valid);
            const Constants k = random_constants(rng, prof.const_count);
            std::vector<Vec4> in(300 * kNumInputs);
            for (Vec4& v : in) v = test_vec4(rng);
            for (size_t i = 0; i < 300; ++i)  // a0 sources: exact indices most of the time
                if (rng.chance(0.7)) in[i * kNumInputs + 1] = {float(rng.range(-10, 100)), float(rng.range(-3, 95)),
                                                                0.0f, 0.0f};
            size_t runs = 0;
            CHECK(compare(a.program, prof, k, in, 300, &runs) == "");
        }
    }
}

TEST_CASE("lit.z with a constant power (its own kernel) matches the interpreter at every edge of x, y and the power") {
    // r0.w from a constant: the fast path clamps the power once and calls pow only where x > 0
    // and y > 0 (vs_fast_kernels.cpp, KLitZ); every (x, y) edge against every power edge.
    const Program p = assemble("vs.1.1\nmov r0.xy, v0\nmov r0.w, c6.w\nlit r1, r0\nmov oPos, r1\n").program;
    const float inf = std::numeric_limits<float>::infinity(), qnan = std::numeric_limits<float>::quiet_NaN();
    const float xy[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, FLT_MIN, 1e-45f, FLT_MAX, inf, -inf, qnan, -qnan};
    const float powers[] = {0.0f,  -0.0f, 1.0f,   -1.0f,  16.0f, 127.9961f, 128.0f, -128.0f, 1e30f,
                            -1e30f, 0.5f, -0.5f, inf,    -inf,  qnan,      FLT_MIN, 3.0f,    -3.0f};
    std::vector<Vec4> in;
    for (float x : xy)
        for (float y : xy) {
            std::array<Vec4, kNumInputs> v{};
            v[0] = {x, y, 0.0f, 0.0f};
            in.insert(in.end(), v.begin(), v.end());
        }
    const size_t n = in.size() / kNumInputs;
    for (const FastIsa isa : isas()) {
        IsaScope scope(isa);
        for (float power : powers) {
            Constants k(96);
            k[6] = {0.0f, 0.0f, 0.0f, power};
            size_t runs = 0;
            INFO("power " << power << " isa " << fast_isa_name(isa));
            CHECK(compare(p, Profile::d3d8(), k, in, n, &runs) == "");
        }
    }
}

TEST_CASE("Dead code is not computed, mov costs nothing, and a dot product is computed once") {
    const AsmResult a = assemble(
        "vs.1.1\nmov r0, v0\nmul r5, v3, c4\ndp3 r1, r0, c1\nmov r2, r1\nadd r3, r2, r1\nmov oPos, r3\n");
    const FastShader fs = compile_fast(a.program);
    // dp3 once, add per component (4): the mul into r5 and the movs are gone.
    CHECK(fs.ops.size() == 5);
    CHECK(fs.input_reads == 1u);  // v3 is only read by dead code
    INFO(describe(fs));
    CHECK(describe(fs).find("mul") == std::string::npos);
}

TEST_CASE("compile_fast rejects what the interpreter rejects (unvalidated programs)") {
    Program p;
    p.code = {ins(OP_MOV, dst(REG_TEMP, 12), {src(REG_INPUT, 0)})};
    CHECK_THROWS_AS(compile_fast(p), std::invalid_argument);
    CHECK_THROWS_AS(execute_reference(p, Profile::d3d8(), {}, Constants(96)), std::invalid_argument);
    p.code = {ins(OP_ADD, dst(REG_TEMP, 0), {src(REG_RASTOUT, 0), src(REG_INPUT, 0)})};
    CHECK_THROWS_AS(compile_fast(p), std::invalid_argument);
    p.code = {ins(OP_MOV, dst(REG_TEMP, 0), {src(REG_INPUT, 0, kSwizzleIdentity, false, true)})};
    CHECK_THROWS_AS(compile_fast(p), std::invalid_argument);
}

TEST_CASE("Temps and a0 read before they are written behave as the interpreter (0), also unvalidated") {
    Program p;
    p.code = {ins(OP_ADD, dst(REG_RASTOUT, RAST_POS), {src(REG_TEMP, 3), src(REG_CONST, 0, kSwizzleIdentity, false, true)}),
              ins(OP_MOV, dst(REG_TEXCRDOUT, 0), {src(REG_TEMP, 5, 0x1B, true)})};
    SplitMix64 rng(3);
    const Constants k = random_constants(rng, 96);
    std::vector<Vec4> in(5 * kNumInputs);
    size_t runs = 0;
    CHECK(compare(p, Profile::d3d8(), k, in, 5, &runs) == "");
}

// ---- The fused fetch ----

namespace {

struct RandomStreams {
    std::vector<uint32_t> tokens;
    std::vector<std::vector<uint8_t>> buffers;
    Streams streams{};
    std::vector<uint32_t> loaded;  // input registers loaded from memory, in declaration order
};

// A random valid declaration over 1..3 streams with elements of every type (and SKIPs), buffers
// of `vertices` vertices (stride >= the declared size) filled with random bytes and values.
RandomStreams random_streams(SplitMix64& rng, uint32_t vertices) {
    RandomStreams r;
    std::vector<uint32_t> regs;
    for (uint32_t i = 0; i < kNumInputs; ++i) regs.push_back(i);
    for (uint32_t i = 0; i + 1 < regs.size(); ++i) std::swap(regs[i], regs[i + rng.below(uint32_t(regs.size() - i))]);
    const uint32_t nreg = 1 + rng.below(10);
    const uint32_t nstreams = 1 + rng.below(3);
    std::vector<uint32_t> stream_ids = {0, 3, 7, 15};
    size_t next = 0;
    r.buffers.resize(nstreams);
    for (uint32_t s = 0; s < nstreams; ++s) {
        const uint32_t id = stream_ids[s + rng.below(2)];
        if (r.streams[id].bound) continue;
        r.tokens.push_back(decl::D3DVSD_STREAM(id));
        uint32_t size = 0;
        const uint32_t here = s + 1 == nstreams ? nreg - uint32_t(std::min<size_t>(next, nreg)) : 1 + rng.below(4);
        for (uint32_t e = 0; e < here && next < nreg; ++e, ++next) {
            if (rng.chance(0.2)) {
                const uint32_t dw = 1 + rng.below(3);
                r.tokens.push_back(decl::D3DVSD_SKIP(dw));
                size += 4 * dw;
            }
            const uint32_t type = rng.below(decl::kNumDataTypes);
            r.tokens.push_back(decl::D3DVSD_REG(regs[next], type));
            r.loaded.push_back(regs[next]);
            size += decl::data_type_size(type);
        }
        if (size == 0) {
            r.tokens.push_back(decl::D3DVSD_SKIP(1));
            size = 4;
        }
        const uint32_t stride = size + 4 * rng.below(3);
        auto& buf = r.buffers[s];
        buf.resize(size_t(stride) * vertices + rng.below(3));  // the last vertex may end before the stride
        for (size_t i = 0; i < buf.size(); ++i) buf[i] = uint8_t(rng.next());
        for (size_t i = 0; i + 4 <= buf.size(); i += 4)  // many floats are special or ordinary values
            if (rng.chance(0.5)) {
                const float f = test_float(rng);
                std::memcpy(&buf[i], &f, 4);
            }
        r.streams[id] = StreamBinding{buf.data(), buf.size(), stride, true};
    }
    r.tokens.push_back(decl::D3DVSD_END());
    return r;
}

// A program that moves every loaded register to an output untouched (the conversion shows bit for
// bit) and also computes with them.
Program fetch_program(const std::vector<uint32_t>& loaded) {
    std::vector<Instruction> code;
    code.push_back(ins(OP_MUL, dst(REG_RASTOUT, RAST_POS), {src(REG_INPUT, loaded[0]), src(REG_CONST, 0)}));
    for (size_t i = 0; i < loaded.size(); ++i) {
        if (i < kNumTexcoords) code.push_back(ins(OP_MOV, dst(REG_TEXCRDOUT, uint32_t(i)), {src(REG_INPUT, loaded[i])}));
        else code.push_back(ins(OP_ADD, dst(REG_ATTROUT, uint32_t(i % 2)), {src(REG_INPUT, loaded[i]), src(REG_CONST, 1)}));
    }
    Program p;
    p.code = code;
    return decode_bytecode(encode_program(p));
}

}  // namespace

TEST_CASE("The fused fetch equals fetch_vertex + execute_reference on random buffers of all 8 types") {
    const uint64_t seed = test_seed("fast fetch vs fetch_vertex");
    SplitMix64 rng(seed);
    std::array<int, decl::kNumDataTypes> types_seen{};
    size_t runs = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const uint32_t vertices = 1 + rng.below(400);
        const RandomStreams rs = random_streams(rng, vertices);
        const decl::Declaration d = decl::decode(rs.tokens);
        REQUIRE(d.valid);
        for (const auto& e : d.events)
            if (e.kind == decl::EventKind::Element) ++types_seen[e.code];
        // Half the programs read the loaded registers untouched, half are random programs reading them.
        Program p;
        if (rng.chance(0.5)) {
            p = fetch_program(rs.loaded);
        } else {
            RandomProgramOptions opt;
            p = random_program(rng, opt);
            uint32_t reads = validate(p).info.input_reads;
            bool ok = true;
            for (uint32_t r = 0; r < kNumInputs; ++r)
                if ((reads >> r & 1u) && !d.loads(r)) ok = false;
            if (!ok) p = fetch_program(rs.loaded);
        }
        REQUIRE(validate(p).valid);
        const FastShader fs = compile_fast(p);
        const Constants k = random_constants(rng, 96);
        const uint32_t first = rng.below(vertices);
        const uint32_t count = vertices - first;
        std::vector<VertexOutputs> fast(count);
        std::vector<float> packed(size_t(count) * fs.packed_stride);
        {
            const auto all = isas();
            IsaScope scope(all[size_t(trial) % all.size()]);  // alternate the kernels
            run_fast_fetch(fs, d, rs.streams, k, first, count, fast.data());
            run_fast_fetch_packed(fs, d, rs.streams, k, first, count, packed.data());
        }
        for (uint32_t i = 0; i < count; ++i) {
            const VertexOutputs ref = execute_reference(p, Profile::d3d8(), fetch_vertex(d, rs.streams, first + i), k);
            ++runs;
            INFO("seed " << seed << " trial " << trial << " vertex " << first + i << "\n" << disassemble(p));
            REQUIRE(first_difference(ref, fast[i]) == "");
            std::vector<float> rec(fs.packed_stride);
            pack_outputs(fs, ref, rec.data());
            REQUIRE(std::memcmp(rec.data(), &packed[size_t(i) * fs.packed_stride], rec.size() * 4) == 0);
        }
    }
    for (uint32_t t = 0; t < decl::kNumDataTypes; ++t) {
        INFO("type " << decl::data_type_name(t));
        CHECK(types_seen[t] > 0);
    }
    std::cout << "fast fetch vs fetch_vertex: " << runs << " vertices, all bit-identical\n";
}

// ---- The register-resident transform (fused_transform) ----

TEST_CASE("A program that is one transform of one FLOAT input goes through registers, bit-identical") {
    const uint64_t seed = test_seed("fast fused transform vs reference");
    SplitMix64 rng(seed);
    // Programs that qualify (one MATVEC of 4 rows of an input, its results the only output) and
    // two that do not (a second output; a 3-row transform).
    const char* const programs[] = {
        "vs.1.1\nm4x4 oPos, v0, c0\n", "vs.1.1\nm3x4 oPos, v0, c2\n", "vs.1.1\nm4x4 oT0, -v0, c3\n",
        "vs.1.1\ndp4 oPos.x, v0, c0\ndp4 oPos.y, v0, c1\ndp4 oPos.z, v0, c2\ndp4 oPos.w, v0, c3\n",
        "vs.1.1\nm4x4 oPos, v0, c0\nmov oT0, v0\n", "vs.1.1\nm4x3 oPos.xyz, v0, c0\n"};
    const uint32_t types[] = {decl::D3DVSDT_FLOAT2, decl::D3DVSDT_FLOAT3, decl::D3DVSDT_FLOAT4};
    size_t runs = 0, fused = 0;
    for (int trial = 0; trial < 240; ++trial) {
        const size_t pi = size_t(trial) % 6;
        const Program p = assemble(programs[pi], "<fused>").program;
        const FastShader fs = compile_fast(p);
        const uint32_t type = types[rng.below(3)];
        const uint32_t skip = rng.below(2);  // dwords before the element
        std::vector<uint32_t> tokens = {decl::D3DVSD_STREAM(0)};
        if (skip) tokens.push_back(decl::D3DVSD_SKIP(skip));
        tokens.push_back(decl::D3DVSD_REG(0, type));
        tokens.push_back(decl::D3DVSD_END());
        const decl::Declaration d = decl::decode(tokens);
        REQUIRE(d.valid);
        const uint32_t size = 4 * skip + decl::data_type_size(type);
        const uint32_t stride = size + 4 * rng.below(3);
        const uint32_t vertices = 1 + rng.below(300);
        // The buffer ends 0..2 bytes after the last element (16-byte loads would run past it
        // near the end), or (1 in 5) in the middle of a vertex: a FetchError after the others.
        const bool cut = rng.chance(0.2) && vertices > 1;
        const uint32_t fetchable = cut ? rng.below(vertices) : vertices;
        std::vector<uint8_t> buf(size_t(stride) * (vertices - 1) + size + rng.below(3));
        if (cut) buf.resize(size_t(stride) * fetchable + size - 1);
        for (size_t i = 0; i < buf.size(); ++i) buf[i] = uint8_t(rng.next());
        for (size_t i = 0; i + 4 <= buf.size(); i += 4)
            if (rng.chance(0.7)) {
                const float f = test_float(rng);
                std::memcpy(&buf[i], &f, 4);
            }
        Streams s{};
        s[0] = StreamBinding{buf.data(), buf.size(), stride, true};
        const Constants k = random_constants(rng, 96);
        const uint32_t first = rng.below(vertices);
        const uint32_t count = vertices - first;
        const auto all = isas();
        IsaScope scope(all[size_t(trial / 6) % all.size()]);
        INFO("seed " << seed << " trial " << trial << " program " << programs[pi] << "type " << type << " stride "
                     << stride << " buffer " << buf.size() << " first " << first << " count " << count);
        // Which vertices the fused loop takes: those that can be fetched with 16 bytes readable
        // from the element's start, rounded down to a multiple of 4; none for the last two programs.
        const uint64_t off = 4 * skip;
        const uint64_t wide = off + 16 <= buf.size() ? (buf.size() - off - 16) / stride + 1 : 0;
        const uint64_t end = std::min<uint64_t>({wide, fetchable, vertices});
        const size_t expected = pi < 4 && end > first ? size_t(end - first) & ~size_t(3) : 0;
        std::vector<float> direct(size_t(count) * 4);
        CHECK(vpsim::vs::fast::fused_transform(fs, d, s, k, first, count, direct.data()) == expected);
        fused += expected;
        std::vector<float> packed(size_t(count) * fs.packed_stride);
        uint32_t shaded = count;
        if (first + count > fetchable) {
            CHECK_THROWS_AS(run_fast_fetch_packed(fs, d, s, k, first, count, packed.data()), FetchError);
            shaded = fetchable > first ? fetchable - first : 0;
        } else {
            run_fast_fetch_packed(fs, d, s, k, first, count, packed.data());
        }
        for (uint32_t i = 0; i < shaded; ++i) {
            const VertexOutputs ref = execute_reference(p, Profile::d3d8(), fetch_vertex(d, s, first + i), k);
            std::vector<float> rec(fs.packed_stride);
            pack_outputs(fs, ref, rec.data());
            ++runs;
            INFO("vertex " << first + i);
            REQUIRE(std::memcmp(rec.data(), &packed[size_t(i) * fs.packed_stride], rec.size() * 4) == 0);
            if (i < expected) REQUIRE(std::memcmp(rec.data(), &direct[size_t(i) * 4], 16) == 0);
        }
    }
    CHECK(fused > 5000);   // the fused loop ran on most of the vertices of the first four programs
    std::cout << "fast fused transform vs reference: " << runs << " vertices (" << fused
              << " through the fused loop), all bit-identical\n";
}

TEST_CASE("The fused fetch shades the vertices before one that cannot be fetched, then throws fetch_vertex's error") {
    std::vector<uint8_t> buf(10 * 16 + 8);  // 10 vertices of 16 bytes, then half of one
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = uint8_t(i * 7);
    Streams s{};
    s[1] = StreamBinding{buf.data(), buf.size(), 16, true};
    const decl::Declaration d = decl::decode({decl::D3DVSD_STREAM(1), decl::D3DVSD_REG(0, decl::D3DVSDT_SHORT4),
                                              decl::D3DVSD_REG(2, decl::D3DVSDT_FLOAT2), decl::D3DVSD_END()});
    REQUIRE(d.valid);
    const Program p = program({ins(OP_ADD, dst(REG_RASTOUT, RAST_POS), {src(REG_INPUT, 0), src(REG_INPUT, 2)})});
    const FastShader fs = compile_fast(p);
    const Constants k(96);
    std::vector<VertexOutputs> out(12);
    std::string expected;
    try {
        (void)fetch_vertex(d, s, 10);
    } catch (const FetchError& e) {
        expected = e.what();
    }
    REQUIRE(!expected.empty());
    try {
        run_fast_fetch(fs, d, s, k, 3, 9, out.data());
        FAIL("no FetchError");
    } catch (const FetchError& e) {
        CHECK(std::string(e.what()) == expected);
        CHECK(e.index == 10);
        CHECK(e.stream == 1);
    }
    for (uint32_t i = 0; i < 7; ++i)
        CHECK(same_bits(out[i], execute_reference(p, Profile::d3d8(), fetch_vertex(d, s, 3 + i), k)));
    // An unbound stream: nothing is shaded.
    s[1].bound = false;
    CHECK_THROWS_AS(run_fast_fetch(fs, d, s, k, 0, 5, out.data()), FetchError);
}

TEST_CASE("Registers loaded by the tessellator or not at all read (0,0,0,0), as fetch_vertex") {
    std::vector<uint8_t> buf(64 * 12);
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = uint8_t(i * 13 + 1);
    Streams s{};
    s[0] = StreamBinding{buf.data(), buf.size(), 12, true};
    const decl::Declaration d = decl::decode({decl::D3DVSD_STREAM(0), decl::D3DVSD_REG(0, decl::D3DVSDT_FLOAT3),
                                              decl::D3DVSD_STREAM_TESS(), decl::D3DVSD_TESSNORMAL(0, 4),
                                              decl::D3DVSD_END()});
    REQUIRE(d.valid);
    const Program p = program({ins(OP_MOV, dst(REG_RASTOUT, RAST_POS), {src(REG_INPUT, 0)}),
                               ins(OP_SUB, dst(REG_TEXCRDOUT, 0), {src(REG_INPUT, 4), src(REG_INPUT, 0)})});
    const FastShader fs = compile_fast(p);
    const Constants k(96);
    std::vector<VertexOutputs> out(64);
    run_fast_fetch(fs, d, s, k, 0, 64, out.data());
    for (uint32_t i = 0; i < 64; ++i)
        CHECK(first_difference(out[i], execute_reference(p, Profile::d3d8(), fetch_vertex(d, s, i), k)) == "");
}

TEST_CASE("Large packed outputs (non-temporal stores) and unaligned outputs equal the interpreter") {
    // (a) one 4-wide register per record; (b) three, as the lighting example; (c) with oFog (a record
    // of 4k+1 floats: never streamed).
    const char* const texts[] = {
        "vs.1.1\nm4x4 oPos, v0, c0\n",
        ("vs.1.1\nm4x4 oPos, v0, c0\ndp3 r0.x, v3, c4\ndp3 r0.y, v3, c5\nmov r0.w, c6.w\nlit r1, r0\nmov r2, c9\n"
         "mad oD0, r1.y, c7, r2\nmul oD1, r1.z, c8\n"),
        "vs.1.1\nm4x4 oPos, v0, c0\nmov oFog.x, v3.z\n",
    };
    const uint32_t n = 300000;  // records of >= 4 floats: >= 4.8 MB
    std::vector<uint8_t> vb(size_t(n) * 24);
    SplitMix64 rng(5);
    for (size_t i = 0; i < vb.size(); i += 4) {
        const float f = random_float(rng, true);
        std::memcpy(&vb[i], &f, 4);
    }
    Streams s{};
    s[0] = StreamBinding{vb.data(), vb.size(), 24, true};
    const decl::Declaration d = decl::decode({decl::D3DVSD_STREAM(0), decl::D3DVSD_REG(0, decl::D3DVSDT_FLOAT3),
                                              decl::D3DVSD_REG(3, decl::D3DVSDT_FLOAT3), decl::D3DVSD_END()});
    const Constants k = random_constants(rng, 96);
    for (const char* text : texts) {
        const Program p = assemble(text).program;
        const FastShader fs = compile_fast(p);
        for (size_t shift : {size_t(0), size_t(1)}) {  // 16-byte aligned, and not
            std::vector<float> buf(size_t(n) * fs.packed_stride + 4);
            float* out = buf.data();
            while (reinterpret_cast<uintptr_t>(out) % 16) ++out;
            out += shift;
            for (const FastIsa isa : isas()) {
                IsaScope scope(isa);
                run_fast_fetch_packed(fs, d, s, k, 0, n, out);
                std::vector<float> rec(fs.packed_stride);
                for (uint32_t i = 0; i < n; i += (i % 97 == 0 ? 1 : 13)) {  // a sample of the vertices
                    pack_outputs(fs, execute_reference(p, Profile::d3d8(), fetch_vertex(d, s, i), k), rec.data());
                    INFO(text << " vertex " << i << " shift " << shift << " " << fast_isa_name(isa));
                    REQUIRE(std::memcmp(rec.data(), out + size_t(i) * fs.packed_stride, rec.size() * 4) == 0);
                }
            }
        }
    }
}
