// The pipeline as data (docs/timing-model.md, "The topology file"): the unit instances, each of
// a registered type (model/sc/unit_registry.h), and the channels between their ports. The
// default is model/sc/topology.json, compiled in; `vpsim run --topology-file T.json` runs another
// without recompiling. A file is checked before anything is built (unknown type, unit, port or
// parameter, a port of the wrong direction, two ports carrying different things, a port left
// unconnected, latency-0 links the dispatcher cannot order): the message names the file and the
// line and column of the offending entry.
#pragma once

#include "model/common/params.h"
#include "model/sc/topology_file.h"
#include "model/sc/unit_registry.h"

#include <string>
#include <vector>

namespace vpsim::sc {

// model/sc/topology.json, compiled in.
const Topology& default_topology();
const std::string& default_topology_text();

// The units in the dispatcher's order (a unit is stepped before the units that feed it through
// a channel of latency >= 1, so space it frees is usable upstream in the same cycle, and before
// the units it sends latency-0 items to, so they see them in the cycle they are sent; where
// neither decides, the unit listed later first). TopologyError when latency-0 links form a cycle.
// Services (the memory) are not stepped and not listed.
std::vector<std::string> step_order(const Topology& t, const UnitRegistry& r, const ParamSet& p);

// The table as text (resolved capacities) and as Graphviz DOT.
std::string topology_text(const Topology& t, const ParamSet& p, const UnitRegistry& r = builtin_units());
std::string topology_dot(const Topology& t, const ParamSet& p);

}  // namespace vpsim::sc
