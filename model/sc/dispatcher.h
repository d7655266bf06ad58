// The clocked dispatcher (docs/timing-model.md, "The dispatcher"): the one cycle loop that steps
// TimedUnits, used by the pipeline and by `vpsim bench dispatch`.
//
// Each iteration jumps to the earliest cycle any unit asked for (idle and waiting cycles are
// skipped, not ticked) and steps the units due at that cycle in the order given (the pipeline
// gives downstream first). The SystemC kernel's time follows the loop through a quantum keeper:
// run() must be called from an SC_THREAD; it waits every `quantum` cycles, and sync(c) brings the
// kernel to cycle c exactly (a unit that clocks real sc_modules calls it).
#pragma once

#include "model/sc/timed_unit.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace vpsim::sc {

class Dispatcher {
public:
    struct Options {
        uint64_t quantum = 100000;  // cycles the loop may run ahead of the kernel
        uint64_t period_ps = 5000;  // one cycle of kernel time
        // A unit woken for the current cycle after its turn is stepped in another pass over the
        // same cycle (the pipeline); with `one_pass_per_cycle`, at the next cycle instead (the
        // bench's sc_fifo timing: a slot freed at t is writable from t + 1).
        bool one_pass_per_cycle = false;
        // Called about every 65,536 iterations with the current cycle (a progress line).
        std::function<void(Cycle)> progress;
    };

    Dispatcher(std::vector<TimedUnit*> units, Options o) : units_(std::move(units)), o_(std::move(o)) {}

    // Runs until no unit wants a step; then checks that no unit still holds work (else throws
    // std::logic_error "... deadlock ..."), brings the kernel to the end cycle and closes every
    // unit's accounting (finish). Returns the run's cycles (the last stepped cycle + 1).
    Cycle run();
    // Brings the kernel's time to cycle `c` (no-op if it is there already).
    void sync(Cycle c);
    // Ends the run after the current cycle's pass, whatever the units still hold (no deadlock
    // check): run() returns that cycle + 1 and closes every unit's accounting there. For a caller
    // that needs nothing after a cycle (RunOptions::stop_at_last_mark).
    void stop() { stop_ = true; }
    const std::vector<TimedUnit*>& units() const { return units_; }

private:
    template <bool OnePassPerCycle>
    Cycle loop();

    std::vector<TimedUnit*> units_;
    Options o_;
    Cycle synced_ = 0;
    bool stop_ = false;
};

}  // namespace vpsim::sc
