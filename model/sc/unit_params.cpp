#include "model/sc/unit_params.h"

#include <fmt/format.h>

#include <optional>

namespace vpsim::sc {

bool UnitParams::has(const std::string& table) const {
    for (const ParamTable& t : own_.tables())
        if (t.unit == table) return true;
    return false;
}

const ParamSet& UnitParams::table(const std::string& table) const {
    if (!has(table)) {
        std::string mine;
        for (const ParamTable& t : own_.tables()) mine += (mine.empty() ? "" : ", ") + t.unit;
        throw std::logic_error(fmt::format("unit {} reads parameter table {}, which is not its own (its tables: {}); "
                                           "a unit reads another unit's value through a declared dependency "
                                           "(UnitType::needs, docs/timing-model.md)",
                                           unit_, table, mine.empty() ? "none" : mine));
    }
    return own_;
}

ParamSet own_params(const ParamSet& run, const std::string& unit, const std::vector<ParamTable>& tables) {
    // The instance's view, copied only when it differs from the run's (a copy per unit was most of
    // building a pipeline, which a sampled run does once per block).
    std::optional<ParamSet> view;
    if (run.has_instance_table(unit)) view = run.for_instance(unit);
    const ParamSet& inst = view ? *view : run;
    std::vector<ParamTable> mine;
    for (const ParamTable& t : tables) {
        bool present = false;
        for (const ParamTable& r : run.tables()) present = present || r.unit == t.unit;
        if (!present) continue;  // (a run's set not made from this topology: nothing could set it)
        mine.push_back(t);
    }
    ParamSet own(std::move(mine));
    own.take_values(inst, "the run's parameters");
    return own;
}

std::string unit_param_key(const ParamSet& p, const std::string& unit, const std::string& type,
                           const std::string& param) {
    const size_t dot = param.find('.');
    if (dot == std::string::npos || param.compare(0, dot, type) != 0 || unit == type) return param;
    for (const ParamTable& t : p.tables())
        if (t.unit == unit) return unit + param.substr(dot);
    return param;
}

const ParamDef* find_param(const ParamSet& p, const std::string& key) {
    const size_t dot = key.find('.');
    if (dot == std::string::npos) return nullptr;
    for (const ParamTable& t : p.tables())
        if (key.compare(0, dot, t.unit) == 0 && t.unit.size() == dot) return t.find(key.substr(dot + 1));
    return nullptr;
}

}  // namespace vpsim::sc
