// A scene with the hash of what determines its content: `vpsim run` records it in config.json and
// `vpsim sweep` puts it into every point's hash, so a changed scene file or buffer is a new point.
#pragma once

#include "model/scene/scene.h"

#include <string>

namespace vpsim::scene {

struct HashedScene {
    Scene scene;
    std::string hash;  // "fnv1a64:<16 hex digits>" over the scene text and every buffer's bytes
};

// `path` empty: the default scene. Throws SceneError (malformed scene) or std::runtime_error.
// `hash` false: the scene only, `hash` left empty (the file is not read a second time: hashing a
// recorded frame range's 22 MB was a fifth of loading it).
HashedScene load_hashed_scene(const std::string& path, bool hash = true);

}  // namespace vpsim::scene
