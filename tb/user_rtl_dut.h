// The cross-check's side of a user's declaration decoder: a design Verilated and loaded by
// model/rtl/user_rtl.h, driven through RtlDut (tb/xcheck.h) by drive.h's loop exactly like the
// built-in rtl/decl_decoder.sv. docs/xcheck.md, "Your own RTL".
#pragma once

#include "model/rtl/user_rtl.h"
#include "tb/xcheck.h"

#include <memory>

namespace vpsim::tb {

// A new instance of the design (its own Verilated context), for one thread. The design must be
// the decoder's (built without UserRtlSpec::wrapper) and outlive the instance.
std::unique_ptr<RtlDut> make_user_dut(const rtl::UserRtl& design);

}  // namespace vpsim::tb
