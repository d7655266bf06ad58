// Fixed-function draws in the scene machine (docs/fixed-function.md, "Fixed-function draws"):
// the draw's state compiled to a vertex program (ff::compile), created with the draw's
// declaration, and the constant writes the driver makes before each draw, as a GeForce3-class
// driver shares the one constant memory between fixed function and programs.
#include "model/scene/scene_machine.h"

#include "model/ff/ff_reference.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace vpsim::scene {

namespace {
bool same_bits(const vs::Vec4& a, const vs::Vec4& b) { return std::memcmp(a.data(), b.data(), sizeof(a)) == 0; }
}  // namespace

void SceneMachine::ff_program(DrawSetup& d) const {
    const auto key = std::make_pair(d.ff_state.get(), current_);
    auto it = ff_cache_.find(key);
    if (it == ff_cache_.end()) {
        std::shared_ptr<const ff::FfProgram> compiled;
        try {
            // The program may leave an output at its start value where that is D3D8's result: the
            // start values are the profile's (`--profile outputs=`).
            auto make = [&] { return ff::compile(*d.ff_state, d.ff_inputs, caps_, s_.const_count, profile_.outputs); };
            compiled = programs_ ? programs_->ff_program(*d.ff_state, d.ff_inputs, s_.const_count, make)
                                 : std::make_shared<const ff::FfProgram>(make());
        } catch (const ff::FfError& e) {
            fail(d.pointer, fmt::format("fixed function: {}", e.what()));
        }
        const ff::FfProgram& p = *compiled;
        ++ff_compiles_;  // the driver's compiles (a shared cache saves the host's)
        // The declaration, with D3DVSDE_NORMAL2 (v16, which vs.1.1 cannot name) loaded into the
        // register the program reads it from.
        std::vector<uint32_t> tokens = ff_tokens_.at(current_);
        const decl::Declaration& dd = current_->decl;
        for (size_t i = 0; i < dd.events.size() && i < dd.event_index.size(); ++i) {
            const decl::Event& e = dd.events[i];
            if (e.kind != decl::EventKind::Element || e.reg != ff::kDeNormal2) continue;
            int to = p.input_map[ff::kDeNormal2];
            for (int r = 0; to < 0 && r < 16; ++r)  // not read: a register nothing else loads
                if (!(dd.loaded_mask >> r & 1u)) to = r;
            if (to < 0) fail(d.pointer, "fixed function: the declaration loads all 17 D3DVSDE registers; vs.1.1 has 16");
            uint32_t& t = tokens[dd.event_index[i]];
            t = (t & ~0x1Fu) | uint32_t(to);
        }
        std::string shader_key;
        for (uint32_t t : tokens) shader_key += fmt::format("{:08X} ", t);
        shader_key += "\n" + p.assembly;
        auto& slot = ff_shaders_[shader_key];
        if (!slot) {
            auto created = create_shader(tokens, &p.shader, true);
            if (!created->valid) {
                std::string msg = "fixed function: the generated program is refused with this declaration";
                for (const auto& x : created->decl.diagnostics) msg += "\n  declaration: " + decl::to_string(x);
                for (const auto& x : created->validation.diagnostics) msg += "\n  program: " + vs::to_string(x);
                ff_shaders_.erase(shader_key);
                fail(d.pointer, msg);
            }
            slot = std::move(created);
        }
        if (ff_cache_.size() >= 64) ff_cache_.clear();  // states come and go; programs stay in ff_shaders_
        it = ff_cache_.emplace(key, FfCached{d.ff_state, std::move(compiled), slot.get()}).first;
    }
    d.ff_program = it->second.program;
    d.shader = it->second.shader;
    d.shader_name = fmt::format("{}: fixed function ({} instructions)", current_name_, d.ff_program->instructions);
}

void SceneMachine::note_writes(const std::vector<ConstantWrite>& w) const {
    for (const auto& k : w) {
        if (k.reg >= app_constants_.size()) continue;  // refused before it gets here
        app_constants_[k.reg] = device_constants_[k.reg] = k.value;
        ff_overwritten_.erase(k.reg);
    }
}

void SceneMachine::check_ff_vertices(const DrawSetup& d) const {
    // Indexed blending: a vertex's blend-matrix index beyond MaxVertexBlendMatrixIndex is refused,
    // as the reference processor refuses it (the program would read constants that are not
    // matrices). The only data-dependent refusal: each distinct vertex is checked once.
    const ff::RenderStates& rs = d.ff_state->rs;
    if (!rs.indexedvertexblendenable || rs.vertexblend == ff::VertexBlend::Disable ||
        rs.vertexblend == ff::VertexBlend::Tweening)
        return;
    std::vector<uint32_t> verts(d.refs);
    for (uint64_t k = 0; k < d.refs; ++k) verts[k] = d.vertex(k);
    std::sort(verts.begin(), verts.end());
    verts.erase(std::unique(verts.begin(), verts.end()), verts.end());
    const auto& map = d.ff_program->input_map;
    for (uint32_t v : verts) {
        std::array<vs::Vec4, vs::kNumInputs> in;
        try {
            in = d.generated ? d.generated->vertices[v] : vs::fetch_vertex(d.shader->decl, d.streams, v);
        } catch (const vs::FetchError& e) {
            throw fetch_error(d, e);
        }
        ff::FfRegisters regs{};  // D3DVSDE numbering, from the program's registers
        for (uint32_t r = 0; r < ff::kNumDe; ++r) {
            const int from = map[r] >= 0 ? map[r] : (r < vs::kNumInputs ? int(r) : -1);
            if (from >= 0) regs[r] = in[size_t(from)];
        }
        try {
            (void)ff::process_vertex(*d.ff_state, d.ff_inputs, regs, caps_);
        } catch (const ff::FfError& e) {
            fail(d.pointer, fmt::format("fixed function: {} {}: {}", d.generated ? "generated vertex" : "vertex", v,
                                        e.what()));
        }
    }
}

void SceneMachine::driver_constants(DrawSetup& d) const {
    d.constant_writes.clear();
    if (d.fixed_function) {
        check_ff_vertices(d);
        for (const auto& [reg, value] : d.ff_program->constants) {
            if (reg >= device_constants_.size()) continue;  // compile keeps them below const_count
            if (!same_bits(device_constants_[reg], value)) {
                d.constant_writes.push_back({reg, value});
                device_constants_[reg] = value;
            }
            if (same_bits(app_constants_[reg], value)) ff_overwritten_.erase(reg);
            else ff_overwritten_.insert(reg);
        }
        return;
    }
    // A programmed draw reads the application's values: restore what fixed function overwrote.
    for (uint32_t reg : ff_overwritten_) {
        d.constant_writes.push_back({reg, app_constants_[reg]});
        device_constants_[reg] = app_constants_[reg];
    }
    ff_overwritten_.clear();
}

}  // namespace vpsim::scene
