// The timing model's top level (docs/timing-model.md): the units a topology names, built by
// their types' factories (model/sc/unit_registry.h), wired by bounded channels from its links,
// and stepped by the clocked dispatcher (model/sc/dispatcher.h) in the order the topology gives.
// This file knows no unit: everything about the pipeline's shape is in the topology
// (model/sc/topology.json by default, or `vpsim run --topology-file`).
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/sc/bottleneck.h"
#include "model/sc/caps.h"
#include "model/sc/sc_context.h"
#include "model/sc/summary.h"
#include "model/sc/topology.h"
#include "model/sc/unit_registry.h"
#include "model/scene/scene.h"

#include <nlohmann/json.hpp>

#include <exception>
#include <functional>
#include <map>
#include <memory>

namespace vpsim::scene {
class ProgramCache;
}

namespace vpsim::sc {

struct PipelineParams {
    double clock_mhz = 200;        // modelled core clock
    uint64_t quantum = 100000;     // cycles the loop may run ahead of the kernel

    static constexpr const char* kUnit = "pipeline";
    static const ParamBindings<PipelineParams>& bindings();  // each parameter, declared once
    static ParamTable table();
    static PipelineParams from(const ParamSet& p);
};

// The device's fixed-function caps (D3DCAPS8 members, ff::Caps): what a fixed-function draw may
// use; a draw beyond them is refused naming the cap (docs/fixed-function.md). Read by the scene
// machine of `vpsim run` and, with --preset, of `vpsim scene-exec` and `vpsim ff-program`.
struct FixedFunctionParams {
    uint32_t max_active_lights = 8;
    uint32_t max_vertex_blend_matrices = 4;
    uint32_t max_vertex_blend_matrix_index = 0;
    double max_point_size = 64;
    uint32_t program_words = 136;

    static constexpr const char* kUnit = "fixed_function";
    static const ParamBindings<FixedFunctionParams>& bindings();
    static ParamTable table();
    static FixedFunctionParams from(const ParamSet& p);
    ff::Caps caps() const;
};

// The parameter tables of the timing model with this topology: the pipeline's own, then each
// unit type's in the order the units are listed (a type's tables once).
std::vector<ParamTable> param_tables(const Topology& t, const UnitRegistry& r = builtin_units());
std::vector<ParamTable> param_tables();  // of the default topology
ParamSet default_params(const Topology& t, const UnitRegistry& r = builtin_units());
ParamSet default_params();

struct RunOptions {
    std::string vcd_path;    // --vcd
    std::string trace_path;  // --trace
    uint64_t stats_interval = 0;  // --stats-interval: RunResult::timeseries_csv every N cycles (0: off)
    VertexSink sink;         // every emitted vertex, draw order
    std::function<void(const DrawState&)> draw_done;  // after a draw's last vertex
    bool progress = false;   // a progress line on stderr after ~2 s
    tess::TessProfile tess_profile;  // the tessellator's choices (docs/tessellation.md)
    const Topology* topology = nullptr;  // null: default_topology()
    const UnitRegistry* registry = nullptr;  // null: builtin_units()
    // Unit type -> the variant its units are built with (UnitType::variants; e.g. an RTL block:
    // `vpsim run --rtl UNIT` adds its "rtl" variant to a copy of the registry, model/sc/rtl_in_loop.h).
    std::map<std::string, std::string> variants;
    // Marks inside the run (sampled simulation, docs/sampling.md "A unit's cycles"): in the cycle
    // the output emits its n-th reference, for each n of `marks` (non-decreasing, each >= 1),
    // `at_mark` gets that cycle and every unit's statistics groups, whose cycles_at(cycle) is each
    // one's accounting up to it. The topology must have exactly one output unit
    // (std::invalid_argument otherwise).
    std::vector<uint64_t> marks;
    std::function<void(Cycle, const std::vector<const StatGroup*>&)> at_mark;
    // The result without the statistics' report: RunResult holds the cycles, the warnings, the
    // cycles' check (cycle_errors) and the summary values, and leaves `stats` null and what is
    // derived from it (top stalls, bottleneck, caps, instances, time series) empty. For a caller
    // that reads the statistics at its marks (sampled simulation: building the report was a
    // tenth of a sampled recorded frame's work).
    bool cycles_only = false;
    // End the run in the cycle of its last mark, after that cycle's steps: nothing after it is
    // simulated. The units' work in flight is dropped (no deadlock check), the accounting closes
    // at the mark's cycle + 1, which is the run's cycles. For a caller that reads nothing after its
    // last mark (sampled simulation: a block's cool-down is simulated only up to its mark).
    bool stop_at_last_mark = false;
    // Created shaders and fixed-function programs shared with other runs of the same parameters and
    // profile (model/scene/program_cache.h): a sampled run's blocks make each once. Null: none.
    std::shared_ptr<scene::ProgramCache> programs;
};

struct TopStall {
    std::string unit, reason;
    uint64_t cycles = 0;
    std::string cls;  // local, back_pressure, starvation
    std::string by;   // back-pressure: the downstream unit that is full; starvation: the upstream one
};

struct RunResult {
    uint64_t cycles = 0;
    double clock_mhz = 0;
    // What the units declare for the summary (UnitType::summary, model/sc/summary.h): every unit
    // type's values, and the text rows `vpsim run` prints among its own, by rank.
    SummaryValues values;
    std::vector<SummaryRow> rows;
    uint64_t count(const std::string& key) const { return values.count(key); }
    double real(const std::string& key) const { return values.real(key); }
    // Fixed-function draws, and the distinct programs they ran: (instructions, slots), first use first.
    uint64_t ff_draws = 0;
    std::vector<std::pair<uint32_t, uint32_t>> ff_programs;
    // Software vertex processing: draws whose vertices the CPU processed, those vertices, and the
    // application's program slots they ran there (fixed function: 0, the reference processor).
    uint64_t software_draws = 0, software_vertices = 0, software_slots = 0;
    std::vector<TopStall> top_stalls;      // the largest stall reasons over all units
    // The bottleneck: the unit busiest for its capacity (its type's UnitWords::capacity, or busy
    // cycles per run cycle), and in words.
    // Traced to its cause (model/sc/bottleneck.h): the unit where the chain of back-pressure and
    // starvation ends, its reason ("busy" when saturated) and the chain followed to it.
    std::string bottleneck_unit;
    double bottleneck_busy = 0;
    std::string bottleneck_reason;
    std::string bottleneck_capacity_key;  // with reason "capacity": the channel capacity's parameter
    std::string bottleneck;
    std::vector<CauseStep> bottleneck_chain;
    std::vector<CapWarning> caps;  // parameters capping another's effect (model/sc/caps.h)
    // Per instance, for each unit type the topology has several units of (none with one unit per
    // type): how busy each is for its capacity, in its type's words ("issuing in 45.1 % of engine
    // cycles"), in topology order.
    struct Instance {
        std::string unit, type;
        double busy = 0;
        std::string text;
    };
    std::vector<Instance> instances;
    std::vector<std::string> cycle_errors;  // units whose cycles do not add up (must be empty)
    std::vector<std::string> warnings;
    double host_seconds = 0;                // sc_start's wall time
    nlohmann::ordered_json stats;           // stats.json
    std::string timeseries_csv;             // with RunOptions::stats_interval: timeseries.csv
};

// Runs a scene on the timing model in a fresh SystemC context. Throws scene::SceneError (a
// command failed), ParamError, TopologyError (a topology that cannot be built, located in its
// file), OutputError (a probe file), std::logic_error (an internal error such as a deadlock or a
// primitive count mismatch).
RunResult run_pipeline(const scene::Scene& scene, const ParamSet& params, const vs::Profile& profile,
                       const RunOptions& options = {});

// Throws std::logic_error "statistics do not add up (internal error):" with every unit's
// RunResult::cycle_errors, one a line, when there are any.
void check_cycles_add_up(const RunResult& r);

// Builds the pipeline of `options.topology` (units, channels, step order) without running it,
// in a fresh SystemC context: throws what run_pipeline would before its first cycle
// (TopologyError for a topology that cannot be built).
void check_topology(const ParamSet& params, const RunOptions& options = {});

// A bare sc_clock with one module counting its rising edges, for `vpsim bench run`: returns the
// host seconds to simulate `cycles` cycles (fresh SystemC context).
double bare_clock_seconds(uint64_t cycles);

}  // namespace vpsim::sc
