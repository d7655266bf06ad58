#include "model/sc/job_merge.h"

namespace vpsim::sc {

JobMerge::JobMerge(const sc_core::sc_module_name& n, Probes* probes)
    : TimedUnit(n), stats_(basename(), "round-robin merge of vertex jobs"), acct_(stats_),
      jobs_(stats_.counter("jobs", "vertices", "jobs passed on, both inputs")),
      stall_out_(stats_.stall_reason("output_full", "a job waits for space downstream", StallKind::back_pressure("out"))),
      stall_in0_(stats_.stall_reason("waiting_in0", "the next job in order comes from in0, which has none yet",
                                     StallKind::starvation("in0"))),
      stall_in1_(stats_.stall_reason("waiting_in1", "the next job in order comes from in1, which has none yet",
                                     StallKind::starvation("in1"))) {
    acct_.attach(probes, basename());
}

Cycle JobMerge::step(Cycle now) {
    In<Job>& in = next_ ? in1_ : in0_;
    if (!in->can_pop(now)) {
        // Idle when neither input holds a job; otherwise the other input's job waits its turn.
        if (in0_->empty() && in1_->empty())
            acct_.idle(now);
        else
            acct_.stall(next_ ? stall_in1_ : stall_in0_, now);
        return in->next_pop(now);
    }
    if (!out_->can_push(now)) {
        acct_.stall(stall_out_, now);
        return kNever;  // the consumer's pop wakes us
    }
    out_->push(in->pop(now), now);
    next_ ^= 1;
    ++jobs_;
    acct_.busy(now);
    return now + 1;
}

void register_unit_job_merge(UnitRegistry& r) {
    UnitType t;
    t.name = "job_merge";
    t.what = "round-robin merge of vertex jobs from in0 and in1, in the order a job_split made";
    t.words = {"the job merge", "passing jobs in {} of cycles", {}, {}};
    t.make = [](const UnitContext& c) { return std::make_unique<JobMerge>(c.name.c_str(), c.probes); };
    r.add(std::move(t));
}

}  // namespace vpsim::sc
