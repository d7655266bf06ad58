#include "model/cli/run_common.h"

#include "model/common/file_util.h"

#include "model/common/fnv.h"
#include "model/common/presets.h"
#include "model/sc/pipeline.h"
#include "model/scene/default_scene.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace vpsim::cli {

ff::Caps preset_caps(const std::string& preset) {
    ParamSet p = sc::default_params();
    if (!preset.empty()) apply_preset(p, preset);
    return sc::FixedFunctionParams::from(p).caps();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}


LoadedScene load_run_scene(const std::string& path) {
    LoadedScene r;
    std::string text;
    if (path.empty()) {
        r.scene = scene::default_scene();
        text = scene::default_scene_json().dump();
    } else {
        r.scene = scene::load_scene(path);  // reads the file (regular, size-limited) and checks it
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

std::string group_digits(uint64_t v) {
    const std::string s = std::to_string(v);
    std::string r;
    for (size_t i = 0; i < s.size(); ++i) {
        if (i && (s.size() - i) % 3 == 0) r += ',';
        r += s[i];
    }
    return r;
}

}  // namespace vpsim::cli
