// The vertex fetch RTL in the loop (model/sc/rtl_vertex_fetch.h, docs/vertex-fetch-rtl.md, "In the loop").
#include "model/sc/rtl_vertex_fetch.h"

#include "model/decl/decl_tokens.h"
#include "model/rtl/user_vertex_fetch.h"
#include "model/sc/vertex_fetch.h"
#include "model/vs/vs_fetch.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <unordered_map>

namespace vpsim::sc::vf {

using decl::EventKind;

namespace {

// The last writer of each register in declaration order: an element's token index, or -2 for
// the tessellator (a non-patch draw leaves that register 0), -1 for none.
std::array<int64_t, 32> last_writers(const decl::Declaration& d) {
    std::array<int64_t, 32> last{};
    last.fill(-1);
    for (size_t k = 0; k < d.events.size(); ++k) {
        const decl::Event& e = d.events[k];
        if (e.reg >= 32) continue;
        if (e.kind == EventKind::Element) {
            if (k >= d.event_index.size()) throw std::logic_error("vertex fetch loop: a declaration without token indices");
            last[e.reg] = d.event_index[k];
        }
        if (e.kind == EventKind::Tess) last[e.reg] = -2;
    }
    return last;
}

}  // namespace

std::vector<uint32_t> loop_layout(const decl::Declaration& d) {
    const auto last = last_writers(d);
    std::vector<uint32_t> w;
    for (const decl::StreamDecl& s : d.streams) {
        if (s.tess) continue;
        for (const decl::ElementDecl& e : s.elements) {
            if (w.size() == rtl::vf::kMaxElems)
                throw std::invalid_argument(fmt::format(
                    "the declaration has more than {} elements (the vertex fetch RTL's MAX_ELEMS); element {} is v{}",
                    rtl::vf::kMaxElems, w.size() + 1, e.reg));
            if (e.offset >= (1u << 20))
                throw std::invalid_argument(
                    fmt::format("element v{} at offset {}: the vertex fetch RTL's offsets are below 2^20", e.reg, e.offset));
            const uint32_t reg = e.reg < rtl::vf::kRegs && last[e.reg] != int64_t(e.token_index) ? 31u : e.reg;
            w.push_back((e.type & 7u) | (reg & 31u) << 3 | (s.stream & 15u) << 8 | e.offset << 12);
        }
    }
    return w;
}

uint32_t loop_loaded(const decl::Declaration& d) {
    const auto last = last_writers(d);
    uint32_t m = 0;
    for (uint32_t r = 0; r < rtl::vf::kRegs; ++r)
        if (last[r] >= 0) m |= 1u << r;
    return m;
}

namespace {

// A draw as the design sees it: its layout bus, streams, and where its buffers' bytes are.
struct DrawInfo {
    const DrawState* draw = nullptr;
    std::vector<uint32_t> layout;
    uint32_t loaded = 0;
    std::array<uint32_t, 16> base{}, stride{};
    struct Span {
        uint32_t addr;
        uint32_t size;
        const uint8_t* data;
    };
    std::vector<Span> spans;  // the bound streams' buffers at their modelled addresses
    struct Elem {
        uint32_t stream, offset, size;
    };
    std::vector<Elem> elems;  // in layout order
};

class LoopUnit : public TimedUnit {
public:
    LoopUnit(const std::string& unit, const VertexFetchParams& p, MemoryModel& mem, VertexPool& pool,
             Probes* probes, std::unique_ptr<rtl::vf::Pins> rtl, std::string name)
        : TimedUnit(unit.c_str()), p_(p), mem_(mem), pool_(pool), rtl_(std::move(rtl)), name_(std::move(name)),
          stats_(basename(), "vertex fetch unit (RTL " + name_ + ")"),
          acct_(stats_), vertices_(stats_.counter("vertices", "vertices", "vertices fetched and converted")),
          requests_(stats_.counter("requests", "requests", "element requests (one per declared element per vertex)")),
          bytes_(stats_.counter("bytes", "bytes", "element bytes requested")),
          lookups_(stats_.counter("cache_lookups", "lines",
                                  "16-byte words the elements span (the RTL's one-word tag: a line of 16 bytes)")),
          hits_(stats_.counter("cache_hits", "lines", "words an element took from the word the previous one ended in")),
          misses_(stats_.counter("cache_misses", "lines", "words read from memory (mem_req_words)")),
          mem_requests_(stats_.counter("memory_requests", "requests", "memory requests (mem_req_valid handshakes)")),
          fill_bytes_(stats_.counter("fill_bytes", "bytes", "bytes read from memory (16 a word)")),
          footprint_bytes_(stats_.counter("footprint_bytes", "bytes", "distinct words the elements span x 16")),
          stall_buffer_(stats_.stall_reason("no_input_buffer", "a fetched vertex waits for a free input buffer",
                                            StallKind::back_pressure("credits"))),
          stall_memory_(stats_.stall_reason("memory_latency",
                                            "vertices are inside the RTL and none moves: memory data, conversion, or "
                                            "room in its FIFOs")) {
        acct_.attach(probes, basename());
        stats_.rate("cache_hit_rate", "cache_hits", "cache_lookups", "fraction", "words taken from the held word per word spanned");
        stats_.rate("bytes_per_cycle", "bytes", "cycles", "bytes/cycle", "element bytes fetched per cycle of the run");
        stats_.rate("bytes_per_vertex", "bytes", "vertices", "bytes/vertex", "element bytes per fetched vertex");
        stats_.rate("overfetch", "fill_bytes", "footprint_bytes", "fraction",
                    "bytes read from memory per byte of the words the elements need (1: each word read once)");
        rtl_->reset();
    }

    Cycle step(Cycle now) override;
    void finish(Cycle end) override {
        acct_.finish(end);
        hits_.value = lookups_.value > misses_.value ? lookups_.value - misses_.value : 0;
    }
    bool busy_with_work() const override { return !in_->empty() || !inflight_.empty() || !pending_.empty(); }
    const StatGroup& stats() const override { return stats_; }

private:
    struct Pending {
        Cycle due;
        uint32_t word;
        const DrawInfo* draw;
    };
    const DrawInfo& info(const DrawState& d);
    void word_data(const Pending& w, uint32_t out[4]) const;
    void check(Job job, const rtl::vf::Outputs& o) const;
    std::string where(const VertexJob& j) const {
        return fmt::format("draw {} ({}), vertex {}", j.draw->id, j.draw->setup.pointer, j.index);
    }
    bool first_touch(uint64_t word);

    VertexFetchParams p_;
    MemoryModel& mem_;
    VertexPool& pool_;
    std::unique_ptr<rtl::vf::Pins> rtl_;
    std::string name_;
    In<Job> in_{*this, "in"};
    Out<Job> out_{*this, "out"};
    In<Credit> credits_{*this, "credits"};
    std::unordered_map<const DrawState*, DrawInfo> draws_;
    const DrawInfo* presented_ = nullptr;  // the layout on the pins
    const DrawInfo* issuing_ = nullptr;    // the draw of the vertex accepted last (its requests)
    rtl::vf::Inputs in_pins_;
    rtl::vf::Outputs out_pins_;
    std::deque<Job> inflight_;   // jobs accepted and not yet out, in order
    std::deque<Pending> pending_;    // words requested and not yet answered, in order
    Cycle last_due_ = 0;
    uint32_t buffers_ = 0;
    std::unordered_map<uint64_t, std::array<uint64_t, 64>> footprint_;
    StatGroup stats_;
    CycleAccount acct_;
    Counter &vertices_, &requests_, &bytes_, &lookups_, &hits_, &misses_, &mem_requests_, &fill_bytes_, &footprint_bytes_;
    StallReason stall_buffer_, stall_memory_;
};

const DrawInfo& LoopUnit::info(const DrawState& d) {
    const auto it = draws_.find(&d);
    if (it != draws_.end()) return it->second;
    DrawInfo& i = draws_[&d];
    i.draw = &d;
    // A tessellated draw's vertices come from the tessellator: no element (as the model unit).
    if (d.setup.generated) return i;
    const decl::Declaration& decl = d.setup.shader->decl;
    try {
        i.layout = loop_layout(decl);
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(fmt::format("--rtl vertex_fetch: draw {} ({}): {}", d.id, d.setup.pointer, e.what()));
    }
    i.loaded = loop_loaded(decl);
    for (uint32_t s = 0; s < 16; ++s) {
        const vs::StreamBinding& b = d.setup.streams[s];
        if (!b.bound) continue;
        if (d.stream_address[s] + b.size > (uint64_t(1) << 32))
            throw std::runtime_error(fmt::format(
                "--rtl vertex_fetch: draw {} ({}): stream {}'s buffer ends at modelled address 0x{:x}: the vertex fetch "
                "RTL's addresses are 32 bits",
                d.id, d.setup.pointer, s, d.stream_address[s] + b.size));
        i.base[s] = uint32_t(d.stream_address[s]);
        i.stride[s] = b.stride;
        i.spans.push_back({i.base[s], uint32_t(b.size), b.data});
    }
    for (uint32_t w : i.layout) i.elems.push_back({w >> 8 & 15, w >> 12, decl::data_type_size(w & 7)});
    return i;
}

void LoopUnit::word_data(const Pending& w, uint32_t out[4]) const {
    uint8_t b[16] = {};
    const uint64_t lo = uint64_t(w.word) * 16;
    for (const DrawInfo::Span& s : w.draw->spans) {
        const uint64_t a = std::max<uint64_t>(lo, s.addr), e = std::min<uint64_t>(lo + 16, uint64_t(s.addr) + s.size);
        for (uint64_t x = a; x < e; ++x) b[x - lo] = s.data[x - s.addr];
    }
    for (int k = 0; k < 4; ++k) std::memcpy(&out[k], b + 4 * k, 4);
}

void LoopUnit::check(Job job, const rtl::vf::Outputs& o) const {
    const VertexJob& j = pool_[job];
    const DrawInfo& i = draws_.at(j.draw);
    if (o.out_index != j.index)
        throw LoopMismatch(fmt::format("RTL vertex_fetch ({}): {}: out_index is {}, expected {} (vertices leave in order)",
                                       name_, where(j), o.out_index, j.index));
    std::array<uint32_t, rtl::vf::kRegs * 4> exp{};
    if (!j.draw->setup.generated) {
        try {
            const auto v = vs::fetch_vertex(j.draw->setup.shader->decl, j.draw->setup.streams, j.index);
            for (uint32_t r = 0; r < rtl::vf::kRegs; ++r)
                for (int k = 0; k < 4; ++k) std::memcpy(&exp[4 * r + k], &v[r][k], 4);
        } catch (const vs::FetchError&) {
            return;  // the vertex cannot be fetched: the vertex ALU reports the scene's error
        }
    }
    for (uint32_t r = 0; r < rtl::vf::kRegs; ++r)
        for (int k = 0; k < 4; ++k)
            if (exp[4 * r + k] != o.out_regs[4 * r + k])
                throw LoopMismatch(fmt::format(
                    "RTL vertex_fetch ({}): {}: v{} is ({:08x} {:08x} {:08x} {:08x}), the golden fetch_vertex gives "
                    "({:08x} {:08x} {:08x} {:08x})",
                    name_, where(j), r, o.out_regs[4 * r], o.out_regs[4 * r + 1], o.out_regs[4 * r + 2],
                    o.out_regs[4 * r + 3], exp[4 * r], exp[4 * r + 1], exp[4 * r + 2], exp[4 * r + 3]));
    if (o.out_loaded != i.loaded)
        throw LoopMismatch(fmt::format("RTL vertex_fetch ({}): {}: out_loaded is 0x{:04x}, expected 0x{:04x}", name_,
                                       where(j), o.out_loaded, i.loaded));
}

bool LoopUnit::first_touch(uint64_t word) {
    uint64_t& bits = footprint_[word >> 12][(word >> 6) & 63];
    const uint64_t bit = uint64_t(1) << (word & 63);
    const bool first = !(bits & bit);
    bits |= bit;
    return first;
}

Cycle LoopUnit::step(Cycle now) {
    while (credits_->can_pop(now)) buffers_ -= credits_->pop(now).buffers;
    rtl::vf::Inputs& in = in_pins_;
    // The next vertex job, with its draw's layout and streams.
    const bool job = in_->can_pop(now);
    const DrawInfo* jd = nullptr;
    bool layout_changed = false;
    in.idx_valid = job;
    if (job) {
        const VertexJob& j = pool_[in_->front()];
        jd = &info(*j.draw);
        in.idx_index = j.index;
        if (jd != presented_) {
            presented_ = jd;
            layout_changed = true;
            in.lay_count = uint32_t(jd->layout.size());
            std::fill(std::begin(in.lay_elems), std::end(in.lay_elems), 0u);
            std::copy(jd->layout.begin(), jd->layout.end(), in.lay_elems);
            std::copy(jd->base.begin(), jd->base.end(), in.str_base);
            std::copy(jd->stride.begin(), jd->stride.end(), in.str_stride);
        }
    }
    in.idx_flush = false;  // a scene's buffers do not change while it runs
    in.mem_req_ready = true;  // the memory model takes every request (its bus and latency are in read())
    in.mem_resp_valid = !pending_.empty() && pending_.front().due <= now;
    if (in.mem_resp_valid) word_data(pending_.front(), in.mem_resp_data);
    in.out_ready = buffers_ < p_.input_buffers && out_->can_push(now);
    rtl_->set_inputs(in, layout_changed);
    rtl::vf::Outputs& o = out_pins_;
    rtl_->outputs(o, false);
    bool worked = false;
    // A vertex out: checked against the golden fetch, then to the vertex ALU with an input buffer.
    if (o.out_valid && in.out_ready) {
        if (inflight_.empty())
            throw LoopMismatch(fmt::format("RTL vertex_fetch ({}): cycle {}: a vertex came out, but none is inside", name_, now));
        rtl_->outputs(o, true);
        const Job h = inflight_.front();
        check(h, o);
        inflight_.pop_front();
        ++vertices_;
        ++buffers_;
        out_->push(h, now);
        worked = true;
    }
    const bool take = job && o.idx_ready;
    // Memory words: one read of the memory model each, answered in order when it completes.
    if (o.mem_req_valid) {
        if (o.mem_req_words < 1 || o.mem_req_words > 2 || (o.mem_req_addr & 15))
            throw LoopMismatch(fmt::format("RTL vertex_fetch ({}): cycle {}: a memory request of {} words at 0x{:08x} "
                                           "(the contract: 1 or 2 words, 16-byte aligned)",
                                           name_, now, o.mem_req_words, o.mem_req_addr));
        const DrawInfo* rd = take ? jd : issuing_;
        if (!rd)
            throw LoopMismatch(fmt::format("RTL vertex_fetch ({}): cycle {}: a memory request before any vertex", name_, now));
        for (uint32_t w = 0; w < o.mem_req_words; ++w) {
            const Cycle due = std::max(mem_.read(now, 16), last_due_ + 1);
            pending_.push_back({due, (o.mem_req_addr >> 4) + w, rd});
            last_due_ = due;
        }
        ++mem_requests_;
        misses_ += o.mem_req_words;
        fill_bytes_ += 16u * o.mem_req_words;
        worked = true;
    }
    if (in.mem_resp_valid) pending_.pop_front();
    if (take) {
        const Job h = in_->pop(now);
        VertexJob& j = pool_[h];
        j.t_fetch = now;
        inflight_.push_back(h);
        issuing_ = jd;
        // What the elements ask for, as the model unit counts it (its lines are 16-byte words here).
        for (const DrawInfo::Elem& e : jd->elems) {
            const uint64_t a = uint64_t(jd->base[e.stream]) + uint64_t(jd->stride[e.stream]) * j.index + e.offset;
            ++requests_;
            bytes_ += e.size;
            for (uint64_t w = a / 16; w <= (a + e.size - 1) / 16; ++w) {
                ++lookups_;
                if (first_touch(w)) footprint_bytes_ += 16;
            }
        }
        worked = true;
    }
    rtl_->clock();
    if (rtl_->broken())
        throw LoopMismatch(fmt::format("RTL vertex_fetch ({}): cycle {}: an assertion of the design failed (the %Error above)",
                                       name_, now));
    const bool holds = !inflight_.empty() || !pending_.empty();
    if (worked)
        acct_.busy(now);
    else if (o.out_valid && !in.out_ready)
        acct_.stall(stall_buffer_, now);
    else if (holds)
        acct_.stall(stall_memory_, now);
    else
        acct_.idle(now);
    // Clocked every cycle while it holds a vertex or a word; idle, it waits for the next job.
    return holds ? now + 1 : in_->next_pop(now);
}

}  // namespace

UnitFactory loop_unit(std::function<std::unique_ptr<rtl::vf::Pins>()> make, std::string name) {
    return [make = std::move(make), name = std::move(name)](const UnitContext& c) -> std::unique_ptr<TimedUnit> {
        if (!c.memory) throw std::logic_error("RTL vertex_fetch " + c.name + ": no memory port");
        return std::make_unique<LoopUnit>(c.name, c.params.of<VertexFetchParams>(), *c.memory, c.pool, c.probes,
                                          make(), name);
    };
}

const std::vector<std::string>& rtl_timing_params() {
    static const std::vector<std::string> p = {
        "vertex_fetch.cache_lines=1",       "vertex_fetch.line_bytes=16",       "vertex_fetch.prefetch_lines=0",
        "vertex_fetch.elements_per_cycle=1", "vertex_fetch.hit_latency=1",       "vertex_fetch.fill_latency=1",
        "vertex_fetch.convert_per_cycle=1",  "vertex_fetch.element_queue=64",   "vertex_fetch.max_misses=32",
        "vertex_fetch.fetch_window=66"};
    return p;
}

UnitFactory builtin_loop_unit() {
    return loop_unit([] { return rtl::vf::builtin_vertex_fetch(); }, "rtl/vertex_fetch.sv");
}

UnitFactory user_loop_unit(const rtl::UserRtlSpec& spec) {
    auto rtl = rtl::vf::build(spec);
    std::string name;
    for (const auto& s : spec.sources) name += (name.empty() ? "" : ",") + s;
    return loop_unit(rtl::vf::factory(rtl), name);
}

}  // namespace vpsim::sc::vf
