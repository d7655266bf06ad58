// The parameter checks D3D8 makes when the fixed-function state is set (SetLight, SetViewport),
// from the D3DLIGHT8 and D3DVIEWPORT8 reference pages (docs/scenes.md lists them).
#pragma once

#include "model/ff/ff_state.h"

#include <optional>
#include <string>

namespace vpsim::ff {

// A refused parameter: the member (D3D8's name in lower case, as the scene files spell it) and why.
struct ParamError {
    std::string member;
    std::string message;
};

// D3DLIGHT8, as SetLight checks it (`type` is the raw D3DLIGHTTYPE; 0 is what a zeroed light has):
//   type          D3DLIGHT_POINT 1, D3DLIGHT_SPOT 2 or D3DLIGHT_DIRECTIONAL 3
//   range         point and spot: 0 .. sqrt(FLT_MAX) ("the maximum allowable value")
//   attenuation0..2  point and spot: each >= 0 ("valid values range from 0.0 to infinity"),
//                 and not all three 0 ("should not be set to 0.0 at the same time")
//   direction     directional and spot: a nonzero length
//   phi           spot: 0 .. pi
//   theta         spot: 0 .. phi
// Directional lights ignore position, range and attenuation; point lights ignore direction,
// theta, phi and falloff: those members are not checked for them.
std::optional<ParamError> check_light(uint32_t type, const Light& light);

// D3DVIEWPORT8: a nonzero width and height, and 0 <= minz <= 1, 0 <= maxz <= 1 (D3D8 documents
// the depth range as within 0..1; vpsim has no render target to check x, y, width, height against).
std::optional<ParamError> check_viewport(const Viewport& v);

}  // namespace vpsim::ff
