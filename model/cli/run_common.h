// What `vpsim run` and `vpsim bench run` share: loading the scene (a file or the built-in
// default) with the hash that config.json records.
#pragma once

#include "model/common/presets.h"
#include "model/sc/summary.h"
#include "model/scene/scene_hash.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace vpsim::sc {
struct RunResult;
}

namespace vpsim::cli {

// The run summary as `vpsim run --json` prints it and stats.json's "summary" holds (docs/stats.md);
// `rtl`: the units that ran as Verilated RTL; `assumptions`: the preset's assumed values that move
// results by more than 10 % (assumptions_in_force, model/common/presets.h). Defined in cmd_run.cpp;
// vpsim compare uses it too.
nlohmann::ordered_json summary_json(const std::string& scene, const sc::RunResult& r, const std::vector<std::string>& rtl,
                                    const std::vector<SensitiveAssumption>& assumptions = {});

// Runs the plot package vpsim.plot (python/vpsim/plot, with /usr/bin/python3) as `CMD ARGS...`; with a non-empty
// `dir` (a sweep or run directory) it also passes the directory's base parameters (--base). Returns
// the script's exit status: 0, 2 (bad input, its message printed) or 3 (it failed: an internal error).
int run_plot_script(const char* cmd, const std::string& dir, std::vector<std::string> args);

// The scene and its hash (model/scene/scene_hash.h; `hash` false: without it). `path` empty: the
// default scene. Throws SceneError (malformed scene) or std::runtime_error.
using LoadedScene = scene::HashedScene;
inline LoadedScene load_run_scene(const std::string& path, bool hash = true) {
    return scene::load_hashed_scene(path, hash);
}

// The fixed-function caps of `preset` ("": the fixed_function parameters' defaults), for the
// commands that run the functional executor (scene-exec, ff-program). ParamError for an unknown name.
ff::Caps preset_caps(const std::string& preset, const std::vector<std::string>& sets = {});

// A `vpsim run` that threw: prints "vpsim run: WHAT" and returns its exit status (docs/limits.md):
// 1 a scene command failed (SceneError), 3 an internal error (std::logic_error), 2 anything else
// (bad input the run refused).
int run_error_status(const std::exception& e);

using sc::group_digits;  // 1234567 -> "1,234,567" (the summaries' counts)

// 12345678.9 per second -> "12.35 M/s" (the bench tables' rates).
std::string mcps(double per_second);

// The median of a benchmark's repetitions (the mean of the middle two for an even count).
double median(std::vector<double> v);

}  // namespace vpsim::cli
