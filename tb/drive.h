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

// Drives one array into `r` (cleared first; its event buffer is reused from array to array).
template <class Side>
void drive_array(Side& side, const std::vector<uint32_t>& tokens, bool lenient, uint64_t bp_seed, const Backpressure& bp,
                 SideResult& r) {
    r.events.clear();
    r.cycles = 0;
    r.timed_out = r.assertion_failed = false;
    Rng rng(bp_seed);
    const size_t n = tokens.size();
    const uint64_t limit = 64 + 8 * n + n * n / 4 + (bp.out_ready < 1 || bp.in_valid < 1 ? 40 * n : 0);
    const uint32_t p_in = uint32_t(bp.in_valid * 4294967295.0), p_out = uint32_t(bp.out_ready * 4294967295.0);
    size_t pos = 0;
    bool final_seen = false;
    while (!(pos == n && final_seen)) {
        const uint64_t draw = rng.next();  // one draw per cycle, whatever the state
        const bool in_valid = pos < n && uint32_t(draw) <= p_in;
        const bool out_ready = uint32_t(draw >> 32) <= p_out;
        side.set_inputs(in_valid, in_valid ? tokens[pos] : 0u, in_valid && pos + 1 == n, lenient, out_ready);
        if (r.trace) {
            CycleSample c;
            c.in_valid = in_valid;
            c.out_ready = out_ready;
            c.in_ready = side.in_ready();
            c.out_valid = side.out_valid();
            if (c.out_valid) c.event = side.event();
            r.trace->push_back(c);
        }
        if (side.out_valid() && out_ready) {
            r.events.push_back(side.event());
            final_seen = final_seen || is_final(r.events.back());
        }
        if (in_valid && side.in_ready()) ++pos;
        side.clock();
        if (++r.cycles > limit) {
            r.timed_out = true;
            break;
        }
    }
}

}  // namespace vpsim::tb
