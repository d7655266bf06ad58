#include "model/bench/calibration.h"

#include "model/sc/pipeline.h"
#include "model/scene/scene.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace vpsim::bench {

using namespace vpsim::sc;

nlohmann::ordered_json transform_only_scene_json(uint32_t vertices) {
    if (vertices == 0 || vertices % 3) throw std::invalid_argument("transform-only workload: vertices must be a multiple of 3");
    // A grid with at least `vertices` vertices; the draw reads the first `vertices` of them.
    const uint32_t columns = 199, rows = (vertices + columns) / (columns + 1);
    using oj = nlohmann::ordered_json;
    oj j;
    j["description"] = fmt::format("The calibration workload: {} vertices, one FLOAT3 position stream, a non-indexed "
                                   "triangle list, m4x4 oPos, v0, c0 (docs/calibration.md).",
                                   vertices);
    j["buffers"]["grid"] = {{"generator", "grid"},
                            {"columns", columns},
                            {"rows", rows},
                            {"indices", nullptr},
                            {"streams", {{"position", oj::array({{{"attribute", "position"}, {"type", "FLOAT3"}}})}}}};
    j["commands"] = oj::array({
        {{"op", "CreateVertexShader"},
         {"name", "transform"},
         {"declaration", {{"text", "D3DVSD_STREAM(0), D3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3), D3DVSD_END()"}}},
         {"function", {{"asm", "vs.1.1\nm4x4 oPos, v0, c0\n"}}}},
        {{"op", "SetVertexShader"}, {"shader", "transform"}},
        // A perspective view of the grid (the values do not change the timing).
        {{"op", "SetVertexShaderConstant"},
         {"register", 0},
         {"values", oj::array({oj::array({1.2, 0.0, 0.0, 0.0}), oj::array({0.0, 1.6, 0.0, 0.0}),
                               oj::array({0.0, 0.0, 1.0, 2.5}), oj::array({0.0, 0.0, 1.0, 3.0})})}},
        {{"op", "SetStreamSource"}, {"stream", 0}, {"buffer", "grid.position"}, {"stride", 12}},
        {{"op", "DrawPrimitive"}, {"type", "trianglelist"}, {"start_vertex", 0}, {"primitive_count", vertices / 3}},
    });
    return j;
}

namespace {

const scene::Scene& transform_only_scene() {
    static const scene::Scene sc =
        scene::parse_scene(nlohmann::json::parse(transform_only_scene_json().dump()), "", "<transform-only>");
    return sc;
}

}  // namespace

CalibrationRow calibrate_preset(const Preset& p, const std::vector<std::string>& sets) {
    ParamSet params = default_params();
    apply_preset(params, p.name);
    for (const std::string& s : sets) params.apply_set(s);
    const RunResult r = run_pipeline(transform_only_scene(), params, vs::Profile::d3d8());
    if (!r.cycle_errors.empty()) throw std::logic_error("calibrate: statistics do not add up (internal error)");
    CalibrationRow row;
    row.preset = p.name;
    row.chip = p.chip;
    row.source = p.target_source;
    row.clock_mhz = r.clock_mhz;
    row.published = p.target_vps;
    row.cycles = r.cycles;
    row.vertices = r.count("shaded");
    row.cycles_per_vertex = r.count("shaded") ? double(r.cycles) / double(r.count("shaded")) : 0.0;
    row.model = r.cycles ? double(r.count("shaded")) * r.clock_mhz * 1e6 / double(r.cycles) : 0.0;
    row.error = (row.model - row.published) / row.published;
    row.tolerance = p.tolerance;
    row.ok = std::fabs(row.error) <= p.tolerance;
    row.alu_utilisation = r.real("alu_utilisation");
    row.bottleneck = r.bottleneck;
    return row;
}

std::vector<CalibrationRow> calibrate(const std::vector<std::string>& sets) {
    std::vector<CalibrationRow> rows;
    for (const Preset& p : presets()) rows.push_back(calibrate_preset(p, sets));
    return rows;
}

}  // namespace vpsim::bench
