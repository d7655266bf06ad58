// Calibration of the timing model against the chips' published vertex rates (docs/calibration.md):
// the transform-only workload (30,000 vertices, one FLOAT3 position stream, a non-indexed
// triangle list, `m4x4 oPos, v0, c0`) run with every preset (model/common/presets.h), beside the
// rate the preset's chip was published at. `vpsim bench calibrate` prints it.
#pragma once

#include "model/common/presets.h"
#include "model/vs/vs_isa.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace vpsim::bench {

// The transform-only workload as a scene (docs/scenes.md), `vertices` a multiple of 3.
nlohmann::ordered_json transform_only_scene_json(uint32_t vertices = 30000);

struct CalibrationRow {
    std::string preset, chip, source;
    double clock_mhz = 0;
    double published = 0;  // vertices/s
    double model = 0;      // vertices/s
    double error = 0;      // (model - published) / published
    double tolerance = 0;
    bool ok = false;
    uint64_t cycles = 0, vertices = 0;
    double cycles_per_vertex = 0;
    double alu_utilisation = 0;
    std::string bottleneck;
};

// Runs the workload with each preset (then the `sets`, unit.param=value, on top of each).
std::vector<CalibrationRow> calibrate(const std::vector<std::string>& sets = {});
// The same for one preset (bench sensitivity: one preset's value changed at a time).
CalibrationRow calibrate_preset(const Preset& preset, const std::vector<std::string>& sets = {});

}  // namespace vpsim::bench
