// The reference fixed-function vertex processor: D3D8's documented transform, blending, lighting,
// fog, texture-coordinate generation and transform, and point-size equations, written straight
// from the documentation in float32, one vertex at a time (docs/fixed-function.md gives each
// equation, its D3D8 page, and vpsim's choice where D3D8 is silent). It is the oracle the
// generated vertex programs (ff_compile.h) are tested against.
#pragma once

#include "model/ff/ff_state.h"

namespace vpsim::ff {

// Throws FfError when the state cannot be drawn with these inputs on a device with these caps
// (more enabled lights than MaxActiveLights, blend matrices or indices beyond the caps, a blend
// mode the declaration has no weights for, ...), naming the D3DCAPS8 member or the rule.
void check_drawable(const FfState& state, const FfInputs& inputs, const Caps& caps);

// Which outputs the fixed-function shader writes for this state and declaration (the generated
// program must write exactly these; unwritten outputs keep the interpreter's start values, as
// for a vertex program). oPos and oD0 are always written; oFog with FOGENABLE TRUE (choice 6).
//  - oD1 (the specular colour): when something after the vertex stage can read it
//    (writes_specular(), docs/fixed-function.md "Dead outputs"): SPECULARENABLE TRUE (the colour
//    is added after the texture stages), FOGENABLE TRUE without vertex fog (the fog factor is the
//    specular alpha), or an enabled texture stage whose operation reads an argument D3DTA_SPECULAR
//    (stage_reads_specular(): stages before the first with COLOROP DISABLE; SELECTARG1 reads only
//    ARG1, SELECTARG2 only ARG2, MULTIPLYADD and LERP also ARG0). process_vertex() still gives
//    oD1's D3D8 value; a comparison with the program skips it when the program does not write it;
//  - the point size: when the declaration has PSIZE (D3DVSDE_PSIZE) or POINTSCALEENABLE is TRUE
//    (and the vertex is not pre-transformed); otherwise the rasteriser takes D3DRS_POINTSIZE, as it
//    does for a program that does not write oPts;
//  - texture coordinates: bit s is stage s's output oT(s), see docs/fixed-function.md.
bool writes_point_size(const FfState& state, const FfInputs& inputs);
bool writes_specular(const FfState& state, const FfInputs& inputs);
// True when an enabled stage reads D3DTA_SPECULAR (with any modifier).
bool stage_reads_specular(const FfState& state);
uint32_t texcoord_outputs(const FfState& state, const FfInputs& inputs, const Caps& caps);

// One vertex: the outputs as they leave the vertex stage (clip-space position, oD0/oD1
// saturated, fog factor clamped to 0..1, point size, texture coordinates), as vs::VertexOutputs.
// Throws FfError when a vertex's blend-matrix index exceeds caps.max_vertex_blend_matrix_index
// (indexed blending: the only data-dependent refusal; the caller adds which vertex).
vs::VertexOutputs process_vertex(const FfState& state, const FfInputs& inputs, const FfRegisters& v,
                                 const Caps& caps);

}  // namespace vpsim::ff
