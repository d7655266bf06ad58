// Parameter couplings (docs/parameters.md, "Couplings: one parameter capping another"): a run
// whose parameters let one cap another's effect says so, with the measured statistic that
// shows the cap in action, so a study that varies the capped parameter is not misread.
#pragma once

#include "model/common/params.h"
#include "model/sc/unit_params.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace vpsim::sc {

struct CapWarning {
    std::string capping;  // the parameter that caps ("vertex_fetch.input_buffers")
    std::string capped;   // the parameter whose effect it caps ("vertex_alu.engines x vertex_alu.contexts")
    std::string text;     // in words, with the figures
};

// The unit that plays a role (UnitType::roles: "vertex_alu", "vertex_fetch", "index_fetch",
// "output"): the first of the topology's units whose type declares it.
struct RoleUnit {
    std::string unit;  // its instance name (its stats.json group)
    std::string type;  // its type (the parameter tables' name)
};

// The parameters the checks read, each a dependency declared with the role whose unit holds it
// (model/sc/unit_params.h) and bound to the first unit of that role (model/sc/need_binding.h).
struct CapsParams {
    uint64_t engines = 0, contexts = 0;                                        // the vertex ALU's
    uint64_t input_buffers = 0, fetch_window = 0, max_misses = 0, prefetch_lines = 0;  // the vertex fetch's
    uint64_t buffers = 0, order_queue = 0;                                     // the output's
    static const NeedBindings<CapsParams>& bindings();
};

// `bound`: CapsParams's needs bound (empty when a role has no unit); `units`: stats.json's "units"
// of the run; `cycles`: its cycles; `roles`: the units by role. A topology without a unit for
// each of the four roles has no couplings to check.
std::vector<CapWarning> find_caps(const BoundNeeds& bound, const nlohmann::ordered_json& units, uint64_t cycles,
                                  const std::map<std::string, RoleUnit>& roles);

}  // namespace vpsim::sc
