// The unit types a topology file can name (docs/timing-model.md, "Adding a unit").
//
// * UnitContext — everything a unit may be given when it is built: its instance name (its
//   statistics group, VCD scope and trace tracks), its parameters (its own tables and its bound
//   dependencies, model/sc/unit_params.h: it cannot read another unit's), the vertex pool, the
//   scene machine, its memory port, the constant memory, the probes, the kernel clock and the
//   run's vertex sink. Nothing else: a unit never sees another unit.
// * UnitType — a type name, one line of what it is, its parameter tables, the values it needs
//   from other units (ParamNeed, bound by the topology), the bottleneck's
//   words for it, its summary (model/sc/summary.h: the values and text rows it adds to a run's
//   summary), the roles it plays for checks across units (model/sc/caps.h), and a factory from
//   a context; `variants` hold other implementations of the same unit (an RTL block in the
//   loop) a run can choose instead.
// * UnitRegistry — the types by name. builtin_units() holds vpsim's own: every unit file pair
//   defines `register_unit_<file>(UnitRegistry&)`, and model/CMakeLists.txt's list of units
//   generates the calls (no static registration, no linker anchors).
#pragma once

#include "model/common/params.h"
#include "model/scene/scene_machine.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/probes.h"
#include "model/sc/summary.h"
#include "model/sc/unit_params.h"
#include "model/vs/vs_exec.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vpsim::sc {

class MemoryModel;

// Receives every emitted reference: the draw, the reference's position, its vertex index and
// the shaded outputs.
using VertexSink = std::function<void(const DrawState&, uint64_t ref, uint32_t index, const vs::VertexOutputs&)>;

struct UnitContext {
    std::string name;          // the instance's name in the topology
    const UnitParams& params;  // its own tables and bound dependencies, nothing else
    VertexPool& pool;          // vertex jobs by handle
    scene::SceneMachine& machine;
    vs::Constants& constant_memory;  // the one constant memory: the loader writes it, the ALU reads it
    MemoryModel* memory = nullptr;   // the memory its "memory" port names (units that read memory)
    Probes* probes = nullptr;        // null: no VCD, trace or time series
    std::function<void(Cycle)> sync;  // brings the SystemC kernel's time to a cycle (a unit clocking real sc_modules)
    VertexSink sink;                  // every emitted vertex (the output)
    std::function<void(const DrawState&)> draw_done;  // after a draw's last vertex (the output)
    // The output calls `at_mark(now)` in the cycle it emits its n-th reference, for each n of
    // `marks` (RunOptions::marks).
    std::vector<uint64_t> marks;
    std::function<void(Cycle)> at_mark;
};

using UnitFactory = std::function<std::unique_ptr<TimedUnit>(const UnitContext&)>;

// The bottleneck's words for a unit (model/sc/bottleneck.h): what it is and what its busy
// cycles mean, and optionally how full it is for its capacity and words for a stall of its own.
struct UnitWords {
    std::string noun;  // "the vertex fetch"
    std::string busy;  // "requesting or sending vertices in {} of cycles" ({}: the busy percentage)
    // The busy fraction of its capacity from its stats.json group; empty: busy cycles per cycle.
    // `p`: the unit's own parameters (those it was built with).
    std::function<double(const nlohmann::ordered_json& group, uint64_t cycles, const UnitParams& p)> capacity;
    // Words for a stall reason of its own (`frac` of the run); "" for the general words. `memory`:
    // the memory unit its memory port reads ("" when it has none).
    std::function<std::string(const std::string& unit, const std::string& reason, double frac,
                              const nlohmann::ordered_json& units, const UnitParams& p, const std::string& memory)>
        stall;
};

struct UnitType {
    std::string name;  // in topology files
    std::string what;  // one line
    std::vector<ParamTable> tables;  // its parameter tables (shared by its instances)
    std::vector<ParamNeed> needs;    // values of other units it reads (bound by the topology)
    bool stepped = true;        // false: a service the units call (the memory), never stepped
    bool memory_port = false;   // takes a memory port: the topology names the memory it reads
    bool is_memory = false;     // a memory other units' memory ports can name
    UnitWords words;
    UnitSummary summary;             // its values and rows in the run summary
    std::vector<std::string> roles;  // e.g. "vertex_alu": what the cross-unit checks look it up by
    UnitFactory make;
    std::map<std::string, UnitFactory> variants;  // other implementations ("rtl")
};

class UnitRegistry {
public:
    // Throws std::logic_error on a duplicate name.
    void add(UnitType t);
    // Another implementation of `type` (std::logic_error if the type is unknown).
    void add_variant(const std::string& type, const std::string& variant, UnitFactory make);
    const UnitType* find(const std::string& name) const;
    const std::vector<UnitType>& types() const { return types_; }
    std::string names() const;  // "a, b, c" for messages

private:
    std::vector<UnitType> types_;
};

// vpsim's unit types (generated from model/CMakeLists.txt's unit list).
const UnitRegistry& builtin_units();
void register_builtin_units(UnitRegistry& r);  // the generated list of calls

}  // namespace vpsim::sc
