#include "model/sc/index_fetch.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace vpsim::sc {

const ParamBindings<IndexFetchParams>& IndexFetchParams::bindings() {
    static const auto b = ParamBindings<IndexFetchParams>(kUnit, "index fetch: reads a draw's references and looks them up in the post-transform cache")
        .uint("indices_per_cycle", "indices/cycle", &IndexFetchParams::indices_per_cycle,
                  "references read and looked up per cycle", "assumed (one vertex per cycle, as ATTILA's streamer)", 1,
                  64).rate()
        .uint("draw_queue", "draws", &IndexFetchParams::draw_queue, "draws buffered from the tessellator", "assumed", 1, 1024).capacity();
    return b;
}
ParamTable IndexFetchParams::table() { return bindings().table(); }

IndexFetchParams IndexFetchParams::from(const ParamSet& p) {
    return bindings().from(p);
}

IndexFetch::IndexFetch(const sc_core::sc_module_name& n, const IndexFetchParams& p,
                       const pipe::PostTransformCacheParams& cache, VertexPool& pool, Probes* probes)
    : TimedUnit(n), p_(p),
      // The cache's group: "post_transform_cache", or "<instance>.post_transform_cache" for an
      // index fetch named otherwise (a second one).
      cache_(cache, basename() == std::string(IndexFetchParams::kUnit)
                        ? std::string(pipe::PostTransformCacheParams::kUnit)
                        : basename() + std::string(".") + pipe::PostTransformCacheParams::kUnit),
      pool_(pool), probes_(probes),
      stats_(basename(), "index fetch and post-transform cache look-up"), acct_(stats_),
      refs_(stats_.counter("references", "indices", "vertex references read (draw order)")),
      hits_(stats_.counter("cache_hits", "indices", "references found in the post-transform cache")),
      misses_count_(stats_.counter("cache_misses", "vertices", "references sent to be fetched and shaded")),
      unique_(stats_.counter("unique_vertices", "vertices", "distinct vertices per draw, summed over draws")),
      index_bytes_(stats_.counter("index_bytes", "bytes", "index buffer bytes read")),
      stall_fetch_(stats_.stall_reason("fetch_queue_full", "a reference waits for space in the vertex fetch queue",
                                                   StallKind::back_pressure("jobs"))),
      stall_order_(stats_.stall_reason("order_queue_full", "a reference waits for space in the output's order queue",
                                                   StallKind::back_pressure("order"))),
      stall_tess_(stats_.stall_reason("tessellator", "a reference names a generated vertex the tessellator has not produced yet",
                                                  StallKind::starvation("generated"))) {
    acct_.attach(probes, basename());
    if (probes) track_ = probes->track(basename());
    stats_.rate("hit_rate", "cache_hits", "references", "fraction", "post-transform cache hits per reference");
    stats_.rate("indices_per_cycle", "references", "cycles", "indices/cycle", "references per cycle of the run");
}

void IndexFetch::start_draw(const DrawState& d) {
    started_ = true;
    pos_ = 0;
    jobs_ = 0;
    cache_.flush();
    const auto& st = d.setup;
    // The post-transform cache is looked up as each reference is read (step), in reference
    // order; the functional core finds the same misses with its own copy (MissStream).
    misses_ = std::make_shared<MissStream>(st, cache_.params());
    unique_ += d.unique;
}

Cycle IndexFetch::step(Cycle now) {
    while (generated_->can_pop(now)) {
        const GeneratedReady g = generated_->pop(now);
        generated_ready_[g.draw] = g.ready;
    }
    if (!in_->can_pop(now)) {
        acct_.idle(now);
        return in_->next_pop(now);
    }
    const DrawState& d = *in_->front();
    if (!started_) start_draw(d);
    const auto& s = d.setup;
    uint32_t done = 0;
    // Blocked for `why`: after references this cycle the cycle was busy (look again next cycle),
    // before any it is a stall (woken when the blocking channel moves).
    auto blocked = [&](const StallReason& why) {
        if (done) {
            acct_.busy(now);
            return now + 1;
        }
        acct_.stall(why, now);
        return kNever;
    };
    while (done < p_.indices_per_cycle) {
        if (pos_ == s.refs) {
            // The draw's end marker tells the output to finish its primitives.
            if (!order_->can_push(now)) return blocked(stall_order_);
            order_->push(OrderRef{OrderRef::DrawEnd, &d, 0, Job{}, pos_}, now);
            // (The ALU takes every draw end the cycle after it is sent: this never waits.)
            draw_end_->push(DrawEnd{d.id, jobs_}, now);
            generated_ready_.erase(d.id);
            in_->pop(now);
            started_ = false;
            misses_.reset();
            acct_.busy(now);
            return now + 1;
        }
        if (!order_->can_push(now)) return blocked(stall_order_);
        if (!jobs_out_->can_push(now)) return blocked(stall_fetch_);
        const uint32_t v = s.vertex(pos_);
        if (s.generated) {
            const auto it = generated_ready_.find(d.id);
            if (it == generated_ready_.end() || v >= it->second) {
                // The tessellator has not produced this vertex yet (its next count wakes us).
                return blocked(stall_tess_);
            }
        }
        if (s.index_buffer) index_bytes_ += s.index_buffer->index_size;
        ++refs_;
        const bool hit = s.indexed && cache_.lookup(v);
        if (hit) {
            ++hits_;
            order_->push(OrderRef{OrderRef::Hit, &d, v, Job{}, pos_}, now);
        } else {
            ++misses_count_;
            const Job h = pool_.alloc();
            VertexJob& j = pool_[h];
            j.seq = seq_++;
            j.draw = &d;
            j.index = v;
            j.misses = misses_;
            j.miss = jobs_++;
            jobs_out_->push(h, now);
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

namespace {
// The distinct vertices and the post-transform cache's hits.
UnitSummary index_fetch_summary() {
    using J = nlohmann::ordered_json;
    UnitSummary s;
    s.metrics = {
        summed_metric("unique", 13, "unique_vertices"),
        {"ptc_hit_rate", 32, [](const SummaryUnits& u) { return J(u.rate("hit_rate")); }, {}},
        {"atvr", 34, {},
         [](const SummaryValues& v) {
             const uint64_t unique = v.count("unique"), shaded = v.find("shaded") ? v.count("shaded") : 0;
             return J(unique ? double(shaded) / double(unique) : 0.0);
         }},
    };
    s.lines = {{32, [](const SummaryUnits&, const SummaryValues& v) -> SummaryRows {
                    return {{"post-transform cache hits", fmt::format("{:.1f} %", 100 * v.real("ptc_hit_rate"))}};
                }}};
    return s;
}
}  // namespace

void register_unit_index_fetch(UnitRegistry& r) {
    UnitType t;
    t.name = "index_fetch";
    t.what = "index fetch and post-transform cache look-up";
    t.tables = {IndexFetchParams::table(), pipe::PostTransformCacheParams::table()};
    t.words.noun = "the index fetch";
    t.words.busy = "reading indices in {} of cycles";
    t.summary = index_fetch_summary();
    t.roles = {"index_fetch"};
    // It can read several references a cycle: the references over the most it could have read.
    t.words.capacity = [](const nlohmann::ordered_json& g, uint64_t cycles, const UnitParams& p) {
        return cycles ? double(g["counters"]["references"]["value"].get<uint64_t>()) /
                            (double(cycles) * double(p.of<IndexFetchParams>().indices_per_cycle))
                      : NAN;
    };
    t.make = [](const UnitContext& c) {
        return std::make_unique<IndexFetch>(c.name.c_str(), c.params.of<IndexFetchParams>(),
                                            c.params.of<pipe::PostTransformCacheParams>(), c.pool, c.probes);
    };
    r.add(std::move(t));
}

}  // namespace vpsim::sc
