// The state commands a later command replaces whole (docs/sampling.md, "The state before a
// block"): a sampled run starts a block's warm-up with the state the scene has set by then, and
// needs only the commands whose values are still in force, not every one the scene issued before.
#pragma once

#include "model/scene/scene.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vpsim::scene {

inline constexpr size_t kNotReplaced = SIZE_MAX;

// For each command of `s`, the index of the first later command at which nothing it set is left in
// force: every slot it wrote has been written again by a command that sets the slot whole, with no
// read of the old value left between (the reader is then before the replacement too, and replaced
// as well). kNotReplaced for commands that are never replaced, and for those whose effect is not
// state a later command sets: draws, CreateVertexShader, DeletePatch, and a SetVertexShader whose
// shader's declaration writes constants (D3DVSD_CONST). The slots:
//   SetVertexShaderConstant  each register it writes (replaced by SetVertexShaderConstant only)
//   SetVertexShader          the current shader (FVF, or a declaration without constants)
//   SetStreamSource          its stream;   SetIndices: the index binding and base vertex
//   SetRenderState           its state;    SetTextureStageState: its (stage, state)
//   SetTransform, MultiplyTransform   the matrix of its state (replaced by SetTransform only)
//   SetLight                 light slot's D3DLIGHT8;   LightEnable: its enable flag
//   SetViewport, SetMaterial the viewport, the material
//   UpdateBuffer             its bytes: replaced by one later UpdateBuffer of the same buffer
//                            whose range covers them
// So a scene cut to start at command c may leave out every command i < c with result[i] < c: the
// device's state at c is the same (draws before c are left out too, so nothing reads the values
// dropped).
std::vector<size_t> replaced_at(const Scene& s);

}  // namespace vpsim::scene
