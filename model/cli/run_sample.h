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
    bool on = false;  // --sample
    study::SampleOptions options;
};

// Adds --sample and its --sample-* options to `run`, after its other options: --sample excludes
// the options that need every cycle simulated (--vertices, --vcd, --trace, --stats-interval,
// --out, --rtl, --compare-model, --topology, --topology-dot); each --sample-* needs --sample.
void add_sample_options(CLI::App* run, SampleArgs& a);

// The sampled run: prints its estimate (JSON with `json`; nothing with `quiet`). Returns the
// exit status: 0, 1 a scene command failed, 2 refused (the reason on stderr) or bad input, 3 an
// internal error.
int run_sample(scene::Scene s, const ParamSet& params, const vs::Profile& profile,
               const sc::RunOptions& options, const SampleArgs& a, bool json, bool quiet);

}  // namespace vpsim::cli
