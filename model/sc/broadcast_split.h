// An N-way broadcast: every item from `in` leaves on each of `out0` .. `out<N-1>` (as many a cycle
// as the channels move; an item waits until every output has room). For the running counts
// every unit behind the split must see: `constants_written_split` (the loader's count of constant
// vectors written, to N vertex ALUs: each one's vertices wait for their draw's epoch),
// `draws_done_split` (draws that have left, to N loaders) and `generated_split` (a tessellator's
// generated-vertex counts, to N index fetches). N is the parameter `ways` (split_merge.h).
//
// Ports: `in`, `out0` .. `out<N-1>`.
#pragma once

#include "model/common/stats.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/split_merge.h"
#include "model/sc/unit_registry.h"

namespace vpsim::sc {

template <class T>
class BroadcastSplit : public TimedUnit {
public:
    BroadcastSplit(const sc_core::sc_module_name& n, uint32_t ways, const char* what, Probes* probes)
        : TimedUnit(n), outs_(numbered_ports<Out<T>>(*this, "out", ways)), stats_(basename(), what), acct_(stats_),
          items_(stats_.counter("items", "items", "items taken from in (each sent to every output)")),
          stall_out_(stats_.stall_reason("output_full", "an item waits for room on every output",
                                         StallKind::back_pressure("out0"))) {
        acct_.attach(probes, basename());
    }

    Cycle step(Cycle now) override {
        bool moved = false;
        while (in_->can_pop(now) && room(now)) {
            const T v = in_->pop(now);
            for (auto& o : outs_) (*o)->push(v, now);
            ++items_;
            moved = true;
        }
        if (moved) {
            acct_.busy(now);
            return now + 1;  // (busy this cycle: idle from the next, unless more comes)
        }
        if (in_->can_pop(now)) {
            acct_.stall(stall_out_, now);
            return now + 1;  // (an output may be out of bandwidth this cycle, not full: no pop would wake us)
        }
        acct_.idle(now);
        return in_->next_pop(now);
    }
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override { return !in_->empty(); }
    const StatGroup& stats() const override { return stats_; }

private:
    bool room(Cycle now) const {
        for (const auto& o : outs_)
            if (!(*o)->can_push(now)) return false;
        return true;
    }
    In<T> in_{*this, "in"};
    std::vector<std::unique_ptr<Out<T>>> outs_;
    StatGroup stats_;
    CycleAccount acct_;
    Counter& items_;
    StallReason stall_out_;
};

}  // namespace vpsim::sc
