#include "model/sc/decl_decoder_pins.h"

namespace vpsim::sc {

using namespace sc_core;

void DeclDecoderPins::trace(sc_trace_file* tf) const {
#define VPSIM_DECL_PIN_TRACE(type, name) sc_trace(tf, name, #name);
    VPSIM_DECL_DECODER_PINS(VPSIM_DECL_PIN_TRACE)
#undef VPSIM_DECL_PIN_TRACE
}

DeclDecoderMonitor::DeclDecoderMonitor(const sc_module_name& n, const DeclDecoderPins& pins)
    : sc_module(n), pins_(pins) {
    SC_HAS_PROCESS(DeclDecoderMonitor);
    SC_METHOD(on_clock);
    sensitive << pins.clk.posedge_event();
    dont_initialize();
}

// DeclDecoderUnit::on_clock's accounting, from the values the pins hold before the edge.
void DeclDecoderMonitor::on_clock() {
    if (pins_.rst.read()) return;
    const bool offered = pins_.in_valid.read();
    const bool accepted = offered && pins_.in_ready.read();
    const bool delivered = pins_.out_valid.read() && pins_.out_ready.read();
    const decl::Event out = delivered ? pins_.event() : decl::Event{};
    stats_.clock(offered, accepted, delivered ? &out : nullptr);
}

namespace {

class ModelDeclDecoder : public DeclDecoderBlock {
public:
    ModelDeclDecoder(const std::string& name, const DeclDecoderParams& p, DeclDecoderPins& pins)
        : unit_(name.c_str(), p) {
        pins.bind(unit_);
    }
    const DeclDecoderParams& params() const override { return unit_.params(); }
    const StatGroup& stats() const override { return unit_.stats().group; }
    void finish(uint64_t gated_cycles) override { unit_.account_gated(gated_cycles); }

private:
    DeclDecoderUnit unit_;
};

}  // namespace

DeclDecoderImpl model_decl_decoder() {
    DeclDecoderImpl m;
    m.make = [](const std::string& name, const DeclDecoderParams& p, DeclDecoderPins& pins) {
        return std::make_unique<ModelDeclDecoder>(name, p, pins);
    };
    return m;
}

}  // namespace vpsim::sc
