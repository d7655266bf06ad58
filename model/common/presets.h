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

// An assumed preset value that moves a result by more than the threshold (10 %) when it is halved,
// doubled or (an enum or a boolean) given another value: an entry of model/presets/sensitivity.json,
// written by `vpsim bench sensitivity --write` (docs/calibration.md, "Sensitivity of assumed
// values"). A result is the calibration workload's vertex rate or a workload's cycles on the suite.
// A result moves "by more than the threshold" when its relative change exceeds this.
constexpr double kSensitivityThreshold = 0.10;

struct SensitiveAssumption {
    std::string param;        // "memory.latency"
    nlohmann::json value;     // the preset's value it was measured at
    double change = 0;        // the largest change, relative and signed (-0.184)
    std::string result;       // where: "calibration" (the vertex rate) or "suite" (a workload's cycles)
    std::string workload;     // result "suite": the workload
    std::string at;           // "half", "double" or the other value ("round_robin")
    nlohmann::json at_value;  // the value that moved it
    // A changed value at which the preset's caps refuse workloads its own value runs (empty: none).
    std::string refuses_at;
    nlohmann::json refuses_value;
    std::vector<std::string> refused;  // those workloads

    // "memory.latency (assumed; +25.3 % cycles on point_light at double, 160)": the run summary's words.
    std::string text() const;
    nlohmann::ordered_json to_json() const;  // sensitivity.json's entry (change in percent, 0.1)
    // `where` (the file and JSON pointer) prefixes the ParamError for a malformed entry.
    static SensitiveAssumption from_json(const nlohmann::json& j, const std::string& where);
};

// The embedded model/presets/sensitivity.json ("" when the tree has none).
const std::string& preset_sensitivity_file();
// Its entries for preset `name` (empty when it lists none). A malformed embedded file is an
// internal error (std::logic_error naming the file and the rule).
const std::vector<SensitiveAssumption>& sensitive_assumptions(const std::string& name);
// Those still in force in a run of preset `name` with `params`: without each parameter a --set
// (`sets`, unit.param=value) names and each whose value in `params` is no longer the preset's (a
// --config changed it). The run summary's "assumptions" (docs/run.md).
std::vector<SensitiveAssumption> assumptions_in_force(const std::string& name, const ParamSet& params,
                                                      const std::vector<std::string>& sets);

}  // namespace vpsim
