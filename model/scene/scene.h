// Scenes: a sequence of D3D8 vertex-pipeline commands read from JSON (docs/scenes.md).
//
// A scene names its vertex and index buffers (binary files, inline arrays or built-in
// generators, model/scene/generators.h) and lists commands: CreateVertexShader,
// SetVertexShader, SetVertexShaderConstant, SetStreamSource, SetIndices, DrawPrimitive,
// DrawIndexedPrimitive. Every command remembers its JSON pointer so that errors found while
// loading or running it name the place in the file ("scene.json: /commands/3/stride: ...").
#pragma once

#include "model/vs/vs_exec.h"
#include "model/vs/vs_load.h"

#include "model/ff/ff_state.h"

#include "model/pipe/primitive_assembly.h"
#include "model/tess/tess_types.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace vpsim::scene {

// A malformed scene, or a command that fails when run. what() = "file: /json/pointer: message".
struct SceneError : std::runtime_error {
    SceneError(std::string file, std::string pointer, std::string message);
    std::string file, pointer, message;
};

using pipe::PrimitiveType;  // D3DPRIMITIVETYPE, names and counts in model/pipe/primitive_assembly.h

// A vertex buffer (index_size == 0) or an index buffer (index_size 2 or 4: little-endian).
struct Buffer {
    std::vector<uint8_t> bytes;
    uint32_t index_size = 0;
    std::string pointer;  // where it was defined
    bool is_index() const { return index_size != 0; }
    uint64_t index_count() const { return index_size ? bytes.size() / index_size : 0; }
    uint32_t index(uint64_t i) const {  // i < index_count(); one load where the host is little-endian
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (index_size == 2) {
            uint16_t v;
            std::memcpy(&v, bytes.data() + 2 * i, 2);
            return v;
        }
        uint32_t v;
        std::memcpy(&v, bytes.data() + 4 * i, 4);
        return v;
#else
        const uint8_t* p = bytes.data() + i * index_size;
        return index_size == 2 ? uint32_t(p[0] | p[1] << 8)
                               : uint32_t(p[0] | p[1] << 8 | p[2] << 16 | uint32_t(p[3]) << 24);
#endif
    }
};

// ---- Commands ----
struct CreateVertexShader {
    std::string name;
    std::vector<uint32_t> declaration;        // without the function's def constants
    std::optional<vs::LoadedShader> function;  // none: fixed function
};
// `fvf` given: SetVertexShader(FVF code), the fixed-function shader with stream 0 laid out by the
// code (model/ff/fvf.h); `name` is then empty.
struct SetVertexShader {
    std::string name;
    std::optional<uint32_t> fvf;
};
struct SetVertexShaderConstant {
    uint32_t reg = 0;
    std::vector<vs::Vec4> values;
};
struct SetStreamSource {
    uint32_t stream = 0;
    std::optional<std::string> buffer;  // none: unbind
    uint32_t stride = 0;
};
struct SetIndices {
    std::optional<std::string> buffer;  // none: unbind
    uint32_t base_vertex = 0;
};
struct DrawPrimitive {
    PrimitiveType type = PrimitiveType::TriangleList;
    uint32_t start_vertex = 0;
    uint32_t primitive_count = 0;
};
struct DrawIndexedPrimitive {
    PrimitiveType type = PrimitiveType::TriangleList;
    uint32_t min_index = 0;
    std::optional<uint32_t> num_vertices;  // given: every index must lie in [min_index, min_index + num_vertices)
    uint32_t start_index = 0;
    std::optional<uint32_t> primitive_count;  // none: as many as the bound index buffer holds from start_index
};
// Patches (docs/tessellation.md). `info` absent = D3D's NULL info (redraw a cached handle);
// `segments` absent = NULL pNumSegs (D3DRS_PATCHSEGMENTS on every edge).
struct DrawRectPatch {
    uint32_t handle = 0;
    std::optional<tess::RectSegments> segments;
    std::optional<tess::RectPatchInfo> info;
};
struct DrawTriPatch {
    uint32_t handle = 0;
    std::optional<tess::TriSegments> segments;
    std::optional<tess::TriPatchInfo> info;
};
struct DeletePatch {
    uint32_t handle = 0;
};
// A render state (model/ff/ff_names.h lists those vpsim knows). `dword` is the DWORD D3D8's
// SetRenderState receives (a float state's float bits); `value` is the same as a float (the float
// itself for float states, the DWORD converted otherwise). The tessellator's: D3DRS_PATCHEDGESTYLE
// (163, value 0 discrete / 1 continuous), D3DRS_PATCHSEGMENTS (164, a float; N-patches on above
// 1.0), D3DRS_POSITIONORDER (172, D3DORDER 1 linear / 3 cubic), D3DRS_NORMALORDER (173, 1 linear /
// 2 quadratic); the others are fixed function's.
struct SetRenderState {
    uint32_t state = 164;
    float value = 1.0f;
    uint32_t dword = 0x3F800000u;
};
// SetTransform / MultiplyTransform: `state` is the D3DTRANSFORMSTATETYPE number (ff::kTsView ...,
// WORLDMATRIX(n) = 256 + n). MultiplyTransform sets the matrix to `matrix` x current.
struct SetTransform {
    uint32_t state = 256;
    ff::Matrix matrix;
};
struct MultiplyTransform {
    uint32_t state = 256;
    ff::Matrix matrix;
};
// SetLight: the D3DLIGHT8, checked as D3D8 checks it while parsing (model/ff/ff_params.h).
struct SetLight {
    uint32_t index = 0;
    ff::Light light;
};
struct LightEnable {
    uint32_t index = 0;
    bool enable = true;
};
struct SetViewport {
    ff::Viewport viewport;
};
struct SetMaterial {
    ff::Material material;
};
// D3DTSS_TEXCOORDINDEX (11) or D3DTSS_TEXTURETRANSFORMFLAGS (24) of stage 0..7.
struct SetTextureStageState {
    uint32_t stage = 0;
    uint32_t state = 11;
    uint32_t value = 0;
};
// UpdateBuffer: `bytes` written into buffer `buffer` from byte `offset` (a Lock / Unlock of a
// range): later draws, and the streams and indices already bound to it, read the new bytes.
// offset + bytes.size() lies within the buffer (checked while parsing).
struct UpdateBuffer {
    std::string buffer;
    uint32_t offset = 0;
    std::vector<uint8_t> bytes;
};
inline constexpr uint32_t kRsPatchEdgeStyle = 163, kRsPatchSegments = 164, kRsPositionOrder = 172,
                          kRsNormalOrder = 173;
using CommandBody = std::variant<CreateVertexShader, SetVertexShader, SetVertexShaderConstant, SetStreamSource,
                                 SetIndices, DrawPrimitive, DrawIndexedPrimitive, DrawRectPatch, DrawTriPatch,
                                 DeletePatch, SetRenderState, SetTransform, MultiplyTransform, SetLight,
                                 LightEnable, SetViewport, SetMaterial, SetTextureStageState, UpdateBuffer>;
struct Command {
    CommandBody body;
    std::string pointer;  // "/commands/3"
};
const char* command_name(const CommandBody& c);  // "SetStreamSource" ...

// How the device was created (D3DCREATE_*_VERTEXPROCESSING, the scene's "device"), and so which
// draws the runtime processes on the CPU (docs/scenes.md, "Software and mixed vertex processing").
enum class VertexProcessing : uint8_t { Hardware, Software, Mixed };

struct Scene {
    std::string name;  // the file (for messages); "<default>" for the built-in scene
    VertexProcessing vertex_processing = VertexProcessing::Hardware;
    std::map<std::string, Buffer> buffers;  // generators add "NAME.STREAM" and "NAME.indices"
    std::vector<Command> commands;
    uint32_t const_count = 96;  // device constant registers ("const_count" in the file)

    SceneError error(const std::string& pointer, const std::string& message) const {
        return SceneError(name, pointer, message);
    }
};

// Parses a scene; relative file names are resolved against `base_dir` ("" = current directory).
// Throws SceneError naming the JSON pointer of the offending value and what was expected.
Scene parse_scene(const nlohmann::json& j, const std::string& base_dir, const std::string& name);
// Reads and parses a file (JSON syntax errors are SceneErrors too).
Scene load_scene(const std::string& path);

}  // namespace vpsim::scene
