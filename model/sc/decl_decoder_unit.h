// The declaration decoder as a SystemC unit: same ports and handshake as rtl/decl_decoder.sv.
// Function comes from the golden model (DeclStepper), timing from DeclDecoderTiming.
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/decl/decl_decoder_timing.h"

#include <systemc>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::sc {

// The unit's parameters (docs/parameters.md, table "decl_decoder"); defaults written once here.
struct DeclDecoderParams {
    uint32_t const_count = 96;   // rule 12
    uint32_t max_length = 4096;  // rule 14

    static constexpr const char* kUnit = "decl_decoder";
    static const ParamBindings<DeclDecoderParams>& bindings();  // each parameter, declared once
    static ParamTable table();
    static DeclDecoderParams from(const ParamSet& p);
};

// The unit's statistics (docs/stats.md, group "decl_decoder"). Every clock out of reset is
// busy (a token accepted or an event delivered), stalled "output_full" (a token offered but
// the output is full: back-pressure) or idle (nothing offered, nothing to deliver).
class DeclDecoderStats {
public:
    DeclDecoderStats();
    DeclDecoderStats(const DeclDecoderStats&) = delete;
    DeclDecoderStats& operator=(const DeclDecoderStats&) = delete;

    StatGroup group;
    Counter& tokens;
    Counter& stalled_output_full;  // the "output_full" stall reason
    std::array<Counter*, decl::kNumEventKinds> events{};

    uint64_t cycles() const { return group.accounted_cycles(); }  // cycles out of reset
    uint64_t busy() const { return group.busy_cycles(); }
    uint64_t stalled_output() const { return stalled_output_full.value; }
    uint64_t idle() const { return group.idle_cycles(); }

    // One clock out of reset: busy if a token was accepted or an event delivered, stalled
    // "output_full" if a token was offered but not taken, idle otherwise. The model unit and the
    // pin monitor of an RTL decoder both count through this, so their statistics agree.
    void clock(bool offered, bool accepted, const decl::Event* delivered) {
        if (delivered) ++*events[unsigned(delivered->kind)];
        if (accepted) ++tokens;
        if (accepted || delivered)
            group.busy();
        else if (offered)
            ++stalled_output_full;
        else
            group.idle();
    }
};

class DeclDecoderUnit : public sc_core::sc_module {
public:
    sc_core::sc_in<bool> clk{"clk"};
    sc_core::sc_in<bool> rst{"rst"};
    sc_core::sc_in<bool> in_valid{"in_valid"};
    sc_core::sc_out<bool> in_ready{"in_ready"};
    sc_core::sc_in<uint32_t> in_token{"in_token"};
    sc_core::sc_in<bool> in_last{"in_last"};
    sc_core::sc_in<bool> lenient{"lenient"};
    sc_core::sc_out<bool> out_valid{"out_valid"};
    sc_core::sc_in<bool> out_ready{"out_ready"};
    sc_core::sc_out<uint32_t> out_kind{"out_kind"};
    sc_core::sc_out<uint32_t> out_stream{"out_stream"};
    sc_core::sc_out<uint32_t> out_value{"out_value"};
    sc_core::sc_out<uint32_t> out_code{"out_code"};
    sc_core::sc_out<uint32_t> out_reg{"out_reg"};
    sc_core::sc_out<sc_dt::sc_bv<128>> out_data{"out_data"};

    DeclDecoderUnit(const sc_core::sc_module_name& name, const DeclDecoderParams& params = {});

    const DeclDecoderParams& params() const { return params_; }
    const DeclDecoderStats& stats() const { return stats_; }
    // Cycles the unit spent with its clock gated off (the pipeline clocks it only while a
    // declaration is decoded): counted idle, so its cycles add up to the run's.
    void account_gated(uint64_t cycles) { stats_.group.idle(cycles); }

private:
    void on_clock();
    void drive_in_ready();
    void drive_outputs();

    DeclDecoderParams params_;
    decl::DeclDecoderTiming timing_;
    DeclDecoderStats stats_;
    sc_core::sc_event state_changed_;
};

}  // namespace vpsim::sc
