#include "model/sc/vertex_fetch.h"

#include "model/decl/decl_tokens.h"

#include <fmt/format.h>

#include <cmath>

namespace vpsim::sc {

const ParamBindings<VertexFetchParams>& VertexFetchParams::bindings() {
    static const auto b = ParamBindings<VertexFetchParams>(kUnit, "vertex fetch unit: element requests, fetch cache, type conversion, input buffers")
        .uint("input_buffers", "vertices", &VertexFetchParams::input_buffers,
                  "input buffers: a vertex holds one from its data's arrival until the ALU finishes it",
                  "NV20: 6 copies of the per-vertex input buffers (docs/spec/pipeline.md)", 1, 1024).capacity()
        .uint("fetch_window", "vertices", &VertexFetchParams::fetch_window,
                  "vertices fetched at once (first request to last data); hides memory latency", "assumed (docs/calibration.md)", 1, 4096).capacity()
        .uint("queue", "vertices", &VertexFetchParams::queue, "vertex jobs buffered from the index fetch", "assumed", 1, 1024).capacity()
        .uint("elements_per_cycle", "requests/cycle", &VertexFetchParams::elements_per_cycle, "element requests issued per cycle",
                  "assumed", 1, 16).rate()
        .uint("cache_lines", "lines", &VertexFetchParams::cache_lines, "fetch cache capacity (fully associative, LRU)",
                  "ATTILA's vertex input cache: 32 lines x 64 B", 1, 4096).capacity()
        .uint("line_bytes", "bytes", &VertexFetchParams::line_bytes, "fetch cache line size (a power of two)",
                  "ATTILA's vertex input cache: 32 lines x 64 B", 4, 4096)
        .uint("hit_latency", "cycles", &VertexFetchParams::hit_latency, "cycles from a request to its data on a cache hit", "assumed",
                  1, 1000).latency()
        .uint("max_misses", "lines", &VertexFetchParams::max_misses, "line fills outstanding at once (miss registers)", "assumed: enough to cover the memory latency (docs/calibration.md)", 1,
                  1024).capacity()
        .uint("prefetch_lines", "lines", &VertexFetchParams::prefetch_lines,
                  "lines each stream reads ahead of its last request (sequential prefetch, within max_misses); 0 = none",
                  "assumed (a fetch that streams ahead; docs/calibration.md)", 0, 64).capacity()
        .uint("fill_latency", "cycles", &VertexFetchParams::fill_latency,
                  "cycles from a line fill's arrival to its data's use (a register between the memory and the converter)",
                  "assumed: 0 (the RTL, rtl/vertex_fetch.sv: 1)", 0, 1000).latency()
        .uint("convert_per_cycle", "elements/cycle", &VertexFetchParams::convert_per_cycle,
                  "elements converted per cycle, in order, each once its data is there; 0: conversion takes no time. "
                  "With N > 0 a converted vertex waits in one output register for its input buffer and a demand line "
                  "fill holds its miss register until its element is converted",
                  "assumed: 0 (the RTL, rtl/vertex_fetch.sv: 1)", 0, 16).rate()
        .uint("element_queue", "elements", &VertexFetchParams::element_queue,
                  "elements issued and not yet converted, with convert_per_cycle > 0 (a vertex without elements takes "
                  "one); 0: no limit",
                  "assumed: 0 (the RTL, rtl/vertex_fetch.sv: ELEM_DEPTH 64)", 0, 65536).capacity();
    return b;
}
ParamTable VertexFetchParams::table() { return bindings().table(); }

VertexFetchParams VertexFetchParams::from(const ParamSet& p) {
    VertexFetchParams r = bindings().from(p);
    if (r.line_bytes & (r.line_bytes - 1))
        throw ParamError(fmt::format("vertex_fetch.line_bytes: {} is not a power of two", r.line_bytes));
    return r;
}

const NeedBindings<VertexFetchNeeds>& VertexFetchNeeds::bindings() {
    static const auto b = NeedBindings<VertexFetchNeeds>().uint(
        "memory_latency", &VertexFetchNeeds::memory_latency, kMemoryPort, "memory.latency",
        "the latency of the memory its memory port reads");
    return b;
}

VertexFetch::VertexFetch(const sc_core::sc_module_name& n, const VertexFetchParams& p, MemoryModel& memory,
                         VertexPool& pool, Probes* probes)
    : TimedUnit(n), p_(p), mem_(memory), pool_(pool), probes_(probes), lines_(p.cache_lines),
      line_shift_(unsigned(__builtin_ctz(p.line_bytes))), slot_used_(p.fetch_window),
      stats_(basename(), "vertex fetch unit"), acct_(stats_),
      vertices_(stats_.counter("vertices", "vertices", "vertices fetched and converted")),
      requests_(stats_.counter("requests", "requests", "element requests (one per declared element per vertex)")),
      bytes_(stats_.counter("bytes", "bytes", "element bytes requested")),
      lookups_(stats_.counter("cache_lookups", "lines", "fetch cache line look-ups")),
      hits_(stats_.counter("cache_hits", "lines", "look-ups that found the line (present or being filled)")),
      misses_(stats_.counter("cache_misses", "lines", "look-ups that read the line from memory")),
      prefetches_(stats_.counter("prefetches", "lines", "lines read ahead of their first request (prefetch_lines)")),
      prefetch_used_(stats_.counter("prefetch_used", "lines", "lines read ahead that a request then asked for")),
      prefetch_evicted_(stats_.counter("prefetch_evicted_unused", "lines", "lines read ahead and evicted before any request asked for them")),
      prefetch_unused_(stats_.counter("prefetch_unused_at_end", "lines", "lines read ahead still in the cache, never asked for, at the end of the run")),
      fill_bytes_(stats_.counter("fill_bytes", "bytes", "bytes read from memory (line fills, demand and read-ahead)")),
      footprint_bytes_(stats_.counter("footprint_bytes", "bytes", "distinct lines asked for by requests x line_bytes: the data the draws need")),
      stall_buffer_(stats_.stall_reason("no_input_buffer", "a fetched vertex waits for a free input buffer",
                                                   StallKind::back_pressure("credits"))),
      stall_misses_(stats_.stall_reason("miss_limit", "a request waits for a free miss register")),
      stall_memory_(stats_.stall_reason("memory_latency", "requests are issued; the unit waits for their data")),
      stall_window_(stats_.stall_reason("fetch_window_full", "a vertex waits: fetch_window vertices await their data")),
      stall_queue_(stats_.stall_reason("element_queue_full", "a request waits: element_queue elements await conversion")) {
    acct_.attach(probes, basename());
    // The LRU list in index order: line 0 the oldest.
    const uint32_t nl = uint32_t(lines_.size());
    for (uint32_t i = 0; i < nl; ++i) {
        lines_[i].older = i == 0 ? 0 : i - 1;
        lines_[i].newer = i + 1 == nl ? i : i + 1;
    }
    lru_oldest_ = 0;
    lru_newest_ = nl - 1;
    unsigned bits = 4;
    while ((size_t(1) << bits) < size_t(nl) * 4) ++bits;
    where_.assign(size_t(1) << bits, kNoLine);
    where_shift_ = 64 - bits;
    if (probes) sig_requests_ = probes->vcd_signal(basename(), "requests", 32);
    if (probes && probes->trace_on())
        for (uint32_t b = 0; b < p.fetch_window; ++b) tracks_.push_back(probes->track(fmt::format("{}.slot{}", basename(), b)));
    stats_.rate("cache_hit_rate", "cache_hits", "cache_lookups", "fraction", "fetch cache hits per line look-up");
    stats_.rate("bytes_per_cycle", "bytes", "cycles", "bytes/cycle", "element bytes fetched per cycle of the run");
    stats_.rate("bytes_per_vertex", "bytes", "vertices", "bytes/vertex", "element bytes per fetched vertex");
    stats_.rate("overfetch", "fill_bytes", "footprint_bytes", "fraction",
                "bytes read from memory per byte of the lines the requests need (1: each line read once)");
    stats_.rate("prefetch_accuracy", "prefetch_used", "prefetches", "fraction", "lines read ahead that were used");
}

const std::vector<VertexFetch::Element>& VertexFetch::elements_of(const DrawState& d) {
    if (elem_draw_ == &d) return elems_;
    elem_draw_ = &d;
    elems_.clear();
    // A tessellated draw's vertices come from the tessellator input's registers: no requests.
    if (d.setup.generated) return elems_;
    for (const auto& s : d.setup.shader->decl.streams) {
        if (s.tess) continue;
        for (const auto& e : s.elements) elems_.push_back({s.stream, e.offset, decl::data_type_size(e.type)});
    }
    return elems_;
}

VertexFetch::Line* VertexFetch::find_line(uint64_t tag) {
    // Consecutive vertices mostly hit the lines used last: look there first.
    for (uint32_t i : recent_)
        if (i < lines_.size() && lines_[i].tag == tag) return &lines_[i];
    const size_t mask = where_.size() - 1;
    for (size_t h = where_home(tag);; h = (h + 1) & mask) {
        const uint32_t i = where_[h];
        if (i == kNoLine) return nullptr;
        if (lines_[i].tag == tag) return &lines_[i];
    }
}

void VertexFetch::where_erase(uint64_t tag) {
    const size_t mask = where_.size() - 1;
    size_t h = where_home(tag);
    while (lines_[where_[h]].tag != tag) h = (h + 1) & mask;  // (it is there)
    // Backward-shift deletion: move up each later entry of the run whose home is not between
    // the hole and it, so every entry stays reachable from its home without a gap.
    for (size_t j = (h + 1) & mask; where_[j] != kNoLine; j = (j + 1) & mask) {
        const size_t home = where_home(lines_[where_[j]].tag);
        const bool stays = h <= j ? (h < home && home <= j) : (h < home || home <= j);
        if (stays) continue;
        where_[h] = where_[j];
        h = j;
    }
    where_[h] = kNoLine;
}

void VertexFetch::where_insert(uint32_t line) {
    const size_t mask = where_.size() - 1;
    size_t h = where_home(lines_[line].tag);
    while (where_[h] != kNoLine) h = (h + 1) & mask;
    where_[h] = line;
}

void VertexFetch::touch(Line* l) {
    const uint32_t i = uint32_t(l - lines_.data());
    if (i != lru_newest_) {  // to the newest end of the LRU list
        if (i == lru_oldest_)
            lru_oldest_ = l->newer;
        else
            lines_[l->older].newer = l->newer;
        lines_[l->newer].older = l->older;
        l->older = lru_newest_;
        lines_[lru_newest_].newer = i;
        lru_newest_ = i;
    }
    if (recent_[0] == i) return;
    for (size_t k = recent_.size() - 1; k > 0; --k) recent_[k] = recent_[k - 1];
    recent_[0] = i;
}

Cycle VertexFetch::fill(Cycle now, uint64_t tag, bool ahead) {
    Line* l = &lines_[lru_oldest_];  // the least recently used
    if (l->prefetched) ++prefetch_evicted_;
    l->prefetched = ahead;
    fill_bytes_ += p_.line_bytes;
    if (l->tag != ~uint64_t(0)) where_erase(l->tag);  // (a line never filled is not in where_)
    l->tag = tag;
    where_insert(uint32_t(l - lines_.data()));
    l->ready = mem_.read(now, p_.line_bytes);
    if (p_.convert_per_cycle && !ahead)
        ++held_fills_;  // released when the element that asked for it is converted
    else
        fills_.push_back(l->ready);
    touch(l);
    return l->ready;
}

void VertexFetch::prefetch(Cycle now, uint32_t stream, uint64_t last) {
    // The stream reads the lines after its last request before they are asked for, while miss
    // registers are free. `ahead` is the furthest line already requested ahead; a jump (a new
    // draw, an index far away) restarts from the request.
    uint64_t& ahead = ahead_[stream & 15];
    if (ahead < last || ahead > last + p_.prefetch_lines) ahead = last;
    while (ahead < last + p_.prefetch_lines && fills_.size() + held_fills_ < p_.max_misses) {
        ++ahead;
        if (find_line(ahead)) continue;
        fill(now, ahead, true);
        ++prefetches_;
    }
}

bool VertexFetch::first_touch(uint32_t stream, uint64_t line) {
    uint64_t& key = footprint_key_[stream & 15];
    std::array<uint64_t, 64>*& page = footprint_page_[stream & 15];
    if (!page || (line >> 12) != key) {
        key = line >> 12;
        page = &footprint_[key];
    }
    uint64_t& word = (*page)[(line >> 6) & 63];
    const uint64_t bit = uint64_t(1) << (line & 63);
    const bool first = !(word & bit);
    word |= bit;
    return first;
}

bool VertexFetch::access(Cycle now, uint32_t stream, uint64_t addr, uint32_t size, Cycle& ready,
                         uint32_t& demand_fills) {
    const uint64_t first = addr >> line_shift_, last = (addr + size - 1) >> line_shift_;  // (line_bytes: a power of two)
    while (!fills_.empty() && fills_.front() <= now) fills_.pop_front();
    // Look every line up once; a request is all or nothing, so count the misses first.
    constexpr size_t kMaxLines = 8;  // an element is at most 16 bytes, a line at least 4
    Line* found[kMaxLines];
    const size_t n = size_t(last - first + 1);
    uint32_t need = 0;
    for (size_t k = 0; k < n; ++k) need += (found[k] = find_line(first + k)) == nullptr;
    // (A request needing more lines than there are miss registers goes ahead alone.)
    const size_t outstanding = fills_.size() + held_fills_;
    if (need && outstanding && outstanding + need > p_.max_misses) return false;
    ready = now + p_.hit_latency;
    for (size_t k = 0; k < n; ++k) {
        ++lookups_;
        if (first_touch(stream, first + k)) footprint_bytes_ += p_.line_bytes;
        Line* l = found[k];
        if (l && l->tag == first + k) {
            ++hits_;
        } else {
            ++misses_;
            const Cycle r = fill(now, first + k) + p_.fill_latency;
            ++demand_fills;
            if (r > ready) ready = r;
            continue;
        }
        if (l->prefetched) {
            ++prefetch_used_;
            l->prefetched = false;
        }
        touch(l);
        if (l->ready + p_.fill_latency > ready) ready = l->ready + p_.fill_latency;
    }
    // The stride detector: a stream whose requests keep ending in the same line or the next one
    // is read sequentially; a jump (an indexed mesh's reuse order, a new draw) disarms it.
    uint64_t& prev = last_line_[stream & 15];
    uint32_t& adv = advances_[stream & 15];
    if (first == prev + 1 || (first == prev && last == prev + 1))
        ++adv;
    else if (!(first == prev && last == prev))
        adv = 0;
    prev = last;
    if (p_.prefetch_lines && adv >= kSequentialAdvances) prefetch(now, stream, last);
    return true;
}

void VertexFetch::finish(Cycle end) {
    acct_.finish(end);
    for (const Line& l : lines_) prefetch_unused_ += l.prefetched;
}

bool VertexFetch::convert(Cycle now) {
    // In order, at most convert_per_cycle a cycle, each once its data is there. A vertex's last
    // element converts only into a free output register: no converted vertex still waiting for
    // its input buffer (one that left this cycle, in step's first part, has freed it).
    uint32_t n = 0;
    while (n < p_.convert_per_cycle && !conv_.empty() && conv_.front().ready <= now) {
        const Conversion c = conv_.front();
        if (c.last && converted_) break;
        conv_.pop_front();
        held_fills_ -= c.fills;
        if (c.last) waiting_[converted_++].ready = now + 1;  // in the output register from the next cycle
        ++n;
    }
    return n != 0;
}

Cycle VertexFetch::conversion_next(Cycle now) const {
    if (conv_.empty()) return kNever;
    const Conversion& c = conv_.front();
    if (c.last && converted_) return kNever;  // the converted vertex's departure steps the unit
    return std::max(c.ready, now + 1);
}

Cycle VertexFetch::step(Cycle now) {
    while (credits_->can_pop(now)) buffers_ -= credits_->pop(now).buffers;
    const bool staged = p_.convert_per_cycle != 0;
    bool worked = false, no_buffer = false;
    // Vertices whose data has arrived (or that are converted) leave in order, each into a free
    // input buffer.
    while (!waiting_.empty() && waiting_.front().ready <= now) {
        if (buffers_ >= p_.input_buffers || !out_->can_push(now)) {
            no_buffer = true;
            break;
        }
        const Waiting w = waiting_.front();
        waiting_.pop_front();
        if (staged) --converted_;
        VertexJob& j = pool_[w.job];
        // The converted registers themselves come from the functional core when the ALU asks for
        // the vertex's values (vertex_alu.h, DrawFunction): this unit models the traffic.
        slot_used_[size_t(w.slot)] = false;
        if (probes_ && probes_->trace_on())
            probes_->span(tracks_[size_t(w.slot)], j.t_fetch, now + 1, fmt::format("v{}", j.index),
                          fmt::format("\"draw\": {}, \"seq\": {}", j.draw->id, j.seq));
        ++vertices_;
        ++buffers_;
        out_->push(w.job, now);
        worked = true;
    }
    // Element requests; with a data stage, against its queue as it was at the start of the cycle
    // (this cycle's conversions come after).
    const StallReason* stall = nullptr;
    for (uint32_t k = 0; k < p_.elements_per_cycle; ++k) {
        if (!has_current_) {
            if (!in_->can_pop(now)) break;
            if (waiting_.size() >= p_.fetch_window) {
                stall = &stall_window_;
                break;
            }
            cur_ = in_->pop(now);
            has_current_ = true;
            cur_elem_ = 0;
            cur_ready_ = now + p_.hit_latency;
            cur_slot_ = 0;
            while (slot_used_[size_t(cur_slot_)]) ++cur_slot_;
            slot_used_[size_t(cur_slot_)] = true;
            pool_[cur_].t_fetch = now;
        }
        VertexJob& j = pool_[cur_];
        const auto& el = elements_of(*j.draw);
        if (staged && p_.element_queue && conv_.size() >= p_.element_queue) {
            stall = &stall_queue_;
            break;
        }
        if (cur_elem_ < el.size()) {
            const Element& e = el[cur_elem_];
            const auto& s = j.draw->setup.streams[e.stream];
            const uint64_t addr = j.draw->stream_address[e.stream] + uint64_t(s.stride) * j.index + e.offset;
            Cycle ready = 0;
            uint32_t fills = 0;
            if (!access(now, e.stream, addr, e.size, ready, fills)) {
                stall = &stall_misses_;
                break;
            }
            ++requests_;
            if (probes_) probes_->vcd_change(sig_requests_, now, requests_.value);
            bytes_ += e.size;
            if (ready > cur_ready_) cur_ready_ = ready;
            ++cur_elem_;
            worked = true;
            if (staged) conv_.push_back({ready, fills, cur_elem_ == el.size()});
        } else if (staged) {
            conv_.push_back({now + p_.hit_latency, 0, true});  // a vertex without elements: its marker
        }
        if (cur_elem_ >= el.size()) {
            waiting_.push_back({cur_, staged ? kNever : cur_ready_, cur_slot_});
            has_current_ = false;
        }
    }
    if (staged && convert(now)) worked = true;
    if (worked) {
        acct_.busy(now);
        return now + 1;
    }
    const Cycle conv_next = staged ? conversion_next(now) : kNever;
    if (no_buffer) {
        acct_.stall(stall_buffer_, now);
        return conv_next;  // kNever: a released input buffer (or the ALU's pop) wakes us
    }
    Cycle next = waiting_.empty() ? kNever : std::min(waiting_.front().ready, conv_next);
    if (stall == &stall_misses_) {
        acct_.stall(stall_misses_, now);
        if (!fills_.empty() && fills_.front() < next) next = fills_.front();
        return std::min(next, conv_next);
    }
    if (stall == &stall_window_ || stall == &stall_queue_) {
        acct_.stall(*stall, now);
        return std::min(next, conv_next);
    }
    if (!waiting_.empty() || !conv_.empty()) {
        acct_.stall(stall_memory_, now);
        return std::min({next, conv_next, in_->next_pop(now)});
    }
    acct_.idle(now);
    return in_->next_pop(now);
}

namespace {

double rate(const nlohmann::ordered_json& g, const char* name) {
    if (!g.contains("rates") || !g["rates"].contains(name) || g["rates"][name]["value"].is_null()) return NAN;
    return g["rates"][name]["value"].get<double>();
}

}  // namespace

namespace {
// Its bandwidth and fetch cache hits: one fetch's rates, or the ratios of the summed counters.
UnitSummary vertex_fetch_summary() {
    UnitSummary s;
    s.metrics = {
        rate_metric("fetch_bytes_per_cycle", 35, "bytes_per_cycle", "bytes", "cycles"),
        rate_metric("fetch_cache_hit_rate", 37, "cache_hit_rate", "cache_hits", "cache_lookups"),
    };
    s.lines = {{35, [](const SummaryUnits& u, const SummaryValues& v) -> SummaryRows {
                    const double bytes = v.real("fetch_bytes_per_cycle");
                    return {{"fetch bandwidth", fmt::format("{:.2f} B/cycle ({:.2f} GB/s), fetch cache hits {:.1f} %", bytes,
                                                            bytes * u.clock_mhz / 1e3,
                                                            100 * v.real("fetch_cache_hit_rate"))}};
                }}};
    return s;
}
}  // namespace

void register_unit_vertex_fetch(UnitRegistry& r) {
    UnitType t;
    t.name = "vertex_fetch";
    t.what = "vertex fetch: element requests through a fetch cache to its memory port, input buffers";
    t.tables = {VertexFetchParams::table()};
    t.memory_port = true;
    t.words.noun = "the vertex fetch";
    t.words.busy = "requesting or sending vertices in {} of cycles";
    t.summary = vertex_fetch_summary();
    t.roles = {"vertex_fetch"};
    t.needs = VertexFetchNeeds::bindings().needs();
    t.words.stall = [](const std::string& unit, const std::string& reason, double frac,
                       const nlohmann::ordered_json& units, const UnitParams& p, const std::string& memory) -> std::string {
        const std::string n = unit == "vertex_fetch" ? "the vertex fetch" : "the vertex fetch " + unit;
        const VertexFetchParams own = p.of<VertexFetchParams>();
        const double bus = units.contains(memory) ? rate(units[memory], "bus_utilisation") : NAN;
        const std::string mem = fmt::format("{}-cycle latency, bus busy {:.1f} %", p.needs<VertexFetchNeeds>().memory_latency,
                                            100 * (std::isnan(bus) ? 0.0 : bus));
        if (reason == "miss_limit")
            return fmt::format("{}: waiting on memory with all {} miss registers busy ({}) in {:.1f} % of cycles", n,
                               own.max_misses, mem, 100 * frac);
        if (reason == "memory_latency")
            return fmt::format("{}: waiting for memory data ({}) in {:.1f} % of cycles", n, mem, 100 * frac);
        if (reason == "fetch_window_full")
            return fmt::format("{}: all {} vertices of its fetch window await memory data ({}) in {:.1f} % of cycles", n,
                               own.fetch_window, mem, 100 * frac);
        if (reason == "element_queue_full")
            return fmt::format("{}: all {} elements of its queue await conversion ({} a cycle) in {:.1f} % of cycles", n,
                               own.element_queue, own.convert_per_cycle, 100 * frac);
        return "";
    };
    t.make = [](const UnitContext& c) {
        return std::make_unique<VertexFetch>(c.name.c_str(), c.params.of<VertexFetchParams>(), *c.memory, c.pool,
                                             c.probes);
    };
    r.add(std::move(t));
}

}  // namespace vpsim::sc
