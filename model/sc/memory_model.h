// The memory the vertex fetch unit reads through (below its fetch cache): a fixed access
// latency and a data bus of `bytes_per_cycle`; requests are served in order, each occupying the
// bus for ceil(bytes / bytes_per_cycle) cycles. Analytical: a request's completion cycle is
// known when it is made, so it is a service, not a stepped unit (UnitType::stepped false): a unit
// with a memory port (the vertex fetch) calls it, and the dispatcher closes its accounting at the
// end of the run. Units whose memory ports name the same memory share its bus.
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/sc/timed_unit.h"
#include "model/sc/unit_registry.h"

namespace vpsim::sc {

struct MemoryModelParams {
    uint32_t latency = 80;          // cycles from request to first data
    uint32_t bytes_per_cycle = 36;  // bus width available to vertex fetch

    static constexpr const char* kUnit = "memory";
    static const ParamBindings<MemoryModelParams>& bindings();  // each parameter, declared once
    static ParamTable table();
    static MemoryModelParams from(const ParamSet& p);
};

class MemoryModel : public TimedUnit, private OpenCycles {
public:
    MemoryModel(const sc_core::sc_module_name& n, const MemoryModelParams& p, Probes* probes);

    // A read of `bytes` issued at `now`: returns the cycle its data has arrived.
    Cycle read(Cycle now, uint32_t bytes);

    Cycle step(Cycle) override { return kNever; }  // never stepped: a service
    // Closes the busy / idle accounting at the end of the run.
    void finish(Cycle end) override;
    bool busy_with_work() const override { return false; }
    const StatGroup& stats() const override { return stats_; }
    const MemoryModelParams& params() const { return p_; }

private:
    // Its busy and idle cycles are added at the end (finish); before it, those up to `now`.
    void add_open(uint64_t now, CyclesAt& c) const override;

    MemoryModelParams p_;
    Probes* probes_;
    int sig_requests_ = -1;
    StatGroup stats_;
    Counter &requests_, &bytes_, &bus_cycles_;
    Cycle bus_free_ = 0;
};

}  // namespace vpsim::sc
