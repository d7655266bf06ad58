// User-defined functional coverage for the declaration decoder's cross-check (`vpsim xcheck
// --bins FILE`, docs/xcheck.md "Your own bins"): bins on tokens or on the model's events, crosses
// of bins (arrays that hit all of them, or windows of events that do) and sequences of bins
// (adjacent tokens or events). A bin, cross or sequence never hit is a coverage hole like the
// built-in ones ("user bin NAME", "user cross NAME", "user seq NAME"), so the gate, exclusions and
// waivers of tb/coverage_gate.h apply to it.
//
//   bin NAME token MASK VALUE[..HI] [strict|lenient]  a token (at a token position) with token & MASK
//                                                      == VALUE (or in VALUE..HI)
//   bin NAME event KIND [stream=R] [value=R] [code=R] [reg=R] [strict|lenient]
//                                                      a model event of that kind with those fields;
//                                                      R is N or LO..HI (inclusive)
//   cross NAME BIN BIN [BIN ...] [within N]            an array that hits every one of the bins; with
//                                                      `within N` (event bins), an array in which N
//                                                      consecutive events hold an event of every bin
//   seq NAME BIN BIN [BIN ...] [same=FIELD]            adjacent tokens (token positions) or adjacent
//                                                      events of one array matching the bins in order;
//                                                      `same=FIELD` (event bins): with FIELD equal
//
// Numbers are decimal or 0x hex; KIND is STREAM ELEMENT SKIP TESS CONST EXT END ERROR; FIELD is
// stream, value, code or reg; `#` starts a comment. A bad line is an error naming the file, the
// line and the rule.
#pragma once

#include "model/decl/decl_decoder.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::tb {

// An inclusive range of a field; lo < 0: any value.
struct UserRange {
    int64_t lo = -1, hi = -1;
    bool has(int64_t v) const { return lo < 0 || (v >= lo && v <= hi); }
};

struct UserBin {
    std::string name;
    bool on_event = false;
    uint32_t mask = 0, value = 0, value_hi = 0;  // token bins: value <= token & mask <= value_hi
    int kind = 0;                                 // event bins
    UserRange stream, code, reg, event_value;
    int mode = 0;                                 // 0 both, 1 strict only, 2 lenient only
};

struct UserCross {
    std::string name;
    std::vector<size_t> bins;
    size_t within = 0;  // 0: in the same array; N: within N consecutive events of an array
};

// An event field compared by `same=`.
enum class UserField { None, Stream, Value, Code, Reg };

struct UserSeq {
    std::string name;
    std::vector<size_t> bins;
    bool on_event = false;
    UserField same = UserField::None;
};

struct UserCoverageSpec {
    std::vector<UserBin> bins;
    std::vector<UserCross> crosses;
    std::vector<UserSeq> seqs;
    bool empty() const { return bins.empty() && crosses.empty() && seqs.empty(); }
};

UserCoverageSpec load_user_bins(const std::string& file);  // throws std::runtime_error "file:line: ..."

// Counts of one run: per bin, tokens or events matched; per cross, arrays that hit every bin (in
// one window of events with `within`); per sequence, the positions where it starts.
struct UserCoverage {
    std::vector<uint64_t> bins, crosses, seqs;
    void count(const UserCoverageSpec& spec, const std::vector<uint32_t>& tokens, const std::vector<decl::Event>& events,
               bool lenient);
    void add(const UserCoverage& other);
    // "user bin NAME", "user cross NAME", "user seq NAME"
    std::vector<std::string> holes(const UserCoverageSpec& spec) const;
    std::string table(const UserCoverageSpec& spec) const;
};

}  // namespace vpsim::tb
