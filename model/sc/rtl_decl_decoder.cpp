// The Verilated rtl/decl_decoder.sv in the loop (model/sc/rtl_decl_decoder.h).
#include "model/sc/rtl_decl_decoder.h"

#include "model/sc/decl_decoder_slot.h"

#include "Vdecl_decoder_sc.h"
#include "verilated.h"

#include <fmt/format.h>

#include <memory>
#include <stdexcept>

#ifndef VPSIM_DECL_RTL_CONST_COUNT
#error "VPSIM_DECL_RTL_CONST_COUNT comes with decl_rtl_sc (rtl/CMakeLists.txt)"
#endif

namespace vpsim::sc {

namespace {

// The Verilated decoder, a monitor that counts its statistics from the pins, and the Verilated
// context's error state: an RTL assertion does not abort the process but fails the run.
class RtlDeclDecoder : public DeclDecoderBlock {
public:
    RtlDeclDecoder(const std::string& name, const DeclDecoderParams& p, DeclDecoderPins& pins)
        : params_(p), ctx_(Verilated::defaultContextp()) {
        // This (simulation) thread's Verilated models and messages use the process's default
        // context, which outlives every run.
        Verilated::threadContextp(ctx_);
        fatal_was_ = ctx_->fatalOnError();
        ctx_->fatalOnError(false);
        ctx_->gotError(false);
        ctx_->gotFinish(false);
        ctx_->errorCount(0);
        monitor_ = std::make_unique<DeclDecoderMonitor>((name + "_monitor").c_str(), pins);
        rtl_ = std::make_unique<Vdecl_decoder_sc>(name.c_str());
        pins.bind(*rtl_);
    }
    ~RtlDeclDecoder() override {
        rtl_->final();
        ctx_->fatalOnError(fatal_was_);
    }
    const DeclDecoderParams& params() const override { return params_; }
    const StatGroup& stats() const override { return monitor_->stats().group; }
    void finish(uint64_t gated_cycles) override {
        monitor_->account_gated(gated_cycles);
        if (ctx_->gotError())
            throw std::logic_error("RTL decl_decoder: an assertion of rtl/decl_decoder.sv failed (the %Error above)");
    }

private:
    DeclDecoderParams params_;
    VerilatedContext* ctx_;
    bool fatal_was_ = true;
    std::unique_ptr<DeclDecoderMonitor> monitor_;
    std::unique_ptr<Vdecl_decoder_sc> rtl_;
};

}  // namespace

DeclDecoderImpl rtl_decl_decoder() {
    DeclDecoderImpl r;
    r.cannot_build = [](const DeclDecoderParams& p) -> std::string {
        const uint32_t cc = VPSIM_DECL_RTL_CONST_COUNT, ml = VPSIM_DECL_RTL_MAX_LENGTH;
        if (p.const_count != cc)
            return fmt::format("RTL decl_decoder: the scene's const_count is {}, but the Verilated RTL was built "
                               "with CONST_COUNT={} (VPSIM_DECL_RTL_CONST_COUNT, rtl/CMakeLists.txt)",
                               p.const_count, cc);
        if (p.max_length != ml)
            return fmt::format("RTL decl_decoder: decl_decoder.max_length is {}, but the Verilated RTL was built "
                               "with MAX_LENGTH={} (VPSIM_DECL_RTL_MAX_LENGTH, rtl/CMakeLists.txt)",
                               p.max_length, ml);
        return {};
    };
    r.make = [](const std::string& name, const DeclDecoderParams& p, DeclDecoderPins& pins) {
        return std::make_unique<RtlDeclDecoder>(name, p, pins);
    };
    return r;
}

UnitFactory rtl_decl_decoder_unit() { return decl_decoder_factory(rtl_decl_decoder()); }

}  // namespace vpsim::sc
