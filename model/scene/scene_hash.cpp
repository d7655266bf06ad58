#include "model/scene/scene_hash.h"

#include "model/common/file_util.h"
#include "model/common/fnv.h"
#include "model/scene/default_scene.h"

#include <fmt/format.h>

#include <stdexcept>

namespace vpsim::scene {

HashedScene load_hashed_scene(const std::string& path, bool hash) {
    HashedScene r;
    std::string text;
    if (path.empty()) {
        r.scene = default_scene();
        if (!hash) return r;
        text = default_scene_json().dump();
    } else {
        r.scene = load_scene(path);  // reads the file (regular, size-limited) and checks it
        if (!hash) return r;
        std::string why;
        if (!read_input_file(path, text, why)) throw std::runtime_error(path + ": cannot read the scene file: " + why);
    }
    Fnv f;
    f.add(text);
    for (const auto& [name, b] : r.scene.buffers) {
        f.add(name);
        f.add(b.bytes.data(), b.bytes.size());
    }
    r.hash = fmt::format("fnv1a64:{:016x}", f.h);
    return r;
}

}  // namespace vpsim::scene
