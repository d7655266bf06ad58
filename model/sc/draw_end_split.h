// A draw's job count dealt out as a `job_split` deals the jobs: the index fetch says "draw d sent
// n jobs" once (DrawEnd), and output i of an N-way split is told how many of those n jobs reach
// it, when jobs are dealt round-robin over the whole run, job k to output k mod N: with s jobs
// dealt before the draw, output i gets |{k in [s, s+n): k mod N = i}|. Each of N vertex ALUs
// behind a job_split with the same N then knows when its share of a draw has left (draws_done),
// a share of 0 included. The job split must see every job, in the index fetch's order, from the
// start of the run (nothing between them reorders or drops jobs). N is the parameter `ways`
// (split_merge.h).
//
// Ports: `in`, `out0` .. `out<N-1>`.
#pragma once

#include "model/common/stats.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/unit_registry.h"

namespace vpsim::sc {

class DrawEndSplit : public TimedUnit {
public:
    DrawEndSplit(const sc_core::sc_module_name& n, uint32_t ways, Probes* probes);

    Cycle step(Cycle now) override;
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override { return !in_->empty(); }
    const StatGroup& stats() const override { return stats_; }

    // Of the jobs k in [dealt, dealt + n), those with k mod ways = i.
    static uint64_t share(uint64_t dealt, uint64_t n, uint32_t ways, uint32_t i);

private:
    In<DrawEnd> in_{*this, "in"};
    std::vector<std::unique_ptr<Out<DrawEnd>>> outs_;
    uint64_t dealt_ = 0;  // jobs of the draws before
    StatGroup stats_;
    CycleAccount acct_;
    Counter& draws_;
    StallReason stall_out_;
};

}  // namespace vpsim::sc
