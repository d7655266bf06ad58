// RTL in the loop: the Verilated RTL blocks that `vpsim run --rtl UNIT` puts into the timing
// model in place of their SystemC model units (docs/run.md, "RTL in the loop"). This header has
// no Verilated headers: the RTL lives in rtl_in_loop.cpp, compiled with its model's VM_* defines.
#pragma once

#include "model/sc/pipeline.h"

#include <functional>
#include <string>
#include <vector>

namespace vpsim::tb {

struct RtlUnit {
    std::string name;  // the unit it replaces ("decl_decoder")
    std::string what;  // one line for --help and the summary
    std::function<void(sc::RunOptions&)> use;  // makes a run use the RTL for that unit
};

// Every unit with an RTL implementation.
const std::vector<RtlUnit>& rtl_units();

// The Verilated rtl/decl_decoder.sv (SystemC mode) behind the front end's pins, its statistics
// counted from the pins. Its CONST_COUNT and MAX_LENGTH are fixed when it is Verilated
// (rtl/CMakeLists.txt): cannot_build names both values when a run asks for others.
sc::DeclDecoderImpl rtl_decl_decoder();

}  // namespace vpsim::tb
