// The Python API's runs (docs/python.md), in plain C++ so that the pybind11 layer (core.cpp) only
// converts: what a run is made of (scene, topology, preset, config, --set overrides, profiles),
// loaded and checked exactly as `vpsim run` does it (model/cli/cmd_run.cpp), and the runs of the
// timing model, the functional executor and `why`. Errors are the C++ exceptions the CLI prints
// (scene::SceneError, ParamError, TopologyError ...); core.cpp turns them into Python exceptions.
#pragma once

#include "model/common/params.h"
#include "model/sc/topology.h"
#include "model/scene/scene.h"
#include "model/tess/tess_types.h"
#include "model/vs/vs_isa.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::pyapi {

// One run's inputs. A scene is a file (scene_path), a JSON text (scene_json, its buffer files
// relative to scene_base) or, with neither, the built-in default scene; a topology likewise.
struct RunSpec {
    std::string scene_path, scene_json, scene_base, scene_name;
    std::string topology_path, topology_json;
    std::string preset, config;
    std::vector<std::string> sets, profile, tess_profile;  // "unit.param=value", "key=value"
    uint64_t draws = 0;  // the scene up to its N-th draw (0: all of it), as `vpsim run --draws`
};

// A spec resolved: the scene, the topology and the parameters in force.
struct Resolved {
    scene::Scene scene;
    sc::Topology topology;
    ParamSet params{{}};
    vs::Profile profile = vs::Profile::d3d8();
    tess::TessProfile tess_profile;
};
Resolved resolve(const RunSpec& s);

// A timing-model run: stats.json's content without its summary ({"schema", "cycles", "units"}),
// and the summary's bottleneck ({"unit", "busy", "reason", "text", "capacity_key"?}).
struct RunOutput {
    std::string stats_json, bottleneck_json;
    std::vector<std::string> warnings;
    double host_seconds = 0;
};
// SystemC keeps its simulation context in a global: runs in one process take turns (a mutex);
// the caller releases the GIL first so other Python threads go on meanwhile.
RunOutput run_timing(const RunSpec& s);

// The functional executor (`vpsim scene-exec`): per draw its header and, with `vertices`, every
// reference's outputs as 46 floats (oPos, oD0, oD1, oFog, oPts, oT0..oT7) and its vertex index.
// `fast`: the fast path, else the reference interpreter (the same bits). The fixed-function caps
// are the preset's and the fixed_function.* overrides' (any other override is refused, as
// scene-exec --preset and ff-program --set refuse it).
struct ExecDraw {
    uint64_t command = 0, primitives = 0, references = 0, unique = 0;
    std::string pointer, op, shader, type;
    std::vector<uint32_t> indices;
    std::vector<float> outputs;  // references x kOutputFloats
};
inline constexpr size_t kOutputFloats = 46;
struct ExecOutput {
    std::string scene;
    std::vector<ExecDraw> draws;
    std::vector<std::string> warnings;
};
ExecOutput scene_exec(const RunSpec& s, bool fast, bool vertices);

// `vpsim why` in process (docs/why.md): every capacity, rate and latency relaxed by `factor`
// (those matching `only`'s globs; empty: all), run one after another, ranked; the top `pairs`
// tried two at a time. `budget`: the references of the scene's window (0: the whole scene).
// Returns JSON in the shape of `vpsim why --json` (without "runs.backend").
std::string why(const RunSpec& s, double factor, const std::vector<std::string>& only, unsigned pairs, unsigned moves,
                uint64_t budget);

// The parameters in force for a spec ({"unit": {"param": value}}, config.json's "params").
std::string params_json(const RunSpec& s);

}  // namespace vpsim::pyapi
