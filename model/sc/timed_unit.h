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
//   Latency 0 is for credits and counts sent upstream (to a unit the dispatcher steps later in
//   the same cycle): the item is visible at once.
// * In<T> / Out<T> — a unit's named ports. A unit touches other units only through its ports
//   (and read-only views it is given); the pipeline creates each channel from its topology
//   table and binds it to one Out and one In port (model/sc/pipeline.cpp).
// * Probes — optional waveform (VCD) and trace (Perfetto) sinks every unit writes to.
#pragma once

#include "model/common/stats.h"
#include "model/sc/probes.h"

#include <systemc>

#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace vpsim::sc {

using Cycle = uint64_t;
inline constexpr Cycle kNever = std::numeric_limits<Cycle>::max();

class PortBase;

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
    // The unit's statistics (its group in stats.json, named after the instance).
    virtual const StatGroup& stats() const = 0;
    // Every group it owns, in stats.json order (a unit with a sub-block's own group adds it).
    virtual std::vector<const StatGroup*> stat_groups() const { return {&stats()}; }
    // Draw `id` has left the output: every unit is done with it (a unit keeping per-draw state
    // it no longer needs drops it here).
    virtual void draw_retired(uint32_t id) { (void)id; }

    // The unit's ports, in declaration order (the ports register themselves).
    const std::vector<PortBase*>& ports() const { return ports_; }
    PortBase* port(const std::string& name) const;
    void add_port(PortBase* p) { ports_.push_back(p); }

    // Asks for a step at `at` (or the next cycle, if the unit already stepped at `at`).
    void wake(Cycle at) {
        if (stepped_ != kNever && at <= stepped_) at = stepped_ + 1;
        if (at < wake_) {
            wake_ = at;
            if (next_) {
                if (at < *next_) *next_ = at;
                *armed_ |= bit_;
            }
        }
    }
    Cycle wake_at() const { return wake_; }
    // The dispatcher's: where every wake-up also lowers the dispatcher's next cycle (`next`), and
    // the bit `bit` of `armed` the dispatcher keeps set while the unit wants a step (a wake-up
    // cycle below kNever), so its loop visits only those units. detach_dispatcher() ends both.
    void attach_dispatcher(Cycle* next, uint64_t* armed, uint64_t bit) {
        next_ = next;
        armed_ = armed;
        bit_ = bit;
        if (wake_ != kNever) *armed_ |= bit_;
    }
    void detach_dispatcher() {
        next_ = nullptr;
        armed_ = nullptr;
    }
    // The dispatcher's call, between attach_dispatcher() and detach_dispatcher() only (its
    // loop's; next_ and armed_ are set).
    void run_step(Cycle now) {
        wake_ = kNever;
        stepped_ = now;
        Cycle next = step(now);
        if (next <= now) next = now + 1;
        if (next < wake_) wake_ = next;
        if (wake_ < *next_) *next_ = wake_;
        if (wake_ == kNever) *armed_ &= ~bit_;
    }

private:
    Cycle wake_ = 0;
    Cycle stepped_ = kNever;
    Cycle* next_ = nullptr;
    uint64_t* armed_ = nullptr;
    uint64_t bit_ = 0;
    std::vector<PortBase*> ports_;
};

// Busy / idle / stalled accounting by state transitions, with the state drawn in the VCD as
// an integer: 0 idle, 1 busy, 2 + k for the stall reason of index k (the handle carries it).
// It is its group's open-cycles source (StatGroup::cycles_at): the state since its last change.
class CycleAccount final : public OpenCycles {
public:
    explicit CycleAccount(StatGroup& g) : g_(g) { g.hold_open(this); }
    CycleAccount(const CycleAccount&) = delete;  // the group holds its address
    CycleAccount& operator=(const CycleAccount&) = delete;
    void attach(Probes* p, const std::string& unit) {
        probes_ = p;
        if (p) sig_ = p->vcd_signal(unit, "state", 8);
    }
    void idle(Cycle now) { set(nullptr, 0, now); }
    void busy(Cycle now) { set(nullptr, 1, now); }
    void stall(const StallReason& reason, Cycle now) { set(reason.counter, 2 + reason.index, now); }
    void finish(Cycle end) {
        close(end);
        code_ = -1;
    }
    int state() const { return code_; }
    // The current state's cycles from its start to `now` (not yet in the group).
    void add_open(uint64_t now, CyclesAt& c) const override {
        if (code_ < 0 || now <= since_) return;
        const uint64_t n = now - since_;
        if (code_ == 0)
            c.idle += n;
        else if (code_ == 1)
            c.busy += n;
        else if (size_t(code_ - 2) < c.stalled.size())
            c.stalled[size_t(code_ - 2)] += n;
    }

private:
    // The same state again (most steps) costs a compare here; a change goes out of line.
    __attribute__((always_inline)) void set(Counter* reason, int code, Cycle now) {
        if (code == code_ && reason == reason_) return;
        change(reason, code, now);
    }
    __attribute__((noinline)) void change(Counter* reason, int code, Cycle now) {
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

// What the pipeline knows of every channel, whatever it carries.
class ChannelBase {
public:
    ChannelBase(std::string name, uint32_t capacity, uint32_t latency, uint32_t per_cycle)
        : name_(std::move(name)), cap_(capacity ? capacity : 1), lat_(latency), bw_(per_cycle ? per_cycle : 1) {}
    virtual ~ChannelBase() = default;
    ChannelBase(const ChannelBase&) = delete;
    ChannelBase& operator=(const ChannelBase&) = delete;

    void set_producer(TimedUnit* u) { producer_ = u; }
    void set_consumer(TimedUnit* u) { consumer_ = u; }
    void attach(Probes* probes) {
        probes_ = probes;
        if (probes) {
            sig_occ_ = probes->vcd_signal(name_, "occupancy", 16);
            sig_full_ = probes->vcd_signal(name_, "full", 1);
            sig_push_ = probes->vcd_signal(name_, "pushes", 32);
            sig_pop_ = probes->vcd_signal(name_, "pops", 32);
        }
    }
    virtual size_t size() const = 0;
    bool full() const { return size() >= cap_; }
    bool empty() const { return size() == 0; }
    uint32_t capacity() const { return cap_; }
    uint32_t latency() const { return lat_; }
    uint32_t bandwidth() const { return bw_; }
    const std::string& name() const { return name_; }
    uint64_t pushes() const { return pushes_; }
    const TimedUnit* producer() const { return producer_; }
    const TimedUnit* consumer() const { return consumer_; }

protected:
    std::string name_;
    uint32_t cap_, lat_, bw_;
    TimedUnit* producer_ = nullptr;
    TimedUnit* consumer_ = nullptr;
    Probes* probes_ = nullptr;
    int sig_occ_ = -1, sig_full_ = -1, sig_push_ = -1, sig_pop_ = -1;
    uint64_t pushes_ = 0, pops_ = 0;
};

template <class T>
class Channel;

// The two ends of a channel: a consumer's In port reaches only the pop side, a producer's Out
// port only the push side (a unit cannot push into its input or pop its output).
template <class T>
class PopEnd {
public:
    // The front item is visible and this cycle's pop bandwidth is not used up.
    bool can_pop(Cycle now) const { return ch().can_pop_(now); }
    // When the consumer should look again: the front item's visibility, or the next cycle if the
    // bandwidth was the limit; kNever when empty.
    Cycle next_pop(Cycle now) const { return ch().next_pop_(now); }
    T& front() { return ch().q_.front().v; }
    const T& front() const { return ch().q_.front().v; }
    T pop(Cycle now) { return ch().pop_(now); }
    bool empty() const { return ch().q_.empty(); }

private:
    Channel<T>& ch() { return static_cast<Channel<T>&>(*this); }
    const Channel<T>& ch() const { return static_cast<const Channel<T>&>(*this); }
};

template <class T>
class PushEnd {
public:
    bool can_push(Cycle now) const { return ch().can_push_(now); }
    void push(T v, Cycle now) { ch().push_(std::move(v), now); }

private:
    Channel<T>& ch() { return static_cast<Channel<T>&>(*this); }
    const Channel<T>& ch() const { return static_cast<const Channel<T>&>(*this); }
};

// A bounded channel. Items pushed at cycle t can be popped from t + latency.
template <class T>
class Channel final : public ChannelBase, public PopEnd<T>, public PushEnd<T> {
public:
    using ChannelBase::ChannelBase;

    size_t size() const override { return q_.size(); }

private:
    friend class PopEnd<T>;
    friend class PushEnd<T>;

    bool can_push_(Cycle now) const { return q_.size() < cap_ && !(push_cycle_ == now && pushes_now_ >= bw_); }
    void push_(T v, Cycle now) {
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
    bool can_pop_(Cycle now) const {
        return !q_.empty() && q_.front().ready <= now && !(pop_cycle_ == now && pops_now_ >= bw_);
    }
    Cycle next_pop_(Cycle now) const {
        if (q_.empty()) return kNever;
        if (q_.front().ready > now) return q_.front().ready;
        return now + 1;
    }
    T pop_(Cycle now) {
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

    struct Item {
        Cycle ready = 0;
        T v{};
    };
    // A FIFO of items in a ring of a power-of-two size that doubles when full (a channel is
    // mostly bounded by its capacity, but latency-0 counts may be pushed past it): the per-cycle
    // push, pop and front are an index and a mask, not a deque's block bookkeeping.
    class Ring {
    public:
        bool empty() const { return n_ == 0; }
        size_t size() const { return n_; }
        Item& front() { return a_[head_]; }
        const Item& front() const { return a_[head_]; }
        void push_back(Item&& x) {
            if (n_ == a_.size()) grow();
            a_[(head_ + n_) & (a_.size() - 1)] = std::move(x);
            ++n_;
        }
        void pop_front() {
            if constexpr (!std::is_trivially_destructible_v<T>) a_[head_] = Item{};  // releases what it holds now
            head_ = (head_ + 1) & (a_.size() - 1);
            --n_;
        }

    private:
        void grow() {
            std::vector<Item> b(a_.empty() ? 4 : 2 * a_.size());
            for (size_t i = 0; i < n_; ++i) b[i] = std::move(a_[(head_ + i) & (a_.size() - 1)]);
            a_.swap(b);
            head_ = 0;
        }
        std::vector<Item> a_;
        size_t head_ = 0, n_ = 0;
    };
    void count(Cycle& at, uint32_t& n, Cycle now) {
        if (at != now) at = now, n = 0;
        ++n;
    }
    Ring q_;
    Cycle push_cycle_ = kNever, pop_cycle_ = kNever;
    uint32_t pushes_now_ = 0, pops_now_ = 0;
};

// A unit's port: a name, a direction and the type it carries. The pipeline binds each port to
// exactly one channel (bind() checks the type); a unit uses its ports after that.
class PortBase {
public:
    PortBase(TimedUnit& owner, std::string name, bool input, const std::type_info& type)
        : owner_(owner), name_(std::move(name)), input_(input), type_(type) {
        owner.add_port(this);
    }
    virtual ~PortBase() = default;
    PortBase(const PortBase&) = delete;
    PortBase& operator=(const PortBase&) = delete;

    const std::string& name() const { return name_; }
    std::string full_name() const { return std::string(owner_.basename()) + "." + name_; }
    bool input() const { return input_; }
    const std::type_info& type() const { return type_; }
    bool bound() const { return channel_ != nullptr; }
    TimedUnit& owner() const { return owner_; }

    // A channel of this port's type (the pipeline makes each channel from its producer's port).
    virtual std::unique_ptr<ChannelBase> make_channel(std::string name, uint32_t capacity, uint32_t latency,
                                                      uint32_t per_cycle) const = 0;
    void bind(ChannelBase& c) {
        if (typeid(c) != channel_type())
            throw std::logic_error("port " + full_name() + ": channel " + c.name() + " carries another type");
        if (channel_) throw std::logic_error("port " + full_name() + " is bound twice");
        channel_ = &c;
        if (input_)
            c.set_consumer(&owner_);
        else
            c.set_producer(&owner_);
    }

protected:
    virtual const std::type_info& channel_type() const = 0;
    ChannelBase* channel_ = nullptr;

private:
    TimedUnit& owner_;
    std::string name_;
    bool input_;
    const std::type_info& type_;
};

template <class T>
class Port : public PortBase {
public:
    Port(TimedUnit& owner, std::string name, bool input) : PortBase(owner, std::move(name), input, typeid(T)) {}
    std::unique_ptr<ChannelBase> make_channel(std::string name, uint32_t capacity, uint32_t latency,
                                              uint32_t per_cycle) const override {
        return std::make_unique<Channel<T>>(std::move(name), capacity, latency, per_cycle);
    }

protected:
    Channel<T>* channel() const { return static_cast<Channel<T>*>(channel_); }

private:
    const std::type_info& channel_type() const override { return typeid(Channel<T>); }
};

// An input port: the unit only pops (`in_->pop(now)`); an output port: the unit only pushes.
template <class T>
class In : public Port<T> {
public:
    In(TimedUnit& owner, std::string name) : Port<T>(owner, std::move(name), true) {}
    PopEnd<T>* operator->() const { return this->channel(); }
    PopEnd<T>& operator*() const { return *this->channel(); }
};
template <class T>
class Out : public Port<T> {
public:
    Out(TimedUnit& owner, std::string name) : Port<T>(owner, std::move(name), false) {}
    PushEnd<T>* operator->() const { return this->channel(); }
    PushEnd<T>& operator*() const { return *this->channel(); }
};

inline PortBase* TimedUnit::port(const std::string& name) const {
    for (PortBase* p : ports_)
        if (p->name() == name) return p;
    return nullptr;
}

}  // namespace vpsim::sc
