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

class Runner {
public:
    Runner(const Scene& s, const vs::Profile& profile, const ShadeFn& shade, const tess::TessProfile& tp,
           const ff::Caps& caps)
        : m_(s, profile, tp, caps), shade_(shade ? shade : reference_shade()) {
        constants_.assign(s.const_count, vs::Vec4{});
    }

    FunctionalResult run() {
        const Scene& s = m_.scene();
        for (size_t i = 0; i < s.commands.size(); ++i) {
            const Command& c = s.commands[i];
            std::visit([&](const auto& body) { exec(i, c.pointer, body); }, c.body);
        }
        result_.warnings = m_.warnings();
        return std::move(result_);
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

    void shade(const DrawSetup& s) {
        apply(s.constant_writes);  // the driver's, before the draw (fixed function's, or restored)
        DrawResult d;
        d.command = s.command;
        d.pointer = s.pointer;
        d.indexed = s.indexed;
        d.type = s.type;
        d.primitives = s.primitives;
        d.outputs_written = s.shader->validation.info.outputs_written;
        d.shader = s.shader_name;
        d.ff_program = s.ff_program;
        d.generated = s.generated;
        d.software = s.software;
        d.indices.resize(s.refs);
        for (uint64_t k = 0; k < s.refs; ++k) d.indices[k] = s.vertex(k);
        std::vector<uint32_t> unique = d.indices;
        std::sort(unique.begin(), unique.end());
        unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
        std::vector<vs::VertexOutputs> shaded(unique.size());
        const ShadeState st{s.shader, &m_.profile(), &s.streams, &constants_,
                            s.generated ? &s.generated->vertices : nullptr};
        try {
            shade_(st, unique.data(), unique.size(), shaded.data());
        } catch (const vs::FetchError& e) {
            throw m_.fetch_error(s, e);
        }
        d.unique_vertices = uint32_t(unique.size());
        d.vertices.resize(d.indices.size());
        for (size_t k = 0; k < d.indices.size(); ++k)
            d.vertices[k] = shaded[size_t(std::lower_bound(unique.begin(), unique.end(), d.indices[k]) - unique.begin())];
        result_.draws.push_back(std::move(d));
    }

    SceneMachine m_;
    ShadeFn shade_;
    vs::Constants constants_;
    FunctionalResult result_;
};

}  // namespace

FunctionalResult run_functional(const Scene& scene, const vs::Profile& profile, const ShadeFn& shade,
                                const tess::TessProfile& tess_profile, const ff::Caps& caps) {
    return Runner(scene, profile, shade, tess_profile, caps).run();
}

}  // namespace vpsim::scene
