// Parameter couplings (docs/parameters.md, "Couplings: one parameter capping another"): a run
// whose parameters let one cap another's effect says so, with the measured statistic that
// shows the cap in action, so a study that varies the capped parameter is not misread.
#pragma once

#include "model/common/params.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::sc {

struct CapWarning {
    std::string capping;  // the parameter that caps ("vertex_fetch.input_buffers")
    std::string capped;   // the parameter whose effect it caps ("vertex_alu.engines x vertex_alu.contexts")
    std::string text;     // in words, with the figures
};

// `units`: stats.json's "units" of the run; `cycles`: its cycles.
std::vector<CapWarning> find_caps(const ParamSet& p, const nlohmann::ordered_json& units, uint64_t cycles);

}  // namespace vpsim::sc
