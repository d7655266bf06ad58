// A user's declaration decoder RTL inside the pipeline (`vpsim run --rtl decl_decoder=FILE.sv`):
// the design Verilated at run time into the --rtl cache (tb/user_rtl.h), evaluated by one
// SystemC process on the front end's pins whenever clk, rst or an input changes, as Verilator's
// own SystemC models are; its statistics counted from the pins like the built-in RTL's.
#pragma once

#include "model/sc/decl_decoder_pins.h"
#include "model/sc/unit_registry.h"
#include "tb/user_rtl.h"

#include <memory>
#include <string>

namespace vpsim::tb {

// The decoder the spec's sources describe. Its cannot_build Verilates the design (or finds it
// in the cache), reads its CONST_COUNT and MAX_LENGTH and, when the run asks for other values,
// Verilates it again with -G for them; a design without one of the parameters keeps the
// contract's default (96, 4096) and cannot run with another. The answer names the file and
// the values. Build errors (ports, Verilator's messages) come back the same way.
// `built`, when given, receives the design as built for the run (with the run's parameters), for
// checks beside the run (vpsim run --compare-model runs directed arrays on it).
sc::DeclDecoderImpl user_decl_decoder(const UserRtlSpec& spec,
                                      std::shared_ptr<std::shared_ptr<UserRtl>> built = nullptr);
// ... as the unit type decl_decoder's variant (sc::decl_decoder_factory; tb::use_rtl).
sc::UnitFactory user_decl_decoder_unit(const UserRtlSpec& spec,
                                       std::shared_ptr<std::shared_ptr<UserRtl>> built = nullptr);

}  // namespace vpsim::tb
