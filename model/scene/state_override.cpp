#include "model/scene/state_override.h"

#include "model/decl/decl_decoder.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <type_traits>
#include <utility>

namespace vpsim::scene {

namespace {

// The next command (in the backward scan: the nearest later one) that sets a slot whole.
template <class Key>
struct NextSetter {
    std::map<Key, size_t> at;
    size_t get(const Key& k) const {
        const auto it = at.find(k);
        return it == at.end() ? kNotReplaced : it->second;
    }
    void set(const Key& k, size_t i) { at[k] = i; }
};

// Later UpdateBuffers of one buffer, by their first byte: their ranges [lo, hi) and commands. An
// earlier update that covers a later one's range serves every query the later one could, which is
// then dropped; a query looks at the few nearest ranges that start at or before its own (a
// replacement missed only keeps a command).
struct Range {
    uint64_t hi;
    size_t command;
};
using Updates = std::multimap<uint64_t, Range>;

size_t covering(const Updates& later, uint64_t lo, uint64_t hi) {
    size_t found = kNotReplaced;
    auto it = later.upper_bound(lo);
    for (int looked = 0; it != later.begin() && looked < 8; ++looked) {
        --it;
        if (it->second.hi >= hi) found = std::min(found, it->second.command);
    }
    return found;
}

void add(Updates& later, uint64_t lo, uint64_t hi, size_t command) {
    for (auto it = later.lower_bound(lo); it != later.end() && it->first < hi;)
        it = it->second.hi <= hi ? later.erase(it) : std::next(it);
    later.emplace(lo, Range{hi, command});
}

// Whether each SetVertexShader writes constants: its shader's declaration (the latest
// CreateVertexShader of the name before it) holds D3DVSD_CONST tokens. FVF codes do not.
std::vector<char> shader_writes_constants(const Scene& s) {
    std::vector<char> out(s.commands.size(), 0);
    std::map<std::string, bool> writes;  // shader name -> its declaration writes constants
    decl::DecoderOptions o;
    o.const_count = s.const_count;
    for (size_t i = 0; i < s.commands.size(); ++i) {
        const CommandBody& c = s.commands[i].body;
        if (const auto* cv = std::get_if<CreateVertexShader>(&c)) {
            const decl::Declaration d = decl::decode(cv->declaration, o);
            writes[cv->name] = !d.valid || !d.constants.empty();  // a refused one: kept, the run reports it
        } else if (const auto* sv = std::get_if<SetVertexShader>(&c)) {
            if (sv->fvf) continue;
            const auto it = writes.find(sv->name);
            out[i] = it == writes.end() || it->second;  // not created: kept, the run reports it
        }
    }
    return out;
}

}  // namespace

std::vector<size_t> replaced_at(const Scene& s) {
    const size_t n = s.commands.size();
    std::vector<size_t> out(n, kNotReplaced);
    const std::vector<char> shader_constants = shader_writes_constants(s);
    NextSetter<uint32_t> constant, stream, render, transform, light, enable;
    NextSetter<std::pair<uint32_t, uint32_t>> stage;
    size_t shader = kNotReplaced, indices = kNotReplaced, viewport = kNotReplaced, material = kNotReplaced;
    std::map<std::string, Updates> updates;
    for (size_t i = n; i-- > 0;) {
        std::visit(
            [&](const auto& c) {
                using T = std::decay_t<decltype(c)>;
                if constexpr (std::is_same_v<T, SetVertexShaderConstant>) {
                    if (c.values.empty()) return;
                    size_t r = 0;  // every register written again: at the last of their next writes
                    for (uint32_t k = 0; k < c.values.size(); ++k) r = std::max(r, constant.get(c.reg + k));
                    out[i] = r;
                    for (uint32_t k = 0; k < c.values.size(); ++k) constant.set(c.reg + k, i);
                } else if constexpr (std::is_same_v<T, SetVertexShader>) {
                    if (!shader_constants[i]) out[i] = shader;
                    shader = i;
                } else if constexpr (std::is_same_v<T, SetStreamSource>) {
                    out[i] = stream.get(c.stream);
                    stream.set(c.stream, i);
                } else if constexpr (std::is_same_v<T, SetIndices>) {
                    out[i] = indices;
                    indices = i;
                } else if constexpr (std::is_same_v<T, SetRenderState>) {
                    out[i] = render.get(c.state);
                    render.set(c.state, i);
                } else if constexpr (std::is_same_v<T, SetTextureStageState>) {
                    out[i] = stage.get({c.stage, c.state});
                    stage.set({c.stage, c.state}, i);
                } else if constexpr (std::is_same_v<T, SetTransform>) {
                    out[i] = transform.get(c.state);
                    transform.set(c.state, i);
                } else if constexpr (std::is_same_v<T, MultiplyTransform>) {
                    out[i] = transform.get(c.state);  // it reads the matrix: it replaces nothing
                } else if constexpr (std::is_same_v<T, SetLight>) {
                    out[i] = light.get(c.index);
                    light.set(c.index, i);
                } else if constexpr (std::is_same_v<T, LightEnable>) {
                    out[i] = enable.get(c.index);
                    enable.set(c.index, i);
                } else if constexpr (std::is_same_v<T, SetViewport>) {
                    out[i] = viewport;
                    viewport = i;
                } else if constexpr (std::is_same_v<T, SetMaterial>) {
                    out[i] = material;
                    material = i;
                } else if constexpr (std::is_same_v<T, UpdateBuffer>) {
                    Updates& later = updates[c.buffer];
                    const uint64_t lo = c.offset, hi = lo + c.bytes.size();
                    out[i] = covering(later, lo, hi);
                    add(later, lo, hi, i);
                }
            },
            s.commands[i].body);
    }
    return out;
}

}  // namespace vpsim::scene
