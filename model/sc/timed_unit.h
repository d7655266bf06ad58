// The timing framework of the pipeline's SystemC units (docs/timing-model.md):
//
// * TimedUnit — an sc_module stepped by the pipeline's clocked dispatcher (model/sc/pipeline.h)
//   only on the cycles it asked for (step() returns the next one) or was woken for; a unit with
//   nothing to do costs nothing, so idle and waiting cycles are skipped, not ticked.
// * CycleAccount — the unit's busy / idle / stalled-by-reason accounting kept by transitions:
//   the state set at a step holds until the next step, so skipped cycles are counted exactly.
// * Channel<T> — a bounded FIFO between two units with a latency (cycles from push to pop) and
//   a bandwidth (items per cycle each way); back-pressure is a full channel. A push wakes the
//   consumer when the item becomes visible; a pop from a full channel wakes the producer.
// * Probes — optional waveform (VCD) and trace (Perfetto) sinks every unit writes to.
#pragma once

#include "model/common/stats.h"
#include "model/sc/probes.h"

#include <systemc>

#include <cstdint>
#include <deque>
#include <limits>
#include <string>

namespace vpsim::sc {

using Cycle = uint64_t;
inline constexpr Cycle kNever = std::numeric_limits<Cycle>::max();

class TimedUnit : public sc_core::sc_module {
public:
    explicit TimedUnit(const sc_core::sc_module_name& n) : sc_core::sc_module(n) {}

    // Does this cycle's work and returns the next cycle the unit needs a step (kNever: only
    // when woken). Called at most once per cycle, in the dispatcher's order (downstream first).
    virtual Cycle step(Cycle now) = 0;
    // Closes the cycle accounting at the end of the run (`end` = the run's cycles).
    virtual void finish(Cycle end) = 0;
    // True while the unit holds work (for the dispatcher's end-of-run and deadlock checks).
    virtual bool busy_with_work() const = 0;

    // Asks for a step at `at` (or the next cycle, if the unit already stepped at `at`).
    void wake(Cycle at) {
        if (stepped_ != kNever && at <= stepped_) at = stepped_ + 1;
        if (at < wake_) {
            wake_ = at;
            if (next_ && at < *next_) *next_ = at;
        }
    }
    Cycle wake_at() const { return wake_; }
    // The dispatcher's: where every wake-up also lowers the dispatcher's next cycle.
    void set_dispatcher_next(Cycle* next) { next_ = next; }
    // The dispatcher's call.
    void run_step(Cycle now) {
        wake_ = kNever;
        stepped_ = now;
        Cycle next = step(now);
        if (next <= now) next = now + 1;
        if (next < wake_) wake_ = next;
        if (next_ && wake_ < *next_) *next_ = wake_;
    }

private:
    Cycle wake_ = 0;
    Cycle stepped_ = kNever;
    Cycle* next_ = nullptr;
};

// Busy / idle / stalled accounting by state transitions, with the state drawn in the VCD as
// an integer: 0 idle, 1 busy, 2 + k stall reason k (in the order the unit declared them).
class CycleAccount {
public:
    explicit CycleAccount(StatGroup& g) : g_(g) {}
    void attach(Probes* p, const std::string& unit) {
        probes_ = p;
        if (p) sig_ = p->vcd_signal(unit, "state", 8);
    }
    void idle(Cycle now) { set(nullptr, 0, now); }
    void busy(Cycle now) { set(nullptr, 1, now); }
    void stall(Counter& reason, int reason_index, Cycle now) { set(&reason, 2 + reason_index, now); }
    void finish(Cycle end) {
        close(end);
        code_ = -1;
    }
    int state() const { return code_; }

private:
    void set(Counter* reason, int code, Cycle now) {
        if (code == code_ && reason == reason_) return;
        close(now);
        code_ = code;
        reason_ = reason;
        if (probes_) probes_->vcd_change(sig_, now, uint64_t(code));
    }
    void close(Cycle now) {
        if (code_ < 0 || now <= since_) {
            since_ = now;
            return;
        }
        const uint64_t n = now - since_;
        if (code_ == 0)
            g_.idle(n);
        else if (code_ == 1)
            g_.busy(n);
        else
            *reason_ += n;
        since_ = now;
    }

    StatGroup& g_;
    Probes* probes_ = nullptr;
    int sig_ = -1;
    int code_ = 0;  // the state from cycle 0 until the first step: idle
    Counter* reason_ = nullptr;
    Cycle since_ = 0;
};

// A bounded channel. Items pushed at cycle t can be popped from t + latency.
template <class T>
class Channel {
public:
    Channel(std::string name, uint32_t capacity, uint32_t latency, uint32_t per_cycle)
        : name_(std::move(name)), cap_(capacity ? capacity : 1), lat_(latency ? latency : 1),
          bw_(per_cycle ? per_cycle : 1) {}

    void connect(TimedUnit* producer, TimedUnit* consumer, Probes* probes) {
        producer_ = producer;
        consumer_ = consumer;
        probes_ = probes;
        if (probes) {
            sig_occ_ = probes->vcd_signal(name_, "occupancy", 16);
            sig_full_ = probes->vcd_signal(name_, "full", 1);
            sig_push_ = probes->vcd_signal(name_, "pushes", 32);
            sig_pop_ = probes->vcd_signal(name_, "pops", 32);
        }
    }

    bool full() const { return q_.size() >= cap_; }
    bool empty() const { return q_.empty(); }
    size_t size() const { return q_.size(); }
    uint32_t capacity() const { return cap_; }
    const std::string& name() const { return name_; }

    bool can_push(Cycle now) const { return q_.size() < cap_ && !(push_cycle_ == now && pushes_now_ >= bw_); }
    void push(T v, Cycle now) {
        count(push_cycle_, pushes_now_, now);
        q_.push_back({now + lat_, std::move(v)});
        ++pushes_;
        if (consumer_) consumer_->wake(now + lat_);
        if (probes_) {
            probes_->vcd_change(sig_occ_, now, q_.size());
            probes_->vcd_change(sig_full_, now, full());
            probes_->vcd_change(sig_push_, now, pushes_);
        }
    }
    // The front item is visible and this cycle's pop bandwidth is not used up.
    bool can_pop(Cycle now) const {
        return !q_.empty() && q_.front().ready <= now && !(pop_cycle_ == now && pops_now_ >= bw_);
    }
    // When the consumer should look again: the front item's visibility, or the next cycle if the
    // bandwidth was the limit; kNever when empty.
    Cycle next_pop(Cycle now) const {
        if (q_.empty()) return kNever;
        if (q_.front().ready > now) return q_.front().ready;
        return now + 1;
    }
    T& front() { return q_.front().v; }
    const T& front() const { return q_.front().v; }
    T pop(Cycle now) {
        const bool was_full = full();
        count(pop_cycle_, pops_now_, now);
        T v = std::move(q_.front().v);
        q_.pop_front();
        ++pops_;
        if (was_full && producer_) producer_->wake(now);
        if (probes_) {
            probes_->vcd_change(sig_occ_, now, q_.size());
            probes_->vcd_change(sig_full_, now, full());
            probes_->vcd_change(sig_pop_, now, pops_);
        }
        return v;
    }

private:
    struct Item {
        Cycle ready;
        T v;
    };
    void count(Cycle& at, uint32_t& n, Cycle now) {
        if (at != now) at = now, n = 0;
        ++n;
    }
    std::string name_;
    uint32_t cap_, lat_, bw_;
    std::deque<Item> q_;
    TimedUnit* producer_ = nullptr;
    TimedUnit* consumer_ = nullptr;
    Probes* probes_ = nullptr;
    int sig_occ_ = -1, sig_full_ = -1, sig_push_ = -1, sig_pop_ = -1;
    Cycle push_cycle_ = kNever, pop_cycle_ = kNever;
    uint32_t pushes_now_ = 0, pops_now_ = 0;
    uint64_t pushes_ = 0, pops_ = 0;
};

}  // namespace vpsim::sc
