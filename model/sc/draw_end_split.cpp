#include "model/sc/draw_end_split.h"

#include "model/sc/split_merge.h"

namespace vpsim::sc {

DrawEndSplit::DrawEndSplit(const sc_core::sc_module_name& n, uint32_t ways, Probes* probes)
    : TimedUnit(n), outs_(numbered_ports<Out<DrawEnd>>(*this, "out", ways)),
      stats_(basename(), "a draw's job count, dealt as a job_split deals its jobs"), acct_(stats_),
      draws_(stats_.counter("draws", "draws", "draw ends taken (each sent to every output with its share)")),
      stall_out_(stats_.stall_reason("output_full", "a draw end waits for room on every output",
                                     StallKind::back_pressure("out0"))) {
    acct_.attach(probes, basename());
}

uint64_t DrawEndSplit::share(uint64_t dealt, uint64_t n, uint32_t ways, uint32_t i) {
    // Jobs k < x with k mod ways = i: (x + ways - 1 - i) / ways.
    auto below = [&](uint64_t x) { return (x + ways - 1 - i) / ways; };
    return below(dealt + n) - below(dealt);
}

Cycle DrawEndSplit::step(Cycle now) {
    bool moved = false;
    for (;;) {
        if (!in_->can_pop(now)) break;
        bool room = true;
        for (const auto& o : outs_) room = room && (*o)->can_push(now);
        if (!room) {
            acct_.stall(stall_out_, now);
            return now + 1;  // (an output may be out of bandwidth this cycle, not full)
        }
        const DrawEnd e = in_->pop(now);
        for (uint32_t i = 0; i < outs_.size(); ++i)
            (*outs_[i])->push(DrawEnd{e.draw, share(dealt_, e.jobs, uint32_t(outs_.size()), i)}, now);
        dealt_ += e.jobs;
        ++draws_;
        moved = true;
    }
    if (moved) {
        acct_.busy(now);
        return now + 1;  // (busy this cycle: idle from the next, unless more comes)
    }
    acct_.idle(now);
    return in_->next_pop(now);
}

void register_unit_draw_end_split(UnitRegistry& r) {
    UnitType t;
    t.name = "draw_end_split";
    t.what = "a draw's job count to out0..out<ways-1>: each output's share as a job_split with the same ways deals the jobs";
    t.tables = {ways_table(t.name, t.what)};
    t.words = {"the draw-end split", "passing draw ends in {} of cycles", {}, {}};
    t.make = [](const UnitContext& c) {
        return std::make_unique<DrawEndSplit>(c.name.c_str(), ways_of(c, "draw_end_split"), c.probes);
    };
    r.add(std::move(t));
}

}  // namespace vpsim::sc
