#include "model/capture/capture_info.h"

#include "model/capture/capture_calls.h"

#include <fmt/format.h>

#include <map>

namespace vpsim::capture {

std::vector<FrameInfo> capture_info(const Capture& c) {
    std::vector<FrameInfo> out;
    std::map<uint32_t, bool> has_function;  // shader handle -> a function (else fixed function from a declaration)
    bool shader = false;                    // the current vertex shader is a program
    for (const Frame& f : c.frames) {
        FrameInfo i;
        i.index = f.index;
        i.calls = f.calls.size();
        for (const Call& k : f.calls) {
            if (k.refused()) {  // changed nothing on the device: not a draw, not a state call
                ++i.refused_calls;
                continue;
            }
            Args a(c.data(k), k.size);
            switch (k.op) {
            case VPSIM_OP_CREATE_VERTEX_SHADER: {
                const uint32_t h = a.u32();
                a.u32();
                a.u32();
                has_function[h] = a.u32() != 0;
                break;
            }
            case VPSIM_OP_SET_VERTEX_SHADER: {
                auto it = has_function.find(a.u32());
                shader = it != has_function.end() && it->second;
                break;
            }
            case VPSIM_OP_SET_VERTEX_SHADER_CONSTANT:
                a.u32();
                i.constant_vectors += a.u32();
                break;
            case VPSIM_OP_VERTEX_BUFFER_DATA:
            case VPSIM_OP_INDEX_BUFFER_DATA:
                a.u32();
                a.u32();
                i.buffer_bytes += a.u32();
                break;
            case VPSIM_OP_DRAW_PRIMITIVE:
            case VPSIM_OP_DRAW_INDEXED_PRIMITIVE:
            case VPSIM_OP_DRAW_PRIMITIVE_UP:
            case VPSIM_OP_DRAW_INDEXED_PRIMITIVE_UP: {
                const uint32_t type = a.u32();
                uint64_t count = 0;
                if (k.op == VPSIM_OP_DRAW_PRIMITIVE) {
                    a.u32();
                    count = a.u32();
                } else if (k.op == VPSIM_OP_DRAW_INDEXED_PRIMITIVE) {
                    a.u32(), a.u32(), a.u32();
                    count = a.u32();
                } else if (k.op == VPSIM_OP_DRAW_PRIMITIVE_UP) {
                    count = a.u32();
                    a.u32();
                    i.user_pointer_bytes += a.u32();
                } else {
                    a.u32(), a.u32();
                    count = a.u32();
                    a.u32(), a.u32();
                    i.user_pointer_bytes += a.u32();
                    i.user_pointer_bytes += a.u32();
                }
                ++i.draws;
                i.vertices += primitive_vertices(type, count);
                ++(shader ? i.shader_draws : i.fixed_function_draws);
                if (k.op == VPSIM_OP_DRAW_PRIMITIVE_UP || k.op == VPSIM_OP_DRAW_INDEXED_PRIMITIVE_UP) ++i.user_pointer_draws;
                break;
            }
            case VPSIM_OP_SET_TRANSFORM:
            case VPSIM_OP_MULTIPLY_TRANSFORM:
            case VPSIM_OP_SET_LIGHT:
            case VPSIM_OP_LIGHT_ENABLE:
            case VPSIM_OP_SET_MATERIAL:
            case VPSIM_OP_SET_RENDER_STATE:
            case VPSIM_OP_SET_TEXTURE_STAGE_STATE:
            case VPSIM_OP_SET_VIEWPORT: ++i.state_calls; break;
            case VPSIM_OP_CREATE_STATE_BLOCK:
            case VPSIM_OP_BEGIN_STATE_BLOCK:
            case VPSIM_OP_END_STATE_BLOCK:
            case VPSIM_OP_CAPTURE_STATE_BLOCK:
            case VPSIM_OP_APPLY_STATE_BLOCK:
            case VPSIM_OP_DELETE_STATE_BLOCK: ++i.state_block_calls; break;
            case VPSIM_OP_PROCESS_VERTICES:
                a.u32(), a.u32();
                ++i.process_vertices_calls;
                i.processed_vertices += a.u32();
                break;
            case VPSIM_OP_RESET: ++i.resets; break;
            default: break;
            }
        }
        out.push_back(i);
    }
    return out;
}

std::string info_text(const Capture& c, const std::vector<FrameInfo>& fs) {
    std::string s = fmt::format("{}: capture version {}, {} frame{}{}\n", c.name, c.version, fs.size(), fs.size() == 1 ? "" : "s",
                                (c.flags & VPSIM_CAPTURE_FLAG_VIRTUAL_TIME) ? ", virtual time" : "");
    s += "  frame  calls  draws  vertices  shader  fixed-fn  user-ptr  constants  buffer-bytes  user-ptr-bytes  state\n";
    FrameInfo t;
    for (const FrameInfo& i : fs) {
        s += fmt::format("  {:5}  {:5}  {:5}  {:8}  {:6}  {:8}  {:8}  {:9}  {:12}  {:14}  {:5}\n", i.index, i.calls, i.draws,
                         i.vertices, i.shader_draws, i.fixed_function_draws, i.user_pointer_draws, i.constant_vectors,
                         i.buffer_bytes, i.user_pointer_bytes, i.state_calls);
        t.calls += i.calls, t.draws += i.draws, t.vertices += i.vertices, t.shader_draws += i.shader_draws;
        t.fixed_function_draws += i.fixed_function_draws, t.user_pointer_draws += i.user_pointer_draws;
        t.constant_vectors += i.constant_vectors, t.buffer_bytes += i.buffer_bytes;
        t.user_pointer_bytes += i.user_pointer_bytes, t.state_calls += i.state_calls;
        t.state_block_calls += i.state_block_calls, t.process_vertices_calls += i.process_vertices_calls;
        t.processed_vertices += i.processed_vertices, t.resets += i.resets, t.refused_calls += i.refused_calls;
    }
    s += fmt::format("  total  {:5}  {:5}  {:8}  {:6}  {:8}  {:8}  {:9}  {:12}  {:14}  {:5}\n", t.calls, t.draws, t.vertices,
                     t.shader_draws, t.fixed_function_draws, t.user_pointer_draws, t.constant_vectors, t.buffer_bytes,
                     t.user_pointer_bytes, t.state_calls);
    if (t.state_block_calls || t.process_vertices_calls || t.resets)
        s += fmt::format("  state-block calls {}, ProcessVertices {} ({} vertices), Reset {}\n", t.state_block_calls,
                         t.process_vertices_calls, t.processed_vertices, t.resets);
    if (t.refused_calls) s += fmt::format("  calls the runtime refused {} (not counted above)\n", t.refused_calls);
    return s;
}

nlohmann::json info_json(const Capture& c, const std::vector<FrameInfo>& fs) {
    nlohmann::json j = {{"capture", c.name}, {"version", c.version},
                        {"virtual_time", (c.flags & VPSIM_CAPTURE_FLAG_VIRTUAL_TIME) != 0}, {"frames", nlohmann::json::array()}};
    for (const FrameInfo& i : fs)
        j["frames"].push_back({{"frame", i.index}, {"calls", i.calls}, {"draws", i.draws}, {"vertices", i.vertices},
                               {"shader_draws", i.shader_draws}, {"fixed_function_draws", i.fixed_function_draws},
                               {"user_pointer_draws", i.user_pointer_draws}, {"constant_vectors", i.constant_vectors},
                               {"buffer_bytes", i.buffer_bytes}, {"user_pointer_bytes", i.user_pointer_bytes},
                               {"state_calls", i.state_calls}, {"state_block_calls", i.state_block_calls},
                               {"process_vertices_calls", i.process_vertices_calls},
                               {"processed_vertices", i.processed_vertices}, {"resets", i.resets},
                               {"refused_calls", i.refused_calls}});
    if (!c.error.empty()) j["error"] = c.error;
    return j;
}

}  // namespace vpsim::capture
