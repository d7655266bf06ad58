// Statistics owned by the unit that counts them (gem5 style, docs/stats.md): one StatGroup
// per unit with named counters (each with a unit and a description), cycle accounting
// (busy, idle, stalled by reason) and derived rates. No global counters: a run collects the
// groups of its units in a StatsReport and writes stats.json next to config.json.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <deque>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim {

struct Counter {
    std::string name;
    std::string unit;         // "vertices", "tokens", "lookups", ...
    std::string description;  // one line
    uint64_t value = 0;

    Counter& operator++() {
        ++value;
        return *this;
    }
    Counter& operator+=(uint64_t n) {
        value += n;
        return *this;
    }
};

// What a stall waits for (docs/stats.md, "Stall classes"): the unit's own resource (local), a
// downstream unit that has no room (back-pressure) or an upstream unit that has nothing to give
// (starvation). The other unit is named by the unit's own port through which it is felt; the
// pipeline, which alone knows the topology, names the unit at the channel's other end.
enum class StallClass { local, back_pressure, starvation };
const char* stall_class_name(StallClass c);

struct StallKind {
    StallClass cls = StallClass::local;
    std::string port;  // back-pressure / starvation: the port that channel is bound to
    static StallKind local() { return {}; }
    static StallKind back_pressure(std::string port) { return {StallClass::back_pressure, std::move(port)}; }
    static StallKind starvation(std::string port) { return {StallClass::starvation, std::move(port)}; }
};

// A declared stall reason: its cycle counter and its index in the unit's declaration order
// (the VCD draws a unit's state as 0 idle, 1 busy, 2 + index for this reason).
struct StallReason {
    Counter* counter = nullptr;
    int index = -1;
    StallReason& operator+=(uint64_t n) {
        *counter += n;
        return *this;
    }
};

// A timed group's cycle accounting at a moment inside the run (StatGroup::cycles_at): busy, idle and
// each stall reason's cycles (declaration order), as if the run had ended then.
struct CyclesAt {
    uint64_t busy = 0, idle = 0;
    std::vector<uint64_t> stalled;
};

// Cycles a unit's accounting holds and has not added to its group yet (a state that began before
// `now` and still holds, or cycles a unit adds only when the run ends): their source adds them to
// `c` on request (StatGroup::cycles_at). The source outlives the group's readers (a member of the
// unit that owns the group).
class OpenCycles {
public:
    virtual void add_open(uint64_t now, CyclesAt& c) const = 0;

protected:
    ~OpenCycles() = default;
};

class StatGroup {
public:
    // `timed`: the unit accounts every cycle as busy, idle or stalled (SystemC timing units);
    // a purely functional unit (no clock) has counters and rates only.
    StatGroup(std::string unit, std::string description, bool timed = true);

    // Declares a counter and returns it; the reference stays valid for the group's life.
    // Declaring a name twice is a std::logic_error.
    Counter& counter(const std::string& name, const std::string& unit, const std::string& description);
    Counter& operator[](const std::string& name);  // a declared counter (std::logic_error if not)
    const Counter& operator[](const std::string& name) const;
    uint64_t get(const std::string& name) const { return (*this)[name].value; }
    bool has(const std::string& name) const { return index_.count(name) != 0; }

    // Declares a stall reason (name and what the unit waits for); stall() accepts only declared
    // reasons, so every reason in stats.json is documented. The returned handle carries the
    // reason's cycle counter (unit "cycles") and its index: accounting through it is the same
    // as stall("reason") without the look-up.
    // `kind` classifies it (local unless said otherwise).
    StallReason stall_reason(const std::string& reason, const std::string& description, StallKind kind = {});
    const StallKind& stall_kind(const std::string& reason) const;  // std::logic_error if undeclared
    std::vector<std::string> stall_reasons() const;                // declaration order

    // Cycle accounting: call exactly one of these per clock of a timed unit.
    void busy(uint64_t n = 1) { busy_ += n; }
    void idle(uint64_t n = 1) { idle_ += n; }
    void stall(const std::string& reason, uint64_t n = 1);

    uint64_t busy_cycles() const { return busy_; }
    uint64_t idle_cycles() const { return idle_; }
    uint64_t stalled_cycles() const;                           // every reason
    uint64_t stalled_cycles(const std::string& reason) const;  // one reason
    uint64_t accounted_cycles() const { return busy_ + idle_ + stalled_cycles(); }
    bool timed() const { return timed_; }

    // The cycle accounting as if the run ended at cycle `now` (a sampled run's mark,
    // docs/sampling.md): the cycles added so far plus those its open-cycles source holds (one
    // source per group: the unit's CycleAccount, or the unit itself where it adds cycles at the
    // end). Meaningful before the run's end only; counting nothing changes.
    CyclesAt cycles_at(uint64_t now) const;
    // Where this group's open cycles are (the source registers itself; the group only learns where
    // to ask, so a const group takes it too).
    void hold_open(const OpenCycles* source) const { open_ = source; }

    // A derived rate numerator / denominator, each a counter name or one of "cycles" (the
    // run's cycles), "busy_cycles", "idle_cycles", "stalled_cycles". Null in JSON when the
    // denominator is 0.
    void rate(const std::string& name, const std::string& numerator, const std::string& denominator,
              const std::string& unit, const std::string& description);
    double rate_value(const std::string& name, uint64_t total_cycles) const;  // NaN when undefined

    // Zeroes every counter and the cycle accounting (declarations stay).
    void reset();

    const std::string& unit() const { return unit_; }
    const std::string& description() const { return description_; }

    // The group in the schema of docs/stats.md; `total_cycles` is the run's cycle count.
    nlohmann::ordered_json to_json(uint64_t total_cycles) const;

private:
    struct Rate {
        std::string name, numerator, denominator, unit, description;
    };
    double operand(const std::string& name, uint64_t total_cycles) const;

    std::string unit_, description_;
    bool timed_;
    std::deque<Counter> counters_;  // deque: references stay valid as counters are added
    std::map<std::string, size_t> index_;
    uint64_t busy_ = 0, idle_ = 0;
    std::deque<Counter> stalls_;  // name, "cycles", description, cycles
    std::deque<StallKind> kinds_;  // stalls_[i]'s class
    std::vector<Rate> rates_;
    mutable const OpenCycles* open_ = nullptr;  // hold_open()
};

// The statistics of one run: the groups of its units (not owned) and the run's cycles.
class StatsReport {
public:
    void add(const StatGroup& g) { groups_.push_back(&g); }
    const std::vector<const StatGroup*>& groups() const { return groups_; }

    // The timed units whose busy + idle + stalled cycles differ from `total_cycles`, each as
    // "unit: busy B + idle I + stalled S = A != total T".
    std::vector<std::string> check_cycles_add_up(uint64_t total_cycles) const;

    // {"schema": "vpsim-stats-1", "cycles": T, "units": {unit: group...}} (docs/stats.md).
    nlohmann::ordered_json to_json(uint64_t total_cycles) const;
    void write(const std::string& path, uint64_t total_cycles) const;  // atomically

private:
    std::vector<const StatGroup*> groups_;
};

// One group's check, for a single unit.
inline bool cycles_add_up(const StatGroup& g, uint64_t total_cycles) {
    return g.accounted_cycles() == total_cycles;
}

}  // namespace vpsim
