#include "model/sc/dispatcher.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace vpsim::sc {

void Dispatcher::sync(Cycle c) {
    if (c > synced_) {
        sc_core::wait(sc_core::sc_time(double((c - synced_) * o_.period_ps), sc_core::SC_PS));
        synced_ = c;
    }
}

template <bool OnePassPerCycle>
Cycle Dispatcher::loop() {
    Cycle now = 0, last = 0;
    uint64_t iterations = 0;
    // The next cycle any unit wants: lowered by every step's answer and every wake-up, so one
    // pass over the units per simulated cycle does both the stepping and the search.
    Cycle next = 0;
    // Bit i: unit i wants a step (its wake-up cycle is below kNever); the pass visits only those
    // (the others would be neither due nor the next). Units past the 64th are always visited.
    uint64_t armed = 0;
    const size_t n = units_.size(), masked = std::min<size_t>(n, 64);
    for (size_t i = 0; i < n; ++i)
        if (i < masked)
            units_[i]->attach_dispatcher(&next, &armed, uint64_t(1) << i);
        else
            units_[i]->attach_dispatcher(&next, &armed, 0);
    struct Detach {  // also when a step throws
        const std::vector<TimedUnit*>& units;
        ~Detach() {
            for (TimedUnit* u : units) u->detach_dispatcher();
        }
    } detach{units_};
    TimedUnit* const* const units = units_.data();
    // Read once, not after every step (a step may write any memory, so the compiler reloads
    // members); synced_ is read each time (a unit may sync()).
    const uint64_t quantum = o_.quantum;
    const bool progress = bool(o_.progress);
    auto visit = [&](TimedUnit* u) {
        const Cycle at = u->wake_at();
        if (at <= now)
            u->run_step(now);
        else if (at < next)
            next = at;
    };
    for (bool first = true;; first = false) {
        if (next == kNever || stop_) break;
        // Strictly one pass per cycle: a unit woken for this cycle after its turn waits a cycle.
        now = OnePassPerCycle && !first ? std::max(next, now + 1) : std::max(next, now);
        next = kNever;
        // In step order; a unit a step wakes later in the order is visited in this pass (the mask
        // is read again after each visit).
        for (uint64_t m = armed; m;) {
            const unsigned i = unsigned(__builtin_ctzll(m));
            visit(units[i]);
            m = armed & (~uint64_t(1) << i);
        }
        for (size_t i = masked; i < n; ++i) visit(units[i]);
        last = now;
        if (now - synced_ >= quantum) sync(now);
        if (progress && (++iterations & 0xFFFF) == 0) o_.progress(now);
    }
    for (TimedUnit* u : units_)
        if (!stop_ && u->busy_with_work())
            throw std::logic_error(fmt::format("timing model deadlock at cycle {}: unit {} still holds work "
                                               "(internal error)",
                                               now, u->basename()));
    return last + 1;
}

Cycle Dispatcher::run() {
    const Cycle end = o_.one_pass_per_cycle ? loop<true>() : loop<false>();
    sync(end);
    for (TimedUnit* u : units_) u->finish(end);
    return end;
}

}  // namespace vpsim::sc
