// vpsim run --rtl decl_decoder=FILE.sv: what happens when the user's decoder and the model part
// (docs/run.md, "Your own decoder RTL"): the failing declaration written next to the run, and
// --compare-model, which runs the model's pipeline beside the RTL's (cycles and every unit's
// statistics must be equal) and then directed and random arrays on the same build in both modes
// (strict and lenient, SKIP, CONST, EXT and tessellator tokens: what the scenes may not reach).
#pragma once

#include "model/sc/decl_decoder_pins.h"
#include "model/sc/pipeline.h"
#include "model/rtl/user_rtl.h"

#include <memory>
#include <string>

namespace vpsim::cli {

// Writes the declaration of a mismatch as a corpus file (line 2: the golden verdict) into
// `dir` (created); returns the file name.
std::string write_mismatch_declaration(const sc::DeclDecoderMismatch& e, const std::string& dir);

struct CompareModel {
    uint64_t random = 20000;  // random arrays after the corpus
    uint64_t seed = 1;
    std::string mismatch_dir;  // shrunk arrays
    std::vector<std::string> rtl_args;  // --rtl FILE ... --top T for replay commands
};

// 0: the model run and the directed arrays agree; 1: a difference (printed on stderr, the first
// of each kind with a replay command); 2: an error (printed).
int compare_with_model(const scene::Scene& scene, const ParamSet& params, const vs::Profile& profile,
                       const sc::RunOptions& model_options, const sc::RunResult& rtl_run, const rtl::UserRtl& rtl,
                       const CompareModel& c);

}  // namespace vpsim::cli
