#include "python/bindings/runner.h"

#include "model/common/presets.h"
#include "model/sc/pipeline.h"
#include "model/sc/topology_file.h"
#include "model/scene/scene_hash.h"
#include "model/scene/scene_window.h"

#include <nlohmann/json.hpp>

#include <mutex>
#include <stdexcept>

namespace vpsim::pyapi {

Resolved resolve(const RunSpec& s) {
    Resolved r;
    if (!s.scene_json.empty()) {
        nlohmann::json j;
        const std::string name = s.scene_name.empty() ? std::string("<dict>") : s.scene_name;
        try {
            j = nlohmann::json::parse(s.scene_json);
        } catch (const nlohmann::json::exception& e) {
            throw scene::SceneError(name, "", std::string("not JSON: ") + e.what());
        }
        r.scene = scene::parse_scene(j, s.scene_base, name);
    } else {
        r.scene = scene::load_hashed_scene(s.scene_path).scene;  // "": the default scene
    }
    if (s.draws) scene::keep_draws(r.scene, s.draws);
    // As `vpsim run`: the built-in topology, or the file's (its unit types' tables are the run's),
    // then --preset, --config, --set.
    if (!s.topology_json.empty())
        r.topology = sc::parse_topology(s.topology_json, "<topology dict>");
    else if (!s.topology_path.empty())
        r.topology = sc::load_topology_file(s.topology_path);
    else
        r.topology = sc::default_topology();
    r.params = sc::default_params(r.topology);
    if (!s.preset.empty()) apply_preset(r.params, s.preset);
    if (!s.config.empty()) r.params.apply_config_file(s.config);
    for (const auto& a : s.sets) r.params.apply_set(a);
    for (const auto& kv : s.profile) r.profile.set(kv);
    for (const auto& kv : s.tess_profile) tess::set_tess_option(r.tess_profile, kv);
    return r;
}

namespace {
std::mutex& systemc_lock() {
    static std::mutex m;
    return m;
}
}  // namespace

RunOutput run_timing(const RunSpec& s) {
    Resolved r = resolve(s);
    sc::RunOptions opt;
    opt.topology = &r.topology;
    opt.tess_profile = r.tess_profile;
    sc::RunResult res;
    {
        std::lock_guard<std::mutex> lock(systemc_lock());
        res = sc::run_pipeline(r.scene, r.params, r.profile, opt);
    }
    if (!res.cycle_errors.empty()) {  // as `vpsim run`: an internal error
        std::string m = "statistics do not add up (internal error):";
        for (const auto& e : res.cycle_errors) m += "\n  " + e;
        throw std::logic_error(m);
    }
    RunOutput out;
    out.stats_json = res.stats.dump();
    nlohmann::ordered_json b = {{"unit", res.bottleneck_unit},
                                {"busy", res.bottleneck_busy},
                                {"reason", res.bottleneck_reason},
                                {"text", res.bottleneck}};
    if (!res.bottleneck_capacity_key.empty()) b["capacity_key"] = res.bottleneck_capacity_key;
    out.bottleneck_json = b.dump();
    out.warnings = res.warnings;
    for (const auto& c : res.caps) out.warnings.push_back("warning: " + c.text);
    out.host_seconds = res.host_seconds;
    return out;
}

std::string params_json(const RunSpec& s) {
    RunSpec p = s;
    p.scene_json.clear();
    p.scene_path.clear();
    p.draws = 0;
    return resolve(p).params.to_json().dump();
}

}  // namespace vpsim::pyapi
