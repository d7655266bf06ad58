// N draw-end counts made one: each of `in0` .. `in<N-1>` says how many of draw d's jobs it sent
// (every input reports every draw, in draw order); once all have reported draw d, `out` gets the
// draw with their sum (for N index fetches, or N units each sending part of a draw's jobs, in
// front of one vertex ALU). Draws that differ at the inputs' fronts are an internal error (the
// inputs do not report every draw in order). N is the parameter `ways` (split_merge.h).
//
// Ports: `in0` .. `in<N-1>`, `out`.
#pragma once

#include "model/common/stats.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/unit_registry.h"

namespace vpsim::sc {

class DrawEndMerge : public TimedUnit {
public:
    DrawEndMerge(const sc_core::sc_module_name& n, uint32_t ways, Probes* probes);

    Cycle step(Cycle now) override;
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override;
    const StatGroup& stats() const override { return stats_; }

private:
    std::vector<std::unique_ptr<In<DrawEnd>>> ins_;
    Out<DrawEnd> out_{*this, "out"};
    StatGroup stats_;
    CycleAccount acct_;
    Counter& draws_;
    StallReason stall_out_, stall_in_;
};

}  // namespace vpsim::sc
