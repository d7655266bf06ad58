// D3D8 flexible vertex format (FVF) codes: parsing from text, D3D8's validation, and the
// equivalent vertex shader declaration (docs/scenes.md, "Fixed-function state").
//
// An FVF code given to SetVertexShader selects the fixed-function vertex shader with stream 0
// laid out as the code says, elements in D3D8's documented order: position (XYZ FLOAT3, XYZRHW
// FLOAT4, or XYZBn: FLOAT3 and n FLOAT1 betas), NORMAL FLOAT3, PSIZE FLOAT1, DIFFUSE D3DCOLOR,
// SPECULAR D3DCOLOR, then TEX0..TEX8 coordinate sets of 1..4 floats (D3DFVF_TEXCOORDSIZEn(i)).
// The declaration loads them into the D3DVSDE_* registers (POSITION v0, BLENDWEIGHT v1,
// BLENDINDICES v2, NORMAL v3, PSIZE v4, DIFFUSE v5, SPECULAR v6, TEXCOORD0..7 v7..v14).
#pragma once

#include "model/decl/decl_decoder.h"
#include "model/ff/ff_state.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace vpsim::ff {

// d3d8types.h's D3DFVF_* values (D3D8: RESERVED2 is 0xE000; D3D9 later took 0x8000 and 0x4000).
inline constexpr uint32_t kFvfReserved0 = 0x001, kFvfPositionMask = 0x00E, kFvfXyz = 0x002, kFvfXyzrhw = 0x004,
                          kFvfXyzb1 = 0x006, kFvfXyzb2 = 0x008, kFvfXyzb3 = 0x00A, kFvfXyzb4 = 0x00C,
                          kFvfXyzb5 = 0x00E, kFvfNormal = 0x010, kFvfPSize = 0x020, kFvfDiffuse = 0x040,
                          kFvfSpecular = 0x080, kFvfTexCountMask = 0xF00, kFvfTexCountShift = 8,
                          kFvfLastBetaUByte4 = 0x1000, kFvfReserved2 = 0xE000;
// D3DFVF_TEXCOORDSIZEn(set): the 2-bit format of set `set` at bits 16 + 2*set (2 floats = 0,
// 3 = 1, 4 = 2, 1 = 3).
constexpr uint32_t fvf_texcoordsize(uint32_t floats, uint32_t set) {
    const uint32_t format = floats == 2 ? 0u : floats == 3 ? 1u : floats == 4 ? 2u : 3u;
    return format << (16 + 2 * set);
}
// The floats of set `set` the code's TEXCOORDSIZE bits give (2 when unset).
constexpr uint32_t fvf_texcoord_floats(uint32_t fvf, uint32_t set) {
    constexpr uint32_t floats[4] = {2, 3, 4, 1};
    return floats[(fvf >> (16 + 2 * set)) & 3u];
}

// An FVF code D3D8 refuses, or text that is not one. `rule` names what was broken:
//   syntax            the text is not an FVF code (an unknown name, a malformed TEXCOORDSIZE ...)
//   twice             a name given twice, two position types, two texture counts, or two
//                     TEXCOORDSIZE for one set (with numbers they would silently combine)
//   reserved-bits     D3DFVF_RESERVED0 (0x1) or D3DFVF_RESERVED2 (0xE000) set
//   no-position       no D3DFVF_XYZ, XYZRHW or XYZB1..5 (a vertex needs a position)
//   xyzrhw-normal     D3DFVF_XYZRHW with D3DFVF_NORMAL (D3DFVF: "cannot be used with")
//   lastbeta-no-betas D3DFVF_LASTBETA_UBYTE4 without XYZB1..5 (the last beta is the indices)
//   tex-count         a texture count above 8 (D3DFVF_TEX0..TEX8)
struct FvfError : std::runtime_error {
    FvfError(std::string rule, const std::string& message);
    std::string rule;
};

// "D3DFVF_XYZ|D3DFVF_NORMAL|D3DFVF_TEX1", with or without the D3DFVF_ prefix, spaces allowed
// around '|'; D3DFVF_TEXCOORDSIZE1..4(i) for i 0..7; a term may be a number (decimal or 0x hex),
// and the whole text a number. Validated (throws FvfError).
uint32_t parse_fvf(std::string_view text);
// The same from a list of terms (each may itself contain '|').
uint32_t parse_fvf(const std::vector<std::string>& terms);
// Throws FvfError when D3D8 refuses the code.
void validate_fvf(uint32_t fvf);
// "D3DFVF_XYZ|D3DFVF_NORMAL|D3DFVF_TEX1|D3DFVF_TEXCOORDSIZE3(0)" (TEXCOORDSIZE only where not 2).
std::string fvf_to_string(uint32_t fvf);

// One element of stream 0 (or a SKIP: reg = kSkipElement).
inline constexpr uint32_t kSkipElement = 0xFFFFFFFFu;
struct FvfElement {
    uint32_t reg = 0;     // D3DVSDE_* register
    uint32_t type = 0;    // D3DVSDT_* type (for a SKIP: the DWORDs skipped)
    uint32_t offset = 0;  // bytes from the vertex start
    uint32_t size = 0;    // bytes
};

struct FvfLayout {
    uint32_t fvf = 0;
    std::vector<uint32_t> declaration;  // D3DVSD_STREAM(0), the REG (and SKIP) tokens, D3DVSD_END()
    std::vector<FvfElement> elements;   // in stream order
    uint32_t stride = 0;                // bytes per vertex (D3DXGetFVFVertexSize's figure)
    uint32_t betas = 0;                 // XYZBn: n
    uint32_t weights = 0;               // betas loaded as blend weights
    bool indices = false;               // LASTBETA_UBYTE4: the last beta as UBYTE4 indices
    uint32_t tex_count = 0;
    FfInputs inputs;                    // registers loaded, their components; XYZRHW pretransformed
};

// The layout of a valid code (throws FvfError otherwise).
//  - XYZBn: the betas are loaded as one FLOATk in D3DVSDE_BLENDWEIGHT; with LASTBETA_UBYTE4 the
//    last beta is the UBYTE4 D3DVSDE_BLENDINDICES and k = n - 1 (XYZB1 | LASTBETA_UBYTE4: no
//    weights, only indices). XYZB5 without LASTBETA_UBYTE4 has five betas and no FLOAT5 type:
//    the first four are loaded as FLOAT4 and the fifth is skipped (D3DVSD_SKIP(1)), which D3D8's
//    fixed function never reads (it blends with at most three weights; vpsim's choice, as D3D8
//    documents no mapping).
//  - TEXCOORDSIZE bits of sets at or beyond the texture count are accepted and ignored: the count
//    "gives the number of texture coordinate sets given in the upper 16 bits" (DDK, "FVF
//    Update"); no D3D8 page makes the other bits an error.
FvfLayout fvf_layout(uint32_t fvf);

// The fixed-function inputs of a declaration (a shader created without a function): every register
// a REG token (the last one for the register) or the tessellator loads, and its components
// (FLOAT1..4 = 1..4, D3DCOLOR / UBYTE4 / SHORT4 = 4, SHORT2 = 2; TESSNORMAL 3, TESSUV 2).
FfInputs declaration_inputs(const decl::Declaration& d);

}  // namespace vpsim::ff
