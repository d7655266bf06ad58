// User-defined functional coverage of the cross-checks (`vpsim xcheck --bins FILE`, docs/xcheck.md
// "Your own bins"), one language for both units: bins on tokens or on the model's events, crosses
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
//   bin NAME fetch [type=R] [stream=R] [offset=R] [reg=R] [index=R] [flush=R]
//                                                      (--unit vertex_fetch) one element fetched for one
//                                                      vertex: its data type 0..7, stream, byte offset
//                                                      in the vertex, register, the vertex index and
//                                                      whether the vertex came with idx_flush
//
// With --unit vertex_fetch, token and event bins count each draw's declaration (decoded lenient, so
// `strict` bins are refused), crosses and sequences of fetch bins count cases and adjacent fetch
// events (vertices in order, each one's elements in layout order); a cross or sequence is of fetch
// bins only or of none. FIELD for fetch sequences: type, stream, offset, reg, index.
//
// Numbers are decimal or 0x hex; KIND is STREAM ELEMENT SKIP TESS CONST EXT END ERROR; FIELD is
// stream, value, code or reg; `#` starts a comment. A bad line is an error naming the file, the
// line and the rule.
#pragma once

#include "model/decl/decl_decoder.h"
#include "tb/coverage_gate.h"

#include <cstdint>
#include <functional>
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
    int line = 0;                                 // its line in the bins file (errors naming it)
    bool on_event = false;
    bool on_fetch = false;                        // a fetch bin (--unit vertex_fetch); on_event is false
    UserRange type, offset, index, flush;         // fetch bins' fields
    uint32_t mask = 0, value = 0, value_hi = 0;  // token bins: value <= token & mask <= value_hi
    int kind = 0;                                 // event bins
    UserRange stream, code, reg, event_value;
    int mode = 0;                                 // 0 both, 1 strict only, 2 lenient only
};

struct UserCross {
    std::string name;
    std::vector<size_t> bins;
    size_t within = 0;  // 0: in the same array; N: within N consecutive events of an array
    bool on_fetch = false;  // of fetch bins: a case that hits every one (within N consecutive fetch events)
};

// An event field compared by `same=`.
enum class UserField { None, Stream, Value, Code, Reg, Type, Offset, Index };

struct UserSeq {
    std::string name;
    std::vector<size_t> bins;
    bool on_event = false;
    bool on_fetch = false;  // of fetch bins (adjacent fetch events)
    UserField same = UserField::None;
};

struct UserCoverageSpec {
    std::string file;  // the bins file
    std::vector<UserBin> bins;
    std::vector<UserCross> crosses;
    std::vector<UserSeq> seqs;
    bool empty() const { return bins.empty() && crosses.empty() && seqs.empty(); }
};

UserCoverageSpec load_user_bins(const std::string& file);  // throws std::runtime_error "file:line: ..."
// A spec's bins checked against the unit: "" when every bin can count there, else
// "file:line: bin NAME: ..." (fetch bins with the decoder; strict bins with the vertex fetch,
// whose declarations are decoded lenient).
std::string user_bins_unit_error(const UserCoverageSpec& spec, bool vertex_fetch);

// The user's bins that cannot be hit, by `why` (the reason, or "" when the bin can be hit), and
// the crosses and sequences that need one of them: exclusions for tb/coverage_gate.h.
std::vector<Exclusion> user_exclusions(const UserCoverageSpec& spec, const std::function<std::string(const UserBin&)>& why);

// One element fetched for one vertex (the vertex fetch's user bins).
struct FetchEvent {
    uint32_t type = 0, stream = 0, offset = 0, reg = 0, index = 0;
    bool flush = false;
};

// Counts of one run: per bin, tokens or events matched; per cross, arrays that hit every bin (in
// one window of events with `within`); per sequence, the positions where it starts.
struct UserCoverage {
    std::vector<uint64_t> bins, crosses, seqs;
    void count(const UserCoverageSpec& spec, const std::vector<uint32_t>& tokens, const std::vector<decl::Event>& events,
               bool lenient);
    // One vertex fetch case's fetch events, in order: the fetch bins, and the crosses (cases) and
    // sequences of fetch bins (the other bins count each draw's declaration through count()).
    void count_fetch(const UserCoverageSpec& spec, const std::vector<FetchEvent>& events);
    void add(const UserCoverage& other);
    // "user bin NAME", "user cross NAME", "user seq NAME"
    std::vector<std::string> holes(const UserCoverageSpec& spec) const;
    std::string table(const UserCoverageSpec& spec) const;
};

}  // namespace vpsim::tb
