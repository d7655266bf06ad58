// The token-array cross-check of the declaration decoder: the Verilated RTL against the
// golden model (fast path, plain C++), and the SystemC bench (Verilated RTL in SystemC mode
// against the SystemC unit). Coverage, mismatch reports and shrinking live here too.
#pragma once

#include "model/decl/decl_decoder.h"
#include "tb/case_record.h"
#include "tb/coverage_gate.h"
#include "tb/triage.h"
#include "tb/user_bins.h"

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim::tb {

// One token array to check, with where it came from (for the report and replay).
struct ArrayCase {
    std::vector<uint32_t> tokens;
    bool lenient = false;
    std::string origin;     // corpus file name, or "random"
    std::string path;       // corpus: the file as given or found (for its replay command)
    uint64_t index = 0;     // random: array number under --seed
    uint64_t bp_seed = 0;   // back-pressure pattern
};

// What one side (RTL or model) did with an array.
// One cycle of a side as the handshake loop saw it (for the first diverging cycle).
struct CycleSample {
    bool in_valid = false, in_ready = false, out_ready = false, out_valid = false;
    decl::Event event;  // the output fields while out_valid
};

struct SideResult {
    std::vector<decl::Event> events;
    uint64_t cycles = 0;     // from the first offered token to the final event delivered
    bool timed_out = false;
    bool assertion_failed = false;  // an RTL immediate assertion fired
    std::vector<CycleSample>* trace = nullptr;  // when set, every cycle is appended here
};

// Streaming (--stream K, tb/xcheck_stream.h): arrays driven back to back through one decoder.
// One array of a stream: its tokens (never empty), its mode, and the idle cycles between the
// previous array's last accepted token and the first offer of this one (0: the very next cycle).
struct StreamArray {
    std::vector<uint32_t> tokens;
    bool lenient = false;
    uint32_t gap = 0;
};
// What one side did with a stream: per array its events and the stream cycle its final event
// left in (SideResult::cycles, counted from the stream's first cycle).
struct StreamResult {
    std::vector<SideResult> arrays;
    uint64_t cycles = 0;  // the whole stream
    std::vector<uint64_t> last_in;  // per array: the stream cycle its last token was accepted in (from 0)
    bool timed_out = false, assertion_failed = false;
    std::vector<CycleSample>* trace = nullptr;  // when set, every cycle of the stream is appended here
};

// Per-cycle handshake randomness, drawn identically for both sides.
struct Backpressure {
    double out_ready = 0.7;  // probability that the sink is ready
    double in_valid = 0.9;   // probability that the source offers the next token
};

// Functional coverage, counted on each side.
struct Coverage {
    static constexpr int kTokenKinds = 12;
    std::array<uint64_t, kTokenKinds> token_kinds{};  // input side (same for both)
    std::array<uint64_t, 16> data_types{};            // REG tokens' type field, input side
    std::array<std::array<uint64_t, decl::kNumEventKinds>, 2> events{};  // [side][kind]
    std::array<std::array<uint64_t, 15>, 2> rules{};  // [side][rule 1..14] error events
    std::array<std::array<uint64_t, 15>, 2> lenient_rules{};

    void count_tokens(const std::vector<uint32_t>& tokens);
    void add(const Coverage& other);  // bin by bin
    void count_events(int side, const std::vector<decl::Event>& events, bool lenient);
    // Names of every bin that was never hit ("token NOP", "rule D7 (rtl)", ...).
    std::vector<std::string> holes() const;
    std::string table() const;
    static const char* token_kind_name(int k);
};

// What some arrays gave (the decoder's counts in the cross-check engine, tb/xcheck_engine.h: the
// arrays' and the streams' adapters).
struct ArrayCounts {
    uint64_t arrays = 0, tokens = 0, events = 0, cycles = 0;
    Coverage coverage;
    UserCoverage user;
    void add(const ArrayCounts& o);
    // One array: its tokens, both sides' events (the golden model's, the RTL's) into the coverage,
    // and the user's bins when `spec` is given; not its cycles (an array's, or its stream's).
    void count(const std::vector<uint32_t>& tokens, const std::vector<decl::Event>& model,
               const std::vector<decl::Event>& rtl, bool lenient, const UserCoverageSpec* spec);
};

// Bins of Coverage::holes() that no array can hit with these parameters, found by decoding every
// CONST header with the golden model at the design's CONST_COUNT and MAX_LENGTH: rule D12 when
// CONST_COUNT >= 142 (CONST's largest register, address 127 + count 15, is in range); the CONST
// event, and the user's event bins of kind CONST, when MAX_LENGTH <= 4 (rule 14 comes before a
// payload vector's 4th word). With the reason, for tb/coverage_gate.h.
std::vector<Exclusion> unreachable_bins(const decl::DecoderOptions& model, const UserCoverageSpec* user = nullptr);

// The RTL side of the fast path: one instance of a Verilated decoder (its own model and
// context), reused from array to array. The built-in rtl/decl_decoder.sv (builtin_rtl()) and a
// user's design Verilated at run time (model/rtl/user_rtl.h, tb/user_rtl_dut.h) both come as one.
//
// An instance is used by one thread only, the one that made it (--jobs N makes one per thread).
class RtlDut {
public:
    virtual ~RtlDut() = default;
    // Drives one array into `out`, whose buffers are reused (no allocation once they have grown).
    virtual void run_into(const std::vector<uint32_t>& tokens, bool lenient, uint64_t bp_seed, const Backpressure& bp,
                          SideResult& out) = 0;
    // Drives arrays back to back (drive_stream in tb/drive.h); an RTL side that cannot throws.
    virtual void run_stream_into(const std::vector<StreamArray>& arrays, uint64_t bp_seed, const Backpressure& bp,
                                 StreamResult& out);
    SideResult run(const std::vector<uint32_t>& tokens, bool lenient, uint64_t bp_seed, const Backpressure& bp) {
        SideResult r;
        run_into(tokens, lenient, bp_seed, bp, r);
        return r;
    }
    // Designs built with coverage: writes Verilator's coverage.dat; false when not built so.
    virtual bool write_coverage(const std::string&) { return false; }
    // Back to the state after reset (each chunk of random arrays starts so: --jobs N checks
    // every array on a decoder in the same state whatever N is).
    virtual void reset() = 0;
    // Designs built with FST tracing: every following cycle goes into FILE until trace_close.
    virtual bool trace_open(const std::string&) { return false; }
    virtual void trace_close() {}
    // Designs built with tracing and the golden harness: the expected pins per cycle (from the
    // model's run of the same array) go into the waveform beside the design's, scope `golden`.
    // False when the design cannot show them.
    virtual bool set_golden(const std::vector<CycleSample>*) { return false; }
};
using RtlFactory = std::function<std::unique_ptr<RtlDut>()>;
// How the built-in RTL is evaluated: region by region, the input-combinational region when the
// inputs are set and the clocked region on the edge (the default: one region fewer per cycle), or
// with Verilator's eval() twice per cycle (the reference the test compares it with).
enum class RtlEval { Regions, VerilatorEval };
std::unique_ptr<RtlDut> builtin_rtl(RtlEval how = RtlEval::Regions);

struct Mismatch {
    ArrayCase array;
    SideResult expected, actual;  // golden/SystemC model, RTL
    std::string first_difference;
    std::string signature;          // what differs (tb/triage.h), kept by the shrinker
    std::string divergence;         // the first cycle where the two sides' pins differ
    std::string replay;             // the command that replays the array
    std::vector<uint32_t> shrunk;
    size_t shrunk_arrays = 0;       // a stream (--stream): the arrays it shrank to (shrunk: their tokens)
    std::string shrunk_difference;  // the first difference on the shrunk array
    std::string written_to;       // the shrunk array's file
    std::string wave;             // its waveform (--wave-on-fail)
};

struct XcheckOptions {
    uint64_t random = 0;          // random arrays
    uint64_t seed = 1;
    int64_t only = -1;            // check just this random array number
    std::vector<std::string> corpus;  // files and directories of .decl/.hex/.bin arrays (each run strict and lenient)
    bool systemc = false;         // SystemC bench (RTL in SystemC mode vs SystemC unit) instead of the fast path
    std::string mismatch_dir = "xcheck-out/mismatches";  // where shrunk failing arrays go (created when needed)
    size_t show = 5;              // mismatches detailed and shrunk (all are counted and grouped)
    std::string vcd;              // SystemC bench: waveform file prefix
    Backpressure bp;
    // Progress on stderr for long random runs: 0 none; 1 a terminal line rewritten every 2 s;
    // 2 a line every progress_seconds (logs, CI).
    int progress = 0;
    double progress_seconds = 30;
    RtlFactory rtl;               // the RTL side; empty = the built-in rtl/decl_decoder.sv
    std::string rtl_name = "rtl/decl_decoder.sv";  // for the report
    std::string rtl_build;        // --rtl: the cache entry the design was loaded from (for the report)
    std::vector<std::string> replay_args;  // the design's options in replay commands (--rtl, --top, -G)
    std::shared_ptr<const UserCoverageSpec> user_bins;  // --bins FILE: user-defined bins and crosses
    decl::DecoderOptions model;   // the golden side's CONST_COUNT / MAX_LENGTH (the RTL's parameters)
    std::string coverage_file;    // an RTL built with coverage: write Verilator's coverage.dat here
    bool first_mismatch = false;  // stop at the first mismatch, unshrunk, nothing written (mutants)
    std::string wave_dir;         // an FST waveform of the first mismatch's shrunk replay goes here
    RtlFactory wave_rtl;          // ... made by this RTL (built with tracing; only called on a mismatch)
    uint64_t case_batch = 0;      // > 0: record a CaseRecord per corpus file and per this many random arrays (JUnit);
                                  // a multiple of kRandomChunk
    // Threads for the random arrays (fast path), each with its own RTL instance made on that
    // thread. The arrays go in chunks of kRandomChunk, each starting from a reset decoder, and
    // the results are merged in array order: the report is the same for any N.
    int jobs = 1;
    // The serial path as it was before chunks: every array generated into new vectors, a new
    // golden side per array, results returned by value (vpsim bench xcheck's baseline).
    bool per_array_path = false;
    // Streaming (tb/xcheck_stream.h): > 0 drives the random arrays back to back, this many to a
    // stream (--stream K; --only I then names a stream); stream_file replays one stream file.
    uint64_t stream = 0;
    std::string stream_file;
};
constexpr uint64_t kRandomChunk = 2000;


// With --coverage and --jobs N > 1: the random arrays' engine run, each worker thread's instance
// then writing its part, FILE.partT (T = 1 .. N); returns the parts written, for write_coverage's
// caller to sum with its own instance's. (Any engine whose checker holds the instance as `dut`.)
template <class Engine, class Checker>
std::vector<std::string> check_random_with_parts(Engine& eng, const XcheckOptions& opt) {
    std::vector<std::string> slots(size_t(opt.jobs)), parts;
    if (opt.jobs > 1 && !opt.coverage_file.empty())
        eng.on_thread_finish([&](Checker& k, int t) {
            const std::string f = fmt::format("{}.part{}", opt.coverage_file, t + 1);
            if (!k.dut->write_coverage(f)) throw std::runtime_error(f + ": the RTL was not built with coverage");
            slots[size_t(t)] = f;
        });
    eng.check_random();
    for (auto& f : slots)
        if (!f.empty()) parts.push_back(std::move(f));
    return parts;
}

// The totals and the coverage (arrays, tokens, events, cycles; `user` with XcheckOptions::user_bins)
// are its ArrayCounts, summed from the engine's with ArrayCounts::add.
struct XcheckReport : ArrayCounts {
    uint64_t mismatches = 0;
    double seconds = 0;
    std::vector<Mismatch> failures;  // the first few, shrunk
    std::vector<std::string> holes;
    std::vector<CaseRecord> cases;   // with XcheckOptions::case_batch
    std::vector<TriageGroup> groups; // every mismatch, grouped by signature
    // Streams (--stream): every mismatch grouped by the pins that differ at the first cycle where
    // the two sides' pins part (pin_signature): cycle-aligned, so a bug whose events fall out of
    // step is still one group.
    std::vector<TriageGroup> pin_groups;
    bool ok() const { return mismatches == 0 && holes.empty(); }
};

// Side runners. Both draw the same back-pressure sequence from `bp_seed`.
SideResult run_rtl(const std::vector<uint32_t>& tokens, bool lenient, uint64_t bp_seed, const Backpressure& bp);
// With `trace`, the model's pins cycle by cycle go into it (as run_model_stream's).
SideResult run_model(const std::vector<uint32_t>& tokens, bool lenient, uint64_t bp_seed, const Backpressure& bp,
                     const decl::DecoderOptions& model = {}, std::vector<CycleSample>* trace = nullptr);

// The first difference between two sides: its text ("event 2: model ELEMENT ... | rtl ELEMENT
// ...") and its signature, what differs without the values ("event ELEMENT: value", "event
// ERROR D9 | STREAM: kind", "missing event END in rtl", "cycles", "timeout (rtl)"): mismatches
// with one signature are most likely one bug (triage), and a shrunk array must keep it.
struct Difference {
    std::string text, signature;
    bool cycles_only = false;  // the events agree, the cycle counts do not
    bool empty() const { return text.empty(); }
};
Difference difference(const SideResult& expected, const SideResult& actual);
// difference(...).text: "" when equal.
std::string compare(const SideResult& expected, const SideResult& actual);
// The first cycle where the two sides' traces differ: "cycle 5: in_ready model 1 | rtl 0;
// out_valid ..." ("" when equal over the shorter one's length and the lengths are equal).
std::string first_divergence(const std::vector<CycleSample>& model, const std::vector<CycleSample>& rtl);
// What differs at that cycle, without the values: the pins by name ("in_ready", "out_valid",
// "event kind STREAM | ERROR D7", "event fields ERROR": the kind without the rule, whose index moves
// with a lost token), or "pins agree, rtl longer"; "" when equal.
std::string pin_signature(const std::vector<CycleSample>& model, const std::vector<CycleSample>& rtl);

// A token array's units for shrinking: each token with its payload (a CONST header with its 4 x
// count DWORDs, an EXT header with its count DWORDs, cut at the array's end).
std::vector<std::pair<size_t, size_t>> token_units(const std::vector<uint32_t>& tokens);
// Simpler variants of an array: a CONST with one vector fewer, an EXT with one DWORD fewer.
std::vector<std::vector<uint32_t>> simpler_arrays(const std::vector<uint32_t>& tokens);
// Shrinks a failing array by units (tb/shrink.h): the smallest array found for which `keeps`
// still holds.
std::vector<uint32_t> shrink(std::vector<uint32_t> tokens, const std::function<bool(const std::vector<uint32_t>&)>& keeps);

// The array of random number `index` under `seed` (replayable one by one).
ArrayCase random_case(uint64_t seed, uint64_t index);
// The same array into `c`, reusing its buffers and `scratch`'s.
struct GenScratch;
void random_case(uint64_t seed, uint64_t index, ArrayCase& c, GenScratch& scratch);
// Files and directories (every .decl/.hex/.bin in it, sorted) as corpus cases, strict and lenient.
// A text file's `// bp-seed: N` line sets its back-pressure pattern (shrunk files carry the
// failing array's, so they replay under the same handshakes).
std::vector<ArrayCase> load_corpus(const std::vector<std::string>& paths);
std::vector<ArrayCase> load_corpus(const std::string& path);

// The replay command of one array under these options ("vpsim xcheck --rtl ... --seed S --only I
// --no-corpus --out-ready P --in-valid Q"; a corpus file: "--corpus FILE --random 0 ...").
std::string replay_command(const ArrayCase& c, const XcheckOptions& opt);

// --dump-arrays DIR: every array of the run (corpus, then random) with the golden model's events
// and cycles under its back-pressure, into DIR/arrays.txt (format in docs/dpi.md). Returns the
// number of arrays written.
uint64_t dump_arrays(const XcheckOptions& opt, const std::string& dir);

XcheckReport run_xcheck(const XcheckOptions& opt);

// SystemC bench: every array through the Verilated RTL (SystemC mode) and the SystemC unit in
// one simulation; results per array for each side.
struct ScBenchResult {
    std::vector<SideResult> rtl, model;
};
ScBenchResult run_sc_bench(const std::vector<ArrayCase>& arrays, const Backpressure& bp, const std::string& vcd_prefix);

}  // namespace vpsim::tb
