#include "model/bench/dispatch_bench.h"

#include "model/common/stats.h"
#include "model/sc/dispatcher.h"
#include "model/sc/sc_context.h"
#include "model/sc/timed_unit.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <exception>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <thread>

namespace vpsim::bench {

using namespace sc_core;
using namespace vpsim::sc;  // the timing model's units, typed ports, channels and Dispatcher

namespace {

constexpr uint64_t kPeriodPs = 5000;  // 200 MHz, the pipeline's default clock

// What every way's stage counts, and the sink's check that the items arrive complete and in
// order. A stage records an error rather than throw from a process. The textbook ways' sink
// stops the simulation after the last item; the dispatcher stops by itself (its loop runs out
// of cycles to step, then it synchronises the kernel to the end).
struct StageCounts {
    uint32_t service = 1;
    uint64_t items = 0;
    bool source = false, sink = false, stops = true;
    uint64_t made = 0, retired = 0;  // the source's items made, the sink's retired
    uint64_t busy = 0, stalled = 0, activations = 0;
    Cycle last_retire = 0;
    std::string error;

    void retire(uint64_t v, Cycle now) {
        if (v != retired && error.empty()) {
            error = fmt::format("item {} retired as number {}", v, retired);
            if (stops) sc_stop();
        }
        ++retired;
        if (retired == items) {
            last_retire = now;
            if (stops) sc_stop();
        }
    }
};

using ItemIn = sc_port<sc_fifo_in_if<uint64_t>, 1, SC_ZERO_OR_MORE_BOUND>;
using ItemOut = sc_port<sc_fifo_out_if<uint64_t>, 1, SC_ZERO_OR_MORE_BOUND>;

// (a) The textbook way: a clocked thread per stage, one wait() per edge it looks at.
struct ThreadStage : sc_module, StageCounts {
    sc_in<bool> clk{"clk"};
    ItemIn in{"in"};
    ItemOut out{"out"};

    SC_HAS_PROCESS(ThreadStage);
    explicit ThreadStage(const sc_module_name& n) : sc_module(n) {
        SC_THREAD(run);
        sensitive << clk.pos();
        dont_initialize();
    }
    static Cycle now() { return Cycle(sc_time_stamp().value() / kPeriodPs); }
    void run() {
        ++activations;  // the first rising edge
        uint64_t v = 0;
        for (;;) {
            if (source) {
                if (made == items) return;
                v = made++;
            } else {
                while (!in->nb_read(v)) {
                    wait();
                    ++activations;
                }
            }
            busy += service;
            wait(int(service));
            ++activations;
            if (sink) {
                retire(v, now());
            } else {
                while (!out->nb_write(v)) {
                    ++stalled;
                    wait();
                    ++activations;
                }
            }
        }
    }
};

// (a') The same stage as an SC_METHOD called at every rising edge: a state machine.
struct MethodStage : sc_module, StageCounts {
    sc_in<bool> clk{"clk"};
    ItemIn in{"in"};
    ItemOut out{"out"};

    SC_HAS_PROCESS(MethodStage);
    explicit MethodStage(const sc_module_name& n) : sc_module(n) {
        SC_METHOD(tick);
        sensitive << clk.pos();
        dont_initialize();
    }
    void tick() {
        ++activations;
        const Cycle now = edges_++;  // called at every edge from the first
        if (have_ && now >= done_at_) {
            if (sink) {
                retire(v_, now);
                have_ = false;
            } else if (out->nb_write(v_)) {
                have_ = false;
            } else {
                ++stalled;
                return;
            }
        }
        if (have_) return;
        if (source) {
            if (made == items) return;
            v_ = made++;
        } else if (!in->nb_read(v_)) {
            return;
        }
        have_ = true;
        done_at_ = now + service;
        busy += service;
    }

private:
    Cycle edges_ = 0, done_at_ = 0;
    uint64_t v_ = 0;
    bool have_ = false;
};

// (b) vpsim's way: a TimedUnit with In / Out ports, stepped only when it asked for a cycle or
// was woken (a push into its input, a pop from its full output).
class UnitStage : public TimedUnit, public StageCounts {
public:
    UnitStage(const sc_module_name& n, bool has_in, bool has_out)
        : TimedUnit(n), stats_(std::string(basename()), "a stage of the dispatch bench"), acct_(stats_),
          full_(stats_.stall_reason("output_full", "a finished item waits for room in the next FIFO")) {
        if (has_in) in_ = std::make_unique<In<uint64_t>>(*this, "in");
        if (has_out) out_ = std::make_unique<Out<uint64_t>>(*this, "out");
    }
    In<uint64_t>* in_port() { return in_.get(); }
    Out<uint64_t>* out_port() { return out_.get(); }

    Cycle step(Cycle now) override {
        ++activations;
        if (have_ && now >= done_at_) {
            if (sink) {
                retire(v_, now);
                have_ = false;
            } else if ((*out_)->can_push(now)) {
                (*out_)->push(v_, now);
                have_ = false;
            } else {
                acct_.stall(full_, now);
                return kNever;  // the consumer's pop from the full FIFO wakes this unit
            }
        }
        if (have_) return done_at_;  // woken while serving
        if (source) {
            if (made == items) {
                acct_.idle(now);
                return kNever;
            }
            v_ = made++;
        } else if ((*in_)->can_pop(now)) {
            v_ = (*in_)->pop(now);
        } else {
            acct_.idle(now);
            return (*in_)->next_pop(now);  // kNever when empty: a push wakes this unit
        }
        have_ = true;
        done_at_ = now + service;
        acct_.busy(now);
        return done_at_;
    }
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override { return have_ || (source && made < items); }
    const StatGroup& stats() const override { return stats_; }

private:
    StatGroup stats_;
    CycleAccount acct_;
    StallReason full_;
    std::unique_ptr<In<uint64_t>> in_;
    std::unique_ptr<Out<uint64_t>> out_;
    Cycle done_at_ = 0;
    uint64_t v_ = 0;
    bool have_ = false;
};

// The timing model's Dispatcher (model/sc/dispatcher.h) in an SC_THREAD, over the units in
// stepping order, strictly one pass over the units per cycle: a unit woken for the current cycle
// after its turn in the pass (a pop from its full output by the unit after it) steps at the next
// cycle; with the units stepped upstream first, that is sc_fifo's "a slot freed at t is
// writable from t + 1".
struct BenchDispatcher : sc_module {
    std::vector<TimedUnit*> units;
    uint64_t quantum = 100000;
    Cycle end = 0;
    std::string error;

    SC_HAS_PROCESS(BenchDispatcher);
    explicit BenchDispatcher(const sc_module_name& n) : sc_module(n) { SC_THREAD(dispatch); }

    void dispatch() {
        try {
            Dispatcher::Options o;
            o.quantum = quantum;
            o.period_ps = kPeriodPs;
            o.one_pass_per_cycle = true;
            end = Dispatcher(units, o).run();
        } catch (const std::exception& e) {
            error = e.what();
        }
        sc_stop();
    }
};

double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// Times sc_start: wall seconds into r.host_seconds, this thread's CPU seconds into r.cpu_seconds.
template <class F>
void timed(DispatchRun& r, F&& f) {
    const double c0 = thread_cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    f();
    r.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.cpu_seconds = thread_cpu_seconds() - c0;
}

void configure(StageCounts& s, const DispatchWorkload& w, size_t k) {
    s.service = w.service[k];
    s.items = w.items;
    s.source = k == 0;
    s.sink = k + 1 == w.service.size();
}

// The run's figures from its stages, after checking that every item arrived.
template <class Stage>
DispatchRun collect(const std::vector<Stage*>& stages, const char* way) {
    DispatchRun r;
    for (const Stage* s : stages) {
        if (!s->error.empty()) throw std::logic_error(fmt::format("{}: {}", way, s->error));
        r.activations += s->activations;
    }
    const Stage& sink = *stages.back();
    if (sink.retired != sink.items)
        throw std::logic_error(fmt::format("{}: {} of {} items retired", way, sink.retired, sink.items));
    r.cycles = sink.last_retire + 1;
    return r;
}

// (a) and (a'): the stages, an sc_clock and sc_fifos.
template <class Stage>
DispatchRun run_textbook(const DispatchWorkload& w, const char* way) {
    sc_clock clk("clk", sc_time(double(kPeriodPs), SC_PS));
    std::vector<std::unique_ptr<sc_fifo<uint64_t>>> fifos;
    std::vector<std::unique_ptr<Stage>> stages;
    std::vector<Stage*> view;
    for (size_t k = 0; k < w.service.size(); ++k) {
        stages.push_back(std::make_unique<Stage>(fmt::format("stage{}", k).c_str()));
        configure(*stages.back(), w, k);
        stages.back()->clk(clk);
        view.push_back(stages.back().get());
    }
    for (size_t k = 0; k + 1 < w.service.size(); ++k) {
        fifos.push_back(std::make_unique<sc_fifo<uint64_t>>(fmt::format("fifo{}", k).c_str(), int(w.capacity[k])));
        stages[k]->out(*fifos.back());
        stages[k + 1]->in(*fifos.back());
    }
    // A bound on the cycles (every item through every stage alone), so a bug cannot run forever.
    const uint64_t per_item = std::accumulate(w.service.begin(), w.service.end(), uint64_t(0)) + w.service.size();
    const double limit_ps = double(w.items * per_item + 1000) * double(kPeriodPs);
    DispatchRun t;
    timed(t, [&] { sc_start(sc_time(limit_ps, SC_PS)); });
    DispatchRun r = collect(view, way);
    r.host_seconds = t.host_seconds;
    r.cpu_seconds = t.cpu_seconds;
    for (const Stage* st : view) {
        r.busy.push_back(st->busy);
        r.stalled.push_back(st->stalled);
    }
    return r;
}

// (b): the units, Channel<T>s of latency 1 bound to their ports, and the dispatcher.
DispatchRun run_dispatcher(const DispatchWorkload& w, uint64_t quantum) {
    const char* const way = dispatch_way_name(DispatchWay::Dispatcher);
    const size_t n = w.service.size();
    std::vector<std::unique_ptr<UnitStage>> stages;
    std::vector<UnitStage*> view;
    for (size_t k = 0; k < n; ++k) {
        stages.push_back(std::make_unique<UnitStage>(fmt::format("stage{}", k).c_str(), k > 0, k + 1 < n));
        configure(*stages.back(), w, k);
        stages.back()->stops = false;
        view.push_back(stages.back().get());
    }
    std::vector<std::unique_ptr<ChannelBase>> channels;
    for (size_t k = 0; k + 1 < n; ++k) {
        Out<uint64_t>& from = *stages[k]->out_port();
        In<uint64_t>& to = *stages[k + 1]->in_port();
        channels.push_back(from.make_channel(fmt::format("fifo{}", k), w.capacity[k], 1, 1));
        from.bind(*channels.back());
        to.bind(*channels.back());
    }
    BenchDispatcher d("dispatcher");
    d.quantum = quantum;
    d.units.assign(view.begin(), view.end());  // upstream first: sc_fifo's freed-slot timing
    DispatchRun t;
    timed(t, [] { sc_start(); });
    if (!d.error.empty()) throw std::logic_error(fmt::format("{}: {}", way, d.error));
    DispatchRun r = collect(view, way);
    r.host_seconds = t.host_seconds;
    r.cpu_seconds = t.cpu_seconds;
    if (d.end != r.cycles)
        throw std::logic_error(fmt::format("{}: the loop ended at cycle {}, the last item retired at {}", way, d.end,
                                           r.cycles - 1));
    if (sc_time_stamp() != sc_time(double(d.end * kPeriodPs), SC_PS))
        throw std::logic_error(fmt::format("{}: kernel time {} after {} cycles", way, sc_time_stamp().to_string(),
                                           d.end));
    for (const UnitStage* st : view) {
        r.busy.push_back(st->stats().busy_cycles());
        r.stalled.push_back(st->stats().stalled_cycles());
        if (st->stats().accounted_cycles() != d.end)
            throw std::logic_error(fmt::format("{}: {} accounts {} cycles of {}", way, st->basename(),
                                               st->stats().accounted_cycles(), d.end));
    }
    return r;
}

void check(const DispatchWorkload& w) {
    if (w.service.size() < 2) throw std::invalid_argument("the dispatch bench needs at least 2 stages");
    if (w.capacity.size() + 1 != w.service.size())
        throw std::invalid_argument(fmt::format("{} stages need {} FIFO capacities, got {}", w.service.size(),
                                                w.service.size() - 1, w.capacity.size()));
    for (uint32_t s : w.service)
        if (s < 1 || s > 1000000) throw std::invalid_argument(fmt::format("service time {} not in [1, 1000000]", s));
    for (uint32_t c : w.capacity)
        if (c < 1 || c > 1000000) throw std::invalid_argument(fmt::format("FIFO capacity {} not in [1, 1000000]", c));
    if (w.items < 1) throw std::invalid_argument("the dispatch bench needs at least 1 item");
}

}  // namespace

std::vector<DispatchWorkload> dispatch_workloads(uint64_t items) {
    return {
        {"busy", "service times 1..4 cycles, small FIFOs: back-pressure behind the 4-cycle stage",
         {1, 2, 4, 1, 3, 1, 1}, {2, 3, 4, 2, 3, 2}, items},
        {"idle", "one slow stage (16 cycles per item): the stages before it stalled, after it idle, 15 cycles in 16",
         {1, 1, 1, 16, 1, 1, 1}, {2, 2, 2, 2, 2, 2}, items},
    };
}

const char* dispatch_way_name(DispatchWay w) {
    switch (w) {
        case DispatchWay::ScThread: return "SC_THREAD + sc_fifo";
        case DispatchWay::ScMethod: return "SC_METHOD + sc_fifo";
        case DispatchWay::Dispatcher: return "dispatcher + Channel";
    }
    return "?";
}

const char* dispatch_way_key(DispatchWay w) {
    switch (w) {
        case DispatchWay::ScThread: return "sc_thread";
        case DispatchWay::ScMethod: return "sc_method";
        case DispatchWay::Dispatcher: return "dispatcher";
    }
    return "?";
}

DispatchRun run_dispatch_bench(const DispatchWorkload& w, DispatchWay way, uint64_t quantum) {
    check(w);
    if (quantum < 1) throw std::invalid_argument("the quantum must be at least 1 cycle");
    // On a thread of its own, as run_pipeline (pipeline.cpp says why).
    DispatchRun result;
    std::exception_ptr error;
    std::thread sim([&] {
        try {
            sc_fresh_context();
            sc_report_handler::set_actions(SC_WARNING, SC_DO_NOTHING);
            sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
            switch (way) {
                case DispatchWay::ScThread: result = run_textbook<ThreadStage>(w, dispatch_way_name(way)); break;
                case DispatchWay::ScMethod: result = run_textbook<MethodStage>(w, dispatch_way_name(way)); break;
                case DispatchWay::Dispatcher: result = run_dispatcher(w, quantum); break;
            }
        } catch (...) {
            error = std::current_exception();
        }
    });
    sim.join();
    if (error) std::rethrow_exception(error);
    return result;
}

}  // namespace vpsim::bench
