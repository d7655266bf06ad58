// A point's directory name: a hash of everything that determines its result (the scene's text
// and buffers, every parameter, the interpreter and tessellation choices, the vpsim binary, the
// repeat), so a changed input runs again and an unchanged one is kept (resume).
#pragma once

#include <string>
#include <vector>

namespace vpsim::study {

// The identity of the binary that runs the points: its version and a hash of its bytes, so a
// rebuilt vpsim invalidates earlier points. Throws StudyError when it cannot be read.
std::string binary_identity(const std::string& exe);

struct PointInputs {
    std::string scene, scene_hash;  // the scene's path and scene::HashedScene::hash
    std::string params_json;        // ParamSet::to_json().dump() of the point's parameters
    std::string topology;           // the text of its topology file ("": the built-in topology)
    std::vector<std::string> profile, tess_profile;
    std::string binary;             // binary_identity()
    std::vector<std::string> sample;  // the run's --sample options (none: a full run)
    unsigned repeat = 0;
};

// 16 hex digits (FNV-1a 64, schema "vpsim-sweep-point-1").
std::string point_hash(const PointInputs& in);

}  // namespace vpsim::study
