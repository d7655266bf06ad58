#include "tb/rtl_in_loop.h"

#include "model/sc/decl_decoder_pins.h"
#include "model/sc/decl_decoder_slot.h"
#include "tb/vf_loop.h"

#include "Vdecl_decoder_sc.h"
#include "verilated.h"

#include <fmt/format.h>

#include <memory>
#include <stdexcept>

#ifndef VPSIM_DECL_RTL_CONST_COUNT
#error "VPSIM_DECL_RTL_CONST_COUNT comes with decl_rtl_sc (rtl/CMakeLists.txt)"
#endif

namespace vpsim::tb {

namespace {

// The Verilated decoder, a monitor that counts its statistics from the pins, and the Verilated
// context's error state: an RTL assertion does not abort the process but fails the run.
class RtlDeclDecoder : public sc::DeclDecoderBlock {
public:
    RtlDeclDecoder(const std::string& name, const sc::DeclDecoderParams& p, sc::DeclDecoderPins& pins)
        : params_(p), ctx_(Verilated::defaultContextp()) {
        // This (simulation) thread's Verilated models and messages use the process's default
        // context, which outlives every run.
        Verilated::threadContextp(ctx_);
        fatal_was_ = ctx_->fatalOnError();
        ctx_->fatalOnError(false);
        ctx_->gotError(false);
        ctx_->gotFinish(false);
        ctx_->errorCount(0);
        monitor_ = std::make_unique<sc::DeclDecoderMonitor>((name + "_monitor").c_str(), pins);
        rtl_ = std::make_unique<Vdecl_decoder_sc>(name.c_str());
        pins.bind(*rtl_);
    }
    ~RtlDeclDecoder() override {
        rtl_->final();
        ctx_->fatalOnError(fatal_was_);
    }
    const sc::DeclDecoderParams& params() const override { return params_; }
    const StatGroup& stats() const override { return monitor_->stats().group; }
    void finish(uint64_t gated_cycles) override {
        monitor_->account_gated(gated_cycles);
        if (ctx_->gotError())
            throw std::logic_error("RTL decl_decoder: an assertion of rtl/decl_decoder.sv failed (the %Error above)");
    }

private:
    sc::DeclDecoderParams params_;
    VerilatedContext* ctx_;
    bool fatal_was_ = true;
    std::unique_ptr<sc::DeclDecoderMonitor> monitor_;
    std::unique_ptr<Vdecl_decoder_sc> rtl_;
};

}  // namespace

sc::DeclDecoderImpl rtl_decl_decoder() {
    sc::DeclDecoderImpl r;
    r.cannot_build = [](const sc::DeclDecoderParams& p) -> std::string {
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
    r.make = [](const std::string& name, const sc::DeclDecoderParams& p, sc::DeclDecoderPins& pins) {
        return std::make_unique<RtlDeclDecoder>(name, p, pins);
    };
    return r;
}

sc::UnitFactory rtl_decl_decoder_unit() { return sc::decl_decoder_factory(rtl_decl_decoder()); }

const std::vector<RtlUnit>& rtl_units() {
    static const std::vector<RtlUnit> units = {
        {"decl_decoder", "the Verilated rtl/decl_decoder.sv in place of the SystemC model DeclDecoderUnit",
         rtl_decl_decoder_unit},
        {"vertex_fetch", "the Verilated rtl/vertex_fetch.sv in place of the SystemC model VertexFetch, every vertex "
                         "checked against the golden fetch",
         vf::builtin_loop_unit},
    };
    return units;
}

void use_rtl(sc::UnitRegistry& registry, sc::RunOptions& o, const std::string& type, sc::UnitFactory make) {
    registry.add_variant(type, "rtl", std::move(make));
    o.registry = &registry;
    o.variants[type] = "rtl";
}

}  // namespace vpsim::tb
