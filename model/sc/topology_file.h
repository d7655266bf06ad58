// The topology file's format (docs/timing-model.md, "The topology file"): JSON text -> the
// unit instances and channels it lists, every entry located (file, line, column) for messages.
// No SystemC here: the file is checked against the unit types when the pipeline is built
// (model/sc/topology.h, model/sc/pipeline.h); the fuzz harness tests/fuzz/fuzz_topology.cpp
// reads files through this alone.
#pragma once

#include "model/common/params.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim::sc {

// A topology that cannot be built: "FILE:LINE:COLUMN: what" (or without the position when it
// has none: a topology made in code).
struct TopologyError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A channel's capacity, latency or bandwidth: a number, or the value of a parameter.
struct Amount {
    uint64_t value = 0;
    std::string key;  // "unit.param" when the amount is a parameter
    Amount(uint64_t v) : value(v) {}  // NOLINT: a plain number
    Amount(int v) : value(uint64_t(v)) {}  // NOLINT: a plain number (0 is not a key)
    Amount(const char* k) : key(k) {}  // NOLINT: a parameter key
    Amount(std::string k) : key(std::move(k)) {}  // NOLINT: a parameter key
    uint64_t resolve(const ParamSet& p) const { return key.empty() ? value : p.get_uint(key); }
    std::string text() const { return key.empty() ? std::to_string(value) : key; }
};

// Where an entry and its members are written ("FILE:LINE:COLUMN"; "" for the entry itself),
// for messages. Empty for a topology made in code.
using Located = std::map<std::string, std::string>;

struct UnitSpec {
    std::string name;    // the instance (statistics group, VCD scope)
    std::string type;    // a registered type
    std::string memory;  // the memory unit its memory port reads ("" when it has none)
    // Its own parameter values ({"param": value}, overriding its type's for this instance only;
    // checked against the type's table when the run's parameters are made, model/sc/pipeline.h).
    nlohmann::json params = nlohmann::json::object();
    Located at;  // also "params/NAME" for each of its parameters, "bind/NAME" for each binding
    // Its declared dependencies bound here (need name -> parameter key "unit.param"), overriding
    // the default binding by role (model/sc/need_binding.h).
    std::map<std::string, std::string> bind;
};

// One channel.
struct LinkSpec {
    std::string name;      // the channel's name (its VCD scope)
    std::string from, to;  // "unit.port" of the producer's Out port and the consumer's In port
    Amount capacity, latency, bandwidth;
    std::string carries;   // what flows, for the printed table
    Located at;
};

// "FILE:LINE:COLUMN: what" for member `field` of an entry (the entry's own position if the
// member has none; "topology: what" for a topology made in code).
std::string located(const Located& at, const std::string& field, const std::string& what);

// A read-only view or a service that is not a channel (drawn dotted, listed under "not channels").
struct SideSpec {
    std::string from, to, what;
    bool both_ways = false;
};

struct Topology {
    std::string source;  // the file it was read from ("built-in" for the default)
    std::string text;    // the file's text (what `vpsim run --topology --json` prints)
    std::vector<UnitSpec> units;  // upstream first
    std::vector<LinkSpec> links;
    std::vector<SideSpec> sides;
};

// Reads a topology from JSON text (`source` names it in messages). Throws TopologyError on
// malformed JSON, a missing or ill-typed member, a name that is not letters, digits and '_', a
// unit or link named twice, a capacity or bandwidth of 0, located in the text. Linear in the
// text, whatever its nesting (nothing recurses per level: a value nested deeper than a
// topology's members is refused at its first level, as scene and config files are).
Topology parse_topology(const std::string& text, const std::string& source);
Topology load_topology_file(const std::string& path);  // TopologyError also when unreadable

}  // namespace vpsim::sc
