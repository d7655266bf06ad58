#include "model/ff/ff_names.h"

#include "model/ff/ff_math.h"

#include "model/common/float_bits.h"

#include <fmt/format.h>

#include <cctype>

namespace vpsim::ff {

namespace {

std::string upper(std::string_view s) {
    std::string u;
    for (char c : s) u += char(std::toupper(static_cast<unsigned char>(c)));
    return u;
}

std::string strip(std::string_view s, const char* prefix) {
    std::string u = upper(s);
    const std::string p = prefix;
    if (!p.empty() && u.rfind(p, 0) == 0) u = u.substr(p.size());
    return u;
}

std::optional<uint32_t> decimal(std::string_view s) {
    if (s.empty() || s.size() > 10) return std::nullopt;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    const unsigned long long v = std::stoull(std::string(s));
    if (v > 0xFFFFFFFFull) return std::nullopt;
    return uint32_t(v);
}

const std::vector<EnumName> kFog = {{"NONE", 0}, {"EXP", 1}, {"EXP2", 2}, {"LINEAR", 3}};
const std::vector<EnumName> kMcs = {{"MATERIAL", 0}, {"COLOR1", 1}, {"COLOR2", 2}};
const std::vector<EnumName> kVbf = {{"DISABLE", 0},  {"1WEIGHTS", 1},   {"2WEIGHTS", 2},
                                    {"3WEIGHTS", 3}, {"TWEENING", 255}, {"0WEIGHTS", 256}};

}  // namespace

const std::vector<RenderStateInfo>& render_states() {
    static const std::vector<RenderStateInfo> t = {
        {"FOGENABLE", kRsFogEnable, RsKind::Bool, "", {}},
        {"SPECULARENABLE", kRsSpecularEnable, RsKind::Bool, "", {}},
        {"FOGTABLEMODE", kRsFogTableMode, RsKind::Enum, "D3DFOG_", kFog},
        {"FOGSTART", kRsFogStart, RsKind::Float, "", {}},
        {"FOGEND", kRsFogEnd, RsKind::Float, "", {}},
        {"FOGDENSITY", kRsFogDensity, RsKind::Float, "", {}},
        {"RANGEFOGENABLE", kRsRangeFogEnable, RsKind::Bool, "", {}},
        {"CLIPPING", kRsClipping, RsKind::Bool, "", {}},
        {"LIGHTING", kRsLighting, RsKind::Bool, "", {}},
        {"AMBIENT", kRsAmbient, RsKind::Color, "", {}},
        {"FOGVERTEXMODE", kRsFogVertexMode, RsKind::Enum, "D3DFOG_", kFog},
        {"COLORVERTEX", kRsColorVertex, RsKind::Bool, "", {}},
        {"LOCALVIEWER", kRsLocalViewer, RsKind::Bool, "", {}},
        {"NORMALIZENORMALS", kRsNormalizeNormals, RsKind::Bool, "", {}},
        {"DIFFUSEMATERIALSOURCE", kRsDiffuseMaterialSource, RsKind::Enum, "D3DMCS_", kMcs},
        {"SPECULARMATERIALSOURCE", kRsSpecularMaterialSource, RsKind::Enum, "D3DMCS_", kMcs},
        {"AMBIENTMATERIALSOURCE", kRsAmbientMaterialSource, RsKind::Enum, "D3DMCS_", kMcs},
        {"EMISSIVEMATERIALSOURCE", kRsEmissiveMaterialSource, RsKind::Enum, "D3DMCS_", kMcs},
        {"VERTEXBLEND", kRsVertexBlend, RsKind::Enum, "D3DVBF_", kVbf},
        {"CLIPPLANEENABLE", kRsClipPlaneEnable, RsKind::Dword, "", {}},
        {"SOFTWAREVERTEXPROCESSING", kRsSoftwareVertexProcessing, RsKind::Bool, "", {}},
        {"POINTSIZE", kRsPointSize, RsKind::Float, "", {}},
        {"POINTSIZE_MIN", kRsPointSizeMin, RsKind::Float, "", {}},
        {"POINTSCALEENABLE", kRsPointScaleEnable, RsKind::Bool, "", {}},
        {"POINTSCALE_A", kRsPointScaleA, RsKind::Float, "", {}},
        {"POINTSCALE_B", kRsPointScaleB, RsKind::Float, "", {}},
        {"POINTSCALE_C", kRsPointScaleC, RsKind::Float, "", {}},
        {"PATCHEDGESTYLE", kRsPatchEdgeStyle, RsKind::Enum, "D3DPATCHEDGE_", {{"DISCRETE", 0}, {"CONTINUOUS", 1}}},
        {"PATCHSEGMENTS", kRsPatchSegments, RsKind::Float, "", {}},
        {"POINTSIZE_MAX", kRsPointSizeMax, RsKind::Float, "", {}},
        {"INDEXEDVERTEXBLENDENABLE", kRsIndexedVertexBlendEnable, RsKind::Bool, "", {}},
        {"TWEENFACTOR", kRsTweenFactor, RsKind::Float, "", {}},
        {"POSITIONORDER", kRsPositionOrder, RsKind::Enum, "D3DORDER_", {{"LINEAR", 1}, {"CUBIC", 3}}},
        {"NORMALORDER", kRsNormalOrder, RsKind::Enum, "D3DORDER_", {{"LINEAR", 1}, {"QUADRATIC", 2}}},
    };
    return t;
}

const RenderStateInfo* find_render_state(std::string_view s) {
    const auto num = decimal(s);
    const std::string name = strip(s, "D3DRS_");
    for (const auto& r : render_states())
        if (num ? r.number == *num : name == r.name) return &r;
    return nullptr;
}

std::string render_state_names() {
    std::string s;
    for (const auto& r : render_states()) s += (s.empty() ? "" : ", ") + std::string(r.name);
    return s;
}

std::optional<uint32_t> enum_value(const std::vector<EnumName>& values, const char* prefix, std::string_view name) {
    const std::string n = strip(name, prefix);
    for (const auto& v : values)
        if (n == v.name) return v.value;
    return std::nullopt;
}

std::string enum_names(const std::vector<EnumName>& values) {
    std::string s;
    for (const auto& v : values) s += (s.empty() ? "" : ", ") + std::string(v.name);
    return s;
}

bool apply_render_state(RenderStates& rs, uint32_t state, uint32_t dword) {
    const float f = bits_float(dword);
    const bool b = dword != 0;
    switch (state) {
    case kRsFogEnable: rs.fogenable = b; break;
    case kRsSpecularEnable: rs.specularenable = b; break;
    case kRsFogTableMode: rs.fogtablemode = FogMode(dword); break;
    case kRsFogStart: rs.fogstart = f; break;
    case kRsFogEnd: rs.fogend = f; break;
    case kRsFogDensity: rs.fogdensity = f; break;
    case kRsRangeFogEnable: rs.rangefogenable = b; break;
    case kRsClipping: rs.clipping = b; break;
    case kRsLighting: rs.lighting = b; break;
    case kRsAmbient: rs.ambient = dword; break;
    case kRsFogVertexMode: rs.fogvertexmode = FogMode(dword); break;
    case kRsColorVertex: rs.colorvertex = b; break;
    case kRsLocalViewer: rs.localviewer = b; break;
    case kRsNormalizeNormals: rs.normalizenormals = b; break;
    case kRsDiffuseMaterialSource: rs.diffusematerialsource = MaterialSource(dword); break;
    case kRsSpecularMaterialSource: rs.specularmaterialsource = MaterialSource(dword); break;
    case kRsAmbientMaterialSource: rs.ambientmaterialsource = MaterialSource(dword); break;
    case kRsEmissiveMaterialSource: rs.emissivematerialsource = MaterialSource(dword); break;
    case kRsVertexBlend: rs.vertexblend = VertexBlend(dword); break;
    case kRsClipPlaneEnable: rs.clipplaneenable = dword; break;
    case kRsPointSize: rs.pointsize = f; break;
    case kRsPointSizeMin: rs.pointsize_min = f; break;
    case kRsPointScaleEnable: rs.pointscaleenable = b; break;
    case kRsPointScaleA: rs.pointscale_a = f; break;
    case kRsPointScaleB: rs.pointscale_b = f; break;
    case kRsPointScaleC: rs.pointscale_c = f; break;
    case kRsPointSizeMax: rs.pointsize_max = f; break;
    case kRsIndexedVertexBlendEnable: rs.indexedvertexblendenable = b; break;
    case kRsTweenFactor: rs.tweenfactor = f; break;
    default: return false;
    }
    return true;
}

std::optional<uint32_t> transform_state(std::string_view s) {
    if (auto n = decimal(s)) {
        const uint32_t v = *n;
        if (v == kTsView || v == kTsProjection || (v >= kTsTexture0 && v < kTsTexture0 + 8) ||
            (v >= kTsWorld && v < kTsWorld + 256))
            return v;
        return std::nullopt;
    }
    std::string u = strip(s, "D3DTS_");
    if (u == "WORLD") return kTsWorld;
    if (u == "VIEW") return kTsView;
    if (u == "PROJECTION") return kTsProjection;
    if (u.size() == 8 && u.rfind("TEXTURE", 0) == 0 && u[7] >= '0' && u[7] <= '7') return kTsTexture0 + uint32_t(u[7] - '0');
    if (u.rfind("WORLDMATRIX(", 0) == 0 && u.size() > 13 && u.back() == ')') {
        const auto n = decimal(u.substr(12, u.size() - 13));
        if (n && *n <= 255) return kTsWorld + *n;
    }
    if (u.size() == 6 && u.rfind("WORLD", 0) == 0 && u[5] >= '1' && u[5] <= '3')  // D3DTS_WORLD1..3
        return kTsWorld + uint32_t(u[5] - '0');
    return std::nullopt;
}

std::string transform_state_name(uint32_t state) {
    if (state == kTsView) return "VIEW";
    if (state == kTsProjection) return "PROJECTION";
    if (state >= kTsTexture0 && state < kTsTexture0 + 8) return fmt::format("TEXTURE{}", state - kTsTexture0);
    if (state == kTsWorld) return "WORLD";
    if (state > kTsWorld && state < kTsWorld + 256) return fmt::format("WORLDMATRIX({})", state - kTsWorld);
    return fmt::format("{}", state);
}

Matrix* transform_matrix(FfState& s, uint32_t state) {
    if (state == kTsView) return &s.view;
    if (state == kTsProjection) return &s.projection;
    if (state >= kTsTexture0 && state < kTsTexture0 + 8) return &s.texture[state - kTsTexture0];
    if (state >= kTsWorld && state < kTsWorld + 256) return &s.world[state - kTsWorld];
    return nullptr;
}

Matrix multiply(const Matrix& a, const Matrix& b) { return mul(a, b); }

const std::vector<EnumName>& tci_names() {
    static const std::vector<EnumName> t = {{"PASSTHRU", kTciPassthru},
                                            {"CAMERASPACENORMAL", kTciCameraSpaceNormal},
                                            {"CAMERASPACEPOSITION", kTciCameraSpacePosition},
                                            {"CAMERASPACEREFLECTIONVECTOR", kTciCameraSpaceReflectionVector}};
    return t;
}

const std::vector<EnumName>& texture_stage_state_names() {
    static const std::vector<EnumName> t = {
        {"COLOROP", kTssColorOp},         {"COLORARG1", kTssColorArg1}, {"COLORARG2", kTssColorArg2},
        {"ALPHAOP", kTssAlphaOp},         {"ALPHAARG1", kTssAlphaArg1}, {"ALPHAARG2", kTssAlphaArg2},
        {"TEXCOORDINDEX", kTssTexCoordIndex}, {"TEXTURETRANSFORMFLAGS", kTssTextureTransformFlags},
        {"COLORARG0", kTssColorArg0},     {"ALPHAARG0", kTssAlphaArg0}, {"RESULTARG", kTssResultArg}};
    return t;
}

const std::vector<EnumName>& top_names() {
    static const std::vector<EnumName> t = {
        {"DISABLE", 1}, {"SELECTARG1", 2}, {"SELECTARG2", 3}, {"MODULATE", 4}, {"MODULATE2X", 5},
        {"MODULATE4X", 6}, {"ADD", 7}, {"ADDSIGNED", 8}, {"ADDSIGNED2X", 9}, {"SUBTRACT", 10},
        {"ADDSMOOTH", 11}, {"BLENDDIFFUSEALPHA", 12}, {"BLENDTEXTUREALPHA", 13}, {"BLENDFACTORALPHA", 14},
        {"BLENDTEXTUREALPHAPM", 15}, {"BLENDCURRENTALPHA", 16}, {"PREMODULATE", 17},
        {"MODULATEALPHA_ADDCOLOR", 18}, {"MODULATECOLOR_ADDALPHA", 19}, {"MODULATEINVALPHA_ADDCOLOR", 20},
        {"MODULATEINVCOLOR_ADDALPHA", 21}, {"BUMPENVMAP", 22}, {"BUMPENVMAPLUMINANCE", 23},
        {"DOTPRODUCT3", 24}, {"MULTIPLYADD", 25}, {"LERP", 26}};
    return t;
}

const std::vector<EnumName>& ta_names() {
    static const std::vector<EnumName> t = {{"DIFFUSE", kTaDiffuse}, {"CURRENT", kTaCurrent}, {"TEXTURE", kTaTexture},
                                            {"TFACTOR", kTaTFactor}, {"SPECULAR", kTaSpecular}, {"TEMP", kTaTemp}};
    return t;
}

uint32_t texture_stage_default(uint32_t stage, uint32_t state) {
    TextureStage st;
    st.texcoordindex = stage;
    if (stage == 0) st.colorop = kTopModulate, st.alphaop = kTopSelectArg1;
    switch (state) {
    case kTssColorOp: return st.colorop;
    case kTssColorArg0: return st.colorarg0;
    case kTssColorArg1: return st.colorarg1;
    case kTssColorArg2: return st.colorarg2;
    case kTssAlphaOp: return st.alphaop;
    case kTssAlphaArg0: return st.alphaarg0;
    case kTssAlphaArg1: return st.alphaarg1;
    case kTssAlphaArg2: return st.alphaarg2;
    case kTssResultArg: return st.resultarg;
    case kTssTexCoordIndex: return st.texcoordindex;
    default: return st.texturetransformflags;
    }
}

bool apply_texture_stage_state(TextureStage& st, uint32_t state, uint32_t value) {
    switch (state) {
    case kTssColorOp: st.colorop = value; break;
    case kTssColorArg0: st.colorarg0 = value; break;
    case kTssColorArg1: st.colorarg1 = value; break;
    case kTssColorArg2: st.colorarg2 = value; break;
    case kTssAlphaOp: st.alphaop = value; break;
    case kTssAlphaArg0: st.alphaarg0 = value; break;
    case kTssAlphaArg1: st.alphaarg1 = value; break;
    case kTssAlphaArg2: st.alphaarg2 = value; break;
    case kTssResultArg: st.resultarg = value; break;
    case kTssTexCoordIndex: st.texcoordindex = value; break;
    case kTssTextureTransformFlags: st.texturetransformflags = value; break;
    default: return false;
    }
    return true;
}

const std::vector<EnumName>& ttff_names() {
    static const std::vector<EnumName> t = {{"DISABLE", 0}, {"COUNT1", 1}, {"COUNT2", 2},
                                            {"COUNT3", 3},  {"COUNT4", 4}, {"PROJECTED", kTtffProjected}};
    return t;
}

const std::vector<EnumName>& light_type_names() {
    static const std::vector<EnumName> t = {{"POINT", 1}, {"SPOT", 2}, {"DIRECTIONAL", 3}};
    return t;
}

}  // namespace vpsim::ff
