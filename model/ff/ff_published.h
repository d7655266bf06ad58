// NVIDIA's published instruction counts for fixed-function work written as vertex programs, and
// the fixed-function states vpsim compiles to compare with them (`vpsim ff-program --counts`,
// docs/fixed-function.md, "Against NVIDIA's counts").
#pragma once

#include "model/ff/ff_state.h"

#include <string>
#include <vector>

namespace vpsim::ff {

struct PublishedCount {
    std::string label;      // the configuration in a few words
    std::string published;  // the row as published, quoted
    uint32_t instructions;  // NVIDIA's figure (vertex program instructions, one operation each)
    std::string guessed;    // what the published row leaves open and vpsim's state assumes
    FfState state;
    FfInputs inputs;
    Caps caps;
};

// The three rows of the table in Tom's Hardware's GeForce3 preview (27 Feb 2001, page 9,
// "High-Tech And Vertex Juggling - NVIDIA's New GeForce3 GPU"): 7, 18 and 126 instructions.
std::vector<PublishedCount> published_counts();

}  // namespace vpsim::ff
