#include "model/sc/index_fetch.h"

#include <fmt/format.h>

#include <algorithm>

namespace vpsim::sc {

ParamTable IndexFetchParams::table() {
    const IndexFetchParams d;
    return ParamTable(kUnit, "index fetch: reads a draw's references and looks them up in the post-transform cache", 4)
        .add_uint("indices_per_cycle", "indices/cycle", d.indices_per_cycle,
                  "references read and looked up per cycle", "assumed (one vertex per cycle, as ATTILA's streamer)", 1,
                  64)
        .add_uint("draw_queue", "draws", d.draw_queue, "draws buffered from the tessellator", "assumed", 1, 1024);
}
VPSIM_REGISTER_PARAMS(IndexFetchParams::table);

IndexFetchParams IndexFetchParams::from(const ParamSet& p) {
    IndexFetchParams r;
    r.indices_per_cycle = uint32_t(p.get_uint("index_fetch.indices_per_cycle"));
    r.draw_queue = uint32_t(p.get_uint("index_fetch.draw_queue"));
    return r;
}

IndexFetch::IndexFetch(const sc_core::sc_module_name& n, const IndexFetchParams& p,
                       const pipe::PostTransformCacheParams& cache, VertexPool& pool, DrawTracker& draws, Probes* probes)
    : TimedUnit(n), p_(p), cache_(cache), pool_(pool), draws_(draws), probes_(probes),
      in_("tessellator_to_index_fetch", p.draw_queue, 1, 1),
      stats_(IndexFetchParams::kUnit, "index fetch and post-transform cache look-up"), acct_(stats_),
      refs_(stats_.counter("references", "indices", "vertex references read (draw order)")),
      hits_(stats_.counter("cache_hits", "indices", "references found in the post-transform cache")),
      misses_(stats_.counter("cache_misses", "vertices", "references sent to be fetched and shaded")),
      unique_(stats_.counter("unique_vertices", "vertices", "distinct vertices per draw, summed over draws")),
      index_bytes_(stats_.counter("index_bytes", "bytes", "index buffer bytes read")),
      stall_fetch_(stats_.stall_reason("fetch_queue_full", "a reference waits for space in the vertex fetch queue")),
      stall_order_(stats_.stall_reason("order_queue_full", "a reference waits for space in the output's order queue")),
      stall_tess_(stats_.stall_reason("tessellator", "a reference names a generated vertex the tessellator has not produced yet")) {
    acct_.attach(probes, "index_fetch");
    if (probes) track_ = probes->track("index_fetch");
    stats_.rate("hit_rate", "cache_hits", "references", "fraction", "post-transform cache hits per reference");
    stats_.rate("indices_per_cycle", "references", "cycles", "indices/cycle", "references per cycle of the run");
}

Cycle IndexFetch::step(Cycle now) {
    if (!in_.can_pop(now)) {
        acct_.idle(now);
        return in_.next_pop(now);
    }
    DrawState& d = *in_.front();
    if (!started_) {
        started_ = true;
        pos_ = 0;
        cache_.flush();
        // Distinct vertices of the draw (for ATVR): a bitmap over its index range.
        const auto& st = d.setup;
        if (st.generated) {
            d.unique = st.generated->vertices.size();
        } else if (st.indexed && st.refs) {
            uint32_t lo = ~0u, hi = 0;
            for (uint64_t k = 0; k < st.refs; ++k) {
                const uint32_t v = st.vertex(k);
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
            std::vector<bool> seen(uint64_t(hi) - lo + 1);
            for (uint64_t k = 0; k < st.refs; ++k) {
                const uint32_t v = st.vertex(k) - lo;
                if (!seen[v]) seen[v] = true, ++d.unique;
            }
        } else {
            d.unique = st.refs;
        }
        unique_ += d.unique;
    }
    const auto& s = d.setup;
    uint32_t done = 0;
    while (done < p_.indices_per_cycle) {
        if (pos_ == s.refs) {
            // The draw's end marker tells the output to finish its primitives.
            if (!order_->can_push(now)) {
                if (!done) acct_.stall(stall_order_, 1, now);
                return done ? now + 1 : kNever;
            }
            order_->push(OrderRef{OrderRef::DrawEnd, &d, 0, 0, pos_}, now);
            draws_.indices_done(d);
            in_.pop(now);
            started_ = false;
            acct_.busy(now);
            return now + 1;
        }
        if (!order_->can_push(now)) {
            if (!done) acct_.stall(stall_order_, 1, now);
            return done ? now + 1 : kNever;
        }
        if (!fetch_->can_push(now)) {
            if (!done) acct_.stall(stall_fetch_, 0, now);
            return done ? now + 1 : kNever;
        }
        const uint32_t v = s.vertex(pos_);
        if (s.generated && v >= d.generated_ready) {
            // The tessellator has not produced this vertex yet (it wakes us as it does).
            if (!done) acct_.stall(stall_tess_, 2, now);
            return done ? now + 1 : kNever;
        }
        if (s.index_buffer) index_bytes_ += s.index_buffer->index_size;
        ++refs_;
        const bool hit = s.indexed && cache_.lookup(v);
        if (hit) {
            ++hits_;
            order_->push(OrderRef{OrderRef::Hit, &d, v, 0, pos_}, now);
        } else {
            ++misses_;
            const uint32_t h = pool_.alloc();
            VertexJob& j = pool_[h];
            j.seq = seq_++;
            j.draw = &d;
            j.index = v;
            ++d.jobs;
            fetch_->push(h, now);
            order_->push(OrderRef{OrderRef::Miss, &d, v, h, pos_}, now);
        }
        if (probes_ && probes_->trace_on())
            probes_->span(track_, now, now + 1, fmt::format("v{}", v),
                          fmt::format("\"draw\": {}, \"ref\": {}, \"hit\": {}", d.id, pos_, hit));
        ++pos_;
        ++done;
    }
    acct_.busy(now);
    return now + 1;
}

}  // namespace vpsim::sc
