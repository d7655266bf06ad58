// `vpsim run --sample` (docs/sampling.md): the options and the sampled run, kept apart from
// cmd_run.cpp, which adds the options and calls run_sample when --sample is given.
#pragma once

#include "model/common/params.h"
#include "model/sc/pipeline.h"
#include "model/scene/scene.h"
#include "model/study/sampling.h"

#include <CLI/CLI.hpp>

namespace vpsim::cli {

struct SampleArgs {
    bool on = false;        // --sample
    bool fallback = false;  // --sample-fallback: a refused scene runs in full, the reason noted
    study::SampleOptions options;
};

// Adds --sample and its --sample-* options to `run`, after its other options: --sample excludes
// the options that need every cycle simulated (--vertices, --vcd, --trace, --stats-interval,
// --rtl, --compare-model, --topology, --topology-dot); each --sample-* needs --sample.
void add_sample_options(CLI::App* run, SampleArgs& a);

// Adds --sample and its --sample-unit, -period, -warmup and -seed options to a command that runs
// its points as `vpsim run` processes (sweep, why): `what` says what each run is ("point",
// "variant"), `refused` what happens to a scene sampling refuses; each --sample-* needs --sample.
void add_points_sample_options(CLI::App* c, SampleArgs& a, const std::string& what, const std::string& refused);
// The `vpsim run` options that run a point as `a` says (none without --sample), --sample-fallback
// with `a.fallback`.
std::vector<std::string> sample_run_args(const SampleArgs& a);

// Where a sampled run's results go: stdout (JSON with `json`; nothing with `quiet`) and, with a
// `dir` (locked by the caller), DIR/config.json (`config`) and DIR/stats.json (sample_stats.h).
struct SampleOutput {
    bool json = false, quiet = false;
    std::string dir;
    nlohmann::ordered_json config;
    std::vector<study::StartCheck> start_checks;  // study::check_start's, reported with the estimate
};

// The sampled run of `plan` (study::plan_sampling's), its intervals z standard errors wide.
// Returns the exit status: 0, 1 a scene command failed, 2 bad input or an output error, 3 an
// internal error.
int run_sample(scene::Scene s, const study::SamplePlan& plan, const ParamSet& params, const vs::Profile& profile,
               const sc::RunOptions& options, double z, const SampleOutput& out);

}  // namespace vpsim::cli
