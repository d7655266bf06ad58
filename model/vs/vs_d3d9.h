// D3D9 vs_1_1 sources on D3D8: the D3D8 vertex declaration their `dcl_usage[n] vN` lines make.
//
// One stream (0) holding the declared inputs in the order of the dcl_ lines, packed; each input
// D3DVSD_REG(N, type) for its own v register N (D3D8 binds declaration registers to the shader's
// v# directly; the D3DVSDE_ register convention of D3D8's fixed function is noted where the
// register matches it, e.g. dcl_normal v3 = D3DVSDE_NORMAL); the shader's defs as D3DVSD_CONST
// tokens; END. Types: `usage=TYPE` / `usageN=TYPE` overrides (docs/cli.md, --dcl-type), else a
// FLOAT default: FLOATn for a dcl with an n-component mask, otherwise per usage (position,
// normal, tangent, binormal FLOAT3; texcoord FLOAT2; psize, fog, depth, tessfactor FLOAT1;
// the others FLOAT4).
#pragma once

#include "model/vs/vs_asm.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::vs {

struct D3D9Declaration {
    std::vector<uint32_t> tokens;  // STREAM(0), REG..., CONST..., END
    std::string text;              // the text form (decl_text.h), one comment per input
};

// Throws std::invalid_argument for a bad override ("usage[N]=TYPE", a D3DDECLUSAGE name and a
// D3DVSDT type such as FLOAT3, D3DCOLOR, SHORT2), or one naming a usage the source does not declare.
D3D9Declaration d3d8_declaration(const AsmResult& r, const std::vector<std::string>& dcl_types,
                                 const std::string& source_name);

// The D3DVSDT type an input gets without an override.
uint32_t default_dcl_type(const InputDcl& d);

}  // namespace vpsim::vs
