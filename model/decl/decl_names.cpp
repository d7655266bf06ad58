// The D3DVSDT_ / D3DVSDE_ name tables declared in decl_tokens.h.
#include "model/decl/decl_tokens.h"

#include <array>
#include <optional>
#include <string_view>

namespace vpsim::decl {

namespace {

constexpr std::array<const char*, kNumDataTypes> kDataTypeNames = {
    "FLOAT1", "FLOAT2", "FLOAT3", "FLOAT4", "D3DCOLOR", "UBYTE4", "SHORT2", "SHORT4",
};

constexpr std::array<const char*, kNumVertexElements> kVertexElementNames = {
    "POSITION",  "BLENDWEIGHT", "BLENDINDICES", "NORMAL",    "PSIZE",     "DIFFUSE",
    "SPECULAR",  "TEXCOORD0",   "TEXCOORD1",    "TEXCOORD2", "TEXCOORD3", "TEXCOORD4",
    "TEXCOORD5", "TEXCOORD6",   "TEXCOORD7",    "POSITION2", "NORMAL2",
};

template <size_t N>
std::optional<uint32_t> lookup_name(const std::array<const char*, N>& table, std::string_view prefix,
                                    std::string_view name) {
    if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
    for (size_t i = 0; i < N; ++i)
        if (name == table[i]) return uint32_t(i);
    return std::nullopt;
}

}  // namespace

const char* data_type_name(uint32_t type) { return type < kNumDataTypes ? kDataTypeNames[type] : nullptr; }

const char* vertex_element_name(uint32_t reg) {
    return reg < kNumVertexElements ? kVertexElementNames[reg] : nullptr;
}

std::optional<uint32_t> data_type_from_name(std::string_view name) {
    return lookup_name(kDataTypeNames, kDataTypePrefix, name);
}

std::optional<uint32_t> vertex_element_from_name(std::string_view name) {
    return lookup_name(kVertexElementNames, kVertexElementPrefix, name);
}

}  // namespace vpsim::decl
