#include "model/scene/functional.h"

#include "model/scene/scene_machine.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace vpsim::scene {

ShadeFn reference_shade() {
    return [](const ShadeState& st, const uint32_t* idx, size_t n, vs::VertexOutputs* out) {
        for (size_t k = 0; k < n; ++k)
            out[k] = vs::execute_reference(*st.shader->program, *st.profile,
                                           st.generated ? (*st.generated)[idx[k]]
                                                        : vs::fetch_vertex(st.shader->decl, *st.streams, idx[k]),
                                           *st.constants);
    };
}

namespace {

// The distinct vertex indices of a draw (Keep::Counts), visited in ascending order without a list of
// its references: consecutive for a non-indexed draw, else a bitmap over [lo, hi] or, when that
// would be larger, a sorted copy of the indices.
template <class Visit>
void for_each_distinct(const DrawSetup& s, Visit&& visit) {
    if (!s.refs) return;
    if (!s.indexed && !s.generated) {
        for (uint64_t k = 0; k < s.refs; ++k) visit(uint32_t(s.start + k));
        return;
    }
    uint32_t lo = ~0u, hi = 0;
    for (uint64_t k = 0; k < s.refs; ++k) {
        const uint32_t v = s.vertex(k);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    const uint64_t range = uint64_t(hi) - lo + 1;
    if (range / 8 <= s.refs * sizeof(uint32_t)) {
        std::vector<uint64_t> seen((range + 63) / 64);
        for (uint64_t k = 0; k < s.refs; ++k) {
            const uint64_t b = s.vertex(k) - lo;
            seen[b / 64] |= uint64_t(1) << (b % 64);
        }
        for (size_t w = 0; w < seen.size(); ++w)
            for (uint64_t bits = seen[w]; bits; bits &= bits - 1)
                visit(uint32_t(lo + w * 64 + uint64_t(__builtin_ctzll(bits))));
        return;
    }
    std::vector<uint32_t> sorted(s.refs);
    for (uint64_t k = 0; k < s.refs; ++k) sorted[k] = s.vertex(k);
    std::sort(sorted.begin(), sorted.end());
    for (size_t k = 0; k < sorted.size(); ++k)
        if (k == 0 || sorted[k] != sorted[k - 1]) visit(sorted[k]);
}

class Runner {
public:
    Runner(const Scene& s, const vs::Profile& profile, const ShadeFn& shade, const tess::TessProfile& tp,
           const ff::Caps& caps, Keep keep, const std::function<void(DrawResult&&)>& sink)
        : m_(s, profile, tp, caps), shade_(shade ? shade : reference_shade()), keep_(keep), sink_(sink) {
        constants_.assign(s.const_count, vs::Vec4{});
    }

    std::vector<std::string> run() {
        const Scene& s = m_.scene();
        for (size_t i = 0; i < s.commands.size(); ++i) {
            const Command& c = s.commands[i];
            std::visit([&](const auto& body) { exec(i, c.pointer, body); }, c.body);
        }
        return m_.warnings();
    }

private:
    void apply(const std::vector<ConstantWrite>& w) {
        for (const auto& k : w) constants_[k.reg] = k.value;
    }
    void exec(size_t, const std::string& ptr, const CreateVertexShader& c) { m_.create(ptr, c); }
    void exec(size_t, const std::string& ptr, const SetVertexShader& c) { apply(m_.set_shader(ptr, c)); }
    void exec(size_t, const std::string& ptr, const SetVertexShaderConstant& c) { apply(m_.set_constants(ptr, c)); }
    void exec(size_t, const std::string& ptr, const SetStreamSource& c) { m_.set_stream(ptr, c); }
    void exec(size_t, const std::string& ptr, const SetIndices& c) { m_.set_indices(ptr, c); }
    void exec(size_t i, const std::string& ptr, const DrawPrimitive& c) { shade(m_.draw(i, ptr, c)); }
    void exec(size_t i, const std::string& ptr, const DrawIndexedPrimitive& c) { shade(m_.draw(i, ptr, c)); }
    void exec(size_t i, const std::string& ptr, const DrawRectPatch& c) { shade(m_.draw(i, ptr, c)); }
    void exec(size_t i, const std::string& ptr, const DrawTriPatch& c) { shade(m_.draw(i, ptr, c)); }
    void exec(size_t, const std::string& ptr, const DeletePatch& c) { m_.delete_patch(ptr, c); }
    void exec(size_t, const std::string& ptr, const SetRenderState& c) { m_.set_render_state(ptr, c); }
    void exec(size_t, const std::string& ptr, const SetTransform& c) { m_.set_transform(ptr, c); }
    void exec(size_t, const std::string& ptr, const MultiplyTransform& c) { m_.multiply_transform(ptr, c); }
    void exec(size_t, const std::string& ptr, const SetLight& c) { m_.set_light(ptr, c); }
    void exec(size_t, const std::string& ptr, const LightEnable& c) { m_.light_enable(ptr, c); }
    void exec(size_t, const std::string& ptr, const SetViewport& c) { m_.set_viewport(ptr, c); }
    void exec(size_t, const std::string& ptr, const SetMaterial& c) { m_.set_material(ptr, c); }
    void exec(size_t, const std::string& ptr, const SetTextureStageState& c) { m_.set_texture_stage_state(ptr, c); }
    void exec(size_t, const std::string& ptr, const UpdateBuffer& c) { m_.update_buffer(ptr, c); }

    // Shades indices[0..n) (ascending, distinct) into out; a fetch error as the scene's error.
    void shade_block(const DrawSetup& s, const uint32_t* indices, size_t n, vs::VertexOutputs* out) {
        const ShadeState st{s.shader, &m_.profile(), &s.streams, &constants_,
                            s.generated ? &s.generated->vertices : nullptr};
        try {
            shade_(st, indices, n, out);
        } catch (const vs::FetchError& e) {
            throw m_.fetch_error(s, e);
        }
    }

    // Keep::Vertices: every reference's vertex, from the distinct vertices shaded once each.
    void keep_vertices(const DrawSetup& s, DrawResult& d) {
        d.indices.resize(s.refs);
        for (uint64_t k = 0; k < s.refs; ++k) d.indices[k] = s.vertex(k);
        std::vector<uint32_t> unique = d.indices;
        std::sort(unique.begin(), unique.end());
        unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
        std::vector<vs::VertexOutputs> shaded(unique.size());
        shade_block(s, unique.data(), unique.size(), shaded.data());
        d.unique_vertices = uint32_t(unique.size());
        d.vertices.resize(d.indices.size());
        for (size_t k = 0; k < d.indices.size(); ++k)
            d.vertices[k] = shaded[size_t(std::lower_bound(unique.begin(), unique.end(), d.indices[k]) - unique.begin())];
    }

    // Keep::Counts: the distinct vertices shaded block by block, nothing kept.
    void count_vertices(const DrawSetup& s, DrawResult& d) {
        std::vector<uint32_t> block;
        block.reserve(kShadeBlock);
        std::vector<vs::VertexOutputs> out(kShadeBlock);
        uint64_t unique = 0;
        for_each_distinct(s, [&](uint32_t v) {
            block.push_back(v);
            if (block.size() == kShadeBlock) {
                shade_block(s, block.data(), block.size(), out.data());
                unique += block.size();
                block.clear();
            }
        });
        shade_block(s, block.data(), block.size(), out.data());
        unique += block.size();
        d.unique_vertices = uint32_t(unique);
    }

    void shade(const DrawSetup& s) {
        apply(s.constant_writes);  // the driver's, before the draw (fixed function's, or restored)
        DrawResult d;
        d.command = s.command;
        d.pointer = s.pointer;
        d.indexed = s.indexed;
        d.type = s.type;
        d.primitives = s.primitives;
        d.references = s.refs;
        d.outputs_written = s.shader->validation.info.outputs_written;
        d.shader = s.shader_name;
        d.ff_program = s.ff_program;
        d.generated = s.generated;
        d.software = s.software;
        if (keep_ == Keep::Vertices)
            keep_vertices(s, d);
        else
            count_vertices(s, d);
        sink_(std::move(d));
    }

    SceneMachine m_;
    ShadeFn shade_;
    Keep keep_;
    const std::function<void(DrawResult&&)>& sink_;
    vs::Constants constants_;
};

}  // namespace

FunctionalResult run_functional(const Scene& scene, const vs::Profile& profile, const ShadeFn& shade,
                                const tess::TessProfile& tess_profile, const ff::Caps& caps) {
    FunctionalResult r;
    r.warnings = run_functional_each(scene, profile, shade, tess_profile, caps, Keep::Vertices,
                                     [&](DrawResult&& d) { r.draws.push_back(std::move(d)); });
    return r;
}

std::vector<std::string> run_functional_each(const Scene& scene, const vs::Profile& profile, const ShadeFn& shade,
                                             const tess::TessProfile& tess_profile, const ff::Caps& caps, Keep keep,
                                             const std::function<void(DrawResult&&)>& sink) {
    return Runner(scene, profile, shade, tess_profile, caps, keep, sink).run();
}

}  // namespace vpsim::scene
