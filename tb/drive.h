// The per-array handshake loop shared by the fast cross-check's two sides. A side offers:
//   set_inputs(in_valid, token, last, lenient, out_ready)  -- then its outputs settle
//   in_ready(), out_valid(), event()                       -- combinational outputs
//   clock()                                                -- the rising edge
#pragma once

#include "tb/xcheck.h"
#include "tb/decl_gen.h"

namespace vpsim::tb {

inline bool is_final(const decl::Event& e) {
    return e.kind == decl::EventKind::End || e.kind == decl::EventKind::Error;
}

// The cycles an array of n tokens may take before its run counts as timed out.
inline uint64_t cycle_limit(size_t n, const Backpressure& bp) {
    return 64 + 8 * n + n * n / 4 + (bp.out_ready < 1 || bp.in_valid < 1 ? 40 * n : 0);
}

// A probability as the threshold a 32-bit draw is compared with (draw <= threshold: true).
inline uint32_t draw_threshold(double p) { return uint32_t(p * 4294967295.0); }

// One cycle's pins as a trace records them (the side's outputs settled after set_inputs).
template <class Side>
CycleSample sample_pins(Side& side, bool in_valid, bool out_ready) {
    CycleSample c;
    c.in_valid = in_valid;
    c.out_ready = out_ready;
    c.in_ready = side.in_ready();
    c.out_valid = side.out_valid();
    if (c.out_valid) c.event = side.event();
    return c;
}

// Drives one array into `r` (cleared first; its event buffer is reused from array to array).
template <class Side>
void drive_array(Side& side, const std::vector<uint32_t>& tokens, bool lenient, uint64_t bp_seed, const Backpressure& bp,
                 SideResult& r) {
    r.events.clear();
    r.cycles = 0;
    r.timed_out = r.assertion_failed = false;
    Rng rng(bp_seed);
    const size_t n = tokens.size();
    const uint64_t limit = cycle_limit(n, bp);
    const uint32_t p_in = draw_threshold(bp.in_valid), p_out = draw_threshold(bp.out_ready);
    // The handshake's values are computed without branching on the draw (& not &&, a selected
    // index, pos advanced by a bool): the draws are random, so such branches are mispredicted.
    static constexpr uint32_t kNoToken = 0;
    const uint32_t* const toks = n ? tokens.data() : &kNoToken;
    size_t pos = 0;
    bool final_seen = false;
    while (!(pos == n && final_seen)) {
        const uint64_t draw = rng.next();  // one draw per cycle, whatever the state
        const bool in_valid = (pos < n) & (uint32_t(draw) <= p_in);
        const bool out_ready = uint32_t(draw >> 32) <= p_out;
        const uint32_t token = toks[pos < n ? pos : 0] & (0u - uint32_t(in_valid));  // 0 when not offered
        side.set_inputs(in_valid, token, in_valid & (pos + 1 == n), lenient, out_ready);
        if (r.trace) r.trace->push_back(sample_pins(side, in_valid, out_ready));
        if (side.out_valid() & out_ready) {
            r.events.push_back(side.event());
            final_seen = final_seen || is_final(r.events.back());
        }
        pos += size_t(in_valid & side.in_ready());
        side.clock();
        if (++r.cycles > limit) {
            r.timed_out = true;
            break;
        }
    }
}

// Drives a stream of arrays back to back (tb/xcheck_stream.h): array j's first token is offered
// `gap` cycles after array j-1's last token was accepted (0: on the very next cycle), the
// per-cycle draw deciding in_valid and out_ready as in drive_array (one draw per cycle). Each
// array's events go to r.arrays[j] (the events up to and including its final one), its `cycles`
// the stream cycle its final event left in (counted from 1). Arrays whose final event never came
// are marked timed out.
template <class Side>
void drive_stream(Side& side, const std::vector<StreamArray>& arrays, uint64_t bp_seed, const Backpressure& bp,
                  StreamResult& r) {
    r.arrays.assign(arrays.size(), SideResult());  // drive_array on one array: the same cycles (r.cycles)
    r.last_in.assign(arrays.size(), 0);
    r.cycles = 0;
    r.timed_out = r.assertion_failed = false;
    Rng rng(bp_seed);
    uint64_t limit = 0;
    for (const auto& a : arrays) {
        const size_t n = a.tokens.size();
        limit += cycle_limit(n, bp) + a.gap;
    }
    const uint32_t p_in = draw_threshold(bp.in_valid), p_out = draw_threshold(bp.out_ready);
    size_t in_arr = 0, pos = 0, out_arr = 0;  // the array being offered, its next token, the array receiving events
    uint32_t wait = arrays.empty() ? 0 : arrays[0].gap;
    while (out_arr < arrays.size() || in_arr < arrays.size()) {  // every token in, every final event out
        const uint64_t draw = rng.next();  // one draw per cycle, whatever the state
        const bool offering = in_arr < arrays.size() && wait == 0;
        const StreamArray& cur = arrays[in_arr < arrays.size() ? in_arr : arrays.size() - 1];
        const bool in_valid = offering && uint32_t(draw) <= p_in;
        const bool out_ready = uint32_t(draw >> 32) <= p_out;
        const bool last = in_valid && pos + 1 == cur.tokens.size();
        side.set_inputs(in_valid, in_valid ? cur.tokens[pos] : 0u, last, cur.lenient, out_ready);
        if (r.trace) r.trace->push_back(sample_pins(side, in_valid, out_ready));
        if (side.out_valid() && out_ready) {
            // An event after every array's final one is the last array's (an extra event).
            SideResult& o = r.arrays[out_arr < arrays.size() ? out_arr : arrays.size() - 1];
            o.events.push_back(side.event());
            if (out_arr < arrays.size() && is_final(o.events.back())) {
                o.cycles = r.cycles + 1;
                ++out_arr;
            }
        }
        if (!offering && in_arr < arrays.size()) --wait;
        if (in_valid && side.in_ready() && ++pos == cur.tokens.size()) {
            r.last_in[in_arr] = r.cycles;
            ++in_arr;
            pos = 0;
            wait = in_arr < arrays.size() ? arrays[in_arr].gap : 0;
        }
        side.clock();
        if (++r.cycles > limit) {
            r.timed_out = true;
            for (size_t j = out_arr; j < arrays.size(); ++j) r.arrays[j].timed_out = true;
            break;
        }
    }
}

}  // namespace vpsim::tb
