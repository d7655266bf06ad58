// The workload suite (examples/workloads/, one scene per .json file) and one run of a workload on
// a preset: shared by bench coissue, bench reference (cmd_suite.cpp) and bench metamorphic
// (cmd_metamorphic.cpp).
#pragma once

#include "model/sc/pipeline.h"
#include "model/scene/scene.h"

#include <string>
#include <vector>

namespace vpsim::cli {

struct Workload {
    std::string name;  // file name without .json
    scene::Scene scene;
};

// Every *.json of `dir`, sorted by name; std::runtime_error when there is none.
std::vector<Workload> load_suite(const std::string& dir);

// The workload on `preset` with `sets` after it; std::logic_error when the statistics do not add up.
sc::RunResult run_one(const Workload& w, const std::string& preset, const std::vector<std::string>& sets,
                      const sc::RunOptions& options = {});

// A workload that a preset's caps refuse (a fixed-function draw needing more than the device's
// D3DCAPS8 allow, docs/fixed-function.md "What cannot be drawn") is not a failure of the suite:
// it is reported as refused, with the message naming the cap. Any other scene error still is.
struct Outcome {
    sc::RunResult result;
    std::string refused;  // "/json/pointer: message" of the refusal (naming the cap); empty: it ran
};
Outcome run_or_refuse(const Workload& w, const std::string& preset, const std::vector<std::string>& sets,
                      const sc::RunOptions& options = {});
// The cap a refusal's message names, or nullptr.
const char* refusing_cap(const std::string& message);

}  // namespace vpsim::cli
