// D3D8's names and numbers for the fixed-function state the scenes set: render states
// (D3DRENDERSTATETYPE, with their value kinds and enumerations), transform states
// (D3DTRANSFORMSTATETYPE), texture stage states (D3DTSS_*) and light types, and how a render
// state's DWORD applies to ff::RenderStates. Names are accepted with or without D3D8's prefix
// ("D3DRS_LIGHTING" or "LIGHTING", "D3DFOG_LINEAR" or "LINEAR"), case-insensitively.
#pragma once

#include "model/ff/ff_state.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vpsim::ff {

// D3DRENDERSTATETYPE numbers vpsim reads.
inline constexpr uint32_t kRsFogEnable = 28, kRsSpecularEnable = 29, kRsFogTableMode = 35, kRsFogStart = 36,
                          kRsFogEnd = 37, kRsFogDensity = 38, kRsRangeFogEnable = 48, kRsClipping = 136,
                          kRsLighting = 137, kRsAmbient = 139, kRsFogVertexMode = 140, kRsColorVertex = 141,
                          kRsLocalViewer = 142, kRsNormalizeNormals = 143, kRsDiffuseMaterialSource = 145,
                          kRsSpecularMaterialSource = 146, kRsAmbientMaterialSource = 147,
                          kRsEmissiveMaterialSource = 148, kRsVertexBlend = 151, kRsClipPlaneEnable = 152,
                          kRsSoftwareVertexProcessing = 153, kRsPointSize = 154, kRsPointSizeMin = 155, kRsPointScaleEnable = 157,
                          kRsPointScaleA = 158, kRsPointScaleB = 159, kRsPointScaleC = 160,
                          kRsPatchEdgeStyle = 163, kRsPatchSegments = 164, kRsPointSizeMax = 166,
                          kRsIndexedVertexBlendEnable = 167, kRsTweenFactor = 170, kRsPositionOrder = 172,
                          kRsNormalOrder = 173;

// What a render state's value is: BOOL (true/false/1/0), a float (its DWORD is the float's bits),
// a D3DCOLOR (a number 0xAARRGGBB, or [r, g, b, a] floats), an enumeration, or a plain DWORD.
enum class RsKind : uint8_t { Bool, Float, Color, Enum, Dword };

struct EnumName {
    const char* name;  // without the prefix
    uint32_t value;
};

struct RenderStateInfo {
    const char* name;    // without D3DRS_
    uint32_t number;     // D3DRENDERSTATETYPE
    RsKind kind;
    const char* prefix;  // of the enumeration's names ("D3DFOG_"), "" otherwise
    std::vector<EnumName> values;  // Enum: the valid values
};

// Every render state vpsim knows (fixed function and tessellator), in D3DRENDERSTATETYPE order.
const std::vector<RenderStateInfo>& render_states();
// By name (with or without D3DRS_) or by decimal number; nullptr when unknown.
const RenderStateInfo* find_render_state(std::string_view name_or_number);
// "LIGHTING, AMBIENT, ..." (the names without prefix).
std::string render_state_names();
// An enumeration value by name (with or without `prefix`), or nullopt.
std::optional<uint32_t> enum_value(const std::vector<EnumName>& values, const char* prefix, std::string_view name);
// "DISABLE, 1WEIGHTS, ..." for messages.
std::string enum_names(const std::vector<EnumName>& values);

// Applies a fixed-function render state's DWORD (a float state's DWORD is the float's bits).
// Returns false for states that are not fixed function's (the tessellator's), leaving `rs` as is.
bool apply_render_state(RenderStates& rs, uint32_t state, uint32_t dword);

// D3DTRANSFORMSTATETYPE: VIEW 2, PROJECTION 3, TEXTURE0..7 16..23, WORLDMATRIX(n) 256 + n
// (D3DTS_WORLD = WORLDMATRIX(0) = 256).
inline constexpr uint32_t kTsView = 2, kTsProjection = 3, kTsTexture0 = 16, kTsWorld = 256;
// "WORLD", "WORLDMATRIX(n)" (n 0..255), "VIEW", "PROJECTION", "TEXTURE0".."TEXTURE7", with or
// without D3DTS_, or the number; nullopt when none of these.
std::optional<uint32_t> transform_state(std::string_view name_or_number);
std::string transform_state_name(uint32_t state);  // "WORLDMATRIX(3)", "VIEW", ...
// The matrix a transform state names in `s` (nullptr for a number that is none).
Matrix* transform_matrix(FfState& s, uint32_t state);
// a × b (D3DMATRIX product, row vectors).
Matrix multiply(const Matrix& a, const Matrix& b);

// D3DTEXTURESTAGESTATETYPE: the blending states (COLOROP 1 .. ALPHAARG2 6, COLORARG0 26,
// ALPHAARG0 27, RESULTARG 28: all in D3D8's d3d8types.h), TEXCOORDINDEX 11, TEXTURETRANSFORMFLAGS 24.
inline constexpr uint32_t kTssColorOp = 1, kTssColorArg1 = 2, kTssColorArg2 = 3, kTssAlphaOp = 4, kTssAlphaArg1 = 5,
                          kTssAlphaArg2 = 6, kTssTexCoordIndex = 11, kTssTextureTransformFlags = 24,
                          kTssColorArg0 = 26, kTssAlphaArg0 = 27, kTssResultArg = 28;
// The texture stage states vpsim keeps: name (without D3DTSS_) and number, in number order.
const std::vector<EnumName>& texture_stage_state_names();
// D3DTOP_* names (DISABLE 1 .. LERP 26) and D3DTA_* argument names (DIFFUSE 0 .. TEMP 5; the
// modifiers COMPLEMENT 0x10 and ALPHAREPLICATE 0x20 are joined by '|').
const std::vector<EnumName>& top_names();
const std::vector<EnumName>& ta_names();
// D3D8's device default of a texture stage state kept above (stage 0 COLOROP MODULATE, ...).
uint32_t texture_stage_default(uint32_t stage, uint32_t state);
// Sets a texture stage state of `stage` (an unknown state number: false, nothing changes).
bool apply_texture_stage_state(TextureStage& stage, uint32_t state, uint32_t value);
// D3DTSS_TCI_* names (PASSTHRU, CAMERASPACENORMAL, ...) and D3DTTFF_* names (DISABLE, COUNT1..4, PROJECTED).
const std::vector<EnumName>& tci_names();
const std::vector<EnumName>& ttff_names();

// D3DLIGHTTYPE names (POINT 1, SPOT 2, DIRECTIONAL 3).
const std::vector<EnumName>& light_type_names();

}  // namespace vpsim::ff
