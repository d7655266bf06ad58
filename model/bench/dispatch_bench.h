// `vpsim bench dispatch` (docs/bench.md): one small pipeline-shaped workload modelled three
// ways with the same cycle-level behaviour, to measure what the timing model's dispatcher
// (model/sc/pipeline.h) buys over the textbook SystemC style.
//
// The workload: a chain of stages, each serving one item at a time for its own service time
// (cycles per item), joined by bounded FIFOs. Stage 0 makes the items, the last stage retires
// them. At every cycle a stage first pushes its finished item (if the FIFO after it has room),
// then takes the next item (if one is readable). The FIFOs have sc_fifo's semantics at the
// clock edge: an item written at cycle t is readable from t + 1, and a slot freed at t is
// writable from t + 1.
//
// The three ways:
// * SC_THREAD + sc_fifo: each stage an SC_THREAD on an sc_clock's rising edge, polling its
//   sc_fifo ports with nb_read / nb_write and one wait() per edge, wait(n) for its service time.
// * SC_METHOD + sc_fifo: each stage an SC_METHOD run at every rising edge (a state machine).
// * dispatcher + Channel: each stage a TimedUnit with In / Out ports bound to vpsim's
//   Channel<T> (latency 1), stepped by the timing model's own Dispatcher (model/sc/dispatcher.h,
//   the pipeline's loop and quantum keeper). The stages are stepped upstream first and strictly
//   once per cycle (Dispatcher::Options::one_pass_per_cycle: a
//   wake-up for the current cycle after the unit's turn is served at the next cycle), which
//   gives sc_fifo's "a freed slot is writable from the next cycle". The pipeline steps
//   downstream first, so that a slot freed in a cycle is usable upstream in the same cycle:
//   other hardware, which sc_fifo cannot express without extra delta cycles.
//
// Every way reports the cycle the last item retired (+ 1) and each stage's busy and stalled
// cycles (stalled: holding a finished item while the next FIFO is full); equal figures are the
// check that the three model the same thing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::bench {

struct DispatchWorkload {
    std::string name;                // "busy", "idle"
    std::string what;                // one line
    std::vector<uint32_t> service;   // per stage: cycles per item, >= 1
    std::vector<uint32_t> capacity;  // per FIFO (stages - 1): items, >= 1
    uint64_t items = 0;
};

// The two built-in workloads, 7 stages each (the pipeline's unit count):
// busy: service 1,2,4,1,3,1,1, capacities 2,3,4,2,3,2 (back-pressure behind the 4-cycle stage);
// idle: service 1,1,1,16,1,1,1, capacities 2 (most stages idle most cycles).
std::vector<DispatchWorkload> dispatch_workloads(uint64_t items);

enum class DispatchWay { ScThread, ScMethod, Dispatcher };
inline constexpr DispatchWay kDispatchWays[] = {DispatchWay::ScThread, DispatchWay::ScMethod, DispatchWay::Dispatcher};
const char* dispatch_way_name(DispatchWay w);  // "SC_THREAD + sc_fifo", ...
const char* dispatch_way_key(DispatchWay w);   // "sc_thread", "sc_method", "dispatcher"

struct DispatchRun {
    uint64_t cycles = 0;             // the last item's retire cycle + 1
    uint64_t activations = 0;        // process resumptions / method calls / unit steps
    double host_seconds = 0;         // sc_start's wall time
    double cpu_seconds = 0;          // the simulation thread's CPU time in sc_start (load-proof)
    std::vector<uint64_t> busy;      // per stage
    std::vector<uint64_t> stalled;   // per stage: holding a finished item, the next FIFO full
};

// Runs the workload one way in a fresh SystemC context, on a thread of its own (as
// run_pipeline does). `quantum`: the dispatcher's cycles between kernel synchronisations.
// Throws std::invalid_argument on a malformed workload, std::logic_error on an internal error
// (items lost or out of order, a deadlock, the kernel's time not the dispatcher's).
DispatchRun run_dispatch_bench(const DispatchWorkload& w, DispatchWay way, uint64_t quantum);

}  // namespace vpsim::bench
