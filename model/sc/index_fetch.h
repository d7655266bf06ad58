// Index fetch and the post-transform vertex cache. For each reference of a draw (the index
// buffer's entries for indexed draws, consecutive vertices otherwise) at `indices_per_cycle`:
// an indexed draw looks the index up in the post-transform cache (pipe::PostTransformCache:
// FIFO, entries and batch reset as parameters, flushed at every draw); a hit only sends the
// reference to the output, a miss also creates a vertex job for the vertex fetch unit.
// Non-indexed draws do not use the cache (every vertex is new). Index reads are modelled as a
// prefetched sequential stream (no memory stalls; their bytes are counted).
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/pipe/post_transform_cache.h"
#include "model/sc/pipeline_types.h"

namespace vpsim::sc {

struct IndexFetchParams {
    uint32_t indices_per_cycle = 1;  // references processed per cycle
    uint32_t draw_queue = 2;         // draws buffered from the tessellator

    static constexpr const char* kUnit = "index_fetch";
    static ParamTable table();
    static IndexFetchParams from(const ParamSet& p);
};

class IndexFetch : public TimedUnit {
public:
    IndexFetch(const sc_core::sc_module_name& n, const IndexFetchParams& p, const pipe::PostTransformCacheParams& cache,
               VertexPool& pool, DrawTracker& draws, Probes* probes);

    Channel<DrawState*>& input() { return in_; }
    void connect(TimedUnit* front_end, Channel<uint32_t>* fetch, Channel<OrderRef>* order) {
        in_.connect(front_end, this, probes_);
        fetch_ = fetch;
        order_ = order;
    }

    Cycle step(Cycle now) override;
    void finish(Cycle end) override { acct_.finish(end); }
    bool busy_with_work() const override { return !in_.empty(); }
    const StatGroup& stats() const { return stats_; }
    const pipe::PostTransformCache& cache() const { return cache_; }

private:
    IndexFetchParams p_;
    pipe::PostTransformCache cache_;
    VertexPool& pool_;
    DrawTracker& draws_;
    Probes* probes_;
    Channel<DrawState*> in_;
    Channel<uint32_t>* fetch_ = nullptr;
    Channel<OrderRef>* order_ = nullptr;
    uint64_t pos_ = 0;  // next reference of the front draw
    bool started_ = false;
    uint64_t seq_ = 0;
    int track_ = -1;
    StatGroup stats_;
    CycleAccount acct_;
    Counter &refs_, &hits_, &misses_, &unique_, &index_bytes_, &stall_fetch_, &stall_order_, &stall_tess_;
};

}  // namespace vpsim::sc
