// A round-robin split: items from `in` leave alternately on `out0` and `out1`, one per cycle, in
// order (the next goes to the next output; it waits while that output is full). Registered as
// two unit types: `job_split` (vertex jobs: an index fetch feeding two vertex fetch units) and
// `credit_split` (freed input buffers going back to the two fetch units in the order their
// vertices entered the ALU, which a `job_merge` keeps alternating). No parameters.
//
// Ports: `in`, `out0`, `out1`.
#pragma once

#include "model/common/stats.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/unit_registry.h"

namespace vpsim::sc {

template <class T>
class RoundRobinSplit : public TimedUnit {
public:
    RoundRobinSplit(const sc_core::sc_module_name& n, const char* what, Probes* probes)
        : TimedUnit(n), stats_(basename(), what), acct_(stats_),
          items_(stats_.counter("items", "items", "items passed on, both outputs")),
          stall_out0_(stats_.stall_reason("out0_full", "the next item goes to out0, which is full",
                                          StallKind::back_pressure("out0"))),
          stall_out1_(stats_.stall_reason("out1_full", "the next item goes to out1, which is full",
                                          StallKind::back_pressure("out1"))) {
        acct_.attach(probes, basename());
    }

    Cycle step(Cycle now) override {
        if (!in_->can_pop(now)) {
            acct_.idle(now);
            return in_->next_pop(now);
        }
        Out<T>& out = next_ ? out1_ : out0_;
        if (!out->can_push(now)) {
            acct_.stall(next_ ? stall_out1_ : stall_out0_, now);
            return kNever;  // the consumer's pop wakes us
        }
        out->push(in_->pop(now), now);
        next_ ^= 1;
        ++items_;
        acct_.busy(now);
        return now + 1;
    }
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override { return !in_->empty(); }
    const StatGroup& stats() const override { return stats_; }

private:
    In<T> in_{*this, "in"};
    Out<T> out0_{*this, "out0"};
    Out<T> out1_{*this, "out1"};
    unsigned next_ = 0;
    StatGroup stats_;
    CycleAccount acct_;
    Counter& items_;
    StallReason stall_out0_, stall_out1_;
};

}  // namespace vpsim::sc
