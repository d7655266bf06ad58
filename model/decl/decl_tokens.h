// D3D8 vertex shader declaration tokens: constants and encoders for every
// D3DVSD_* macro and D3DVSDT_/D3DVSDE_ constant (d3d8types.h bit layout).
#pragma once

#include "model/common/float_bits.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace vpsim::decl {

// Token types, bits 31:29.
enum class TokenType : uint32_t {
    Nop = 0,
    StreamSelector = 1,
    StreamData = 2,
    TessellatorData = 3,
    ConstMem = 4,
    Ext = 5,
    Reserved0 = 6,
    End = 7,
};

inline constexpr uint32_t kTokenTypeShift = 29;
inline constexpr uint32_t kEndToken = 0xFFFFFFFFu;

inline constexpr TokenType token_type(uint32_t t) { return TokenType(t >> kTokenTypeShift); }

// D3DVSDT_* data types.
enum DataType : uint32_t {
    D3DVSDT_FLOAT1 = 0,
    D3DVSDT_FLOAT2 = 1,
    D3DVSDT_FLOAT3 = 2,
    D3DVSDT_FLOAT4 = 3,
    D3DVSDT_D3DCOLOR = 4,
    D3DVSDT_UBYTE4 = 5,
    D3DVSDT_SHORT2 = 6,
    D3DVSDT_SHORT4 = 7,
};
inline constexpr unsigned kNumDataTypes = 8;

// D3DVSDE_* fixed-function register numbers.
enum VertexElement : uint32_t {
    D3DVSDE_POSITION = 0,
    D3DVSDE_BLENDWEIGHT = 1,
    D3DVSDE_BLENDINDICES = 2,
    D3DVSDE_NORMAL = 3,
    D3DVSDE_PSIZE = 4,
    D3DVSDE_DIFFUSE = 5,
    D3DVSDE_SPECULAR = 6,
    D3DVSDE_TEXCOORD0 = 7,
    D3DVSDE_TEXCOORD1 = 8,
    D3DVSDE_TEXCOORD2 = 9,
    D3DVSDE_TEXCOORD3 = 10,
    D3DVSDE_TEXCOORD4 = 11,
    D3DVSDE_TEXCOORD5 = 12,
    D3DVSDE_TEXCOORD6 = 13,
    D3DVSDE_TEXCOORD7 = 14,
    D3DVSDE_POSITION2 = 15,
    D3DVSDE_NORMAL2 = 16,
};
inline constexpr unsigned kNumVertexElements = 17;

// The macros' prefixes of the names: D3DVSDT_FLOAT3, D3DVSDE_NORMAL.
inline constexpr std::string_view kDataTypePrefix = "D3DVSDT_";
inline constexpr std::string_view kVertexElementPrefix = "D3DVSDE_";
// Names without prefix ("FLOAT3", "NORMAL"), defined in decl_names.cpp; nullptr when out of range.
const char* data_type_name(uint32_t type);
const char* vertex_element_name(uint32_t reg);
std::optional<uint32_t> data_type_from_name(std::string_view name);      // "FLOAT3" or "D3DVSDT_FLOAT3"
std::optional<uint32_t> vertex_element_from_name(std::string_view name); // "NORMAL" or "D3DVSDE_NORMAL"

// Bytes a data type occupies in a vertex stream (0 for codes 8..15).
inline constexpr uint32_t data_type_size(uint32_t type) {
    constexpr uint32_t sizes[kNumDataTypes] = {4, 8, 12, 16, 4, 4, 4, 8};
    return type < kNumDataTypes ? sizes[type] : 0;
}

// ---- Field positions (d3d8types.h D3DVSD_*SHIFT / *MASK) ----
inline constexpr uint32_t kStreamNumberMask = 0xFu;        // [3:0]
inline constexpr uint32_t kStreamTessBit = 1u << 28;       // [28]
inline constexpr uint32_t kDataLoadTypeBit = 1u << 28;     // [28]: 0 = REG, 1 = SKIP
inline constexpr uint32_t kDataTypeShift = 16;             // [19:16]
inline constexpr uint32_t kDataTypeMask = 0xFu << 16;
inline constexpr uint32_t kVertexRegMask = 0x1Fu;          // [4:0] (C header: 0x1F)
inline constexpr uint32_t kSkipCountShift = 16;            // [19:16]
inline constexpr uint32_t kSkipCountMask = 0xFu << 16;
inline constexpr uint32_t kVertexRegInShift = 20;          // [23:20]
inline constexpr uint32_t kVertexRegInMask = 0xFu << 20;
inline constexpr uint32_t kTessRegOutMask = 0xFu;          // [3:0]
inline constexpr uint32_t kConstCountShift = 25;           // [28:25]
inline constexpr uint32_t kConstCountMask = 0xFu << 25;
inline constexpr uint32_t kConstAddressMask = 0x7Fu;       // [6:0]
inline constexpr uint32_t kExtCountShift = 24;             // [28:24]
inline constexpr uint32_t kExtCountMask = 0x1Fu << 24;
inline constexpr uint32_t kExtInfoMask = 0x00FFFFFFu;      // [23:0]

// Reserved (must-be-zero) bits per token form (rule 4; docs/decl-decoder.md).
inline constexpr uint32_t kReservedStream = 0x0FFFFFF0u;      // [27:4]
inline constexpr uint32_t kReservedStreamTess = 0x0FFFFFFFu;  // [27:0]
inline constexpr uint32_t kReservedReg = 0x0FF0FFE0u;         // [27:20], [15:5]
inline constexpr uint32_t kReservedSkip = 0x0FF0FFFFu;        // [27:20], [15:0]
inline constexpr uint32_t kReservedTessNormal = 0x0F00FFF0u;  // [27:24], [15:4]
inline constexpr uint32_t kReservedTessUV = 0x0FF0FFF0u;      // [27:24], [23:20], [15:4]
inline constexpr uint32_t kReservedConst = 0x01FFFF80u;       // [24:7]

// ---- Encoders: the D3DVSD_* macros ----
inline constexpr uint32_t D3DVSD_NOP() { return 0; }
inline constexpr uint32_t D3DVSD_END() { return kEndToken; }
inline constexpr uint32_t D3DVSD_STREAM(uint32_t n) { return (1u << 29) | (n & kStreamNumberMask); }
inline constexpr uint32_t D3DVSD_STREAM_TESS() { return (1u << 29) | kStreamTessBit; }
inline constexpr uint32_t D3DVSD_REG(uint32_t reg, uint32_t type) {
    return (2u << 29) | ((type << kDataTypeShift) & kDataTypeMask) | (reg & kVertexRegMask);
}
inline constexpr uint32_t D3DVSD_SKIP(uint32_t dwords) {
    return (2u << 29) | kDataLoadTypeBit | ((dwords << kSkipCountShift) & kSkipCountMask);
}
inline constexpr uint32_t D3DVSD_TESSNORMAL(uint32_t reg_in, uint32_t reg_out) {
    return (3u << 29) | ((reg_in << kVertexRegInShift) & kVertexRegInMask) |
           (D3DVSDT_FLOAT3 << kDataTypeShift) | (reg_out & kTessRegOutMask);
}
inline constexpr uint32_t D3DVSD_TESSUV(uint32_t reg) {
    return (3u << 29) | kDataLoadTypeBit | (D3DVSDT_FLOAT2 << kDataTypeShift) | (reg & kTessRegOutMask);
}
// Header only: 4*count payload DWORDs follow.
inline constexpr uint32_t D3DVSD_CONST(uint32_t address, uint32_t count) {
    return (4u << 29) | ((count << kConstCountShift) & kConstCountMask) | (address & kConstAddressMask);
}
// Header only: count payload DWORDs follow.
inline constexpr uint32_t D3DVSD_EXT(uint32_t count, uint32_t info) {
    return (5u << 29) | ((count << kExtCountShift) & kExtCountMask) | (info & kExtInfoMask);
}

using vpsim::bits_float;
using vpsim::float_bits;

}  // namespace vpsim::decl
