// RTL in the loop: the list of built-in RTL units and the choice of one for a run
// (model/sc/rtl_in_loop.h).
#include "model/sc/rtl_in_loop.h"

#include "model/sc/rtl_decl_decoder.h"
#include "model/sc/rtl_vertex_fetch.h"

namespace vpsim::sc {

const std::vector<RtlUnit>& rtl_units() {
    static const std::vector<RtlUnit> units = {
        {"decl_decoder", "the Verilated rtl/decl_decoder.sv in place of the SystemC model DeclDecoderUnit",
         rtl_decl_decoder_unit},
        {"vertex_fetch", "the Verilated rtl/vertex_fetch.sv in place of the SystemC model VertexFetch, every vertex "
                         "checked against the golden fetch",
         vf::builtin_loop_unit},
    };
    return units;
}

void use_rtl(UnitRegistry& registry, RunOptions& o, const std::string& type, UnitFactory make) {
    registry.add_variant(type, "rtl", std::move(make));
    o.registry = &registry;
    o.variants[type] = "rtl";
}

}  // namespace vpsim::sc
