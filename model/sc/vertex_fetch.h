// The vertex fetch unit. Per vertex job, in order, with up to `fetch_window` vertices between
// their first request and their data: one request per declared element (`base + stride * index
// + offset`, its type's bytes) at `elements_per_cycle` through a small fetch cache (fully
// associative, LRU, `cache_lines` x `line_bytes`; a miss reads the line from the memory model,
// at most `max_misses` line fills outstanding; with `prefetch_lines` each stream also reads that
// many lines ahead of its last request while miss registers are free). When a vertex's last element has arrived, it
// takes a free input buffer (held until the vertex ALU has finished it) and goes to the vertex
// ALU. Vertices leave in order. This unit models the traffic only: the converted registers
// v0..v15 (the golden vertex fetch, fetch_vertex) are made when the ALU takes the vertex and
// asks for its values (vertex_alu.h, DrawFunction).
//
// Conversion: by default it takes no time (a vertex is ready when its last data is). With
// `convert_per_cycle` N > 0 a data stage converts the elements in order, at most N a cycle, each
// once its data is there (`fill_latency` after its line); at most `element_queue` elements wait
// for it; a converted vertex waits in one output register for its input buffer (the next vertex's
// last element waits for the register); a demand line fill holds its miss register until its
// element is converted. docs/vertex-fetch-rtl.md, "In the loop", gives the values that make this
// unit's timing the RTL's (rtl/vertex_fetch.sv).
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/sc/memory_model.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/unit_params.h"
#include "model/sc/unit_registry.h"

#include <array>
#include <deque>
#include <unordered_map>

namespace vpsim::sc {

struct VertexFetchParams {
    uint32_t input_buffers = 6;       // vertices between data arrival and ALU finish
    uint32_t fetch_window = 16;       // vertices between first request and data arrival
    uint32_t queue = 4;               // vertex jobs buffered from the index fetch
    uint32_t elements_per_cycle = 1;  // element requests per cycle
    uint32_t cache_lines = 32;        // fetch cache lines
    uint32_t line_bytes = 64;         // fetch cache line size
    uint32_t hit_latency = 1;         // cycles for a cache hit
    uint32_t max_misses = 16;         // line fills outstanding
    uint32_t prefetch_lines = 8;      // lines each stream reads ahead of its last request
    uint32_t fill_latency = 0;        // cycles from a line fill's arrival to its data's use
    uint32_t convert_per_cycle = 0;   // elements converted per cycle, in order (0: no time)
    uint32_t element_queue = 0;       // elements issued, not yet converted (0: no limit)

    static constexpr const char* kUnit = "vertex_fetch";
    static const ParamBindings<VertexFetchParams>& bindings();  // each parameter, declared once
    static ParamTable table();
    static VertexFetchParams from(const ParamSet& p);
};

// What the vertex fetch reads of other units (model/sc/unit_params.h): the latency of the memory
// its memory port names (for the bottleneck's words).
struct VertexFetchNeeds {
    uint64_t memory_latency = 0;
    static const NeedBindings<VertexFetchNeeds>& bindings();
};

class VertexFetch : public TimedUnit {
public:
    // Ports: `in` vertex jobs from the index fetch; `out` fetched vertices to the vertex ALU,
    // each holding an input buffer; `credits` input buffers the ALU has freed.
    // `memory`: the analytical memory model behind the fetch cache (its memory port: a service,
    // not a channel).
    VertexFetch(const sc_core::sc_module_name& n, const VertexFetchParams& p, MemoryModel& memory, VertexPool& pool,
                Probes* probes);

    Cycle step(Cycle now) override;
    void finish(Cycle end) override;
    bool busy_with_work() const override { return !in_->empty() || has_current_ || !waiting_.empty() || !conv_.empty(); }
    const StatGroup& stats() const override { return stats_; }

private:
    struct Element {
        uint32_t stream, offset, size;
    };
    struct Line {
        uint64_t tag = ~uint64_t(0);
        Cycle ready = 0;
        uint32_t older = 0, newer = 0;  // neighbours in the LRU order (lru_oldest_ .. lru_newest_)
        bool prefetched = false;  // read ahead and not yet asked for
    };
    struct Waiting {
        Job job;
        Cycle ready;
        int slot;
    };
    const std::vector<Element>& elements_of(const DrawState& d);
    // Looks up / fills the lines of [addr, addr + size); returns false (nothing changed) when
    // the misses would exceed max_misses. `ready` = when the data is there.
    // `demand_fills` += the lines it read for this request.
    bool access(Cycle now, uint32_t stream, uint64_t addr, uint32_t size, Cycle& ready, uint32_t& demand_fills);
    // Reads line `tag` into the LRU line; returns its ready cycle. `ahead`: a read-ahead.
    Cycle fill(Cycle now, uint64_t tag, bool ahead = false);
    void prefetch(Cycle now, uint32_t stream, uint64_t last);  // reads ahead of line `last`

    VertexFetchParams p_;
    MemoryModel& mem_;
    VertexPool& pool_;
    Probes* probes_;
    In<Job> in_{*this, "in"};
    Out<Job> out_{*this, "out"};
    In<Credit> credits_{*this, "credits"};
    std::vector<Line> lines_;
    unsigned line_shift_;  // log2(line_bytes)
    std::array<uint32_t, 4> recent_{~0u, ~0u, ~0u, ~0u};  // most recently used lines, newest first
    Line* find_line(uint64_t tag);
    // Where each line's tag is: an open-addressed table (linear probing, at least four slots a
    // line) of line indices by tag, kept exact as fill() changes a line's tag, so a look-up that
    // misses recent_ costs a probe or two instead of a scan of every line. (A tag is unique
    // among the lines: a fill takes a tag that was not found.)
    static constexpr uint32_t kNoLine = ~0u;
    std::vector<uint32_t> where_;
    unsigned where_shift_ = 0;  // 64 - log2(where_.size())
    size_t where_home(uint64_t tag) const { return size_t((tag * 0x9E3779B97F4A7C15ull) >> where_shift_); }
    void where_erase(uint64_t tag);
    void where_insert(uint32_t line);
    void touch(Line* l);
    // The lines from least to most recently used, a list through Line::older / newer (a fill
    // takes the oldest, a use moves a line to the newest end; lines never used come first, in
    // index order).
    uint32_t lru_oldest_ = 0, lru_newest_ = 0;
    std::array<uint64_t, 16> ahead_{};  // per stream: the furthest line requested ahead
    // Per stream: the last line a request ended in, and how many requests in a row advanced
    // to the next line (the stride detector that arms the read-ahead).
    std::array<uint64_t, 16> last_line_{};
    std::array<uint32_t, 16> advances_{};
    static constexpr uint32_t kSequentialAdvances = 3;  // advances in a row that arm the read-ahead
    // Lines asked for by requests, one bit each in pages of 4096 lines (512 bytes a page): the
    // footprint statistic costs 1/512 of the address span the draws touch, not a node per line.
    std::unordered_map<uint64_t, std::array<uint64_t, 64>> footprint_;
    // Per stream: the page first_touch used last (streams' requests interleave, each in its own
    // buffer), and the page (element pointers survive rehashing).
    std::array<uint64_t, 16> footprint_key_{};
    std::array<std::array<uint64_t, 64>*, 16> footprint_page_{};
    bool first_touch(uint32_t stream, uint64_t line);
    std::deque<Cycle> fills_;  // completion cycles of outstanding line fills (non-decreasing)
    // The data stage (convert_per_cycle > 0): elements issued and not yet converted, in order.
    struct Conversion {
        Cycle ready;     // its data is there
        uint32_t fills;  // demand fills it holds (released when it is converted)
        bool last;       // the vertex's last element (or the marker of a vertex without elements)
    };
    std::deque<Conversion> conv_;
    uint32_t held_fills_ = 0;   // miss registers held by fills whose element is not converted
    size_t converted_ = 0;      // waiting_'s first entries that are converted (0 or 1: the output register)
    bool convert(Cycle now);    // this cycle's conversions; true if any
    Cycle conversion_next(Cycle now) const;  // when the data stage can convert next (kNever: not by itself)
    const DrawState* elem_draw_ = nullptr;
    std::vector<Element> elems_;
    uint32_t buffers_ = 0;
    bool has_current_ = false;
    Job cur_;
    size_t cur_elem_ = 0;
    Cycle cur_ready_ = 0;
    int cur_slot_ = 0;
    std::deque<Waiting> waiting_;
    std::vector<bool> slot_used_;
    std::vector<int> tracks_;
    int sig_requests_ = -1;  // VCD: element requests issued (a count, changing at each request)
    StatGroup stats_;
    CycleAccount acct_;
    Counter &vertices_, &requests_, &bytes_, &lookups_, &hits_, &misses_, &prefetches_;
    Counter &prefetch_used_, &prefetch_evicted_, &prefetch_unused_, &fill_bytes_, &footprint_bytes_;
    StallReason stall_buffer_, stall_misses_, stall_memory_, stall_window_, stall_queue_;
};

}  // namespace vpsim::sc
