#include "model/capture/capture_state.h"

#include "model/capture/capture_calls.h"
#include "model/ff/ff_names.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

namespace vpsim::capture {

namespace {

using nlohmann::json;

uint32_t bits(float f) {
    uint32_t d;
    std::memcpy(&d, &f, 4);
    return d;
}

// D3D8's render-state defaults for the states vpsim models: wined3d's init_default_render_states
// (Wine 8.0), but POINTSIZE_MIN 0, which Wine's d3d8 sets over wined3d's 1.0 at device creation and
// Reset (dlls/d3d8/device.c). POINTSIZE_MAX's is the device's MaxPointSize, filled in by default_of().
const std::map<uint32_t, uint32_t>& render_state_defaults() {
    static const std::map<uint32_t, uint32_t> d = {
        {28, 0},          {29, 0},          {35, 0},   {36, bits(0)}, {37, bits(1)}, {38, bits(1)}, {48, 0},
        {136, 1},         {137, 1},         {139, 0},  {140, 0},      {141, 1},      {142, 1},      {143, 0},
        {145, 1},         {146, 2},         {147, 0},  {148, 0},      {151, 0},      {152, 0},      {153, 0},
        {154, bits(1)},   {155, bits(0)},   {157, 0},  {158, bits(1)}, {159, bits(0)}, {160, bits(0)}, {163, 0},
        {164, bits(1)},   {167, 0},         {170, bits(0)}, {172, 3}, {173, 1}};
    return d;
}

// The render states a D3DSBT_VERTEXSTATE block holds, of those vpsim models: Wine 8.0's wined3d
// stateblock.c vertex_states_render[] (D3D9-era names: POSITIONDEGREE = D3D8's POSITIONORDER 172,
// NORMALDEGREE = NORMALORDER 173). Not PATCHSEGMENTS (164) nor SOFTWAREVERTEXPROCESSING (153):
// those only a D3DSBT_ALL block holds.
const std::set<uint32_t> kVertexRenderStates = {28,  29,  35,  36,  37,  38,  48,  136, 137, 139, 140, 141, 142, 143, 145, 146,
                                                147, 148, 151, 152, 154, 155, 157, 158, 159, 160, 163, 166, 167, 170, 172, 173};
// A D3DSBT_PIXELSTATE block's, of those vpsim models (wined3d's pixel_states_render[]): the fog range and density.
const std::set<uint32_t> kPixelRenderStates = {36, 37, 38};

// "rs:137" -> ("rs", 137); "tss:2:11" -> ("tss", 2) with `second` 11.
std::string kind_of(const std::string& key, uint32_t* first = nullptr, uint32_t* second = nullptr) {
    const size_t a = key.find(':');
    const std::string kind = key.substr(0, a);
    if (a != std::string::npos && first) {
        const size_t b = key.find(':', a + 1);
        *first = uint32_t(std::stoul(key.substr(a + 1, b - a - 1)));
        if (b != std::string::npos && second) *second = uint32_t(std::stoul(key.substr(b + 1)));
    }
    return kind;
}

}  // namespace

std::optional<json> render_state_command(uint32_t state, uint32_t value) {
    const ff::RenderStateInfo* info = ff::find_render_state(std::to_string(state));
    if (!info) return std::nullopt;
    json v;
    switch (info->kind) {
    case ff::RsKind::Bool: v = value != 0; break;
    case ff::RsKind::Float: {
        float f;
        std::memcpy(&f, &value, 4);
        if (!std::isfinite(f)) throw StateError(fmt::format("render state {} is not a finite number", state));
        v = f;
        break;
    }
    case ff::RsKind::Enum: {
        bool ok = false;
        for (const auto& e : info->values) ok = ok || e.value == value;
        if (!ok) throw StateError(fmt::format("render state {} ({}): {} is none of its values", state, info->name, value));
        v = value;
        break;
    }
    case ff::RsKind::Color: v = fmt::format("0x{:08X}", value); break;
    case ff::RsKind::Dword: v = value; break;
    }
    return json{{"op", "SetRenderState"}, {"state", state}, {"value", v}};
}

std::optional<json> DeviceState::default_of(const std::string& key) const {
    uint32_t n = 0, m = 0;
    const std::string kind = kind_of(key, &n, &m);
    if (kind == "rs") {
        if (n == ff::kRsPointSizeMax) return render_state_command(n, bits(max_point_size_));
        auto it = render_state_defaults().find(n);
        if (it == render_state_defaults().end()) return std::nullopt;
        return render_state_command(n, it->second);
    }
    if (kind == "tss")  // D3D8's defaults (TEXCOORDINDEX: the stage's own number; stage 0 COLOROP MODULATE ...)
        return json{{"op", "SetTextureStageState"}, {"stage", n}, {"state", m}, {"value", ff::texture_stage_default(n, m)}};
    if (kind == "ts")
        return json{{"op", "SetTransform"}, {"state", n}, {"matrix", {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}}};
    if (kind == "c") return json{{"op", "SetVertexShaderConstant"}, {"register", n}, {"values", {0, 0, 0, 0}}};
    if (kind == "lenable") return json{{"op", "LightEnable"}, {"index", n}, {"enable", false}};
    if (kind == "material") {
        const json z = {0, 0, 0, 0};
        return json{{"op", "SetMaterial"},
                    {"material", {{"diffuse", z}, {"ambient", z}, {"specular", z}, {"emissive", z}, {"power", 0}}}};
    }
    if (kind == "viewport")
        return json{{"op", "SetViewport"},
                    {"viewport", {{"x", 0}, {"y", 0}, {"width", width_}, {"height", height_}, {"minz", 0}, {"maxz", 1}}}};
    if (kind == "stream") return json{{"op", "_stream"}, {"stream", n}, {"id", 0}, {"stride", 0}};
    if (kind == "indices") return json{{"op", "_indices"}, {"id", 0}, {"base", 0}};
    return std::nullopt;  // "light:N" (no light until SetLight or LightEnable), "vs" (none: the program must set one)
}

bool DeviceState::contains(const Block& b, const std::string& key) const {
    uint32_t n = 0, m = 0;
    const std::string kind = kind_of(key, &n, &m);
    if (b.type == 0) return b.values.count(key) != 0;
    if (kind == "light" || kind == "lenable") return b.type != kSbtPixelState && b.lights.count(key) != 0;
    if (b.type == kSbtAll) return true;
    // wined3d's vertex_states_texture[] hold TEXCOORDINDEX and TEXTURETRANSFORMFLAGS; its
    // pixel_states_texture[] those and the blending states (COLOROP .. RESULTARG).
    if (kind == "tss")
        return m == ff::kTssTexCoordIndex || m == ff::kTssTextureTransformFlags || b.type == kSbtPixelState;
    if (kind == "rs") return (b.type == kSbtVertexState ? kVertexRenderStates : kPixelRenderStates).count(n) != 0;
    return b.type == kSbtVertexState && (kind == "vs" || kind == "c");
}

void DeviceState::set(const std::vector<std::pair<std::string, json>>& values, const json& cmd) {
    if (recording_) {
        for (const auto& [k, v] : values) recording_->values[k] = v;
        return;
    }
    for (const auto& [k, v] : values) current_[k] = v;
    emit_(cmd);
}

void DeviceState::force(const std::string& key, const json& cmd) {
    current_[key] = cmd;
    emit_(cmd);
}

const json* DeviceState::value(const std::string& key) const {
    if (recording_) {
        auto r = recording_->values.find(key);
        if (r != recording_->values.end()) return &r->second;
    }
    auto it = current_.find(key);
    return it == current_.end() ? nullptr : &it->second;
}

DeviceState::Block& DeviceState::block(uint32_t handle) {
    auto it = blocks_.find(handle);
    if (it == blocks_.end()) throw StateError(fmt::format("state block {} was never created (or was deleted) in this capture", handle));
    return it->second;
}

void DeviceState::create_block(uint32_t handle, uint32_t type) {
    if (type != kSbtAll && type != kSbtPixelState && type != kSbtVertexState)
        throw StateError(fmt::format("state block type {} is not a D3DSTATEBLOCKTYPE (1 ALL, 2 PIXELSTATE, 3 VERTEXSTATE)", type));
    Block b;
    b.type = type;
    for (const auto& [k, v] : current_)
        if (kind_of(k) == "light" || kind_of(k) == "lenable") b.lights.insert(k);
    blocks_[handle] = std::move(b);
    capture_block(handle);
}

void DeviceState::begin_block() {
    if (recording_) throw StateError("BeginStateBlock while a state block is already being recorded");
    recording_ = Block{};  // (not emplace(): clang sees Block as not default-constructible inside DeviceState, whose optional<Block> is instantiated before Block's member initializers)
}

void DeviceState::end_block(uint32_t handle) {
    if (!recording_) throw StateError("EndStateBlock with no BeginStateBlock before it");
    blocks_[handle] = std::move(*recording_);
    recording_.reset();
}

// The block takes the device's current values of the state it holds.
void DeviceState::capture_block(uint32_t handle) {
    Block& b = block(handle);
    if (b.type == 0) {
        for (auto& [k, v] : b.values) {
            auto it = current_.find(k);
            if (it != current_.end()) v = it->second;
            else if (auto d = default_of(k)) v = *d;
        }
        return;
    }
    b.values.clear();
    for (const auto& [k, v] : current_)
        if (contains(b, k)) b.values[k] = v;
}

// The device takes the block's values; a typed block's state that was at its default when the block
// captured it goes back to the default.
void DeviceState::apply_block(uint32_t handle) {
    const Block& b = block(handle);  // force() changes current_ only, never blocks_
    std::set<std::string> keys;
    for (const auto& [k, v] : b.values) keys.insert(k);
    if (b.type != 0)
        for (const auto& [k, v] : current_)
            if (contains(b, k)) keys.insert(k);
    for (const std::string& k : keys) {
        auto it = b.values.find(k);
        if (it != b.values.end()) force(k, it->second);
        else if (auto d = default_of(k)) force(k, *d);
    }
}

void DeviceState::delete_block(uint32_t handle) {
    block(handle);
    blocks_.erase(handle);
}

void DeviceState::reset(uint32_t width, uint32_t height) {
    set_back_buffer(width, height);
    recording_.reset();
    for (const auto& [k, v] : current_)  // emit_ and default_of() do not read current_
        if (k != "viewport")
            if (auto d = default_of(k)) emit_(*d);
    current_.clear();
    emit_(*default_of("viewport"));  // the new back buffer's, whether or not the program had set one
}

}  // namespace vpsim::capture
