// Binding a unit's declared dependencies (model/sc/unit_params.h, ParamNeed) to parameters of
// the topology's units (docs/timing-model.md, "Parameters, declared once"): by the unit row's
// `"bind": {"NAME": "unit.param"}` when it names the need, else by the need's role.
#pragma once

#include "model/sc/topology_file.h"
#include "model/sc/unit_params.h"
#include "model/sc/unit_registry.h"

#include <string>
#include <vector>

namespace vpsim::sc {

// The value each of `needs` is bound to, for unit row `u` (nullptr: a check across units, which
// has no row and takes the first unit of each role). A need's binding is the row's "bind" entry
// for it, else parameter `param` of the unit playing its role: the only one in topology `t`
// (with `u`; more than one is ambiguous), or the first (without `u`); for the role kMemoryPort,
// the memory `u`'s memory port names. Throws TopologyError located at the row: a "bind" entry
// naming no declared need, a binding to a key that is not a parameter of `p` or not of the
// need's type, a role no unit plays or several do.
BoundNeeds bind_needs(const std::vector<ParamNeed>& needs, const UnitSpec* u, const Topology& t,
                      const UnitRegistry& r, const ParamSet& p);

}  // namespace vpsim::sc
