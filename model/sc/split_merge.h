// What the N-way split and merge units share (docs/timing-model.md, "Split and merge units"):
// their one parameter, `ways` (the outputs of a split, the inputs of a merge; 2 to 64), read from
// the instance's table (a topology's `"params": {"ways": 3}` on a unit named otherwise than its
// type), and their numbered ports (`out0`..`out<N-1>`, `in0`..`in<N-1>`).
#pragma once

#include "model/common/params.h"
#include "model/sc/unit_registry.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace vpsim::sc {

inline ParamTable ways_table(const std::string& type, const std::string& what) {
    ParamTable t(type, what);
    t.add_uint("ways", "ports", 2, "outputs of a split, inputs of a merge (its ports out0.. or in0..)",
               "a topology's choice (2: two units behind it)", 2, 64);
    return t;
}

// The unit's `ways`; 2 (the table's default) when the run's parameters were not made from a
// topology naming the type (sc::default_params() with another topology: nothing could have set it).
inline uint32_t ways_of(const UnitContext& c, const std::string& type) {
    return c.params.has(type) ? uint32_t(c.params.table(type).get_uint(type + ".ways")) : 2;
}

// Registers a split or merge unit type: its `ways` table, its words (`busy`: the busy sentence),
// and `make`, which builds Unit(instance name, ways, args..., probes).
template <class Unit, class... Args>
void add_split_merge_type(UnitRegistry& r, const char* name, const char* what, const char* noun, const char* busy,
                          Args... args) {
    UnitType t;
    t.name = name;
    t.what = what;
    t.tables = {ways_table(name, what)};
    t.words = {noun, busy, {}, {}};
    t.make = [name = std::string(name), args...](const UnitContext& c) {
        return std::make_unique<Unit>(c.name.c_str(), ways_of(c, name), args..., c.probes);
    };
    r.add(std::move(t));
}

// Ports `prefix`0 .. `prefix`<n-1> of `owner` (In<T> or Out<T>), in order.
template <class P>
std::vector<std::unique_ptr<P>> numbered_ports(TimedUnit& owner, const char* prefix, uint32_t n) {
    std::vector<std::unique_ptr<P>> v;
    for (uint32_t i = 0; i < n; ++i) v.push_back(std::make_unique<P>(owner, prefix + std::to_string(i)));
    return v;
}

// Whether any of a merge's inputs holds an item (its busy_with_work()).
template <class P>
bool any_holds(const std::vector<std::unique_ptr<P>>& ins) {
    for (const auto& in : ins)
        if (!(*in)->empty()) return true;
    return false;
}

// The earliest cycle at which any of a merge's inputs has an item to pop (kNever: none coming).
template <class P>
Cycle earliest_pop(const std::vector<std::unique_ptr<P>>& ins, Cycle now) {
    Cycle next = kNever;
    for (const auto& in : ins) next = std::min(next, (*in)->next_pop(now));
    return next;
}

}  // namespace vpsim::sc
