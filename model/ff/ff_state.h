// The state of D3D8's fixed-function vertex shader (docs/fixed-function.md): transforms, lights,
// material, the render and texture-stage states it reads, the viewport, and the device caps that
// limit it. Plain data with D3D8's defaults; the scene commands (model/scene) fill it, the
// reference processor (ff_reference.h) and the program compiler (ff_compile.h) read it.
//
// Conventions, as D3D8's: matrices are D3DMATRIX, row-major (_11 _12 _13 _14, _21 ...), and
// multiply row vectors (v' = v * M). Colours are D3DCOLORVALUE (r, g, b, a floats).
#pragma once

#include "model/vs/vs_exec.h"

#include <array>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

namespace vpsim::ff {

using vs::Vec4;
using Vec3 = std::array<float, 3>;
using Color = std::array<float, 4>;  // D3DCOLORVALUE r, g, b, a

// D3DMATRIX: m[row * 4 + col], _11 = m[0], _14 = m[3], _41 = m[12].
struct Matrix {
    std::array<float, 16> m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    float at(int row, int col) const { return m[size_t(row * 4 + col)]; }
    static Matrix identity() { return {}; }
    bool operator==(const Matrix& o) const { return m == o.m; }
};

// D3DLIGHTTYPE. A zeroed D3DLIGHT8 has type 0, which SetLight refuses.
enum class LightType : uint32_t { Point = 1, Spot = 2, Directional = 3 };

// D3DLIGHT8 (members as D3D8 names them).
struct Light {
    LightType type = LightType::Directional;
    Color diffuse{0, 0, 0, 0}, specular{0, 0, 0, 0}, ambient{0, 0, 0, 0};
    Vec3 position{0, 0, 0}, direction{0, 0, 0};
    float range = 0, falloff = 0, attenuation0 = 0, attenuation1 = 0, attenuation2 = 0, theta = 0, phi = 0;
    // D3D's default light: what LightEnable gives an index that SetLight never set (white
    // directional light along +z, D3D8's "default light").
    static Light d3d_default() {
        Light l;
        l.type = LightType::Directional;
        l.diffuse = {1, 1, 1, 0};
        l.direction = {0, 0, 1};
        return l;
    }
};

// D3DMATERIAL8.
struct Material {
    Color diffuse{0, 0, 0, 0}, ambient{0, 0, 0, 0}, specular{0, 0, 0, 0}, emissive{0, 0, 0, 0};
    float power = 0;
};

// D3DMATERIALCOLORSOURCE.
enum class MaterialSource : uint32_t { Material = 0, Color1 = 1, Color2 = 2 };
// D3DFOGMODE.
enum class FogMode : uint32_t { None = 0, Exp = 1, Exp2 = 2, Linear = 3 };
// D3DVERTEXBLENDFLAGS.
enum class VertexBlend : uint32_t { Disable = 0, Weights1 = 1, Weights2 = 2, Weights3 = 3, Tweening = 255, Weights0 = 256 };

// D3DTSS_TEXCOORDINDEX: the low 16 bits pick the input set, the high ones generate coordinates.
inline constexpr uint32_t kTciPassthru = 0x00000, kTciCameraSpaceNormal = 0x10000,
                          kTciCameraSpacePosition = 0x20000, kTciCameraSpaceReflectionVector = 0x30000;
// D3DTSS_TEXTURETRANSFORMFLAGS: D3DTTFF_DISABLE 0, COUNT1..4 = 1..4, PROJECTED 256.
inline constexpr uint32_t kTtffDisable = 0, kTtffProjected = 256;

// D3DTEXTUREOP values the vertex program's outputs depend on, and D3DTA_* argument values.
inline constexpr uint32_t kTopDisable = 1, kTopSelectArg1 = 2, kTopSelectArg2 = 3, kTopModulate = 4,
                          kTopMultiplyAdd = 25, kTopLerp = 26;
inline constexpr uint32_t kTaDiffuse = 0, kTaCurrent = 1, kTaTexture = 2, kTaTFactor = 3, kTaSpecular = 4,
                          kTaTemp = 5, kTaSelectMask = 0xF, kTaComplement = 0x10, kTaAlphaReplicate = 0x20;

struct TextureStage {
    uint32_t texcoordindex = 0;          // stage n defaults to set n (D3D8): filled by FfState()
    uint32_t texturetransformflags = 0;  // D3DTTFF_DISABLE
    // The blending states, read only to know whether a stage reads the specular colour (oD1).
    // D3D8's defaults: COLOROP MODULATE on stage 0 (FfState()), DISABLE elsewhere; ALPHAOP
    // SELECTARG1 on stage 0, DISABLE elsewhere; ARG1 TEXTURE, ARG2 and ARG0 CURRENT; RESULTARG CURRENT.
    uint32_t colorop = kTopDisable, colorarg0 = kTaCurrent, colorarg1 = kTaTexture, colorarg2 = kTaCurrent;
    uint32_t alphaop = kTopDisable, alphaarg0 = kTaCurrent, alphaarg1 = kTaTexture, alphaarg2 = kTaCurrent;
    uint32_t resultarg = kTaCurrent;
};

// D3DVIEWPORT8 (vpsim's default when a scene sets none: 640 x 480, z 0..1).
struct Viewport {
    uint32_t x = 0, y = 0, width = 640, height = 480;
    float minz = 0, maxz = 1;
};

// The render states fixed function reads, with D3D8's device defaults.
struct RenderStates {
    bool lighting = true;
    uint32_t ambient = 0;  // D3DCOLOR 0xAARRGGBB
    bool specularenable = false;
    bool localviewer = true;
    bool normalizenormals = false;
    bool colorvertex = true;
    MaterialSource diffusematerialsource = MaterialSource::Color1;
    MaterialSource specularmaterialsource = MaterialSource::Color2;
    MaterialSource ambientmaterialsource = MaterialSource::Material;
    MaterialSource emissivematerialsource = MaterialSource::Material;
    bool fogenable = false;
    FogMode fogvertexmode = FogMode::None;
    FogMode fogtablemode = FogMode::None;  // per pixel: recorded; vertex fog is off while it is on
    bool rangefogenable = false;
    float fogstart = 0, fogend = 1, fogdensity = 1;
    VertexBlend vertexblend = VertexBlend::Disable;
    bool indexedvertexblendenable = false;
    float tweenfactor = 0;
    float pointsize = 1, pointsize_min = 0, pointsize_max = 64;
    bool pointscaleenable = false;
    float pointscale_a = 1, pointscale_b = 0, pointscale_c = 0;
    bool clipping = true;         // recorded: clipping follows the vertex pipeline
    uint32_t clipplaneenable = 0; // recorded
};

// A light slot: D3D8 keeps lights by any DWORD index.
struct LightSlot {
    Light light;
    bool enabled = false;
};

// The whole fixed-function state of the device. A field added here, or to the structs it holds,
// joins scene::ff_state_key (model/scene/program_cache.cpp), the key that shares compiled programs
// between a sampled run's blocks: a field the key leaves out would let two states that differ in it
// share one program.
struct FfState {
    std::array<Matrix, 256> world{};  // D3DTS_WORLDMATRIX(0..255); WORLD = WORLDMATRIX(0)
    Matrix view{}, projection{};
    std::array<Matrix, 8> texture{};  // D3DTS_TEXTURE0..7
    std::map<uint32_t, LightSlot> lights;
    Material material{};
    RenderStates rs{};
    std::array<TextureStage, 8> stages{};
    Viewport viewport{};

    FfState() {
        for (uint32_t i = 0; i < stages.size(); ++i) stages[i].texcoordindex = i;
        stages[0].colorop = kTopModulate;
        stages[0].alphaop = kTopSelectArg1;
    }
};

// The device's fixed-function caps (D3DCAPS8 members), per preset.
struct Caps {
    uint32_t max_active_lights = 8;            // MaxActiveLights
    uint32_t max_vertex_blend_matrices = 4;    // MaxVertexBlendMatrices
    uint32_t max_vertex_blend_matrix_index = 0;// MaxVertexBlendMatrixIndex (0: no indexed blending)
    float max_point_size = 64;                 // MaxPointSize
    uint32_t max_texture_blend_stages = 8;     // texture coordinate outputs processed
    uint32_t program_words = 136;              // the vertex engine's program memory (instruction words)
};

// The fixed-function input registers a draw's declaration loads (D3DVSDE_* numbering: POSITION 0,
// BLENDWEIGHT 1, BLENDINDICES 2, NORMAL 3, PSIZE 4, DIFFUSE 5, SPECULAR 6, TEXCOORD0..7 = 7..14,
// POSITION2 15, NORMAL2 16), and how many components each carries (FLOAT1 = 1 ... FLOAT4 /
// D3DCOLOR / UBYTE4 / SHORT4 = 4, SHORT2 = 2): the texture-coordinate dimension and the
// number of blend weights follow from it.
inline constexpr uint32_t kDePosition = 0, kDeBlendWeight = 1, kDeBlendIndices = 2, kDeNormal = 3, kDePSize = 4,
                          kDeDiffuse = 5, kDeSpecular = 6, kDeTexcoord0 = 7, kDePosition2 = 15, kDeNormal2 = 16,
                          kNumDe = 17;
struct FfInputs {
    uint32_t loaded = 0;                        // bit r: register r is loaded
    std::array<uint8_t, kNumDe> components{};   // 1..4 for loaded registers
    bool pretransformed = false;                // FVF XYZRHW: position passes through
    bool has(uint32_t r) const { return (loaded >> r) & 1u; }
};

// The registers of one vertex as fetched: v0..v16 (D3DVSDE numbering).
using FfRegisters = std::array<Vec4, kNumDe>;

// Fixed-function state that cannot be drawn (too many lights, blend matrices beyond the caps, ...):
// what() names the device limit or the rule.
struct FfError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace vpsim::ff
