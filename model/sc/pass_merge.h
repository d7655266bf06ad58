// An N-way merge in arrival order: every item of `in0` .. `in<N-1>` is sent on `out` as it comes
// (within a cycle, in0's first), as many a cycle as the output channel moves. For items whose
// order between the inputs does not matter: `credit_merge` (freed input buffers from N vertex
// ALUs back to one vertex fetch: buffers are counted, whoever frees them) and `generated_merge`
// (generated-vertex counts from N tessellators to one index fetch, which keeps them by draw).
// N is the parameter `ways` (split_merge.h).
//
// Ports: `in0` .. `in<N-1>`, `out`.
#pragma once

#include "model/common/stats.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/split_merge.h"
#include "model/sc/unit_registry.h"

#include <algorithm>

namespace vpsim::sc {

template <class T>
class PassMerge : public TimedUnit {
public:
    PassMerge(const sc_core::sc_module_name& n, uint32_t ways, const char* what, Probes* probes)
        : TimedUnit(n), ins_(numbered_ports<In<T>>(*this, "in", ways)), stats_(basename(), what), acct_(stats_),
          items_(stats_.counter("items", "items", "items passed on, all inputs")),
          stall_out_(stats_.stall_reason("output_full", "an item waits for space downstream",
                                         StallKind::back_pressure("out"))) {
        acct_.attach(probes, basename());
    }

    Cycle step(Cycle now) override {
        bool moved = false, blocked = false;
        for (auto& in : ins_)
            while ((*in)->can_pop(now)) {
                if (!out_->can_push(now)) {
                    blocked = true;
                    break;
                }
                out_->push((*in)->pop(now), now);
                ++items_;
                moved = true;
            }
        const Cycle next = earliest_pop(ins_, now);
        if (moved) {
            acct_.busy(now);
            return now + 1;  // (busy this cycle: idle from the next, unless more comes)
        }
        if (blocked)
            acct_.stall(stall_out_, now);
        else
            acct_.idle(now);
        return blocked ? now + 1 : next;
    }
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override { return any_holds(ins_); }
    const StatGroup& stats() const override { return stats_; }

private:
    std::vector<std::unique_ptr<In<T>>> ins_;
    Out<T> out_{*this, "out"};
    StatGroup stats_;
    CycleAccount acct_;
    Counter& items_;
    StallReason stall_out_;
};

}  // namespace vpsim::sc
