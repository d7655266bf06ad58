// The declaration decoder's RTL in the loop (`vpsim run --rtl decl_decoder`): the Verilated
// rtl/decl_decoder.sv (SystemC mode) behind the front end's pins (model/sc/decl_decoder_pins.h),
// its statistics counted from the pins. No Verilated header here: the model lives in
// rtl_decl_decoder.cpp, compiled with decl_rtl_sc's VM_* defines (library vpsim_rtl_loop).
#pragma once

#include "model/sc/decl_decoder_pins.h"
#include "model/sc/unit_registry.h"

namespace vpsim::sc {

// The Verilated decoder. Its CONST_COUNT and MAX_LENGTH are fixed when it is Verilated
// (rtl/CMakeLists.txt): cannot_build names both values when a run asks for others.
DeclDecoderImpl rtl_decl_decoder();
// ... as the unit type decl_decoder's variant (decl_decoder_factory; use_rtl, model/sc/rtl_in_loop.h).
UnitFactory rtl_decl_decoder_unit();

}  // namespace vpsim::sc
