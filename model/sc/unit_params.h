// The parameters one unit may read (docs/timing-model.md, "Parameters, declared once"): its own
// tables and the values it declared it needs from other units, bound by the topology. gem5's
// `Param.X(Parent.any)` is the model: a dependency has a name and a type, declared by the unit
// that reads it, and is resolved where the units are put together (here: the topology).
//
// * ParamNeed — one declared dependency: its name (the unit's word for it), its type, what it is,
//   and the default binding: parameter `param` ("table.param") of the unit that plays `role`
//   (UnitType::roles; the role kMemoryPort: the memory the unit's memory port names). A topology's
//   unit row may bind it explicitly (`"bind": {"NAME": "unit.param"}`).
// * NeedBindings<N> — a struct's dependencies declared once, as ParamBindings declares parameters:
//   each builder adds a ParamNeed and the read-back of the bound value into a member of N.
// * UnitParams — what a unit is given (UnitContext::params): a ParamSet holding only its type's
//   tables (with the instance's values), and its bound dependencies. Reading a table that is
//   not its own is a std::logic_error naming the unit and the table.
#pragma once

#include "model/common/params.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace vpsim::sc {

// The role of a dependency on the memory the unit's own memory port names.
inline constexpr const char* kMemoryPort = "memory port";

struct ParamNeed {
    std::string name;   // the reader's name for it ("ptc_entries")
    ParamType type = ParamType::Uint;
    std::string what;   // one line
    std::string role;   // default binding: the unit playing this role ...
    std::string param;  // ... its parameter "table.param" (the type's own table: that instance's value)
};

// The bound values of a list of needs: name -> value (in the parameter's canonical JSON form).
using BoundNeeds = std::map<std::string, nlohmann::json>;

// A struct's dependencies, declared once (see the top of this file).
template <class N>
class NeedBindings {
public:
    template <class U>
    NeedBindings& uint(std::string name, U N::*m, std::string role, std::string param, std::string what) {
        static_assert(std::is_unsigned_v<U>, "uint dependencies fill unsigned members");
        needs_.push_back({name, ParamType::Uint, std::move(what), std::move(role), std::move(param)});
        read_.push_back([m, name](N& r, const BoundNeeds& b) { r.*m = U(b.at(name).template get<uint64_t>()); });
        return *this;
    }
    const std::vector<ParamNeed>& needs() const { return needs_; }
    // Throws std::logic_error if a need is not bound (the pipeline binds every declared need).
    N from(const BoundNeeds& b) const {
        N r{};
        for (const ParamNeed& n : needs_)
            if (!b.count(n.name)) throw std::logic_error("dependency " + n.name + " is not bound");
        for (const auto& f : read_) f(r, b);
        return r;
    }

private:
    std::vector<ParamNeed> needs_;
    std::vector<std::function<void(N&, const BoundNeeds&)>> read_;
};

class UnitParams {
public:
    // `own`: the unit's type's tables holding the instance's values; `needs`: its bound dependencies.
    UnitParams(std::string unit, ParamSet own, BoundNeeds needs)
        : unit_(std::move(unit)), own_(std::move(own)), needs_(std::move(needs)) {}

    const std::string& unit() const { return unit_; }
    // The unit's own parameter struct (P::kUnit names the table; one of the unit's own).
    template <class P>
    P of() const {
        return P::from(table(P::kUnit));
    }
    // The unit's own dependency struct (NeedBindings), from the bound values.
    template <class N>
    N needs() const {
        return N::bindings().from(needs_);
    }
    bool has(const std::string& table) const;
    // The unit's own tables, after checking `table` is one (std::logic_error if it is not: a
    // unit reads another unit's value only through a declared dependency).
    const ParamSet& table(const std::string& table) const;
    const BoundNeeds& bound() const { return needs_; }

private:
    std::string unit_;
    ParamSet own_;
    BoundNeeds needs_;
};

// The unit's own tables out of the run's set: copies of those of `tables` the run has, holding
// the values instance `unit` reads (its own table's, when it has one; model/sc/pipeline.cpp).
ParamSet own_params(const ParamSet& run, const std::string& unit, const std::vector<ParamTable>& tables);

// The key of parameter `param` ("table.param") of unit `unit` of type `type`: "unit.name" when
// the table is the type's own and the unit has a table of its own, else `param` itself.
std::string unit_param_key(const ParamSet& p, const std::string& unit, const std::string& type,
                           const std::string& param);

// The definition of key "table.param" in `p`; nullptr when there is none.
const ParamDef* find_param(const ParamSet& p, const std::string& key);

}  // namespace vpsim::sc
