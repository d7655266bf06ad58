// The functional executor for the Python API (runner.h, scene_exec): `vpsim scene-exec`'s run.
#include "python/bindings/runner.h"

#include "model/sc/pipeline.h"
#include "model/scene/fast_shade.h"
#include "model/scene/functional.h"
#include "model/pipe/primitive_assembly.h"

#include <fmt/format.h>

#include <stdexcept>

namespace vpsim::pyapi {

namespace {

// The device's fixed-function caps: the preset's, then fixed_function.* overrides; an override of
// any other unit would not reach the executor and is refused (as `vpsim ff-program --set`).
ff::Caps exec_caps(const RunSpec& s) {
    for (const std::string& a : s.sets)
        if (a.rfind("fixed_function.", 0) != 0)
            throw std::invalid_argument(fmt::format(
                "{}: only fixed_function.* parameters apply to the functional executor (its fixed-function caps)", a));
    if (!s.config.empty())
        throw std::invalid_argument("config: the functional executor takes no parameter file (only fixed_function.* "
                                    "overrides)");
    if (!s.topology_path.empty() || !s.topology_json.empty())
        throw std::invalid_argument("topology: the functional executor has no pipeline (a topology is for run)");
    RunSpec p;
    p.preset = s.preset;
    p.sets = s.sets;
    return sc::FixedFunctionParams::from(resolve(p).params).caps();
}

void put(std::vector<float>& out, const vs::Vec4& v) { out.insert(out.end(), v.begin(), v.end()); }

}  // namespace

ExecOutput scene_exec(const RunSpec& s, bool fast, bool vertices) {
    const ff::Caps caps = exec_caps(s);
    Resolved r = resolve(s);
    ExecOutput out;
    out.scene = r.scene.name;
    auto add = [&](scene::DrawResult&& d) {
        ExecDraw e;
        e.command = d.command;
        e.pointer = d.pointer;
        e.op = scene::command_name(r.scene.commands[d.command].body);
        e.shader = d.shader;
        e.type = pipe::primitive_type_name(d.type);
        e.primitives = d.primitives;
        e.references = d.references;
        e.unique = d.unique_vertices;
        if (vertices) {
            e.indices = std::move(d.indices);
            e.outputs.reserve(d.vertices.size() * kOutputFloats);
            for (const vs::VertexOutputs& o : d.vertices) {
                put(e.outputs, o.pos);
                put(e.outputs, o.d0);
                put(e.outputs, o.d1);
                e.outputs.push_back(o.fog);
                e.outputs.push_back(o.pts);
                for (const vs::Vec4& t : o.t) put(e.outputs, t);
            }
        }
        out.draws.push_back(std::move(e));
    };
    out.warnings = scene::run_functional_each(r.scene, r.profile, fast ? scene::fast_shade() : scene::reference_shade(),
                                              r.tess_profile, caps,
                                              vertices ? scene::Keep::Vertices : scene::Keep::Counts, add);
    return out;
}

}  // namespace vpsim::pyapi
