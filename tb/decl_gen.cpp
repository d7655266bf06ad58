#include "tb/decl_gen.h"

#include "model/decl/decl_tokens.h"

#include <algorithm>

namespace vpsim::tb {

using namespace vpsim::decl;

// ---------------------------------------------------------------------------------------
// RNG
namespace {

uint64_t splitmix64(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

}  // namespace

Rng::Rng(uint64_t seed) {
    uint64_t x = seed;
    for (auto& w : s) w = splitmix64(x);
}

// ---------------------------------------------------------------------------------------
// Token helpers
namespace {

constexpr uint32_t kAllRegs = 0x1FFFFu;  // v0..v16

inline uint32_t ttype(uint32_t t) { return t >> kTokenTypeShift; }
inline bool is_reg(uint32_t t) { return ttype(t) == 2 && !(t & kDataLoadTypeBit); }
inline bool is_stream(uint32_t t) { return ttype(t) == 1; }
inline bool is_tess_stream(uint32_t t) { return ttype(t) == 1 && (t & kStreamTessBit); }
inline uint32_t const_count_of(uint32_t t) { return (t & kConstCountMask) >> kConstCountShift; }
inline uint32_t ext_count_of(uint32_t t) { return (t & kExtCountMask) >> kExtCountShift; }

// Payload DWORDs that follow a header token (0 for tokens without payload).
inline uint32_t payload_of(uint32_t t) {
    switch (ttype(t)) {
    case 4: return 4 * const_count_of(t);
    case 5: return ext_count_of(t);
    default: return 0;
    }
}

uint32_t reserved_mask(uint32_t t) {
    switch (ttype(t)) {
    case 1: return (t & kStreamTessBit) ? kReservedStreamTess : kReservedStream;
    case 2: return (t & kDataLoadTypeBit) ? kReservedSkip : kReservedReg;
    case 3: return (t & kDataLoadTypeBit) ? kReservedTessUV : kReservedTessNormal;
    case 4: return kReservedConst;
    default: return 0;
    }
}

// A random non-zero subset of `mask` (often a single bit).
uint32_t random_bits(Rng& r, uint32_t mask) {
    if (!mask) return 0;
    if (r.chance(0.6)) {
        uint32_t bits[32];
        int n = 0;
        for (int b = 0; b < 32; ++b)
            if (mask >> b & 1u) bits[n++] = 1u << b;
        return bits[r.below(uint32_t(n))];
    }
    for (;;) {
        const uint32_t v = r.u32() & mask;
        if (v) return v;
    }
}

// A random set bit of `mask` (mask != 0).
uint32_t random_set_bit(Rng& r, uint32_t mask) {
    if (!mask) return 0;  // (as before: callers pass a non-zero mask)
    uint32_t k = r.below(uint32_t(__builtin_popcount(mask)));
    while (k--) mask &= mask - 1;  // drop the k lowest set bits
    return uint32_t(__builtin_ctz(mask));
}

// A well-formed token of the given type with random (sometimes out-of-range) fields.
uint32_t well_formed(Rng& r, uint32_t type) {
    switch (type) {
    case 0: return 0;
    case 1: return r.chance(0.2) ? D3DVSD_STREAM_TESS() : D3DVSD_STREAM(r.chance(0.6) ? r.below(3) : r.below(16));
    case 2:
        if (r.chance(0.25)) return D3DVSD_SKIP(r.below(16));
        return D3DVSD_REG(r.chance(0.6) ? r.below(4) : r.below(r.chance(0.9) ? 17 : 32), r.below(8));
    case 3:
        if (r.chance(0.5)) return D3DVSD_TESSUV(r.below(r.chance(0.5) ? 4 : 16));
        return D3DVSD_TESSNORMAL(r.below(r.chance(0.6) ? 4 : 16), r.below(r.chance(0.5) ? 4 : 16));
    case 4: {
        const uint32_t count = r.chance(0.7) ? r.below(3) : r.below(16);
        const uint32_t addr = r.chance(0.85) ? r.below(96) : r.below(128);
        return D3DVSD_CONST(addr, count);
    }
    case 5: return D3DVSD_EXT(r.chance(0.8) ? r.below(3) : r.below(32), r.chance(0.5) ? 0 : r.u32());
    case 6: return 0xC0000000u | (r.chance(0.5) ? 0 : r.below(256));
    default: return r.chance(0.7) ? kEndToken : (0xE0000000u | r.below(0x1FFFFFFFu));
    }
}

// Raw token: uniform type, low bits zero / well-formed / random, sometimes exactly END.
uint32_t raw_token(Rng& r) {
    const uint32_t type = r.below(8);
    const uint32_t k = r.below(100);
    if (k < 8) return kEndToken;
    if (k < 33) return type << kTokenTypeShift;
    if (k < 70) return well_formed(r, type);
    if (k < 85) return (type << kTokenTypeShift) | (1u << r.below(29));  // one low bit
    return (type << kTokenTypeShift) | (r.u32() & 0x1FFFFFFFu);
}

// A payload DWORD: random, with a good share of values that fool END/NOP-scanning parsers.
uint32_t payload_word(Rng& r) {
    static constexpr uint32_t kSpecial[] = {
        0xFFFFFFFFu, 0x00000000u, 0xFFFFFFFEu, 0x1FFFFFFFu, 0x3F800000u /*1.0f*/, 0xBF800000u /*-1.0f*/,
        0x3F000000u /*0.5f*/, 0x3E800000u /*0.25f*/, 0x40000000u /*2.0f*/, 0x80000000u /*-0.0f*/,
        0x7F800000u /*inf*/, 0xFF800000u /*-inf*/, 0x7FC00000u /*NaN*/, 0x7F7FFFFFu /*max*/,
        0x00000001u /*denormal*/, 0x437F0000u /*255.0f*/, 0x7FFFFFFFu, 0xE0000000u,
    };
    constexpr uint32_t kNumSpecial = sizeof(kSpecial) / sizeof(kSpecial[0]);
    const uint32_t k = r.below(16);
    if (k < 3) return kSpecial[k];            // 0xFFFFFFFF, 0, 0xFFFFFFFE: ~6% each
    if (k < 7) return kSpecial[r.below(kNumSpecial)];
    if (k < 9) return well_formed(r, r.below(8));  // looks like a token
    return r.u32();
}

}  // namespace

// Header positions of an array as the decoder sees them (payload DWORDs skipped), up to and
// including the first END reached, with the stream context before each header.
enum class Ctx : uint8_t { None, Mem, Tess };
struct Scan {
    std::vector<uint32_t> heads;
    std::vector<Ctx> ctx;  // context before heads[k]
    int end = -1;          // index of END, -1 if none reached
};

GenScratch::GenScratch() : scan(std::make_unique<Scan>()) {}
GenScratch::~GenScratch() = default;

namespace {

// Fills `s` (its buffers reused).
void scan(const std::vector<uint32_t>& t, Scan& s) {
    s.heads.clear();
    s.ctx.clear();
    s.end = -1;
    Ctx c = Ctx::None;
    size_t i = 0;
    while (i < t.size()) {
        s.heads.push_back(uint32_t(i));
        s.ctx.push_back(c);
        const uint32_t tok = t[i];
        if (tok == kEndToken) {
            s.end = int(i);
            break;
        }
        if (is_stream(tok)) c = is_tess_stream(tok) ? Ctx::Tess : Ctx::Mem;
        i += 1 + payload_of(tok);
    }
}

// ---------------------------------------------------------------------------------------
// gen_valid
struct ValidBuilder {
    Rng& r;
    const GenOptions& o;
    std::vector<uint32_t>& t;       // the array, built in place (cleared first)
    bool maxed = false;
    uint32_t free_regs = kAllRegs;  // registers not yet loaded (REG or tess output)
    uint32_t mem_loaded = 0;        // loaded by REG (TESSNORMAL inputs)
    uint32_t streams_used = 0;
    bool sel_open = false;          // a selector without a data definition yet

    ValidBuilder(Rng& rng, const GenOptions& opt, std::vector<uint32_t>& out) : r(rng), o(opt), t(out) { t.clear(); }

    void nops(double p) {
        while (r.chance(p)) t.push_back(D3DVSD_NOP());
    }

    uint32_t const_count_draw() {
        if (maxed && r.chance(0.5)) return 15;
        const uint32_t k = r.below(100);
        if (k < 3) return 0;  // warning only
        if (k < 60) return r.range(1, 2);
        if (k < 88) return r.range(3, 6);
        return r.range(7, 15);
    }

    void const_block(uint32_t count) {
        count = std::min(count, o.const_count);
        const uint32_t max_addr = std::min<uint32_t>(o.const_count - count, kConstAddressMask);
        uint32_t addr = r.below(max_addr + 1);
        if (r.chance(0.1)) addr = max_addr;  // up against the top (e.g. CONST(81, 15))
        t.push_back(D3DVSD_CONST(addr, count));
        for (uint32_t i = 0; i < 4 * count; ++i) t.push_back(payload_word(r));
    }

    void ext_block() {
        uint32_t count;
        if (maxed && r.chance(0.5))
            count = 31;
        else {
            const uint32_t k = r.below(100);
            count = k < 30 ? 0 : k < 85 ? r.range(1, 3) : r.range(4, 31);
        }
        const uint32_t info = r.chance(0.3) ? 0 : r.chance(0.2) ? kExtInfoMask : (r.u32() & kExtInfoMask);
        t.push_back(D3DVSD_EXT(count, info));
        for (uint32_t i = 0; i < count; ++i) t.push_back(payload_word(r));
    }

    // CONST/EXT blocks, only where rule 8 allows them.
    void blocks(double p) {
        if (sel_open) return;
        while (r.chance(p) && t.size() + 128 < o.max_length) {  // leave room for streams and END
            if (r.chance(0.75))
                const_block(const_count_draw());
            else
                ext_block();
            nops(0.1);
        }
    }

    // A free register for a REG: v0..v15, occasionally v16. Returns 32 when none is free.
    uint32_t pick_reg() {
        const uint32_t low = free_regs & 0xFFFFu;
        const bool r16 = free_regs >> 16 & 1u;
        if (r16 && (!low || r.chance(0.03))) return 16;
        if (!low) return 32;
        return random_set_bit(r, low);
    }

    uint32_t ndefs_draw() {
        if (r.chance(o.empty_selector_chance)) return 0;
        const uint32_t k = r.below(100);
        return k < 25 ? 1 : k < 50 ? 2 : k < 70 ? 3 : k < 82 ? 4 : k < 92 ? 5 : 6;
    }

    void mem_stream() {
        const uint32_t unused = ~streams_used & 0xFFFFu;
        if (!unused) return;
        const uint32_t n = (maxed && (unused >> 15 & 1u) && r.chance(0.5)) ? 15 : random_set_bit(r, unused);
        streams_used |= 1u << n;
        t.push_back(D3DVSD_STREAM(n));
        sel_open = true;
        nops(0.1);
        const uint32_t ndefs = ndefs_draw();
        for (uint32_t d = 0; d < ndefs; ++d) {
            if (d > 0) {
                nops(0.08);
                blocks(0.05);
            }
            const uint32_t reg = pick_reg();
            if (reg < 32 && r.chance(0.8)) {
                t.push_back(D3DVSD_REG(reg, r.below(8)));
                free_regs &= ~(1u << reg);
                mem_loaded |= 1u << reg;
            } else {
                t.push_back(D3DVSD_SKIP(maxed && r.chance(0.5) ? 15 : r.below(16)));
            }
            sel_open = false;
        }
    }

    void tess_stream() {
        t.push_back(D3DVSD_STREAM_TESS());
        streams_used |= 1u << 16;
        sel_open = true;
        nops(0.1);
        if (r.chance(o.empty_selector_chance)) return;
        const bool can_normal = (mem_loaded & 0xFFFFu) != 0;
        const uint32_t k = r.below(10);
        bool uv = true, normal = false;
        if (can_normal) {
            if (k < 3) uv = false, normal = true;
            else if (k < 6) normal = true;
        }
        const bool normal_first = r.chance(0.5);
        for (int pass = 0; pass < 2; ++pass) {
            const bool do_normal = (pass == 0) == normal_first;
            if (do_normal ? !normal : !uv) continue;
            const uint32_t low = free_regs & 0xFFFFu;
            if (!low) return;
            const uint32_t out = random_set_bit(r, low);
            if (pass == 1) nops(0.08);
            if (do_normal)
                t.push_back(D3DVSD_TESSNORMAL(random_set_bit(r, mem_loaded & 0xFFFFu), out));
            else
                t.push_back(D3DVSD_TESSUV(out));
            free_regs &= ~(1u << out);
            sel_open = false;
        }
    }

    void build() {
        maxed = r.chance(o.max_chance);
        nops(0.15);
        blocks(0.25);
        const uint32_t k = r.below(100);
        const uint32_t nmem = k < 45 ? 1 : k < 75 ? 2 : k < 90 ? 3 : 4;
        const bool tess = r.chance(o.tess_chance);
        const uint32_t tess_pos = r.below(nmem + 1);
        for (uint32_t i = 0; i <= nmem; ++i) {
            if (tess && i == tess_pos) {
                tess_stream();
                blocks(0.1);
            }
            if (i < nmem) {
                mem_stream();
                blocks(0.12);
            }
        }
        nops(0.1);

        if (r.chance(o.long_chance) && o.max_length >= 3000) {
            const uint32_t body = uint32_t(t.size()) + 1;  // with END
            const uint32_t target = r.range(std::max<uint32_t>(3000, body), o.max_length);
            uint32_t fill = target - body;
            std::vector<uint32_t> filler;
            std::swap(filler, t);
            while (fill >= 5 && o.const_count > 0) {
                uint32_t count = r.chance(0.8) ? 15 : r.range(1, 15);
                count = std::min({count, (fill - 1) / 4, o.const_count});
                const size_t before = t.size();
                const_block(count);
                fill -= uint32_t(t.size() - before);
            }
            while (fill-- > 0) t.push_back(D3DVSD_NOP());
            std::swap(filler, t);
            // The front (before any stream) always allows CONST; so does the end unless the
            // last selector is still open.
            if (sel_open || r.chance(0.5))
                t.insert(t.begin(), filler.begin(), filler.end());
            else
                t.insert(t.end(), filler.begin(), filler.end());
        }

        t.push_back(D3DVSD_END());
        if (r.chance(o.garbage_chance)) {
            const uint32_t n = r.range(1, 6);
            for (uint32_t i = 0; i < n; ++i) t.push_back(raw_token(r));
        }
    }
};

// ---------------------------------------------------------------------------------------
// mutate
enum Mutation {
    kReservedBits,
    kRegType,
    kRegHigh,
    kNopWithBits,
    kType6,
    kBadEnd,
    kTruncate,
    kDropEnd,
    kDupStream,
    kDupReg,
    kRegBeforeStream,
    kBlockAfterSelector,
    kConstRange,
    kTessMisplaced,
    kRegInTess,
    kTessBad,
    kSwap,
    kBitFlip,
    kRawReplace,
    kNumMutations
};

struct Mutator {
    Rng& r;
    const GenOptions& o;
    std::vector<uint32_t>& t;
    Scan& s;                  // scratch: the array's headers, rescanned by each mutation
    std::vector<uint32_t>& b; // scratch: an inserted block

    // A random header index satisfying pred, or -1.
    template <class Pred>
    int pick_head(const Scan& s, Pred pred) {
        uint32_t n = 0;
        for (size_t k = 0; k < s.heads.size(); ++k)
            if (pred(k)) ++n;
        if (!n) return -1;
        uint32_t j = r.below(n);
        for (size_t k = 0; k < s.heads.size(); ++k)
            if (pred(k) && j-- == 0) return int(k);
        return -1;
    }

    // A random header index (position for an insertion) satisfying pred; the array's end
    // counts as a position when there is no END (context = context after the last header).
    template <class Pred>
    size_t pick_insert(const Scan& s, Pred pred, bool& found) {
        const int k = pick_head(s, pred);
        found = k >= 0;
        return found ? s.heads[size_t(k)] : t.size();
    }

    void insert(size_t pos, std::initializer_list<uint32_t> v) { t.insert(t.begin() + long(pos), v.begin(), v.end()); }

    // A CONST or EXT block into b.
    void block() {
        b.clear();
        if (r.chance(0.6)) {
            const uint32_t count = r.chance(0.2) ? 0 : r.range(1, 3);
            b.push_back(D3DVSD_CONST(r.below(o.const_count - count + 1), count));
            for (uint32_t i = 0; i < 4 * count; ++i) b.push_back(payload_word(r));
        } else {
            const uint32_t count = r.below(4);
            b.push_back(D3DVSD_EXT(count, r.u32()));
            for (uint32_t i = 0; i < count; ++i) b.push_back(payload_word(r));
        }
    }

    uint32_t tess_token() {
        return r.chance(0.5) ? D3DVSD_TESSUV(r.below(16)) : D3DVSD_TESSNORMAL(r.below(16), r.below(16));
    }

    size_t nh = 0;  // the number of headers of the last scan

    uint32_t head(size_t k) const { return t[s.heads[k]]; }

    bool reserved_bits() {
        const int k = pick_head(s, [&](size_t i) { return reserved_mask(head(i)) != 0; });
        if (k < 0) return false;
        uint32_t& tok = t[s.heads[size_t(k)]];
        tok |= random_bits(r, reserved_mask(tok));
        return true;
    }

    bool reg_type() {
        const int k = pick_head(s, [&](size_t i) { return is_reg(head(i)); });
        if (k < 0) return false;
        uint32_t& tok = t[s.heads[size_t(k)]];
        tok = (tok & ~kDataTypeMask) | (r.range(8, 15) << kDataTypeShift);
        return true;
    }

    bool reg_high() {
        const int k = pick_head(s, [&](size_t i) { return is_reg(head(i)); });
        if (k < 0) return false;
        uint32_t& tok = t[s.heads[size_t(k)]];
        tok = (tok & ~kVertexRegMask) | r.range(17, 31);
        return true;
    }

    bool nop_with_bits() {
        const uint32_t bad = random_bits(r, 0x1FFFFFFFu);
        const int k = pick_head(s, [&](size_t i) { return head(i) == 0; });
        if (k >= 0 && r.chance(0.5))
            t[s.heads[size_t(k)]] = bad;
        else
            insert(nh ? s.heads[r.below(uint32_t(nh))] : 0, {bad});
        return true;
    }

    bool type6() {
        const uint32_t bad = 0xC0000000u | (r.chance(0.5) ? 0 : r.u32() & 0x1FFFFFFFu);
        if (nh && r.chance(0.5))
            t[s.heads[r.below(uint32_t(nh))]] = bad;
        else
            insert(nh ? s.heads[r.below(uint32_t(nh))] : 0, {bad});
        return true;
    }

    bool bad_end() {
        uint32_t bad;
        do bad = 0xE0000000u | (r.chance(0.5) ? random_bits(r, 0x1FFFFFFFu) : (r.u32() & 0x1FFFFFFFu));
        while (bad == kEndToken);
        if (s.end >= 0)
            t[size_t(s.end)] = bad;
        else if (nh)
            t[s.heads[r.below(uint32_t(nh))]] = bad;
        else
            return false;
        return true;
    }

    bool truncate() {
        if (t.size() < 2) return false;
        // Inside a payload (rule 13) half of the time when there is one.
        const int k = pick_head(s, [&](size_t i) { return payload_of(head(i)) > 0; });
        if (k >= 0 && r.chance(0.5)) {
            const size_t h = s.heads[size_t(k)];
            const size_t cut = h + 1 + r.below(payload_of(t[h]));  // keeps header .. part of payload
            if (cut < t.size()) {
                t.resize(cut);
                return true;
            }
        }
        t.resize(r.range(1, uint32_t(t.size() - 1)));
        return true;
    }

    bool drop_end() {
        if (s.end < 0) return false;
        t.erase(t.begin() + s.end);
        if (t.empty()) t.push_back(D3DVSD_NOP());
        return true;
    }

    bool dup_stream() {
        const int k = pick_head(s, [&](size_t i) { return is_stream(head(i)); });
        if (k < 0) return false;
        const uint32_t tok = head(size_t(k));
        bool found;
        const size_t pos = pick_insert(s, [&](size_t i) { return i > size_t(k); }, found);
        insert(pos, {tok});
        return true;
    }

    bool dup_reg() {
        const int k = pick_head(s, [&](size_t i) { return is_reg(head(i)); });
        if (k < 0) return false;
        const uint32_t reg = head(size_t(k)) & kVertexRegMask;
        const uint32_t tok = D3DVSD_REG(reg, r.chance(0.5) ? (head(size_t(k)) & kDataTypeMask) >> kDataTypeShift
                                                             : r.below(8));
        // Another REG takes the same register, or a copy is inserted later in a memory stream.
        const int other = pick_head(s, [&](size_t i) { return is_reg(head(i)) && i != size_t(k); });
        if (other >= 0 && r.chance(0.4)) {
            uint32_t& o2 = t[s.heads[size_t(other)]];
            o2 = (o2 & ~kVertexRegMask) | reg;
            return true;
        }
        bool found;
        size_t pos = pick_insert(s, [&](size_t i) { return i > size_t(k) && s.ctx[i] == Ctx::Mem; }, found);
        if (!found) pos = s.heads[size_t(k)] + 1;
        insert(pos, {tok});
        return true;
    }

    bool reg_before_stream() {
        size_t limit = t.size();
        for (size_t i = 0; i < nh; ++i)
            if (is_stream(head(i))) {
                limit = s.heads[i];
                break;
            }
        // Header positions up to and including the first STREAM.
        uint32_t npos = 0;
        for (size_t i = 0; i < nh && s.heads[i] <= limit; ++i) ++npos;
        const size_t pos = npos ? s.heads[r.below(npos)] : 0;
        const int mv = pick_head(s, [&](size_t i) { return ttype(head(i)) == 2 && s.heads[i] > limit; });
        if (mv >= 0 && r.chance(0.5)) {  // move an existing REG/SKIP
            const uint32_t tok = head(size_t(mv));
            t.erase(t.begin() + s.heads[size_t(mv)]);
            insert(pos, {tok});
        } else {
            insert(pos, {r.chance(0.75) ? D3DVSD_REG(r.below(17), r.below(8)) : D3DVSD_SKIP(r.below(16))});
        }
        return true;
    }

    bool block_after_selector() {
        const int k = pick_head(s, [&](size_t i) { return is_stream(head(i)); });
        if (k < 0) return false;
        size_t pos = s.heads[size_t(k)] + 1;
        if (r.chance(0.3))  // after the NOPs that follow the selector
            while (pos < t.size() && t[pos] == 0) ++pos;
        block();
        t.insert(t.begin() + long(pos), b.begin(), b.end());
        return true;
    }

    bool const_range() {
        const int k = pick_head(s, [&](size_t i) { return ttype(head(i)) == 4; });
        if (k >= 0 && r.chance(0.7)) {
            uint32_t& tok = t[s.heads[size_t(k)]];
            const uint32_t count = const_count_of(tok);
            if (count > o.const_count) return false;  // already out of range
            const uint32_t lo = o.const_count - count + 1;
            if (lo > kConstAddressMask) return false;
            const uint32_t addr = r.chance(0.5) ? lo : r.range(lo, kConstAddressMask);
            tok = (tok & ~kConstAddressMask) | addr;
            return true;
        }
        // A new out-of-range CONST where a CONST is otherwise allowed: the very front.
        const uint32_t count = r.range(1, 4);
        const uint32_t lo = o.const_count - count + 1;
        if (lo > kConstAddressMask) return false;
        b.assign(1, D3DVSD_CONST(r.range(lo, kConstAddressMask), count));
        for (uint32_t i = 0; i < 4 * count; ++i) b.push_back(payload_word(r));
        t.insert(t.begin(), b.begin(), b.end());
        return true;
    }

    bool tess_misplaced() {
        bool found;
        const Ctx want = r.chance(0.6) ? Ctx::Mem : Ctx::None;
        const size_t pos = pick_insert(s, [&](size_t i) { return s.ctx[i] == want; }, found);
        if (!found && want == Ctx::Mem) return false;
        insert(found ? pos : 0, {tess_token()});
        return true;
    }

    bool reg_in_tess() {
        const uint32_t tok = r.chance(0.7) ? D3DVSD_REG(r.below(17), r.below(8)) : D3DVSD_SKIP(r.below(16));
        bool found;
        const size_t pos = pick_insert(s, [&](size_t i) { return s.ctx[i] == Ctx::Tess; }, found);
        if (found) {
            insert(pos, {tok});
        } else {
            const size_t at = s.end >= 0 ? size_t(s.end) : t.size();
            insert(at, {D3DVSD_STREAM_TESS(), tok});
        }
        return true;
    }

    bool tess_bad() {
        const int k = pick_head(s, [&](size_t i) { return ttype(head(i)) == 3; });
        if (k < 0) {
            const uint32_t bad = r.chance(0.5)
                                     ? (D3DVSD_TESSUV(r.below(16)) & ~kDataTypeMask) | (r.below(16) << kDataTypeShift)
                                     : D3DVSD_TESSNORMAL(r.below(16), r.below(16));
            const int tess_head = pick_head(s, [&](size_t i) { return is_tess_stream(head(i)); });
            if (tess_head >= 0) {
                insert(s.heads[size_t(tess_head)] + 1, {bad});
            } else {
                const size_t at = s.end >= 0 ? size_t(s.end) : t.size();
                insert(at, {D3DVSD_STREAM_TESS(), bad});
            }
            return true;
        }
        uint32_t& tok = t[s.heads[size_t(k)]];
        const bool uv = tok & kDataLoadTypeBit;
        if (uv || r.chance(0.5)) {  // wrong type field
            const uint32_t good = uv ? D3DVSDT_FLOAT2 : D3DVSDT_FLOAT3;
            uint32_t type;
            do type = r.below(16);
            while (type == good);
            tok = (tok & ~kDataTypeMask) | (type << kDataTypeShift);
        } else {  // input register not loaded by a REG before it
            uint32_t loaded = 0;
            for (size_t i = 0; i < size_t(k); ++i)
                if (is_reg(head(i))) loaded |= 1u << (head(i) & kVertexRegMask);
            const uint32_t unloaded = ~loaded & 0xFFFFu;
            if (!unloaded) return false;
            tok = (tok & ~kVertexRegInMask) | (random_set_bit(r, unloaded) << kVertexRegInShift);
        }
        return true;
    }

    bool swap() {
        if (t.size() < 2) return false;
        const uint32_t a = r.below(uint32_t(t.size()));
        const uint32_t b = r.below(uint32_t(t.size()));
        if (t[a] == t[b]) return false;
        std::swap(t[a], t[b]);
        return true;
    }

    bool bit_flip() {
        t[r.below(uint32_t(t.size()))] ^= 1u << r.below(32);
        return true;
    }

    bool raw_replace() {
        const uint32_t v = raw_token(r);
        uint32_t& tok = nh && r.chance(0.7) ? t[s.heads[r.below(uint32_t(nh))]] : t[r.below(uint32_t(t.size()))];
        if (tok == v) return false;
        tok = v;
        return true;
    }

    // One mutation of the array; false when it does not apply to this array.
    bool apply(Mutation m) {
        scan(t, s);
        nh = s.heads.size();
        switch (m) {
        case kReservedBits: return reserved_bits();
        case kRegType: return reg_type();
        case kRegHigh: return reg_high();
        case kNopWithBits: return nop_with_bits();
        case kType6: return type6();
        case kBadEnd: return bad_end();
        case kTruncate: return truncate();
        case kDropEnd: return drop_end();
        case kDupStream: return dup_stream();
        case kDupReg: return dup_reg();
        case kRegBeforeStream: return reg_before_stream();
        case kBlockAfterSelector: return block_after_selector();
        case kConstRange: return const_range();
        case kTessMisplaced: return tess_misplaced();
        case kRegInTess: return reg_in_tess();
        case kTessBad: return tess_bad();
        case kSwap: return swap();
        case kBitFlip: return bit_flip();
        case kRawReplace: return raw_replace();
        case kNumMutations: break;
        }
        return false;
    }

    // The rare over-long array: the token at index max_length is reached before END.
    void overlong() {
        const uint32_t extra = r.range(1, 64);
        const uint32_t target = o.max_length + extra;  // total length
        scan(t, s);
        switch (r.below(3)) {
        case 0:  // END dropped, NOP run to the end
            if (s.end >= 0) t.resize(size_t(s.end));
            if (t.size() < target) t.resize(target, D3DVSD_NOP());
            break;
        case 1: {  // NOP run before END, END at or past max_length
            const size_t at = s.end >= 0 ? size_t(s.end) : t.size();
            if (t.size() < target) t.insert(t.begin() + long(at), target - t.size(), D3DVSD_NOP());
            break;
        }
        default: {  // big CONST blocks at the front: index max_length falls anywhere, often in a payload
            b.clear();
            while (b.size() + t.size() < target) {
                const uint32_t count = std::min<uint32_t>(15, o.const_count);
                b.push_back(D3DVSD_CONST(0, count));
                for (uint32_t i = 0; i < 4 * count; ++i) b.push_back(r.u32());
                if (count == 0) b.push_back(D3DVSD_NOP());
            }
            t.insert(t.begin(), b.begin(), b.end());
            break;
        }
        }
    }
};

}  // namespace

void gen_valid(Rng& rng, std::vector<uint32_t>& out, const GenOptions& opt) { ValidBuilder(rng, opt, out).build(); }

std::vector<uint32_t> gen_valid(Rng& rng, const GenOptions& opt) {
    std::vector<uint32_t> t;
    gen_valid(rng, t, opt);
    return t;
}

void mutate(Rng& rng, std::vector<uint32_t>& valid, GenScratch& scratch, const GenOptions& opt) {
    std::vector<uint32_t>& original = scratch.original;
    original.assign(valid.begin(), valid.end());
    if (valid.empty()) valid.push_back(D3DVSD_NOP());
    Mutator m{rng, opt, valid, *scratch.scan, scratch.block};
    if (rng.chance(1.0 / 2000)) {
        m.overlong();
        return;
    }
    const uint32_t n = rng.range(1, 3);
    uint32_t done = 0;
    for (int attempt = 0; attempt < 64 && (done < n || valid == original); ++attempt)
        if (m.apply(Mutation(rng.below(kNumMutations)))) ++done;
    if (valid.empty()) valid.push_back(D3DVSD_NOP());
    if (valid == original) valid.push_back(0xC0000000u);  // cannot happen in practice; never return the input
}

std::vector<uint32_t> mutate(Rng& rng, std::vector<uint32_t> valid, const GenOptions& opt) {
    GenScratch scratch;
    mutate(rng, valid, scratch, opt);
    return valid;
}

void gen_raw(Rng& rng, std::vector<uint32_t>& t) {
    const uint32_t k = rng.below(100);
    const uint32_t len = k < 45 ? rng.range(1, 8) : k < 85 ? rng.range(9, 24) : rng.range(25, 48);
    t.resize(len);
    for (auto& w : t) w = raw_token(rng);
    if (rng.chance(0.5)) t.back() = kEndToken;
}

std::vector<uint32_t> gen_raw(Rng& rng) {
    std::vector<uint32_t> t;
    gen_raw(rng, t);
    return t;
}

void gen_mixed(Rng& rng, bool& lenient, std::vector<uint32_t>& out, GenScratch& scratch, const GenOptions& opt) {
    lenient = rng.chance(0.3);
    const uint32_t k = rng.below(10);
    if (k < 8) {
        gen_valid(rng, out, opt);
        if (k >= 4) mutate(rng, out, scratch, opt);
    } else {
        gen_raw(rng, out);
    }
}

std::vector<uint32_t> gen_mixed(Rng& rng, bool& lenient, const GenOptions& opt) {
    std::vector<uint32_t> t;
    GenScratch scratch;
    gen_mixed(rng, lenient, t, scratch, opt);
    return t;
}

}  // namespace vpsim::tb
