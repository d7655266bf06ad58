// A user's declaration decoder RTL in the loop (model/sc/user_decl_decoder.h).
#include "model/sc/user_decl_decoder.h"

#include "model/sc/decl_decoder_slot.h"

#include <fmt/format.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <tuple>

namespace vpsim::sc {

namespace {

// The design behind the pins: one SC_METHOD sensitive to clk, rst and every input sets them all
// and evaluates the model once, then writes the outputs back (combinational outputs follow
// their inputs within the delta cycle, state changes on the rising edge of clk).
class PinProcess : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(PinProcess);
    PinProcess(const sc_core::sc_module_name& n, std::unique_ptr<rtl::RtlPinInstance> inst, DeclDecoderPins& pins)
        : sc_core::sc_module(n), inst_(std::move(inst)), pins_(pins) {
        SC_METHOD(evaluate);
        sensitive << pins.clk << pins.rst << pins.in_valid << pins.in_token << pins.in_last << pins.lenient
                  << pins.out_ready;
    }
    bool assertion_failed() const { return inst_->assertion_failed(); }

private:
    void evaluate() {
        const unsigned o = inst_->eval(pins_.clk.read(), pins_.rst.read(), pins_.in_valid.read(), pins_.in_token.read(),
                                       pins_.in_last.read(), pins_.lenient.read(), pins_.out_ready.read());
        uint32_t f[9];
        inst_->outputs(f);
        pins_.in_ready.write(o & 1u);
        pins_.out_valid.write((o & 2u) != 0);
        pins_.out_kind.write(f[0]);
        pins_.out_stream.write(f[1]);
        pins_.out_value.write(f[2]);
        pins_.out_code.write(f[3]);
        pins_.out_reg.write(f[4]);
        sc_dt::sc_bv<128> d;
        for (int w = 0; w < 4; ++w) d.range(32 * w + 31, 32 * w) = f[5 + w];
        pins_.out_data.write(d);
    }
    std::unique_ptr<rtl::RtlPinInstance> inst_;
    DeclDecoderPins& pins_;
};

class UserDeclDecoder : public DeclDecoderBlock {
public:
    UserDeclDecoder(const std::string& name, const DeclDecoderParams& p, DeclDecoderPins& pins,
                    std::shared_ptr<rtl::UserRtl> rtl, std::string file)
        : params_(p), rtl_(std::move(rtl)), file_(std::move(file)) {
        monitor_ = std::make_unique<DeclDecoderMonitor>((name + "_monitor").c_str(), pins);
        process_ = std::make_unique<PinProcess>((name + "_rtl").c_str(), rtl_->make_pin_instance(), pins);
    }
    const DeclDecoderParams& params() const override { return params_; }
    const StatGroup& stats() const override { return monitor_->stats().group; }
    void finish(uint64_t gated_cycles) override {
        monitor_->account_gated(gated_cycles);
        if (process_->assertion_failed())
            throw DeclDecoderMismatch(fmt::format("an assertion of the design failed (the %Error above)"));
    }

private:
    DeclDecoderParams params_;
    std::shared_ptr<rtl::UserRtl> rtl_;  // the loaded design outlives its instance
    std::string file_;
    std::unique_ptr<DeclDecoderMonitor> monitor_;
    std::unique_ptr<PinProcess> process_;
};

// The design's value of a parameter, or `fallback` (the contract's default) when it has none.
uint64_t param_or(const rtl::UserRtl& rtl, const std::string& name, uint64_t fallback, bool& has) {
    has = false;
    for (const auto& [n, v] : rtl.params())
        if (n == name) {
            has = true;
            return std::strtoull(v.c_str(), nullptr, 10);
        }
    return fallback;
}

}  // namespace

DeclDecoderImpl user_decl_decoder(const rtl::UserRtlSpec& spec, std::shared_ptr<std::shared_ptr<rtl::UserRtl>> built) {
    if (!built) built = std::make_shared<std::shared_ptr<rtl::UserRtl>>();
    const std::string file = spec.sources.empty() ? "" : spec.sources.front();
    DeclDecoderImpl r;
    r.cannot_build = [spec, built, file](const DeclDecoderParams& p) -> std::string {
        try {
            std::shared_ptr<rtl::UserRtl> rtl = rtl::build_user_rtl(spec);
            bool has_cc = false, has_ml = false;
            const uint64_t cc = param_or(*rtl, "CONST_COUNT", 96, has_cc), ml = param_or(*rtl, "MAX_LENGTH", 4096, has_ml);
            if (cc != p.const_count || ml != p.max_length) {
                // The run's values: the design Verilated again with them (cached under its own key).
                rtl::UserRtlSpec again = spec;
                for (const auto& [name, has, want] : {std::tuple<const char*, bool, uint64_t>{"CONST_COUNT", has_cc, p.const_count},
                                                      {"MAX_LENGTH", has_ml, p.max_length}}) {
                    const uint64_t now = std::string(name) == "CONST_COUNT" ? cc : ml;
                    if (now == want) continue;
                    if (!has)
                        return fmt::format("RTL decl_decoder {}: the run needs {}={}, but the design has no parameter {} "
                                           "(the contract's default {} applies)",
                                           file, name, want, name, now);
                    again.params.emplace_back(name, std::to_string(want));
                }
                rtl = rtl::build_user_rtl(again);
            }
            *built = rtl;
            return "";
        } catch (const rtl::RtlBuildError& e) {
            return fmt::format("RTL decl_decoder {}: {}", file, e.what());
        }
    };
    r.make = [built, file](const std::string& name, const DeclDecoderParams& p, DeclDecoderPins& pins) {
        if (!*built) throw std::logic_error("user_decl_decoder: make before cannot_build");
        return std::unique_ptr<DeclDecoderBlock>(new UserDeclDecoder(name, p, pins, *built, file));
    };
    return r;
}

UnitFactory user_decl_decoder_unit(const rtl::UserRtlSpec& spec, std::shared_ptr<std::shared_ptr<rtl::UserRtl>> built) {
    return decl_decoder_factory(user_decl_decoder(spec, std::move(built)));
}

}  // namespace vpsim::sc
