// Cycle behaviour of the declaration decoder (docs/decl-decoder.md, "The cycle contract"),
// kept apart from its function: every event comes from the golden DeclStepper; this class
// only decides when tokens are accepted and when events leave. Pure C++ (no SystemC), so the
// SystemC unit and the fast RTL cross-check share it.
#pragma once

#include "model/decl/decl_decoder.h"

namespace vpsim::decl {

class DeclDecoderTiming {
public:
    explicit DeclDecoderTiming(const DecoderOptions& opt = {}) : stepper_(with_no_diagnostics(opt)) {}

    void reset() {
        stepper_.reset();
        out_valid_ = pending_valid_ = false;
    }

    // Combinational outputs for the current cycle.
    bool in_ready(bool out_ready) const { return !pending_valid_ && (!out_valid_ || out_ready); }
    bool out_valid() const { return out_valid_; }
    const Event& out() const { return out_; }

    // The clock edge. Returns true when a token was accepted.
    bool tick(bool in_valid, uint32_t token, bool last, bool lenient, bool out_ready) {
        const bool fire_in = in_valid && in_ready(out_ready);
        const bool slot_free = !out_valid_ || out_ready;
        int n = 0;
        if (fire_in) {
            stepper_.set_lenient(lenient);
            n = stepper_.step(token, last, ev_);
        }
        if (slot_free) {
            if (n >= 1) {
                out_ = ev_[0];
                out_valid_ = true;
                if (n == 2) {
                    pending_ = ev_[1];
                    pending_valid_ = true;
                }
            } else if (pending_valid_) {
                out_ = pending_;
                out_valid_ = true;
                pending_valid_ = false;
            } else {
                out_valid_ = false;
            }
        }
        return fire_in;
    }

private:
    static DecoderOptions with_no_diagnostics(DecoderOptions o) {
        o.diagnostics = false;
        return o;
    }
    DeclStepper stepper_;
    Event ev_[2];
    Event out_, pending_;
    bool out_valid_ = false, pending_valid_ = false;
};

}  // namespace vpsim::decl
