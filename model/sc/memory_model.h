// The memory the vertex fetch unit reads through (below its fetch cache): a fixed access
// latency and a data bus of `bytes_per_cycle`; requests are served in order, each occupying the
// bus for ceil(bytes / bytes_per_cycle) cycles. Analytical: a request's completion cycle is
// known when it is made, so it is not a stepped unit: the vertex fetch calls it (its memory
// service), and the pipeline closes its accounting at the end of the run.
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/sc/timed_unit.h"

namespace vpsim::sc {

struct MemoryModelParams {
    uint32_t latency = 80;          // cycles from request to first data
    uint32_t bytes_per_cycle = 36;  // bus width available to vertex fetch

    static constexpr const char* kUnit = "memory";
    static const ParamBindings<MemoryModelParams>& bindings();  // each parameter, declared once
    static ParamTable table();
    static MemoryModelParams from(const ParamSet& p);
};

class MemoryModel {
public:
    MemoryModel(const MemoryModelParams& p, Probes* probes);

    // A read of `bytes` issued at `now`: returns the cycle its data has arrived.
    Cycle read(Cycle now, uint32_t bytes);

    // Closes the busy / idle accounting at the end of the run.
    void finish(Cycle end);
    const StatGroup& stats() const { return stats_; }
    const MemoryModelParams& params() const { return p_; }

private:
    MemoryModelParams p_;
    Probes* probes_;
    int sig_requests_ = -1;
    StatGroup stats_;
    Counter &requests_, &bytes_, &bus_cycles_;
    Cycle bus_free_ = 0;
};

}  // namespace vpsim::sc
