#include "model/scene/scene_machine.h"

#include <algorithm>

#include "model/decl/decl_tokens.h"
#include "model/ff/ff_names.h"
#include "model/ff/fvf.h"
#include "model/vs/vs_validate.h"

#include <fmt/format.h>

#include <type_traits>

namespace vpsim::scene {

SceneMachine::SceneMachine(const Scene& s, const vs::Profile& profile, const tess::TessProfile& tess_profile,
                           const ff::Caps& caps)
    : s_(s), profile_(profile), tess_profile_(tess_profile), caps_(caps) {
    profile_.const_count = s.const_count;
    // The D3D8 runtime's caps while it processes vertices itself (DirectX 8.1 SDK, "Processing
    // Vertex Data": MaxActiveLights unlimited, MaxVertexBlendMatrices 4; 256 indexed blend
    // matrices, MaxVertexBlendMatrixIndex 255); the CPU has no program memory to fill.
    software_caps_ = caps;
    software_caps_.max_active_lights = 0xFFFFFFFFu;
    software_caps_.max_vertex_blend_matrices = 4;
    software_caps_.max_vertex_blend_matrix_index = 255;
    software_caps_.program_words = 0xFFFFFFFFu;
    app_constants_.assign(s.const_count, vs::Vec4{});
    device_constants_.assign(s.const_count, vs::Vec4{});
}

std::unique_ptr<vs::CreatedShader> SceneMachine::create_shader(const std::vector<uint32_t>& tokens,
                                                                const vs::LoadedShader* fn, bool ff) const {
    decl::DecoderOptions dopt;
    dopt.const_count = s_.const_count;
    auto make = [&] { return vs::create_vertex_shader(tokens, fn, dopt, ff ? ff::ff_profile(profile_) : profile_); };
    if (!programs_) return std::make_unique<vs::CreatedShader>(make());
    return std::make_unique<vs::CreatedShader>(*programs_->created(tokens, fn, s_.const_count, ff, make));
}

const vs::CreatedShader& SceneMachine::create(const std::string& ptr, const CreateVertexShader& c) {
    const vs::LoadedShader* fn = c.function ? &*c.function : nullptr;
    if (fn)
        for (const auto& w : fn->warnings) warnings_.push_back(fmt::format("{}: {}: {}", s_.name, ptr, w));
    auto created = create_shader(c.declaration, fn, false);
    std::vector<std::string> errors;
    for (const auto& d : created->decl.diagnostics)
        (d.severity == decl::Severity::Error ? errors : warnings_)
            .push_back((d.severity == decl::Severity::Error ? "declaration: "
                                                            : fmt::format("{}: {}: declaration: ", s_.name, ptr)) +
                       decl::to_string(d));
    for (const auto& d : created->validation.diagnostics)
        (d.severity == vs::Severity::Error ? errors : warnings_)
            .push_back((d.severity == vs::Severity::Error ? "function: " : fmt::format("{}: {}: function: ", s_.name, ptr)) +
                       vs::to_string(d));
    if (!created->valid) {
        std::string msg = fmt::format("CreateVertexShader \"{}\" failed", c.name);
        for (const auto& e : errors) msg += "\n  " + e;
        fail(ptr, msg);
    }
    auto& slot = shaders_[c.name];
    // A shader created again under the same name replaces it for later SetVertexShader calls;
    // the old one stays alive for draws that still use it (the timing model's draws in flight).
    if (slot) replaced_.push_back(std::move(slot));
    slot = std::move(created);
    if (slot->fixed_function) ff_tokens_[slot.get()] = c.declaration;
    return *slot;
}

std::vector<ConstantWrite> SceneMachine::set_shader(const std::string& ptr, const SetVertexShader& c) {
    if (c.fvf) {
        // SetVertexShader(FVF): the fixed-function shader with the FVF's declaration, created once per code.
        ff::FvfLayout layout;
        try {
            layout = ff::fvf_layout(*c.fvf);
        } catch (const ff::FvfError& e) {
            fail(ptr + "/fvf", e.what());
        }
        auto& slot = fvf_shaders_[*c.fvf];
        if (!slot) {
            decl::DecoderOptions dopt;
            dopt.const_count = s_.const_count;
            slot = std::make_unique<vs::CreatedShader>(vs::create_vertex_shader(layout.declaration, nullptr, dopt, profile_));
            if (!slot->valid) {  // cannot happen for a valid code: the layout is D3D8's
                std::string msg = fmt::format("the declaration of FVF 0x{:08X} is refused", *c.fvf);
                for (const auto& d : slot->decl.diagnostics) msg += "\n  " + decl::to_string(d);
                slot.reset();
                fail(ptr + "/fvf", msg);
            }
            ff_tokens_[slot.get()] = layout.declaration;
        }
        current_ = slot.get();
        current_name_ = "FVF " + ff::fvf_to_string(*c.fvf);
        current_fvf_ = *c.fvf;
        ff_inputs_ = layout.inputs;
        return {};
    }
    auto it = shaders_.find(c.name);
    if (it == shaders_.end()) fail(ptr + "/shader", fmt::format("shader \"{}\" has not been created", c.name));
    current_ = it->second.get();
    current_name_ = c.name;
    current_fvf_.reset();
    ff_inputs_ = current_->fixed_function ? ff::declaration_inputs(current_->decl) : ff::FfInputs{};
    std::vector<ConstantWrite> w;
    for (const auto& k : current_->decl.constants) {
        ConstantWrite cw;
        cw.reg = k.reg;
        for (size_t i = 0; i < 4; ++i) cw.value[i] = decl::bits_float(k.bits[i]);
        w.push_back(cw);
    }
    note_writes(w);
    return w;
}

std::vector<ConstantWrite> SceneMachine::set_constants(const std::string&, const SetVertexShaderConstant& c) const {
    std::vector<ConstantWrite> w(c.values.size());
    for (size_t k = 0; k < c.values.size(); ++k) w[k] = {uint32_t(c.reg + k), c.values[k]};
    note_writes(w);
    return w;
}

const Buffer* SceneMachine::written_version(const std::string& name) const {
    if (written_.empty()) return nullptr;
    const auto it = written_.find(name);
    return it == written_.end() ? nullptr : it->second.get();
}

void SceneMachine::set_stream(const std::string& ptr, const SetStreamSource& c) {
    if (!c.buffer) {
        streams_[c.stream] = {};
        stream_names_[c.stream].clear();
        stream_scene_[c.stream] = nullptr;
        return;
    }
    auto it = s_.buffers.find(*c.buffer);
    if (it == s_.buffers.end()) fail(ptr + "/buffer", fmt::format("no buffer \"{}\"", *c.buffer));
    const Buffer* w = written_version(*c.buffer);
    const Buffer& b = w ? *w : it->second;
    streams_[c.stream] = {b.bytes.data(), b.bytes.size(), c.stride, true};
    stream_names_[c.stream] = *c.buffer;
    stream_scene_[c.stream] = &it->second;
}

void SceneMachine::set_indices(const std::string& ptr, const SetIndices& c) {
    indices_ = nullptr;
    base_vertex_ = c.base_vertex;
    if (!c.buffer) return;
    auto it = s_.buffers.find(*c.buffer);
    if (it == s_.buffers.end() || !it->second.is_index())
        fail(ptr + "/buffer", fmt::format("no index buffer \"{}\"", *c.buffer));
    const Buffer* w = written_version(*c.buffer);
    indices_ = w ? w : &it->second;
    index_name_ = *c.buffer;
}

void SceneMachine::update_buffer(const std::string& ptr, const UpdateBuffer& c) {
    const auto it = s_.buffers.find(c.buffer);
    if (it == s_.buffers.end()) fail(ptr + "/buffer", fmt::format("no buffer \"{}\"", c.buffer));
    const uint64_t end = uint64_t(c.offset) + c.bytes.size();
    if (end > it->second.bytes.size())
        fail(ptr + "/bytes", fmt::format("bytes {}..{} go past the end of buffer \"{}\", which holds {} bytes", c.offset,
                                         end - 1, c.buffer, it->second.bytes.size()));
    std::shared_ptr<Buffer>& cur = written_[c.buffer];
    const Buffer* before = cur ? cur.get() : &it->second;
    // A draw in flight (the timing model) may still read the current bytes: write a copy then.
    if (!cur || cur.use_count() > 1) cur = std::make_shared<Buffer>(*before);
    std::copy(c.bytes.begin(), c.bytes.end(), cur->bytes.begin() + std::ptrdiff_t(c.offset));
    if (cur.get() == before) return;
    for (uint32_t s = 0; s < 16; ++s)
        if (streams_[s].bound && stream_names_[s] == c.buffer) streams_[s].data = cur->bytes.data();
    if (indices_ && index_name_ == c.buffer) indices_ = cur.get();
}

const uint8_t* SceneMachine::scene_bytes(uint32_t s, const uint8_t* data) const {
    if (s >= 16 || !stream_scene_[s] || streams_[s].data != data || data == stream_scene_[s]->bytes.data()) return nullptr;
    return stream_scene_[s]->bytes.data();
}

void SceneMachine::check_shader(const std::string& ptr, bool streams) const {
    if (!current_) fail(ptr, "no vertex shader is set: expected a SetVertexShader before the draw");
    if (!streams) return;
    try {
        vs::check_streams(current_->decl, streams_);
    } catch (const vs::FetchError& e) {
        fail(ptr, fmt::format("shader \"{}\": {}", current_name_, e.what()));
    }
}

DrawSetup SceneMachine::start(size_t command, const std::string& ptr, bool indexed, PrimitiveType t,
                              uint32_t prims) const {
    DrawSetup d;
    d.command = command;
    d.pointer = ptr;
    d.indexed = indexed;
    d.type = t;
    d.primitives = prims;
    d.refs = pipe::vertex_count(t, prims);
    d.shader = current_;
    d.shader_name = current_name_;
    d.streams = streams_;
    if (!written_.empty()) {
        for (uint32_t s = 0; s < 16; ++s)
            if (streams_[s].bound)
                if (const auto w = written_.find(stream_names_[s]); w != written_.end()) d.written.push_back(w->second);
        if (indexed && indices_)
            if (const auto w = written_.find(index_name_); w != written_.end()) d.written.push_back(w->second);
    }
    if (current_ && current_->fixed_function) {
        d.fixed_function = true;
        d.ff_inputs = ff_inputs_;
        d.ff_state = ff_snapshot();
        if (!software_now()) ff_program(d);  // the CPU runs the reference processor instead
    }
    return d;
}

DrawSetup SceneMachine::draw(size_t command, const std::string& ptr, const DrawPrimitive& c) const {
    check_shader(ptr);
    const uint64_t n = pipe::vertex_count(c.type, c.primitive_count);
    if (uint64_t(c.start_vertex) + n > 0x100000000ull)
        fail(ptr, fmt::format("vertices {}..{} go past index 0xFFFFFFFF", c.start_vertex, c.start_vertex + n - 1));
    DrawSetup d = start(command, ptr, false, c.type, c.primitive_count);
    d.start = c.start_vertex;
    check_vertex_range(d);
    npatch(d);
    finish(d);
    return d;
}

DrawSetup SceneMachine::draw(size_t command, const std::string& ptr, const DrawIndexedPrimitive& c) const {
    check_shader(ptr);
    if (!indices_) fail(ptr, "no index buffer is set: expected a SetIndices before the draw");
    const uint64_t have = indices_->index_count();
    uint64_t prims = 0;
    if (c.primitive_count) {
        prims = *c.primitive_count;
    } else {
        prims = c.start_index < have ? pipe::primitive_count(c.type, have - c.start_index) : 0;
        if (prims == 0)
            fail(ptr, fmt::format("index buffer \"{}\" holds {} indices, no {} from start_index {}: expected a "
                                  "primitive_count",
                                  index_name_, have, pipe::primitive_type_name(c.type), c.start_index));
    }
    const uint64_t n = pipe::vertex_count(c.type, prims);
    if (uint64_t(c.start_index) + n > have)
        fail(ptr, fmt::format("{} {} read indices {}..{}, but index buffer \"{}\" holds {}", prims,
                              pipe::primitive_type_name(c.type), c.start_index, c.start_index + n - 1, index_name_, have));
    DrawSetup d = start(command, ptr, true, c.type, uint32_t(prims));
    d.index_buffer = indices_;
    d.index_name = index_name_;
    d.start = c.start_index;
    d.base_vertex = base_vertex_;
    for (uint64_t k = 0; k < n; ++k) {
        const uint32_t raw = indices_->index(c.start_index + k);
        if (c.num_vertices && (raw < c.min_index || uint64_t(raw) >= uint64_t(c.min_index) + *c.num_vertices))
            fail(ptr, fmt::format("index {} (position {} in \"{}\") is outside min_index..min_index+num_vertices-1 "
                                  "= {}..{}",
                                  raw, c.start_index + k, index_name_, c.min_index,
                                  uint64_t(c.min_index) + *c.num_vertices - 1));
        if (uint64_t(raw) + base_vertex_ > 0xFFFFFFFFull)
            fail(ptr, fmt::format("index {} + base_vertex {} goes past vertex 0xFFFFFFFF", raw, base_vertex_));
    }
    npatch(d);
    finish(d);
    return d;
}

DrawSetup SceneMachine::generated_draw(size_t command, const std::string& ptr, Generated g) const {
    DrawSetup d = start(command, ptr, true, PrimitiveType::TriangleList, uint32_t(g.indices.size() / 3));
    d.refs = g.indices.size();
    d.generated = std::make_shared<const Generated>(std::move(g));
    return d;
}

// A non-indexed draw reads vertices start..start+refs-1: if the last cannot be fetched, the draw
// fails with the error of the first that cannot (whether a vertex can be fetched is monotonic
// in its number), found by bisection before anything per reference is allocated.
void SceneMachine::check_vertex_range(const DrawSetup& d) const {
    if (d.indexed || d.generated || d.refs == 0) return;
    auto fetches = [&](uint32_t v) {
        try {
            (void)vs::fetch_vertex(d.shader->decl, d.streams, v);
            return true;
        } catch (const vs::FetchError&) {
            return false;
        }
    };
    uint64_t lo = d.start, hi = d.start + d.refs - 1;
    if (fetches(uint32_t(hi))) return;
    while (lo < hi) {  // the first vertex in lo..hi that cannot be fetched
        const uint64_t mid = lo + (hi - lo) / 2;
        if (fetches(uint32_t(mid))) lo = mid + 1;
        else hi = mid;
    }
    try {
        (void)vs::fetch_vertex(d.shader->decl, d.streams, uint32_t(lo));
    } catch (const vs::FetchError& e) {
        throw fetch_error(d, e);
    }
}

void SceneMachine::npatch(DrawSetup& d) const {
    if (!npatches_on() || !pipe::is_triangle_type(d.type) || d.refs < 3) return;
    // The limit on what the draw generates, before each reference's registers are fetched.
    try {
        tess::check_npatch_limit(pipe::primitive_count(d.type, d.refs), tess::npatch_segments(npatch_, tess_profile_),
                                 tess_profile_);
    } catch (const std::exception& e) {
        fail(d.pointer, fmt::format("N-patch: {}", e.what()));
    }
    // Each reference's registers, fetched as a draw would, then every triangle subdivided.
    std::vector<tess::Registers> refs(d.refs);
    try {
        for (uint64_t k = 0; k < d.refs; ++k) refs[k] = vs::fetch_vertex(d.shader->decl, d.streams, d.vertex(k));
    } catch (const vs::FetchError& e) {
        throw fetch_error(d, e);
    }
    tess::NPatchOutput o;
    try {
        o = tess::npatch_draw(d.type, refs, npatch_, tess_profile_);
    } catch (const std::exception& e) {
        fail(d.pointer, fmt::format("N-patch: {}", e.what()));
    }
    Generated g;
    g.kind = Generated::Kind::NPatch;
    g.vertices = std::move(o.vertices);
    for (const auto& t : o.triangles) g.indices.insert(g.indices.end(), t.begin(), t.end());
    g.control_points = 3;
    g.support = npatch_.position_order == tess::Order::Cubic ? 10 : 3;
    g.patches = uint32_t(pipe::primitive_count(d.type, d.refs));
    g.evaluated_registers = uint32_t(__builtin_popcount(d.shader->decl.memory_mask));
    g.approximated = o.approximated;
    g.segments = {o.segments, o.segments, o.segments, 0};
    g.what = fmt::format("N-patches ({} segments, {} position, {} normal)", o.segments,
                         tess::order_name(npatch_.position_order), tess::order_name(npatch_.normal_order));
    for (const auto& w : o.warnings) warnings_.push_back(fmt::format("{}: {}: {}", s_.name, d.pointer, w));
    DrawSetup n = generated_draw(d.command, d.pointer, std::move(g));
    d = std::move(n);
}

namespace {
// What the timing model needs to know of a patch beyond its vertices: control points read,
// control points each vertex is evaluated over, and a name.
void describe_patch(Generated& g, const tess::RectPatchInfo& i) {
    g.control_points = i.width * i.height;
    g.support = (uint32_t(i.order) + 1) * (uint32_t(i.order) + 1);
    g.what = fmt::format("DrawRectPatch {} {} {}x{}", tess::basis_name(i.basis), tess::order_name(i.order), i.width,
                         i.height);
}
void describe_patch(Generated& g, const tess::TriPatchInfo& i) {
    g.control_points = i.num_vertices;
    g.support = i.num_vertices;
    g.what = fmt::format("DrawTriPatch {} {} ({} points)", tess::basis_name(i.basis), tess::order_name(i.order),
                         i.num_vertices);
}
}  // namespace

template <class Command>
DrawSetup SceneMachine::patch_draw(size_t command, const std::string& ptr, const Command& c) {
    constexpr bool tri = std::is_same_v<Command, DrawTriPatch>;
    // A redraw of a cached handle (no info) reads no stream: the bound streams do not matter.
    check_shader(ptr, c.info.has_value());
    const uint64_t hits = patches_.counters().hits, reused = patches_.counters().reused;
    const float* segs = c.segments ? c.segments->data() : nullptr;
    tess::TessOutput o;
    try {
        if constexpr (tri)
            o = patches_.draw_tri(c.handle, segs, c.info ? &*c.info : nullptr, current_->decl, streams_, patch_state_);
        else
            o = patches_.draw_rect(c.handle, segs, c.info ? &*c.info : nullptr, current_->decl, streams_, patch_state_);
    } catch (const tess::TessError& e) {
        fail(ptr, fmt::format("{}: {}", tri ? "DrawTriPatch" : "DrawRectPatch", e.what()));
    }
    Generated g;
    g.kind = tri ? Generated::Kind::TriPatch : Generated::Kind::RectPatch;
    g.vertices = std::move(o.vertices);
    for (const auto& t : o.domain.triangles) g.indices.insert(g.indices.end(), t.begin(), t.end());
    g.approximated = o.approximated;
    g.segments = o.segments;
    g.degenerate_normals = o.degenerate_normals;
    g.evaluated_registers = uint32_t(__builtin_popcount(current_->decl.memory_mask));
    g.handle_hit = patches_.counters().hits != hits;
    g.reused = patches_.counters().reused != reused;
    if constexpr (tri) {
        const tess::TriPatchInfo* i = patches_.tri_info(c.handle);
        if (!i && c.info) i = &*c.info;
        if (i) describe_patch(g, *i);
    } else {
        const tess::RectPatchInfo* i = patches_.rect_info(c.handle);
        if (!i && c.info) i = &*c.info;
        if (i) describe_patch(g, *i);
    }
    for (const auto& w : o.warnings) warnings_.push_back(fmt::format("{}: {}: {}", s_.name, ptr, w));
    DrawSetup d = generated_draw(command, ptr, std::move(g));
    finish(d);
    return d;
}

DrawSetup SceneMachine::draw(size_t command, const std::string& ptr, const DrawRectPatch& c) {
    return patch_draw(command, ptr, c);
}
DrawSetup SceneMachine::draw(size_t command, const std::string& ptr, const DrawTriPatch& c) {
    return patch_draw(command, ptr, c);
}

void SceneMachine::delete_patch(const std::string& ptr, const DeletePatch& c) {
    try {
        patches_.delete_patch(c.handle);
    } catch (const tess::TessError& e) {
        fail(ptr + "/handle", fmt::format("DeletePatch: {}", e.what()));
    }
}

void SceneMachine::set_render_state(const std::string& ptr, const SetRenderState& c) {
    switch (c.state) {
    case ff::kRsSoftwareVertexProcessing:
        // D3D8: meaningful only on a device created with D3DCREATE_MIXED_VERTEXPROCESSING.
        if (s_.vertex_processing != VertexProcessing::Mixed)
            fail(ptr, fmt::format("D3DRS_SOFTWAREVERTEXPROCESSING is only valid on a device created with "
                                  "D3DCREATE_MIXED_VERTEXPROCESSING; this scene's device is {} (its \"device\": "
                                  "{{\"behavior_flags\": ...}})",
                                  s_.vertex_processing == VertexProcessing::Software ? "SOFTWARE" : "HARDWARE"));
        software_state_ = c.dword != 0;
        break;
    case kRsPatchEdgeStyle:
        patch_state_.edge_style = npatch_.edge_style = c.value != 0 ? tess::EdgeStyle::Continuous : tess::EdgeStyle::Discrete;
        break;
    case kRsPatchSegments: patch_state_.patch_segments = npatch_.segments = c.value; break;
    case kRsPositionOrder: npatch_.position_order = c.value == 1.0f ? tess::Order::Linear : tess::Order::Cubic; break;
    case kRsNormalOrder: npatch_.normal_order = c.value == 1.0f ? tess::Order::Linear : tess::Order::Quadratic; break;
    default:
        if (ff::apply_render_state(ff_.rs, c.state, c.dword)) ff_changed();
        break;
    }
}

std::shared_ptr<const ff::FfState> SceneMachine::ff_snapshot() const {
    if (!ff_snapshot_) ff_snapshot_ = std::make_shared<const ff::FfState>(ff_);
    return ff_snapshot_;
}

void SceneMachine::set_transform(const std::string& ptr, const SetTransform& c) {
    ff::Matrix* m = ff::transform_matrix(ff_, c.state);
    if (!m) fail(ptr + "/state", fmt::format("{} is not a D3DTRANSFORMSTATETYPE", c.state));
    *m = c.matrix;
    ff_changed();
}

void SceneMachine::multiply_transform(const std::string& ptr, const MultiplyTransform& c) {
    ff::Matrix* m = ff::transform_matrix(ff_, c.state);
    if (!m) fail(ptr + "/state", fmt::format("{} is not a D3DTRANSFORMSTATETYPE", c.state));
    *m = ff::multiply(c.matrix, *m);
    ff_changed();
}

void SceneMachine::set_light(const std::string&, const SetLight& c) {
    ff_.lights[c.index].light = c.light;
    ff_changed();
}

void SceneMachine::light_enable(const std::string&, const LightEnable& c) {
    auto it = ff_.lights.find(c.index);
    if (it == ff_.lights.end()) it = ff_.lights.emplace(c.index, ff::LightSlot{ff::Light::d3d_default(), false}).first;
    it->second.enabled = c.enable;
    ff_changed();
}

void SceneMachine::set_viewport(const std::string&, const SetViewport& c) {
    ff_.viewport = c.viewport;
    ff_changed();
}

void SceneMachine::set_material(const std::string&, const SetMaterial& c) {
    ff_.material = c.material;
    ff_changed();
}

bool SceneMachine::apply_ff_state(const std::string& ptr, const CommandBody& c) {
    return std::visit(
        [&](const auto& b) {
            using T = std::decay_t<decltype(b)>;
            if constexpr (std::is_same_v<T, SetTransform>) set_transform(ptr, b);
            else if constexpr (std::is_same_v<T, MultiplyTransform>) multiply_transform(ptr, b);
            else if constexpr (std::is_same_v<T, SetLight>) set_light(ptr, b);
            else if constexpr (std::is_same_v<T, LightEnable>) light_enable(ptr, b);
            else if constexpr (std::is_same_v<T, SetViewport>) set_viewport(ptr, b);
            else if constexpr (std::is_same_v<T, SetMaterial>) set_material(ptr, b);
            else if constexpr (std::is_same_v<T, SetTextureStageState>) set_texture_stage_state(ptr, b);
            else return false;
            return true;
        },
        c);
}

void SceneMachine::set_texture_stage_state(const std::string& ptr, const SetTextureStageState& c) {
    if (c.stage >= ff_.stages.size()) fail(ptr + "/stage", fmt::format("texture stage {} is not 0..7", c.stage));
    if (!ff::apply_texture_stage_state(ff_.stages[c.stage], c.state, c.value))
        fail(ptr + "/state", fmt::format("texture stage state {} is not one of {}", c.state,
                                         ff::enum_names(ff::texture_stage_state_names())));
    ff_changed();
}

uint64_t DrawSetup::unique_vertices() const {
    if (generated) return generated->vertices.size();
    if (!indexed || !refs) return refs;
    // A bitmap over the draw's index range.
    uint32_t lo = ~0u, hi = 0;
    for (uint64_t k = 0; k < refs; ++k) {
        const uint32_t v = vertex(k);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    std::vector<bool> seen(uint64_t(hi) - lo + 1);
    uint64_t unique = 0;
    for (uint64_t k = 0; k < refs; ++k) {
        const uint32_t v = vertex(k) - lo;
        if (!seen[v]) seen[v] = true, ++unique;
    }
    return unique;
}

SceneError SceneMachine::fetch_error(const DrawSetup& d, const vs::FetchError& e) const {
    return s_.error(d.pointer, fmt::format("shader \"{}\": {}", d.shader_name, e.what()));
}

}  // namespace vpsim::scene
