#include "model/bench/exec_bench.h"

#include "model/vs/vs_asm.h"
#include "model/vs/vs_exec.h"
#include "model/vs/vs_fast.h"
#include "model/vs/vs_load.h"
#include "model/vs/vs_random.h"
#include "model/vs/vs_validate.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <time.h>  // clock_gettime(CLOCK_THREAD_CPUTIME_ID)

namespace vpsim::bench {

using vs::Constants;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

namespace {

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
    const float power = vs::ops::clamp_lit_power(c[6][3]);
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

}  // namespace

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

Workload make_transform_light(uint32_t n, const std::string& example_path, std::string& note) {
    Workload w;
    w.label = "(b) transform + light";
    const vs::Program builtin = vs::assemble(kTransformLightText, "<bench b>").program;
    const std::string& path = example_path;
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

namespace {

double now(Clock clock) {
    if (clock == Clock::Wall)
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

template <class F>
double seconds(Clock clock, F&& f) {
    const double t0 = now(clock);
    f();
    return now(clock) - t0;
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


}  // namespace

Measured measure(Workload& w, uint32_t n, int reps, Clock clock) {
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
        m.interp_s.push_back(seconds(clock, [&] {
            float* o = out_interp.data();
            for (uint32_t i = 0; i < n; ++i, o += fs.packed_stride) {
                const vs::VertexOutputs v =
                    vs::execute_reference(w.program, profile, vs::fetch_vertex(w.decl, w.streams, i), w.constants);
                vs::pack_outputs(fs, v, o);
            }
        }));
        // The fast path and the direct C++ take turns at running first after the interpreter: the
        // one that runs second finds the vertex buffer just read by the other (in the cache), so a
        // fixed order would favour one of them.
        const auto fast = [&] {
            m.fast_s.push_back(seconds(
                clock, [&] { vs::run_fast_fetch_packed(fs, w.decl, w.streams, w.constants, 0, n, out_fast.data()); }));
        };
        const auto direct = [&] {
            m.direct_s.push_back(
                seconds(clock, [&] { w.direct(w.vb.data(), w.stride, w.constants, n, out_direct.data()); }));
        };
        if (r % 2 == 0) {
            fast();
            direct();
        } else {
            direct();
            fast();
        }
    }
    m.interp_vps = n / median(m.interp_s);
    m.fast_vps = n / median(m.fast_s);
    m.direct_vps = n / median(m.direct_s);
    m.fast_mismatch = first_mismatch(out_interp, out_fast, fs.packed_stride, fs);
    m.direct_mismatch = first_mismatch(out_interp, out_direct, fs.packed_stride, fs);
    return m;
}

}  // namespace vpsim::bench
