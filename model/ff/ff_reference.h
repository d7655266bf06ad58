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

// One vertex: the outputs as they leave the vertex stage (clip-space position, oD0/oD1
// saturated, fog factor clamped to 0..1, point size, texture coordinates), as vs::VertexOutputs.
vs::VertexOutputs process_vertex(const FfState& state, const FfInputs& inputs, const FfRegisters& v,
                                 const Caps& caps);

}  // namespace vpsim::ff
