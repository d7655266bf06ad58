#include "model/sc/decl_decoder_unit.h"

#include <cctype>

namespace vpsim::sc {

using namespace sc_core;

const ParamBindings<DeclDecoderParams>& DeclDecoderParams::bindings() {
    static const auto b = ParamBindings<DeclDecoderParams>(kUnit, "declaration decoder: token array to stream/element/tessellator/constant events")
        .uint("const_count", "registers", &DeclDecoderParams::const_count,
                  "constant registers of the device; CONST beyond them breaks rule 12",
                  "D3DVS_CONSTREG_MAX_V1_1 = 96 (vs.1.1 minimum); NV2A has 192", 1, 8192)
        .uint("max_length", "DWORDs", &DeclDecoderParams::max_length, "END must appear within this many DWORDs (rule 14)",
                  "assumed", 1, 1u << 24);
    return b;
}
ParamTable DeclDecoderParams::table() { return bindings().table(); }

DeclDecoderParams DeclDecoderParams::from(const ParamSet& p) {
    return bindings().from(p);
}

DeclDecoderStats::DeclDecoderStats()
    : group(DeclDecoderParams::kUnit, "declaration decoder"),
      tokens(group.counter("tokens", "tokens", "declaration tokens accepted")),
      stalled_output_full(*group
                                .stall_reason("output_full",
                                              "a token is offered but the event output is full (back-pressure)")
                                .counter) {
    for (unsigned k = 0; k < decl::kNumEventKinds; ++k) {
        const std::string kind = decl::event_kind_name(decl::EventKind(k));
        std::string lower = kind;
        for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
        events[k] = &group.counter("events." + lower, "events", kind + " events delivered");
    }
    group.rate("tokens_per_cycle", "tokens", "cycles", "tokens/cycle", "tokens accepted per cycle of the run");
    group.rate("utilisation", "busy_cycles", "cycles", "fraction", "busy cycles over the run's cycles");
}

namespace {
decl::DecoderOptions options_of(const DeclDecoderParams& p) {
    decl::DecoderOptions o;
    o.const_count = p.const_count;
    o.max_length = p.max_length;
    return o;
}
}  // namespace

DeclDecoderUnit::DeclDecoderUnit(const sc_module_name& name, const DeclDecoderParams& params)
    : sc_module(name), params_(params), timing_(options_of(params)) {
    SC_HAS_PROCESS(DeclDecoderUnit);
    SC_METHOD(on_clock);
    sensitive << clk.pos();
    dont_initialize();
    SC_METHOD(drive_in_ready);
    sensitive << out_ready << state_changed_;
}

void DeclDecoderUnit::drive_in_ready() { in_ready.write(timing_.in_ready(out_ready.read())); }

void DeclDecoderUnit::on_clock() {
    if (rst.read()) {
        timing_.reset();
        drive_outputs();
        return;
    }
    const bool offered = in_valid.read();
    const bool delivered = timing_.out_valid() && out_ready.read();
    const decl::Event out = delivered ? timing_.out() : decl::Event{};
    const bool accepted = timing_.tick(offered, in_token.read(), in_last.read(), lenient.read(), out_ready.read());
    stats_.clock(offered, accepted, delivered ? &out : nullptr);
    drive_outputs();
}

void DeclDecoderUnit::drive_outputs() {
    const decl::Event e = timing_.out_valid() ? timing_.out() : decl::Event{};  // fields are 0 when idle, as in the RTL
    out_valid.write(timing_.out_valid());
    out_kind.write(uint32_t(e.kind));
    out_stream.write(e.stream);
    out_value.write(e.value);
    out_code.write(e.code);
    out_reg.write(e.reg);
    sc_dt::sc_bv<128> d;
    for (int i = 0; i < 4; ++i) d.range(32 * i + 31, 32 * i) = e.data[i];
    out_data.write(d);
    state_changed_.notify(SC_ZERO_TIME);
}

}  // namespace vpsim::sc
