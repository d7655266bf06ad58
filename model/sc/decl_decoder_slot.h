// The declaration decoder's slot in the pipeline: a unit like the others, whatever decoder sits
// behind its pins (model/sc/decl_decoder_pins.h: the SystemC model DeclDecoderUnit, or with
// `vpsim run --rtl decl_decoder` the Verilated RTL, which the run supplies as a variant of this
// unit type).
//
// Port `in` takes a declaration from the command front end (a latency-0 channel: the slot is
// stepped after the front end, in the same cycle); the slot then clocks the decoder in kernel
// time, one clock per cycle (UnitContext::sync), driving one token per clock and collecting the
// events; the first decode begins with a reset (no cycles). When END or ERROR has been taken
// (one more clock), the events go back on port `out`. The decoder's clock runs only while it
// decodes: the rest of the run it is idle (its statistics, group "decl_decoder", add up to the
// run's cycles).
#pragma once

#include "model/decl/decl_decoder.h"
#include "model/decl/decl_decoder_timing.h"
#include "model/sc/decl_decoder_pins.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/unit_registry.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vpsim::sc {

// A declaration to decode, and what the decoder gave for it.
struct DeclRequest {
    std::vector<uint32_t> tokens;
    std::string pointer;           // the scene command (for a mismatch's message)
    decl::DecoderOptions options;  // the golden decoder's options: the cycle contract's model runs with them
};
struct DeclResult {
    std::vector<decl::Event> events;  // ends with END or ERROR
    uint64_t tokens = 0;              // tokens the decoder accepted
};

// The decoder's parameters as a run gives them: `p` (the table's), with the scene's constant count
// (the device the scene describes, as the golden decoder sees it).
DeclDecoderParams decl_decoder_params(DeclDecoderParams p, const scene::Scene& s);

class DeclDecoderSlot : public TimedUnit, private OpenCycles {
public:
    // `decoder` builds the decoder behind the slot's pins; `sync(now)` brings the kernel's time
    // to cycle `now`.
    DeclDecoderSlot(const sc_core::sc_module_name& n, const DeclDecoderParams& p, const DeclDecoderImpl& decoder,
                    std::function<void(Cycle)> sync);

    Cycle step(Cycle now) override;
    void finish(Cycle end) override { decoder_->finish(end - clocks_); }
    bool busy_with_work() const override { return decoding_; }
    const StatGroup& stats() const override { return decoder_->stats(); }

private:
    // The decoder counts the cycles it is clocked; those gated off are added at the end (finish),
    // before it the gated cycles up to `now`, idle.
    void add_open(uint64_t now, CyclesAt& c) const override {
        if (now > clocks_) c.idle += now - clocks_;
    }
    Cycle decode_cycle(Cycle now);  // one clock of the decoder
    // Before a clock edge, with the inputs driven and settled: the decoder's outputs (in_ready,
    // out_valid, the output register) must be the cycle contract's model's (docs/decl-decoder.md,
    // model/decl/decl_decoder_timing.h); then the model takes the same edge. Whatever sits behind
    // the pins (the SystemC unit, the RTL, a user's RTL) must match it cycle for cycle.
    void check_beside(bool in_valid, uint32_t token, bool last);
    void clock_decoder();           // one rising and falling edge, in delta cycles

    DeclDecoderPins pins_;
    std::unique_ptr<DeclDecoderBlock> decoder_;
    std::function<void(Cycle)> sync_;
    In<DeclRequest> in_{*this, "in"};
    Out<DeclResult> out_{*this, "out"};
    bool reset_done_ = false;  // the decoder has been reset (at the first decode)
    bool decoding_ = false;
    bool final_seen_ = false;  // END or ERROR is on the decoder's output: one more clock takes it
    std::vector<uint32_t> tokens_;
    size_t token_pos_ = 0;
    DeclResult result_;
    uint64_t clocks_ = 0;
    std::string pointer_;
    std::optional<decl::DeclDecoderTiming> beside_;
    uint64_t decode_clocks_ = 0;  // clocks of the current decode
};

// A variant of the unit type "decl_decoder" with another decoder behind the pins (the RTL's).
UnitFactory decl_decoder_factory(DeclDecoderImpl decoder);

}  // namespace vpsim::sc
