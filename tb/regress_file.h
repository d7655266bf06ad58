// A regression file (vpsim regress FILE, docs/regress.md; schema "vpsim-regress-1"): groups of
// cross-check runs, each group one unit (decl_decoder or vertex_fetch) and the product of its RTL
// designs x -G parameter sets x back-pressure profiles x seeds. A malformed file is a RegressError
// "FILE:LINE:COLUMN: /json/pointer: the rule it breaks".
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace vpsim::tb {

struct RegressError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One design: files empty for the built-in RTL of the unit.
struct RegressRtl {
    std::string name;
    std::vector<std::string> files;  // resolved against the regression file's folder
    std::string top;
};

// (xcheck option, value) pairs: "--out-ready" "0.2", "--latency-min" "10".
using RegressOptions = std::vector<std::pair<std::string, std::string>>;

struct RegressProfile {
    std::string name;
    RegressOptions options;
};

// One -G set: (NAME, VALUE) pairs; empty for the design's own defaults.
using RegressParams = std::vector<std::pair<std::string, std::string>>;

struct RegressGroup {
    std::string name, unit;  // unit: "decl_decoder" or "vertex_fetch"
    std::vector<uint64_t> seeds;
    uint64_t random = 0;      // arrays (decoder) or cases (vertex fetch) per run
    bool code_coverage = false;
    bool directed = true;     // the decoder's corpus / the vertex fetch's directed cases
    uint64_t stream = 0;      // --stream K: the decoder's arrays, the fetch's draws back to back (0: one at a time)
    std::string bins;         // decoder: --bins FILE ("" none)
    std::vector<RegressRtl> rtl;
    std::vector<RegressParams> params;
    std::vector<RegressProfile> profiles;
};

struct Regression {
    std::string name;
    std::vector<RegressGroup> groups;
};

// The most runs one file may describe (each is a process).
constexpr uint64_t kMaxRegressRuns = 100000;

// `text` read from `source`; relative paths are taken from `base_dir`. Throws RegressError.
Regression parse_regression(const std::string& text, const std::string& source, const std::string& base_dir);
// Reads and parses the file (an unreadable file is a RegressError naming it).
Regression load_regression(const std::string& path);

// "CONST_COUNT=100,MAX_LENGTH=4", "defaults" for an empty set.
std::string params_label(const RegressParams& p);

}  // namespace vpsim::tb
