// A scene's fixed-function state values (docs/scenes.md, docs/fixed-function.md): FVF codes,
// colours, matrices, transform and render states, texture stage states, lights, viewports and
// materials, checked as D3D8 checks them.
#pragma once

#include "model/ff/ff_names.h"
#include "model/scene/scene_json.h"

#include <vector>

namespace vpsim::scene::parse {

class FfStateReader : public JsonReader {
public:
    using JsonReader::JsonReader;

    static constexpr const char* kTransformStates =
        "a transform state: WORLD, WORLDMATRIX(0..255), VIEW, PROJECTION or TEXTURE0..TEXTURE7 (D3DTS_ prefix "
        "optional), or its D3DTRANSFORMSTATETYPE number";
    uint32_t fvf(const json& j, const std::string& ptr) const;
    bool boolean(const json& j, const std::string& ptr) const;
    // [r, g, b, a] floats (D3DCOLORVALUE).
    ff::Color color(const json& j, const std::string& ptr) const;
    // A D3DCOLOR: 0xAARRGGBB (an integer or a "0x..." string), or [r, g, b, a] floats (each clamped to
    // 0..1 and rounded to 8 bits).
    uint32_t d3dcolor(const json& j, const std::string& ptr) const;
    ff::Vec3 vec3(const json& j, const std::string& ptr) const;
    // D3DMATRIX: 4 rows of 4 numbers, or 16 numbers row by row.
    ff::Matrix matrix(const json& j, const std::string& ptr) const;
    uint32_t transform_state(const json& j, const std::string& ptr) const;
    // An enumeration value: a name (with or without `prefix`) or a number among `values`, one of
    // ff_names' tables (its message is made once per table, by the table's address).
    uint32_t enumeration(const json& j, const std::string& ptr, const std::vector<ff::EnumName>& values,
                         const char* prefix) const;
    SetRenderState render_state(const json& c, const std::string& ptr) const;
    SetTextureStageState texture_stage_state(const json& c, const std::string& ptr) const;
    // Terms of a flags value: a string "A|B|2" split at '|', or one number.
    std::vector<std::string> flag_terms(const json& j, const std::string& ptr, const std::string& what) const;
    static bool small_number(const std::string& t, uint64_t& out);
    // D3DTSS_TEXCOORDINDEX: a D3DTSS_TCI_* mode (PASSTHRU when absent) | a set index 0..7.
    uint32_t texcoordindex(const json& j, const std::string& ptr) const;
    // A D3DTA_* texture argument: DIFFUSE..TEMP, optionally | COMPLEMENT | ALPHAREPLICATE.
    uint32_t texture_arg(const json& j, const std::string& ptr) const;
    // D3DTSS_TEXTURETRANSFORMFLAGS: DISABLE, or COUNT1..4 optionally | PROJECTED.
    uint32_t transform_flags(const json& j, const std::string& ptr) const;
    ff::Light light(const json& j, const std::string& ptr) const;
    ff::Viewport viewport(const json& j, const std::string& ptr) const;
    ff::Material material(const json& j, const std::string& ptr) const;
};

}  // namespace vpsim::scene::parse
