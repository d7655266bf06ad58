// The compiler of the fast path (vs_fast.h, docs/fast-path.md): a validated vs.1.x program into
// micro-operations on SSA values, dead code removed, values given SoA slots.
#pragma once

#include "model/vs/vs_fast.h"

namespace vpsim::vs::fast {

// compile_fast (vs_fast.h) is this.
FastShader compile(const Program& program, const Profile& profile);

// The operands a micro-operation of this code reads (DP3/DP4: 8, s[0..3] and s[4..7]).
int code_sources(FastShader::Code c);

}  // namespace vpsim::vs::fast
