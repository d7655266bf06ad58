#include "model/capture/capture_convert.h"

#include "model/capture/capture_calls.h"
#include "model/capture/capture_state.h"
#include "model/common/base64.h"
#include "model/decl/decl_decoder.h"
#include "model/ff/ff_names.h"
#include "model/ff/fvf.h"
#include "model/pipe/primitive_assembly.h"
#include "model/vs/vs_create.h"
#include "model/vs/vs_isa.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
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
    uint32_t pool = 1;         // D3DPOOL
    uint32_t lost_frame = ~0u; // a D3DPOOL_DEFAULT buffer's Reset: the frame it was lost in
    uint32_t version = 0;      // bumped by every write
    uint32_t emitted = ~0u;    // the version last put in the scene
    std::string name;          // its scene name (after the version it was first put in the scene with)
    uint64_t lo = ~0ull, hi = 0;  // the bytes written since `emitted`: [lo, hi)
    uint64_t read_to = 0;      // one past the last byte a draw reads (beyond `bytes`: zeros in the scene)
    uint64_t scene_size = 0;   // the length of its scene buffer `name`
};

// A shader the converter leaves out with the calls that use it: one Windows' runtime refuses
// (Wine accepted it), or one in D3D9's vs_1_1 form, which Windows accepts and vpsim's D3D8
// vertex shader ISA cannot express.
struct LeftOutShader {
    std::string why;
    bool windows = true;  // refused by Windows (counted in windows_refused), else not_expressible
    std::string subject() const {
        return windows ? "a shader whose CreateVertexShader failed " + why : "a shader " + why;
    }
};

// At most this many bytes of zeros are added past the end of a vertex buffer a draw reads beyond
// (docs/capture.md, "Draws past the end of a vertex buffer"); more is a conversion error.
constexpr uint64_t kMaxPastEndBytes = 65536;

struct Binding {
    uint32_t id = 0, stride = 0;
};

class Converter {
public:
    Converter(const Capture& c, const ConvertOptions& o) : c_(c), o_(o), state_([this](const json& j) { on_state(j); }) {}
    ConvertResult run();

private:
    void call(const Call& k, bool draws);
    void buffer_data(Args& a, bool index);
    void write_buffer(uint32_t id, bool index, uint32_t off, uint32_t size, const uint8_t* p);
    Buffer& live_buffer(uint32_t id);
    void on_state(const json& j);
    void state_call(const Call& k, Args& a);
    void set_constants(Args& a);
    void transform(uint32_t op, Args& a);
    void device_caps(Args& a);
    void reset(Args& a);
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
    DeviceState state_;
    uint32_t frame_ = 0;  // the frame being converted
    bool device_ = false;
    std::map<uint32_t, Buffer> buffers_;
    std::map<uint32_t, std::string> shaders_;  // handle -> scene name
    std::map<uint32_t, LeftOutShader> refused_shaders_;  // handle -> why its CreateVertexShader was left out
    std::map<std::string, std::vector<uint32_t>> decl_tokens_;  // shader name -> its declaration tokens
    void count_left_out(const LeftOutShader& s, const std::string& what) {
        ++(s.windows ? r_.windows_refused : r_.not_expressible)[what];
    }
    void read_past_end(uint32_t op, uint64_t last);  // sets read_to of the buffers a draw reads up to vertex `last`
    std::map<std::string, uint32_t> stream0_size_;  // shader name -> its declaration's stream-0 vertex size (0: none)
    uint32_t selected_size0() const;                // the selected shader's, from the device state (0: an FVF)
    std::optional<uint32_t> positionless_fvf() const;  // the selected FVF code when D3D8's FVF rules refuse it
    bool draws_nothing(uint32_t op, Args a);
    bool through_refused_shader(uint32_t op);
    uint32_t word_of(const Call& k, uint32_t i) const {  // argument word i (within the call's checked layout)
        Args a(c_.data(k), k.size);
        for (uint32_t n = 0; n < i; ++n) a.u32();
        return a.u32();
    }        // a draw D3D8 accepts that draws nothing: left out, counted
    Binding streams_[16];
    Binding indices_;                  // id, base vertex
    std::string emitted_streams_[16];  // the buffer name each stream has in the scene
    std::string emitted_indices_;
    uint32_t emitted_base_ = 0;
    uint32_t up_count_ = 0, shader_count_ = 0, max_const_ = 96;
};

bool valid_fvf(uint32_t fvf) {
    try {
        ff::validate_fvf(fvf);
        return true;
    } catch (const ff::FvfError&) {
        return false;
    }
}

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
    if (o_.base64) {
        b["base64"] = base64_encode(p, n);
        b["size"] = n;
    } else {
        b["bytes"] = json(std::vector<uint8_t>(p, p + n));
    }
    if (index) b["format"] = format == kFmtIndex32 ? "INDEX32" : "INDEX16";
    r_.scene["buffers"][name] = std::move(b);
    return name;
}

// The scene buffer holding buffer `id`'s current bytes (a new one after every write).
// A buffer that exists and was not lost at a Reset.
Buffer& Converter::live_buffer(uint32_t id) {
    auto it = buffers_.find(id);
    if (it == buffers_.end()) throw ConvertError(fmt::format("buffer {} was never created in this capture", id));
    if (it->second.lost_frame != ~0u)
        throw ConvertError(fmt::format("buffer {} was in D3DPOOL_DEFAULT and was lost at the Reset in frame {}", id,
                                       it->second.lost_frame));
    return it->second;
}

// The first time a draw reads it, the buffer's bytes become a scene buffer `vb<id>_v<version>`;
// after that the bytes written since the last draw that read it become one UpdateBuffer of that
// scene buffer, from the first byte written to the last (docs/capture.md, "Buffers").
std::string Converter::snapshot(uint32_t id) {
    Buffer& b = live_buffer(id);
    const uint64_t size = std::max<uint64_t>(b.bytes.size(), b.read_to);
    if (b.emitted == b.version && size <= b.scene_size) return b.name;
    if (b.bytes.empty()) throw ConvertError(fmt::format("buffer {} is drawn from with no bytes", id));
    if (b.emitted == ~0u || size > b.scene_size) {
        // A draw reads past the end: a new scene buffer of the bytes and the zeros after them,
        // named after the zeros (`vb1_v1_z16`) as the unpadded one keeps its name.
        const uint64_t zeros = size - b.bytes.size();
        b.name = fmt::format("{}{}_v{}", b.index ? "ib" : "vb", id, b.version) + (zeros ? fmt::format("_z{}", zeros) : "");
        std::string bytes = b.bytes;
        bytes.resize(size, '\0');
        add_buffer(b.name, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), b.index, b.format);
        b.scene_size = size;
        r_.past_end_zero_bytes += zeros;
    } else if (b.lo < b.hi) {
        const auto* p = reinterpret_cast<const uint8_t*>(b.bytes.data());
        json u = {{"op", "UpdateBuffer"}, {"buffer", b.name}, {"offset", b.lo}};
        if (o_.base64) u["base64"] = base64_encode(p + b.lo, b.hi - b.lo);
        else u["bytes"] = json(std::vector<uint8_t>(p + b.lo, p + b.hi));
        cmd(std::move(u));
        ++r_.updates;
        r_.update_bytes += b.hi - b.lo;
    }
    b.emitted = b.version;
    b.lo = ~0ull;
    b.hi = 0;
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
    write_buffer(id, index, off, size, a.bytes(size));
}

void Converter::write_buffer(uint32_t id, bool index, uint32_t off, uint32_t size, const uint8_t* p) {
    auto it = buffers_.find(id);
    if (it == buffers_.end() || it->second.index != index)
        throw ConvertError(fmt::format("{} buffer {} was never created in this capture", index ? "index" : "vertex", id));
    Buffer& b = live_buffer(id);
    if (uint64_t(off) + size > b.bytes.size())
        throw ConvertError(fmt::format("bytes {}..{} are outside the buffer's {}", off, uint64_t(off) + size, b.bytes.size()));
    std::memcpy(b.bytes.data() + off, p, size);
    ++b.version;
    if (size) {
        b.lo = std::min<uint64_t>(b.lo, off);
        b.hi = std::max<uint64_t>(b.hi, uint64_t(off) + size);
    }
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

// The rule by which Windows' runtime refuses this CreateVertexShader that Wine accepted, empty when
// it does not: declaration rules D16 and D17 (docs/spec/declaration.md, "Sources": Windows'
// CreateVertexShader refuses both; Wine's d3d8 checks neither). Checked as the scene's
// CreateVertexShader checks them (vs::create_vertex_shader), after a declaration and function it
// accepts otherwise; the constant count is left open here (the scene's is known at the end).
// vpsim's other CreateVertexShader rules are not Windows' as far as is known: a shader that breaks
// one stays in the scene and scene-exec says why.
std::string windows_refusal(const std::vector<uint32_t>& tokens, const std::vector<uint32_t>& fn) {
    decl::DecoderOptions dopt;
    dopt.const_count = 8192;
    vs::Profile profile = vs::Profile::d3d8();
    profile.const_count = 8192;
    vs::LoadedShader shader;
    shader.bytecode = fn;
    const vs::CreatedShader c = vs::create_vertex_shader(tokens, fn.empty() ? nullptr : &shader, dopt, profile);
    for (const decl::Diagnostic& d : c.decl.diagnostics)
        if (d.severity == decl::Severity::Error && (d.rule == 16 || d.rule == 17))
            return fmt::format("D{} ({}): {}", d.rule, decl::rule_name(d.rule), d.message);
    return "";
}

// "dcl at token N" (or "def at token N") when a vs.1.x function is in D3D9's vs_1_1 form, empty
// when not. D3D9's vs_1_1 declares its inputs in the function (D3DSIO_DCL, opcode 31: an
// instruction token and two parameter tokens, the usage and the input register) and may define
// constants there (D3DSIO_DEF, opcode 81: the register and four values). D3D8's d3d8types.h has
// no opcode 31 (a D3D8 shader's inputs are its declaration's) and D3D8 declares a vertex
// shader's constants as D3DVSD_CONST tokens of the declaration, addresses 0..127
// (D3DVSD_CONSTADDRESSMASK 0x7F). Windows' d3d8 accepts such a function: Wine's
// test_unsupported_shaders (d3d8 device.c) creates a vs_1_1 shader with `dcl_position v0` and
// `def c255` and checks D3D_OK, without todo_wine, when the device has 256 constants or more.
// The walk follows vpsim's vs.1.x instruction lengths; it stops (returning what it found) at an
// opcode that is neither (scene-exec then names it).
std::string d3d9_form(const std::vector<uint32_t>& fn) {
    for (size_t i = 1; i < fn.size();) {
        const uint32_t t = fn[i];
        if (t == 0x0000FFFFu || (t & 0x80000000u)) break;
        const uint32_t opcode = t & 0xFFFFu;
        if (opcode == 0xFFFEu) {  // a comment and its words
            i += 1 + ((t >> 16) & 0x7FFFu);
            continue;
        }
        if (opcode == 31 || opcode == 81) return fmt::format("{} at token {}", opcode == 31 ? "dcl" : "def", i);
        const vs::OpInfo* info = vs::op_info(opcode);
        if (!info) break;
        i += 1 + (info->has_dst ? 1 : 0) + size_t(info->sources);
    }
    return "";
}

void Converter::create_shader(Args& a) {
    const uint32_t handle = a.u32();
    a.u32();  // usage
    const uint32_t nd = a.u32(), nf = a.u32();
    std::vector<uint32_t> tokens(nd);
    for (uint32_t& t : tokens) t = a.u32();
    std::vector<uint32_t> words(nf);
    for (uint32_t& t : words) t = a.u32();
    // A shader Windows' runtime refuses is not created: the handle names no shader, and the
    // SetVertexShader calls and draws that use it are left out too (through_refused_shader).
    if (const std::string why = windows_refusal(tokens, words); !why.empty()) {
        shaders_.erase(handle);
        refused_shaders_[handle] = {why, true};
        ++r_.windows_refused[fmt::format("CreateVertexShader failing {}", why)];
        return;
    }
    // A function in D3D9's vs_1_1 form, which Windows accepts: vpsim's vs.1.x (D3D8's) has no
    // dcl, and a def of c128 or above has no D3DVSD_CONST. Left out like a refused one, counted
    // apart (not_expressible): the scene would refuse it (B2), and a translation would choose
    // semantics D3D8 does not define (a D3D9 def is local to the shader; a D3DVSD_CONST writes
    // the constant registers at SetVertexShader).
    if (const std::string form = d3d9_form(words); !form.empty()) {
        shaders_.erase(handle);
        const LeftOutShader s{fmt::format("in D3D9's vs_1_1 form ({})", form), false};
        refused_shaders_[handle] = s;
        ++r_.not_expressible[fmt::format("CreateVertexShader {}", s.why)];
        return;
    }
    refused_shaders_.erase(handle);
    const json fn(words);
    // The program's device had the constant registers its shaders read (Wine reports more than
    // 96): the scene's const_count covers the highest one a function names directly.
    max_const_ = std::max(max_const_, const_registers_named(fn));
    const std::string name = fmt::format("vs{}", ++shader_count_);
    shaders_[handle] = name;
    const decl::Declaration d = decl::decode(tokens);
    const decl::StreamDecl* s0 = d.find_stream(0);
    stream0_size_[name] = s0 && !s0->tess ? s0->size : 0;
    decl_tokens_[name] = tokens;
    json j = {{"op", "CreateVertexShader"}, {"name", name}, {"declaration", {{"tokens", tokens}}}};
    j["function"] = nf ? json{{"tokens", fn}} : json(nullptr);
    cmd(std::move(j));
}

void Converter::set_render_state(uint32_t state, uint32_t value) {
    const bool ignored = state == ff::kRsSoftwareVertexProcessing && r_.scene["device"]["behavior_flags"] != "MIXED_VERTEXPROCESSING";
    const auto c = ignored ? std::nullopt : render_state_command(state, value);  // nullopt: a state vpsim does not model
    if (!c) {
        drop(fmt::format("SetRenderState {} (not a vertex-pipeline state vpsim models)", state));
        return;
    }
    state_.set(fmt::format("rs:{}", state), *c);
}

void Converter::set_texture_stage_state(uint32_t stage, uint32_t state, uint32_t value) {
    // Kept: the states the vertex pipeline reads (TEXCOORDINDEX, TEXTURETRANSFORMFLAGS) and the
    // blending states that say whether a stage reads the specular colour (oD1, docs/fixed-function.md).
    bool kept = false;
    for (const auto& e : ff::texture_stage_state_names()) kept = kept || e.value == state;
    if (stage > 7 || !kept) {
        drop(fmt::format("SetTextureStageState state {} (not read by the vertex pipeline)", state));
        return;
    }
    state_.set(fmt::format("tss:{}:{}", stage, state),
               {{"op", "SetTextureStageState"}, {"stage", stage}, {"state", state}, {"value", value}});
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
    const uint32_t size0 = selected_size0();
    if (stride == 0 || size0 <= stride) {
        add_buffer(name, p, n, false, 0);
        return stride;
    }
    const std::vector<uint8_t> v = restride(p, n, stride, size0);
    add_buffer(name, v.data(), v.size(), false, 0);
    return size0;
}

std::optional<uint32_t> Converter::positionless_fvf() const {
    const json* vs = state_.value("vs");
    if (!vs || !vs->contains("fvf")) return std::nullopt;
    const uint32_t fvf = (*vs)["fvf"].get<uint32_t>();
    return valid_fvf(fvf) ? std::nullopt : std::optional<uint32_t>(fvf);
}

// Draws that D3D8 accepts (D3D_OK) and that draw nothing, left out of the scene and counted
// (docs/capture.md, "Calls left out"): no primitives; a user-pointer draw with stride 0 (Wine's
// d3d8 returns D3D_OK before drawing for both); an indexed draw with no index buffer set (Wine's
// d3d8: "Index buffer not set, returning D3D_OK"); a draw through an FVF that D3D8's FVF rules
// refuse (no position, FVF 0: nothing to transform).
bool Converter::draws_nothing(uint32_t op, Args a) {
    const char* name = op_name(op);
    a.u32();  // type
    uint32_t count = 0, stride = 1;
    switch (op) {
    case VPSIM_OP_DRAW_PRIMITIVE: a.u32(), count = a.u32(); break;
    case VPSIM_OP_DRAW_INDEXED_PRIMITIVE: a.u32(), a.u32(), a.u32(), count = a.u32(); break;
    case VPSIM_OP_DRAW_PRIMITIVE_UP: count = a.u32(), stride = a.u32(); break;
    default: a.u32(), a.u32(), count = a.u32(), a.u32(), stride = a.u32(); break;
    }
    std::string why;
    if (!count) why = "0 primitives";
    else if (!stride) why = "a stride of 0";
    else if (op == VPSIM_OP_DRAW_INDEXED_PRIMITIVE && !indices_.id) why = "no index buffer set";
    else if (const auto fvf = positionless_fvf()) why = fmt::format("FVF 0x{:X}, which has no position", *fvf);
    if (why.empty()) return false;
    drop(fmt::format("{} with {} (D3D8 accepts it and draws nothing)", name, why));
    return true;
}

// A draw through a shader whose CreateVertexShader Windows' runtime refuses (Wine accepted it): on
// Windows the program never draws with it. Left out, counted with the rule.
bool Converter::through_refused_shader(uint32_t op) {
    const json* vs = state_.value("vs");
    if (!vs || (*vs)["op"] != "_refused_shader") return false;
    const auto r = refused_shaders_.find((*vs)["handle"].get<uint32_t>());
    const LeftOutShader s = r != refused_shaders_.end() ? r->second : LeftOutShader{"(since deleted)", true};
    count_left_out(s, fmt::format("{} through {}", op_name(op), s.subject()));
    return true;
}

// D3D8 leaves undefined what a draw reads past the end of a vertex buffer (the runtime does not
// check: Wine's test_draw_primitive (d3d8 device.c) draws 6 vertices from a 5-vertex buffer and
// checks D3D_OK); the scene reads zeros there (docs/capture.md, "Draws past the end of a vertex
// buffer"). For each stream the selected declaration (or FVF) reads, the bytes up to the last
// element of vertex `last` (stride x last + the element's end); a buffer shorter than that gets
// zeros up to it in the scene (snapshot), at most kMaxPastEndBytes of them.
void Converter::read_past_end(uint32_t op, uint64_t last) {
    const json* vs = state_.value("vs");
    if (!vs) return;
    std::vector<uint32_t> tokens;
    if (vs->contains("fvf")) {
        try {
            tokens = ff::fvf_layout((*vs)["fvf"].get<uint32_t>()).declaration;
        } catch (const ff::FvfError&) {
            return;
        }
    } else if (vs->contains("shader")) {
        const auto it = decl_tokens_.find((*vs)["shader"].get<std::string>());
        if (it == decl_tokens_.end()) return;
        tokens = it->second;
    } else {
        return;
    }
    uint64_t end[16] = {};
    for (const decl::Event& e : decl::decode(tokens).events)
        if (e.kind == decl::EventKind::Element && e.reg < 16 && e.stream < 16)
            end[e.stream] = std::max<uint64_t>(end[e.stream], uint64_t(e.value) + decl::data_type_size(e.code));
    bool past = false;
    for (uint32_t s = 0; s < 16; ++s) {
        if (!end[s] || !streams_[s].id) continue;
        Buffer& b = live_buffer(streams_[s].id);
        const uint64_t need = uint64_t(streams_[s].stride) * last + end[s];
        if (need <= b.bytes.size()) continue;
        if (need - b.bytes.size() > kMaxPastEndBytes)
            throw ConvertError(fmt::format("{} reads bytes up to {} of vertex buffer {} (stream {}), which holds {}: "
                                           "more than {} bytes past its end, the most the converter reads as zeros",
                                           op_name(op), need - 1, streams_[s].id, s, b.bytes.size(), kMaxPastEndBytes));
        b.read_to = std::max(b.read_to, need);
        past = true;
    }
    if (past) ++r_.past_end_draws;
}

// The selected shader comes from the device state, which SetVertexShader or an applied state
// block set.
uint32_t Converter::selected_size0() const {
    const json* vs = state_.value("vs");
    if (!vs || !vs->contains("shader")) return 0;
    const auto it = stream0_size_.find((*vs)["shader"].get<std::string>());
    return it == stream0_size_.end() ? 0 : it->second;
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

void Converter::on_state(const json& j) {
    const std::string op = j["op"];
    if (op == "_stream") {
        const uint32_t id = j["id"];
        streams_[j["stream"].get<uint32_t>()] = id ? Binding{id, j["stride"].get<uint32_t>()} : Binding{};
    } else if (op == "_indices") {
        const uint32_t id = j["id"];
        indices_ = id ? Binding{id, j["base"].get<uint32_t>()} : Binding{};
    } else if (op == "SetVertexShader" && j.contains("fvf") && !valid_fvf(j["fvf"].get<uint32_t>())) {
        // An FVF the scene cannot select (no position: FVF 0): its draws are left out (draws_nothing).
    } else if (op == "_refused_shader") {
        // A shader Windows' runtime refuses to create: its draws are left out (through_refused_shader).
    } else {
        cmd(j);
    }
}

void Converter::set_constants(Args& a) {
    const uint32_t reg = a.u32(), count = a.u32();
    if (uint64_t(reg) + count > 8192) throw ConvertError(fmt::format("constants c{}..c{} go past c8191", reg, uint64_t(reg) + count - 1));
    max_const_ = std::max<uint32_t>(max_const_, reg + count);
    if (!count) return;
    const json values = floats(a, 4ull * count);
    std::vector<std::pair<std::string, json>> each;
    for (uint32_t i = 0; i < count; ++i)
        each.push_back({fmt::format("c:{}", reg + i),
                        {{"op", "SetVertexShaderConstant"}, {"register", reg + i},
                         {"values", json(std::vector<json>(values.begin() + 4 * i, values.begin() + 4 * i + 4))}}});
    state_.set(each, {{"op", "SetVertexShaderConstant"}, {"register", reg}, {"values", values}});
}

// SetTransform, MultiplyTransform: the scene gets the call as it was; the state keeps the product
// (ff::multiply, as the scene machine computes it) for state blocks.
void Converter::transform(uint32_t op, Args& a) {
    const uint32_t state = a.u32();
    if (!ff::transform_state(std::to_string(state))) {
        drop(fmt::format("{} state {} (no such transform)", op_name(op), state));
        return;
    }
    const json m = floats(a, 16);
    const std::string key = fmt::format("ts:{}", state);
    if (op == VPSIM_OP_SET_TRANSFORM) {
        state_.set(key, {{"op", "SetTransform"}, {"state", state}, {"matrix", m}});
        return;
    }
    ff::Matrix arg, base;
    for (size_t i = 0; i < 16; ++i) arg.m[i] = m[i].get<float>();
    if (const json* cur = state_.value(key))
        for (size_t i = 0; i < 16; ++i) base.m[i] = (*cur)["matrix"][i].get<float>();
    const ff::Matrix product = ff::multiply(arg, base);
    state_.set({{key, {{"op", "SetTransform"}, {"state", state}, {"matrix", product.m}}}},
               {{"op", "MultiplyTransform"}, {"state", state}, {"matrix", m}});
}

void Converter::device_caps(Args& a) {
    std::vector<uint32_t> w;
    for (int i = 0; i < VPSIM_CAPS_WORDS; ++i) w.push_back(a.u32());
    float f;
    std::memcpy(&f, &w[VPSIM_CAPS_MAX_POINT_SIZE], 4);
    if (std::isfinite(f) && f > 0) state_.set_max_point_size(f);
}

// Reset: D3DPOOL_DEFAULT buffers are lost (a later use is an error: the program must create them
// again); every piece of state goes back to its default (DeviceState::reset).
void Converter::reset(Args& a) {
    const uint32_t w = a.u32(), h = a.u32();
    for (auto& [id, b] : buffers_)
        if (b.pool == kPoolDefault && b.lost_frame == ~0u) b.lost_frame = frame_;
    state_.reset(w, h);
}

// The calls that set state (kept by state_ for state blocks and Reset).
void Converter::state_call(const Call& k, Args& a) {
    switch (k.op) {
    case VPSIM_OP_SET_STREAM_SOURCE: {
        const uint32_t s = a.u32(), id = a.u32(), stride = a.u32();
        if (s > 15) throw ConvertError(fmt::format("stream {} is not 0..15", s));
        state_.set(fmt::format("stream:{}", s), {{"op", "_stream"}, {"stream", s}, {"id", id}, {"stride", stride}});
        break;
    }
    case VPSIM_OP_SET_INDICES: {
        const uint32_t id = a.u32(), base = a.u32();
        state_.set("indices", {{"op", "_indices"}, {"id", id}, {"base", base}});
        break;
    }
    case VPSIM_OP_SET_VERTEX_SHADER: {
        const uint32_t h = a.u32();
        if (const auto r = refused_shaders_.find(h); r != refused_shaders_.end()) {
            // Selects no shader in the scene; the draws while it is selected are left out.
            count_left_out(r->second, "SetVertexShader of " + r->second.subject());
            state_.set("vs", {{"op", "_refused_shader"}, {"handle", h}});
            break;
        }
        auto it = shaders_.find(h);
        state_.set("vs", it != shaders_.end() ? json{{"op", "SetVertexShader"}, {"shader", it->second}}
                                              : json{{"op", "SetVertexShader"}, {"fvf", h}});
        break;
    }
    case VPSIM_OP_SET_VERTEX_SHADER_CONSTANT: set_constants(a); break;
    case VPSIM_OP_SET_TRANSFORM:
    case VPSIM_OP_MULTIPLY_TRANSFORM: transform(k.op, a); break;
    case VPSIM_OP_SET_LIGHT: {
        const uint32_t index = a.u32(), type = a.u32();
        json l = {{"type", type}};
        for (const char* m : {"diffuse", "specular", "ambient"}) l[m] = floats(a, 4);
        l["position"] = floats(a, 3);
        l["direction"] = floats(a, 3);
        for (const char* m : {"range", "falloff", "attenuation0", "attenuation1", "attenuation2", "theta", "phi"})
            l[m] = floats(a, 1)[0];
        state_.set(fmt::format("light:{}", index), {{"op", "SetLight"}, {"index", index}, {"light", l}});
        break;
    }
    case VPSIM_OP_LIGHT_ENABLE: {
        const uint32_t index = a.u32(), on = a.u32();
        state_.set(fmt::format("lenable:{}", index), {{"op", "LightEnable"}, {"index", index}, {"enable", on != 0}});
        break;
    }
    case VPSIM_OP_SET_MATERIAL: {
        json m;
        for (const char* n : {"diffuse", "ambient", "specular", "emissive"}) m[n] = floats(a, 4);
        m["power"] = floats(a, 1)[0];
        state_.set("material", {{"op", "SetMaterial"}, {"material", m}});
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
        state_.set("viewport", {{"op", "SetViewport"}, {"viewport", v}});
        break;
    }
    case VPSIM_OP_CREATE_STATE_BLOCK: {
        const uint32_t type = a.u32(), handle = a.u32();
        state_.create_block(handle, type);
        break;
    }
    case VPSIM_OP_BEGIN_STATE_BLOCK: state_.begin_block(); break;
    case VPSIM_OP_END_STATE_BLOCK: state_.end_block(a.u32()); break;
    case VPSIM_OP_CAPTURE_STATE_BLOCK: state_.capture_block(a.u32()); break;
    case VPSIM_OP_APPLY_STATE_BLOCK: {
        // Handle 0 names no block: D3D8 returns D3D_OK and applies nothing (Wine's d3d8 test
        // test_ApplyStateBlock checks both, and passes on Windows).
        const uint32_t h = a.u32();
        if (h) state_.apply_block(h);
        else drop("ApplyStateBlock of handle 0 (D3D8 accepts it and applies nothing)");
        break;
    }
    case VPSIM_OP_DELETE_STATE_BLOCK: state_.delete_block(a.u32()); break;
    case VPSIM_OP_RESET: reset(a); break;
    default: throw ConvertError(fmt::format("op {} is not converted", k.op));
    }
}

// One call. `draws`: the call's frame is in the range (else its draws are left out, its state kept).
// A call the runtime refused changed nothing: it is left out, counted.
void Converter::call(const Call& k, bool draws) {
    if (k.refused()) {
        ++r_.refused;
        return;
    }
    Args a(c_.data(k), k.size);
    switch (k.op) {
    case VPSIM_OP_CREATE_DEVICE: {
        if (device_) throw ConvertError("a second CreateDevice: a scene holds one device");
        device_ = true;
        a.u32();
        a.u32();
        const uint32_t flags = a.u32(), w = a.u32(), h = a.u32();
        const char* vp = (flags & kCreateMixedVp)      ? "MIXED_VERTEXPROCESSING"
                         : (flags & kCreateSoftwareVp) ? "SOFTWARE_VERTEXPROCESSING"
                                                       : "HARDWARE_VERTEXPROCESSING";
        r_.scene["device"] = {{"behavior_flags", vp}};
        state_.set_back_buffer(w, h);
        break;
    }
    case VPSIM_OP_DEVICE_CAPS: device_caps(a); break;
    case VPSIM_OP_CREATE_VERTEX_BUFFER:
    case VPSIM_OP_CREATE_INDEX_BUFFER: {
        Buffer b;
        const uint32_t id = a.u32(), length = a.u32();
        a.u32();  // usage
        b.index = k.op == VPSIM_OP_CREATE_INDEX_BUFFER;
        b.format = a.u32();  // an index buffer's D3DFORMAT (a vertex buffer's FVF, unused)
        b.pool = a.u32();
        if (b.index && b.format != kFmtIndex16 && b.format != kFmtIndex32)
            throw ConvertError(fmt::format("index format {} is neither D3DFMT_INDEX16 (101) nor INDEX32 (102)", b.format));
        b.bytes.assign(length, '\0');
        buffers_[id] = std::move(b);
        break;
    }
    case VPSIM_OP_VERTEX_BUFFER_DATA: buffer_data(a, false); break;
    case VPSIM_OP_INDEX_BUFFER_DATA: buffer_data(a, true); break;
    case VPSIM_OP_PROCESS_VERTICES: {
        // The software vertex processing's result as Wine computed it, recorded: it becomes the
        // destination buffer's bytes (docs/capture.md, "ProcessVertices").
        for (int i = 0; i < 3; ++i) a.u32();  // source start, destination index, vertex count
        const uint32_t id = a.u32();
        a.u32();  // flags
        const uint32_t off = a.u32(), size = a.u32();
        write_buffer(id, false, off, size, a.bytes(size));
        ++r_.processed;
        break;
    }
    case VPSIM_OP_CREATE_VERTEX_SHADER: create_shader(a); break;
    case VPSIM_OP_DELETE_VERTEX_SHADER: {
        const uint32_t h = a.u32();
        if (const auto r = refused_shaders_.find(h); r != refused_shaders_.end()) {
            count_left_out(r->second, "DeleteVertexShader of " + r->second.subject());
            refused_shaders_.erase(r);
        }
        shaders_.erase(h);
        break;
    }
    case VPSIM_OP_DRAW_PRIMITIVE: {
        const uint32_t type = a.u32(), start = a.u32(), count = a.u32();
        if (!draws || through_refused_shader(k.op) || draws_nothing(k.op, Args(c_.data(k), k.size))) break;
        prim_type(type);  // a type D3D8 has, before its vertex count
        read_past_end(k.op, uint64_t(start) + pipe::vertex_count(pipe::PrimitiveType(type), count) - 1);
        bind_for_draw(false);
        cmd({{"op", "DrawPrimitive"}, {"type", prim_type(type)}, {"start_vertex", start}, {"primitive_count", count}});
        ++r_.draws;
        break;
    }
    case VPSIM_OP_DRAW_INDEXED_PRIMITIVE: {
        const uint32_t type = a.u32(), min_index = a.u32(), nv = a.u32(), start = a.u32(), count = a.u32();
        if (!draws || through_refused_shader(k.op) || draws_nothing(k.op, Args(c_.data(k), k.size))) break;
        {
            // The highest vertex the draw fetches: its largest index (those within the index
            // buffer; scene-exec names any past it) plus the base vertex.
            prim_type(type);
            const Buffer& ib = live_buffer(indices_.id);
            const uint32_t isize = ib.format == kFmtIndex32 ? 4 : 2;
            const uint64_t refs = pipe::vertex_count(pipe::PrimitiveType(type), count);
            const auto* p = reinterpret_cast<const uint8_t*>(ib.bytes.data());
            uint64_t top = 0;
            for (uint64_t n = 0; n < refs && (uint64_t(start) + n + 1) * isize <= ib.bytes.size(); ++n) {
                const uint8_t* q = p + (uint64_t(start) + n) * isize;
                const uint32_t v = isize == 4 ? uint32_t(q[0] | q[1] << 8 | q[2] << 16 | uint32_t(q[3]) << 24)
                                              : uint32_t(q[0] | q[1] << 8);
                top = std::max<uint64_t>(top, v);
            }
            read_past_end(k.op, top + indices_.stride);
        }
        bind_for_draw(true);
        json d = {{"op", "DrawIndexedPrimitive"}, {"type", prim_type(type)}, {"min_index", min_index}, {"num_vertices", nv},
                  {"start_index", start}, {"primitive_count", count}};
        // NumVertices 0 names no range: the indices are not checked against one (Wine's d3d8 reads
        // it only to upload system-memory vertices).
        if (!nv) d.erase("num_vertices");
        cmd(std::move(d));
        ++r_.draws;
        break;
    }
    case VPSIM_OP_DRAW_PRIMITIVE_UP:
    case VPSIM_OP_DRAW_INDEXED_PRIMITIVE_UP: {
        // D3D8 unbinds stream 0 (and, for the indexed draw, the indices) after a user-pointer draw,
        // but not after one of 0 primitives or stride 0, which returns before drawing.
        const bool indexed = k.op == VPSIM_OP_DRAW_INDEXED_PRIMITIVE_UP;
        const uint32_t count = word_of(k, indexed ? 3 : 1), stride = word_of(k, indexed ? 5 : 2);
        if (draws && !through_refused_shader(k.op) && !draws_nothing(k.op, Args(c_.data(k), k.size))) draw_up(a, indexed);
        if (!count || !stride) break;
        state_.force("stream:0", *state_.default_of("stream:0"));
        if (k.op == VPSIM_OP_DRAW_INDEXED_PRIMITIVE_UP) state_.force("indices", *state_.default_of("indices"));
        break;
    }
    case VPSIM_OP_PRESENT: break;
    default: state_call(k, a);
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
        frame_ = f.index;
        for (size_t i = 0; i < f.calls.size(); ++i) {
            try {
                call(f.calls[i], draws);
            } catch (const std::runtime_error& e) {  // ConvertError, StateError
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
