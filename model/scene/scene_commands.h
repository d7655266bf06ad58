// A scene's commands (docs/scenes.md, "commands"): each JSON command object into a Command,
// its shaders, declarations, buffer references, draws and patches checked.
#pragma once

#include "model/scene/scene_ff_state.h"

#include <optional>
#include <set>
#include <vector>

namespace vpsim::scene::parse {

class CommandReader : public FfStateReader {
public:
    using FfStateReader::FfStateReader;

    // The command object c at pointer ptr.
    Command command(const json& c, const std::string& ptr);

private:
    std::vector<uint32_t> token_list(const json& a, const std::string& ptr) const;
    std::vector<uint32_t> declaration(const json& j, const std::string& ptr) const;
    std::optional<vs::LoadedShader> function(const json& j, const std::string& ptr) const;
    std::optional<std::string> buffer_ref(const json& c, const std::string& ptr, bool index) const;
    UpdateBuffer update_buffer(const json& c, const std::string& ptr) const;
    PrimitiveType prim(const json& c, const std::string& ptr) const;
    void segments(const json& v, const std::string& ptr, float* out, size_t n) const;
    tess::Basis basis(const json& i, const std::string& ip) const;
    tess::Order order(const json& i, const std::string& ip) const;
    uint32_t positive(const json& i, const std::string& ip, const char* key, const char* what) const;
    void patch_info(const json& i, const std::string& ip, tess::RectPatchInfo& r) const;
    void patch_info(const json& i, const std::string& ip, tess::TriPatchInfo& t) const;
    // DrawRectPatch / DrawTriPatch: handle, pNumSegs (absent or null: NULL) and the patch info
    // (absent or null: NULL, redraw the handle's cached patch).
    template <class Draw>
    Draw patch_draw(const json& c, const std::string& ptr) const;

    std::set<std::string> created_;  // CreateVertexShader names so far
};

}  // namespace vpsim::scene::parse
