// An N-way merge of running counts: keeps the latest count from each of `in0` .. `in<N-1>` and
// sends their minimum on `out` whenever it rises. Registered for the counts a unit upstream must
// see from all of N units behind it: `draws_done_merge` (draws that have left every one of N
// vertex ALUs: a constant batch waits for it, so no vertex of an earlier draw, in any ALU, reads
// constant memory after it is rewritten) and `constants_written_merge` (vectors written by every
// one of N loaders). N is the parameter `ways` (split_merge.h).
//
// Ports: `in0` .. `in<N-1>`, `out`.
#pragma once

#include "model/common/stats.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/split_merge.h"
#include "model/sc/unit_registry.h"

#include <algorithm>

namespace vpsim::sc {

inline uint64_t& count_of(DrawsDone& d) { return d.draws; }
inline uint64_t& count_of(ConstantsWritten& c) { return c.vectors; }

template <class T>
class CountMerge : public TimedUnit {
public:
    CountMerge(const sc_core::sc_module_name& n, uint32_t ways, const char* what, Probes* probes)
        : TimedUnit(n), ins_(numbered_ports<In<T>>(*this, "in", ways)), latest_(ways, 0), stats_(basename(), what),
          acct_(stats_), updates_(stats_.counter("updates", "items", "counts sent on (each the minimum of the inputs')")),
          stall_out_(stats_.stall_reason("output_full", "a new minimum waits for space downstream",
                                         StallKind::back_pressure("out"))) {
        acct_.attach(probes, basename());
    }

    Cycle step(Cycle now) override {
        bool took = false;
        for (size_t i = 0; i < ins_.size(); ++i)
            while ((*ins_[i])->can_pop(now)) {
                T v = (*ins_[i])->pop(now);
                latest_[i] = std::max(latest_[i], count_of(v));
                took = true;
            }
        const uint64_t m = *std::min_element(latest_.begin(), latest_.end());
        const Cycle next = earliest_pop(ins_, now);
        if (m > sent_) {
            if (!out_->can_push(now)) {
                acct_.stall(stall_out_, now);
                return next;  // and the consumer's pop wakes us
            }
            T v{};
            count_of(v) = m;
            out_->push(v, now);
            sent_ = m;
            ++updates_;
            took = true;
        }
        if (took) {
            acct_.busy(now);
            return now + 1;  // (busy this cycle: idle from the next, unless more comes)
        }
        acct_.idle(now);
        return next;
    }
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override {
        return any_holds(ins_) || *std::min_element(latest_.begin(), latest_.end()) > sent_;
    }
    const StatGroup& stats() const override { return stats_; }

private:
    std::vector<std::unique_ptr<In<T>>> ins_;
    Out<T> out_{*this, "out"};
    std::vector<uint64_t> latest_;
    uint64_t sent_ = 0;
    StatGroup stats_;
    CycleAccount acct_;
    Counter& updates_;
    StallReason stall_out_;
};

}  // namespace vpsim::sc
