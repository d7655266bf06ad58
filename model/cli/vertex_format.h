// How shaded vertices are printed (docs/exec.md): floats as the shortest decimal that reads
// back to the same bits, -0 as "-0.0", and "inf", "-inf", "nan:0xXXXXXXXX" for the rest.
#pragma once

#include "model/vs/vs_exec.h"

#include <string>

namespace vpsim::cli {

std::string float_text(float f);
std::string float_json(float f);  // float_text, quoted when not finite
std::string vec_text(const vs::Vec4& v);  // "(x, y, z, w)"
std::string vec_json(const vs::Vec4& v);  // "[x, y, z, w]"
// {"index": i, "oPos": [...], "oD0": [...], "oD1": [...], "oFog": f, "oPts": f, "oT": [[...] x8]}
std::string vertex_json(uint32_t index, const vs::VertexOutputs& o);

}  // namespace vpsim::cli
