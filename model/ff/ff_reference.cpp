// The reference fixed-function vertex processor (ff_reference.h): D3D8's documented equations in
// float32, one vertex at a time. docs/fixed-function.md gives each equation, the D3D8 page it
// follows, and vpsim's choices where D3D8 is silent or contradicts what Windows did; the comments
// here name the page and the choice, not the reasons again.
#include "model/ff/ff_reference.h"

#include "model/ff/ff_math.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace vpsim::ff {

namespace {

// ---------------------------------------------------------------- small float32 vector algebra

Vec3 add(const Vec3& a, const Vec3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Vec3 scale(const Vec3& a, float s) { return {a[0] * s, a[1] * s, a[2] * s}; }
float length(const Vec3& a) { return std::sqrt(dot(a, a)); }
Vec3 xyz(const Vec4& v) { return {v[0], v[1], v[2]}; }


// Saturation as vs::VertexOutputs has it (vs_interp.cpp): NaN -> +0, -0 -> +0.
float saturate(float f) {
    if (f > 0.0f) return f < 1.0f ? f : 1.0f;
    return 0.0f;
}
Color saturate(const Color& c) { return {saturate(c[0]), saturate(c[1]), saturate(c[2]), saturate(c[3])}; }

const char* blend_name(VertexBlend b) {
    switch (b) {
        case VertexBlend::Disable: return "D3DVBF_DISABLE";
        case VertexBlend::Weights1: return "D3DVBF_1WEIGHTS";
        case VertexBlend::Weights2: return "D3DVBF_2WEIGHTS";
        case VertexBlend::Weights3: return "D3DVBF_3WEIGHTS";
        case VertexBlend::Tweening: return "D3DVBF_TWEENING";
        case VertexBlend::Weights0: return "D3DVBF_0WEIGHTS";
    }
    return "D3DVBF_?";
}

// A float as a user wrote it: 9, 2.5, nan.
std::string number(float f) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", double(f));
    return buf;
}

uint32_t enabled_lights(const FfState& s) {
    uint32_t n = 0;
    for (const auto& [index, slot] : s.lights) n += slot.enabled ? 1u : 0u;
    return n;
}

std::string reg_name(uint32_t r) {
    static const char* const names[kNumDe] = {"POSITION",  "BLENDWEIGHT", "BLENDINDICES", "NORMAL",    "PSIZE",
                                              "DIFFUSE",   "SPECULAR",    "TEXCOORD0",    "TEXCOORD1", "TEXCOORD2",
                                              "TEXCOORD3", "TEXCOORD4",   "TEXCOORD5",    "TEXCOORD6", "TEXCOORD7",
                                              "POSITION2", "NORMAL2"};
    return std::string(names[r]) + " register (D3DVSDE_" + names[r] + ", v" + std::to_string(r) + ")";
}

// Lighting is in effect: LIGHTING TRUE and the vertex is transformed by the pipeline.
bool lighting_on(const FfState& s, const FfInputs& in) { return s.rs.lighting && !in.pretransformed; }

// Vertex fog computed from the distance: FOGENABLE, no per-pixel (table) fog, a vertex fog mode.
bool vertex_fog_on(const FfState& s, const FfInputs& in) {
    return s.rs.fogenable && s.rs.fogtablemode == FogMode::None && s.rs.fogvertexmode != FogMode::None &&
           !in.pretransformed;
}

// D3DTTFF count (COUNT1 counts as DISABLE, as NVIDIA drivers did).
uint32_t transform_count(uint32_t flags) { return flags & 0xFFu; }
bool transform_applies(const FfState& s, const FfInputs& in, uint32_t stage) {
    return !in.pretransformed && transform_count(s.stages[stage].texturetransformflags) >= 2;
}

uint32_t stages_processed(const Caps& caps) {
    return caps.max_texture_blend_stages < vs::kNumTexcoords ? caps.max_texture_blend_stages : vs::kNumTexcoords;
}

}  // namespace

// ---------------------------------------------------------------- check_drawable

void check_drawable(const FfState& state, const FfInputs& inputs, const Caps& caps) {
    if (!inputs.has(kDePosition))
        throw FfError("the fixed-function vertex shader needs a position: the declaration loads no " +
                      reg_name(kDePosition));

    // Enumerations outside D3D8's values (the scene layer refuses them earlier; a state built
    // another way gets the same answer instead of undefined behaviour).
    const uint32_t vbv = uint32_t(state.rs.vertexblend);
    if (vbv > 3 && vbv != 255 && vbv != 256)
        throw FfError("D3DRS_VERTEXBLEND " + std::to_string(vbv) +
                      " is not DISABLE, 1WEIGHTS, 2WEIGHTS, 3WEIGHTS, TWEENING or 0WEIGHTS");
    for (const FogMode m : {state.rs.fogvertexmode, state.rs.fogtablemode})
        if (uint32_t(m) > 3)
            throw FfError("D3DFOGMODE " + std::to_string(uint32_t(m)) + " is not NONE, EXP, EXP2 or LINEAR");
    for (const MaterialSource m : {state.rs.diffusematerialsource, state.rs.specularmaterialsource,
                                   state.rs.ambientmaterialsource, state.rs.emissivematerialsource})
        if (uint32_t(m) > 2)
            throw FfError("D3DMATERIALCOLORSOURCE " + std::to_string(uint32_t(m)) + " is not MATERIAL, COLOR1 or COLOR2");
    for (const auto& [index, slot] : state.lights)
        if (slot.enabled && (uint32_t(slot.light.type) < 1 || uint32_t(slot.light.type) > 3))
            throw FfError("light " + std::to_string(index) + ": D3DLIGHT8 Type " +
                          std::to_string(uint32_t(slot.light.type)) + " is not POINT, SPOT or DIRECTIONAL");

    if (lighting_on(state, inputs)) {
        const uint32_t n = enabled_lights(state);
        if (n > caps.max_active_lights)
            throw FfError(std::to_string(n) + " lights are enabled (LightEnable) but the device's MaxActiveLights is " +
                          std::to_string(caps.max_active_lights));
    }

    // Texture stages: the values the equations know (the scene layer refuses others earlier).
    for (uint32_t s = 0; s < stages_processed(caps); ++s) {
        const TextureStage& ts = state.stages[s];
        const uint32_t gen = ts.texcoordindex & 0xFFFF0000u;
        if (gen != kTciPassthru && gen != kTciCameraSpaceNormal && gen != kTciCameraSpacePosition &&
            gen != kTciCameraSpaceReflectionVector)
            throw FfError("texture stage " + std::to_string(s) + ": D3DTSS_TEXCOORDINDEX has an unknown generation mode " +
                          std::to_string(gen >> 16) + " (valid: PASSTHRU, CAMERASPACENORMAL, CAMERASPACEPOSITION, "
                          "CAMERASPACEREFLECTIONVECTOR)");
        const uint32_t f = ts.texturetransformflags;
        if (transform_count(f) > 4 || (f & ~(0xFFu | kTtffProjected)) != 0)
            throw FfError("texture stage " + std::to_string(s) + ": D3DTSS_TEXTURETRANSFORMFLAGS " + std::to_string(f) +
                          " is not DISABLE, COUNT1..COUNT4, optionally | PROJECTED");
    }

    if (inputs.pretransformed) return;  // XYZRHW: no blending, tweening or lighting

    const VertexBlend vb = state.rs.vertexblend;
    if (vb == VertexBlend::Tweening) {
        if (!inputs.has(kDePosition2))
            throw FfError(std::string("D3DRS_VERTEXBLEND D3DVBF_TWEENING needs a ") + reg_name(kDePosition2) +
                          " in the declaration");
        return;
    }
    const int n = blend_weights(vb);
    if (n < 0) return;  // DISABLE
    const uint32_t matrices = uint32_t(n) + 1;
    if (matrices > caps.max_vertex_blend_matrices)
        throw FfError(std::string("D3DRS_VERTEXBLEND ") + blend_name(vb) + " blends " + std::to_string(matrices) +
                      " world matrices but the device's MaxVertexBlendMatrices is " +
                      std::to_string(caps.max_vertex_blend_matrices));
    if (n > 0) {
        if (!inputs.has(kDeBlendWeight))
            throw FfError(std::string("D3DRS_VERTEXBLEND ") + blend_name(vb) + " needs " + std::to_string(n) +
                          " blend weight" + (n > 1 ? "s" : "") + " but the declaration has no " +
                          reg_name(kDeBlendWeight));
        if (inputs.components[kDeBlendWeight] < n)
            throw FfError(std::string("D3DRS_VERTEXBLEND ") + blend_name(vb) + " needs " + std::to_string(n) +
                          " blend weights but the declaration's BLENDWEIGHT register (v1) has " +
                          std::to_string(inputs.components[kDeBlendWeight]));
    }
    if (state.rs.indexedvertexblendenable) {
        if (caps.max_vertex_blend_matrix_index == 0)
            throw FfError("D3DRS_INDEXEDVERTEXBLENDENABLE: the device has no indexed vertex blending "
                          "(its MaxVertexBlendMatrixIndex is 0)");
        if (!inputs.has(kDeBlendIndices))
            throw FfError(std::string("D3DRS_INDEXEDVERTEXBLENDENABLE with ") + blend_name(vb) + " needs a " +
                          reg_name(kDeBlendIndices) + " in the declaration");
        if (inputs.components[kDeBlendIndices] < matrices)
            throw FfError(std::string("D3DRS_INDEXEDVERTEXBLENDENABLE with ") + blend_name(vb) + " needs " +
                          std::to_string(matrices) + " matrix indices but the declaration's BLENDINDICES register "
                          "(v2) has " + std::to_string(inputs.components[kDeBlendIndices]));
    }
}

// ---------------------------------------------------------------- outputs written

bool writes_point_size(const FfState& state, const FfInputs& inputs) {
    return inputs.has(kDePSize) || (state.rs.pointscaleenable && !inputs.pretransformed);
}

namespace {
// Whether a blending operation reads its ARG0, ARG1, ARG2 (D3DTEXTUREOP: SELECTARG1 reads only
// ARG1, SELECTARG2 only ARG2, the triadic MULTIPLYADD and LERP all three, every other op ARG1 and ARG2).
bool op_reads(uint32_t op, int arg) {
    if (op == kTopDisable) return false;
    if (op == kTopSelectArg1) return arg == 1;
    if (op == kTopSelectArg2) return arg == 2;
    if (op == kTopMultiplyAdd || op == kTopLerp) return true;
    return arg != 0;
}
bool is_specular(uint32_t arg) { return (arg & kTaSelectMask) == kTaSpecular; }
// Whether an operation with these arguments reads D3DTA_SPECULAR.
bool reads_specular(uint32_t op, uint32_t arg0, uint32_t arg1, uint32_t arg2) {
    return (op_reads(op, 0) && is_specular(arg0)) || (op_reads(op, 1) && is_specular(arg1)) ||
           (op_reads(op, 2) && is_specular(arg2));
}
}  // namespace

bool stage_reads_specular(const FfState& state) {
    for (const TextureStage& t : state.stages) {
        if (t.colorop == kTopDisable) return false;  // this stage and every later one is off
        if (reads_specular(t.colorop, t.colorarg0, t.colorarg1, t.colorarg2) ||
            reads_specular(t.alphaop, t.alphaarg0, t.alphaarg1, t.alphaarg2))
            return true;
    }
    return false;
}

bool writes_specular(const FfState& state, const FfInputs& inputs) {
    return state.rs.specularenable || (state.rs.fogenable && !vertex_fog_on(state, inputs)) ||
           stage_reads_specular(state);
}

uint32_t texcoord_outputs(const FfState& state, const FfInputs& inputs, const Caps& caps) {
    uint32_t mask = 0;
    for (uint32_t s = 0; s < stages_processed(caps); ++s) {
        const uint32_t tci = state.stages[s].texcoordindex;
        const uint32_t gen = tci & 0xFFFF0000u, set = tci & 0xFFFFu;
        const bool generated = gen != kTciPassthru && !inputs.pretransformed;
        if (generated || (set < 8 && inputs.has(kDeTexcoord0 + set))) mask |= 1u << s;
    }
    return mask;
}

// ---------------------------------------------------------------- process_vertex, in parts

namespace {

// Colour sources with lighting off ("Lighting" page, lighting off): the vertex's colours, else
// opaque white and (0,0,0,0).
Color vertex_diffuse(const FfInputs& inputs, const FfRegisters& v) {
    return inputs.has(kDeDiffuse) ? v[kDeDiffuse] : Color{1, 1, 1, 1};
}
Color vertex_specular(const FfInputs& inputs, const FfRegisters& v) {
    return inputs.has(kDeSpecular) ? v[kDeSpecular] : Color{0, 0, 0, 0};
}

float clamp_point_size(float s, const RenderStates& rs, const Caps& caps) {
    const float pmax = std::fmin(rs.pointsize_max, caps.max_point_size);
    return s > pmax ? pmax : (s < rs.pointsize_min ? rs.pointsize_min : s);
}

// Pre-transformed vertices (XYZRHW): everything passes through.
vs::VertexOutputs pretransformed(const FfState& state, const FfInputs& inputs, const FfRegisters& v, const Caps& caps) {
    const RenderStates& rs = state.rs;
    vs::VertexOutputs out;
    out.pos = v[kDePosition];
    out.d0 = saturate(vertex_diffuse(inputs, v));
    out.d1 = saturate(vertex_specular(inputs, v));
    if (rs.fogenable) out.fog = out.d1[3];  // FOGENABLE FALSE: no fog factor (choice 6)
    // (oD1 holds D3D8's value even when writes_specular() is false: the program then leaves it unwritten.)
    if (writes_point_size(state, inputs)) out.pts = clamp_point_size(v[kDePSize][0], rs, caps);
    const uint32_t mask = texcoord_outputs(state, inputs, caps);
    for (uint32_t s = 0; s < vs::kNumTexcoords; ++s)
        if ((mask >> s) & 1u) out.t[s] = v[kDeTexcoord0 + (state.stages[s].texcoordindex & 0xFFFFu)];
    return out;
}

// The position and normal in camera space.
struct CameraSpace {
    Vec4 pc{0, 0, 0, 0};  // position (not divided by w)
    Vec3 nc{0, 0, 0};     // normal ((0,0,0) without one)
};

// "Blending Weights" / "Indexed Vertex Blending": nWEIGHTS blends n + 1 world matrices, the last
// weight 1 minus the sum of the others; indexed blending takes matrix k from WORLDMATRIX(index
// k). DISABLE and TWEENING use WORLDMATRIX(0) alone. Fills `weight` and `world` for `count`
// matrices.
void blend_matrices(const FfState& state, const FfRegisters& v, const Caps& caps, int nw, uint32_t count,
                    std::array<float, 4>& weight, std::array<uint32_t, 4>& world) {
    if (nw > 0) {
        float sum = 0;
        for (int k = 0; k < nw; ++k) {
            weight[size_t(k)] = v[kDeBlendWeight][size_t(k)];
            sum += weight[size_t(k)];
        }
        weight[size_t(nw)] = 1.0f - sum;
    }
    if (nw < 0 || !state.rs.indexedvertexblendenable) return;
    for (uint32_t k = 0; k < count; ++k) {
        const float f = v[kDeBlendIndices][k];
        const uint32_t limit = std::min<uint32_t>(caps.max_vertex_blend_matrix_index, uint32_t(state.world.size() - 1));
        if (!(f >= 0.0f) || f > float(limit))
            throw FfError("blend matrix index " + number(f) + " (BLENDINDICES component " + std::to_string(k) +
                          ") is outside 0.." + std::to_string(limit) +
                          (limit == caps.max_vertex_blend_matrix_index ? " (the device's MaxVertexBlendMatrixIndex)"
                                                                       : " (D3DTS_WORLDMATRIX(0..255))"));
        world[k] = uint32_t(f);
    }
}

CameraSpace camera_space(const FfState& state, const FfInputs& inputs, const FfRegisters& v, const Caps& caps) {
    const RenderStates& rs = state.rs;
    // "Vertex Tweening": POSITION = POSITION1 * (1 - TWEENFACTOR) + POSITION2 * TWEENFACTOR, and
    // likewise for normals (a declaration without NORMAL2 keeps NORMAL).
    Vec4 p = v[kDePosition];
    const bool has_normal = inputs.has(kDeNormal);
    Vec3 n = has_normal ? xyz(v[kDeNormal]) : Vec3{0, 0, 0};  // no normal: (0,0,0)
    const VertexBlend vb = rs.vertexblend;
    if (vb == VertexBlend::Tweening) {
        const float t = rs.tweenfactor, u = 1.0f - t;
        const Vec4& p2 = v[kDePosition2];
        for (int i = 0; i < 4; ++i) p[size_t(i)] = p[size_t(i)] * u + p2[size_t(i)] * t;
        if (has_normal && inputs.has(kDeNormal2)) n = add(scale(n, u), scale(xyz(v[kDeNormal2]), t));
    }
    const int nw = blend_weights(vb);
    const uint32_t count = nw < 0 ? 1u : uint32_t(nw) + 1;
    std::array<float, 4> weight{1, 0, 0, 0};
    std::array<uint32_t, 4> world{0, 1, 2, 3};
    blend_matrices(state, v, caps, nw, count, weight, world);
    // Camera space: P * WORLDMATRIX(k) * VIEW, weighted. Without blending (DISABLE, TWEENING)
    // the normal goes through the inverse transpose of the world-view matrix, as D3D8 and Windows
    // do; with blending (0WEIGHTS..3WEIGHTS) through each world-view matrix's upper 3x3, weighted
    // likewise, as Wine and nine do (docs/fixed-function.md, choice 1).
    CameraSpace cs;
    for (uint32_t k = 0; k < count; ++k) {
        const Matrix wv = mul(state.world[world[k]], state.view);
        const Vec4 pk = mul(p, wv);
        if (nw < 0) {
            cs.pc = pk;
            cs.nc = mul3(n, normal_matrix(wv));
            break;
        }
        if (count == 1) {
            cs.pc = pk;
            cs.nc = mul3(n, wv);
            break;
        }
        const float w = weight[k];
        for (int i = 0; i < 4; ++i) cs.pc[size_t(i)] += w * pk[size_t(i)];
        cs.nc = add(cs.nc, scale(mul3(n, wv), w));
    }
    if (rs.normalizenormals) cs.nc = normalize(cs.nc);
    return cs;
}

// One light's unit vector from the vertex to the light and its Atten * Spot factor ("Spotlight
// Model"); false when the vertex is beyond its Range (nothing at all, ambient included).
bool light_at(const Light& l, const Matrix& view, const Vec3& pe, Vec3& ldir, float& att) {
    att = 1;
    if (l.type == LightType::Directional) {
        ldir = normalize(scale(mul3(l.direction, view), -1.0f));
        return true;
    }
    const Vec4 lp = mul(Vec4{l.position[0], l.position[1], l.position[2], 1.0f}, view);
    const Vec3 vl{lp[0] - pe[0], lp[1] - pe[1], lp[2] - pe[2]};
    const float d = length(vl);
    if (d > l.range) return false;
    ldir = normalize(vl);
    att = 1.0f / (l.attenuation0 + l.attenuation1 * d + l.attenuation2 * d * d);
    if (l.type == LightType::Spot) {
        // rho = cos of the angle between the light's direction and the light-to-vertex vector;
        // theta and phi are full cone angles.
        const float rho = dot(normalize(mul3(l.direction, view)), scale(ldir, -1.0f));
        const float ct = std::cos(l.theta * 0.5f), cp = std::cos(l.phi * 0.5f);
        float spot;
        if (rho > ct) spot = 1.0f;
        else if (rho <= cp) spot = 0.0f;
        else spot = std::pow((rho - cp) / (ct - cp), l.falloff);
        att *= spot;
    }
    return true;
}

// Lighting ("Lighting", "Diffuse Formula", "Specular Formula"; alpha is not lit): oD0 and oD1.
void light_colours(const FfState& state, const FfInputs& inputs, const FfRegisters& v, const Vec3& pe, const Vec3& nc,
                   vs::VertexOutputs& out) {
    const RenderStates& rs = state.rs;
    const Material& m = state.material;
    const auto source = [&](MaterialSource s, const Color& material) -> Color {
        if (!rs.colorvertex) return material;
        if (s == MaterialSource::Color1 && inputs.has(kDeDiffuse)) return v[kDeDiffuse];
        if (s == MaterialSource::Color2 && inputs.has(kDeSpecular)) return v[kDeSpecular];
        return material;  // MATERIAL, or a colour the vertex lacks
    };
    const Color cd = source(rs.diffusematerialsource, m.diffuse);
    const Color ca = source(rs.ambientmaterialsource, m.ambient);
    const Color cs = source(rs.specularmaterialsource, m.specular);
    const Color ce = source(rs.emissivematerialsource, m.emissive);
    const Color ga = from_d3dcolor(rs.ambient);

    Vec3 amb{ga[0], ga[1], ga[2]}, dif{0, 0, 0}, spe{0, 0, 0};
    // Non-local viewer: the direction to the viewer is (0, 0, -1) in camera space.
    const Vec3 to_eye = rs.localviewer ? normalize(scale(pe, -1.0f)) : Vec3{0, 0, -1};
    for (const auto& [index, slot] : state.lights) {
        if (!slot.enabled) continue;
        const Light& l = slot.light;
        Vec3 ldir;  // unit vector from the vertex to the light
        float att;  // Atten * Spot
        if (!light_at(l, state.view, pe, ldir, att)) continue;
        amb = add(amb, scale(xyz(l.ambient), att));
        if (!inputs.has(kDeNormal)) continue;  // the dot-product terms are zero without a normal
        const float ndl = dot(nc, ldir);
        if (ndl > 0.0f) {
            dif = add(dif, scale(xyz(l.diffuse), ndl * att));
            if (rs.specularenable) {
                const float ndh = dot(nc, normalize(add(ldir, to_eye)));
                if (ndh > 0.0f) spe = add(spe, scale(xyz(l.specular), std::pow(ndh, m.power) * att));
            }
        }
    }
    Color d0{}, d1{};
    for (int i = 0; i < 3; ++i) {
        const size_t c = size_t(i);
        d0[c] = ca[c] * amb[c] + cd[c] * dif[c] + ce[c];
        d1[c] = cs[c] * spe[c];
    }
    d0[3] = cd[3];  // the diffuse source's alpha
    d1[3] = cs[3];  // the specular source's alpha
    out.d0 = saturate(d0);
    // SPECULARENABLE FALSE: the vertex's specular colour passes through (Windows), not (0,0,0,0).
    out.d1 = rs.specularenable ? saturate(d1) : saturate(vertex_specular(inputs, v));
}

// Vertex fog ("Vertex Fog"): the factor at the camera-space distance.
float vertex_fog(const RenderStates& rs, const Vec3& pe) {
    const float d = rs.rangefogenable ? length(pe) : std::fabs(pe[2]);
    float f = 0;
    switch (rs.fogvertexmode) {
        case FogMode::Linear: f = rs.fogend == rs.fogstart ? 0.0f : (rs.fogend - d) / (rs.fogend - rs.fogstart); break;
        case FogMode::Exp: f = std::exp(-(d * rs.fogdensity)); break;
        case FogMode::Exp2: {
            const float x = d * rs.fogdensity;
            f = std::exp(-(x * x));
            break;
        }
        case FogMode::None: break;
    }
    return saturate(f);
}

// "Point Size Computations".
float point_size(const FfState& state, const FfInputs& inputs, const FfRegisters& v, const Caps& caps, const Vec3& pe) {
    const RenderStates& rs = state.rs;
    float s = inputs.has(kDePSize) ? v[kDePSize][0] : rs.pointsize;
    if (rs.pointscaleenable) {
        const float de = length(pe);
        s = float(state.viewport.height) * s *
            std::sqrt(1.0f / (rs.pointscale_a + rs.pointscale_b * de + rs.pointscale_c * (de * de)));
    }
    return clamp_point_size(s, rs, caps);
}

// Texture coordinates ("Texture Coordinate Transformations", D3DTSS_TCI_*): stage `s`'s output.
Vec4 texcoord(const FfState& state, const FfInputs& inputs, const FfRegisters& v, uint32_t s, const Vec3& pe,
              const Vec3& nc) {
    const uint32_t tci = state.stages[s].texcoordindex;
    const uint32_t gen = tci & 0xFFFF0000u, set = tci & 0xFFFFu;
    Vec4 in{};
    uint32_t dim = 3;
    if (gen == kTciPassthru) {
        in = v[kDeTexcoord0 + set];
        dim = inputs.components[kDeTexcoord0 + set];
    } else {
        Vec3 g{};
        if (gen == kTciCameraSpaceNormal) g = nc;
        else if (gen == kTciCameraSpacePosition) g = pe;
        else {
            // R = E - 2 (N.E) N, E the unit vector from the eye to the vertex (whatever
            // LOCALVIEWER says: it is about specular highlights).
            const Vec3 e = normalize(pe);
            g = add(e, scale(nc, -2.0f * dot(nc, e)));
        }
        in = {g[0], g[1], g[2], 1.0f};
    }
    if (transform_applies(state, inputs, s)) {
        // The input is padded before the matrix: (u,1,0,0), (u,v,1,0), (u,v,w,1), (u,v,w,q).
        Vec4 padded = in;
        if (dim == 1) padded = {in[0], 1, 0, 0};
        else if (dim == 2) padded = {in[0], in[1], 1, 0};
        else if (dim == 3) padded = {in[0], in[1], in[2], 1};
        in = mul(padded, state.texture[s]);
    }
    return in;  // PROJECTED: undivided (the rasteriser divides per pixel)
}

}  // namespace

vs::VertexOutputs process_vertex(const FfState& state, const FfInputs& inputs, const FfRegisters& v, const Caps& caps) {
    if (inputs.pretransformed) return pretransformed(state, inputs, v, caps);
    const RenderStates& rs = state.rs;
    vs::VertexOutputs out;
    const CameraSpace cs = camera_space(state, inputs, v, caps);
    out.pos = mul(cs.pc, state.projection);  // clip space
    const Vec3 pe = xyz(cs.pc);              // camera-space position (no divide by w)
    if (rs.lighting) {
        light_colours(state, inputs, v, pe, cs.nc, out);
    } else {
        out.d0 = saturate(vertex_diffuse(inputs, v));
        out.d1 = saturate(vertex_specular(inputs, v));
    }
    if (vertex_fog_on(state, inputs)) out.fog = vertex_fog(rs, pe);
    else if (rs.fogenable) out.fog = out.d1[3];  // the fog factor travels in the specular alpha
    // (FOGENABLE FALSE: no stage reads a fog factor; oFog is not written (0, its start value).)
    if (writes_point_size(state, inputs)) out.pts = point_size(state, inputs, v, caps, pe);
    const uint32_t mask = texcoord_outputs(state, inputs, caps);
    for (uint32_t s = 0; s < vs::kNumTexcoords; ++s)
        if ((mask >> s) & 1u) out.t[s] = texcoord(state, inputs, v, s, pe, cs.nc);
    return out;
}

}  // namespace vpsim::ff
