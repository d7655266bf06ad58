// How shaded vertices are printed (docs/exec.md): floats as the shortest decimal that reads
// back to the same bits, -0 as "-0.0", and "inf", "-inf", "nan:0xXXXXXXXX" for the rest.
#pragma once

#include "model/vs/vs_exec.h"

#include <cstdint>
#include <string>

namespace vpsim::cli {

std::string float_text(float f);
std::string float_json(float f);  // float_text, quoted when not finite
std::string vec_text(const vs::Vec4& v);  // "(x, y, z, w)"
std::string vec_json(const vs::Vec4& v);  // "[x, y, z, w]"
// {"index": i, "oPos": [...], "oD0": [...], "oD1": [...], "oFog": f, "oPts": f, "oT": [[...] x8]}
std::string vertex_json(uint32_t index, const vs::VertexOutputs& o);

// The draws document of `vpsim scene-exec --json` and `vpsim run --vertices` (docs/scenes.md):
//   {"scene": S, "engine": E, "draws": [ {draw header, "outputs": [vertices]} ... ], "totals": {...}}
// written in pieces so a run can stream it.
std::string draws_json_open(const std::string& scene, const std::string& engine);
struct DrawJsonHeader {
    size_t command = 0;
    std::string pointer, op, shader, type;
    uint64_t primitives = 0, vertices = 0, unique_vertices = 0;
};
// One draw's header object, left open ("{... \"unique_vertices\": N"): `first` = the first draw.
std::string draw_json_open(bool first, const DrawJsonHeader& h);
std::string draws_json_close(uint64_t draws, uint64_t primitives, uint64_t vertices, uint64_t unique_vertices);

}  // namespace vpsim::cli
