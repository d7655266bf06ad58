#include "model/scene/program_cache.h"

#include <cstring>
#include <type_traits>

namespace vpsim::scene {

namespace {

template <class T>
void put(std::string& k, const T& v) {
    static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T>);
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    k.append(b, sizeof(T));
}

template <class T, size_t N>
void put(std::string& k, const std::array<T, N>& a) {
    static_assert(std::is_arithmetic_v<T> && sizeof(a) == N * sizeof(T));
    k.append(reinterpret_cast<const char*>(a.data()), sizeof(a));
}

void put_words(std::string& k, const std::vector<uint32_t>& w) {
    put(k, uint64_t(w.size()));
    k.append(reinterpret_cast<const char*>(w.data()), w.size() * sizeof(uint32_t));
}

// A field added to one of these structs changes its size (or fills padding: the comment in
// model/ff/ff_state.h asks for it to be added here too); these make the first case a compile error.
static_assert(sizeof(ff::Matrix) == 64);
static_assert(sizeof(ff::Light) == 104);
static_assert(sizeof(ff::LightSlot) == 108);
static_assert(sizeof(ff::Material) == 68);
static_assert(sizeof(ff::RenderStates) == 104);
static_assert(sizeof(ff::TextureStage) == 44);
static_assert(sizeof(ff::Viewport) == 24);
static_assert(sizeof(ff::FfInputs) == 24);

void put(std::string& k, const ff::Matrix& m) { put(k, m.m); }
template <size_t N>
void put(std::string& k, const std::array<ff::Matrix, N>& a) {  // the floats, one after another
    static_assert(sizeof(a) == N * 16 * sizeof(float));
    k.append(reinterpret_cast<const char*>(a.data()), sizeof(a));
}

void put(std::string& k, const ff::Light& l) {
    put(k, l.type);
    put(k, l.diffuse);
    put(k, l.specular);
    put(k, l.ambient);
    put(k, l.position);
    put(k, l.direction);
    for (float f : {l.range, l.falloff, l.attenuation0, l.attenuation1, l.attenuation2, l.theta, l.phi}) put(k, f);
}

void put(std::string& k, const ff::RenderStates& r) {
    for (bool b : {r.lighting, r.specularenable, r.localviewer, r.normalizenormals, r.colorvertex, r.fogenable,
                   r.rangefogenable, r.indexedvertexblendenable, r.pointscaleenable, r.clipping})
        put(k, b);
    put(k, r.ambient);
    for (ff::MaterialSource s : {r.diffusematerialsource, r.specularmaterialsource, r.ambientmaterialsource,
                                 r.emissivematerialsource})
        put(k, s);
    put(k, r.fogvertexmode);
    put(k, r.fogtablemode);
    for (float f : {r.fogstart, r.fogend, r.fogdensity, r.tweenfactor, r.pointsize, r.pointsize_min,
                    r.pointsize_max, r.pointscale_a, r.pointscale_b, r.pointscale_c})
        put(k, f);
    put(k, r.vertexblend);
    put(k, r.clipplaneenable);
}

void put(std::string& k, const ff::TextureStage& t) {
    for (uint32_t v : {t.texcoordindex, t.texturetransformflags, t.colorop, t.colorarg0, t.colorarg1, t.colorarg2,
                       t.alphaop, t.alphaarg0, t.alphaarg1, t.alphaarg2, t.resultarg})
        put(k, v);
}

}  // namespace

std::string ff_state_key(const ff::FfState& s) {
    std::string k;
    k.reserve(sizeof(ff::FfState) + s.lights.size() * 112);
    put(k, s.world);
    put(k, s.view);
    put(k, s.projection);
    put(k, s.texture);
    put(k, uint64_t(s.lights.size()));
    for (const auto& [index, slot] : s.lights) {
        put(k, index);
        put(k, slot.light);
        put(k, slot.enabled);
    }
    put(k, s.material.diffuse);
    put(k, s.material.ambient);
    put(k, s.material.specular);
    put(k, s.material.emissive);
    put(k, s.material.power);
    put(k, s.rs);
    for (const ff::TextureStage& t : s.stages) put(k, t);
    for (uint32_t v : {s.viewport.x, s.viewport.y, s.viewport.width, s.viewport.height}) put(k, v);
    put(k, s.viewport.minz);
    put(k, s.viewport.maxz);
    return k;
}

template <class T, class Make>
std::shared_ptr<const T> ProgramCache::find_or_make(std::map<std::string, std::shared_ptr<const T>>& map,
                                                    std::string key, const Make& make) {
    {
        const std::lock_guard<std::mutex> lock(m_);
        const auto it = map.find(key);
        if (it != map.end()) {
            ++hits_;
            return it->second;
        }
    }
    auto made = std::make_shared<const T>(make());  // (a make that throws leaves nothing behind)
    const std::lock_guard<std::mutex> lock(m_);
    ++misses_;
    return map.emplace(std::move(key), std::move(made)).first->second;
}

std::shared_ptr<const vs::CreatedShader> ProgramCache::created(const std::vector<uint32_t>& decl_tokens,
                                                               const vs::LoadedShader* shader, uint32_t const_count,
                                                               bool ff_profile,
                                                               const std::function<vs::CreatedShader()>& make) {
    std::string k;
    put(k, const_count);
    put(k, ff_profile);
    put_words(k, decl_tokens);
    put(k, shader != nullptr);
    if (shader) {
        put_words(k, shader->bytecode);
        put_words(k, shader->const_tokens);
    }
    return find_or_make(created_, std::move(k), make);
}

std::shared_ptr<const ff::FfProgram> ProgramCache::ff_program(const ff::FfState& state, const ff::FfInputs& inputs,
                                                              uint32_t const_count,
                                                              const std::function<ff::FfProgram()>& make) {
    std::string k = ff_state_key(state);
    put(k, inputs.loaded);
    put(k, inputs.components);
    put(k, inputs.pretransformed);
    put(k, const_count);
    return find_or_make(ff_, std::move(k), make);
}

uint64_t ProgramCache::hits() const {
    const std::lock_guard<std::mutex> lock(m_);
    return hits_;
}

uint64_t ProgramCache::misses() const {
    const std::lock_guard<std::mutex> lock(m_);
    return misses_;
}

}  // namespace vpsim::scene
