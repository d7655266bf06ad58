// RTL in the loop: the Verilated RTL blocks that `vpsim run --rtl UNIT` puts into the timing
// model in place of their SystemC model units (docs/run.md, "RTL in the loop"), each a variant of
// its unit type beside the model's: model/sc/rtl_decl_decoder.h, model/sc/rtl_vertex_fetch.h (and
// a user's design: model/sc/user_decl_decoder.h, rtl_vertex_fetch.h's user_loop_unit). These
// files are the library vpsim_rtl_loop, kept out of vpsim_sc so that the plain timing model stays
// free of Verilator; no Verilated header in any of their headers.
#pragma once

#include "model/sc/pipeline.h"
#include "model/sc/unit_registry.h"

#include <functional>
#include <string>
#include <vector>

namespace vpsim::sc {

struct RtlUnit {
    std::string name;  // the unit type it replaces ("decl_decoder")
    std::string what;  // one line for --help and the summary
    std::function<UnitFactory()> make;  // the type's variant "rtl"
};

// Every unit with an RTL implementation.
const std::vector<RtlUnit>& rtl_units();

// Makes a run build the units of `type` with `make`: adds it to `registry` (a copy of the
// built-in units the caller keeps for the run) as the type's variant "rtl", and chooses that
// variant and registry in `o`.
void use_rtl(UnitRegistry& registry, RunOptions& o, const std::string& type, UnitFactory make);

}  // namespace vpsim::sc
