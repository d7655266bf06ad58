// Bring-your-own vertex fetch RTL: a user's design Verilated at run time through the --rtl cache
// (tb/user_rtl.h, build_user_rtl) with its own C ABI wrapper, its ports checked against the
// vertex fetch contract (docs/vertex-fetch-rtl.md) first, and driven through vf::Pins.
#pragma once

#include "tb/user_rtl.h"
#include "tb/vf_loop.h"
#include "tb/vf_pins.h"

#include <functional>
#include <memory>

namespace vpsim::tb::vf {

// The contract's 21 ports.
const std::vector<PortInfo>& contract_ports();

// Verilates (or finds in the cache) and loads the design: spec.wrapper and spec.contract are set
// here. Throws RtlBuildError (ports, Verilator's messages, compiler errors).
std::shared_ptr<UserRtl> build(UserRtlSpec spec);

// A factory of instances of a loaded design (each for the thread that makes it).
std::function<std::unique_ptr<Pins>()> factory(std::shared_ptr<UserRtl> rtl);

// The design in the pipeline (`vpsim run --rtl vertex_fetch=FILE.sv`, tb/vf_loop.h): Verilated
// now (or found in the cache), its ports checked against the contract first. Throws RtlBuildError.
sc::UnitFactory user_loop_unit(const UserRtlSpec& spec);

}  // namespace vpsim::tb::vf
