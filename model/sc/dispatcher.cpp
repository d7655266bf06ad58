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

Cycle Dispatcher::run() {
    Cycle now = 0, last = 0;
    uint64_t iterations = 0;
    // The next cycle any unit wants: lowered by every step's answer and every wake-up, so one
    // pass over the units per simulated cycle does both the stepping and the search.
    Cycle next = 0;
    for (TimedUnit* u : units_) u->set_dispatcher_next(&next);
    const bool one_pass = o_.one_pass_per_cycle;
    bool first = true;
    for (;;) {
        if (next == kNever) break;
        now = one_pass && !first ? std::max(next, now + 1) : std::max(next, now);
        first = false;
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
    const Cycle end = last + 1;
    sync(end);
    for (TimedUnit* u : units_) u->finish(end);
    return end;
}

}  // namespace vpsim::sc
