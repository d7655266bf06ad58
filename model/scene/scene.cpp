// A scene file as a whole (scene.h): the top-level object, the device, then the buffers
// (scene_buffers.h) and the commands (scene_commands.h); the typed JSON reading is scene_json.h's.
#include "model/scene/scene.h"

#include "model/common/json_error.h"
#include "model/decl/decl_io.h"
#include "model/scene/scene_buffers.h"
#include "model/scene/scene_json.h"
#include "model/scene/scene_commands.h"
#include "model/common/file_util.h"

#include <fmt/format.h>

namespace vpsim::scene {

SceneError::SceneError(std::string file_, std::string pointer_, std::string message_)
    : std::runtime_error(file_ + ": " + (pointer_.empty() ? "" : pointer_ + ": ") + message_),
      file(std::move(file_)),
      pointer(std::move(pointer_)),
      message(std::move(message_)) {}

const char* command_name(const CommandBody& c) {
    static const char* const names[] = {"CreateVertexShader", "SetVertexShader", "SetVertexShaderConstant",
                                        "SetStreamSource",    "SetIndices",      "DrawPrimitive",
                                        "DrawIndexedPrimitive", "DrawRectPatch", "DrawTriPatch",
                                        "DeletePatch", "SetRenderState", "SetTransform", "MultiplyTransform",
                                        "SetLight", "LightEnable", "SetViewport", "SetMaterial",
                                        "SetTextureStageState", "UpdateBuffer"};
    static_assert(sizeof(names) / sizeof(names[0]) == std::variant_size_v<CommandBody>);
    return names[c.index()];
}

namespace {

using namespace parse;

// The top-level object: const_count, device, buffers, then the commands in order.
class SceneReader : public JsonReader {
public:
    SceneReader(Scene& s, const std::string& base, const LiftedStrings* lifted)
        : JsonReader(s, base, lifted), buffers_(s, base, lifted), commands_(s, base, lifted) {}

    // "device": {"behavior_flags": "D3DCREATE_MIXED_VERTEXPROCESSING"}: CreateDevice's vertex
    // processing flag, exactly one of the three (D3DCREATE_ prefix optional).
    void device(const json& d) {
        if (!d.is_object()) expected("/device", d, "an object {\"behavior_flags\": \"D3DCREATE_..._VERTEXPROCESSING\"}");
        check_keys(d, "/device", {"behavior_flags"});
        const char* what = "one of D3DCREATE_HARDWARE_VERTEXPROCESSING, D3DCREATE_SOFTWARE_VERTEXPROCESSING, "
                           "D3DCREATE_MIXED_VERTEXPROCESSING (the D3DCREATE_ prefix optional)";
        std::string f = get_string(member(d, "/device", "behavior_flags", what), "/device/behavior_flags", what);
        if (f.rfind("D3DCREATE_", 0) == 0) f = f.substr(10);
        if (f == "HARDWARE_VERTEXPROCESSING") s_.vertex_processing = VertexProcessing::Hardware;
        else if (f == "SOFTWARE_VERTEXPROCESSING") s_.vertex_processing = VertexProcessing::Software;
        else if (f == "MIXED_VERTEXPROCESSING") s_.vertex_processing = VertexProcessing::Mixed;
        else fail("/device/behavior_flags", fmt::format("expected {}, found \"{}\"", what, f));
    }

    void scene(const json& j) {
        if (!j.is_object()) expected("", j, "a scene object {\"buffers\": {...}, \"commands\": [...]}");
        check_keys(j, "", {"const_count", "buffers", "commands", "description", "device"});
        s_.const_count = opt_uint(j, "", "const_count", 96, "a number of constant registers 1..8192", 8192, 1);
        if (auto d = j.find("device"); d != j.end()) device(*d);
        if (auto b = j.find("buffers"); b != j.end()) {
            if (!b->is_object()) expected("/buffers", *b, "an object of named buffers");
            for (auto it = b->begin(); it != b->end(); ++it) buffers_.buffer(it.key(), *it, "/buffers/" + escape_key(it.key()));
        }
        const json& cmds = member(j, "", "commands", "an array of commands");
        if (!cmds.is_array()) expected("/commands", cmds, "an array of commands");
        for (size_t i = 0; i < cmds.size(); ++i) s_.commands.push_back(commands_.command(cmds[i], "/commands/" + std::to_string(i)));
    }

private:
    BufferReader buffers_;
    CommandReader commands_;
};

}  // namespace

Scene parse_lifted_scene(const nlohmann::json& j, const std::string& base_dir, const std::string& name,
                         const LiftedStrings* lifted) {
    Scene s;
    s.name = name;
    SceneReader(s, base_dir, lifted).scene(j);
    return s;
}

Scene parse_scene(const nlohmann::json& j, const std::string& base_dir, const std::string& name) {
    return parse_lifted_scene(j, base_dir, name, nullptr);
}

Scene load_scene(const std::string& path) {
    std::string text;
    try {
        text = read_file(path);
    } catch (const std::exception& e) {
        std::string m = e.what();  // "path: cannot open: ..."
        if (m.rfind(path + ": ", 0) == 0) m = m.substr(path.size() + 2);
        throw SceneError(path, "", m);
    }
    // The JSON without its base64 strings (lift_base64); when that is not valid JSON, the whole
    // text again, for the error's position in the file.
    LiftedStrings lifted;
    nlohmann::json j;
    try {
        const std::string lean = lift_base64(text, lifted);
        try {
            j = parse_json_located(lifted.spans.empty() ? text : lean);
        } catch (const std::runtime_error&) {
            if (lifted.spans.empty()) throw;
            lifted.spans.clear();
            j = parse_json_located(text);
        }
    } catch (const std::runtime_error& e) {
        throw SceneError(path, "", e.what());
    }
    const size_t slash = path.rfind('/');
    return parse_lifted_scene(j, slash == std::string::npos ? "" : path.substr(0, slash), path,
                              lifted.spans.empty() ? nullptr : &lifted);
}

}  // namespace vpsim::scene
