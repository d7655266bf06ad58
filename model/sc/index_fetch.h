// Index fetch and the post-transform vertex cache. For each reference of a draw (the index
// buffer's entries for indexed draws, consecutive vertices otherwise) at `indices_per_cycle`:
// an indexed draw looks the index up in the post-transform cache (pipe::PostTransformCache:
// FIFO, entries and batch reset as parameters, flushed at every draw); a hit only sends the
// reference to the output, a miss also creates a vertex job for the vertex fetch unit.
// Non-indexed draws do not use the cache (every vertex is new). Index reads are modelled as a
// prefetched sequential stream (no memory stalls; their bytes are counted).
// Function and timing apart: when a draw starts, the cache's look-ups of all its references are
// made once (the hit/miss of each reference and the draw's miss list, which every job carries
// to the vertex ALU's functional core); the references then go out at the modelled rate.
// Ports: `in` draws; `generated` how many of a tessellated draw's vertices exist; `jobs` vertex
// jobs to the vertex fetch; `order` every reference to the output; `draw_end` each draw's job
// count to the vertex ALU.
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/pipe/post_transform_cache.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/unit_registry.h"

#include <map>

namespace vpsim::sc {

struct IndexFetchParams {
    uint32_t indices_per_cycle = 1;  // references processed per cycle
    uint32_t draw_queue = 2;         // draws buffered from the tessellator

    static constexpr const char* kUnit = "index_fetch";
    static const ParamBindings<IndexFetchParams>& bindings();  // each parameter, declared once
    static ParamTable table();
    static IndexFetchParams from(const ParamSet& p);
};

class IndexFetch : public TimedUnit {
public:
    IndexFetch(const sc_core::sc_module_name& n, const IndexFetchParams& p, const pipe::PostTransformCacheParams& cache,
               VertexPool& pool, Probes* probes);

    Cycle step(Cycle now) override;
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override { return !in_->empty(); }
    const StatGroup& stats() const override { return stats_; }
    // Its statistics and its post-transform cache's.
    std::vector<const StatGroup*> stat_groups() const override { return {&stats_, &cache_.stats()}; }

private:
    void start_draw(const DrawState& d);  // the draw's look-ups, once

    IndexFetchParams p_;
    pipe::PostTransformCache cache_;
    VertexPool& pool_;
    Probes* probes_;
    In<const DrawState*> in_{*this, "in"};
    In<GeneratedReady> generated_{*this, "generated"};
    Out<Job> jobs_out_{*this, "jobs"};
    Out<OrderRef> order_{*this, "order"};
    Out<DrawEnd> draw_end_{*this, "draw_end"};
    std::map<uint32_t, uint64_t> generated_ready_;  // tessellated draws: vertices that exist
    uint64_t pos_ = 0;  // next reference of the front draw
    bool started_ = false;
    std::shared_ptr<MissStream> misses_;    // the front draw's misses
    uint64_t jobs_ = 0;                     // of them, sent
    uint64_t seq_ = 0;
    int track_ = -1;
    StatGroup stats_;
    CycleAccount acct_;
    Counter &refs_, &hits_, &misses_count_, &unique_, &index_bytes_;
    StallReason stall_fetch_, stall_order_, stall_tess_;
};

}  // namespace vpsim::sc
