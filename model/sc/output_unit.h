// The output unit: emits the draw's vertex references in draw order at `vertices_per_cycle`
// (a miss when the ALU has shaded its vertex, into one of the output buffers; a hit from the
// vertices recently emitted, which hold every vertex the post-transform cache can name), and
// counts primitives as primitive assembly forms them. Each emitted vertex goes to the sink.
// Ports: `order` every reference from the index fetch; `shaded` the ALU's shaded vertices.
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/pipe/primitive_assembly.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/unit_registry.h"

#include <functional>
#include <optional>
#include <vector>

namespace vpsim::sc {

struct OutputUnitParams {
    uint32_t buffers = 6;             // output buffers (shaded vertices waiting to leave)
    uint32_t order_queue = 64;        // references between index fetch and output
    uint32_t vertices_per_cycle = 1;  // references emitted per cycle

    static constexpr const char* kUnit = "output";
    static const ParamBindings<OutputUnitParams>& bindings();  // each parameter, declared once
    static ParamTable table();
    static OutputUnitParams from(const ParamSet& p);
};

// What the output reads of other units (model/sc/unit_params.h): the post-transform cache's
// entries (it keeps as many recently shaded vertices, so a cache hit finds the outputs it names).
struct OutputNeeds {
    uint32_t ptc_entries = 0;
    static const NeedBindings<OutputNeeds>& bindings();
};

class OutputUnit : public TimedUnit {
public:
    OutputUnit(const sc_core::sc_module_name& n, const OutputUnitParams& p, uint32_t recent_entries, VertexPool& pool,
               Probes* probes);

    void set_sink(VertexSink s) { sink_ = std::move(s); }
    // Called when a draw's last reference has left (for the progress line and the summary).
    void on_draw_done(std::function<void(const DrawState&, Cycle)> f) { draw_done_ = std::move(f); }
    // `f(now)` in the cycle the output emits its n-th reference, after it, for each n of `marks`
    // (non-decreasing, each >= 1).
    void on_references(std::vector<uint64_t> marks, std::function<void(Cycle)> f) {
        marks_ = std::move(marks);
        next_mark_ = 0;
        mark_at_ = marks_.empty() ? kNever : marks_[0];
        at_mark_ = std::move(f);
    }

    Cycle step(Cycle now) override;
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override { return !order_->empty(); }
    const StatGroup& stats() const override { return stats_; }
    uint64_t emitted() const { return refs_.value; }

private:
    OutputUnitParams p_;
    VertexPool& pool_;
    Probes* probes_;
    In<OrderRef> order_{*this, "order"};
    In<Job> shaded_{*this, "shaded"};
    VertexSink sink_;
    std::function<void(const DrawState&, Cycle)> draw_done_;
    // on_references(): the marks, the next one's position and count
    std::vector<uint64_t> marks_;
    size_t next_mark_ = 0;
    uint64_t mark_at_ = kNever;
    std::function<void(Cycle)> at_mark_;
    void mark(Cycle now);
    // The last `recent` shaded vertices emitted (index, outputs), newest at head_ - 1.
    std::vector<std::pair<uint32_t, vs::VertexOutputs>> recent_;
    size_t head_ = 0, filled_ = 0;
    std::optional<pipe::PrimitiveAssembler> assembler_;
    const DrawState* assembling_ = nullptr;
    int track_ = -1;
    StatGroup stats_;
    CycleAccount acct_;
    Counter &refs_, &shaded_count_, &reused_, &primitives_, &draws_;
    StallReason stall_shading_;
};

}  // namespace vpsim::sc
