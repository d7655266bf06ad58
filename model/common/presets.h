// Hardware presets: named parameter sets for real chips (model/presets/*.json, built in), each
// value with its source, and the chip's published vertex rate the model is calibrated against
// (docs/calibration.md). `vpsim run --preset nv2a` applies one before --config and --set; a
// preset file is also accepted by --config.
#pragma once

#include "model/common/params.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace vpsim {

struct Preset {
    std::string name;         // "nv2a"
    std::string chip;         // "NVIDIA NV2A (Xbox), 2001"
    std::string description;  // one line
    std::string released;     // "YYYY-MM": presets() lists them in this order
    double target_vps = 0;    // published vertices per second on the calibration workload
    double tolerance = 0;     // accepted relative error
    std::string workload;     // the calibration workload ("transform-only")
    std::string target_source;
    nlohmann::ordered_json json;  // the whole file
    std::string text;             // the file as written
};

// The built-in presets, by name (sorted). Each is checked when first used: a malformed one is an
// internal error (std::logic_error).
const std::vector<Preset>& presets();
// The preset called `name`; an unknown name is a ParamError listing the valid ones.
const Preset& find_preset(const std::string& name);
// Applies the preset `name` to `p` (ParamError for an unknown name).
void apply_preset(ParamSet& p, const std::string& name);

// Generated from model/presets/*.json (model/presets/embed.cmake): (name, file text).
const std::vector<std::pair<std::string, std::string>>& preset_files();

}  // namespace vpsim
