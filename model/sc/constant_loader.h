// The constant memory loader: the one write port of constant memory. SetVertexShader sends the
// declaration's CONST vectors (and the shader's defs), SetVertexShaderConstant its vectors;
// both arrive as batches from the command front end and are written in order at
// `vectors_per_cycle`. A batch waits until every draw issued before it has left the vertex ALU
// (its vertices may still read the old values: port `draws_done` counts the draws that have);
// a draw's vertices wait until every batch issued before the draw is written (port `written`
// tells the ALU the vectors written so far, which it compares with the draw's epoch). The
// memory itself is the pipeline's (UnitContext::constant_memory): the loader is its one writer,
// the ALU reads it.
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/unit_registry.h"

namespace vpsim::sc {

struct ConstantLoaderParams {
    uint32_t vectors_per_cycle = 1;  // write port width
    uint32_t queue = 4;              // batches buffered from the front end

    static constexpr const char* kUnit = "constant_loader";
    static const ParamBindings<ConstantLoaderParams>& bindings();  // each parameter, declared once
    static ParamTable table();
    static ConstantLoaderParams from(const ParamSet& p);
};

class ConstantLoader : public TimedUnit {
public:
    // `memory`: the constant memory it writes.
    ConstantLoader(const sc_core::sc_module_name& n, const ConstantLoaderParams& p, vs::Constants& memory,
                   Probes* probes);

    Cycle step(Cycle now) override;
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override { return !in_->empty(); }
    const StatGroup& stats() const override { return stats_; }

private:
    ConstantLoaderParams p_;
    Probes* probes_;
    In<ConstantBatch> in_{*this, "in"};
    In<DrawsDone> draws_done_{*this, "draws_done"};
    Out<ConstantsWritten> written_{*this, "written"};
    uint64_t draws_left_alu_ = 0;  // the latest count from draws_done
    vs::Constants& mem_;
    size_t pos_ = 0;  // next write of the front batch
    Cycle batch_start_ = 0;
    int track_ = -1;
    StatGroup stats_;
    CycleAccount acct_;
    Counter &writes_, &batches_;
    StallReason stall_draw_;
};

}  // namespace vpsim::sc
