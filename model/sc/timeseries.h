// The run's time series (`vpsim run --stats-interval N`, docs/stats.md "Time series"): every N
// cycles, each unit's state occupancy (busy / idle / stalled-by-reason cycles in the interval)
// and each channel's occupancy (mean items, cycles full, pushes).
//
// It is fed by Probes with the same value changes the VCD gets (a unit's CycleAccount `state`,
// a channel's `occupancy`, `full` and `pushes`), so the units know nothing of it and a run
// without the option has no Probes and pays nothing. A value holds from the cycle it is set
// until the next change, exactly as CycleAccount counts it, so each interval's busy + idle +
// stalled equals the interval's length and the columns sum to stats.json's cycles.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace vpsim::sc {

class TimeSeries {
public:
    explicit TimeSeries(uint64_t interval);  // interval >= 1 (std::invalid_argument otherwise)

    uint64_t interval() const { return interval_; }
    // Signal `id` (Probes' index) is `scope`.`name`; only the names above are recorded.
    void signal(int id, const std::string& scope, const std::string& name);
    // Signal `id` takes `value` from cycle `t` on (t non-decreasing across calls).
    void change(int id, uint64_t t, uint64_t value);
    // Closes every signal at the run's end.
    void finish(uint64_t end);

    // A unit's state column names: `reasons` are its stall reasons in declaration order
    // (state 2 + k is reasons[k]). Returns the CSV text; units without `reasons` given get none.
    // Columns: interval_begin, interval_end, then per unit (order of first declaration)
    // <unit>.busy, <unit>.idle, <unit>.stalled.<reason>..., then per channel
    // <channel>.occupancy (mean items over the interval), <channel>.full (cycles),
    // <channel>.pushes (items pushed in the interval).
    std::string csv(const std::map<std::string, std::vector<std::string>>& reasons) const;

    uint64_t end() const { return end_; }

private:
    enum class Kind { ignored, state, occupancy, full, pushes };
    struct Sig {
        std::string scope;
        Kind kind = Kind::ignored;
        uint64_t value = 0, since = 0;
        // Per interval: for state, cycles per code (code -> cycles); for occupancy, the
        // item-cycles; for full, the cycles full; for pushes, the count at the interval's end.
        std::vector<std::map<uint64_t, uint64_t>> by_code;
        std::vector<uint64_t> sum;
    };
    void advance(Sig& s, uint64_t to);
    std::vector<uint64_t>& at_least(std::vector<uint64_t>& v, size_t n);

    uint64_t interval_;
    uint64_t end_ = 0;
    bool finished_ = false;
    std::vector<Sig> sigs_;  // by Probes id (ignored where unrecorded)
};

}  // namespace vpsim::sc
