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
    for (TimedUnit* u : units_) u->set_dispatcher_next(&next);
    for (bool first = true;; first = false) {
        if (next == kNever) break;
        // Strictly one pass per cycle: a unit woken for this cycle after its turn waits a cycle.
        now = OnePassPerCycle && !first ? std::max(next, now + 1) : std::max(next, now);
        next = kNever;
        for (TimedUnit* u : units_) {
            if (u->wake_at() <= now)
                u->run_step(now);
            else if (u->wake_at() < next)
                next = u->wake_at();
        }
        last = now;
        if (now - synced_ >= o_.quantum) sync(now);
        if (o_.progress && (++iterations & 0xFFFF) == 0) o_.progress(now);
    }
    for (TimedUnit* u : units_)
        if (u->busy_with_work())
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
