#include "model/capture/capture_convert.h"

#include "model/capture/capture_calls.h"
#include "model/decl/decl_decoder.h"
#include "model/ff/ff_names.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace vpsim::capture {

namespace {

using nlohmann::json;

struct ConvertError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Buffer {
    bool index = false;
    uint32_t format = kFmtIndex16;
    std::string bytes;
    uint32_t version = 0;      // bumped by every write
    uint32_t emitted = ~0u;    // the version last put in the scene
    std::string name;          // its scene name at `emitted`
};

struct Binding {
    uint32_t id = 0, stride = 0;
};

class Converter {
public:
    Converter(const Capture& c, const ConvertOptions& o) : c_(c), o_(o) {}
    ConvertResult run();

private:
    void call(const Call& k, bool draws);
    void buffer_data(Args& a, bool index);
    void create_shader(Args& a);
    void set_render_state(uint32_t state, uint32_t value);
    void set_texture_stage_state(uint32_t stage, uint32_t state, uint32_t value);
    void bind_for_draw(bool indexed);
    std::string snapshot(uint32_t id);
    std::string add_buffer(const std::string& prefix, const uint8_t* p, uint64_t n, bool index, uint32_t format);
    void draw_up(Args& a, bool indexed);
    uint32_t up_vertices(const std::string& name, const uint8_t* p, uint64_t n, uint32_t stride);
    json floats(Args& a, uint64_t n);
    void drop(const std::string& what) { ++r_.dropped[what]; }
    void cmd(json j) { r_.scene["commands"].push_back(std::move(j)); }

    const Capture& c_;
    ConvertOptions o_;
    ConvertResult r_;
    bool device_ = false;
    std::map<uint32_t, Buffer> buffers_;
    std::map<uint32_t, std::string> shaders_;  // handle -> scene name
    std::map<uint32_t, uint32_t> stream0_size_;  // handle -> its declaration's stream-0 vertex size (0: none)
    uint32_t current_size0_ = 0;                // the selected shader's (0: an FVF)
    Binding streams_[16];
    Binding indices_;                  // id, base vertex
    std::string emitted_streams_[16];  // the buffer name each stream has in the scene
    std::string emitted_indices_;
    uint32_t emitted_base_ = 0;
    uint32_t up_count_ = 0, shader_count_ = 0, max_const_ = 96;
};

std::string prim_type(uint32_t t) {
    static const char* const n[] = {"", "pointlist", "linelist", "linestrip", "trianglelist", "trianglestrip", "trianglefan"};
    if (t < 1 || t > 6) throw ConvertError(fmt::format("primitive type {} is not a D3DPRIMITIVETYPE (1..6)", t));
    return n[t];
}

json Converter::floats(Args& a, uint64_t n) {
    json v = json::array();
    for (uint64_t i = 0; i < n; ++i) {
        const float f = a.f32();
        if (!std::isfinite(f)) throw ConvertError(fmt::format("value {} is {}: a scene holds finite numbers only", i, f));
        v.push_back(f);
    }
    return v;
}

std::string Converter::add_buffer(const std::string& name, const uint8_t* p, uint64_t n, bool index, uint32_t format) {
    json b;
    b["bytes"] = json(std::vector<uint8_t>(p, p + n));
    if (index) b["format"] = format == kFmtIndex32 ? "INDEX32" : "INDEX16";
    r_.scene["buffers"][name] = std::move(b);
    return name;
}

// The scene buffer holding buffer `id`'s current bytes (a new one after every write).
std::string Converter::snapshot(uint32_t id) {
    auto it = buffers_.find(id);
    if (it == buffers_.end()) throw ConvertError(fmt::format("buffer {} was never created in this capture", id));
    Buffer& b = it->second;
    if (b.emitted != b.version) {
        if (b.bytes.empty()) throw ConvertError(fmt::format("buffer {} is drawn from with no bytes", id));
        b.name = fmt::format("{}{}_v{}", b.index ? "ib" : "vb", id, b.version);
        add_buffer(b.name, reinterpret_cast<const uint8_t*>(b.bytes.data()), b.bytes.size(), b.index, b.format);
        b.emitted = b.version;
    }
    return b.name;
}

void Converter::bind_for_draw(bool indexed) {
    for (uint32_t s = 0; s < 16; ++s) {
        if (!streams_[s].id) continue;
        const std::string name = snapshot(streams_[s].id);
        if (name == emitted_streams_[s]) continue;
        cmd({{"op", "SetStreamSource"}, {"stream", s}, {"buffer", name}, {"stride", streams_[s].stride}});
        emitted_streams_[s] = name;
    }
    if (!indexed) return;
    if (!indices_.id) throw ConvertError("an indexed draw with no index buffer set");
    const std::string name = snapshot(indices_.id);
    if (name == emitted_indices_ && indices_.stride == emitted_base_) return;
    cmd({{"op", "SetIndices"}, {"buffer", name}, {"base_vertex", indices_.stride}});
    emitted_indices_ = name;
    emitted_base_ = indices_.stride;
}

void Converter::buffer_data(Args& a, bool index) {
    const uint32_t id = a.u32(), off = a.u32(), size = a.u32();
    a.u32();  // lock flags: DISCARD / NOOVERWRITE change what the driver may do, not the bytes
    const uint8_t* p = a.bytes(size);
    auto it = buffers_.find(id);
    if (it == buffers_.end() || it->second.index != index)
        throw ConvertError(fmt::format("{} buffer {} was never created in this capture", index ? "index" : "vertex", id));
    Buffer& b = it->second;
    if (uint64_t(off) + size > b.bytes.size())
        throw ConvertError(fmt::format("bytes {}..{} are outside the buffer's {}", off, uint64_t(off) + size, b.bytes.size()));
    std::memcpy(b.bytes.data() + off, p, size);
    ++b.version;
}

// 1 + the highest constant register a vertex shader function's parameter tokens name (D3DSPR_CONST,
// register type 2 in bits 28..30, the number in bits 0..10), 0 when none: the version token,
// comments and def's four values are skipped; relative addressing (a0) is not followed.
uint32_t const_registers_named(const json& fn) {
    uint32_t n = 0;
    for (size_t i = 1; i < fn.size(); ++i) {
        const uint32_t t = fn[i].get<uint32_t>();
        if (t == 0x0000FFFFu) break;
        if ((t & 0xFFFFu) == 0xFFFEu) {  // a comment and its words
            i += (t >> 16) & 0x7FFFu;
            continue;
        }
        if (!(t & 0x80000000u)) {  // an instruction token
            if ((t & 0xFFFFu) == 81 && i + 1 < fn.size()) {  // def: its register, then 4 raw values
                const uint32_t r = fn[i + 1].get<uint32_t>();
                if (((r >> 28) & 7u) == 2) n = std::max(n, (r & 0x7FFu) + 1);
                i += 5;
            }
            continue;
        }
        if (((t >> 28) & 7u) == 2) n = std::max(n, (t & 0x7FFu) + 1);
    }
    return n;
}

void Converter::create_shader(Args& a) {
    const uint32_t handle = a.u32();
    a.u32();  // usage
    const uint32_t nd = a.u32(), nf = a.u32();
    json tokens = json::array(), fn = json::array();
    for (uint32_t i = 0; i < nd; ++i) tokens.push_back(a.u32());
    for (uint32_t i = 0; i < nf; ++i) fn.push_back(a.u32());
    // The program's device had the constant registers its shaders read (Wine reports more than
    // 96): the scene's const_count covers the highest one a function names directly.
    max_const_ = std::max(max_const_, const_registers_named(fn));
    const std::string name = fmt::format("vs{}", ++shader_count_);
    shaders_[handle] = name;
    const decl::Declaration d = decl::decode(tokens.get<std::vector<uint32_t>>());
    const decl::StreamDecl* s0 = d.find_stream(0);
    stream0_size_[handle] = s0 && !s0->tess ? s0->size : 0;
    json j = {{"op", "CreateVertexShader"}, {"name", name}, {"declaration", {{"tokens", tokens}}}};
    j["function"] = nf ? json{{"tokens", fn}} : json(nullptr);
    cmd(std::move(j));
}

void Converter::set_render_state(uint32_t state, uint32_t value) {
    const ff::RenderStateInfo* info = ff::find_render_state(std::to_string(state));
    if (!info || (state == ff::kRsSoftwareVertexProcessing && r_.scene["device"]["behavior_flags"] != "MIXED_VERTEXPROCESSING")) {
        drop(fmt::format("SetRenderState {} (not a vertex-pipeline state vpsim models)", state));
        return;
    }
    json v;
    switch (info->kind) {
    case ff::RsKind::Bool: v = value != 0; break;
    case ff::RsKind::Float: {
        float f;
        std::memcpy(&f, &value, 4);
        if (!std::isfinite(f)) throw ConvertError(fmt::format("render state {} is not a finite number", state));
        v = f;
        break;
    }
    case ff::RsKind::Enum: {
        bool ok = false;
        for (const auto& e : info->values) ok = ok || e.value == value;
        if (!ok) throw ConvertError(fmt::format("render state {} ({}): {} is none of its values", state, info->name, value));
        v = value;
        break;
    }
    case ff::RsKind::Color: v = fmt::format("0x{:08X}", value); break;
    case ff::RsKind::Dword: v = value; break;
    }
    cmd({{"op", "SetRenderState"}, {"state", state}, {"value", v}});
}

void Converter::set_texture_stage_state(uint32_t stage, uint32_t state, uint32_t value) {
    if (stage > 7 || (state != ff::kTssTexCoordIndex && state != ff::kTssTextureTransformFlags)) {
        drop(fmt::format("SetTextureStageState state {} (not read by the vertex pipeline)", state));
        return;
    }
    cmd({{"op", "SetTextureStageState"}, {"stage", stage}, {"state", state}, {"value", value}});
}

// The vertices D3D8 reads from user-pointer data of `n` bytes at `stride` when the declaration's
// vertex is `size` > stride bytes: each vertex's `size` bytes from its start, running into the next
// one (D3D8 does not check; Irrlicht's shader declaration has a second FLOAT2 texture coordinate
// that its 36-byte vertices do not hold, and its shaders do not read). Laid out at `size`, with
// zeros past the data, they make a stream vpsim's stride rule accepts and the draw reads the same.
std::vector<uint8_t> restride(const uint8_t* p, uint64_t n, uint32_t stride, uint32_t size) {
    const uint64_t count = (n + stride - 1) / stride;
    std::vector<uint8_t> out(count * size, 0);
    for (uint64_t i = 0; i < count; ++i) std::memcpy(out.data() + i * size, p + i * stride, std::min<uint64_t>(size, n - i * stride));
    return out;
}

// A user-pointer draw's vertex buffer; returns the stride it is bound with (restride above).
uint32_t Converter::up_vertices(const std::string& name, const uint8_t* p, uint64_t n, uint32_t stride) {
    if (stride == 0 || current_size0_ <= stride) {
        add_buffer(name, p, n, false, 0);
        return stride;
    }
    const std::vector<uint8_t> v = restride(p, n, stride, current_size0_);
    add_buffer(name, v.data(), v.size(), false, 0);
    return current_size0_;
}

void Converter::draw_up(Args& a, bool indexed) {
    const uint32_t type = a.u32();
    ++up_count_;
    const std::string vb = fmt::format("up{}", up_count_);
    if (!indexed) {
        const uint32_t count = a.u32(), stride = a.u32(), bytes = a.u32();
        const uint32_t laid = up_vertices(vb, a.bytes(bytes), bytes, stride);
        cmd({{"op", "SetStreamSource"}, {"stream", 0}, {"buffer", vb}, {"stride", laid}});
        cmd({{"op", "DrawPrimitive"}, {"type", prim_type(type)}, {"start_vertex", 0}, {"primitive_count", count}});
    } else {
        const uint32_t min_index = a.u32(), nv = a.u32(), count = a.u32(), format = a.u32(), stride = a.u32(),
                       ib_bytes = a.u32(), vb_bytes = a.u32();
        const std::string ib = fmt::format("upi{}", up_count_);
        add_buffer(ib, a.bytes(ib_bytes), ib_bytes, true, format);
        const uint32_t laid = up_vertices(vb, a.bytes(vb_bytes), vb_bytes, stride);
        cmd({{"op", "SetStreamSource"}, {"stream", 0}, {"buffer", vb}, {"stride", laid}});
        cmd({{"op", "SetIndices"}, {"buffer", ib}, {"base_vertex", 0}});
        cmd({{"op", "DrawIndexedPrimitive"}, {"type", prim_type(type)}, {"min_index", min_index}, {"num_vertices", nv},
             {"start_index", 0}, {"primitive_count", count}});
        emitted_indices_ = ib;
        emitted_base_ = 0;
    }
    emitted_streams_[0] = vb;
    ++r_.draws;
}

// One call. `draws`: the call's frame is in the range (else its draws are left out, its state kept).
void Converter::call(const Call& k, bool draws) {
    Args a(c_.data(k), k.size);
    switch (k.op) {
    case VPSIM_OP_CREATE_DEVICE: {
        if (device_) throw ConvertError("a second CreateDevice: a scene holds one device");
        device_ = true;
        a.u32();
        a.u32();
        const uint32_t flags = a.u32();
        const char* vp = (flags & kCreateMixedVp)      ? "MIXED_VERTEXPROCESSING"
                         : (flags & kCreateSoftwareVp) ? "SOFTWARE_VERTEXPROCESSING"
                                                       : "HARDWARE_VERTEXPROCESSING";
        r_.scene["device"] = {{"behavior_flags", vp}};
        break;
    }
    case VPSIM_OP_CREATE_VERTEX_BUFFER:
    case VPSIM_OP_CREATE_INDEX_BUFFER: {
        Buffer b;
        const uint32_t id = a.u32(), length = a.u32();
        a.u32();  // usage
        b.index = k.op == VPSIM_OP_CREATE_INDEX_BUFFER;
        b.format = a.u32();  // an index buffer's D3DFORMAT (a vertex buffer's FVF, unused)
        if (b.index && b.format != kFmtIndex16 && b.format != kFmtIndex32)
            throw ConvertError(fmt::format("index format {} is neither D3DFMT_INDEX16 (101) nor INDEX32 (102)", b.format));
        b.bytes.assign(length, '\0');
        buffers_[id] = std::move(b);
        break;
    }
    case VPSIM_OP_VERTEX_BUFFER_DATA: buffer_data(a, false); break;
    case VPSIM_OP_INDEX_BUFFER_DATA: buffer_data(a, true); break;
    case VPSIM_OP_SET_STREAM_SOURCE: {
        const uint32_t s = a.u32(), id = a.u32(), stride = a.u32();
        if (s > 15) throw ConvertError(fmt::format("stream {} is not 0..15", s));
        streams_[s] = id ? Binding{id, stride} : Binding{};
        break;
    }
    case VPSIM_OP_SET_INDICES: {
        const uint32_t id = a.u32(), base = a.u32();
        indices_ = id ? Binding{id, base} : Binding{};
        break;
    }
    case VPSIM_OP_CREATE_VERTEX_SHADER: create_shader(a); break;
    case VPSIM_OP_SET_VERTEX_SHADER: {
        const uint32_t h = a.u32();
        auto it = shaders_.find(h);
        current_size0_ = it != shaders_.end() ? stream0_size_[h] : 0;
        if (it != shaders_.end()) cmd({{"op", "SetVertexShader"}, {"shader", it->second}});
        else cmd({{"op", "SetVertexShader"}, {"fvf", h}});
        break;
    }
    case VPSIM_OP_DELETE_VERTEX_SHADER: {
        const uint32_t h = a.u32();
        shaders_.erase(h);
        stream0_size_.erase(h);
        break;
    }
    case VPSIM_OP_SET_VERTEX_SHADER_CONSTANT: {
        const uint32_t reg = a.u32(), count = a.u32();
        if (uint64_t(reg) + count > 8192) throw ConvertError(fmt::format("constants c{}..c{} go past c8191", reg, uint64_t(reg) + count - 1));
        max_const_ = std::max<uint32_t>(max_const_, reg + count);
        if (count) cmd({{"op", "SetVertexShaderConstant"}, {"register", reg}, {"values", floats(a, 4ull * count)}});
        break;
    }
    case VPSIM_OP_SET_TRANSFORM:
    case VPSIM_OP_MULTIPLY_TRANSFORM: {
        const uint32_t state = a.u32();
        if (!ff::transform_state(std::to_string(state))) {
            drop(fmt::format("{} state {} (no such transform)", op_name(k.op), state));
            break;
        }
        cmd({{"op", op_name(k.op)}, {"state", state}, {"matrix", floats(a, 16)}});
        break;
    }
    case VPSIM_OP_SET_LIGHT: {
        const uint32_t index = a.u32(), type = a.u32();
        json l = {{"type", type}};
        for (const char* m : {"diffuse", "specular", "ambient"}) l[m] = floats(a, 4);
        l["position"] = floats(a, 3);
        l["direction"] = floats(a, 3);
        for (const char* m : {"range", "falloff", "attenuation0", "attenuation1", "attenuation2", "theta", "phi"})
            l[m] = floats(a, 1)[0];
        cmd({{"op", "SetLight"}, {"index", index}, {"light", l}});
        break;
    }
    case VPSIM_OP_LIGHT_ENABLE: {
        const uint32_t index = a.u32(), on = a.u32();
        cmd({{"op", "LightEnable"}, {"index", index}, {"enable", on != 0}});
        break;
    }
    case VPSIM_OP_SET_MATERIAL: {
        json m;
        for (const char* n : {"diffuse", "ambient", "specular", "emissive"}) m[n] = floats(a, 4);
        m["power"] = floats(a, 1)[0];
        cmd({{"op", "SetMaterial"}, {"material", m}});
        break;
    }
    case VPSIM_OP_SET_RENDER_STATE: {
        const uint32_t s = a.u32(), v = a.u32();
        set_render_state(s, v);
        break;
    }
    case VPSIM_OP_SET_TEXTURE_STAGE_STATE: {
        const uint32_t st = a.u32(), s = a.u32(), v = a.u32();
        set_texture_stage_state(st, s, v);
        break;
    }
    case VPSIM_OP_SET_VIEWPORT: {
        json v;
        for (const char* n : {"x", "y", "width", "height"}) v[n] = a.u32();
        v["minz"] = floats(a, 1)[0];
        v["maxz"] = floats(a, 1)[0];
        cmd({{"op", "SetViewport"}, {"viewport", v}});
        break;
    }
    case VPSIM_OP_DRAW_PRIMITIVE: {
        const uint32_t type = a.u32(), start = a.u32(), count = a.u32();
        if (!draws || !count) break;
        bind_for_draw(false);
        cmd({{"op", "DrawPrimitive"}, {"type", prim_type(type)}, {"start_vertex", start}, {"primitive_count", count}});
        ++r_.draws;
        break;
    }
    case VPSIM_OP_DRAW_INDEXED_PRIMITIVE: {
        const uint32_t type = a.u32(), min_index = a.u32(), nv = a.u32(), start = a.u32(), count = a.u32();
        if (!draws || !count) break;
        bind_for_draw(true);
        cmd({{"op", "DrawIndexedPrimitive"}, {"type", prim_type(type)}, {"min_index", min_index}, {"num_vertices", nv},
             {"start_index", start}, {"primitive_count", count}});
        ++r_.draws;
        break;
    }
    case VPSIM_OP_DRAW_PRIMITIVE_UP:
    case VPSIM_OP_DRAW_INDEXED_PRIMITIVE_UP:
        // D3D8 unbinds stream 0 (and, for the indexed draw, the indices) after a user-pointer draw.
        if (draws) draw_up(a, k.op == VPSIM_OP_DRAW_INDEXED_PRIMITIVE_UP);
        streams_[0] = {};
        if (k.op == VPSIM_OP_DRAW_INDEXED_PRIMITIVE_UP) indices_ = {};
        break;
    case VPSIM_OP_PRESENT: break;
    default: throw ConvertError(fmt::format("op {} is not converted", k.op));
    }
}

ConvertResult Converter::run() {
    r_.scene = {{"description", fmt::format("converted by vpsim capture convert from {}", c_.name)},
                {"device", {{"behavior_flags", "HARDWARE_VERTEXPROCESSING"}}},
                {"buffers", json::object()},
                {"commands", json::array()}};
    for (const Frame& f : c_.frames) {
        if (f.index > o_.last) break;
        const bool draws = f.index >= o_.first;
        const size_t mark = r_.scene["commands"].size();
        const uint64_t draws_before = r_.draws;
        for (size_t i = 0; i < f.calls.size(); ++i) {
            try {
                call(f.calls[i], draws);
            } catch (const ConvertError& e) {
                r_.error = fmt::format("{}: frame {}, call {} ({}), byte offset {}: {}", c_.name, f.index, i,
                                       op_name(f.calls[i].op), f.calls[i].offset, e.what());
                json& cmds = r_.scene["commands"];
                cmds.erase(cmds.begin() + std::ptrdiff_t(mark), cmds.end());
                r_.draws = draws_before;
                r_.scene["const_count"] = max_const_;
                return r_;
            }
        }
        if (draws) ++r_.frames;
    }
    r_.scene["const_count"] = max_const_;
    if (r_.error.empty() && !c_.error.empty()) r_.error = c_.error;
    return r_;
}

}  // namespace

ConvertResult convert_capture(const Capture& c, const ConvertOptions& o) {
    Converter k(c, o);
    ConvertResult r = k.run();
    if (r.error.empty() && !c.error.empty()) r.error = c.error;
    return r;
}

}  // namespace vpsim::capture
