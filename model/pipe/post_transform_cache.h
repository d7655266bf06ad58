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
