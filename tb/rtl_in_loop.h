// RTL in the loop: the Verilated RTL blocks that `vpsim run --rtl UNIT` puts into the timing
// model in place of their SystemC model units (docs/run.md, "RTL in the loop"). This header has
// no Verilated headers: the RTL lives in rtl_in_loop.cpp, compiled with its model's VM_* defines.
#pragma once

#include "model/sc/decl_decoder_pins.h"
#include "model/sc/pipeline.h"
#include "model/sc/unit_registry.h"

#include <functional>
#include <string>
#include <vector>

namespace vpsim::tb {

struct RtlUnit {
    std::string name;  // the unit type it replaces ("decl_decoder")
    std::string what;  // one line for --help and the summary
    std::function<sc::UnitFactory()> make;  // the type's variant "rtl"
};

// Every unit with an RTL implementation.
const std::vector<RtlUnit>& rtl_units();

// Makes a run build the units of `type` with `make`: adds it to `registry` (a copy of the
// built-in units the caller keeps for the run) as the type's variant "rtl", and chooses that
// variant and registry in `o`.
void use_rtl(sc::UnitRegistry& registry, sc::RunOptions& o, const std::string& type, sc::UnitFactory make);

// The Verilated rtl/decl_decoder.sv (SystemC mode) behind the front end's pins, its statistics
// counted from the pins. Its CONST_COUNT and MAX_LENGTH are fixed when it is Verilated
// (rtl/CMakeLists.txt): cannot_build names both values when a run asks for others.
sc::DeclDecoderImpl rtl_decl_decoder();
// ... as the unit type decl_decoder's variant (sc::decl_decoder_factory).
sc::UnitFactory rtl_decl_decoder_unit();

}  // namespace vpsim::tb
