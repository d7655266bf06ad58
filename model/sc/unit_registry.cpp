#include "model/sc/unit_registry.h"

#include <fmt/format.h>

#include <stdexcept>

namespace vpsim::sc {

void UnitRegistry::add(UnitType t) {
    if (t.name.empty() || !t.make) throw std::logic_error("unit type without a name or a factory");
    if (find(t.name)) throw std::logic_error(fmt::format("unit type {} is registered twice", t.name));
    types_.push_back(std::move(t));
}

void UnitRegistry::add_variant(const std::string& type, const std::string& variant, UnitFactory make) {
    for (UnitType& t : types_)
        if (t.name == type) {
            t.variants[variant] = std::move(make);
            return;
        }
    throw std::logic_error(fmt::format("variant {} of unit type {}: no such type", variant, type));
}

const UnitType* UnitRegistry::find(const std::string& name) const {
    for (const UnitType& t : types_)
        if (t.name == name) return &t;
    return nullptr;
}

std::string UnitRegistry::names() const {
    std::string s;
    for (const UnitType& t : types_) s += (s.empty() ? "" : ", ") + t.name;
    return s;
}

const UnitRegistry& builtin_units() {
    static const UnitRegistry r = [] {
        UnitRegistry x;
        register_builtin_units(x);
        return x;
    }();
    return r;
}

}  // namespace vpsim::sc
