// Bring-your-own vertex fetch RTL: a user's design Verilated at run time through the --rtl cache
// (model/rtl/user_rtl.h, build_user_rtl) with its own C ABI wrapper, its ports checked against the
// vertex fetch contract (docs/vertex-fetch-rtl.md) first, and driven through vf::Pins: by the
// cross-check (tb/vf_xcheck.h) and in the pipeline (model/sc/rtl_vertex_fetch.h, user_loop_unit).
#pragma once

#include "model/rtl/user_rtl.h"
#include "model/rtl/vertex_fetch_pins.h"

#include <functional>
#include <memory>
#include <vector>

namespace vpsim::rtl::vf {

// The contract's 21 ports.
const std::vector<PortInfo>& contract_ports();

// Verilates (or finds in the cache) and loads the design: spec.wrapper and spec.contract are set
// here. Throws RtlBuildError (ports, Verilator's messages, compiler errors).
std::shared_ptr<UserRtl> build(UserRtlSpec spec);

// A factory of instances of a loaded design (each for the thread that makes it).
std::function<std::unique_ptr<Pins>()> factory(std::shared_ptr<UserRtl> rtl);

}  // namespace vpsim::rtl::vf
