// A round-robin merge of vertex jobs: takes them alternately from `in0` and `in1` (waiting for
// the input whose turn it is), one per cycle, and sends them on `out`. After a `job_split`, the
// jobs leave in the order they were split: the order the vertex ALU must shade them in. No
// parameters.
//
// Ports: `in0`, `in1`, `out`.
#pragma once

#include "model/common/stats.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/unit_registry.h"

namespace vpsim::sc {

class JobMerge : public TimedUnit {
public:
    JobMerge(const sc_core::sc_module_name& n, Probes* probes);

    Cycle step(Cycle now) override;
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override { return !in0_->empty() || !in1_->empty(); }
    const StatGroup& stats() const override { return stats_; }

private:
    In<Job> in0_{*this, "in0"};
    In<Job> in1_{*this, "in1"};
    Out<Job> out_{*this, "out"};
    unsigned next_ = 0;
    StatGroup stats_;
    CycleAccount acct_;
    Counter& jobs_;
    StallReason stall_out_, stall_in0_, stall_in1_;
};

}  // namespace vpsim::sc
