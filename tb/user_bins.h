// User-defined functional coverage for the declaration decoder's cross-check (`vpsim xcheck
// --bins FILE`, docs/xcheck.md "Coverage you control"): bins on tokens or on the model's events,
// and crosses of bins (arrays that hit all of them). A bin or cross never hit is a coverage hole
// like the built-in ones ("user bin NAME", "user cross NAME"), so the gate, exclusions and
// waivers of tb/coverage_gate.h apply to it.
//
//   bin NAME token MASK VALUE [strict|lenient]        a token (at a token position) with token & MASK == VALUE
//   bin NAME event KIND [stream=N] [value=N] [code=N] [reg=N] [strict|lenient]
//                                                      a model event of that kind with those fields
//   cross NAME BIN BIN [BIN ...]                       an array that hits every one of the bins
//
// Numbers are decimal or 0x hex; KIND is STREAM ELEMENT SKIP TESS CONST EXT END ERROR; `#` starts a
// comment. A bad line is an error naming the file, the line and the rule.
#pragma once

#include "model/decl/decl_decoder.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::tb {

struct UserBin {
    std::string name;
    bool on_event = false;
    uint32_t mask = 0, value = 0;  // token bins
    int kind = 0;                  // event bins
    int stream = -1, code = -1, reg = -1;
    int64_t event_value = -1;
    int mode = 0;                  // 0 both, 1 strict only, 2 lenient only
};

struct UserCross {
    std::string name;
    std::vector<size_t> bins;
};

struct UserCoverageSpec {
    std::vector<UserBin> bins;
    std::vector<UserCross> crosses;
    bool empty() const { return bins.empty() && crosses.empty(); }
};

UserCoverageSpec load_user_bins(const std::string& file);  // throws std::runtime_error "file:line: ..."

// Counts of one run: per bin, tokens or events matched; per cross, arrays that hit every bin.
struct UserCoverage {
    std::vector<uint64_t> bins, crosses;
    void count(const UserCoverageSpec& spec, const std::vector<uint32_t>& tokens, const std::vector<decl::Event>& events,
               bool lenient);
    void add(const UserCoverage& other);
    std::vector<std::string> holes(const UserCoverageSpec& spec) const;  // "user bin NAME", "user cross NAME"
    std::string table(const UserCoverageSpec& spec) const;
};

}  // namespace vpsim::tb
