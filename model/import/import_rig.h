// The camera and the lights of an imported model (docs/import.md): the file's first camera and
// its lights (at most MaxActiveLights 8 enabled), else a default rig that frames the model's
// bounding box with one white directional light.
#pragma once
#include "model/import/import_detail.h"

#include <assimp/scene.h>

#include <array>
#include <map>
#include <string>

namespace vpsim::import::detail {

// Every node's global transform (Assimp convention) and the nodes by name.
struct NodeTransforms {
    std::map<const aiNode*, aiMatrix4x4> global;
    std::map<std::string, const aiNode*> by_name;

    // The global transform of the node named `name`; identity when there is none.
    aiMatrix4x4 of(const std::string& name) const {
        auto it = by_name.find(name);
        return it != by_name.end() ? global.at(it->second) : aiMatrix4x4();
    }
};

struct Rig {
    Mat view{}, proj{};
    json description;  // the report's "rig": where the camera and the lights came from
    // --effect skin-shader lights with one directional light, the first the scene enables: the
    // direction to it (world space) and its diffuse colour.
    std::array<float, 3> shader_light{}, shader_diffuse{1, 1, 1};
};

// Appends the view, projection, lighting and light commands to `cmds`; `lo`, `hi` bound the model
// in world space. Lights and cameras left out are noted in `log`.
Rig build_rig(const aiScene* s, const NodeTransforms& nodes, const aiVector3D& lo, const aiVector3D& hi,
              ImportLog& log, json& cmds);

}  // namespace vpsim::import::detail
