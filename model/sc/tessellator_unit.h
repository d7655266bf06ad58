// The tessellator and its input stage (docs/tessellation.md, "Timing"), between the command
// front end and the index fetch. Draws without a tessellator pass through in a cycle. For a
// patch draw (DrawRectPatch / DrawTriPatch) or an N-patched triangle draw, the functional core
// (scene::SceneMachine, the golden tessellator) has already produced the generated vertices and
// triangles; this unit decides when each generated vertex exists:
//   * the patch's control points are read at `control_points_per_cycle` (skipped when the
//     patch handle's cache holds them);
//   * then domain points leave at most `points_per_cycle`, each evaluating every register the
//     declaration loads from memory over every control point at `macs_per_cycle` four-wide
//     multiply-adds (a cached, unchanged tessellation is read back at `points_per_cycle`).
// The draw goes on to the index fetch at once; the index fetch reads a reference only when
// the generated vertex it names exists (stall `tessellator` there), so tessellation and shading
// overlap. Ports: `in` draws from the front end; `out` draws to the index fetch; `generated`
// the count of the current draw's vertices that exist, to the index fetch.
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/unit_registry.h"

namespace vpsim::sc {

struct TessellatorParams {
    uint32_t queue = 2;                    // draws buffered from the front end
    uint32_t control_points_per_cycle = 1; // control point reads per cycle
    uint32_t points_per_cycle = 1;         // domain points generated per cycle (at most)
    uint32_t macs_per_cycle = 16;          // register x control point products per cycle

    static constexpr const char* kUnit = "tessellator";
    static const ParamBindings<TessellatorParams>& bindings();  // each parameter, declared once
    static ParamTable table();
    static TessellatorParams from(const ParamSet& p);
};

class TessellatorUnit : public TimedUnit {
public:
    TessellatorUnit(const sc_core::sc_module_name& n, const TessellatorParams& p, Probes* probes);

    Cycle step(Cycle now) override;
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override { return !in_->empty() || current_; }
    const StatGroup& stats() const override { return stats_; }

private:
    TessellatorParams p_;
    Probes* probes_;
    In<const DrawState*> in_{*this, "in"};
    Out<const DrawState*> out_{*this, "out"};
    Out<GeneratedReady> generated_{*this, "generated"};
    const DrawState* current_ = nullptr;  // the generated draw being produced
    uint64_t made_ = 0;                   // of its vertices, generated so far
    Cycle start_ = 0, control_done_ = 0;
    uint64_t cycles_per_point_ = 1, points_per_step_ = 1;
    int track_ = -1;
    StatGroup stats_;
    CycleAccount acct_;
    Counter &draws_, &patches_, &npatch_draws_, &vertices_, &triangles_, &control_points_, &handle_hits_, &reused_,
        &approximated_;
    StallReason stall_out_;
};

}  // namespace vpsim::sc
