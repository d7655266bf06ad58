// The timing model's top level: the units wired by bounded channels, and the clocked
// dispatcher that steps them (docs/timing-model.md).
//
// One SC_THREAD runs the cycle loop: each iteration jumps to the earliest cycle any unit asked
// for (idle and waiting cycles are skipped, not ticked) and steps the units that are due,
// downstream first, so space freed in a cycle is usable upstream in the same cycle. The
// SystemC kernel's time follows the loop through a quantum keeper: the thread waits (letting
// the kernel advance) every `quantum` cycles, and exactly to the cycle whenever a unit needs
// kernel time (the declaration decoder, clocked through its pins).
//
// pipeline.cpp is the only file that knows the topology: default_topology() is the table of
// channels (producer.port -> consumer.port, capacity, latency, bandwidth), and the pipeline
// creates each channel from it and binds it to the two ports. `vpsim run --topology` prints it.
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/sc/bottleneck.h"
#include "model/sc/caps.h"
#include "model/sc/command_front_end.h"
#include "model/sc/constant_loader.h"
#include "model/sc/decl_decoder_pins.h"
#include "model/sc/decl_decoder_unit.h"
#include "model/sc/index_fetch.h"
#include "model/sc/memory_model.h"
#include "model/sc/output_unit.h"
#include "model/sc/sc_context.h"
#include "model/sc/tessellator_unit.h"
#include "model/sc/vertex_alu.h"
#include "model/sc/vertex_fetch.h"
#include "model/scene/scene.h"

#include <nlohmann/json.hpp>

#include <exception>
#include <functional>
#include <memory>

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

    static constexpr const char* kUnit = "fixed_function";
    static const ParamBindings<FixedFunctionParams>& bindings();
    static ParamTable table();
    static FixedFunctionParams from(const ParamSet& p);
    ff::Caps caps() const;
};

// A channel's capacity, latency or bandwidth: a number, or the value of a parameter.
struct Amount {
    uint64_t value = 0;
    std::string key;  // "unit.param" when the amount is a parameter
    Amount(uint64_t v) : value(v) {}  // NOLINT: a plain number
    Amount(int v) : value(uint64_t(v)) {}  // NOLINT: a plain number (0 is not a key)
    Amount(const char* k) : key(k) {}  // NOLINT: a parameter key
    uint64_t resolve(const ParamSet& p) const { return key.empty() ? value : p.get_uint(key); }
    std::string text() const { return key.empty() ? std::to_string(value) : key; }
};

// One channel of the topology.
struct LinkSpec {
    std::string name;      // the channel's name (its VCD scope)
    std::string from, to;  // "unit.port" of the producer's Out port and the consumer's In port
    Amount capacity, latency, bandwidth;
    std::string carries;   // what flows, for the printed table
};

// A unit added to the pipeline (an architect's own stage, or a test's): made from the resolved
// parameters, stepped right after the unit `step_after` (the dispatcher steps downstream
// first), wired by the links that name its ports.
struct ExtraUnit {
    std::string name;
    std::string step_after;
    std::function<std::unique_ptr<TimedUnit>(const sc_core::sc_module_name&, const ParamSet&, VertexPool&, Probes*)>
        make;
};

struct Topology {
    std::vector<LinkSpec> links;
    std::vector<ExtraUnit> extra;
};

// The pipeline's channels (docs/timing-model.md has the picture).
Topology default_topology();
// The table as text (resolved capacities) and as Graphviz DOT.
std::string topology_text(const Topology& t, const ParamSet& p);
std::string topology_dot(const Topology& t, const ParamSet& p);

// Every unit's parameter table, listed explicitly, and a ParamSet of their defaults. `extra`
// adds the tables of units a Topology adds.
std::vector<ParamTable> param_tables();
ParamSet default_params(std::vector<ParamTable> extra = {});

struct RunOptions {
    std::string vcd_path;    // --vcd
    std::string trace_path;  // --trace
    uint64_t stats_interval = 0;  // --stats-interval: RunResult::timeseries_csv every N cycles (0: off)
    VertexSink sink;         // every emitted vertex, draw order
    std::function<void(const DrawState&)> draw_done;  // after a draw's last vertex
    bool progress = false;   // a progress line on stderr after ~2 s
    tess::TessProfile tess_profile;  // the tessellator's choices (docs/tessellation.md)
    const Topology* topology = nullptr;  // null: default_topology()
    // The declaration decoder behind the front end's pins; no `make`: the SystemC model
    // (model_decl_decoder()). `vpsim run --rtl decl_decoder` sets the RTL's (tb/rtl_in_loop.h).
    DeclDecoderImpl decl_decoder;
    // The vertex fetch unit (named "vertex_fetch", with VertexFetch's ports); empty: the SystemC
    // model VertexFetch. `vpsim run --rtl vertex_fetch` sets the RTL's (tb/vf_loop.h).
    std::function<std::unique_ptr<TimedUnit>(const ParamSet&, MemoryModel&, VertexPool&, Probes*)> vertex_fetch;
};

struct TopStall {
    std::string unit, reason;
    uint64_t cycles = 0;
    std::string cls;  // local, back_pressure, starvation
    std::string by;   // back-pressure: the downstream unit that is full; starvation: the upstream one
};

struct RunResult {
    uint64_t cycles = 0;
    uint64_t draws = 0, references = 0, shaded = 0, primitives = 0, unique = 0;
    // The tessellator (zero when the scene draws no patches and no N-patches).
    uint64_t tess_patches = 0, tess_npatch_draws = 0, tess_vertices = 0, tess_triangles = 0, tess_handle_hits = 0,
             tess_control_points = 0;
    uint64_t tess_busy_cycles = 0;
    // Fixed-function draws, and the distinct programs they ran: (instructions, slots), first use first.
    uint64_t ff_draws = 0;
    std::vector<std::pair<uint32_t, uint32_t>> ff_programs;
    double clock_mhz = 0;
    double alu_utilisation = 0, coissue_rate = 0, ptc_hit_rate = 0, acmr = 0, atvr = 0;
    double fetch_bytes_per_cycle = 0, memory_bytes_per_cycle = 0, fetch_cache_hit_rate = 0;
    std::vector<TopStall> top_stalls;      // the largest stall reasons over all units
    // The bottleneck: the unit busiest for its capacity (the ALU: issue cycles per engine cycle;
    // the memory: bus cycles; any other unit: busy cycles per run cycle), and in words.
    // Traced to its cause (model/sc/bottleneck.h): the unit where the chain of back-pressure and
    // starvation ends, its reason ("busy" when saturated) and the chain followed to it.
    std::string bottleneck_unit;
    double bottleneck_busy = 0;
    std::string bottleneck_reason;
    std::string bottleneck;
    std::vector<CauseStep> bottleneck_chain;
    std::vector<CapWarning> caps;  // parameters capping another's effect (model/sc/caps.h)
    double in_flight_mean = 0;     // vertices in flight per engine, mean over the run
    uint64_t in_flight_max = 0;    // and the most in one engine
    std::vector<std::string> cycle_errors;  // units whose cycles do not add up (must be empty)
    std::vector<std::string> warnings;
    double host_seconds = 0;                // sc_start's wall time
    nlohmann::ordered_json stats;           // stats.json
    std::string timeseries_csv;             // with RunOptions::stats_interval: timeseries.csv
};

// Runs a scene on the timing model in a fresh SystemC context. Throws scene::SceneError (a
// command failed), ParamError, OutputError (a probe file), std::logic_error (an internal error
// such as a deadlock or a primitive count mismatch).
RunResult run_pipeline(const scene::Scene& scene, const ParamSet& params, const vs::Profile& profile,
                       const RunOptions& options = {});

// A bare sc_clock with one module counting its rising edges, for `vpsim bench run`: returns the
// host seconds to simulate `cycles` cycles (fresh SystemC context).
double bare_clock_seconds(uint64_t cycles);

}  // namespace vpsim::sc
