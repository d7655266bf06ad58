// A fresh SystemC simulation context, so one process can elaborate and run several simulations
// (a run per test case, the bench's repetitions, the cross-check's benches).
#pragma once

#include <systemc>

namespace vpsim::sc {

// The old context is leaked on purpose: deleting it crashes SystemC 2.3.4.
inline void sc_fresh_context() {
    sc_core::sc_curr_simcontext = new sc_core::sc_simcontext;
    sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
}

}  // namespace vpsim::sc
