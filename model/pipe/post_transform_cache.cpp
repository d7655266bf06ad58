#include "model/pipe/post_transform_cache.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_set>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace vpsim::pipe {

const ParamBindings<PostTransformCacheParams>& PostTransformCacheParams::bindings() {
    static const auto b = ParamBindings<PostTransformCacheParams>(kUnit, "index fetch + post-transform vertex cache (FIFO keyed by vertex index)")
        .uint("entries", "entries", &PostTransformCacheParams::entries, "shaded vertices the FIFO holds; 0 turns the cache off",
                  "GeForce3 (NVIDIA stripifier documentation: 24 entries, plans for 18); GeForce 1/2: 16", 0, 4096).capacity()
        .uint("batch_reset", "indices", &PostTransformCacheParams::batch_reset,
                  "flush the cache every N indices (hardware that flushes per batch); 0 = never", "assumed");
    return b;
}
ParamTable PostTransformCacheParams::table() { return bindings().table(); }

PostTransformCacheParams PostTransformCacheParams::from(const ParamSet& p) {
    return bindings().from(p);
}

PostTransformCache::PostTransformCache(const PostTransformCacheParams& p)
    : PostTransformCache(p, PostTransformCacheParams::kUnit) {}

PostTransformCache::PostTransformCache(const PostTransformCacheParams& p, std::string stats_group)
    : params_(p),
      // Padded to whole blocks of kBlock slots for lookup's block compares (see there).
      ring_((p.entries + kBlock - 1) / kBlock * kBlock),
      stats_(std::move(stats_group), "index fetch + post-transform vertex cache", false),
      lookups_(stats_.counter("lookups", "indices", "indices looked up (one per index of the draw)")),
      hits_(stats_.counter("hits", "indices", "lookups that found the shaded vertex: fetch and shading skipped")),
      misses_(stats_.counter("misses", "vertices", "lookups that missed: the vertex is fetched and shaded")),
      flushes_(stats_.counter("flushes", "flushes", "batch resets (batch_reset) and explicit flushes")) {
    stats_.rate("hit_rate", "hits", "lookups", "hits/lookup", "fraction of lookups that hit");
    stats_.rate("miss_rate", "misses", "lookups", "misses/lookup", "fraction of lookups that missed");
}

void PostTransformCache::flush() {
    head_ = count_ = 0;
    since_flush_ = 0;
    ++flushes_;
}

namespace {

// Whether one of the 8 slots at r holds `index`.
inline bool block_holds(const uint32_t* r, uint32_t index) {
#ifdef __SSE2__
    const __m128i x = _mm_set1_epi32(int(index));
    const __m128i a = _mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r)), x);
    const __m128i b = _mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r + 4)), x);
    return _mm_movemask_epi8(_mm_or_si128(a, b)) != 0;
#else
    bool found = false;
    for (size_t k = 0; k < 8; ++k) found |= r[k] == index;
    return found;
#endif
}

}  // namespace

bool PostTransformCache::lookup(uint32_t index) {
    if (params_.batch_reset != 0 && since_flush_ == params_.batch_reset) flush();
    ++since_flush_;
    ++lookups_;
    // Filling starts at slot 0 after a flush, so the held entries are slots 0..count_-1 (an index
    // is held at most once: only a miss inserts). The slots past them up to the next whole block
    // (unfilled slots and the padding past `entries`) hold a copy of slot 0, a held entry, so the
    // blocks are compared whole, kBlock slots at once without a branch per slot, and a match
    // there is a match among the held entries.
    const size_t n = params_.entries;
    if (count_ != 0) {
        const uint32_t* r = ring_.data();
        const size_t blocks = (count_ + kBlock - 1) / kBlock;
        for (size_t b = 0; b < blocks; ++b, r += kBlock)
            if (block_holds(r, index)) {
                ++hits_;
                return true;
            }
    }
    ++misses_;
    if (n != 0) {
        if (count_ == 0)
            std::fill(ring_.begin(), ring_.end(), index);  // slot 0 and its copies
        else if (head_ == 0) {  // slot 0 again (the cache is full): its copies in the padding follow it
            ring_[0] = index;
            std::fill(ring_.begin() + std::ptrdiff_t(n), ring_.end(), index);
        } else
            ring_[head_] = index;
        head_ = head_ + 1 == n ? 0 : head_ + 1;
        if (count_ < n) ++count_;
    }
    return false;
}

void MissCounter::grow(uint32_t index) {
    if (index >= kMaxIndex)
        throw std::invalid_argument("MissCounter: index " + std::to_string(index) + " is not below " +
                                    std::to_string(kMaxIndex));
    stamp_.resize(std::min<size_t>(kMaxIndex, std::max<size_t>(size_t(index) + 1, 2 * stamp_.size())), 0);
}

void MissCounter::rebase() {
    // The held entries have stamps above base = misses_ - entries (and above flushed_at_); they
    // keep their order and distance to misses_, every other stamp becomes 0 (not held).
    const uint32_t base = misses_ - std::min(misses_, params_.entries);
    for (uint32_t& s : stamp_) s = s > base && s > flushed_at_ ? s - base : 0;
    misses_ -= base;
    flushed_at_ = flushed_at_ > base ? flushed_at_ - base : 0;
}

std::vector<uint32_t> PostTransformCache::contents() const {
    std::vector<uint32_t> out;
    const size_t n = params_.entries;
    for (size_t i = 0; i < count_; ++i) out.push_back(ring_[(head_ + n - count_ + i) % n]);
    return out;
}

double acmr(uint64_t shaded, uint64_t triangles) {
    return triangles ? double(shaded) / double(triangles) : std::numeric_limits<double>::quiet_NaN();
}

double atvr(uint64_t shaded, uint64_t unique_vertices) {
    return unique_vertices ? double(shaded) / double(unique_vertices) : std::numeric_limits<double>::quiet_NaN();
}

VertexReuse measure_vertex_reuse(const std::vector<uint32_t>& indices, PrimitiveType type,
                                 const PostTransformCacheParams& p) {
    PostTransformCache cache(p);
    PrimitiveAssembler pa(type);
    std::unordered_set<uint32_t> seen;
    for (uint32_t i : indices) {
        cache.lookup(i);
        pa.push();
        seen.insert(i);
    }
    VertexReuse r;
    r.indices = indices.size();
    r.shaded = cache.misses();
    r.primitives = pa.primitives();
    r.unique = seen.size();
    r.acmr = acmr(r.shaded, r.primitives);
    r.atvr = atvr(r.shaded, r.unique);
    return r;
}

std::vector<uint32_t> grid_triangle_list(uint32_t w, uint32_t h) {
    std::vector<uint32_t> idx;
    idx.reserve(size_t(w) * h * 6);
    const uint32_t row = w + 1;
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            const uint32_t a = y * row + x, b = a + 1, c = a + row, d = c + 1;
            idx.insert(idx.end(), {a, b, c, b, d, c});
        }
    return idx;
}

}  // namespace vpsim::pipe
