// The bottleneck traced to its cause (docs/calibration.md, "The bottleneck in words"): from the
// unit busiest for its capacity, follow its largest stall while that stall is back-pressure
// (to the downstream unit that is full) or starvation (to the upstream unit that is empty),
// until a unit is saturated or stalls on a resource of its own. Works on stats.json's units
// (every stall reason carries its class and, when directed, the unit `by` which it is felt), so
// it knows no unit's code: the words for each unit are its type's (UnitType::words).
#pragma once

#include "model/common/params.h"
#include "model/sc/unit_registry.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace vpsim::sc {

// One step of the chain: `unit` stalls on `reason` (`cls`: local, back_pressure, starvation) in
// `cycles` of the run, felt through the unit `by` (directed classes).
struct CauseStep {
    std::string unit, reason, cls, by;
    uint64_t cycles = 0;
};

struct Bottleneck {
    std::string unit;     // the cause: the unit where the chain ends
    double busy = 0;      // its busy fraction of its capacity
    std::string reason;   // its own stall reason that limits it, "busy" when it is saturated, or
                          // "capacity" when a full channel into a starved unit caps the work in flight
    std::string capacity_key;  // with "capacity": the channel's capacity (a parameter key)
    std::string text;     // in words (the summary's "bottleneck")
    std::vector<CauseStep> chain;  // the units followed to it (the first is the busiest unit)
};

// The words of each unit (stats.json group name -> its type's words, its own parameters (those
// it was built with) and the memory unit its memory port reads, "" if it has none).
struct UnitWordsOf {
    const UnitWords* words = nullptr;
    std::string memory;
    const UnitParams* params = nullptr;
};
using UnitWordsMap = std::map<std::string, UnitWordsOf>;

// A unit's busy fraction of its capacity: its type's UnitWords::capacity (the ALU issue cycles
// per engine cycle, the memory bus cycles, the index fetch references per `indices_per_cycle` x
// cycles, ...), else busy cycles per cycle. NaN for an untimed unit.
double capacity_used(const UnitWordsMap& w, const std::string& unit, const nlohmann::ordered_json& group,
                     uint64_t cycles);

// `units`: stats.json's "units" (with "by" filled in); `words`: each unit's words and parameters
// (the words quote the fetch's miss registers and its memory's latency).
Bottleneck trace_bottleneck(const nlohmann::ordered_json& units, uint64_t cycles, const UnitWordsMap& words);

}  // namespace vpsim::sc
