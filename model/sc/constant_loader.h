// The constant memory loader: the one write port of constant memory. SetVertexShader sends the
// declaration's CONST vectors (and the shader's defs), SetVertexShaderConstant its vectors;
// both arrive as batches from the command front end and are written in order at
// `vectors_per_cycle`. A batch waits until every draw issued before it has left the vertex ALU
// (its vertices may still read the old values); a draw's vertices wait until every batch issued
// before the draw is written (the ALU checks writes_done() against the draw's epoch).
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/sc/pipeline_types.h"

namespace vpsim::sc {

struct ConstantLoaderParams {
    uint32_t vectors_per_cycle = 1;  // write port width
    uint32_t queue = 4;              // batches buffered from the front end

    static constexpr const char* kUnit = "constant_loader";
    static ParamTable table();
    static ConstantLoaderParams from(const ParamSet& p);
};

struct ConstantBatch {
    std::vector<scene::ConstantWrite> writes;
    uint64_t draw_fence = 0;  // draws issued before it
    std::string command;      // "SetVertexShader" ..., for the trace
};

class ConstantLoader : public TimedUnit {
public:
    ConstantLoader(const sc_core::sc_module_name& n, const ConstantLoaderParams& p, uint32_t const_count,
                   const DrawTracker& draws, Probes* probes);

    Channel<ConstantBatch>& input() { return in_; }
    void connect(TimedUnit* front_end, TimedUnit* alu) {
        in_.connect(front_end, this, probes_);
        alu_ = alu;
    }
    const vs::Constants& memory() const { return mem_; }
    uint64_t writes_done() const { return writes_.value; }

    Cycle step(Cycle now) override;
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override { return !in_.empty(); }
    const StatGroup& stats() const { return stats_; }

private:
    ConstantLoaderParams p_;
    const DrawTracker& draws_;
    Probes* probes_;
    Channel<ConstantBatch> in_;
    TimedUnit* alu_ = nullptr;
    vs::Constants mem_;
    size_t pos_ = 0;  // next write of the front batch
    Cycle batch_start_ = 0;
    int track_ = -1;
    StatGroup stats_;
    CycleAccount acct_;
    Counter &writes_, &batches_, &stall_draw_;
};

}  // namespace vpsim::sc
