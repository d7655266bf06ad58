// The built-in default scene of `vpsim run` / `vpsim scene-exec` (docs/scenes.md, "The default
// scene"): a sphere of 100 x 100 = 10,000 vertices drawn as one indexed triangle list from two
// streams (FLOAT3 position + SHORT4 normal; D3DCOLOR diffuse + FLOAT2 texture coordinate), a
// declaration with CONST tokens, and a vs.1.1 transform + directional light + linear fog program.
#pragma once

#include "model/scene/scene.h"

namespace vpsim::scene {

// The scene as JSON (keys in a readable order); examples/scenes/default.json is this, dumped.
nlohmann::ordered_json default_scene_json();
// parse_scene(default_scene_json()), named "<default>".
Scene default_scene();

}  // namespace vpsim::scene
