// Streaming stimulus for the declaration decoder's cross-check (`vpsim xcheck --stream K`):
// random arrays driven back to back through one decoder, K to a stream, with random idle gaps
// between them (none in half of the boundaries), so the contract's "the next token starts a new
// array on the very next cycle" (docs/decl-decoder.md) is exercised across array boundaries. Both
// sides get the same arrays, gaps and per-cycle handshake draws; each array's events and the
// stream cycle its final event left in are compared. A failing stream is shrunk (whole arrays,
// then each array's tokens by units, then gaps to 0; every step keeps each array non-empty and
// the same signature) and written as a stream file that `--stream-file FILE` replays exactly.
#pragma once

#include "tb/triage.h"
#include "tb/xcheck.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace vpsim::tb {

// One stream to check, with where it came from.
struct StreamCase {
    std::vector<StreamArray> arrays;
    uint64_t index = 0;        // random: the stream's number under --seed and --stream
    uint64_t first_array = 0;  // random: the number of its first array (random_case)
    std::string path;          // a stream file (empty: random)
    uint64_t bp_seed = 0;      // the stream's handshake draws
};

// Stream `index` of `seed` with `k` arrays: random arrays index*k .. index*k+k-1 (random_case),
// the gaps and the back-pressure seed drawn from (seed, index). Replayable one by one.
StreamCase random_stream(uint64_t seed, uint64_t index, uint64_t k);

// A stream file (written for a shrunk failing stream): `// stream-array strict|lenient gap N`
// lines, each followed by its array in any text form decl::parse_text reads, and `// bp-seed: N`.
// Errors (decl::InputError / decl::TextError) name the file and the line.
StreamCase load_stream_file(const std::string& path);
// The body of a stream file: the `// stream-array` sections and the bp-seed line.
std::string stream_text(const std::vector<StreamArray>& arrays, uint64_t bp_seed);

// The golden side of a stream (DeclDecoderTiming in the cycle contract).
StreamResult run_model_stream(const std::vector<StreamArray>& arrays, uint64_t bp_seed, const Backpressure& bp,
                              const decl::DecoderOptions& model, std::vector<CycleSample>* trace = nullptr);

// The first array whose events or final cycle differ ("array 1 of 2 (strict mode): cycles: model
// 9 | rtl 10"), its signature being the array's (tb/xcheck.h, difference); empty when equal.
Difference stream_difference(const StreamResult& expected, const StreamResult& actual);

// Shrinks a failing stream: the smallest stream found for which `keeps` holds (never an empty
// stream nor an empty array). `last_in`, when given, returns a stream's StreamResult::last_in on
// the golden side: an array is then first tried away with its cycles added to the next array's
// gap, so the arrays after it are offered in the same cycles, under the same handshake draws.
using LastIn = std::function<std::vector<uint64_t>(const std::vector<StreamArray>&)>;
std::vector<StreamArray> shrink_stream(std::vector<StreamArray> arrays,
                                       const std::function<bool(const std::vector<StreamArray>&)>& keeps,
                                       const LastIn& last_in = nullptr);

// The replay command of a stream under these options ("vpsim xcheck ... --no-corpus --seed S
// --stream K --only I ..." or "... --stream-file FILE ...").
std::string stream_replay_command(const StreamCase& c, const XcheckOptions& opt);

// The run's streams (opt.stream_file, or opt.random arrays in streams of opt.stream, or stream
// opt.only) checked on the cross-check engine (tb/xcheck_engine.h): on `dut`, or with opt.jobs > 1
// one instance per thread, against the golden side: totals, coverage (per array), mismatches (one
// per failing stream; the first opt.show, the corpus's included, shrunk and written), JUnit cases
// into `rep`, the signatures after `triage`'s. Every mismatch is also replayed with the pins traced
// for rep.pin_groups (pin_signature). Returns the worker threads' coverage parts (opt.coverage_file
// with opt.jobs > 1), for the caller to merge with its own.
std::vector<std::string> check_streams(const XcheckOptions& opt, RtlDut& dut, XcheckReport& rep, Triage& triage);

}  // namespace vpsim::tb
