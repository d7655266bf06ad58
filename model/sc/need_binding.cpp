#include "model/sc/need_binding.h"

#include "model/common/printable.h"

#include <fmt/format.h>

#include <algorithm>

namespace vpsim::sc {

namespace {

std::string need_reader(const UnitSpec* u) { return u ? "unit " + u->name : "the coupling checks"; }

bool plays_role(const UnitRegistry& r, const UnitSpec& s, const std::string& role) {
    const UnitType* t = r.find(s.type);
    return t && std::find(t->roles.begin(), t->roles.end(), role) != t->roles.end();
}

// The key a need is bound to by its role; `field` is where a refusal is located.
std::string key_by_role(const ParamNeed& n, const UnitSpec* u, const Topology& t, const UnitRegistry& r,
                        const ParamSet& p) {
    const Located none;
    const Located& at = u ? u->at : none;
    if (n.role == kMemoryPort) {
        if (!u || u->memory.empty())
            throw TopologyError(located(at, "", fmt::format("{}: needs {} from the memory its memory port names, and "
                                                            "has none", need_reader(u), n.name)));
        for (const UnitSpec& s : t.units)
            if (s.name == u->memory) return unit_param_key(p, s.name, s.type, n.param);
        throw TopologyError(located(at, "memory", fmt::format("{}: its memory port names no unit ({})", need_reader(u),
                                                              printable(u->memory, 60))));
    }
    std::vector<const UnitSpec*> players;
    for (const UnitSpec& s : t.units)
        if (plays_role(r, s, n.role)) players.push_back(&s);
    if (players.empty())
        throw TopologyError(located(at, "", fmt::format("{}: needs {} ({}: {}) from the unit playing role {}, and no "
                                                        "unit of the topology plays it; bind it "
                                                        "(\"bind\": {{\"{}\": \"unit.param\"}})",
                                                        need_reader(u), n.name, param_type_name(n.type), n.what, n.role,
                                                        n.name)));
    if (u && players.size() > 1) {
        std::string names;
        for (const UnitSpec* s : players) names += (names.empty() ? "" : ", ") + s->name;
        throw TopologyError(located(at, "", fmt::format("{}: needs {} ({}: {}) from the unit playing role {}, and "
                                                        "several do ({}); bind it (\"bind\": {{\"{}\": \"{}\"}})",
                                                        need_reader(u), n.name, param_type_name(n.type), n.what, n.role,
                                                        names, n.name,
                                                        unit_param_key(p, players[0]->name, players[0]->type,
                                                                       n.param))));
    }
    return unit_param_key(p, players[0]->name, players[0]->type, n.param);
}

}  // namespace

BoundNeeds bind_needs(const std::vector<ParamNeed>& needs, const UnitSpec* u, const Topology& t,
                      const UnitRegistry& r, const ParamSet& p) {
    if (u)
        for (const auto& entry : u->bind) {  // not a structured binding: a lambda may not capture one (C++17; clang refuses)
            const std::string& name = entry.first;
            if (std::none_of(needs.begin(), needs.end(), [&](const ParamNeed& n) { return n.name == name; })) {
                std::string valid;
                for (const ParamNeed& n : needs) valid += (valid.empty() ? "" : ", ") + n.name;
                throw TopologyError(located(u->at, "bind/" + name,
                                            fmt::format("unit {}: binds {}, which its type {} does not need (its "
                                                        "needs: {})", u->name, printable(name, 60), u->type,
                                                        valid.empty() ? "none" : valid)));
            }
        }
    BoundNeeds out;
    for (const ParamNeed& n : needs) {
        const bool row = u && u->bind.count(n.name);
        const std::string key = row ? u->bind.at(n.name) : key_by_role(n, u, t, r, p);
        const std::string field = row ? "bind/" + n.name : "";
        const ParamDef* d = find_param(p, key);
        if (!d)
            throw TopologyError(located(u ? u->at : Located{}, field,
                                        fmt::format("{}: {} is bound to {}, which is not a parameter of this run",
                                                    need_reader(u), n.name, printable(key, 60))));
        if (d->type != n.type)
            throw TopologyError(located(u ? u->at : Located{}, field,
                                        fmt::format("{}: {} is a {} ({}), and {} is a {} parameter", need_reader(u), n.name,
                                                    param_type_name(n.type), n.what, printable(key, 60),
                                                    param_type_name(d->type))));
        out[n.name] = p.value(key);
    }
    return out;
}

}  // namespace vpsim::sc
