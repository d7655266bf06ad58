// The declaration decoder's pins as one bundle of SystemC signals, and what sits behind them.
//
// * DeclDecoderPins: a signal per port of rtl/decl_decoder.sv (the port list exists here only);
//   bind() connects a decoder with those port names: the SystemC model DeclDecoderUnit or the
//   Verilated RTL Vdecl_decoder_sc. drive() sets the inputs, event() reads the output event.
// * DeclDecoderMonitor: the decoder's statistics (group "decl_decoder") counted from the pins,
//   for an implementation that keeps none of its own (the RTL); the same rules as
//   DeclDecoderUnit's, so the two give equal statistics for equal pin activity.
// * DeclDecoderBlock / DeclDecoderImpl: a decoder implementation the pipeline puts behind the
//   front end's pins. The SystemC model is model_decl_decoder(); `vpsim run --rtl decl_decoder`
//   supplies the RTL's from model/sc/rtl_decl_decoder.h (library vpsim_rtl_loop: this library,
//   vpsim_sc, stays free of Verilated headers).
#pragma once

#include "model/common/stats.h"
#include "model/decl/decl_pin_fields.h"
#include "model/sc/decl_decoder_unit.h"

#include <systemc>

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

namespace vpsim::sc {

// The pins but clk and rst, in the RTL's port order: X(type, name).
#define VPSIM_DECL_DECODER_PINS(X) \
    X(bool, in_valid)              \
    X(bool, in_ready)              \
    X(uint32_t, in_token)          \
    X(bool, in_last)               \
    X(bool, lenient)               \
    X(bool, out_valid)             \
    X(bool, out_ready)             \
    X(uint32_t, out_kind)          \
    X(uint32_t, out_stream)        \
    X(uint32_t, out_value)         \
    X(uint32_t, out_code)          \
    X(uint32_t, out_reg)           \
    X(sc_dt::sc_bv<128>, out_data)

class DeclDecoderPins {
    std::string prefix_;  // the signals' names: <prefix>_<port>

public:
    explicit DeclDecoderPins(std::string prefix) : prefix_(std::move(prefix)) {}
    DeclDecoderPins(const DeclDecoderPins&) = delete;
    DeclDecoderPins& operator=(const DeclDecoderPins&) = delete;

    // The bundle's own clock and reset, for an owner that clocks the decoder itself (the front
    // end); a bench with an sc_clock binds that instead.
    sc_core::sc_signal<bool> clk{(prefix_ + "_clk").c_str()}, rst{(prefix_ + "_rst").c_str()};
#define VPSIM_DECL_PIN_SIGNAL(type, name) sc_core::sc_signal<type> name{(prefix_ + "_" #name).c_str()};
    VPSIM_DECL_DECODER_PINS(VPSIM_DECL_PIN_SIGNAL)
#undef VPSIM_DECL_PIN_SIGNAL

    // Every port of `dut` to its signal, clk and rst to the given clock and reset.
    template <class Dut, class Clk, class Rst>
    void bind(Dut& dut, Clk& clock, Rst& reset) {
        dut.clk(clock);
        dut.rst(reset);
#define VPSIM_DECL_PIN_BIND(type, name) dut.name(name);
        VPSIM_DECL_DECODER_PINS(VPSIM_DECL_PIN_BIND)
#undef VPSIM_DECL_PIN_BIND
    }
    template <class Dut>
    void bind(Dut& dut) {
        bind(dut, clk, rst);
    }

    // The inputs for the next clock edge.
    void drive(bool valid, uint32_t token, bool last, bool lenient_mode, bool ready) {
        decl::drive_inputs(*this, valid, token, last, lenient_mode, ready);
    }
    // The event on the output pins (meaningful while out_valid is high).
    decl::Event event() const { return decl::event_from_outputs(*this); }
    // Every pin but clk and rst, under its port name.
    void trace(sc_core::sc_trace_file* tf) const;
};

// Counts the decoder's statistics from the pins at each rising edge of `pins.clk` out of reset.
class DeclDecoderMonitor : public sc_core::sc_module {
public:
    DeclDecoderMonitor(const sc_core::sc_module_name& n, const DeclDecoderPins& pins);
    const DeclDecoderStats& stats() const { return stats_; }
    void account_gated(uint64_t cycles) { stats_.group.idle(cycles); }

private:
    void on_clock();
    const DeclDecoderPins& pins_;
    DeclDecoderStats stats_;
};

// A declaration decoder behind the front end's pins.
class DeclDecoderBlock {
public:
    virtual ~DeclDecoderBlock() = default;
    virtual const DeclDecoderParams& params() const = 0;
    virtual const StatGroup& stats() const = 0;  // the group "decl_decoder"
    // The run is over: the cycles its clock was gated off count idle. An implementation that
    // failed on its own (an RTL assertion) throws std::logic_error.
    virtual void finish(uint64_t gated_cycles) = 0;
};

struct DeclDecoderImpl {
    // Why `make` cannot build a decoder with these parameters ("" when it can); checked before
    // the simulation is built. Empty: any parameters.
    std::function<std::string(const DeclDecoderParams&)> cannot_build;
    // Builds the decoder (its modules named from `name`) and binds it to `pins`.
    std::function<std::unique_ptr<DeclDecoderBlock>(const std::string& name, const DeclDecoderParams&, DeclDecoderPins&)>
        make;
};

// The SystemC model, DeclDecoderUnit.
DeclDecoderImpl model_decl_decoder();

// The decoder behind the pins gave other events than the golden decoder (the front end checks
// every declaration). An internal error for vpsim's own decoders; for a user's RTL (vpsim run
// --rtl decl_decoder=FILE) a finding about that RTL.
struct DeclDecoderMismatch : std::logic_error {
    using std::logic_error::logic_error;
    DeclDecoderMismatch(const std::string& what, std::string cmd, std::vector<uint32_t> decl)
        : std::logic_error(what), command(std::move(cmd)), declaration(std::move(decl)) {}
    std::string command;                 // the scene's CreateVertexShader (its JSON pointer)
    std::vector<uint32_t> declaration;   // the declaration it decoded
};

}  // namespace vpsim::sc
