// vpsim bench exec (docs/fast-path.md): vertices per second of fetch + shading with the outputs
// written to memory, in one run and on one core, three ways: the reference interpreter
// (fetch_vertex + execute_reference per vertex), the fast path (run_fast_fetch_packed) and the
// same computation written directly in C++ below, on (a) `m4x4 oPos, v0, c0` and (b) the
// transform + lighting example. It checks that all three write the same bits.
#include "model/cli/commands.h"
#include "model/cli/run_common.h"
#include "model/decl/decl_tokens.h"
#include "model/vs/vs_asm.h"
#include "model/vs/vs_exec.h"
#include "model/vs/vs_fast.h"
#include "model/vs/vs_fetch.h"
#include "model/vs/vs_load.h"
#include "model/vs/vs_random.h"
#include "model/vs/vs_validate.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim::cli {

namespace {

using vs::Constants;

// ---------------------------------------------------------------- the direct C++ computation
//
// The same operations as the shaders, in the same order, each rounded to float (the project
// builds with -ffp-contract=off), NaN results canonical and oD0/oD1 saturated as in
// docs/vs-semantics.md, written to the same packed records as the fast path
// (FastShader::packed_offset). Fetch: FLOAT3 loads from the vertex buffer.

inline float canon(float f) {
    const float qnan = __builtin_bit_cast(float, 0x7FC00000u);
    return f != f ? qnan : f;
}
inline float saturate(float f) { return f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f; }
inline float load_f32(const uint8_t* p) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
}

// (a) m4x4 oPos, v0, c0 — v0 = (x, y, z, 1) from a FLOAT3. Record: oPos.
__attribute__((noinline)) void direct_m4x4(const uint8_t* vb, size_t stride, const Constants& c, size_t n,
                                           float* out) {
    float m[4][4];
    for (int r = 0; r < 4; ++r)
        for (int k = 0; k < 4; ++k) m[r][k] = c[size_t(r)][size_t(k)];
    for (size_t i = 0; i < n; ++i) {
        const uint8_t* p = vb + i * stride;
        const float x = load_f32(p), y = load_f32(p + 4), z = load_f32(p + 8), w = 1.0f;
        float* o = out + 4 * i;
        for (int r = 0; r < 4; ++r) {
            float s = x * m[r][0];  // dp4, left to right
            s = s + y * m[r][1];
            s = s + z * m[r][2];
            s = s + w * m[r][3];
            o[r] = canon(s);
        }
    }
}

// (b) transform_light.vsh — v0 position, v3 normal, both FLOAT3 in one stream at 0 and 12.
// Record: oPos, oD0, oD1.
__attribute__((noinline)) void direct_transform_light(const uint8_t* vb, size_t stride, const Constants& c, size_t n,
                                                      float* out) {
    float m[4][4];
    for (int r = 0; r < 4; ++r)
        for (int k = 0; k < 4; ++k) m[r][k] = c[size_t(r)][size_t(k)];
    const vs::Vec4 L = c[4], H = c[5], diffuse = c[7], specular = c[8], ambient = c[9];
    // lit's power (r0.w = c6.w), clamped as ops::lit does.
    float power = c[6][3];
    if (power < -127.9961f) power = -127.9961f;
    else if (power > 127.9961f) power = 127.9961f;
    for (size_t i = 0; i < n; ++i) {
        const uint8_t* p = vb + i * stride;
        const float x = load_f32(p), y = load_f32(p + 4), z = load_f32(p + 8), w = 1.0f;
        const float nx = load_f32(p + 12), ny = load_f32(p + 16), nz = load_f32(p + 20);
        float* o = out + 12 * i;
        for (int r = 0; r < 4; ++r) {  // m4x4 oPos, v0, c0
            float s = x * m[r][0];
            s = s + y * m[r][1];
            s = s + z * m[r][2];
            s = s + w * m[r][3];
            o[r] = canon(s);
        }
        float nl = nx * L[0];  // dp3 r0.x, v3, c4
        nl = canon((nl + ny * L[1]) + nz * L[2]);
        float nh = nx * H[0];  // dp3 r0.y, v3, c5
        nh = canon((nh + ny * H[1]) + nz * H[2]);
        // lit r1, r0
        float ly = 0.0f, lz = 0.0f;
        if (nl > 0.0f) {
            ly = nl;
            if (nh > 0.0f) lz = canon(static_cast<float>(std::pow(static_cast<double>(nh), static_cast<double>(power))));
        }
        for (int k = 0; k < 4; ++k) {
            const float product = ly * diffuse[size_t(k)];            // mad oD0, r1.y, c7, r2 (r2 = c9)
            o[4 + k] = saturate(canon(product + ambient[size_t(k)]));
            o[8 + k] = saturate(canon(lz * specular[size_t(k)]));     // mul oD1, r1.z, c8
        }
    }
}

// ---------------------------------------------------------------------------- the workloads

const char* const kM4x4Text = "vs.1.1\nm4x4 oPos, v0, c0\n";

// examples/shaders/transform_light.vsh as direct_transform_light implements it; the example file
// is used when it assembles to the same program.
const char* const kTransformLightText =
    "vs.1.1\n"
    "m4x4 oPos, v0, c0\n"
    "dp3 r0.x, v3, c4\n"
    "dp3 r0.y, v3, c5\n"
    "mov r0.w, c6.w\n"
    "lit r1, r0\n"
    "mov r2, c9\n"
    "mad oD0, r1.y, c7, r2\n"
    "mul oD1, r1.z, c8\n";

struct Workload {
    std::string label;   // "(a) m4x4"
    std::string shader;  // where the program comes from
    vs::Program program;
    decl::Declaration decl;
    std::vector<uint8_t> vb;
    uint32_t stride = 0;
    vs::Streams streams{};
    Constants constants;
    void (*direct)(const uint8_t*, size_t, const Constants&, size_t, float*) = nullptr;
};

std::array<float, 3> unit(std::array<float, 3> v) {
    const float l = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    return {v[0] / l, v[1] / l, v[2] / l};
}

// World * view * projection of a camera 5 units away with a 60 degree field of view, transposed
// (one row per constant, as m4x4 wants it).
void set_transform(Constants& c) {
    c[0] = {1.2990381f, 0.0f, 0.0f, 0.0f};
    c[1] = {0.0f, 1.7320508f, 0.0f, 0.0f};
    c[2] = {0.0f, 0.0f, 1.001001f, 4.004004f};
    c[3] = {0.0f, 0.0f, 1.0f, 5.0f};
}

Workload make_m4x4(uint32_t n) {
    Workload w;
    w.label = "(a) m4x4 oPos, v0, c0";
    w.shader = "built in: vs.1.1 / m4x4 oPos, v0, c0";
    w.program = vs::assemble(kM4x4Text, "<bench a>").program;
    w.decl = decl::decode({decl::D3DVSD_STREAM(0), decl::D3DVSD_REG(0, decl::D3DVSDT_FLOAT3), decl::D3DVSD_END()});
    w.stride = 12;
    w.vb.resize(size_t(n) * w.stride);
    vs::SplitMix64 rng(1);
    for (size_t i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) {
            const float f = rng.unit() * 2.0f - 1.0f;
            std::memcpy(&w.vb[i * w.stride + 4 * size_t(k)], &f, 4);
        }
    w.constants.assign(96, vs::Vec4{});
    set_transform(w.constants);
    w.direct = direct_m4x4;
    return w;
}

Workload make_transform_light(uint32_t n, std::string& note) {
    Workload w;
    w.label = "(b) transform + light";
    const vs::Program builtin = vs::assemble(kTransformLightText, "<bench b>").program;
    const std::string path = data_path("examples/shaders/transform_light.vsh");
    w.program = builtin;
    w.shader = "built-in copy of examples/shaders/transform_light.vsh";
    if (std::filesystem::exists(path)) {
        try {
            const vs::Program file = vs::decode_bytecode(vs::load_shader(path).bytecode);
            if (vs::encode_program(file) == vs::encode_program(builtin)) {
                w.program = file;
                w.shader = path;
            } else {
                note = path + " differs from the program the direct C++ implements: the built-in copy is measured";
            }
        } catch (const std::exception& e) {
            note = path + ": " + e.what() + ": the built-in copy is measured";
        }
    } else {
        note = data_not_found("examples/shaders/transform_light.vsh") + ": the built-in copy is measured";
    }
    w.decl = decl::decode({decl::D3DVSD_STREAM(0), decl::D3DVSD_REG(0, decl::D3DVSDT_FLOAT3),
                           decl::D3DVSD_REG(3, decl::D3DVSDT_FLOAT3), decl::D3DVSD_END()});
    w.stride = 24;
    w.vb.resize(size_t(n) * w.stride);
    vs::SplitMix64 rng(2);
    for (size_t i = 0; i < n; ++i) {
        std::array<float, 6> v;
        for (int k = 0; k < 3; ++k) v[size_t(k)] = rng.unit() * 2.0f - 1.0f;
        const auto nrm = unit({rng.unit() - 0.5f, rng.unit() - 0.5f, rng.unit() - 0.5f + 1e-3f});
        std::copy(nrm.begin(), nrm.end(), v.begin() + 3);
        std::memcpy(&w.vb[i * w.stride], v.data(), 24);
    }
    w.constants.assign(96, vs::Vec4{});
    set_transform(w.constants);
    const auto L = unit({0.3f, 0.5f, 0.8f});
    const auto H = unit({L[0], L[1], L[2] + 1.0f});  // view direction +z
    w.constants[4] = {L[0], L[1], L[2], 0.0f};
    w.constants[5] = {H[0], H[1], H[2], 0.0f};
    w.constants[6] = {0.0f, 0.0f, 0.0f, 16.0f};
    w.constants[7] = {0.8f, 0.7f, 0.6f, 1.0f};
    w.constants[8] = {0.5f, 0.5f, 0.5f, 1.0f};
    w.constants[9] = {0.1f, 0.1f, 0.12f, 0.0f};
    w.direct = direct_transform_light;
    return w;
}

// ------------------------------------------------------------------------------- measurement

struct Measured {
    std::string label, shader;
    size_t instructions = 0, micro_ops = 0;
    uint32_t record_floats = 0;
    std::vector<double> interp_s, fast_s, direct_s;  // seconds per repetition
    double interp_vps = 0, fast_vps = 0, direct_vps = 0;
    std::string fast_mismatch, direct_mismatch;        // "" = identical to the interpreter
};

template <class F>
double seconds(F&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string first_mismatch(const std::vector<float>& ref, const std::vector<float>& got, uint32_t stride,
                           const vs::FastShader& fs) {
    for (size_t i = 0; i < ref.size(); ++i) {
        uint32_t a, b;
        std::memcpy(&a, &ref[i], 4);
        std::memcpy(&b, &got[i], 4);
        if (a == b) continue;
        const size_t v = i / stride, f = i % stride;
        std::string where = fmt::format("float {}", f);
        for (unsigned r = 0; r < vs::kNumFastOutRegs; ++r) {
            const int off = fs.packed_offset[r];
            if (off >= 0 && f >= size_t(off) && f < size_t(off) + vs::fast_out_width(r))
                where = fmt::format("{}.{}", vs::fast_out_name(r), "xyzw"[f - size_t(off)]);
        }
        return fmt::format("vertex {} {}: 0x{:08x} (interpreter) vs 0x{:08x}", v, where, a, b);
    }
    return "";
}

Measured measure(Workload& w, uint32_t n, int reps) {
    Measured m;
    m.label = w.label;
    m.shader = w.shader;
    m.instructions = w.program.code.size();
    const vs::Validation val = vs::validate(w.program);
    if (!val.valid) throw std::runtime_error(w.label + ": the shader does not validate");
    const vs::Profile profile = vs::Profile::d3d8();
    const vs::FastShader fs = vs::compile_fast(w.program, profile);
    m.micro_ops = fs.ops.size();
    m.record_floats = fs.packed_stride;
    w.streams[0] = vs::StreamBinding{w.vb.data(), w.vb.size(), w.stride, true};
    vs::check_streams(w.decl, w.streams);

    const size_t floats = size_t(n) * fs.packed_stride;
    std::vector<float> out_interp(floats), out_fast(floats), out_direct(floats);  // zeroed: pages touched
    for (int r = 0; r < reps; ++r) {
        m.interp_s.push_back(seconds([&] {
            float* o = out_interp.data();
            for (uint32_t i = 0; i < n; ++i, o += fs.packed_stride) {
                const vs::VertexOutputs v =
                    vs::execute_reference(w.program, profile, vs::fetch_vertex(w.decl, w.streams, i), w.constants);
                vs::pack_outputs(fs, v, o);
            }
        }));
        m.fast_s.push_back(seconds(
            [&] { vs::run_fast_fetch_packed(fs, w.decl, w.streams, w.constants, 0, n, out_fast.data()); }));
        m.direct_s.push_back(seconds([&] { w.direct(w.vb.data(), w.stride, w.constants, n, out_direct.data()); }));
    }
    m.interp_vps = n / median(m.interp_s);
    m.fast_vps = n / median(m.fast_s);
    m.direct_vps = n / median(m.direct_s);
    m.fast_mismatch = first_mismatch(out_interp, out_fast, fs.packed_stride, fs);
    m.direct_mismatch = first_mismatch(out_interp, out_direct, fs.packed_stride, fs);
    return m;
}

struct BenchExecArgs {
    uint32_t vertices = 1u << 20;
    int reps = 5;
    bool json = false;
    std::string isa = "auto";
};

constexpr double kGoalFastA = 200e6;  // vertices/s on (a)
constexpr double kGoalRatio = 3.0;    // fast path within 3x of direct C++

int run_bench_exec(const BenchExecArgs& a) {
    if (a.isa != "auto" && !vs::set_fast_isa(a.isa == "avx2" ? vs::FastIsa::Avx2 : vs::FastIsa::Baseline)) {
        std::fprintf(stderr, "vpsim bench exec: --isa %s: this CPU does not have it\n", a.isa.c_str());
        return 2;
    }
    const std::string kernels = vs::fast_isa_name(vs::fast_isa());
    std::vector<std::string> notes;
    std::vector<Measured> results;
    try {
        {
            Workload w = make_m4x4(a.vertices);
            results.push_back(measure(w, a.vertices, a.reps));
        }
        std::string note;
        Workload w = make_transform_light(a.vertices, note);
        if (!note.empty()) notes.push_back(note);
        results.push_back(measure(w, a.vertices, a.reps));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim bench exec: %s\n", e.what());
        return 2;
    }
    bool identical = true;
    for (const auto& m : results) identical = identical && m.fast_mismatch.empty() && m.direct_mismatch.empty();
    const bool goal_a = results[0].fast_vps >= kGoalFastA;
    const bool goal_ratio_a = results[0].direct_vps <= kGoalRatio * results[0].fast_vps;
    const bool goal_ratio_b = results[1].direct_vps <= kGoalRatio * results[1].fast_vps;

    if (a.json) {
        nlohmann::ordered_json j;
        j["vertices"] = a.vertices;
        j["repetitions"] = a.reps;
        j["statistic"] = "median";
        j["batch"] = vs::kFastBatch;
        j["fast_kernels"] = kernels;
        j["workloads"] = nlohmann::ordered_json::array();
        for (const auto& m : results) {
            j["workloads"].push_back({
                {"name", m.label},
                {"shader", m.shader},
                {"instructions", m.instructions},
                {"micro_ops", m.micro_ops},
                {"output_floats_per_vertex", m.record_floats},
                {"interpreter_vertices_per_second", m.interp_vps},
                {"fast_vertices_per_second", m.fast_vps},
                {"direct_vertices_per_second", m.direct_vps},
                {"fast_over_direct", m.fast_vps / m.direct_vps},
                {"fast_over_interpreter", m.fast_vps / m.interp_vps},
                {"fast_identical", m.fast_mismatch.empty()},
                {"direct_identical", m.direct_mismatch.empty()},
                {"fast_first_mismatch", m.fast_mismatch},
                {"direct_first_mismatch", m.direct_mismatch},
                {"seconds", {{"interpreter", m.interp_s}, {"fast", m.fast_s}, {"direct", m.direct_s}}},
            });
        }
        j["goals"] = {{"a_fast_at_least_200M", goal_a},
                      {"a_fast_within_3x_of_direct", goal_ratio_a},
                      {"b_fast_within_3x_of_direct", goal_ratio_b}};
        j["identical"] = identical;
        j["notes"] = notes;
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << fmt::format(
            "vpsim bench exec: {} vertices, median of {} repetitions, one core; fetch from a vertex buffer + "
            "shading, outputs written to memory\nfast path: batches of {} vertices, {} kernels\n\n",
            a.vertices, a.reps, vs::kFastBatch, kernels);
        std::cout << fmt::format("{:<24} {:>14} {:>14} {:>14} {:>12} {:>12}  {}\n", "workload", "interpreter",
                                 "fast path", "direct C++", "fast/direct", "fast/interp", "outputs");
        const auto mvs = [](double v) { return fmt::format("{:.1f} M/s", v / 1e6); };
        for (const auto& m : results) {
            const bool same = m.fast_mismatch.empty() && m.direct_mismatch.empty();
            std::cout << fmt::format("{:<24} {:>14} {:>14} {:>14} {:>12.3f} {:>11.1f}x  {}\n", m.label,
                                     mvs(m.interp_vps), mvs(m.fast_vps), mvs(m.direct_vps), m.fast_vps / m.direct_vps,
                                     m.fast_vps / m.interp_vps, same ? "bit-identical" : "MISMATCH");
        }
        std::cout << "\n";
        for (const auto& m : results) {
            std::cout << fmt::format("{}: {} ({} instructions -> {} micro-ops, {} output floats per vertex)\n",
                                     m.label, m.shader, m.instructions, m.micro_ops, m.record_floats);
            if (!m.fast_mismatch.empty()) std::cout << "  fast path differs: " << m.fast_mismatch << "\n";
            if (!m.direct_mismatch.empty()) std::cout << "  direct C++ differs: " << m.direct_mismatch << "\n";
        }
        for (const auto& n : notes) std::cout << "note: " << n << "\n";
        std::cout << fmt::format("\ngoals: (a) fast path >= 200 M vertices/s: {} ({:.1f} M/s)\n",
                                 goal_a ? "met" : "MISSED", results[0].fast_vps / 1e6);
        std::cout << fmt::format("       fast path within 3x of direct C++: (a) {} ({:.2f}x slower), (b) {} ({:.2f}x slower)\n",
                                 goal_ratio_a ? "met" : "MISSED", results[0].direct_vps / results[0].fast_vps,
                                 goal_ratio_b ? "met" : "MISSED", results[1].direct_vps / results[1].fast_vps);
    }
    return identical ? 0 : 1;
}

}  // namespace

void add_bench_exec(CLI::App* bench, int& exit_code) {
    auto a = std::make_shared<BenchExecArgs>();
    CLI::App* c = bench->add_subcommand(
        "exec",
        "Vertices per second of fetch + shading (outputs written to memory, one core) of the reference interpreter, "
        "the fast path and the same computation written directly in C++, on (a) `m4x4 oPos, v0, c0` and (b) the "
        "transform + lighting example; checks that all three write the same bits.\nExit status: 0 when the outputs "
        "are bit-identical, 1 otherwise, 2 usage error.");
    c->add_option("--vertices", a->vertices, "Vertices per measurement (default 1048576)")
        ->check(CLI::Range(1u, 1u << 26));
    c->add_option("--reps", a->reps, "Repetitions; the median is reported (default 5)")->check(CLI::Range(1, 1000));
    c->add_option("--isa", a->isa,
                  "Instruction set of the fast path's kernels: auto (avx2 when the CPU has it), baseline (sse2), "
                  "avx2 (default auto)")
        ->check(CLI::IsMember({"auto", "baseline", "avx2"}));
    c->add_flag("--json", a->json, "Print one JSON object instead of the table");
    c->callback([a, &exit_code] { exit_code = run_bench_exec(*a); });
}

}  // namespace vpsim::cli
