// The vertex fetch cross-check (tb/vf_xcheck.h, docs/vertex-fetch-rtl.md).
#include "tb/vf_xcheck.h"

#include "model/common/file_util.h"
#include "model/common/json_error.h"
#include "model/decl/decl_text.h"
#include "model/vs/vs_fetch.h"
#include "model/vs/vs_fetch_unit.h"
#include "tb/xcheck_engine.h"
#include "tb/decl_gen.h"
#include "tb/replay.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <limits>
#include <map>
#include <type_traits>
#include <stdexcept>
#include <unistd.h>

namespace vpsim::tb::vf {

using decl::EventKind;

namespace {

uint64_t splitmix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
uint64_t derive(uint64_t seed, uint64_t index) { return splitmix(seed ^ splitmix(index * 0xD1B54A32D192ED03ull)); }

const char* const kTypeNames[8] = {"FLOAT1", "FLOAT2", "FLOAT3", "FLOAT4", "D3DCOLOR", "UBYTE4", "SHORT2", "SHORT4"};

uint32_t addr_of(const Case& c, const decl::Event& e, uint32_t index) {
    return c.base[e.stream] + c.stride[e.stream] * index + e.value;  // mod 2^32 (the contract)
}

// The memory's content after `version` flushed vertices: a vertex with idx_flush says memory may
// have changed, and here it has (every word), so a design that reuses a word read before it reads
// stale data. Version 0 is the case's memory_seed (the counting pattern for seed 0).
uint64_t version_seed(uint64_t mem_seed, uint32_t version) {
    return version == 0 ? mem_seed : splitmix(mem_seed ^ (uint64_t(version) * 0xA0761D6478BD642Full)) | 1;
}

// mem_word with the words used last kept (a case reads each word several times: the golden side,
// the coverage and the responses); direct-mapped, per thread.
class WordCache {
public:
    // The word's 16 bytes, valid until the next call.
    const uint8_t* get(uint64_t seed, uint32_t word) {
        Entry& e = e_[(word ^ (word >> 7) ^ uint32_t(seed)) & (kEntries - 1)];
        if (!e.valid || e.word != word || e.seed != seed) {
            mem_word(seed, word, e.bytes);
            e.word = word;
            e.seed = seed;
            e.valid = true;
        }
        return e.bytes;
    }

private:
    // 4096 entries (128 KiB): a case's words stay from the golden side to the responses (256
    // missed a third of them: -20 % CPU per vertex with 4096).
    static constexpr uint32_t kEntries = 4096;
    struct Entry {
        uint64_t seed = 0;
        uint32_t word = 0;
        bool valid = false;
        uint8_t bytes[16];
    };
    Entry e_[kEntries];
};
thread_local WordCache words;

// Bytes [a, a + n) of the memory `seed` (addresses mod 2^32).
void mem_bytes(uint64_t seed, uint32_t a, uint32_t n, uint8_t* out) {
    while (n) {  // a run of bytes from each word
        const uint32_t off = a & 15, take = std::min(n, 16 - off);
        std::memcpy(out, words.get(seed, a >> 4) + off, take);
        out += take;
        a += take;  // mod 2^32
        n -= take;
    }
}

// Each vertex's memory version (all draws in order): the flushed vertices up to and including it,
// and the resets before it (memory may change while the unit is in reset, as at a flush).
std::vector<uint32_t> versions(const Case& c) {
    std::vector<uint32_t> v;
    uint32_t n = 0;
    for (const Case* d : draws(c)) {
        n += d != &c && d->reset_before;
        for (size_t i = 0; i < d->indices.size(); ++i) v.push_back(n += (i < d->flush.size() && d->flush[i]));
    }
    return v;
}

bool is_float_type(uint32_t t) { return t <= decl::D3DVSDT_FLOAT4; }

// The declaration's element events, in order: the per-vertex loops skip the rest (a long layout
// has thousands of SKIP events).
std::vector<const decl::Event*> elements(const decl::Declaration& d) {
    std::vector<const decl::Event*> v;
    for (const auto& e : d.events)
        if (e.kind == EventKind::Element) v.push_back(&e);
    return v;
}

}  // namespace

std::vector<const Case*> draws(const Case& c) {
    std::vector<const Case*> v{&c};
    for (const Case& d : c.then) v.push_back(&d);
    return v;
}

size_t vertex_count(const Case& c) {
    size_t n = 0;
    for (const Case* d : draws(c)) n += d->indices.size();
    return n;
}

// ---- Layout ----

// The golden fetch unit's layout bus (model/vs/vs_fetch_unit, shared with the C ABI and DPI).
std::vector<uint32_t> layout_words(const decl::Declaration& d) { return vs::fetch_unit_layout(d, kMaxElems); }

// ---- Memory ----

void mem_word(uint64_t mem_seed, uint32_t word, uint8_t out[16]) {
    if (mem_seed == 0) {  // the counting pattern: byte at address a is a & 0xFF
        for (uint32_t k = 0; k < 16; ++k) out[k] = uint8_t(word * 16 + k);
        return;
    }
    uint64_t h = splitmix(mem_seed ^ (uint64_t(word) * 0x9E3779B97F4A7C15ull));
    for (int d = 0; d < 4; ++d) {
        const uint64_t r = splitmix(h + uint64_t(d));
        const uint32_t rnd = uint32_t(r >> 32);
        uint32_t v = rnd;
        switch ((r >> 4) & 15) {
        case 6: {  // NaN: quiet, signalling, negative, all ones
            const uint32_t nans[4] = {0x7FC00000u, 0x7F800001u | (rnd & 0x3FFFFF), 0xFFC00000u | (rnd & 0xFFFF),
                                      0xFFFFFFFFu};
            v = nans[r & 3];
            break;
        }
        case 7: v = (r & 1) ? 0xFF800000u : 0x7F800000u; break;  // +-infinity
        case 8: v = ((r & 1) ? 0x80000000u : 0u) | (((r & 2) ? 1u : (rnd & 0x7FFFFF)) | 1u); break;  // denormal
        case 9: v = (r & 1) ? 0x80000000u : 0u; break;  // +-0
        case 10: {  // two extreme shorts
            const uint16_t s[5] = {0x8000, 0x7FFF, 0xFFFF, 0x0000, 0x0001};
            v = uint32_t(s[(r >> 8) % 5]) | uint32_t(s[(r >> 16) % 5]) << 16;
            break;
        }
        case 11: {  // four extreme bytes
            const uint8_t b[5] = {0x00, 0xFF, 0x80, 0x7F, 0x01};
            v = 0;
            for (int k = 0; k < 4; ++k) v |= uint32_t(b[(r >> (8 + 4 * k)) % 5]) << (8 * k);
            break;
        }
        case 12: {  // a float in a common range
            const float f = float(int32_t(rnd % 2001) - 1000) / 64.0f;
            std::memcpy(&v, &f, 4);
            break;
        }
        default: break;
        }
        for (int k = 0; k < 4; ++k) out[4 * d + k] = uint8_t(v >> (8 * k));
    }
    (void)h;
}

// ---- Cases ----

namespace {

// A declaration decoded lenient (duplicate registers allowed); empty when it is not valid.
bool decode_case(Case& c) {
    decl::DecoderOptions o;
    o.lenient = true;
    o.diagnostics = false;
    o.max_length = 1u << 16;  // long layouts: runs of SKIPs put elements far into the vertex
    c.decl = decl::decode(c.tokens, o);
    if (!c.decl.valid) return false;
    // What the layout bus cannot carry (a shrunk declaration can merge streams) is not a case.
    size_t elements = 0;
    for (const auto& e : c.decl.events)
        if (e.kind == EventKind::Element && (++elements > kMaxElems || e.value >= (1u << 20) - 3)) return false;
    // Offsets moved off their DWORD (Case::skew): the layout bus carries byte offsets, which no
    // declaration makes, so they are put into the decoded declaration (events and streams alike).
    std::map<uint32_t, uint32_t> by_token;  // element token -> bytes added
    size_t k = 0;
    for (size_t i = 0; i < c.decl.events.size(); ++i) {
        decl::Event& e = c.decl.events[i];
        if (e.kind != EventKind::Element) continue;
        const uint32_t add = k < c.skew.size() ? c.skew[k] : 0;
        ++k;
        if (!add || e.value + add >= (1u << 20)) continue;
        e.value += add;
        by_token[c.decl.event_index[i]] = add;
    }
    for (auto& st : c.decl.streams)
        for (auto& el : st.elements) {
            const auto it = by_token.find(el.token_index);
            if (it == by_token.end()) continue;
            el.offset += it->second;
            st.size = std::max(st.size, el.offset + el.size);
        }
    return true;
}

}  // namespace

uint32_t lenient_rules(const std::vector<uint32_t>& tokens) {
    decl::DecoderOptions o;
    o.lenient = true;
    o.max_length = 1u << 16;
    uint32_t rules = 0;
    for (const auto& d : decl::decode(tokens, o).diagnostics) rules |= 1u << (d.rule & 31);
    return rules;
}

namespace {

void gen_layout(Rng& rng, std::vector<uint32_t>& t) {
    using namespace decl;
    t.clear();
    // Sometimes a long layout: 12-20 elements (the layout bus's later entries), some of them far
    // into the vertex after a run of SKIP(15)s (offsets up to ~2^20: every offset bit).
    const bool long_layout = rng.chance(0.04);
    const uint32_t nstreams = long_layout ? rng.range(1, 3) : rng.chance(0.1) ? rng.range(5, 16) : rng.range(1, 4);
    uint32_t used = 0, elems = 0, loaded_mem = 0;
    for (uint32_t k = 0; k < nstreams; ++k) {
        uint32_t s;
        do s = rng.below(16);
        while (used >> s & 1);
        used |= 1u << s;
        t.push_back(D3DVSD_STREAM(s));
        uint32_t off = 0;  // this stream's next offset (the layout bus holds offsets below 2^20)
        const uint32_t n = long_layout ? rng.range(12 / nstreams, 20 / nstreams) : rng.range(1, nstreams > 4 ? 2 : 6);
        for (uint32_t e = 0; e < n && elems < kMaxElems; ++e) {
            if (long_layout && rng.chance(0.25)) {
                const uint32_t b = rng.below(14);
                const uint32_t room = off + 128 < (1u << 20) ? ((1u << 20) - 128 - off) / 60 : 0;
                const uint32_t run = std::min(room, rng.range(1u << b, (2u << b) - 1));  // 60 x run bytes
                t.insert(t.end(), run, D3DVSD_SKIP(15));
                off += 60 * run;
            }
            if (rng.chance(0.12)) {
                const uint32_t d = rng.range(1, 3);
                t.push_back(D3DVSD_SKIP(d));
                off += 4 * d;
            }
            uint32_t reg = rng.chance(0.05) ? 16 : rng.below(16);
            const uint32_t type = rng.below(8);
            t.push_back(D3DVSD_REG(reg, type));
            off += decl::data_type_size(type);
            if (reg < 16) loaded_mem |= 1u << reg;
            ++elems;
        }
    }
    if (rng.chance(0.1)) {  // a tessellator stream: its registers are zero in a non-patch draw
        t.push_back(D3DVSD_STREAM_TESS());
        const uint32_t out = rng.below(16);
        if (loaded_mem && rng.chance(0.5)) {
            uint32_t in;
            do in = rng.below(16);
            while (!(loaded_mem >> in & 1));
            t.push_back(D3DVSD_TESSNORMAL(in, out));
        } else {
            t.push_back(D3DVSD_TESSUV(out));
        }
    }
    t.push_back(D3DVSD_END());
}

uint32_t stream_size(const decl::Declaration& d, uint32_t s) {
    uint32_t size = 0;
    for (const auto& st : d.streams)
        if (!st.tess && st.stream == s) size = std::max(size, st.size);
    return size;
}

void gen_streams(Rng& rng, Case& c) {
    for (uint32_t s = 0; s < 16; ++s) {
        const uint32_t size = stream_size(c.decl, s);
        uint32_t stride;
        switch (rng.below(10)) {
        case 0: case 1: case 2: stride = size; break;
        case 3: case 4: stride = size + rng.range(1, 15); break;
        case 5: case 6: stride = size + 4 * rng.range(1, 8); break;
        case 7: stride = size + rng.range(0, 70000); break;
        case 8: stride = rng.u32() | 0x80000000u; break;  // stride x index wraps 2^32
        default: stride = (size + 15) & ~15u; break;
        }
        c.stride[s] = stride;
        c.base[s] = rng.chance(0.3) ? rng.u32() & ~15u : rng.u32();
    }
}

void gen_indices(Rng& rng, Case& c) {
    const uint32_t n = rng.chance(0.05) ? rng.range(40, 96) : rng.range(1, 24);
    c.indices.resize(n);
    c.flush.assign(n, 0);
    const uint32_t mode = rng.below(10);
    const uint32_t start = rng.chance(0.5) ? rng.below(1000) : rng.u32();
    for (uint32_t i = 0; i < n; ++i) {
        if (mode < 5)
            c.indices[i] = start + i;
        else if (mode < 8)
            c.indices[i] = start + rng.below(8);
        else
            c.indices[i] = rng.u32();
        c.flush[i] = rng.chance(0.05);
    }
}

void gen_timing(Rng& rng, Timing& t) {
    switch (rng.below(5)) {
    case 0: t.lat_min = t.lat_max = 1; break;
    case 1: t.lat_min = 1; t.lat_max = 8; break;
    case 2: t.lat_min = t.lat_max = rng.range(2, 40); break;
    case 3: t.lat_min = 1; t.lat_max = 100; break;
    default: t.lat_min = rng.range(1, 20); t.lat_max = t.lat_min + rng.range(0, 30); break;
    }
    const double ps[4] = {1.0, 0.9, 0.6, 0.3};
    t.req_ready = ps[rng.below(4)];
    t.out_ready = ps[rng.below(4)];
    t.idx_valid = rng.chance(0.7) ? 1.0 : 0.5;
}

}  // namespace

Case random_case(uint64_t seed, uint64_t index) {
    Rng rng(derive(seed, index));
    Case c;
    c.seed = seed;
    c.index = index;
    c.origin = "random";
    do gen_layout(rng, c.tokens);
    while (!decode_case(c));
    if (rng.chance(0.05)) {  // byte offsets: each element moved by 0-3 bytes
        for (const auto& e : c.decl.events)
            if (e.kind == EventKind::Element) c.skew.push_back(uint8_t(rng.below(4)));
        decode_case(c);
    }
    gen_streams(rng, c);
    gen_indices(rng, c);
    // Sometimes later draws (the layout and streams change between two vertices), some after a
    // reset, some without elements, and half of them starting in the word the last element
    // before them ended in (a reset must forget that word).
    if (rng.chance(0.12)) {
        const uint32_t more = rng.range(1, 2);
        for (uint32_t k = 0; k < more; ++k) {
            Case d;
            d.reset_before = rng.chance(0.4);
            if (rng.chance(0.25)) {
                d.tokens = {decl::D3DVSD_STREAM(rng.below(16)), decl::D3DVSD_SKIP(rng.range(1, 3)), decl::D3DVSD_END()};
                decode_case(d);
            } else {
                do gen_layout(rng, d.tokens);
                while (!decode_case(d));
            }
            gen_streams(rng, d);
            gen_indices(rng, d);
            if (d.indices.size() > 12) d.indices.resize(12), d.flush.resize(12);
            c.then.push_back(std::move(d));
        }
        // The word the last element before each later draw ended in, and that draw's first
        // element moved into it (its stream's base chosen so) in half of them.
        for (size_t k = 0; k < c.then.size(); ++k) {
            bool any = false;
            uint32_t last = 0;
            for (size_t j = 0; j <= k; ++j) {
                const Case& p = j == 0 ? c : c.then[j - 1];
                const auto lay = layout_words(p.decl);
                if (lay.empty() || p.indices.empty()) continue;
                const uint32_t e = lay.back(), st = e >> 8 & 15;
                last = (p.base[st] + p.stride[st] * p.indices.back() + (e >> 12) + decl::data_type_size(e & 7) - 1) >> 4;
                any = true;
            }
            Case& d = c.then[k];
            const auto lay = layout_words(d.decl);
            if (!any || lay.empty() || !rng.chance(0.5)) continue;
            const uint32_t e = lay.front(), st = e >> 8 & 15;
            const uint32_t a = last * 16 + rng.below(16);
            d.base[st] = a - d.stride[st] * d.indices.front() - (e >> 12);
        }
    }
    c.mem_seed = rng.next() | 1;
    gen_timing(rng, c.timing);
    c.bp_seed = rng.next();
    return c;
}

Case random_stream(uint64_t seed, uint64_t index, uint32_t k) {
    // The boundaries' gaps from their own draw of (seed, index), so the draws are exactly the
    // random cases' draws.
    Rng rng(derive(seed ^ 0x53545245414D0000ull, index));
    Case c = random_case(seed, index * k);
    c.then.clear();
    for (uint32_t m = 1; m < k; ++m) {
        Case d = random_case(seed, index * k + m);
        d.then.clear();
        d.reset_before = false;
        d.gap = rng.chance(0.5) ? 0 : int(rng.range(1, 8));
        c.then.push_back(std::move(d));
    }
    c.origin = "stream";
    c.index = index;
    return c;
}

std::vector<Case> directed_cases() {
    using namespace decl;
    std::vector<Case> out;
    auto add = [&](const std::string& name, std::vector<uint32_t> tokens, std::vector<std::pair<uint32_t, uint32_t>> streams,
                   uint32_t first, uint32_t n, uint64_t mem_seed, Timing t = {}) {
        Case c;
        c.origin = "directed " + name;
        c.index = out.size();
        c.tokens = std::move(tokens);
        if (!decode_case(c)) throw std::logic_error("directed vertex fetch case " + name + ": declaration is not valid");
        for (size_t s = 0; s < streams.size() && s < 16; ++s) std::tie(c.base[s], c.stride[s]) = streams[s];
        for (uint32_t i = 0; i < n; ++i) c.indices.push_back(first + i);
        c.flush.assign(n, 0);
        c.mem_seed = mem_seed;
        c.timing = t;
        c.bp_seed = 0xF00D + out.size();
        out.push_back(std::move(c));
    };
    // Each type alone, packed, aligned and then misaligned (crossing words).
    for (uint32_t t = 0; t < 8; ++t) {
        const uint32_t size = data_type_size(t);
        add(fmt::format("{} packed", kTypeNames[t]), {D3DVSD_STREAM(0), D3DVSD_REG(0, t), D3DVSD_END()}, {{0x1000, size}}, 0,
            32, 7 + t);
        add(fmt::format("{} misaligned", kTypeNames[t]), {D3DVSD_STREAM(0), D3DVSD_REG(3, t), D3DVSD_END()},
            {{0x1003, size + 3}}, 5, 32, 17 + t, Timing{3, 9, 0.5, 0.5, 1});
    }
    // Every byte value in every position of D3DCOLOR and UBYTE4 (the counting memory, stride 5).
    add("D3DCOLOR all bytes", {D3DVSD_STREAM(0), D3DVSD_REG(5, D3DVSDT_D3DCOLOR), D3DVSD_END()}, {{0, 5}}, 0, 256, 0);
    add("UBYTE4 all bytes", {D3DVSD_STREAM(0), D3DVSD_REG(6, D3DVSDT_UBYTE4), D3DVSD_END()}, {{0, 5}}, 0, 256, 0);
    add("SHORT4 counting", {D3DVSD_STREAM(0), D3DVSD_REG(1, D3DVSDT_SHORT4), D3DVSD_END()}, {{0, 9}}, 0, 256, 0);
    // Sixteen streams, one element each.
    {
        std::vector<uint32_t> t;
        std::vector<std::pair<uint32_t, uint32_t>> s;
        for (uint32_t k = 0; k < 16; ++k) {
            t.push_back(D3DVSD_STREAM(k));
            t.push_back(D3DVSD_REG(k, k % 8));
            s.emplace_back(0x10000 * (k + 1) + k, data_type_size(k % 8) + k);
        }
        t.push_back(D3DVSD_END());
        add("sixteen streams", t, s, 100, 24, 99, Timing{1, 30, 0.7, 0.7, 0.9});
    }
    // Register 16, a register loaded twice, a tessellator register, a SKIP.
    add("v16 twice and tess",
        {D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_REG(16, D3DVSDT_FLOAT2), D3DVSD_SKIP(2),
         D3DVSD_REG(0, D3DVSDT_SHORT4), D3DVSD_REG(7, D3DVSDT_FLOAT1), D3DVSD_STREAM_TESS(), D3DVSD_TESSUV(7), D3DVSD_END()},
        {{0x2001, 48}}, 0, 20, 5, Timing{2, 6, 0.8, 0.8, 1});
    // idx_flush on every other vertex of a packed stream (four vertices a word): each flushed
    // vertex starts in the held word and must read it again (the memory changed).
    add("flush", {D3DVSD_STREAM(0), D3DVSD_REG(2, D3DVSDT_FLOAT1), D3DVSD_END()}, {{0x3000, 4}}, 0, 24, 23,
        Timing{2, 5, 1, 1, 1});
    for (size_t i = 1; i < out.back().flush.size(); i += 2) out.back().flush[i] = 1;
    // The FIFOs full, the output almost never taken. Elements: four FLOAT1 in one word and every
    // vertex at the same address (stride 0), so all but the first are hits and the element FIFO's
    // 64 entries fill; responses: twenty FLOAT4 a vertex, each its own word, so the 32 words of
    // the response FIFO fill.
    add("element FIFO full",
        {D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT1), D3DVSD_REG(1, D3DVSDT_FLOAT1), D3DVSD_REG(2, D3DVSDT_FLOAT1),
         D3DVSD_REG(3, D3DVSDT_FLOAT1), D3DVSD_END()},
        {{0x5000, 0}}, 0, 40, 29, Timing{2, 9, 1, 0.05, 1});
    {
        std::vector<uint32_t> t = {D3DVSD_STREAM(1)};
        for (uint32_t k = 0; k < kMaxElems; ++k) t.push_back(D3DVSD_REG(k % 16, D3DVSDT_FLOAT4));
        t.push_back(D3DVSD_END());
        add("response FIFO full", t, {{0, 0}, {0x8000, 16 * kMaxElems}}, 0, 40, 31, Timing{2, 6, 1, 0.02, 1});
    }
    // Draws one after another: a reset between two vertices of the same word (the word held
    // before the reset must be read again: the memory changed), and after a reset a draw without
    // elements before one that starts in that word.
    add("reset", {D3DVSD_STREAM(0), D3DVSD_REG(1, D3DVSDT_FLOAT1), D3DVSD_END()}, {{0x6000, 4}}, 0, 3, 41, Timing{1, 4, 1, 1, 1});
    {
        Case d = out.back();
        d.reset_before = true;
        d.indices = {3, 1};
        d.flush = {0, 0};
        d.then.clear();
        out.back().then.push_back(d);
        Case m;
        m.tokens = {D3DVSD_STREAM(0), D3DVSD_SKIP(1), D3DVSD_END()};
        decode_case(m);
        m.reset_before = true;
        m.indices = {7, 8};
        m.flush = {0, 0};
        out.back().then.push_back(m);
        d.reset_before = false;
        d.indices = {2};
        d.flush = {0};
        out.back().then.push_back(d);
    }
    // No element: every register is zero.
    add("no element", {D3DVSD_STREAM(0), D3DVSD_SKIP(2), D3DVSD_END()}, {{0, 8}}, 0, 6, 3);
    // MAX_ELEMS elements (lenient: registers loaded again).
    {
        std::vector<uint32_t> t = {D3DVSD_STREAM(2)};
        for (uint32_t k = 0; k < kMaxElems; ++k) t.push_back(D3DVSD_REG(k % 16, (k * 3) % 8));
        t.push_back(D3DVSD_END());
        add("twenty elements", t, {{0, 0}, {0, 0}, {0x4007, 200}}, 3, 16, 11, Timing{1, 50, 0.6, 0.6, 1});
    }
    return out;
}

void apply_timing(const Options& o, Case& c) {
    if (o.lat_min >= 0) c.timing.lat_min = uint32_t(o.lat_min);
    if (o.lat_max >= 0) c.timing.lat_max = uint32_t(o.lat_max);
    if (c.timing.lat_max < c.timing.lat_min) c.timing.lat_max = c.timing.lat_min;
    if (o.req_ready >= 0) c.timing.req_ready = o.req_ready;
    if (o.out_ready >= 0) c.timing.out_ready = o.out_ready;
    if (o.idx_valid >= 0) c.timing.idx_valid = o.idx_valid;
}

// ---- Golden ----

std::vector<Vertex> golden(const Case& c) {
    std::vector<Vertex> out;
    out.reserve(vertex_count(c));
    const auto ver = versions(c);
    // Each stream's bytes of a vertex, from base + stride * index (mod 2^32): the golden fetch reads
    // them at its offsets (stride 0, vertex 0). Only the elements' bytes are filled (a long
    // layout's vertex is up to a megabyte, mostly skipped).
    thread_local std::array<std::vector<uint8_t>, 16> buf;
    for (const Case* d : draws(c)) {
        std::array<uint32_t, 16> need{};
        for (const auto& e : d->decl.events)
            if (e.kind == EventKind::Element)
                need[e.stream] = std::max(need[e.stream], e.value + decl::data_type_size(e.code));
        for (uint32_t s = 0; s < 16; ++s)
            if (buf[s].size() < need[s]) buf[s].resize(need[s]);
        const uint32_t loaded = vs::fetch_unit_loaded(d->decl);
        const auto elems = elements(d->decl);
        for (size_t i = 0; i < d->indices.size(); ++i) {
            const uint64_t seed = version_seed(c.mem_seed, ver[out.size()]);
            vs::Streams st{};
            for (uint32_t s = 0; s < 16; ++s)
                if (need[s]) st[s] = vs::StreamBinding{buf[s].data(), need[s], 0, true};
            for (const decl::Event* e : elems)
                mem_bytes(seed, d->base[e->stream] + d->stride[e->stream] * d->indices[i] + e->value,
                          decl::data_type_size(e->code), buf[e->stream].data() + e->value);
            const auto v = vs::fetch_vertex(d->decl, st, 0);
            Vertex o;
            o.index = d->indices[i];
            o.loaded = loaded;
            for (uint32_t r = 0; r < kRegs; ++r)
                for (int k = 0; k < 4; ++k) std::memcpy(&o.regs[4 * r + k], &v[r][k], 4);
            out.push_back(o);
        }
    }
    return out;
}

std::vector<Request> expected_requests(const Case& c) {
    std::vector<Request> out;
    uint32_t tag = 0;
    bool tag_valid = false;
    for (const Case* d : draws(c)) {
        const auto lay = layout_words(d->decl);
        if (d != &c && d->reset_before) tag_valid = false;
        for (size_t i = 0; i < d->indices.size(); ++i) {
            if (lay.empty() && d->flush[i]) tag_valid = false;  // a flushed vertex without elements forgets the word
            for (size_t k = 0; k < lay.size(); ++k) {
                const uint32_t e = lay[k], stream = e >> 8 & 15;
                const uint32_t a = d->base[stream] + d->stride[stream] * d->indices[i] + (e >> 12);
                const uint32_t w0 = a >> 4, w1 = (a + decl::data_type_size(e & 7) - 1) >> 4;
                const bool hit = tag_valid && !(k == 0 && d->flush[i]) && tag == w0;
                const uint32_t words = (w1 != w0 ? 2 : 1) - (hit ? 1 : 0);
                if (words) out.push_back({(hit ? w0 + 1 : w0) << 4, words});
                tag = w1;
                tag_valid = true;
            }
        }
    }
    return out;
}

std::string compare_requests(const std::vector<Request>& exp, const std::vector<Request>& act) {
    for (size_t k = 0; k < std::max(exp.size(), act.size()); ++k) {
        if (k < exp.size() && k < act.size() && exp[k] == act[k]) continue;
        auto text = [](const std::vector<Request>& v, size_t k) {
            return k < v.size() ? fmt::format("{} word{} at 0x{:08x}", v[k].words, v[k].words == 1 ? "" : "s", v[k].addr)
                                : std::string("none");
        };
        return fmt::format("memory request #{}: rtl/vertex_fetch.sv's one-word tag asks for {}, the RTL asked for {} "
                           "(the values were right; --no-check-traffic skips this)",
                           k, text(exp, k), text(act, k));
    }
    return {};
}

// ---- The RTL side ----

void run_case(Pins& rtl, const Case& c, SideResult& r, Coverage* cov) {
    r.vertices.clear();
    r.requests_made.clear();
    r.cycles = r.requests = r.words = 0;
    r.timed_out = r.assertion_failed = false;
    r.protocol.clear();
    // The vertices of every draw in order, each with its draw's layout bus.
    struct V {
        const Case* d;
        size_t i;
        size_t draw;
    };
    std::vector<V> vs;
    std::vector<std::vector<uint32_t>> lays;
    size_t most = 0;
    for (const Case* d : draws(c)) {
        lays.push_back(layout_words(d->decl));
        most = std::max(most, lays.back().size());
        for (size_t i = 0; i < d->indices.size(); ++i) vs.push_back({d, i, lays.size() - 1});
    }
    Inputs in;
    size_t presented = ~size_t(0);  // the draw whose layout and streams are on the pins
    bool changed = false;           // ... put there since the last set_inputs
    auto present = [&](size_t draw, const Case& d) {
        presented = draw;
        changed = true;
        in.lay_count = uint32_t(lays[draw].size());
        std::fill(std::begin(in.lay_elems), std::end(in.lay_elems), 0u);
        std::copy(lays[draw].begin(), lays[draw].end(), in.lay_elems);
        std::copy(d.base.begin(), d.base.end(), in.str_base);
        std::copy(d.stride.begin(), d.stride.end(), in.str_stride);
    };
    Rng rng(c.bp_seed);
    const auto thr = [](double p) { return p >= 1 ? 0xFFFFFFFFu : uint32_t(p * 4294967296.0); };
    const uint32_t p_idx = thr(c.timing.idx_valid), p_out = thr(c.timing.out_ready), p_req = thr(c.timing.req_ready);
    const auto coin = [](uint32_t draw, uint32_t p) { return p == 0xFFFFFFFFu || draw < p; };
    const size_t n = vs.size();
    const double slow = std::min({c.timing.idx_valid, c.timing.out_ready, c.timing.req_ready, 1.0});
    const uint64_t limit =
        uint64_t((1000 * lays.size() + double(n) * (most + 2) * (c.timing.lat_max + 8) * 4) / std::max(slow, 0.05));
    struct Pending {
        uint64_t due;
        uint32_t word;
        uint64_t seed;  // the memory as it was when the word was asked for
    };
    std::deque<Pending> pending;
    uint64_t last_due = 0;
    size_t k = 0;
    // A request belongs to the vertex taken last (in the cycle a vertex is taken, to that one):
    // it reads the memory of that vertex's version (tb: versions()).
    const auto ver = versions(c);
    uint64_t taken_seed = c.mem_seed;
    Outputs o;
    size_t reset_done = 0;  // the last draw whose reset was made
    uint64_t last_take = 0;  // the cycle the last index was accepted in
    for (uint64_t cyc = 0;; ++cyc) {
        if (k == n && r.vertices.size() >= n) break;
        if (cyc > limit) {
            r.timed_out = true;
            break;
        }
        // A draw that starts with a reset: once every vertex before it is out (and so every word
        // it asked for has come back), rst for two cycles.
        if (k < n && vs[k].i == 0 && vs[k].draw > reset_done && vs[k].d->reset_before && r.vertices.size() == k &&
            pending.empty()) {
            rtl.reset();
            r.cycles += 2;
            reset_done = vs[k].draw;
            presented = ~size_t(0);  // reset() drove the layout pins low
        }
        const bool waiting = k < n && vs[k].i == 0 && vs[k].d->reset_before && vs[k].draw > reset_done;
        const uint64_t d1 = rng.next(), d2 = rng.next();
        if (k < n && vs[k].draw != presented) present(vs[k].draw, *vs[k].d);
        // A stream's draw (gap >= 0): its first index exactly `gap` idle cycles after the last
        // index before it was accepted, then held until accepted; every other index as drawn.
        const bool gapped = k < n && vs[k].i == 0 && vs[k].draw > 0 && vs[k].d->gap >= 0;
        in.idx_valid = k < n && !waiting && (gapped ? cyc > last_take + uint64_t(vs[k].d->gap) : coin(uint32_t(d1), p_idx));
        in.idx_index = k < n ? vs[k].d->indices[vs[k].i] : 0;
        in.idx_flush = k < n && vs[k].d->flush[vs[k].i];
        in.out_ready = coin(uint32_t(d1 >> 32), p_out);
        in.mem_req_ready = coin(uint32_t(d2), p_req);
        in.mem_resp_valid = !pending.empty() && pending.front().due <= cyc;
        if (in.mem_resp_valid) {
            const uint8_t* w = words.get(pending.front().seed, pending.front().word);
            for (int q = 0; q < 4; ++q)
                in.mem_resp_data[q] = uint32_t(w[4 * q]) | uint32_t(w[4 * q + 1]) << 8 | uint32_t(w[4 * q + 2]) << 16 |
                                      uint32_t(w[4 * q + 3]) << 24;
        }
        rtl.set_inputs(in, changed);
        changed = false;
        rtl.outputs(o, false);
        if (o.out_valid && in.out_ready) {
            rtl.outputs(o, true);
            Vertex v;
            v.index = o.out_index;
            v.loaded = o.out_loaded;
            std::copy(std::begin(o.out_regs), std::end(o.out_regs), v.regs.begin());
            v.cycle = r.cycles;
            r.vertices.push_back(v);
        }
        if (o.mem_req_valid && in.mem_req_ready) {
            if (o.mem_req_words < 1 || o.mem_req_words > 2 || (o.mem_req_addr & 15)) {
                r.protocol = fmt::format("cycle {}: memory request of {} words at 0x{:08x} (1 or 2 words, 16-aligned)", cyc,
                                         o.mem_req_words, o.mem_req_addr);
                break;
            }
            const uint32_t span = c.timing.lat_max - c.timing.lat_min + 1;
            const uint64_t seed = in.idx_valid && o.idx_ready ? version_seed(c.mem_seed, ver[k]) : taken_seed;
            for (uint32_t w = 0; w < o.mem_req_words; ++w) {
                const uint64_t lat = c.timing.lat_min + uint32_t((d2 >> 32) % span);
                const uint64_t due = std::max(cyc + std::max<uint64_t>(lat, 1), last_due + 1);
                pending.push_back({due, (o.mem_req_addr >> 4) + w, seed});
                last_due = due;
                if (cov) ++cov->pressure[lat <= 1 ? 3 : lat < 10 ? 4 : 5];
            }
            ++r.requests;
            r.words += o.mem_req_words;
            r.requests_made.push_back({o.mem_req_addr, o.mem_req_words, r.cycles});
        }
        if (cov) {
            if (o.mem_req_valid && !in.mem_req_ready) ++cov->pressure[0];
            if (o.out_valid && !in.out_ready) ++cov->pressure[1];
            if (k < n && o.idx_ready && !in.idx_valid) ++cov->pressure[2];
        }
        if (in.mem_resp_valid) pending.pop_front();
        if (in.idx_valid && o.idx_ready) taken_seed = version_seed(c.mem_seed, ver[k++]), last_take = cyc;
        rtl.clock();
        ++r.cycles;
        if (r.vertices.size() > n) break;
    }
    if (rtl.broken()) {
        r.assertion_failed = true;
        rtl.clear_error();
    }
}

// ---- Compare ----

namespace {

// What loads register `reg` in the draw that vertex `vertex` (its position in the case) belongs
// to: the last ELEMENT's type ("FLOAT3"), "tessellator", or "not loaded".
std::string register_source(const Case& c, uint64_t vertex, int reg) {
    const Case* draw = &c;
    for (const Case* d : draws(c)) {
        draw = d;
        if (vertex < d->indices.size()) break;
        vertex -= d->indices.size();
    }
    std::string src = "not loaded";
    for (const auto& e : draw->decl.events)
        if (e.kind == EventKind::Element && e.reg == uint32_t(reg))
            src = decl::data_type_name(e.code) ? decl::data_type_name(e.code) : "?";
        else if (e.kind == EventKind::Tess && e.reg == uint32_t(reg))
            src = "tessellator";
    return src;
}

}  // namespace

std::string compare(const Case& c, const std::vector<Vertex>& exp, const SideResult& act, uint64_t* vertex, int* reg,
                    std::string* signature) {
    auto set = [&](uint64_t v, int r, const std::string& sig) {
        if (vertex) *vertex = v;
        if (reg) *reg = r;
        if (signature) *signature = sig;
    };
    const auto vec = [](const std::array<uint32_t, kRegs * 4>& a, uint32_t r) {
        return fmt::format("({:08x} {:08x} {:08x} {:08x})", a[4 * r], a[4 * r + 1], a[4 * r + 2], a[4 * r + 3]);
    };
    const size_t n = std::min(exp.size(), act.vertices.size());
    for (size_t i = 0; i < n; ++i) {
        const Vertex &e = exp[i], &a = act.vertices[i];
        if (e.index != a.index) {
            set(i, -1, "vertex index");
            return fmt::format("vertex #{}: index {} expected, the RTL gave {}", i, e.index, a.index);
        }
        for (uint32_t r = 0; r < kRegs; ++r) {
            bool same = true;
            for (int q = 0; q < 4; ++q) same = same && e.regs[4 * r + q] == a.regs[4 * r + q];
            if (!same) {
                set(i, int(r), "register value (" + register_source(c, i, int(r)) + ")");
                return fmt::format("vertex #{} (index {}), v{}: expected {} (golden fetch_vertex), RTL {}", i, e.index, r,
                                   vec(e.regs, r), vec(a.regs, r));
            }
        }
        if (e.loaded != a.loaded) {
            set(i, -1, "out_loaded");
            return fmt::format("vertex #{} (index {}): out_loaded 0x{:04x} expected, the RTL gave 0x{:04x}", i, e.index,
                               e.loaded, a.loaded);
        }
    }
    if (!act.protocol.empty()) {
        set(n, -1, "protocol");
        return "protocol: " + act.protocol;
    }
    if (act.assertion_failed) {
        set(n, -1, "assertion");
        return "an assertion of the RTL failed (the %Error above)";
    }
    if (act.vertices.size() != exp.size()) {
        set(n, -1, act.timed_out ? "timeout" : act.vertices.size() < exp.size() ? "missing vertex" : "extra vertex");
        return fmt::format("{} vertices expected, the RTL gave {}{}", exp.size(), act.vertices.size(),
                           act.timed_out ? " (timed out)" : "");
    }
    set(n, -1, "");
    return {};
}

std::string pin_signature(const Case& c, const std::vector<Vertex>& exp, const SideResult& act, bool traffic) {
    if (!act.protocol.empty()) return "protocol";
    if (act.assertion_failed) return "assertion";
    constexpr uint64_t kNever = ~uint64_t(0);
    // The first output vertex that differs, and its pins.
    std::string out;
    uint64_t out_cycle = kNever;
    const size_t n = std::min(exp.size(), act.vertices.size());
    for (size_t i = 0; i < n && out.empty(); ++i) {
        const Vertex &e = exp[i], &a = act.vertices[i];
        std::string pins;
        auto add = [&](const char* p) { pins += (pins.empty() ? "" : " + ") + std::string(p); };
        if (e.index != a.index) add("out_index");
        if (e.regs != a.regs) add("out_regs");
        if (e.loaded != a.loaded) add("out_loaded");
        if (!pins.empty()) out = pins, out_cycle = a.cycle;
    }
    // The first memory request that is not the expected one.
    std::string req;
    uint64_t req_cycle = kNever;
    if (traffic) {
        const std::vector<Request> want = expected_requests(c);
        const auto& made = act.requests_made;
        const size_t m = std::min(want.size(), made.size());
        size_t j = 0;
        while (j < m && want[j] == made[j]) ++j;
        if (j < m) {
            req = want[j].addr != made[j].addr ? "mem_req_addr" : "mem_req_words";
            req_cycle = made[j].cycle;
        } else if (made.size() > want.size()) {
            req = "extra memory request";
            req_cycle = made[j].cycle;
        } else if (made.size() < want.size()) {
            req = "missing memory request";  // never made: after everything the design did
        }
    }
    if (!req.empty() && req_cycle != kNever && req_cycle <= out_cycle) return req;
    if (!out.empty()) return out;
    if (act.vertices.size() != exp.size())
        return act.timed_out ? "timeout" : act.vertices.size() < exp.size() ? "missing vertex" : "extra vertex";
    return req;
}

// ---- Coverage ----

namespace {

void count_case(const Case& root, Coverage& cov) {
    uint32_t tag = 0;
    bool tag_valid = false;
    const auto ver = versions(root);
    size_t g = 0;  // the vertex's place in the whole case
    uint8_t b[16];
    bool elements_before = false;  // an element before this draw
    for (const Case* dp : draws(root)) {
        const Case& c = *dp;
        if (&c != &root) {
            ++cov.layout[7];
            if (c.reset_before) ++cov.layout[8], tag_valid = false;
        }
        for (const auto& e : c.decl.events) {
            if (e.kind == EventKind::Element && e.reg == 16) ++cov.layout[0];
        }
        uint32_t seen = 0;
        bool dup = false, tess = false, any = false;
        for (const auto& e : c.decl.events) {
            if (e.kind == EventKind::Element) {
                any = true;
                if (e.reg < 32 && (seen >> e.reg & 1)) dup = true;
                if (e.reg < 32) seen |= 1u << e.reg;
            }
            if (e.kind == EventKind::Tess && (seen >> e.reg & 1)) tess = true;
        }
        cov.layout[1] += tess;
        cov.layout[2] += dup;
        cov.layout[3] += !any;
        uint32_t nelem = 0, max_off = 0;
        for (const auto& e : c.decl.events)
            if (e.kind == EventKind::Element) ++nelem, max_off = std::max(max_off, e.value);
        cov.layout[4] += nelem >= 16;
        cov.layout[5] += max_off >= (1u << 18);
        for (const auto& e : c.decl.events)
            if (e.kind == EventKind::Element && (e.value & 3)) {
                ++cov.layout[6];
                break;
            }
        for (uint32_t s = 0; s < 16; ++s) {
            const uint32_t size = stream_size(c.decl, s);
            if (!size) continue;
            const uint32_t st = c.stride[s];
            if (st == size) ++cov.stride[0];
            if (st > size) ++cov.stride[1];
            if (st & 3) ++cov.stride[2];
            if (st >= 65536) ++cov.stride[3];
            for (uint32_t ix : c.indices)
                if (uint64_t(st) * ix + c.base[s] > 0xFFFFFFFFull) {
                    ++cov.stride[4];
                    break;
                }
        }
        const uint32_t last_tag = tag;
        const bool had_elements = elements_before;
        const auto elems = elements(c.decl);
        for (size_t i = 0; i < c.indices.size(); ++i, ++g) {
            if (!any && c.flush[i]) tag_valid = false;  // a flushed vertex without elements forgets the word
            bool first_elem = true;
            for (const decl::Event* ep : elems) {
                const decl::Event& e = *ep;
                const uint32_t a = addr_of(c, e, c.indices[i]);
                const uint32_t size = decl::data_type_size(e.code);
                ++cov.type_stream[e.code & 7][e.stream & 15];
                ++cov.start_byte[a & 15];
                const uint32_t w0 = a >> 4, w1 = (a + size - 1) >> 4;
                if (w0 != w1) ++cov.span2[e.code & 7];
                const bool hit = tag_valid && !(first_elem && c.flush[i]) && tag == w0;
                if (tag_valid && first_elem && c.flush[i] && tag == w0) ++cov.hit[2];  // flushed: read again
                // A later draw's first element in the word the last element before it ended in (a
                // reset between them: that word must be read again).
                if (&c != &root && i == 0 && first_elem && had_elements && w0 == last_tag) ++cov.layout[9];
                ++cov.hit[hit ? 0 : 1];
                tag = w1;
                tag_valid = true;
                elements_before = true;
                first_elem = false;
                mem_bytes(version_seed(root.mem_seed, ver[g]), a, size, b);
                if (is_float_type(e.code)) {
                    for (uint32_t q = 0; q < size / 4; ++q) {
                        uint32_t u;
                        std::memcpy(&u, b + 4 * q, 4);
                        const uint32_t ex = u >> 23 & 0xFF, man = u & 0x7FFFFF;
                        if (ex == 0xFF && man) ++cov.data[0];
                        if (u == 0x7F800000u) ++cov.data[1];
                        if (u == 0xFF800000u) ++cov.data[2];
                        if (ex == 0 && man) ++cov.data[3];
                        if (u == 0x80000000u) ++cov.data[4];
                    }
                } else if (e.code == decl::D3DVSDT_SHORT2 || e.code == decl::D3DVSDT_SHORT4) {
                    for (uint32_t q = 0; q < size / 2; ++q) {
                        const int16_t s = int16_t(b[2 * q] | b[2 * q + 1] << 8);
                        if (s == -32768) ++cov.data[5];
                        if (s == 32767) ++cov.data[6];
                        if (s == -1) ++cov.data[7];
                    }
                } else {
                    for (uint32_t q = 0; q < 4; ++q) {
                        const bool color = e.code == decl::D3DVSDT_D3DCOLOR;
                        if (b[q] == 0) ++cov.data[color ? 10 : 8];
                        if (b[q] == 255) ++cov.data[color ? 11 : 9];
                    }
                }
            }
        }
    }
}

}  // namespace

void Coverage::add(const Coverage& o) {
    for (int t = 0; t < 8; ++t)
        for (int s = 0; s < 16; ++s) type_stream[t][s] += o.type_stream[t][s];
    for (size_t i = 0; i < start_byte.size(); ++i) start_byte[i] += o.start_byte[i];
    for (size_t i = 0; i < span2.size(); ++i) span2[i] += o.span2[i];
    for (size_t i = 0; i < hit.size(); ++i) hit[i] += o.hit[i];
    for (size_t i = 0; i < stride.size(); ++i) stride[i] += o.stride[i];
    for (size_t i = 0; i < pressure.size(); ++i) pressure[i] += o.pressure[i];
    for (size_t i = 0; i < data.size(); ++i) data[i] += o.data[i];
    for (size_t i = 0; i < layout.size(); ++i) layout[i] += o.layout[i];
}

namespace {
const char* const kStrideNames[5] = {"stride = vertex size", "stride > vertex size", "stride not a multiple of 4",
                                     "stride >= 64 KiB", "base + stride x index wraps 2^32"};
const char* const kPressureNames[6] = {"memory request stalled (mem_req_ready low)", "output stalled (out_ready low)",
                                       "index idle (idx_valid low)", "memory latency 1", "memory latency 2-9",
                                       "memory latency >= 10"};
const char* const kDataNames[12] = {"float NaN", "float +inf", "float -inf", "float denormal", "float -0",
                                    "short -32768", "short 32767", "short -1", "UBYTE4 byte 0", "UBYTE4 byte 255",
                                    "D3DCOLOR byte 0", "D3DCOLOR byte 255"};
const char* const kLayoutNames[10] = {"register 16 (fetched, dropped)", "register zeroed by the tessellator stream",
                                     "register loaded twice (lenient)", "vertex without elements",
                                     "16 elements or more", "element offset of 2^18 bytes or more",
                                     "element offset not a multiple of 4 (a byte offset)",
                                     "layout and streams changed between two vertices (a later draw)",
                                     "reset between two vertices",
                                     "a later draw's first element in the word the one before it ended in"};
}  // namespace

std::vector<std::string> Coverage::holes() const {
    std::vector<std::string> h;
    for (int t = 0; t < 8; ++t)
        for (int s = 0; s < 16; ++s)
            if (!type_stream[t][s]) h.push_back(fmt::format("{} from stream {}", kTypeNames[t], s));
    for (int b = 0; b < 16; ++b)
        if (!start_byte[b]) h.push_back(fmt::format("element starting at byte {} of a word", b));
    for (int t = 0; t < 8; ++t)
        if (!span2[t] && decl::data_type_size(uint32_t(t)) > 1) h.push_back(fmt::format("{} across two words", kTypeNames[t]));
    if (!hit[0]) h.push_back("element starting in the held word");
    if (!hit[1]) h.push_back("element starting in a word read from memory");
    if (!hit[2]) h.push_back("flushed vertex starting in the held word (read again: memory changed)");
    for (int i = 0; i < 5; ++i)
        if (!stride[i]) h.push_back(kStrideNames[i]);
    for (int i = 0; i < 6; ++i)
        if (!pressure[i]) h.push_back(kPressureNames[i]);
    for (int i = 0; i < 12; ++i)
        if (!data[i]) h.push_back(kDataNames[i]);
    for (int i = 0; i < 10; ++i)
        if (!layout[i]) h.push_back(kLayoutNames[i]);
    return h;
}

std::string Coverage::table() const {
    std::string s = "elements by type and stream:\n          ";
    for (int k = 0; k < 16; ++k) s += fmt::format(" {:>6}", fmt::format("s{}", k));
    s += "\n";
    for (int t = 0; t < 8; ++t) {
        s += fmt::format("  {:<8}", kTypeNames[t]);
        for (int k = 0; k < 16; ++k) s += fmt::format(" {:>6}", type_stream[t][k]);
        s += "\n";
    }
    s += "element start byte in its word:";
    for (int b = 0; b < 16; ++b) s += fmt::format(" {}", start_byte[b]);
    s += "\nelements across two words by type:";
    for (int t = 0; t < 8; ++t) s += fmt::format(" {}={}", kTypeNames[t], span2[t]);
    s += fmt::format("\nfirst word held / read / held but flushed: {} / {} / {}\n", hit[0], hit[1], hit[2]);
    for (int i = 0; i < 5; ++i) s += fmt::format("{}: {}\n", kStrideNames[i], stride[i]);
    for (int i = 0; i < 6; ++i) s += fmt::format("{}: {}\n", kPressureNames[i], pressure[i]);
    for (int i = 0; i < 12; ++i) s += fmt::format("{}: {}\n", kDataNames[i], data[i]);
    for (int i = 0; i < 10; ++i) s += fmt::format("{}: {}\n", kLayoutNames[i], layout[i]);
    return s;
}

// ---- Shrinking and reports ----

Case shrink(Case c, const std::function<bool(const Case&)>& fails) {
    auto try_case = [&](Case t) {
        if (!fails(t)) return false;
        c = std::move(t);
        return true;
    };
    // Whole draws: the first one dropped while a later one can take its place (the case keeps its
    // memory, timing and back-pressure; the new first draw starts from reset, so its gap and
    // reset go), then each later draw dropped, then its reset.
    while (!c.then.empty()) {
        Case t = c.then.front();
        t.then.assign(c.then.begin() + 1, c.then.end());
        t.reset_before = false;
        t.gap = -1;
        t.mem_seed = c.mem_seed;
        t.timing = c.timing;
        t.bp_seed = c.bp_seed;
        t.seed = c.seed;
        t.index = c.index;
        t.origin = c.origin;
        if (!try_case(std::move(t))) break;
    }
    for (size_t k = c.then.size(); k-- > 0;) {
        Case t = c;
        t.then.erase(t.then.begin() + long(k));
        if (try_case(std::move(t))) continue;
        if (c.then[k].reset_before) {
            Case u = c;
            u.then[k].reset_before = false;
            try_case(std::move(u));
        }
    }
    // Draw d of t (0: the case itself).
    auto draw = [](Case& t, size_t d) -> Case& { return d == 0 ? t : t.then[d - 1]; };
    // Every step keeps the stimulus legal for the unit: a declaration decoded lenient, breaking no
    // lenient rule its draw did not break before shrinking (removing a STREAM token must not make
    // a REG before any STREAM, D7, which the generator never makes and the strict decoder rejects).
    std::vector<uint32_t> allowed;
    for (size_t d = 0; d <= c.then.size(); ++d) allowed.push_back(lenient_rules(draw(c, d).tokens));
    auto legal = [&](Case& x, size_t d) { return decode_case(x) && (lenient_rules(x.tokens) & ~allowed[d]) == 0; };
    for (size_t d = 0; d <= c.then.size(); ++d) {
        // Vertices: chunks, then one by one (a draw keeps one).
        for (size_t chunk = std::max<size_t>(draw(c, d).indices.size() / 2, 1); chunk >= 1; chunk /= 2) {
            for (size_t at = 0; at < draw(c, d).indices.size() && draw(c, d).indices.size() > 1;) {
                Case t = c;
                Case& x = draw(t, d);
                const size_t end = std::min(at + chunk, x.indices.size());
                x.indices.erase(x.indices.begin() + long(at), x.indices.begin() + long(end));
                x.flush.erase(x.flush.begin() + long(at), x.flush.begin() + long(end));
                if (x.indices.empty() || !try_case(std::move(t))) at += chunk;
            }
            if (chunk == 1) break;
        }
        // Declaration tokens (END stays): chunks, then one at a time, while it still decodes.
        for (size_t chunk = std::max<size_t>(draw(c, d).tokens.size() / 2, 1); chunk >= 1; chunk /= 2) {
            for (size_t at = 0; at + 1 < draw(c, d).tokens.size();) {
                Case t = c;
                Case& x = draw(t, d);
                const size_t end = std::min(at + chunk, x.tokens.size() - 1);
                x.tokens.erase(x.tokens.begin() + long(at), x.tokens.begin() + long(end));
                if (end == at || !legal(x, d) || !try_case(std::move(t))) at += chunk;
            }
            if (chunk == 1) break;
        }
        // Offsets back on their DWORDs.
        if (!draw(c, d).skew.empty()) {
            Case t = c;
            draw(t, d).skew.clear();
            if (legal(draw(t, d), d)) try_case(std::move(t));
        }
    }
    // Simpler timing, then no flush.
    {
        Case t = c;
        t.timing = Timing{};
        try_case(std::move(t));
    }
    for (size_t d = 0; d <= c.then.size(); ++d) {
        Case t = c;
        std::fill(draw(t, d).flush.begin(), draw(t, d).flush.end(), 0);
        try_case(std::move(t));
    }
    // Simpler streams: base 0, stride the declared size.
    for (size_t d = 0; d <= c.then.size(); ++d)
        for (uint32_t s = 0; s < 16; ++s) {
            if (!draw(c, d).base[s] && !draw(c, d).stride[s]) continue;
            Case t = c;
            draw(t, d).base[s] = 0;
            try_case(t);
            t = c;
            draw(t, d).stride[s] = stream_size(draw(t, d).decl, s);
            if (draw(t, d).stride[s] != draw(c, d).stride[s]) try_case(std::move(t));
        }
    return c;
}

namespace {

// One draw's declaration (runs of a token shown once with their length), streams and vertices.
std::string describe_draw(const Case& c) {
    std::string s = "  declaration:";
    for (size_t k = 0; k < c.tokens.size();) {
        size_t run = 1;
        while (k + run < c.tokens.size() && c.tokens[k + run] == c.tokens[k]) ++run;
        s += run > 2 ? fmt::format(" 0x{:08x} x {}", c.tokens[k], run) : fmt::format(" 0x{:08x}", c.tokens[k]);
        if (run <= 2) run = 1;
        k += run;
    }
    s += "\n";
    for (const auto& e : c.decl.events)
        if (e.kind == EventKind::Element || e.kind == EventKind::Tess) s += "    " + decl::to_string(e) + "\n";
    for (uint32_t st = 0; st < 16; ++st)
        if (stream_size(c.decl, st)) s += fmt::format("  stream {}: base 0x{:08x}, stride {}\n", st, c.base[st], c.stride[st]);
    if (!c.skew.empty()) {
        s += "  element offsets moved by (bytes, in element order):";
        for (uint8_t b : c.skew) s += fmt::format(" {}", b);
        s += "\n";
    }
    s += "  vertices:";
    for (size_t i = 0; i < c.indices.size(); ++i) s += fmt::format(" {}{}", c.indices[i], c.flush[i] ? "(flush)" : "");
    return s + "\n";
}

}  // namespace

std::string describe(const Case& c) {
    std::string s = describe_draw(c);
    for (size_t k = 0; k < c.then.size(); ++k)
        s += fmt::format("  then draw {}{}{}:\n", k + 1, c.then[k].reset_before ? ", after a reset" : "",
                         c.then[k].gap < 0   ? std::string()
                         : c.then[k].gap == 0 ? std::string(", back to back (no idle index cycle)")
                                              : fmt::format(", after {} idle index cycle{}", c.then[k].gap,
                                                            c.then[k].gap == 1 ? "" : "s")) +
             describe_draw(c.then[k]);
    s += fmt::format("  memory seed {}, latency {}..{}, mem_req_ready {}, out_ready {}, idx_valid {}\n", c.mem_seed,
                     c.timing.lat_min, c.timing.lat_max, c.timing.req_ready, c.timing.out_ready, c.timing.idx_valid);
    return s;
}

std::string replay_command(const Options& o, const Case& c) {
    std::string s = "vpsim xcheck --unit vertex_fetch";
    if (c.origin == "random")
        s += fmt::format(" --seed {} --only {} --no-directed", c.seed, c.index);
    else if (c.origin == "stream")
        s += fmt::format(" --seed {} --stream {} --only {} --no-directed", c.seed, o.stream, c.index);
    else
        s += " --random 0";
    if (o.lat_min >= 0) s += fmt::format(" --latency-min {}", o.lat_min);
    if (o.lat_max >= 0) s += fmt::format(" --latency-max {}", o.lat_max);
    if (o.req_ready >= 0) s += fmt::format(" --req-ready {}", o.req_ready);
    if (o.out_ready >= 0) s += fmt::format(" --out-ready {}", o.out_ready);
    if (o.idx_valid >= 0) s += fmt::format(" --idx-valid {}", o.idx_valid);
    if (!o.replay_args.empty()) s += " " + o.replay_args;
    return s;
}

// ---- Case files ----

namespace {

constexpr const char* kCaseFormat = "vpsim vertex fetch case 1";

nlohmann::ordered_json draw_json(const Case& d) {
    nlohmann::ordered_json x;
    x["declaration"] = d.tokens;
    if (!d.skew.empty()) x["offset_skew"] = d.skew;
    nlohmann::ordered_json st = nlohmann::ordered_json::array();
    for (uint32_t k = 0; k < 16; ++k) st.push_back({{"base", d.base[k]}, {"stride", d.stride[k]}});
    x["streams"] = st;
    x["vertices"] = d.indices;
    x["flush"] = d.flush;
    return x;
}

// A field of a case file, of type T; throws naming the file, the field and what it must be.
template <class T>
T field(const nlohmann::json& j, const std::string& name, const std::string& file, const std::string& at, const char* what) {
    if (!j.contains(name)) throw std::runtime_error(fmt::format("{}: {}\"{}\" is missing ({})", file, at, name, what));
    // Integers are unsigned and fit their field (JSON's -1 must not become 2^32-1).
    auto fits = [](const nlohmann::json& v, auto zero) {
        return v.is_number_unsigned() &&
               v.get<uint64_t>() <= uint64_t(std::numeric_limits<decltype(zero)>::max());
    };
    bool ok = true;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        ok = fits(j.at(name), T{});
    } else if constexpr (std::is_same_v<T, std::vector<uint32_t>> || std::is_same_v<T, std::vector<uint8_t>>) {
        ok = j.at(name).is_array();
        for (const auto& v : j.at(name)) ok = ok && fits(v, typename T::value_type{});
    }
    if (!ok) throw std::runtime_error(fmt::format("{}: {}\"{}\" must be {}", file, at, name, what));
    try {
        return j.at(name).get<T>();
    } catch (const nlohmann::json::exception&) {
        throw std::runtime_error(fmt::format("{}: {}\"{}\" must be {}", file, at, name, what));
    }
}

void read_draw(const nlohmann::json& j, Case& d, const std::string& file, const std::string& at) {
    d.tokens = field<std::vector<uint32_t>>(j, "declaration", file, at, "an array of 32-bit tokens");
    if (j.contains("offset_skew")) d.skew = field<std::vector<uint8_t>>(j, "offset_skew", file, at, "an array of bytes 0..3");
    for (uint8_t b : d.skew)
        if (b > 3) throw std::runtime_error(fmt::format("{}: {}\"offset_skew\": {} is not 0..3 bytes", file, at, b));
    const auto st = field<std::vector<nlohmann::json>>(j, "streams", file, at, "an array of 16 {base, stride}");
    if (st.size() != 16) throw std::runtime_error(fmt::format("{}: {}\"streams\" has {} entries, 16 expected", file, at, st.size()));
    for (uint32_t k = 0; k < 16; ++k) {
        const std::string sat = fmt::format("{}streams[{}].", at, k);
        d.base[k] = field<uint32_t>(st[k], "base", file, sat, "a 32-bit byte address");
        d.stride[k] = field<uint32_t>(st[k], "stride", file, sat, "a 32-bit stride in bytes");
    }
    d.indices = field<std::vector<uint32_t>>(j, "vertices", file, at, "an array of 32-bit vertex indices");
    d.flush = field<std::vector<uint8_t>>(j, "flush", file, at, "an array of 0/1 per vertex");
    if (d.flush.size() != d.indices.size())
        throw std::runtime_error(fmt::format("{}: {}\"flush\" has {} entries for {} vertices: one per vertex", file, at,
                                             d.flush.size(), d.indices.size()));
    if (d.indices.empty()) throw std::runtime_error(fmt::format("{}: {}\"vertices\" is empty: a draw has a vertex", file, at));
    if (!decode_case(d))
        throw std::runtime_error(fmt::format("{}: {}\"declaration\" does not decode (lenient), or its layout exceeds the bus "
                                             "({} elements, offsets below 2^20)",
                                             file, at, kMaxElems));
}

}  // namespace

nlohmann::ordered_json case_json(const Case& c) {
    nlohmann::ordered_json j;
    j["origin"] = c.origin;
    j["seed"] = c.seed;
    j["index"] = c.index;
    j.update(draw_json(c));
    j["memory_seed"] = c.mem_seed;
    j["latency"] = {c.timing.lat_min, c.timing.lat_max};
    j["req_ready"] = c.timing.req_ready;
    j["out_ready"] = c.timing.out_ready;
    j["idx_valid"] = c.timing.idx_valid;
    j["bp_seed"] = c.bp_seed;
    if (!c.then.empty()) {  // later draws
        nlohmann::ordered_json t = nlohmann::ordered_json::array();
        for (const auto& d : c.then) {
            nlohmann::ordered_json x;
            x["reset_before"] = d.reset_before;
            if (d.gap >= 0) x["gap"] = d.gap;  // a stream's draw
            x.update(draw_json(d));
            t.push_back(x);
        }
        j["then"] = t;
    }
    return j;
}

std::string case_file_text(const Case& c, const std::string& replay, const std::string& found_by, const std::string& what) {
    nlohmann::ordered_json j;
    j["format"] = kCaseFormat;
    j["replay"] = replay;
    j["found_by"] = found_by;
    j["first_difference"] = what;
    j.update(case_json(c));
    return j.dump(2) + "\n";
}

Case read_case(const std::string& file) {
    std::string text, why;
    if (!read_input_file(file, text, why)) throw std::runtime_error(file + ": " + why);
    const nlohmann::json j = parse_json_file(text, file);
    if (!j.is_object() || !j.contains("format") || j["format"] != kCaseFormat)
        throw std::runtime_error(fmt::format("{}: not a vertex fetch case file (\"format\": \"{}\" expected)", file, kCaseFormat));
    Case c;
    c.origin = "case file " + file;
    c.seed = field<uint64_t>(j, "seed", file, "", "an unsigned integer");
    c.index = field<uint64_t>(j, "index", file, "", "an unsigned integer");
    read_draw(j, c, file, "");
    c.mem_seed = field<uint64_t>(j, "memory_seed", file, "", "an unsigned 64-bit integer");
    c.bp_seed = field<uint64_t>(j, "bp_seed", file, "", "an unsigned 64-bit integer");
    const auto lat = field<std::vector<uint32_t>>(j, "latency", file, "", "[min, max] in cycles");
    if (lat.size() != 2 || lat[0] < 1 || lat[1] < lat[0])
        throw std::runtime_error(fmt::format("{}: \"latency\" must be [min, max] with 1 <= min <= max", file));
    c.timing.lat_min = lat[0];
    c.timing.lat_max = lat[1];
    for (auto [name, p] : {std::pair{"req_ready", &c.timing.req_ready}, std::pair{"out_ready", &c.timing.out_ready},
                           std::pair{"idx_valid", &c.timing.idx_valid}}) {
        *p = field<double>(j, name, file, "", "a probability");
        if (!(*p > 0 && *p <= 1)) throw std::runtime_error(fmt::format("{}: \"{}\" = {} must be in (0, 1]", file, name, *p));
    }
    if (j.contains("then")) {
        const auto then = field<std::vector<nlohmann::json>>(j, "then", file, "", "an array of later draws");
        for (size_t k = 0; k < then.size(); ++k) {
            Case d;
            const std::string at = fmt::format("then[{}].", k);
            d.reset_before = field<bool>(then[k], "reset_before", file, at, "true or false");
            if (then[k].contains("gap"))
                d.gap = int(field<uint32_t>(then[k], "gap", file, at, "idle index cycles before the draw (0 .. 1000000)"));
            if (d.gap > 1000000)
                throw std::runtime_error(fmt::format("{}: {}\"gap\" = {}: at most 1000000 idle cycles", file, at, d.gap));
            read_draw(then[k], d, file, at);
            c.then.push_back(std::move(d));
        }
    }
    return c;
}

namespace {

bool from_case_file(const Case& c) { return c.origin.rfind("case file ", 0) == 0; }

// A case's part of an output file's name: random case or stream I of seed S, a replayed case
// file's stem, or the directed case's name; every character but letters, digits and '-' as '-'.
std::string file_tag(const Case& c) {
    std::string t = c.origin == "random"   ? fmt::format("seed{}-case{}", c.seed, c.index)
                    : c.origin == "stream" ? fmt::format("seed{}-stream{}", c.seed, c.index)
                    : from_case_file(c)    ? std::filesystem::path(c.origin.substr(10)).stem().string()
                                           : c.origin;
    for (char& ch : t)
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-') ch = '-';
    return t;
}

// The shrunk case of `m` into o.mismatch_dir (created when needed); the file's name, or "" with
// the reason on stderr when it cannot be written (the report still has the case).
std::string write_shrunk(const Options& o, const Mismatch& m) {
    std::string name = file_tag(m.c);
    if (!from_case_file(m.c))
        name = "vf-" + name;
    else if (name.size() < 7 || name.compare(name.size() - 7, 7, "-shrunk") != 0)  // a replayed file: its name once, not nested
        name += "-shrunk";
    name += ".json";
    const std::string path = (std::filesystem::path(o.mismatch_dir) / name).string();
    try {
        std::filesystem::create_directories(o.mismatch_dir);
        // o.replay_args is already a command line's words (the design's options).
        const std::string replay = ReplayCommand({"vpsim", "xcheck", "--unit", "vertex_fetch", "--case", path}).str() +
                                   (o.replay_args.empty() ? "" : " " + o.replay_args);
        write_file_atomic(path, case_file_text(m.shrunk, replay, m.replay, m.shrunk_what));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim xcheck: %s: the shrunk case is not written: %s\n", path.c_str(), e.what());
        return "";
    }
    return path;
}

}  // namespace

// ---- User bins, the gate, waveforms ----

bool counts_holes(const Options& o) {
    return o.gate == 1 || (o.only < 0 && o.case_file.empty() && o.directed && !o.first_mismatch);
}

bool gated(const Options& o) { return o.gate == 1 || (o.gate == -1 && counts_holes(o)); }

std::vector<Exclusion> unreachable_bins(const Options& o) {
    // The built-in bins hold at every parameter value a design with the contract's ports can have
    // (MAX_ELEMS is fixed by lay_elems' width; ELEM_DEPTH and RESP_DEPTH change timing only). The
    // layout bus carries an element's byte offset in 20 bits (lay_elems[31:12]): a fetch bin whose
    // offsets all lie at 2^20 or above cannot be hit.
    if (!o.user_bins) return {};
    return user_exclusions(*o.user_bins, [](const UserBin& b) {
        return b.on_fetch && b.offset.lo >= int64_t(1) << 20
                   ? std::string("the layout bus carries element offsets below 2^20 (lay_elems[31:12])")
                   : std::string();
    });
}

void fetch_events(const Case& c, std::vector<FetchEvent>& out) {
    out.clear();
    for (const Case* d : draws(c)) {
        const auto el = elements(d->decl);
        for (size_t i = 0; i < d->indices.size(); ++i)
            for (const decl::Event* e : el)
                out.push_back(FetchEvent{e->code, e->stream, e->value, e->reg, d->indices[i], i < d->flush.size() && d->flush[i] != 0});
    }
}

void count_user(const UserCoverageSpec& spec, const Case& c, UserCoverage& u) {
    thread_local std::vector<FetchEvent> ev;
    fetch_events(c, ev);
    u.count_fetch(spec, ev);
    for (const Case* d : draws(c)) u.count(spec, d->tokens, d->decl.events, true);
}

namespace {

// --wave-on-fail: the shrunk case of `m` once more on the design built with tracing, into
// wave_dir/vf-fail-<where>.vcd; the reason on stderr when it cannot be written.
void write_wave(const Options& o, Mismatch& m) {
    const std::string f = (std::filesystem::path(o.wave_dir) / ("vf-fail-" + file_tag(m.c) + ".vcd")).string();
    try {
        const Case& c = m.shrunk.indices.empty() ? m.c : m.shrunk;
        {
            std::unique_ptr<Pins> w = o.wave_rtl();
            if (!w->trace_open(f)) throw std::runtime_error("the traced design cannot open " + f);
            w->reset();
            SideResult res;
            run_case(*w, c, res, nullptr);
            m.wave_cycles = res.cycles;
        }  // closes the file
        m.wave = f;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "  no waveform: %s\n", e.what());
    }
}

}  // namespace

// ---- The run ----

namespace {

std::atomic<int> checker_ids{0};

struct Checker {
    std::unique_ptr<Pins> rtl;
    std::vector<Vertex> exp;  // the last case's golden vertices
    SideResult res;
    std::string coverage_file;
    bool traffic;
    explicit Checker(const Options& o) : rtl(o.rtl ? o.rtl() : builtin_vertex_fetch()), traffic(o.check_traffic) {
        if (!o.coverage_file.empty()) coverage_file = fmt::format("{}.{}", o.coverage_file, checker_ids++);
    }
    ~Checker() {
        if (!coverage_file.empty()) rtl->write_coverage(coverage_file);
    }
    // The case from reset; "" when it passes.
    std::string check(const Case& c, Coverage* cov, uint64_t* vertex = nullptr, int* reg = nullptr,
                      std::string* signature = nullptr) {
        rtl->make_current();  // this thread runs this design only (a compare when it is current already)
        rtl->reset();
        exp = golden(c);
        run_case(*rtl, c, res, cov);
        std::string what = compare(c, exp, res, vertex, reg, signature);
        if (what.empty() && traffic) {
            what = compare_requests(expected_requests(c), res.requests_made);
            if (signature && !what.empty()) *signature = "memory request";
        }
        return what;
    }
};

// Where a case comes from, for the triage and the JUnit report.
std::string where_of(const Case& c) {
    if (c.origin == "stream") return fmt::format("stream {} of --seed {} ({} draws)", c.index, c.seed, 1 + c.then.size());
    return c.origin == "random" ? fmt::format("random case {} of --seed {}", c.index, c.seed) : c.origin;
}

uint64_t elements_of(const Case& c) {
    uint64_t n = 0;
    for (const auto& e : c.decl.events) n += e.kind == EventKind::Element;
    return n;
}

// The vertex fetch's adapter for the cross-check engine (tb/xcheck_engine.h): a case is one draw
// with its later draws (or a stream of draws), its sides the golden fetch and the design from
// reset, its counts the vertices, elements, cycles and coverage bins; a kept mismatch is shrunk
// (whole draws, vertices, declaration tokens), written as a case file and (the first) traced.
struct VfCounts {
    uint64_t vertices = 0, elements = 0, cycles = 0;
    Coverage cov;
    UserCoverage user;
    void add(const VfCounts& o) {
        vertices += o.vertices;
        elements += o.elements;
        cycles += o.cycles;
        cov.add(o.cov);
        user.add(o.user);
    }
};

struct VfSides {
    uint64_t vertex = 0;  // the first diverging vertex and register
    int reg = -1;
};

class VfUnit {
public:
    using Case = vf::Case;
    using Checker = vf::Checker;
    using Counts = VfCounts;
    using Sides = VfSides;

    VfUnit(const Options& o, Report& rep)
        : o_(o), rep_(rep), total_(o.stream ? (o.random + o.stream - 1) / o.stream : o.random),
          per_(o.stream ? std::max<uint64_t>(1, kChunk / o.stream) : kChunk) {}

    uint64_t total() const { return total_; }  // random cases, or streams
    uint64_t per_chunk() const { return per_; }

    std::unique_ptr<Checker> checker(int) { return std::make_unique<Checker>(o_); }
    void chunk_start(Checker&) {}  // Checker::check starts every case from reset
    void stimulus(Checker&, uint64_t i, Case& c) {
        c = o_.stream ? random_stream(o_.seed, i, o_.stream) : random_case(o_.seed, i);
        apply_timing(o_, c);
    }
    Verdict check(Checker& ck, const Case& c, VfCounts& n, VfSides* s) {
        count_case(c, n.cov);
        if (o_.user_bins) count_user(*o_.user_bins, c, n.user);
        VfSides at;
        Verdict v;
        v.text = ck.check(c, &n.cov, &at.vertex, &at.reg, &v.signature);
        n.vertices += vertex_count(c);
        for (const Case* d : draws(c)) n.elements += elements_of(*d) * d->indices.size();
        n.cycles += ck.res.cycles;
        if (v.empty()) return {};
        if (s) *s = at;
        return v;
    }
    std::string where(const Case& c) const { return where_of(c); }
    std::string replay(const Case& c) const { return replay_command(o_, c); }
    // Every mismatching case again, grouped by what differs first in time on the pins (pin_signature).
    void also_mismatch(const Case& c, const std::string& replay) {
        Checker& ck = spare();
        const std::string what = ck.check(c, nullptr);
        const std::string sig = pin_signature(c, ck.exp, ck.res, o_.check_traffic);
        pins_.add(sig.empty() ? "pins agree from reset" : sig, where_of(c), what, replay);
    }
    Triage& pins() { return pins_; }
    void keep(Kept<VfUnit>&& k, bool shrink);
    // One JUnit test case per chunk of random cases (or streams), one per named case.
    RecordKey record_of_random(uint64_t first) const {
        const uint64_t end = std::min(total_, first + per_);
        return o_.stream ? named("xcheck.vertex_fetch.stream",
                                 fmt::format("streams {}-{} (seed {}, {} draws each)", first, end - 1, o_.seed, o_.stream))
                         : named("xcheck.vertex_fetch.random", fmt::format("random cases {}-{} (seed {})", first, end - 1, o_.seed));
    }
    static RecordKey named(const std::string& classname, const std::string& name) {
        RecordKey r;
        r.key = classname + " " + name;
        r.proto.classname = classname;
        r.proto.name = name;
        r.proto.unit_word = "cases";
        return r;
    }

private:
    const Options& o_;
    Report& rep_;
    const uint64_t total_, per_;
    Checker& spare() {
        if (!shrinker_) shrinker_ = std::make_unique<Checker>(o_);
        return *shrinker_;
    }
    std::unique_ptr<Checker> shrinker_;  // the calling thread's: made at the first mismatch
    Triage pins_;
};

// A kept mismatch, in case order: as it is (--first-mismatch), or shrunk from reset keeping the
// first difference's signature (the same bug, not merely some difference), written as a case
// file, and the first one traced (--wave-on-fail).
void VfUnit::keep(Kept<VfUnit>&& k, bool shrink) {
    Mismatch m;
    m.c = std::move(k.c);
    m.what = std::move(k.verdict.text);
    m.signature = std::move(k.verdict.signature);
    m.vertex = k.sides.vertex;
    m.reg = k.sides.reg;
    m.replay = std::move(k.replay);
    if (shrink) {
        Checker& ck = spare();
        m.shrunk = vf::shrink(m.c, [&](const Case& t) {
            std::string sig;
            return !ck.check(t, nullptr, nullptr, nullptr, &sig).empty() && sig == m.signature;
        });
        m.shrunk_what = ck.check(m.shrunk, nullptr);
        if (!o_.mismatch_dir.empty()) m.written_to = write_shrunk(o_, m);
        if (rep_.failures.empty() && !o_.wave_dir.empty() && o_.wave_rtl) write_wave(o_, m);
    }
    rep_.failures.push_back(std::move(m));
}

}  // namespace

Report run(const Options& o) {
    Report rep;
    VfUnit unit(o, rep);
    EngineOptions eo;
    eo.random = o.only < 0 && o.case_file.empty() ? unit.total() : 0;
    eo.per_chunk = unit.per_chunk();
    eo.jobs = o.jobs;
    eo.first_mismatch = o.first_mismatch;
    eo.keep = o.show;
    eo.records = true;
    eo.progress = o.progress;
    eo.noun = o.stream ? "streams" : "cases";
    Engine<VfUnit> eng(unit, eo);
    {
        Checker ck(o);  // the named cases' design
        auto one = [&](Case c, const std::string& classname, const std::string& name) {
            apply_timing(o, c);
            eng.check_named(ck, c, VfUnit::named(classname, name));
        };
        if (!o.case_file.empty()) {
            one(read_case(o.case_file), "xcheck.vertex_fetch.file", o.case_file);
        } else if (o.only >= 0 && o.stream) {
            one(random_stream(o.seed, uint64_t(o.only), o.stream), "xcheck.vertex_fetch.stream",
                fmt::format("stream {} (seed {}, {} draws)", o.only, o.seed, o.stream));
        } else if (o.only >= 0) {
            one(random_case(o.seed, uint64_t(o.only)), "xcheck.vertex_fetch.random",
                fmt::format("random case {} (seed {})", o.only, o.seed));
        } else if (o.directed) {
            for (auto& c : directed_cases()) {
                const std::string name = c.origin;
                one(std::move(c), "xcheck.vertex_fetch.directed", name);
            }
        }
    }
    eng.check_random();
    const VfCounts& n = eng.counts();
    rep.cases = eng.cases();
    rep.vertices = n.vertices;
    rep.elements = n.elements;
    rep.cycles = n.cycles;
    rep.mismatches = eng.mismatches();
    rep.coverage = n.cov;
    rep.user = n.user;
    rep.records = std::move(eng.records());
    rep.seconds = eng.seconds();
    rep.groups = eng.triage().groups();
    rep.pin_groups = unit.pins().groups();
    if (counts_holes(o)) {
        rep.holes = rep.coverage.holes();
        if (o.user_bins) {
            rep.user.add(UserCoverage{});  // sized even when no case counted
            for (auto& h : rep.user.holes(*o.user_bins)) rep.holes.push_back(std::move(h));
        }
    }
    return rep;
}

}  // namespace vpsim::tb::vf
