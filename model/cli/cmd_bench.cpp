// vpsim bench: performance measurements (docs/fast-path.md).
//
// `bench exec` measures, in one run and on one core, vertices per second of fetch + shading with
// the outputs written to memory, three ways: the reference interpreter (fetch_vertex +
// execute_reference per vertex), the fast path (run_fast_fetch_packed) and the same computation
// written directly in C++ below, on (a) `m4x4 oPos, v0, c0` and (b) the transform + lighting
// example. It checks that all three write the same bits.
//
// `bench run` (docs/bench.md) measures the timing model's simulated cycles per host second on a
// scene (the default scene unless one is given) beside a bare sc_clock ticking the same number of
// cycles, interleaved, and the peak resident memory of `vpsim run` child processes on the default
// scene's sphere at 10,000 and 1,000,000 vertices against the scene's own buffers.
//
// `bench dispatch` (docs/bench.md) runs one pipeline-shaped workload, a chain of stages joined by
// small FIFOs, modelled the textbook SystemC way (SC_THREADs / SC_METHODs on an sc_clock, sc_fifo)
// and vpsim's way (TimedUnits, Channels, the event-skipping dispatcher), in
// model/sc/dispatch_bench.h; it checks that all ways simulate the same cycles and reports their
// speeds side by side.
//
// Each subcommand has its own options struct and run function, registered in add_bench_command.
#include "model/cli/commands.h"
#include "model/cli/run_common.h"
#include "model/common/params.h"
#include "model/common/presets.h"
#include "model/sc/dispatch_bench.h"
#include "model/sc/pipeline.h"
#include "model/scene/default_scene.h"
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

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
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

// ------------------------------------------------------------------------------ bench run

struct BenchRunArgs {
    std::string scene;              // "" = the default scene with a 1000 x 1000-vertex sphere
    int repeat = 5;
    double memory_bound_mib = 1.0;  // most growth beyond the buffers from the 10k to the 1M scene
    std::vector<std::string> sets;  // unit.param=value, for the model runs
    std::string preset;
    bool no_memory = false, json = false;
};

// One repetition: a model run, then a bare clock for the same number of cycles.
struct SpeedSample {
    uint64_t cycles = 0;
    uint64_t vertices = 0;           // vertices shaded (post-transform cache misses)
    double model_s = 0, bare_s = 0;  // host seconds of sc_start
    double model_cps() const { return double(cycles) / model_s; }
    double bare_cps() const { return double(cycles) / bare_s; }
    double ratio() const { return bare_s / model_s; }  // model cycles/s over bare clock cycles/s
    double vps() const { return double(vertices) / model_s; }
};

// `vpsim run` on the default scene with its sphere resized, in a child process.
struct MemorySample {
    std::string label;         // "10k"
    uint32_t side = 0;         // vertices per row and column of the sphere
    uint64_t vertices = 0, triangles = 0;
    uint64_t buffer_bytes = 0;  // the scene's vertex and index buffers
    uint64_t peak_bytes = 0;    // the child's ru_maxrss
    double seconds = 0;         // the child's wall time
    int64_t beyond_buffers() const { return int64_t(peak_bytes) - int64_t(buffer_bytes); }
};

struct MemoryReport {
    std::vector<MemorySample> samples;  // the smallest first
    uint64_t launcher_anon_bytes = 0;   // this process's anonymous resident memory when it forked
};

std::string mib(double bytes) { return fmt::format("{:.1f} MiB", bytes / (1024.0 * 1024.0)); }
std::string mcps(double cps) { return fmt::format("{:.2f} M/s", cps / 1e6); }

// The default scene with its sphere made `side` x `side` vertices (slices = stacks = side - 1),
// 32-bit indices above 65,536 vertices, and the draw's counts to match.
nlohmann::ordered_json default_scene_with_side(uint32_t side) {
    nlohmann::ordered_json j = scene::default_scene_json();
    const uint64_t quads = side - 1, vertices = uint64_t(side) * side;
    auto& sphere = j.at("buffers").at("sphere");
    sphere["slices"] = quads;
    sphere["stacks"] = quads;
    sphere["indices"] = vertices > 65536 ? "INDEX32" : "INDEX16";
    int draws = 0;
    for (auto& c : j.at("commands"))
        if (c.at("op") == "DrawIndexedPrimitive") {
            c["num_vertices"] = vertices;
            c["primitive_count"] = 2 * quads * quads;
            ++draws;
        }
    if (draws != 1) throw std::logic_error("the default scene no longer has exactly one DrawIndexedPrimitive");
    j["description"] = fmt::format("vpsim bench run: the default scene with a {} x {}-vertex sphere", side, side);
    return j;
}

// A scene file under the temporary directory, removed when this goes out of scope.
class TempSceneFile {
public:
    explicit TempSceneFile(const std::string& text) {
        std::string name = (std::filesystem::temp_directory_path() / "vpsim-bench-XXXXXX.json").string();
        const int fd = ::mkstemps(name.data(), 5);
        if (fd < 0) throw std::runtime_error(fmt::format("{}: cannot create: {}", name, std::strerror(errno)));
        path_ = name;
        size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                const int err = errno;
                ::close(fd);
                throw std::runtime_error(fmt::format("{}: cannot write: {}", path_, std::strerror(err)));
            }
            done += size_t(n);
        }
        if (::close(fd) != 0) throw std::runtime_error(fmt::format("{}: cannot write: {}", path_, std::strerror(errno)));
    }
    ~TempSceneFile() { ::unlink(path_.c_str()); }
    TempSceneFile(const TempSceneFile&) = delete;
    TempSceneFile& operator=(const TempSceneFile&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// This process's resident anonymous memory (resident minus file-backed and shared pages): what a
// forked child holds until execv replaces it.
uint64_t anonymous_resident_bytes() {
    std::ifstream in("/proc/self/statm");
    uint64_t size = 0, resident = 0, shared = 0;
    if (!(in >> size >> resident >> shared)) return 0;
    return (resident - std::min(resident, shared)) * uint64_t(::sysconf(_SC_PAGESIZE));
}

// Runs this executable with `args` (argv[1..]) in a child process and returns its own peak
// resident memory (wait4's ru_maxrss) and wall time. Throws std::runtime_error when the child
// cannot be started or does not exit with status 0.
std::pair<uint64_t, double> run_child(const std::vector<std::string>& args) {
    std::vector<char*> argv;
    std::string argv0 = "vpsim";
    argv.push_back(argv0.data());
    std::vector<std::string> copy = args;
    for (auto& s : copy) argv.push_back(s.data());
    argv.push_back(nullptr);
    std::string command = "vpsim";
    for (const auto& s : args) command += " " + s;

    std::fflush(nullptr);
    std::cout.flush();
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error(fmt::format("{}: fork: {}", command, std::strerror(errno)));
    if (pid == 0) {
        ::execv("/proc/self/exe", argv.data());
        ::_exit(127);
    }
    int status = 0;
    struct rusage ru {};
    pid_t w;
    do w = ::wait4(pid, &status, 0, &ru);
    while (w < 0 && errno == EINTR);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (w < 0) throw std::runtime_error(fmt::format("{}: wait4: {}", command, std::strerror(errno)));
    if (WIFSIGNALED(status))
        throw std::runtime_error(fmt::format("`{}` was killed by signal {} ({})", command, WTERMSIG(status),
                                             ::strsignal(WTERMSIG(status))));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error(fmt::format("`{}` exited with status {}{}", command, WEXITSTATUS(status),
                                             WEXITSTATUS(status) == 127 ? " (could not execute /proc/self/exe)" : ""));
    return {uint64_t(ru.ru_maxrss) * 1024, seconds};  // ru_maxrss is in kilobytes on Linux
}

// The children are forked before this process allocates anything large: a child's ru_maxrss
// includes the memory it had between fork and execv, a copy of this process's resident pages.
MemoryReport measure_memory() {
    MemoryReport m;
    for (const auto& [label, side] : {std::pair<const char*, uint32_t>{"10k", 100}, {"1M", 1000}}) {
        MemorySample s;
        s.label = label;
        s.side = side;
        s.vertices = uint64_t(side) * side;
        s.triangles = 2 * uint64_t(side - 1) * (side - 1);
        const TempSceneFile file(default_scene_with_side(side).dump(2) + "\n");
        m.launcher_anon_bytes = std::max(m.launcher_anon_bytes, anonymous_resident_bytes());
        try {
            std::tie(s.peak_bytes, s.seconds) = run_child({"run", file.path(), "--quiet", "--no-progress"});
        } catch (const std::runtime_error& e) {
            throw std::runtime_error(fmt::format("the {}-vertex scene: {}", group_digits(s.vertices), e.what()));
        }
        m.samples.push_back(s);
    }
    for (auto& s : m.samples) {  // after the children: the 1M scene's buffers are ~60 MB here too
        const scene::Scene sc = scene::parse_scene(default_scene_with_side(s.side), "", "<bench " + s.label + ">");
        for (const auto& [name, b] : sc.buffers) s.buffer_bytes += b.bytes.size();
    }
    return m;
}

int run_bench_run(const BenchRunArgs& a) {
    const char* const me = "vpsim bench run";
    ParamSet params = sc::default_params();
    try {
        if (!a.preset.empty()) apply_preset(params, a.preset);
        for (const auto& s : a.sets) params.apply_set(s);
        // A bad scene file is a usage error before the seconds of the memory measurement
        // (loaded again after it: the children must not inherit it).
        if (!a.scene.empty()) (void)load_run_scene(a.scene);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 2;
    }

    // The memory children first: a child's ru_maxrss includes this process's resident memory
    // at fork, so no scene (the speed scene's 1M vertices are ~55 MB) may be loaded yet.
    std::optional<MemoryReport> memory;
    if (!a.no_memory) {
        try {
            memory = measure_memory();
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: memory: %s\n", me, e.what());
            return 1;
        }
    }

    scene::Scene sc;
    try {
        if (a.scene.empty()) {
            // The speed workload: long enough (seconds per repetition) that start-up and the
            // machine's noise do not decide the ratio, as the default scene's 25 ms did.
            sc = scene::parse_scene(default_scene_with_side(1000), "", "<default, 1000 x 1000-vertex sphere>");
        } else {
            sc = load_run_scene(a.scene).scene;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 2;
    }

    const vs::Profile profile = vs::Profile::d3d8();
    std::vector<SpeedSample> reps;
    try {
        for (int r = 0; r < a.repeat; ++r) {
            SpeedSample s;
            const sc::RunResult res = sc::run_pipeline(sc, params, profile);
            if (res.cycles == 0) {
                std::fprintf(stderr, "%s: %s simulates 0 cycles: nothing to measure\n", me, sc.name.c_str());
                return 2;
            }
            s.cycles = res.cycles;
            s.vertices = res.shaded;
            s.model_s = res.host_seconds;
            s.bare_s = sc::bare_clock_seconds(s.cycles);
            reps.push_back(s);
        }
    } catch (const ParamError& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 1;
    }
    const auto med = [&](auto f) {
        std::vector<double> v;
        for (const auto& s : reps) v.push_back(double(f(s)));
        return median(v);
    };
    const double med_cycles = med([](const SpeedSample& s) { return s.cycles; });
    const double med_model_s = med([](const SpeedSample& s) { return s.model_s; });
    const double med_model_cps = med([](const SpeedSample& s) { return s.model_cps(); });
    const double med_bare_s = med([](const SpeedSample& s) { return s.bare_s; });
    const double med_bare_cps = med([](const SpeedSample& s) { return s.bare_cps(); });
    const double med_ratio = med([](const SpeedSample& s) { return s.ratio(); });
    const double med_vps = med([](const SpeedSample& s) { return s.vps(); });

    // Growth from the smallest to the largest scene, and how much of it the buffers explain.
    int64_t peak_growth = 0, buffer_growth = 0, beyond_growth = 0;
    double beyond_per_vertex = 0;
    if (memory) {
        const MemorySample &lo = memory->samples.front(), &hi = memory->samples.back();
        peak_growth = int64_t(hi.peak_bytes) - int64_t(lo.peak_bytes);
        buffer_growth = int64_t(hi.buffer_bytes) - int64_t(lo.buffer_bytes);
        beyond_growth = peak_growth - buffer_growth;
        beyond_per_vertex = double(beyond_growth) / double(hi.vertices - lo.vertices);
    }
    const int64_t bound_bytes = int64_t(a.memory_bound_mib * 1024 * 1024);
    const bool memory_ok = !memory || beyond_growth <= bound_bytes;
    const int status = memory_ok ? 0 : 3;

    if (a.json) {
        using oj = nlohmann::ordered_json;
        oj j;
        j["scene"] = sc.name;
        j["sets"] = a.sets;
        j["repetitions"] = a.repeat;
        j["order"] = "interleaved: model, bare clock, model, bare clock, ...";
        j["statistic"] = "median";
        oj per = oj::array();
        for (const auto& s : reps)
            per.push_back({{"cycles", s.cycles},
                           {"model_seconds", s.model_s},
                           {"model_cycles_per_second", s.model_cps()},
                           {"bare_clock_seconds", s.bare_s},
                           {"bare_clock_cycles_per_second", s.bare_cps()},
                           {"vertices", s.vertices},
                           {"vertices_per_second", s.vps()},
                           {"ratio", s.ratio()}});
        j["speed"] = {{"per_repetition", per},
                      {"median",
                       {{"cycles", uint64_t(std::llround(med_cycles))},
                        {"model_seconds", med_model_s},
                        {"model_cycles_per_second", med_model_cps},
                        {"bare_clock_seconds", med_bare_s},
                        {"bare_clock_cycles_per_second", med_bare_cps},
                        {"vertices_per_second", med_vps},
                        {"ratio", med_ratio}}}};
        if (memory) {
            oj scenes = oj::array();
            for (const auto& s : memory->samples)
                scenes.push_back({{"label", s.label},
                                  {"slices", s.side - 1},
                                  {"stacks", s.side - 1},
                                  {"vertices", s.vertices},
                                  {"triangles", s.triangles},
                                  {"buffer_bytes", s.buffer_bytes},
                                  {"peak_rss_bytes", s.peak_bytes},
                                  {"peak_minus_buffers_bytes", s.beyond_buffers()},
                                  {"child_seconds", s.seconds}});
            j["memory"] = {{"command", "vpsim run SCENE --quiet --no-progress (child process, wait4 ru_maxrss)"},
                           {"launcher_anonymous_rss_bytes", memory->launcher_anon_bytes},
                           {"scenes", scenes},
                           {"growth",
                            {{"peak_bytes", peak_growth},
                             {"buffer_bytes", buffer_growth},
                             {"beyond_buffers_bytes", beyond_growth},
                             {"beyond_buffers_bytes_per_vertex", beyond_per_vertex}}},
                           {"bound_bytes", bound_bytes},
                           {"within_bound", memory_ok}};
        } else {
            j["memory"] = nullptr;
        }
        std::cout << j.dump(2) << "\n";
        return status;
    }

    std::string sets;
    for (const auto& s : a.sets) sets += (sets.empty() ? "" : ", ") + s;
    std::cout << fmt::format("vpsim bench run: {}{}\n", sc.name, sets.empty() ? "" : " with " + sets);
    std::cout << fmt::format(
        "speed: {} repetitions, each the timing model then a bare sc_clock for the same cycles; medians\n\n",
        a.repeat);
    std::cout << fmt::format("  {:<8} {:>12} {:>10} {:>16} {:>20} {:>11} {:>12}\n", "rep", "cycles", "model s",
                             "model cycles/s", "bare clock cycles/s", "model/bare", "vertices/s");
    for (size_t i = 0; i < reps.size(); ++i) {
        const auto& s = reps[i];
        std::cout << fmt::format("  {:<8} {:>12} {:>10.4f} {:>16} {:>20} {:>11.3f} {:>12}\n", i + 1,
                                 group_digits(s.cycles), s.model_s, mcps(s.model_cps()), mcps(s.bare_cps()), s.ratio(),
                                 mcps(s.vps()));
    }
    std::cout << fmt::format("  {:<8} {:>12} {:>10.4f} {:>16} {:>20} {:>11.3f} {:>12}\n", "median",
                             group_digits(uint64_t(med_cycles)), med_model_s, mcps(med_model_cps), mcps(med_bare_cps),
                             med_ratio, mcps(med_vps));
    std::cout << fmt::format("\nratio (model cycles/s over bare sc_clock cycles/s, > 1: the model is faster): {:.3f}\n",
                             med_ratio);
    if (!memory) return 0;

    std::cout << "\nmemory: peak resident memory (wait4 ru_maxrss) of `vpsim run SCENE --quiet --no-progress` in a "
                 "child process, SCENE the default scene's sphere at two sizes\n\n";
    std::cout << fmt::format("  {:<6} {:>11} {:>10} {:>11} {:>11} {:>11} {:>14} {:>8}\n", "scene", "vertices",
                             "sphere", "triangles", "buffers", "peak RSS", "peak - buffers", "child s");
    for (const auto& s : memory->samples)
        std::cout << fmt::format("  {:<6} {:>11} {:>10} {:>11} {:>11} {:>11} {:>14} {:>8.2f}\n", s.label,
                                 group_digits(s.vertices), fmt::format("{}x{}", s.side - 1, s.side - 1),
                                 group_digits(s.triangles), mib(double(s.buffer_bytes)), mib(double(s.peak_bytes)),
                                 mib(double(s.beyond_buffers())), s.seconds);
    const MemorySample &lo = memory->samples.front(), &hi = memory->samples.back();
    std::cout << fmt::format("\n  {} -> {}: peak +{}, buffers +{}, beyond the buffers {}{} ({:.1f} bytes per added "
                             "vertex)\n",
                             lo.label, hi.label, mib(double(peak_growth)), mib(double(buffer_growth)),
                             beyond_growth >= 0 ? "+" : "", mib(double(beyond_growth)), beyond_per_vertex);
    std::cout << fmt::format("  (this process held {} of anonymous memory when it forked the children: a floor under "
                             "each peak)\n",
                             mib(double(memory->launcher_anon_bytes)));
    std::cout << fmt::format("  bound: at most {} beyond the buffers (--memory-bound): {}\n",
                             mib(double(bound_bytes)), memory_ok ? "within" : "EXCEEDED");
    return status;
}

void add_bench_run(CLI::App* bench, int& exit_code) {
    auto a = std::make_shared<BenchRunArgs>();
    CLI::App* c = bench->add_subcommand(
        "run",
        "Simulated cycles per host second of the timing model on a scene (none: the built-in default scene) beside a "
        "bare sc_clock ticking the same number of cycles, interleaved, and their ratio; and the peak resident memory "
        "of `vpsim run` on the default scene's sphere at 10,000 and 1,000,000 vertices against the scene's buffers "
        "(docs/bench.md).\nExit status: 0 ok, 1 a measurement failed, 2 usage, bad parameter or malformed scene, 3 "
        "the memory beyond the buffers grew by more than --memory-bound.");
    c->add_option("SCENE", a->scene,
                  "The scene for the speed measurement (.json); none: the default scene with its sphere at "
                  "1000 x 1000 vertices");
    c->add_option("--repeat", a->repeat, "Repetitions (model run + bare clock each); medians are reported (default 5)")
        ->check(CLI::Range(1, 1000));
    add_preset_option(c, a->preset);
    c->add_option("--set", a->sets, "Override one parameter of the model runs, unit.param=value (repeatable)")
        ->allow_extra_args(false);
    c->add_flag("--no-memory", a->no_memory, "Skip the peak-memory measurement");
    c->add_option("--memory-bound", a->memory_bound_mib,
                  "Most growth of the peak beyond the buffers from the 10k to the 1M scene, in MiB; more exits 3 "
                  "(default 1)")
        ->check(CLI::Range(0.0, 1e6));
    c->add_flag("--json", a->json, "Print one JSON object instead of the tables");
    c->callback([a, &exit_code] { exit_code = run_bench_run(*a); });
}

// ------------------------------------------------------------------------- bench dispatch

struct BenchDispatchArgs {
    uint64_t items = 1000000;
    int repeat = 3;
    std::string workload = "all";
    bool json = false;
};

constexpr size_t kWays = std::size(sc::kDispatchWays);

// One workload's runs: runs[way][repetition].
struct DispatchMeasured {
    sc::DispatchWorkload w;
    std::array<std::vector<sc::DispatchRun>, kWays> runs;
    std::string disagreement;  // "" when every run gave the same cycles and per-stage figures

    const sc::DispatchRun& reference() const { return runs[0].front(); }
    double median_of(size_t way, double (*f)(const sc::DispatchRun&, uint64_t items)) const {
        std::vector<double> v;
        for (const auto& r : runs[way]) v.push_back(f(r, w.items));
        return median(v);
    }
    // The median over the repetitions of way a's speed over way b's (each pair run side by side),
    // by host seconds or by CPU seconds (the same cycles both ways).
    double median_ratio(size_t a, size_t b, bool cpu = false) const {
        std::vector<double> v;
        for (size_t i = 0; i < runs[a].size(); ++i)
            v.push_back(cpu ? runs[b][i].cpu_seconds / runs[a][i].cpu_seconds
                            : runs[b][i].host_seconds / runs[a][i].host_seconds);
        return median(v);
    }
};

double run_seconds(const sc::DispatchRun& r, uint64_t) { return r.host_seconds; }
double run_cpu_seconds(const sc::DispatchRun& r, uint64_t) { return r.cpu_seconds; }
double run_cps(const sc::DispatchRun& r, uint64_t) { return double(r.cycles) / r.host_seconds; }
double run_ips(const sc::DispatchRun& r, uint64_t items) { return double(items) / r.host_seconds; }

std::string join_numbers(const std::vector<uint32_t>& v) {
    std::string s;
    for (uint32_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
}

// Every run against the first: the cycles and each stage's busy and stalled cycles.
std::string disagreement(const DispatchMeasured& m) {
    const sc::DispatchRun& ref = m.reference();
    for (size_t k = 0; k < kWays; ++k)
        for (size_t i = 0; i < m.runs[k].size(); ++i) {
            const sc::DispatchRun& r = m.runs[k][i];
            const std::string who = fmt::format("{}: {} (repetition {}) against {} (repetition 1)", m.w.name,
                                                sc::dispatch_way_name(sc::kDispatchWays[k]), i + 1,
                                                sc::dispatch_way_name(sc::kDispatchWays[0]));
            if (r.cycles != ref.cycles) return fmt::format("{}: {} cycles vs {}", who, r.cycles, ref.cycles);
            for (size_t s = 0; s < ref.busy.size(); ++s) {
                if (r.busy[s] != ref.busy[s])
                    return fmt::format("{}: stage {} busy {} cycles vs {}", who, s, r.busy[s], ref.busy[s]);
                if (r.stalled[s] != ref.stalled[s])
                    return fmt::format("{}: stage {} stalled {} cycles vs {}", who, s, r.stalled[s], ref.stalled[s]);
            }
        }
    return "";
}

int run_bench_dispatch(const BenchDispatchArgs& a) {
    const char* const me = "vpsim bench dispatch";
    const uint64_t quantum = sc::PipelineParams{}.quantum;
    std::vector<DispatchMeasured> ms;
    for (const auto& w : sc::dispatch_workloads(a.items))
        if (a.workload == "all" || a.workload == w.name) ms.push_back({w, {}, ""});
    try {
        // Interleaved: every repetition runs every workload every way, so a burst of load from
        // another process slows the ways alike and each ratio compares runs made side by side.
        for (int r = 0; r < a.repeat; ++r)
            for (auto& m : ms)
                for (size_t k = 0; k < kWays; ++k)
                    m.runs[k].push_back(sc::run_dispatch_bench(m.w, sc::kDispatchWays[k], quantum));
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 1;
    }
    bool equal = true;
    for (auto& m : ms) {
        m.disagreement = disagreement(m);
        equal = equal && m.disagreement.empty();
    }
    constexpr size_t kDispatcher = kWays - 1;
    const std::string fifo_timing =
        "an item written at cycle t is readable from t + 1, a slot freed at t is writable from t + 1 (sc_fifo's)";

    if (a.json) {
        using oj = nlohmann::ordered_json;
        oj j;
        j["items"] = a.items;
        j["repetitions"] = a.repeat;
        j["statistic"] = "median";
        j["order"] = "interleaved: each repetition runs every workload every way, each in a fresh SystemC context";
        j["clock_period_ns"] = 5;
        j["dispatcher_quantum_cycles"] = quantum;
        j["fifo_timing"] = fifo_timing;
        oj wl = oj::array();
        for (const auto& m : ms) {
            const sc::DispatchRun& ref = m.reference();
            oj stages = oj::array();
            for (size_t s = 0; s < ref.busy.size(); ++s)
                stages.push_back({{"service_cycles", m.w.service[s]},
                                  {"busy_cycles", ref.busy[s]},
                                  {"stalled_cycles", ref.stalled[s]},
                                  {"idle_cycles", ref.cycles - ref.busy[s] - ref.stalled[s]}});
            oj ways = oj::array();
            for (size_t k = 0; k < kWays; ++k) {
                oj secs = oj::array(), cpu = oj::array();
                for (const auto& r : m.runs[k]) {
                    secs.push_back(r.host_seconds);
                    cpu.push_back(r.cpu_seconds);
                }
                ways.push_back({{"way", sc::dispatch_way_key(sc::kDispatchWays[k])},
                                {"name", sc::dispatch_way_name(sc::kDispatchWays[k])},
                                {"cycles", m.runs[k].front().cycles},
                                {"activations", m.runs[k].front().activations},
                                {"host_seconds", secs},
                                {"cpu_seconds", cpu},
                                {"median",
                                 {{"host_seconds", m.median_of(k, run_seconds)},
                                  {"cpu_seconds", m.median_of(k, run_cpu_seconds)},
                                  {"cycles_per_second", m.median_of(k, run_cps)},
                                  {"items_per_second", m.median_of(k, run_ips)}}}});
            }
            oj ratios = oj::object(), cpu_ratios = oj::object();
            for (size_t k = 0; k < kDispatcher; ++k) {
                const std::string key = fmt::format("dispatcher_over_{}", sc::dispatch_way_key(sc::kDispatchWays[k]));
                ratios[key] = m.median_ratio(kDispatcher, k);
                cpu_ratios[key] = m.median_ratio(kDispatcher, k, true);
            }
            wl.push_back({{"name", m.w.name},
                          {"description", m.w.what},
                          {"fifo_capacities", m.w.capacity},
                          {"cycles", ref.cycles},
                          {"stages", stages},
                          {"ways", ways},
                          {"speed_ratios", ratios},
                          {"speed_ratios_by_cpu_seconds", cpu_ratios},
                          {"cycles_equal", m.disagreement.empty()},
                          {"disagreement", m.disagreement}});
        }
        j["workloads"] = wl;
        j["cycles_equal"] = equal;
        std::cout << j.dump(2) << "\n";
        return equal ? 0 : 3;
    }

    std::cout << fmt::format(
        "vpsim bench dispatch: a chain of {} stages, {} items, each run in a fresh SystemC context; {} repetition{}, "
        "interleaved; medians of the host (wall) seconds of sc_start, its CPU seconds, and the rates per host "
        "second\nFIFOs (every way): {}\n",
        ms.front().w.service.size(), group_digits(a.items), a.repeat, a.repeat == 1 ? "" : "s", fifo_timing);
    for (const auto& m : ms) {
        const sc::DispatchRun& ref = m.reference();
        std::cout << fmt::format("\n{}: {}\n  service cycles per item {}; FIFO capacities {}\n\n", m.w.name, m.w.what,
                                 join_numbers(m.w.service), join_numbers(m.w.capacity));
        std::cout << fmt::format("  {:<22} {:>12} {:>9} {:>8} {:>12} {:>12} {:>13} {:>10}\n", "way", "cycles",
                                 "host s", "CPU s", "cycles/s", "items/s", "activations", "per cycle");
        for (size_t k = 0; k < kWays; ++k) {
            const sc::DispatchRun& r = m.runs[k].front();
            std::cout << fmt::format("  {:<22} {:>12} {:>9.4f} {:>8.4f} {:>12} {:>12} {:>13} {:>10.2f}\n",
                                     sc::dispatch_way_name(sc::kDispatchWays[k]), group_digits(r.cycles),
                                     m.median_of(k, run_seconds), m.median_of(k, run_cpu_seconds),
                                     mcps(m.median_of(k, run_cps)),
                                     mcps(m.median_of(k, run_ips)), group_digits(r.activations),
                                     double(r.activations) / double(r.cycles));
        }
        std::string row_busy, row_stalled, row_idle, row_head;
        const auto pct = [&](uint64_t c) { return fmt::format(" {:>6.1f}", 100.0 * double(c) / double(ref.cycles)); };
        for (size_t s = 0; s < ref.busy.size(); ++s) {
            row_head += fmt::format(" {:>6}", s);
            row_busy += pct(ref.busy[s]);
            row_stalled += pct(ref.stalled[s]);
            row_idle += pct(ref.cycles - ref.busy[s] - ref.stalled[s]);
        }
        std::cout << fmt::format("\n  {:<22}{}\n  {:<22}{}\n  {:<22}{}\n  {:<22}{}\n", "stage", row_head,
                                 "busy % of cycles", row_busy, "stalled %", row_stalled, "idle %", row_idle);
        std::cout << "\n";
        for (size_t k = 0; k < kDispatcher; ++k)
            std::cout << fmt::format("  dispatcher speed over {}: {:.2f}x by host seconds, {:.2f}x by CPU seconds\n",
                                     sc::dispatch_way_name(sc::kDispatchWays[k]), m.median_ratio(kDispatcher, k),
                                     m.median_ratio(kDispatcher, k, true));
        std::cout << "  (medians of the per-repetition ratios)\n";
    }
    std::cout << "\n";
    if (!equal) {
        for (const auto& m : ms)
            if (!m.disagreement.empty()) std::cout << "cycles DIFFER: " << m.disagreement << "\n";
        return 3;
    }
    std::string cycles;
    for (const auto& m : ms)
        cycles += fmt::format("{}{} {}", cycles.empty() ? "" : ", ", m.w.name, group_digits(m.reference().cycles));
    std::cout << fmt::format("cycles equal: {} cycles, and every stage's busy and stalled cycles, the same all {} "
                             "ways in every repetition\n",
                             cycles, kWays);
    return 0;
}

void add_bench_dispatch(CLI::App* bench, int& exit_code) {
    auto a = std::make_shared<BenchDispatchArgs>();
    CLI::App* c = bench->add_subcommand(
        "dispatch",
        "One pipeline-shaped workload (a chain of 7 stages with their own service times and small FIFOs) modelled "
        "three ways with the same cycle-level behaviour: SC_THREADs on an sc_clock with sc_fifos, SC_METHODs on an "
        "sc_clock with sc_fifos, and TimedUnits with Channels stepped by the timing model's event-skipping "
        "dispatcher; simulated cycles, host seconds, cycles and items per host second, and the dispatcher's speed "
        "ratios (docs/bench.md).\nExit status: 0 ok, 1 a run failed, 2 usage, 3 the ways simulated different "
        "cycles.");
    c->add_option("--items", a->items, "Items through the chain (default 1000000)")
        ->check(CLI::Range(uint64_t(1), uint64_t(1000000000)));
    c->add_option("--repeat", a->repeat, "Repetitions (every workload every way each); medians are reported (default 3)")
        ->check(CLI::Range(1, 1000));
    c->add_option("--workload", a->workload, "busy, idle or all (default all)")
        ->check(CLI::IsMember({"busy", "idle", "all"}));
    c->add_flag("--json", a->json, "Print one JSON object instead of the tables");
    c->callback([a, &exit_code] { exit_code = run_bench_dispatch(*a); });
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_code) {
    CLI::App* bench = app.add_subcommand("bench", "Performance measurements and studies (subcommands: exec, run, dispatch, calibrate, coissue, reference, metamorphic, correlate, xcheck)");
    bench->require_subcommand(1);
    add_bench_exec(bench, exit_code);
    add_bench_run(bench, exit_code);
    add_bench_dispatch(bench, exit_code);
    add_bench_calibrate(bench, exit_code);
    add_bench_suite(bench, exit_code);
    add_bench_metamorphic(bench, exit_code);
    add_bench_correlate(bench, exit_code);
    add_bench_xcheck(bench, exit_code);
}

}  // namespace vpsim::cli
