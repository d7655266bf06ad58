// Fixed function as vertex programs (model/ff/ff_compile.h): the generated vs.1.1 program against
// the reference processor (model/ff/ff_reference.h) on random states and vertices, run by the
// reference interpreter and by the fast path; the instruction counts of a table of
// configurations (the same table as docs/fixed-function.md); the refusals.
#include "model/ff/ff_compile.h"
#include "model/ff/ff_math.h"
#include "model/ff/ff_published.h"
#include "model/ff/ff_schedule.h"

#include "model/ff/ff_reference.h"
#include "tests/ff_test_util.h"
#include "model/vs/vs_exec.h"
#include "model/vs/vs_fast.h"
#include "model/vs/vs_random.h"
#include "model/vs/vs_validate.h"
#include "tests/test_seed.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

using namespace vpsim;
using namespace vpsim::ff;
using vs::SplitMix64;
using vpsim::ff::test::kPi;

namespace {


// ---------------------------------------------------------------- running a compiled program

struct Runnable {
    FfProgram prog;
    vs::Program program;
    vs::Profile profile;
    vs::Constants constants;
    vs::FastShader fast;
};

Runnable make_runnable(const FfState& s, const FfInputs& in, const Caps& caps, uint32_t const_count = 96,
                       vs::Profile::OutputDefaults outputs = vs::Profile::OutputDefaults::D3D8) {
    Runnable r;
    r.prog = compile(s, in, caps, const_count, outputs);
    r.program = vs::decode_bytecode(r.prog.shader.bytecode);
    r.profile = vs::Profile::d3d8();
    r.profile.outputs = outputs;
    r.profile.const_count = const_count;
    r.constants.assign(const_count, vs::Vec4{0, 0, 0, 0});
    for (const auto& [reg, value] : r.prog.constants) r.constants.at(reg) = value;
    r.fast = vs::compile_fast(r.program, r.profile);
    return r;
}

// The program's input registers from the fixed-function registers (input_map).
std::array<vs::Vec4, vs::kNumInputs> program_inputs(const FfProgram& p, const FfRegisters& v) {
    std::array<vs::Vec4, vs::kNumInputs> in{};
    for (uint32_t r = 0; r < kNumDe; ++r)
        if (p.input_map[r] >= 0) in[size_t(p.input_map[r])] = v[r];
    return in;
}

// ---------------------------------------------------------------- random states and vertices

float uni(SplitMix64& rng, float lo, float hi) { return lo + (hi - lo) * rng.unit(); }
Color rand_color(SplitMix64& rng, bool maybe_zero = true) {
    if (maybe_zero && rng.chance(0.15)) return {0, 0, 0, 0};
    return {uni(rng, 0, 1), uni(rng, 0, 1), uni(rng, 0, 1), uni(rng, 0, 1)};
}
Vec3 rand_dir(SplitMix64& rng) {
    for (;;) {
        const Vec3 d{uni(rng, -1, 1), uni(rng, -1, 1), uni(rng, -1, 1)};
        const float l = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if (l > 0.05f && l <= 1.0f) return d;
    }
}
// An affine matrix: a random (not orthonormal: scaled, sheared) 3x3 and a translation.
Matrix rand_affine(SplitMix64& rng, float translate) {
    Matrix m;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) m.m[size_t(r * 4 + c)] = (r == c ? 1.0f : 0.0f) + uni(rng, -0.6f, 0.6f);
    for (int c = 0; c < 3; ++c) m.m[size_t(12 + c)] = uni(rng, -translate, translate);
    m.m[3] = m.m[7] = m.m[11] = 0;
    m.m[15] = 1;
    return m;
}
Matrix rand_full(SplitMix64& rng) {
    Matrix m;
    for (float& f : m.m) f = uni(rng, -2, 2);
    return m;
}
// A D3DXMatrixPerspectiveFovLH-like projection, sometimes perturbed.
Matrix rand_projection(SplitMix64& rng) {
    Matrix m;
    const float fov = uni(rng, 0.5f, 1.5f), aspect = uni(rng, 0.75f, 1.8f), zn = uni(rng, 0.1f, 1), zf = uni(rng, 50, 200);
    const float ys = 1.0f / std::tan(fov / 2), xs = ys / aspect;
    m.m = {xs, 0, 0, 0, 0, ys, 0, 0, 0, 0, zf / (zf - zn), 1, 0, 0, -zn * zf / (zf - zn), 0};
    if (rng.chance(0.3))
        for (float& f : m.m) f += uni(rng, -0.2f, 0.2f);
    return m;
}

struct Case {
    FfState state;
    FfInputs inputs;
    Caps caps;
};

void load(FfInputs& in, uint32_t r, uint8_t comps) {
    in.loaded |= 1u << r;
    in.components[r] = comps;
}

Light rand_light(SplitMix64& rng) {
    Light l;
    l.type = LightType(1 + rng.below(3));
    l.diffuse = rand_color(rng);
    l.specular = rand_color(rng);
    l.ambient = rng.chance(0.5) ? Color{0, 0, 0, 0} : rand_color(rng);
    l.position = {uni(rng, -8, 8), uni(rng, -8, 8), uni(rng, -8, 8)};
    l.direction = rand_dir(rng);
    if (l.type == LightType::Directional && rng.chance(0.2)) return Light::d3d_default();
    // attenuation: constant, linear only, quadratic only, or general
    switch (rng.below(5)) {
        case 0: l.attenuation0 = rng.chance(0.5) ? 1.0f : uni(rng, 0.2f, 3); break;
        case 1: l.attenuation1 = uni(rng, 0.05f, 1); break;
        case 2: l.attenuation2 = uni(rng, 0.01f, 0.3f); break;
        default:
            l.attenuation0 = uni(rng, 0.2f, 2);
            l.attenuation1 = rng.chance(0.3) ? 0.0f : uni(rng, 0, 0.5f);
            l.attenuation2 = uni(rng, 0, 0.1f);
    }
    l.range = rng.chance(0.3) ? std::sqrt(FLT_MAX) : uni(rng, 0, 25);
    l.phi = uni(rng, 0.1f, kPi);
    l.theta = rng.chance(0.15) ? l.phi : uni(rng, 0, l.phi);
    switch (rng.below(5)) {
        case 0: l.falloff = 0; break;
        case 1: l.falloff = 1; break;
        case 2: l.falloff = 200; break;  // beyond lit's power clamp
        default: l.falloff = uni(rng, 0.25f, 4);
    }
    return l;
}

Case rand_case(SplitMix64& rng) {
    Case c;
    FfState& s = c.state;
    FfInputs& in = c.inputs;
    RenderStates& rs = s.rs;
    c.caps.max_vertex_blend_matrix_index = rng.chance(0.5) ? 0 : uint32_t(rng.range(1, 12));
    c.caps.max_texture_blend_stages = uint32_t(rng.range(1, 8));
    c.caps.max_point_size = rng.chance(0.5) ? 64.0f : uni(rng, 8, 256);

    in.pretransformed = rng.chance(0.08);
    load(in, kDePosition, in.pretransformed || rng.chance(0.1) ? 4 : 3);
    if (rng.chance(0.85)) load(in, kDeNormal, 3);
    if (rng.chance(0.6)) load(in, kDeDiffuse, 4);
    if (rng.chance(0.5)) load(in, kDeSpecular, 4);
    if (rng.chance(0.25)) load(in, kDePSize, 1);
    const uint32_t sets = rng.below(9);
    for (uint32_t t = 0; t < sets; ++t) load(in, kDeTexcoord0 + t, uint8_t(rng.range(1, 4)));

    // vertex blending
    if (!in.pretransformed) {
        switch (rng.below(7)) {
            case 0: rs.vertexblend = VertexBlend::Weights1; break;
            case 1: rs.vertexblend = VertexBlend::Weights2; break;
            case 2: rs.vertexblend = VertexBlend::Weights3; break;
            case 3: rs.vertexblend = VertexBlend::Tweening; break;
            case 4: rs.vertexblend = VertexBlend::Weights0; break;
            default: rs.vertexblend = VertexBlend::Disable;
        }
        const int nw = rs.vertexblend == VertexBlend::Weights1   ? 1
                       : rs.vertexblend == VertexBlend::Weights2 ? 2
                       : rs.vertexblend == VertexBlend::Weights3 ? 3
                                                                 : 0;
        if (nw > 0) load(in, kDeBlendWeight, uint8_t(std::min(4, nw + int(rng.below(2)))));
        const bool blends = rs.vertexblend != VertexBlend::Disable && rs.vertexblend != VertexBlend::Tweening;
        if (blends && c.caps.max_vertex_blend_matrix_index > 0 && rng.chance(0.5)) {
            rs.indexedvertexblendenable = true;
            load(in, kDeBlendIndices, 4);
        }
        if (rs.vertexblend == VertexBlend::Tweening) {
            load(in, kDePosition2, 3);
            if (in.has(kDeNormal) && rng.chance(0.7)) load(in, kDeNormal2, 3);
        }
    }

    // transforms
    for (uint32_t i = 0; i < 13; ++i) s.world[i] = rand_affine(rng, 3);
    s.view = rand_affine(rng, 4);
    s.projection = rand_projection(rng);
    for (Matrix& t : s.texture) t = rand_full(rng);

    // lights and material
    const uint32_t nlights = rng.below(9);
    for (uint32_t i = 0; i < nlights; ++i) s.lights[rng.below(1000)] = {rand_light(rng), true};
    if (rng.chance(0.3)) s.lights[2000] = {rand_light(rng), false};
    s.material.diffuse = rand_color(rng);
    s.material.ambient = rand_color(rng);
    s.material.specular = rand_color(rng);
    s.material.emissive = rng.chance(0.5) ? Color{0, 0, 0, 0} : rand_color(rng);
    switch (rng.below(5)) {
        case 0: s.material.power = 0; break;
        case 1: s.material.power = uni(rng, 130, 400); break;  // beyond lit's clamp
        default: s.material.power = uni(rng, 1, 100);
    }
    const auto src = [&]() { return MaterialSource(rng.below(3)); };
    rs.lighting = rng.chance(0.85);
    rs.ambient = uint32_t(rng.next());
    rs.specularenable = rng.chance(0.5);
    rs.localviewer = rng.chance(0.5);
    rs.normalizenormals = rng.chance(0.5);
    rs.colorvertex = rng.chance(0.7);
    rs.diffusematerialsource = src();
    rs.specularmaterialsource = src();
    rs.ambientmaterialsource = src();
    rs.emissivematerialsource = src();

    // fog
    rs.fogenable = rng.chance(0.6);
    rs.fogvertexmode = FogMode(rng.below(4));
    rs.fogtablemode = rng.chance(0.15) ? FogMode::Linear : FogMode::None;
    rs.rangefogenable = rng.chance(0.5);
    rs.fogstart = uni(rng, -2, 10);
    rs.fogend = rng.chance(0.1) ? rs.fogstart : rs.fogstart + uni(rng, 1, 30);
    rs.fogdensity = uni(rng, 0.01f, 0.5f);

    // points
    rs.pointscaleenable = rng.chance(0.4);
    rs.pointsize = rng.chance(0.05) ? 0.0f : uni(rng, 0.5f, 8);
    rs.pointsize_min = rng.chance(0.1) ? uni(rng, 100, 300) : uni(rng, 0, 2);  // sometimes above the maximum
    rs.pointsize_max = uni(rng, 2, 100);
    rs.pointscale_a = uni(rng, 0.2f, 2);
    rs.pointscale_b = rng.chance(0.5) ? 0.0f : uni(rng, 0, 1);
    rs.pointscale_c = rng.chance(0.5) ? 0.0f : uni(rng, 0, 0.3f);
    s.viewport.height = uint32_t(rng.range(200, 1200));

    // texture stages
    for (uint32_t st = 0; st < 8; ++st) {
        TextureStage& ts = s.stages[st];
        const uint32_t gens[4] = {kTciPassthru, kTciCameraSpaceNormal, kTciCameraSpacePosition,
                                  kTciCameraSpaceReflectionVector};
        ts.texcoordindex = (rng.chance(0.6) ? kTciPassthru : gens[rng.below(4)]) | rng.below(8);
        ts.texturetransformflags = rng.chance(0.5) ? 0u : (rng.below(5) | (rng.chance(0.3) ? kTtffProjected : 0u));
        // blending: whether a stage reads D3DTA_SPECULAR decides the oD1 write (writes_specular)
        if (rng.chance(0.3)) {
            ts.colorop = uint32_t(rng.range(1, 26));
            ts.alphaop = uint32_t(rng.range(1, 26));
            uint32_t* args[6] = {&ts.colorarg0, &ts.colorarg1, &ts.colorarg2, &ts.alphaarg0, &ts.alphaarg1, &ts.alphaarg2};
            for (uint32_t* a : args) *a = uint32_t(rng.below(6)) | (rng.chance(0.2) ? kTaComplement : 0u);
        }
    }
    return c;
}

// One vertex as the fetch gives it: loaded registers (x, .., 0, .., 1) by their component
// count, unloaded ones (0, 0, 0, 0).
FfRegisters rand_vertex(SplitMix64& rng, const Case& c) {
    FfRegisters v{};
    for (uint32_t r = 0; r < kNumDe; ++r) {
        if (!c.inputs.has(r)) continue;
        Vec4 x{0, 0, 0, 1};
        const uint32_t n = c.inputs.components[r];
        for (uint32_t i = 0; i < n; ++i) {
            float f = uni(rng, -2, 2);
            if (r == kDePosition || r == kDePosition2) f = uni(rng, -6, 6);
            if (r == kDeDiffuse || r == kDeSpecular || r == kDeBlendWeight) f = uni(rng, 0, 1);
            if (r == kDePSize) f = uni(rng, 0.5f, 12);
            if (r == kDeBlendIndices) f = float(rng.below(c.caps.max_vertex_blend_matrix_index + 1));
            x[i] = f;
        }
        if (r == kDePosition && n == 4) x[3] = uni(rng, 0.5f, 2);
        v[r] = x;
    }
    return v;
}

// ---------------------------------------------------------------- where the equations jump
// The outputs are continuous in the inputs except at a few edges (a light's range, the spotlight
// cone edges, the specular gate N.L > 0 and N.H > 0, the normalisations of zero vectors); there a
// rounding difference between two correct float evaluations changes the result by a step. Such
// vertices are redrawn: this recomputes the camera-space geometry in double precision.
struct D3 {
    double x = 0, y = 0, z = 0;
};
D3 d3(const Vec4& v) { return {v[0], v[1], v[2]}; }
D3 d3(const Vec3& v) { return {v[0], v[1], v[2]}; }
double ddot(const D3& a, const D3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
D3 dadd(const D3& a, const D3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
D3 dscale(const D3& a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double dlen(const D3& a) { return std::sqrt(ddot(a, a)); }
D3 dnorm(const D3& a) { return dscale(a, 1.0 / dlen(a)); }
D3 dmul4(const Vec4& v, const Matrix& m) {  // xyz of v * M
    D3 r;
    double* o[3] = {&r.x, &r.y, &r.z};
    for (int c = 0; c < 3; ++c)
        *o[c] = double(v[0]) * m.at(0, c) + double(v[1]) * m.at(1, c) + double(v[2]) * m.at(2, c) + double(v[3]) * m.at(3, c);
    return r;
}
D3 dmul3(const D3& v, const Matrix& m) {
    return {v.x * m.at(0, 0) + v.y * m.at(1, 0) + v.z * m.at(2, 0), v.x * m.at(0, 1) + v.y * m.at(1, 1) + v.z * m.at(2, 1),
            v.x * m.at(0, 2) + v.y * m.at(1, 2) + v.z * m.at(2, 2)};
}
Matrix dmatmul(const Matrix& a, const Matrix& b) {
    Matrix r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            double x = 0;
            for (int k = 0; k < 4; ++k) x += double(a.at(i, k)) * b.at(k, j);
            r.m[size_t(i * 4 + j)] = float(x);
        }
    return r;
}

bool near_edge(const Case& c, const FfRegisters& v) {
    const FfState& s = c.state;
    const RenderStates& rs = s.rs;
    if (c.inputs.pretransformed) return false;
    Vec4 p = v[kDePosition];
    D3 n = d3(v[kDeNormal]);
    if (rs.vertexblend == VertexBlend::Tweening) {
        for (int i = 0; i < 4; ++i) p[size_t(i)] = p[size_t(i)] * (1 - rs.tweenfactor) + v[kDePosition2][size_t(i)] * rs.tweenfactor;
        if (c.inputs.has(kDeNormal2)) n = dadd(dscale(n, 1 - rs.tweenfactor), dscale(d3(v[kDeNormal2]), rs.tweenfactor));
    }
    const int nw = rs.vertexblend == VertexBlend::Weights1   ? 1
                   : rs.vertexblend == VertexBlend::Weights2 ? 2
                   : rs.vertexblend == VertexBlend::Weights3 ? 3
                   : rs.vertexblend == VertexBlend::Weights0 ? 0
                                                             : -1;
    const uint32_t count = nw < 0 ? 1u : uint32_t(nw) + 1;
    double w[4] = {1, 0, 0, 0}, sum = 0;
    for (int k = 0; k < nw; ++k) {
        w[k] = v[kDeBlendWeight][size_t(k)];
        sum += w[k];
    }
    if (nw > 0) w[nw] = 1 - sum;
    D3 pe, nc;
    for (uint32_t k = 0; k < count; ++k) {
        const uint32_t idx = (nw >= 0 && rs.indexedvertexblendenable) ? uint32_t(v[kDeBlendIndices][k]) : k;
        const Matrix wv = dmatmul(s.world[idx], s.view);
        pe = dadd(pe, dscale(dmul4(p, wv), w[k]));
        // without blending the normal goes through the inverse transpose (docs/fixed-function.md, choice 1)
        nc = dadd(nc, dscale(dmul3(n, nw < 0 ? normal_matrix(wv) : wv), w[k]));
    }
    const double pl = dlen(pe);
    if (pl < 0.05) return true;  // at the eye: the viewer direction is undefined
    if (c.inputs.has(kDeNormal) && dlen(nc) < 1e-3) return true;
    if (rs.normalizenormals && c.inputs.has(kDeNormal)) nc = dnorm(nc);
    if (!rs.lighting) return false;
    const D3 to_eye = rs.localviewer ? dscale(pe, -1.0 / pl) : D3{0, 0, -1};
    for (const auto& [index, slot] : s.lights) {
        if (!slot.enabled) continue;
        const Light& l = slot.light;
        D3 ldir;
        if (l.type == LightType::Directional) {
            ldir = dnorm(dscale(dmul3(d3(l.direction), s.view), -1));
        } else {
            const D3 lp = dmul4(Vec4{l.position[0], l.position[1], l.position[2], 1}, s.view);
            const D3 vl = dadd(lp, dscale(pe, -1));
            const double d = dlen(vl);
            if (d < 0.05) return true;
            if (std::fabs(d - l.range) < 1e-3 * (1 + l.range)) return true;
            // (no `continue` beyond the range: the program computes the terms and multiplies by 0)
            ldir = dscale(vl, 1 / d);
            if (l.type == LightType::Spot) {
                const double rho = ddot(dnorm(dmul3(d3(l.direction), s.view)), dscale(ldir, -1));
                const double ct = std::cos(double(l.theta) * 0.5), cp = std::cos(double(l.phi) * 0.5);
                if (std::fabs(rho - ct) < 1e-3 || std::fabs(rho - cp) < 1e-3) return true;
            }
        }
        if (!c.inputs.has(kDeNormal)) continue;
        const double ndl = ddot(nc, ldir);
        if (rs.specularenable) {
            if (std::fabs(ndl) < 1e-3) return true;
            const D3 h = dadd(ldir, to_eye);
            if (dlen(h) < 1e-3) return true;
            const double ndh = ddot(nc, dnorm(h));
            if (std::fabs(ndh) < 2e-3) return true;
            // (N.H)^power beyond float's range (a long normal and a large power): the sums are
            // infinite, and inf * 0 (a light out of range, a zero colour component) is NaN in one
            // evaluation order and skipped in another
            if (ndh > 0 && std::pow(ndh, double(s.material.power)) > 1e30) return true;
        }
    }
    return false;
}

// ---------------------------------------------------------------- tolerances (per output)
// Each is about 10 times the worst error seen over seeds 1-6 (the test prints the worst error /
// tolerance ratio per output), and each follows from how the program differs from the reference:
// - position: the program multiplies by WORLD*VIEW*PROJECTION combined on the CPU (the reference
//   by WORLD*VIEW, then PROJECTION), so the float rounding differs by a few ulps of the largest
//   term: 1e-5 of (1 + the largest component of the vector);
// - colours (oD0, oD1, saturated 0..1): rsq-based normalisations, the folded constants (light
//   colours times material colours and constant attenuation) and a reordered sum differ by ulps,
//   and the specular power multiplies a relative error of N.H by the power (up to 400 here):
//   1e-4 absolute, 1/40 of an 8-bit colour step;
// - fog (0..1): expp's result keeps 15 mantissa bits (relative error below 2^-15 = 3.1e-5,
//   vs-isa.md) and the linear form is rearranged (d * -1/(end-start) + end/(end-start)): 1e-4;
// - point size: rsq(x) for sqrt(1/x) and the folded (A, B, C) / (height * size)^2: 2e-6 relative;
// - texture coordinates: the same dot products in the same order as the reference (the rows of
//   TEXTUREn move to match the fetched padding, multiplied by 0 and 1 exactly): 1e-6 of
//   (1 + the largest component).
struct Tolerance {
    double pos = 1e-5, colour = 1e-4, fog = 1e-4, pts = 2e-6, tex = 1e-6;
};

double vec_scale(const Vec4& v) {
    double m = 0;
    for (float f : v) m = std::max(m, double(std::fabs(f)));
    return 1 + m;
}

std::string vtext(const Vec4& v) { return fmt::format("({:.9g}, {:.9g}, {:.9g}, {:.9g})", v[0], v[1], v[2], v[3]); }

// "" when `got` is within tolerance of `want`, else what differs. `worst` collects the largest
// error ratio per output (error / tolerance).
// An output the program does not write (`written`, vs::kOut* bits) is not compared: oD1 when
// nothing reads it (writes_specular(); the caller checks the write follows that rule).
std::string compare(const vs::VertexOutputs& want, const vs::VertexOutputs& got, const Tolerance& tol,
                    std::array<double, 5>& worst, uint32_t written) {
    std::string diff;
    const auto check = [&](const char* name, double a, double b, double limit, int slot) {
        const double err = std::fabs(a - b);
        const double ratio = (std::isnan(a) != std::isnan(b)) ? INFINITY : (std::isnan(a) ? 0 : err / limit);
        worst[size_t(slot)] = std::max(worst[size_t(slot)], ratio);
        if (!(ratio <= 1) && diff.empty()) diff = fmt::format("{}: reference {:.9g}, program {:.9g} (tolerance {:.3g})", name, a, b, limit);
    };
    for (int i = 0; i < 4; ++i) check(fmt::format("oPos.{}", "xyzw"[i]).c_str(), want.pos[size_t(i)], got.pos[size_t(i)], tol.pos * vec_scale(want.pos), 0);
    for (int i = 0; i < 4; ++i) check(fmt::format("oD0.{}", "xyzw"[i]).c_str(), want.d0[size_t(i)], got.d0[size_t(i)], tol.colour, 1);
    if (written & vs::kOutD1)
        for (int i = 0; i < 4; ++i) check(fmt::format("oD1.{}", "xyzw"[i]).c_str(), want.d1[size_t(i)], got.d1[size_t(i)], tol.colour, 1);
    check("oFog", want.fog, got.fog, tol.fog, 2);
    check("oPts", want.pts, got.pts, tol.pts * (1 + std::fabs(want.pts)), 3);
    for (uint32_t t = 0; t < 8; ++t)
        for (int i = 0; i < 4; ++i)
            check(fmt::format("oT{}.{}", t, "xyzw"[i]).c_str(), want.t[t][size_t(i)], got.t[t][size_t(i)],
                  tol.tex * vec_scale(want.t[t]), 4);
    return diff;
}

std::string outputs_text(const vs::VertexOutputs& o) {
    std::string t = fmt::format("oPos {} oD0 {} oD1 {} oFog {:.9g} oPts {:.9g}", vtext(o.pos), vtext(o.d0), vtext(o.d1),
                                o.fog, o.pts);
    for (uint32_t i = 0; i < 8; ++i) t += fmt::format(" oT{} {}", i, vtext(o.t[i]));
    return t;
}

std::string describe_case(const Case& c) {
    const FfState& s = c.state;
    const RenderStates& rs = s.rs;
    std::ostringstream os;
    os << fmt::format("inputs: loaded 0x{:05x} components", c.inputs.loaded);
    for (uint32_t r = 0; r < kNumDe; ++r)
        if (c.inputs.has(r)) os << fmt::format(" v{}:{}", r, c.inputs.components[r]);
    os << (c.inputs.pretransformed ? " pretransformed" : "") << "\n";
    os << fmt::format("caps: lights {} blend matrices {} index {} point {} stages {}\n", c.caps.max_active_lights,
                      c.caps.max_vertex_blend_matrices, c.caps.max_vertex_blend_matrix_index, c.caps.max_point_size,
                      c.caps.max_texture_blend_stages);
    os << fmt::format("render states: lighting {} ambient 0x{:08x} specular {} localviewer {} normalize {} colorvertex {} "
                      "sources d{} s{} a{} e{}\n",
                      rs.lighting, rs.ambient, rs.specularenable, rs.localviewer, rs.normalizenormals, rs.colorvertex,
                      int(rs.diffusematerialsource), int(rs.specularmaterialsource), int(rs.ambientmaterialsource),
                      int(rs.emissivematerialsource));
    os << fmt::format("  fog {} vertex {} table {} range {} start {} end {} density {}\n", rs.fogenable, int(rs.fogvertexmode),
                      int(rs.fogtablemode), rs.rangefogenable, rs.fogstart, rs.fogend, rs.fogdensity);
    os << fmt::format("  vertexblend {} indexed {} tween {}\n", int(rs.vertexblend), rs.indexedvertexblendenable, rs.tweenfactor);
    os << fmt::format("  point size {} min {} max {} scale {} a {} b {} c {} viewport height {}\n", rs.pointsize,
                      rs.pointsize_min, rs.pointsize_max, rs.pointscaleenable, rs.pointscale_a, rs.pointscale_b,
                      rs.pointscale_c, s.viewport.height);
    const Material& m = s.material;
    os << fmt::format("material: diffuse {} ambient {} specular {} emissive {} power {}\n", vtext(m.diffuse), vtext(m.ambient),
                      vtext(m.specular), vtext(m.emissive), m.power);
    for (const auto& [index, slot] : s.lights) {
        const Light& l = slot.light;
        os << fmt::format("light {} {}: type {} diffuse {} specular {} ambient {} position ({}, {}, {}) direction ({}, {}, {}) "
                          "range {} att {} {} {} theta {} phi {} falloff {}\n",
                          index, slot.enabled ? "on" : "off", int(l.type), vtext(l.diffuse), vtext(l.specular),
                          vtext(l.ambient), l.position[0], l.position[1], l.position[2], l.direction[0], l.direction[1],
                          l.direction[2], l.range, l.attenuation0, l.attenuation1, l.attenuation2, l.theta, l.phi, l.falloff);
    }
    for (uint32_t st = 0; st < 8; ++st)
        os << fmt::format("stage {}: texcoordindex 0x{:x} transformflags {}\n", st, s.stages[st].texcoordindex,
                          s.stages[st].texturetransformflags);
    const auto mtext = [](const Matrix& m) {
        std::string t;
        for (float f : m.m) t += fmt::format(" {:.9g}", f);
        return t;
    };
    os << "world0:" << mtext(s.world[0]) << "\nview:" << mtext(s.view) << "\nprojection:" << mtext(s.projection) << "\n";
    return os.str();
}

// ---------------------------------------------------------------- the counts table
// The configurations of docs/fixed-function.md's table: FVF XYZ|NORMAL|TEX1 (2-D), material
// diffuse (0.8, 0.8, 0.8, 1), ambient 0.2, specular 1, power 20, global ambient 0; white lights
// (ambient 0); point and spot lights with attenuation (1, 0.05, 0.01) and range 100, spotlights
// theta 0.5, phi 1, falloff 1.
FfInputs fvf_inputs(bool normal, bool diffuse, uint32_t texsets = 1) {
    FfInputs in;
    load(in, kDePosition, 3);
    if (normal) load(in, kDeNormal, 3);
    if (diffuse) load(in, kDeDiffuse, 4);
    for (uint32_t t = 0; t < texsets; ++t) load(in, kDeTexcoord0 + t, 2);
    return in;
}
FfState table_state() {
    FfState s;
    s.material.diffuse = {0.8f, 0.8f, 0.8f, 1};
    s.material.ambient = {0.2f, 0.2f, 0.2f, 1};
    s.material.specular = {1, 1, 1, 1};
    s.material.power = 20;
    return s;
}
Light table_light(LightType t, uint32_t i) {
    Light l;
    l.type = t;
    l.diffuse = l.specular = {1, 1, 1, 1};
    l.position = {float(i), 5, -5};
    l.direction = {0.1f * float(i), -1, 1};
    l.attenuation0 = 1;
    l.attenuation1 = 0.05f;
    l.attenuation2 = 0.01f;
    l.range = 100;
    l.theta = 0.5f;
    l.phi = 1;
    l.falloff = 1;
    return l;
}
FfState lights_state(LightType t, uint32_t n, bool specular, bool local, bool cheap = false) {
    FfState s = table_state();
    for (uint32_t i = 0; i < n; ++i) {
        Light l = table_light(t, i);
        if (cheap) {  // attenuation (1, 0, 0), range sqrt(FLT_MAX): nothing to compute per vertex
            l.attenuation1 = l.attenuation2 = 0;
            l.range = std::sqrt(FLT_MAX);
        }
        s.lights[i] = {l, true};
    }
    s.rs.specularenable = specular;
    s.rs.localviewer = local;
    return s;
}
// "instructions (slots, words)", or "> 136 words" when refused.
std::string counts(const FfState& s, const FfInputs& in, const Caps& caps = Caps{}, uint32_t consts = 96) {
    try {
        const FfProgram p = compile(s, in, caps, consts);
        return fmt::format("{} ({}, {})", p.instructions, p.slots, p.words);
    } catch (const FfError& e) {
        const std::string w = e.what();
        if (w.find("program memory holds 136") == std::string::npos) throw;
        return "> 136 words";
    }
}

std::string counts_table() {
    std::string t = "| lights (instructions (slots, words)) | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 |\n|---|---|---|---|---|---|---|---|---|\n";
    const FfInputs in = fvf_inputs(true, false);
    const struct {
        const char* name;
        LightType type;
        bool specular, local, cheap = false;
    } rows[] = {
        {"directional, diffuse", LightType::Directional, false, false},
        {"directional, specular, non-local viewer", LightType::Directional, true, false},
        {"directional, specular, local viewer", LightType::Directional, true, true},
        {"point, diffuse", LightType::Point, false, false},
        {"point, specular, non-local viewer", LightType::Point, true, false},
        {"point, specular, local viewer", LightType::Point, true, true},
        {"spot, diffuse", LightType::Spot, false, false},
        {"spot, specular, non-local viewer", LightType::Spot, true, false},
        {"spot, specular, local viewer", LightType::Spot, true, true},
        {"point, diffuse, attenuation (1, 0, 0), no range", LightType::Point, false, false, true},
        {"spot, diffuse, attenuation (1, 0, 0), no range", LightType::Spot, false, false, true},
        {"spot, specular, local viewer, attenuation (1, 0, 0), no range", LightType::Spot, true, true, true},
    };
    for (const auto& r : rows) {
        t += fmt::format("| {} |", r.name);
        for (uint32_t n = 1; n <= 8; ++n)
            t += " " + counts(lights_state(r.type, n, r.specular, r.local, r.cheap), in) + " |";
        t += "\n";
    }
    t += "\n| configuration | instructions (slots, words) |\n|---|---|\n";
    const auto row = [&](const std::string& name, const FfState& s, const FfInputs& i, const Caps& caps = Caps{}) {
        t += fmt::format("| {} | {} |\n", name, counts(s, i, caps));
    };
    {
        FfState s = table_state();
        s.rs.lighting = false;
        row("LIGHTING FALSE, XYZ, DIFFUSE, TEX1", s, fvf_inputs(false, true));
    }
    {
        FfInputs pre;
        load(pre, kDePosition, 4);
        load(pre, kDeDiffuse, 4);
        load(pre, kDeTexcoord0, 2);
        pre.pretransformed = true;
        row("XYZRHW, DIFFUSE, TEX1 (pre-transformed)", table_state(), pre);
    }
    row("lighting, no light enabled", table_state(), in);
    const FfState one = lights_state(LightType::Directional, 1, false, false);
    row("1 directional (the base of the rows below)", one, in);
    {
        FfState s = one;
        s.rs.ambient = 0xFF202020;
        s.material.emissive = {0.1f, 0, 0, 0};
        row("+ global ambient and emissive", s, in);
    }
    {
        FfState s = one;
        s.rs.normalizenormals = true;
        row("+ NORMALIZENORMALS", s, in);
    }
    {
        FfState s = one;
        s.rs.diffusematerialsource = MaterialSource::Color1;
        s.rs.ambientmaterialsource = MaterialSource::Color1;
        row("+ DIFFUSE in the vertex, DIFFUSE- and AMBIENTMATERIALSOURCE COLOR1", s, fvf_inputs(true, true));
    }
    const struct {
        const char* name;
        FogMode mode;
        bool range;
    } fogs[] = {{"LINEAR", FogMode::Linear, false}, {"EXP", FogMode::Exp, false}, {"EXP2", FogMode::Exp2, false},
                {"LINEAR, RANGEFOGENABLE", FogMode::Linear, true}, {"EXP, RANGEFOGENABLE", FogMode::Exp, true},
                {"EXP2, RANGEFOGENABLE", FogMode::Exp2, true}};
    for (const auto& f : fogs) {
        FfState s = one;
        s.rs.fogenable = true;
        s.rs.fogvertexmode = f.mode;
        s.rs.rangefogenable = f.range;
        s.rs.fogstart = 10;
        s.rs.fogend = 100;
        s.rs.fogdensity = 0.02f;
        row(fmt::format("+ vertex fog {}", f.name), s, in);
    }
    const struct {
        const char* name;
        uint32_t tci, flags;
    } gens[] = {{"CAMERASPACENORMAL", kTciCameraSpaceNormal, 0},
                {"CAMERASPACEPOSITION", kTciCameraSpacePosition, 0},
                {"CAMERASPACEREFLECTIONVECTOR", kTciCameraSpaceReflectionVector, 0},
                {"CAMERASPACEREFLECTIONVECTOR, COUNT3 texture transform", kTciCameraSpaceReflectionVector, 3},
                {"TEX1 passed through, COUNT2 texture transform", kTciPassthru, 2}};
    for (const auto& g : gens) {
        FfState s = one;
        s.stages[0].texcoordindex = g.tci;
        s.stages[0].texturetransformflags = g.flags;
        row(fmt::format("+ stage 0 {}", g.name), s, in);
    }
    const struct {
        const char* name;
        VertexBlend vb;
        int weights;
        bool indexed;
    } blends[] = {{"1WEIGHTS (2 matrices), XYZB1", VertexBlend::Weights1, 1, false},
                  {"2WEIGHTS (3 matrices), XYZB2", VertexBlend::Weights2, 2, false},
                  {"3WEIGHTS (4 matrices), XYZB3", VertexBlend::Weights3, 3, false},
                  {"indexed 1WEIGHTS (2 of 9 matrices), XYZB2, LASTBETA_UBYTE4", VertexBlend::Weights1, 1, true},
                  {"indexed 3WEIGHTS (4 of 9 matrices), XYZB4, LASTBETA_UBYTE4", VertexBlend::Weights3, 3, true},
                  {"TWEENING (POSITION2, NORMAL2)", VertexBlend::Tweening, 0, false}};
    for (const auto& b : blends) {
        FfState s = one;
        FfInputs i = in;
        Caps caps;
        s.rs.vertexblend = b.vb;
        if (b.weights > 0) load(i, kDeBlendWeight, uint8_t(b.weights));
        if (b.indexed) {
            s.rs.indexedvertexblendenable = true;
            caps.max_vertex_blend_matrix_index = 8;
            load(i, kDeBlendIndices, 4);
        }
        if (b.vb == VertexBlend::Tweening) {
            load(i, kDePosition2, 3);
            load(i, kDeNormal2, 3);
        }
        row(fmt::format("+ {}", b.name), s, i, caps);
    }
    {
        FfState s = table_state();
        s.rs.lighting = false;
        s.rs.pointscaleenable = true;
        s.rs.pointscale_b = 0.1f;
        FfInputs i = fvf_inputs(false, true, 0);
        row("point sprites: LIGHTING FALSE, POINTSCALEENABLE, XYZ, DIFFUSE", s, i);
        load(i, kDePSize, 1);
        row("point sprites: LIGHTING FALSE, POINTSCALEENABLE, XYZ, PSIZE, DIFFUSE", s, i);
    }
    return t;
}

}  // namespace

// ---------------------------------------------------------------- equivalence

TEST_CASE("ff program equals the reference processor on random states and vertices (interpreter and fast path)",
          "[ff][compile][random]") {
    SplitMix64 rng(test_seed("ff program vs reference"));
    const Tolerance tol;
    std::array<double, 5> worst{};
    uint32_t pairs = 0, states = 0, refused = 0, redrawn = 0;
    uint64_t slots = 0;
    while (pairs < 12000) {
        const Case c = rand_case(rng);
        Runnable r;
        try {
            r = make_runnable(c.state, c.inputs, c.caps);
        } catch (const FfError& e) {
            // only the documented limits: MaxActiveLights is 8 here, so 128 slots or constants
            const std::string what = e.what();
            INFO(describe_case(c));
            INFO(what);
            REQUIRE((what.find("program memory") != std::string::npos || what.find("constant registers") != std::string::npos));
            ++refused;
            continue;
        }
        ++states;
        slots += r.prog.slots;
        INFO(format_program(r.prog));
        REQUIRE(r.prog.shader.warnings.empty());  // (validation: compile() refuses any diagnostic)
        REQUIRE(r.prog.words <= 136);
        constexpr size_t kVertices = 16;
        std::vector<FfRegisters> verts;
        std::vector<vs::Vec4> inputs;
        for (size_t i = 0; i < kVertices; ++i) {
            FfRegisters v = rand_vertex(rng, c);
            for (int tries = 0; tries < 50 && near_edge(c, v); ++tries) {
                v = rand_vertex(rng, c);
                ++redrawn;
            }
            if (near_edge(c, v)) continue;
            verts.push_back(v);
            const auto in = program_inputs(r.prog, v);
            inputs.insert(inputs.end(), in.begin(), in.end());
        }
        std::vector<vs::VertexOutputs> fast(verts.size());
        vs::run_fast(r.fast, r.constants, inputs.data(), fast.data(), verts.size());
        for (size_t i = 0; i < verts.size(); ++i) {
            const FfRegisters& v = verts[i];
            const vs::VertexOutputs want = process_vertex(c.state, c.inputs, v, c.caps);
            const vs::VertexOutputs interp = vs::execute_reference(r.program, r.profile, program_inputs(r.prog, v), r.constants);
            std::string vtxt;
            for (uint32_t reg = 0; reg < kNumDe; ++reg)
                if (c.inputs.has(reg)) vtxt += fmt::format("  v{} {}\n", reg, vtext(v[reg]));
            INFO("state:\n" << describe_case(c) << "vertex:\n" << vtxt << "program:\n" << format_program(r.prog));
            REQUIRE(bool(r.prog.outputs_written & vs::kOutD1) == writes_specular(c.state, c.inputs));
            const std::string d1 = compare(want, interp, tol, worst, r.prog.outputs_written);
            INFO("reference: " << outputs_text(want) << "\nprogram:   " << outputs_text(interp));
            INFO("interpreter: " << d1);
            REQUIRE(d1.empty());
            INFO("fast path vs interpreter: bit-identical");
            REQUIRE(vs::same_bits(interp, fast[i]));
            ++pairs;
        }
    }
    std::cout << fmt::format("ff program vs reference: {} state x vertex pairs, {} states ({} refused for vs.1.1 limits), "
                             "{} vertices redrawn near an edge, mean {:.1f} slots; worst error / tolerance: position {:.3f}, "
                             "colours {:.3f}, fog {:.3f}, point size {:.3f}, texcoords {:.3f}\n",
                             pairs, states, refused, redrawn, double(slots) / states, worst[0], worst[1], worst[2], worst[3],
                             worst[4]);
    CHECK(states > 500);
    CHECK(refused < states / 5);  // 8 lights with specular, spotlights and every option pass 128 slots
}

// ---------------------------------------------------------------- instruction counts

// PINNED-BEGIN
const char* const kPinnedCounts = R"(| lights (instructions (slots, words)) | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 |
|---|---|---|---|---|---|---|---|---|
| directional, diffuse | 4 (7, 7) | 9 (12, 12) | 12 (15, 15) | 15 (18, 18) | 18 (21, 21) | 21 (24, 24) | 24 (27, 27) | 27 (30, 30) |
| directional, specular, non-local viewer | 8 (11, 10) | 15 (18, 16) | 20 (23, 20) | 25 (28, 25) | 30 (33, 30) | 35 (38, 35) | 40 (43, 40) | 45 (48, 45) |
| directional, specular, local viewer | 16 (19, 16) | 27 (30, 25) | 36 (39, 32) | 45 (48, 40) | 54 (57, 48) | 63 (66, 56) | 72 (75, 64) | 81 (84, 72) |
| point, diffuse | 15 (18, 16) | 27 (30, 26) | 39 (42, 37) | 51 (54, 48) | 63 (66, 59) | 75 (78, 70) | 87 (90, 81) | 99 (102, 92) |
| point, specular, non-local viewer | 23 (26, 22) | 41 (44, 36) | 59 (62, 51) | 77 (80, 66) | 95 (98, 81) | 113 (116, 96) | 131 (134, 111) | 149 (152, 126) |
| point, specular, local viewer | 27 (30, 25) | 45 (48, 39) | 63 (66, 54) | 81 (84, 69) | 99 (102, 84) | 117 (120, 99) | 135 (138, 114) | 153 (156, 129) |
| spot, diffuse | 19 (22, 19) | 35 (38, 33) | 51 (54, 47) | 67 (70, 61) | 83 (86, 75) | 99 (102, 89) | 115 (118, 103) | 131 (134, 117) |
| spot, specular, non-local viewer | 28 (31, 26) | 51 (54, 44) | 74 (77, 63) | 97 (100, 82) | 120 (123, 101) | 143 (146, 120) | > 136 words | > 136 words |
| spot, specular, local viewer | 32 (35, 29) | 55 (58, 47) | 78 (81, 66) | 101 (104, 85) | 124 (127, 104) | 147 (150, 123) | > 136 words | > 136 words |
| point, diffuse, attenuation (1, 0, 0), no range | 8 (11, 10) | 17 (20, 18) | 24 (27, 25) | 31 (34, 32) | 38 (41, 39) | 45 (48, 46) | 52 (55, 53) | 59 (62, 60) |
| spot, diffuse, attenuation (1, 0, 0), no range | 14 (17, 15) | 25 (28, 25) | 36 (39, 35) | 47 (50, 45) | 58 (61, 55) | 69 (72, 65) | 80 (83, 75) | 91 (94, 85) |
| spot, specular, local viewer, attenuation (1, 0, 0), no range | 27 (30, 25) | 45 (48, 39) | 63 (66, 54) | 81 (84, 69) | 99 (102, 84) | 117 (120, 99) | 135 (138, 114) | 153 (156, 129) |

| configuration | instructions (slots, words) |
|---|---|
| LIGHTING FALSE, XYZ, DIFFUSE, TEX1 | 3 (6, 6) |
| XYZRHW, DIFFUSE, TEX1 (pre-transformed) | 3 (3, 3) |
| lighting, no light enabled | 3 (6, 6) |
| 1 directional (the base of the rows below) | 4 (7, 7) |
| + global ambient and emissive | 7 (10, 10) |
| + NORMALIZENORMALS | 7 (10, 9) |
| + DIFFUSE in the vertex, DIFFUSE- and AMBIENTMATERIALSOURCE COLOR1 | 7 (10, 10) |
| + vertex fog LINEAR | 7 (10, 10) |
| + vertex fog EXP | 9 (12, 11) |
| + vertex fog EXP2 | 9 (12, 11) |
| + vertex fog LINEAR, RANGEFOGENABLE | 9 (14, 13) |
| + vertex fog EXP, RANGEFOGENABLE | 11 (16, 15) |
| + vertex fog EXP2, RANGEFOGENABLE | 9 (14, 13) |
| + stage 0 CAMERASPACENORMAL | 6 (11, 11) |
| + stage 0 CAMERASPACEPOSITION | 6 (11, 11) |
| + stage 0 CAMERASPACEREFLECTIONVECTOR | 12 (19, 18) |
| + stage 0 CAMERASPACEREFLECTIONVECTOR, COUNT3 texture transform | 13 (23, 23) |
| + stage 0 TEX1 passed through, COUNT2 texture transform | 4 (10, 10) |
| + 1WEIGHTS (2 matrices), XYZB1 | 12 (22, 22) |
| + 2WEIGHTS (3 matrices), XYZB2 | 16 (31, 31) |
| + 3WEIGHTS (4 matrices), XYZB3 | 20 (40, 40) |
| + indexed 1WEIGHTS (2 of 9 matrices), XYZB2, LASTBETA_UBYTE4 | 18 (29, 28) |
| + indexed 3WEIGHTS (4 of 9 matrices), XYZB4, LASTBETA_UBYTE4 | 28 (47, 46) |
| + TWEENING (POSITION2, NORMAL2) | 9 (14, 14) |
| point sprites: LIGHTING FALSE, POINTSCALEENABLE, XYZ, DIFFUSE | 10 (15, 15) |
| point sprites: LIGHTING FALSE, POINTSCALEENABLE, XYZ, PSIZE, DIFFUSE | 11 (16, 16) |
)";
// PINNED-END

TEST_CASE("ff program instruction counts: the table of docs/fixed-function.md", "[ff][compile][counts]") {
    const std::string table = counts_table();
    // VPSIM_FF_COUNTS_OUT=FILE writes the generated table (to update the pinned one and the docs
    // after a deliberate change to the generator).
    if (const char* out = std::getenv("VPSIM_FF_COUNTS_OUT")) std::ofstream(out) << table;
    // The pinned table (also in docs/fixed-function.md, "Fixed function as vertex programs").
    const std::string pinned = kPinnedCounts;
    INFO("generated:\n" << table);
    CHECK(table == pinned);
    std::ifstream doc(std::string(VPSIM_SOURCE_DIR) + "/docs/fixed-function.md");
    REQUIRE(doc.good());
    std::stringstream text;
    text << doc.rdbuf();
    const std::string d = text.str();
    const size_t section = d.find("## Fixed function as vertex programs");
    REQUIRE(section != std::string::npos);
    INFO("docs/fixed-function.md must hold the pinned table in its section \"Fixed function as vertex programs\"");
    CHECK(d.find(pinned, section) != std::string::npos);
}

TEST_CASE("ff program instruction counts: directional lights by hand", "[ff][compile][counts]") {
    // XYZ|NORMAL|TEX1, n directional lights, diffuse only, material colours, global ambient 0,
    //   identity world and view (lighting in object space: the normal is not transformed):
    //   m4x4 oPos (4 slots), per light dp3 N.L, max, mad (the first a mul, the last writing
    //   oD0.xyz), mov oD0.w (diffuse alpha), mov oT0 (SPECULARENABLE FALSE, fog off and D3D8's
    //   default texture stages: nothing reads oD1, not written; FOGENABLE FALSE: no oFog):
    //   3 + 3n instructions, 6 + 3n slots.
    //   One light is one term of an opaque material: the output clamp does the max's work and
    //   oD0.w keeps its start value 1 (clamp_diffuse): m4x4, dp3, mul oD0.xyz, mov oT0 =
    //   4 instructions, 7 slots, 7 words.
    {
        const FfProgram p = compile(lights_state(LightType::Directional, 1, false, false), fvf_inputs(true, false), Caps{}, 96);
        INFO(format_program(p));
        CHECK(p.instructions == 4);
        CHECK(p.slots == 7);
        CHECK(p.words == 7);
        CHECK(p.assembly.find("mul oD0.xyz, r8.x, c") != std::string::npos);
    }
    for (uint32_t n = 2; n <= 8; ++n) {
        const FfProgram p = compile(lights_state(LightType::Directional, n, false, false), fvf_inputs(true, false), Caps{}, 96);
        const std::string text = format_program(p);
        INFO(text);
        CHECK(p.instructions == 3 + 3 * n);
        CHECK(p.slots == 6 + 3 * n);
        CHECK(p.words == p.slots);  // no scalar-unit operation to pair
        // the printed form ends with the counts
        CHECK(text.size() > 40);
        CHECK(text.substr(text.rfind(';')) ==
              fmt::format("; {} instructions, {} slots, {} instruction words\n", 3 + 3 * n, 6 + 3 * n, 6 + 3 * n));
        CHECK(text.find("; light 0 (directional, index 0): N.L") != std::string::npos);
    }
    // Specular with a non-local viewer adds per light dp3 N.H (H constant), lit for max, the
    // specular mad, and once mov r8.w (the power): 5n + 2 + 4 - 1 (oD1 from the specular sum,
    // plus mov oD1.w) = 5n + 5; one light writes oD0 and oD1 each with its alpha in one mul: 8.
    for (uint32_t n = 1; n <= 8; ++n) {
        const FfProgram p = compile(lights_state(LightType::Directional, n, true, false), fvf_inputs(true, false), Caps{}, 96);
        INFO(format_program(p));
        CHECK(p.instructions == (n == 1 ? 8 : 5 * n + 5));
    }
}

// ---------------------------------------------------------------- refusals

TEST_CASE("ff program refusals name the limit", "[ff][compile][refusal]") {
    const FfInputs in = fvf_inputs(true, false);
    SECTION("indexed blending: the palette does not fit the constant registers") {
        FfState s = lights_state(LightType::Directional, 1, false, false);
        s.rs.vertexblend = VertexBlend::Weights1;
        s.rs.indexedvertexblendenable = true;
        FfInputs i = in;
        load(i, kDeBlendWeight, 1);
        load(i, kDeBlendIndices, 4);
        Caps caps;
        caps.max_vertex_blend_matrix_index = 31;  // 32 matrices x 3 = 96 registers: no room for the rest
        try {
            compile(s, i, caps, 96);
            FAIL("no refusal");
        } catch (const FfError& e) {
            const std::string w = e.what();
            INFO(w);
            CHECK(w.find("constant registers but the device has 96") != std::string::npos);
            CHECK(w.find("MaxVertexBlendMatrixIndex + 1 = 32") != std::string::npos);
        }
        // 20 matrices (60 registers) fit in 96
        caps.max_vertex_blend_matrix_index = 19;
        const FfProgram p = compile(s, i, caps, 96);
        CHECK(p.constants.size() <= 96);
        // ... and not in a 64-register device
        CHECK_THROWS_AS(compile(s, i, caps, 64), FfError);
    }
    SECTION("more instruction words than the program memory holds") {
        Caps caps;
        caps.program_words = 60;
        try {
            compile(lights_state(LightType::Spot, 4, true, true), in, caps, 96);
            FAIL("no refusal");
        } catch (const FfError& e) {
            const std::string w = e.what();
            INFO(w);
            CHECK(w.find("instruction words") != std::string::npos);
            CHECK(w.find("program memory holds 60 (fixed_function.program_words)") != std::string::npos);
        }
    }
    SECTION("more than vs.1.1's 128 slots fit when the program memory holds them") {
        const FfProgram p = compile(lights_state(LightType::Spot, 6, true, true), in, Caps{}, 96);
        INFO(format_program(p));
        CHECK(p.slots > 128);
        CHECK(p.words <= 136);
    }
    SECTION("more lights than MaxActiveLights (check_drawable)") {
        Caps caps;
        caps.max_active_lights = 2;
        CHECK_THROWS_WITH(compile(lights_state(LightType::Directional, 3, false, false), in, caps, 96),
                          Catch::Contains("MaxActiveLights is 2"));
    }
    SECTION("tweening normals with all 16 input registers loaded: no register for NORMAL2") {
        FfState s = lights_state(LightType::Directional, 1, false, false);
        s.rs.vertexblend = VertexBlend::Tweening;
        FfInputs i = in;
        for (uint32_t r = 0; r < kNumDe; ++r) load(i, r, r == kDeBlendIndices ? 4 : 3);
        CHECK_THROWS_WITH(compile(s, i, Caps{}, 96), Catch::Contains("NORMAL2") && Catch::Contains("all 16"));
        // with a free register NORMAL2 is read from it
        i.loaded &= ~(1u << 12);  // TEXCOORD5 (v12) absent
        const FfProgram p = compile(s, i, Caps{}, 96);
        CHECK(p.input_map[kDeNormal2] == 12);
        CHECK(p.input_map[12] == -1);
    }
}


// ---------------------------------------------------------------- hand-computed cases

namespace {
vs::VertexOutputs run_one(const FfState& s, const FfInputs& in, const FfRegisters& v,
                          vs::Profile::OutputDefaults outputs = vs::Profile::OutputDefaults::D3D8) {
    const Runnable r = make_runnable(s, in, Caps{}, 96, outputs);
    INFO(format_program(r.prog));
    return vs::execute_reference(r.program, r.profile, program_inputs(r.prog, v), r.constants);
}
}  // namespace

TEST_CASE("ff program: a material power beyond lit's clamp gives (N.H)^P", "[ff][compile]") {
    // Identity transforms, a directional light along +z (L = (0, 0, -1)), a non-local viewer
    // (H = norm(L + (0, 0, -1)) = (0, 0, -1)), N = (0.14106736, 0, -0.99) (unit length), so
    // N.L = N.H = 0.99. Specular = Ls * Cs * 0.99^200 = e^(200 ln 0.99) = 0.1339797 (lit's clamp at
    // 127.9961 would give 0.99^127.9961 = 0.2763); diffuse = 0.99 * Cd * Ld.
    FfState s;
    Light l;
    l.type = LightType::Directional;
    l.direction = {0, 0, 1};
    l.diffuse = {1, 1, 1, 1};
    l.specular = {1, 0.5f, 1, 1};
    s.lights[0] = {l, true};
    s.material.diffuse = {0.5f, 0.25f, 1, 0.75f};
    s.material.specular = {1, 1, 0.5f, 0.375f};
    s.material.power = 200;
    s.rs.specularenable = true;
    s.rs.localviewer = false;
    const FfInputs in = fvf_inputs(true, false, 0);
    FfRegisters v{};
    v[kDePosition] = {1, 2, 3, 1};
    v[kDeNormal] = {0.14106736f, 0, -0.99f, 1};
    const vs::VertexOutputs o = run_one(s, in, v);
    CHECK(o.d1[0] == Approx(0.1339797).epsilon(1e-5));
    CHECK(o.d1[1] == Approx(0.1339797 * 0.5).epsilon(1e-5));
    CHECK(o.d1[2] == Approx(0.1339797 * 0.5).epsilon(1e-5));
    CHECK(o.d1[3] == 0.375f);  // the specular source's alpha
    CHECK(o.d0[0] == Approx(0.99 * 0.5).epsilon(1e-6));
    CHECK(o.d0[1] == Approx(0.99 * 0.25).epsilon(1e-6));
    CHECK(o.d0[2] == Approx(0.99).epsilon(1e-6));
    CHECK(o.d0[3] == 0.75f);  // the diffuse source's alpha
    CHECK(o.pos == vs::Vec4{1, 2, 3, 1});
}

// ---------------------------------------------------------------- the output clamp instead of max(N.L, 0)

namespace {
// One directional light, diffuse only (the counts table's: identity world and view, light along
// table_light's direction, material diffuse (0.8, 0.8, 0.8, 1), white light, global ambient 0).
FfState one_diffuse_light() { return lights_state(LightType::Directional, 1, false, false); }
// A vertex whose normal makes N.L = nl with the light's (object-space) direction.
FfRegisters facing(const FfState& s, float nl) {
    const Vec3 d = s.lights.at(0).light.direction;
    const float len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    FfRegisters v{};
    v[kDePosition] = {1, 2, 3, 1};
    v[kDeNormal] = {-d[0] / len * nl, -d[1] / len * nl, -d[2] / len * nl, 1};  // L = -direction
    v[kDeTexcoord0] = {0.25f, 0.5f, 0, 1};
    return v;
}
// The program's oD0 against the reference processor's (both saturated) at N.L = nl.
void check_d0(const FfState& s, float nl, vs::Profile::OutputDefaults outputs = vs::Profile::OutputDefaults::D3D8) {
    const FfInputs in = fvf_inputs(true, false);
    const FfRegisters v = facing(s, nl);
    const vs::VertexOutputs want = process_vertex(s, in, v, Caps{});
    const vs::VertexOutputs got = run_one(s, in, v, outputs);
    INFO("N.L = " << nl);
    for (size_t c = 0; c < 4; ++c) CHECK(got.d0[c] == Approx(want.d0[c]).margin(1e-6));
}
}  // namespace

TEST_CASE("ff clamp: one diffuse light of an opaque material is dp3 and mul, the output clamp doing max(N.L, 0)",
          "[ff][compile][clamp]") {
    const FfState s = one_diffuse_light();
    const FfProgram p = compile(s, fvf_inputs(true, false), Caps{}, 96);
    INFO(format_program(p));
    // m4x4 oPos, dp3 r8.x, mul oD0.xyz, mov oT0 (no oD1: nothing reads it)
    CHECK(p.instructions == 4);
    CHECK(p.slots == 7);
    CHECK(p.assembly.find("max ") == std::string::npos);
    CHECK(p.assembly.find("lit ") == std::string::npos);
    CHECK(p.assembly.find("oD0.w") == std::string::npos);
    CHECK(p.assembly.find("mul oD0.xyz, r8.x, c") != std::string::npos);
    // lit, facing away (sat of a negative product is 0, as max gives), edge-on, and overbright
    for (const float nl : {0.5f, -0.5f, -1.0f, 0.0f, 3.0f}) check_d0(s, nl);
    const vs::VertexOutputs away = run_one(s, fvf_inputs(true, false), facing(s, -0.5f));
    CHECK(away.d0 == vs::Vec4{0, 0, 0, 1});  // alpha: the material's 1, oD0's start value
}

TEST_CASE("ff clamp: a negative light colour keeps max(N.L, 0)", "[ff][compile][clamp]") {
    // Cd*Ld.r < 0: facing away, -0.8 * -0.5 would be +0.4 without the max; D3D8 adds nothing.
    FfState s = one_diffuse_light();
    s.lights.at(0).light.diffuse = {-1, 1, 1, 1};
    const FfProgram p = compile(s, fvf_inputs(true, false), Caps{}, 96);
    INFO(format_program(p));
    CHECK(p.assembly.find("lit r9, r8.xxxx") != std::string::npos);
    for (const float nl : {0.5f, -0.5f}) check_d0(s, nl);
}

TEST_CASE("ff clamp: an ambient term keeps max(N.L, 0)", "[ff][compile][clamp]") {
    // Ca*Ga = 0.2 * 0.2: facing away, 0.04 - 0.4 would clamp to 0 without the max.
    FfState s = one_diffuse_light();
    s.rs.ambient = 0xFF333333u;
    const FfProgram p = compile(s, fvf_inputs(true, false), Caps{}, 96);
    INFO(format_program(p));
    CHECK(p.assembly.find("max r9.y, r8.x") != std::string::npos);
    for (const float nl : {0.5f, -0.5f}) check_d0(s, nl);
}

TEST_CASE("ff clamp: a diffuse alpha below 1 is still written", "[ff][compile][clamp]") {
    FfState s = one_diffuse_light();
    s.material.diffuse[3] = 0.5f;
    const FfProgram p = compile(s, fvf_inputs(true, false), Caps{}, 96);
    INFO(format_program(p));
    CHECK(p.assembly.find("mul oD0, r9.yyyw, c") != std::string::npos);  // lit's w = 1 carries it
    for (const float nl : {0.5f, -0.5f}) check_d0(s, nl);
    CHECK(run_one(s, fvf_inputs(true, false), facing(s, 0.5f)).d0[3] == 0.5f);
}

TEST_CASE("ff clamp: with zero output start values (outputs=zero) the alpha is written", "[ff][compile][clamp]") {
    const FfState s = one_diffuse_light();
    const FfProgram p = compile(s, fvf_inputs(true, false), Caps{}, 96, vs::Profile::OutputDefaults::Zero);
    INFO(format_program(p));
    CHECK(p.assembly.find("mul oD0, r9.yyyw, c") != std::string::npos);
    for (const float nl : {0.5f, -0.5f}) check_d0(s, nl, vs::Profile::OutputDefaults::Zero);
    CHECK(run_one(s, fvf_inputs(true, false), facing(s, 0.5f), vs::Profile::OutputDefaults::Zero).d0[3] == 1.0f);
}

TEST_CASE("ff program: vertex fog EXP and EXP2 through expp", "[ff][compile]") {
    // Identity transforms: camera-space z = 10. EXP with density 0.1: e^-1 = 0.3678794;
    // EXP2 with density 0.05: e^-(0.5^2) = 0.7788008; expp keeps 15 mantissa bits (1e-4).
    FfState s;
    s.rs.lighting = false;
    s.rs.fogenable = true;
    FfRegisters v{};
    v[kDePosition] = {3, -4, 10, 1};
    const FfInputs in = fvf_inputs(false, false, 0);
    s.rs.fogvertexmode = FogMode::Exp;
    s.rs.fogdensity = 0.1f;
    CHECK(run_one(s, in, v).fog == Approx(0.3678794).margin(1e-4));
    s.rs.fogvertexmode = FogMode::Exp2;
    s.rs.fogdensity = 0.05f;
    CHECK(run_one(s, in, v).fog == Approx(0.7788008).margin(1e-4));
    // RANGEFOGENABLE: the distance is |P| = sqrt(9 + 16 + 100) = 11.18034: e^-(0.559017^2) = 0.7316156
    s.rs.rangefogenable = true;
    CHECK(run_one(s, in, v).fog == Approx(0.7316156).margin(1e-4));
    // LINEAR 5..25 with |z| = 10: (25 - 10) / 20 = 0.75
    s.rs.rangefogenable = false;
    s.rs.fogvertexmode = FogMode::Linear;
    s.rs.fogstart = 5;
    s.rs.fogend = 25;
    CHECK(run_one(s, in, v).fog == Approx(0.75).margin(1e-6));
}

// ---------------------------------------------------------------- packing into instruction words

TEST_CASE("ff packing: a scalar operation shares the word of an independent vector operation", "[ff][compile][words]") {
    // rsq r1.w depends on nothing before it; mov oT0 is independent of it: one word.
    const Packing p = pack({{"dp3", "r0.x", {"v3", "c0"}}, {"rsq", "r1.w", {"r2.w"}}, {"mov", "oT0", {"v7"}}});
    CHECK(p.words == 2);
    CHECK(p.pairs == 1);
    CHECK(p.order == std::vector<size_t>{0, 1, 2});
    CHECK(p.joins == std::vector<bool>{false, true, false});
}

TEST_CASE("ff packing: a scalar operation does not share the word of the operation it reads", "[ff][compile][words]") {
    // rsq reads r0.x, which the dp3 writes: separate words; the later mov pairs with the rsq.
    const Packing p = pack({{"dp3", "r0.x", {"v3", "c0"}}, {"rsq", "r1.w", {"r0.x"}}, {"mov", "oT0", {"v7"}}});
    CHECK(p.words == 2);
    CHECK(p.order == std::vector<size_t>{0, 1, 2});
    CHECK(p.joins == std::vector<bool>{false, false, true});
}

TEST_CASE("ff packing: a word reads one input register", "[ff][compile][words]") {
    // lit reads only a temp: beside the dp3 the word reads one input (v3).
    const Packing ok = pack({{"dp3", "r0.x", {"v3", "c0"}}, {"lit", "r1", {"r2"}}});
    CHECK(ok.pairs == 1);
    // rcp reading v4 beside a dp3 reading v3: two input registers, no pair.
    const Packing two = pack({{"dp3", "r0.x", {"v3", "c0"}}, {"rcp", "r1.x", {"v4.x"}}});
    CHECK(two.pairs == 0);
    CHECK(two.words == 2);
}

TEST_CASE("ff program: NVIDIA's 17 point lights fit its 126 instructions within 10 %", "[ff][compile][counts]") {
    // Tom's Hardware's table of NVIDIA's counts, "17 simple point light sources | 126" (one
    // operation per instruction, as vpsim's slots): the configuration of ff_published.cpp.
    const auto rows = published_counts();
    REQUIRE(rows.size() == 3);
    const PublishedCount& r = rows[2];
    const FfProgram p = compile(r.state, r.inputs, r.caps, 96);
    INFO(format_program(p));
    CHECK(std::abs(double(p.slots) - r.instructions) <= 0.1 * r.instructions);
}

// ---------------------------------------------------------------- dead outputs: oD1 (writes_specular)

namespace {
// The one-light state (SPECULARENABLE FALSE, fog off, no vertex SPECULAR) with `stage` blending.
struct SpecularCase {
    FfProgram prog;
    vs::VertexOutputs out;  // the program's outputs for a lit vertex
};
SpecularCase specular_case(const FfState& s) {
    const FfInputs in = fvf_inputs(true, false);
    SpecularCase c{compile(s, in, Caps{}, 96), run_one(s, in, facing(s, 0.5f))};
    return c;
}
bool writes_od1(const FfProgram& p) {
    return (p.outputs_written & vs::kOutD1) && p.assembly.find("oD1") != std::string::npos;
}
}  // namespace

TEST_CASE("ff dead outputs: D3D8's default texture stages do not read oD1, so it is not written", "[ff][compile][dead]") {
    const FfState s = one_diffuse_light();  // stage 0 MODULATE(TEXTURE, CURRENT), SELECTARG1(TEXTURE); stage 1 DISABLE
    const SpecularCase c = specular_case(s);
    INFO(format_program(c.prog));
    CHECK_FALSE(writes_specular(s, fvf_inputs(true, false)));
    CHECK_FALSE(writes_od1(c.prog));
    CHECK(c.prog.assembly.find("oD1 is not written") != std::string::npos);
    CHECK(c.out.d1 == vs::Vec4{0, 0, 0, 1});  // the engine's start value, not D3D8's (0, 0, 0, 0)
}

TEST_CASE("ff dead outputs: an enabled stage reading D3DTA_SPECULAR keeps the oD1 write", "[ff][compile][dead]") {
    FfState s = one_diffuse_light();
    s.stages[1].colorop = kTopModulate;
    s.stages[1].colorarg2 = kTaSpecular | kTaComplement;  // a modifier still reads the specular colour
    const SpecularCase c = specular_case(s);
    INFO(format_program(c.prog));
    CHECK(writes_od1(c.prog));
    CHECK(c.out.d1 == vs::Vec4{0, 0, 0, 0});  // D3D8's value: no vertex specular
}

TEST_CASE("ff dead outputs: an alpha argument D3DTA_SPECULAR keeps the oD1 write", "[ff][compile][dead]") {
    FfState s = one_diffuse_light();
    s.stages[0].alphaarg1 = kTaSpecular | kTaAlphaReplicate;  // ALPHAOP SELECTARG1 reads ARG1
    const SpecularCase c = specular_case(s);
    INFO(format_program(c.prog));
    CHECK(writes_od1(c.prog));
    CHECK(c.out.d1 == vs::Vec4{0, 0, 0, 0});
}

TEST_CASE("ff dead outputs: SELECTARG1 with SPECULAR in ARG2 does not write oD1", "[ff][compile][dead]") {
    FfState s = one_diffuse_light();
    s.stages[0].colorop = kTopSelectArg1;
    s.stages[0].colorarg2 = kTaSpecular;
    s.stages[0].alphaarg2 = kTaSpecular;  // ALPHAOP SELECTARG1 (the default) does not read it either
    const SpecularCase c = specular_case(s);
    INFO(format_program(c.prog));
    CHECK_FALSE(writes_od1(c.prog));
    s.stages[0].colorop = kTopSelectArg2;  // the same argument, now read
    CHECK(writes_od1(specular_case(s).prog));
}

TEST_CASE("ff dead outputs: a stage after the first COLOROP DISABLE reading SPECULAR does not write oD1",
          "[ff][compile][dead]") {
    FfState s = one_diffuse_light();
    s.stages[1].colorop = kTopDisable;  // D3D8's default: stage 1 and every later one are off
    s.stages[2].colorop = kTopModulate;
    s.stages[2].colorarg1 = kTaSpecular;
    s.stages[2].alphaop = kTopSelectArg1;
    s.stages[2].alphaarg1 = kTaSpecular;
    const SpecularCase c = specular_case(s);
    INFO(format_program(c.prog));
    CHECK_FALSE(writes_od1(c.prog));
}

TEST_CASE("ff dead outputs: fog from the specular alpha keeps the oD1 write", "[ff][compile][dead]") {
    FfState s = one_diffuse_light();
    s.rs.fogenable = true;  // FOGVERTEXMODE NONE: the fog factor is the specular alpha
    const SpecularCase c = specular_case(s);
    INFO(format_program(c.prog));
    CHECK(writes_od1(c.prog));
    s.rs.fogvertexmode = FogMode::Linear;  // vertex fog: the factor is computed, oD1 not read
    CHECK_FALSE(writes_od1(specular_case(s).prog));
}

TEST_CASE("ff dead outputs: SPECULARENABLE TRUE keeps the oD1 write", "[ff][compile][dead]") {
    FfState s = one_diffuse_light();
    s.rs.specularenable = true;
    CHECK(writes_od1(specular_case(s).prog));
}
