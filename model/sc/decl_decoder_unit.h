// The declaration decoder as a SystemC unit: same ports and handshake as rtl/decl_decoder.sv.
// Function comes from the golden model (DeclStepper), timing from DeclDecoderTiming.
#pragma once

#include "model/decl/decl_decoder_timing.h"

#include <systemc>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::sc {

// One row of a unit's parameter table.
struct ParamInfo {
    const char* name;
    const char* type;
    const char* unit;
    std::string default_value;
    const char* description;
    const char* source;
};

struct DeclDecoderParams {
    uint32_t const_count = 96;   // rule 12
    uint32_t max_length = 4096;  // rule 14
    static std::vector<ParamInfo> table();
};

struct DeclDecoderStats {
    uint64_t cycles = 0;         // cycles out of reset
    uint64_t busy = 0;           // a token accepted or an event delivered
    uint64_t stalled_output = 0; // a token offered but the output is full (back-pressure)
    uint64_t idle = 0;           // nothing offered, nothing to deliver
    uint64_t tokens = 0;
    std::array<uint64_t, decl::kNumEventKinds> events{};
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
