#include "model/sc/draw_end_merge.h"

#include "model/sc/split_merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace vpsim::sc {

DrawEndMerge::DrawEndMerge(const sc_core::sc_module_name& n, uint32_t ways, Probes* probes)
    : TimedUnit(n), ins_(numbered_ports<In<DrawEnd>>(*this, "in", ways)),
      stats_(basename(), "draw ends from every input, summed"), acct_(stats_),
      draws_(stats_.counter("draws", "draws", "draw ends sent on (each the sum of every input's count)")),
      stall_out_(stats_.stall_reason("output_full", "a draw end waits for space downstream",
                                     StallKind::back_pressure("out"))),
      stall_in_(stats_.stall_reason("waiting_inputs", "a draw end waits for the same draw from the other inputs")) {
    acct_.attach(probes, basename());
}

bool DrawEndMerge::busy_with_work() const { return any_holds(ins_); }

Cycle DrawEndMerge::step(Cycle now) {
    bool moved = false;
    for (;;) {
        bool all = true;
        for (const auto& in : ins_) all = all && (*in)->can_pop(now);
        if (!all) break;
        if (!out_->can_push(now)) {
            acct_.stall(stall_out_, now);
            return now + 1;  // (the output may be out of bandwidth this cycle, not full)
        }
        DrawEnd sum{(*ins_[0])->front().draw, 0};
        for (const auto& in : ins_) {
            const DrawEnd e = (*in)->pop(now);
            if (e.draw != sum.draw)
                throw std::logic_error(fmt::format("{}: {} reports draw {} where in0 reports draw {} (the inputs must "
                                                   "report every draw in order; internal error)",
                                                   basename(), in->name(), e.draw, sum.draw));
            sum.jobs += e.jobs;
        }
        out_->push(sum, now);
        ++draws_;
        moved = true;
    }
    const Cycle next = earliest_pop(ins_, now);
    if (moved) {
        acct_.busy(now);
        return now + 1;  // (busy this cycle: idle from the next, unless more comes)
    }
    if (busy_with_work())
        acct_.stall(stall_in_, now);
    else
        acct_.idle(now);
    return next;
}

void register_unit_draw_end_merge(UnitRegistry& r) {
    UnitType t;
    t.name = "draw_end_merge";
    t.what = "a draw's job counts from in0..in<ways-1>, summed once every input has reported the draw";
    t.tables = {ways_table(t.name, t.what)};
    t.words = {"the draw-end merge", "passing draw ends in {} of cycles", {}, {}};
    t.make = [](const UnitContext& c) {
        return std::make_unique<DrawEndMerge>(c.name.c_str(), ways_of(c, "draw_end_merge"), c.probes);
    };
    r.add(std::move(t));
}

}  // namespace vpsim::sc
