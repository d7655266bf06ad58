// An N-way round-robin split: items from `in` leave on `out0`, `out1`, ... `out<N-1>` in turn, one
// per cycle, in order (the next goes to the next output; it waits while that output is full).
// N is the parameter `ways` (2 by default; model/sc/split_merge.h). Registered for the things
// that flow in one ordered stream and can be dealt out:
//   job_split     vertex jobs (an index fetch feeding N vertex fetch units, or a vertex fetch
//                 feeding N vertex ALUs); job k goes to output k mod N;
//   credit_split  freed input buffers going back to N fetch units in the order their vertices
//                 entered the ALU, which a `job_merge` keeps in turn;
//   draw_split    draws (a front end feeding N tessellators); draw k goes to output k mod N.
// A `job_merge` (`draw_merge`) with the same N after the units puts the items back in order.
//
// Ports: `in`, `out0` .. `out<N-1>`.
#pragma once

#include "model/common/stats.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/split_merge.h"
#include "model/sc/unit_registry.h"

#include <fmt/format.h>

namespace vpsim::sc {

template <class T>
class RoundRobinSplit : public TimedUnit {
public:
    RoundRobinSplit(const sc_core::sc_module_name& n, uint32_t ways, const char* what, Probes* probes)
        : TimedUnit(n), outs_(numbered_ports<Out<T>>(*this, "out", ways)), stats_(basename(), what), acct_(stats_),
          items_(stats_.counter("items", "items", "items passed on, all outputs")) {
        for (uint32_t i = 0; i < ways; ++i)
            stall_out_.push_back(stats_.stall_reason(fmt::format("out{}_full", i),
                                                     fmt::format("the next item goes to out{}, which is full", i),
                                                     StallKind::back_pressure(fmt::format("out{}", i))));
        acct_.attach(probes, basename());
    }

    Cycle step(Cycle now) override {
        if (!in_->can_pop(now)) {
            acct_.idle(now);
            return in_->next_pop(now);
        }
        Out<T>& out = *outs_[next_];
        if (!out->can_push(now)) {
            acct_.stall(stall_out_[next_], now);
            return kNever;  // the consumer's pop wakes us
        }
        out->push(in_->pop(now), now);
        next_ = next_ + 1 == outs_.size() ? 0 : next_ + 1;
        ++items_;
        acct_.busy(now);
        return now + 1;
    }
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override { return !in_->empty(); }
    const StatGroup& stats() const override { return stats_; }

private:
    In<T> in_{*this, "in"};
    std::vector<std::unique_ptr<Out<T>>> outs_;
    size_t next_ = 0;
    StatGroup stats_;
    CycleAccount acct_;
    Counter& items_;
    std::vector<StallReason> stall_out_;
};

}  // namespace vpsim::sc
