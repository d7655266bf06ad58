#include "model/sc/delay_stage.h"

#include <fmt/format.h>

#include <algorithm>

namespace vpsim::sc {

const ParamBindings<DelayStageParams>& DelayStageParams::bindings() {
    static const auto b =
        ParamBindings<DelayStageParams>(kUnit, "pass-through stage: jobs leave after a fixed latency")
            .uint("latency", "cycles", &DelayStageParams::latency, "cycles from a job's entry to its exit",
                  "assumed (a stage an architect inserts)", 0, 1u << 20).latency()
            .uint("depth", "jobs", &DelayStageParams::depth, "jobs the stage holds at once", "assumed", 1, 1u << 16).capacity();
    return b;
}

DelayStage::DelayStage(const sc_core::sc_module_name& n, const DelayStageParams& p, Probes* probes)
    : TimedUnit(n), p_(p), stats_(basename(), "pass-through delay stage"), acct_(stats_),
      jobs_(stats_.counter("jobs", "vertices", "jobs passed through")),
      stall_out_(stats_.stall_reason("output_full", "a job's latency is over but the downstream channel is full",
                                                StallKind::back_pressure("out"))) {
    acct_.attach(probes, basename());
}

Cycle DelayStage::step(Cycle now) {
    bool moved = false, blocked = false;
    // Out first: a job whose latency is over leaves (one per cycle).
    if (!held_.empty() && held_.front().leaves <= now) {
        if (out_->can_push(now)) {
            out_->push(held_.front().job, now);
            held_.pop_front();
            ++jobs_;
            moved = true;
        } else {
            blocked = true;  // the consumer's pop wakes us
        }
    }
    // Then in (one per cycle): it leaves `latency` cycles from now (0: this very cycle).
    if (held_.size() < p_.depth && in_->can_pop(now)) {
        held_.push_back({now + p_.latency, in_->pop(now)});
        moved = true;
        if (p_.latency == 0 && !blocked && out_->can_push(now)) {
            out_->push(held_.front().job, now);
            held_.pop_front();
            ++jobs_;
        }
    }
    if (blocked)
        acct_.stall(stall_out_, now);
    else if (moved || !held_.empty())
        acct_.busy(now);  // jobs in flight occupy the stage
    else
        acct_.idle(now);
    Cycle next = held_.size() < p_.depth ? in_->next_pop(now) : kNever;
    if (!held_.empty() && !blocked) next = std::min(next, std::max(held_.front().leaves, now + 1));
    return next;
}

namespace {
// One summary row when the topology has delay stages: the jobs they passed and how full they were.
UnitSummary delay_stage_summary() {
    UnitSummary s;
    s.lines = {{38, [](const SummaryUnits& u, const SummaryValues&) -> SummaryRows {
                    if (u.groups.empty()) return {};
                    const double held = u.cycles ? double(u.busy_cycles()) / double(u.cycles * u.groups.size()) : 0.0;
                    return {{"delay stage", fmt::format("{} jobs passed through, holding jobs in {:.1f} % of cycles",
                                                        group_digits(u.sum("jobs")), 100 * held)}};
                }}};
    return s;
}
}  // namespace

void register_unit_delay_stage(UnitRegistry& r) {
    UnitType t;
    t.name = "delay_stage";
    t.what = "pass-through stage: vertex jobs leave after a fixed latency";
    t.tables = {DelayStageParams::table()};
    t.words = {"the delay stage", "holding jobs in {} of cycles", {}, {}};
    t.summary = delay_stage_summary();
    t.make = [](const UnitContext& c) {
        return std::make_unique<DelayStage>(c.name.c_str(), c.params.of<DelayStageParams>(), c.probes);
    };
    r.add(std::move(t));
}

}  // namespace vpsim::sc
