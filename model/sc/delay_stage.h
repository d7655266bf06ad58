// A pass-through stage: vertex jobs leave it `latency` cycles after they enter, in order, at
// most `depth` inside and one per cycle each way. It does nothing to the values; it is the
// smallest complete unit (parameters declared once, ports, statistics, cycle accounting) and
// the worked example of docs/timing-model.md, "Adding a unit": a topology file that inserts it
// between the vertex fetch and the vertex ALU (examples/topologies/delay_stage.json) runs it.
//
// Ports: `in` vertex jobs (pool handles) from upstream, `out` the same jobs downstream.
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/unit_registry.h"

#include <deque>

namespace vpsim::sc {

struct DelayStageParams {
    uint32_t latency = 2;  // cycles from entry to exit
    uint32_t depth = 8;    // jobs held at once

    static constexpr const char* kUnit = "delay_stage";
    static const ParamBindings<DelayStageParams>& bindings();  // each parameter, declared once
    static ParamTable table() { return bindings().table(); }
    static DelayStageParams from(const ParamSet& p) { return bindings().from(p); }
};

class DelayStage : public TimedUnit {
public:
    DelayStage(const sc_core::sc_module_name& n, const DelayStageParams& p, Probes* probes);

    Cycle step(Cycle now) override;
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override { return !held_.empty(); }
    const StatGroup& stats() const override { return stats_; }

private:
    struct Held {
        Cycle leaves;
        Job job;
    };
    DelayStageParams p_;
    In<Job> in_{*this, "in"};
    Out<Job> out_{*this, "out"};
    std::deque<Held> held_;
    StatGroup stats_;
    CycleAccount acct_;
    Counter& jobs_;
    StallReason stall_out_;
};

}  // namespace vpsim::sc
