// An N-way round-robin merge: takes items from `in0`, `in1`, ... `in<N-1>` in turn (waiting for
// the input whose turn it is), one per cycle, and sends them on `out`. After a round-robin split
// with the same N (model/sc/round_robin_split.h) and units that keep their own items in order,
// the items leave in the order they were split: the order the next unit must see them in (the
// vertex ALU shades jobs, the output emits shaded vertices, the index fetch reads draws in it).
// N is the parameter `ways` (model/sc/split_merge.h). Registered as `job_merge` (vertex jobs,
// fetched or shaded) and `draw_merge` (draws, after N tessellators).
//
// Ports: `in0` .. `in<N-1>`, `out`.
#pragma once

#include "model/common/stats.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/split_merge.h"
#include "model/sc/unit_registry.h"

#include <fmt/format.h>

namespace vpsim::sc {

template <class T>
class RoundRobinMerge : public TimedUnit {
public:
    // `counter`, `counter_unit`: the name and unit of its count of items passed on.
    RoundRobinMerge(const sc_core::sc_module_name& n, uint32_t ways, const char* what, const char* counter,
                    const char* counter_unit, Probes* probes)
        : TimedUnit(n), ins_(numbered_ports<In<T>>(*this, "in", ways)), stats_(basename(), what), acct_(stats_),
          items_(stats_.counter(counter, counter_unit, "items passed on, all inputs")),
          stall_out_(stats_.stall_reason("output_full", "an item waits for space downstream",
                                         StallKind::back_pressure("out"))) {
        for (uint32_t i = 0; i < ways; ++i)
            stall_in_.push_back(stats_.stall_reason(fmt::format("waiting_in{}", i),
                                                    fmt::format("the next item in order comes from in{}, which has none "
                                                                "yet", i),
                                                    StallKind::starvation(fmt::format("in{}", i))));
        acct_.attach(probes, basename());
    }

    Cycle step(Cycle now) override {
        In<T>& in = *ins_[next_];
        if (!in->can_pop(now)) {
            // Idle when no input holds an item; otherwise another input's item waits its turn.
            if (!busy_with_work())
                acct_.idle(now);
            else
                acct_.stall(stall_in_[next_], now);
            return in->next_pop(now);
        }
        if (!out_->can_push(now)) {
            acct_.stall(stall_out_, now);
            return kNever;  // the consumer's pop wakes us
        }
        out_->push(in->pop(now), now);
        next_ = next_ + 1 == ins_.size() ? 0 : next_ + 1;
        ++items_;
        acct_.busy(now);
        return now + 1;
    }
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override { return any_holds(ins_); }
    const StatGroup& stats() const override { return stats_; }

private:
    std::vector<std::unique_ptr<In<T>>> ins_;
    Out<T> out_{*this, "out"};
    size_t next_ = 0;
    StatGroup stats_;
    CycleAccount acct_;
    Counter& items_;
    StallReason stall_out_;
    std::vector<StallReason> stall_in_;
};

}  // namespace vpsim::sc
