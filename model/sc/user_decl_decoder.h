// A user's declaration decoder RTL inside the pipeline (`vpsim run --rtl decl_decoder=FILE.sv`):
// the design Verilated at run time into the --rtl cache (model/rtl/user_rtl.h), evaluated by one
// SystemC process on the front end's pins whenever clk, rst or an input changes, as Verilator's
// own SystemC models are; its statistics counted from the pins like the built-in RTL's
// (model/sc/rtl_decl_decoder.h).
#pragma once

#include "model/rtl/user_rtl.h"
#include "model/sc/decl_decoder_pins.h"
#include "model/sc/unit_registry.h"

#include <memory>
#include <string>

namespace vpsim::sc {

// The decoder the spec's sources describe. Its cannot_build Verilates the design (or finds it
// in the cache), reads its CONST_COUNT and MAX_LENGTH and, when the run asks for other values,
// Verilates it again with -G for them; a design without one of the parameters keeps the
// contract's default (96, 4096) and cannot run with another. The answer names the file and
// the values. Build errors (ports, Verilator's messages) come back the same way.
// `built`, when given, receives the design as built for the run (with the run's parameters), for
// checks beside the run (vpsim run --compare-model runs directed arrays on it).
DeclDecoderImpl user_decl_decoder(const rtl::UserRtlSpec& spec,
                                      std::shared_ptr<std::shared_ptr<rtl::UserRtl>> built = nullptr);
// ... as the unit type decl_decoder's variant (decl_decoder_factory; use_rtl, model/sc/rtl_in_loop.h).
UnitFactory user_decl_decoder_unit(const rtl::UserRtlSpec& spec,
                                       std::shared_ptr<std::shared_ptr<rtl::UserRtl>> built = nullptr);

}  // namespace vpsim::sc
