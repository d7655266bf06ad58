// Index fetch + post-transform vertex cache (spec unit 4), functional: a FIFO of the
// `entries` most recently shaded vertices keyed by vertex index. A hit skips fetch and
// shading; a miss shades the vertex and inserts it, evicting the oldest entry (FIFO: a hit
// does not refresh an entry). Parameters in docs/parameters.md, statistics in docs/stats.md.
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/pipe/primitive_assembly.h"

#include <cstdint>
#include <vector>

namespace vpsim::pipe {

struct PostTransformCacheParams {
    uint32_t entries = 24;     // GeForce3; 0 = cache off
    uint32_t batch_reset = 0;  // flush every N indices; 0 = never

    static constexpr const char* kUnit = "post_transform_cache";
    static const ParamBindings<PostTransformCacheParams>& bindings();  // each parameter, declared once
    static ParamTable table();
    static PostTransformCacheParams from(const ParamSet& p);
};

class PostTransformCache {
public:
    explicit PostTransformCache(const PostTransformCacheParams& p = {});
    // The same with its statistics group named `stats_group` (a second index fetch's cache).
    PostTransformCache(const PostTransformCacheParams& p, std::string stats_group);

    // One index of the draw; true on a hit. A miss inserts the index (unless the cache is off).
    // With batch_reset = N, the cache is flushed before every N-th index after the first.
    bool lookup(uint32_t index);
    // Empties the cache (a new draw); counters keep counting.
    void flush();

    const PostTransformCacheParams& params() const { return params_; }
    uint64_t lookups() const { return stats_.get("lookups"); }
    uint64_t hits() const { return stats_.get("hits"); }
    uint64_t misses() const { return stats_.get("misses"); }  // = vertices shaded
    const StatGroup& stats() const { return stats_; }
    // Indices currently held, oldest first.
    std::vector<uint32_t> contents() const;

private:
    static constexpr size_t kBlock = 8;  // slots compared at once (block_holds in the .cpp)
    PostTransformCacheParams params_;
    std::vector<uint32_t> ring_;  // `entries` slots, then padding to a multiple of kBlock
    size_t head_ = 0;             // next slot to fill (the oldest entry once full)
    size_t count_ = 0;
    uint64_t since_flush_ = 0;
    StatGroup stats_;
    Counter &lookups_, &hits_, &misses_, &flushes_;
};

// The misses the cache above counts, without its slots: for a planning pass over millions of
// references (sampled simulation counts every unit's vertices shaded before it runs anything).
// Only a miss inserts and the oldest entry leaves first, so an index is held exactly when fewer
// than `entries` misses followed its last insertion and no flush came after it. Each index keeps
// the ordinal of the miss that last inserted it: a lookup is a load and two compares, not a
// search of the slots. The stamps take 4 bytes per index up to the largest index looked up, so
// the indices must be below kMaxIndex (a caller with larger ones uses PostTransformCache).
class MissCounter {
public:
    static constexpr uint32_t kMaxIndex = 1u << 24;  // 64 MiB of stamps at most
    // `ordinal`: the miss ordinal to count on from (a test starts it near where it wraps).
    explicit MissCounter(const PostTransformCacheParams& p, uint32_t ordinal = 0)
        : params_(p), misses_(ordinal), flushed_at_(ordinal) {}
    // One index (< kMaxIndex) of the draw; true on a hit, as PostTransformCache::lookup would
    // answer (batch_reset included).
    bool lookup(uint32_t index) {
        if (params_.batch_reset != 0 && since_flush_ == params_.batch_reset) flush();
        ++since_flush_;
        if (index >= stamp_.size()) grow(index);
        const uint32_t s = stamp_[index];
        if (s > flushed_at_ && misses_ - s < params_.entries) return true;
        if (misses_ == UINT32_MAX) rebase();
        stamp_[index] = ++misses_;
        return false;
    }
    // Empties the cache (a new draw).
    void flush() {
        flushed_at_ = misses_;
        since_flush_ = 0;
    }

private:
    void grow(uint32_t index);
    void rebase();  // the ordinals would wrap: renumber the held entries' from 1, in order
    PostTransformCacheParams params_;
    std::vector<uint32_t> stamp_;  // per index: its last insertion's miss ordinal (0: none)
    uint32_t misses_;              // misses so far: the ordinal of the last one
    uint32_t flushed_at_;          // misses_ at the last flush: stamps up to it are not held
    uint64_t since_flush_ = 0;     // lookups since the last flush (batch_reset)
};

// ACMR: vertices shaded per triangle (3.0 = no reuse; about 0.5 is the limit for a closed
// regular mesh). ATVR: vertices shaded per unique vertex (1.0 = each vertex shaded once).
// Both are NaN when the denominator is 0.
double acmr(uint64_t shaded, uint64_t triangles);
double atvr(uint64_t shaded, uint64_t unique_vertices);

// An indexed draw through the cache and primitive assembly.
struct VertexReuse {
    uint64_t indices = 0;
    uint64_t shaded = 0;      // cache misses
    uint64_t primitives = 0;  // triangles for the triangle types
    uint64_t unique = 0;      // distinct indices
    double acmr = 0;          // shaded / primitives
    double atvr = 0;          // shaded / unique
};
VertexReuse measure_vertex_reuse(const std::vector<uint32_t>& indices, PrimitiveType type,
                                 const PostTransformCacheParams& p);

// A regular grid of (w+1) x (h+1) vertices, w x h quads of two triangles, drawn as an indexed
// triangle list in row order (vertex index = y*(w+1) + x).
std::vector<uint32_t> grid_triangle_list(uint32_t w, uint32_t h);

}  // namespace vpsim::pipe
