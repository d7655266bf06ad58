// The fast path as a scene ShadeFn: each shader compiled once (compile_fast), each contiguous run
// of a draw's distinct indices shaded with run_fast_fetch. In the vpsim_fast library, with the
// fast path itself (the golden library alone does not contain it).
#pragma once

#include "model/scene/functional.h"

namespace vpsim::scene {

ShadeFn fast_shade();

}  // namespace vpsim::scene
