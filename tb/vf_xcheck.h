// The cross-check of the vertex fetch RTL (rtl/vertex_fetch.sv, or a user's design) against the
// golden vertex fetch vs::fetch_vertex: random layouts (declarations) x random vertex data
// (NaN, infinity, denormal bit patterns, extreme shorts and bytes) x random memory latency and
// back-pressure; every vertex's v0..v15 compared bit for bit. docs/vertex-fetch-rtl.md.
#pragma once

#include "model/decl/decl_decoder.h"
#include "model/rtl/vertex_fetch_pins.h"
#include "tb/case_record.h"
#include "tb/coverage_gate.h"
#include "tb/triage.h"
#include "tb/user_bins.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace vpsim::tb::vf {

// The pins the cross-check drives (model/rtl/vertex_fetch_pins.h), by their short names here.
using rtl::vf::builtin_vertex_fetch;
using rtl::vf::Inputs;
using rtl::vf::kMaxElems;
using rtl::vf::kRegs;
using rtl::vf::Outputs;
using rtl::vf::Pins;

// The layout bus of a declaration (lay_count, lay_elems): one entry per ELEMENT event in
// declaration order, [2:0] type, [7:3] register, [11:8] stream, [31:12] offset. The register of
// an element whose value does not reach v0..v15 (register 16; a register the declaration loads
// again later from the tessellator) is 31: fetched (the same traffic) and dropped. Throws
// std::invalid_argument when the declaration has more than kMaxElems elements or an offset of
// 2^20 bytes or more (naming the element).
std::vector<uint32_t> layout_words(const decl::Declaration& d);

// Timing and back-pressure of one case (drawn per case unless fixed on the command line).
struct Timing {
    uint32_t lat_min = 1, lat_max = 1;  // memory latency in cycles (>= 1), per request
    double req_ready = 1, out_ready = 1, idx_valid = 1;  // probability of the handshake signal per cycle
};

struct Case {
    std::vector<uint32_t> tokens;       // the declaration (decoded lenient)
    std::vector<uint8_t> skew;          // bytes added to element k's offset (byte offsets no declaration makes)
    decl::Declaration decl;
    std::array<uint32_t, 16> base{}, stride{};
    std::vector<uint32_t> indices;      // the vertices, in order
    std::vector<uint8_t> flush;         // per vertex: idx_flush
    uint64_t mem_seed = 0;              // memory content (mem_word); each flushed vertex changes it (versions)
    Timing timing;
    uint64_t bp_seed = 0;               // per-cycle draws
    uint64_t seed = 0, index = 0;       // random case `index` under `seed`
    std::string origin;                 // "random" / "directed NAME"
    // Later draws, after this one's vertices: each its own declaration, streams and vertices (the
    // layout and streams change between two vertices, as between a pipeline's draws); only their
    // tokens, skew, decl, base, stride, indices, flush and reset_before are used.
    std::vector<Case> then;
    bool reset_before = false;          // (a later draw) rst is asserted before it, once every vertex before it is out
    // (A later draw) -1: its first index is offered as idx_valid is drawn per cycle, like every
    // other vertex; >= 0 (a stream's draw, --stream K): idx_valid is low for exactly `gap` cycles
    // after the previous draw's last index was accepted, then high until this draw's first index
    // is accepted (0: offered in the very next cycle, back to back).
    int gap = -1;
};

// Stream `index` of --stream k (k >= 2) under `seed`: k draws back to back, no reset between them,
// from the random cases index*k .. index*k+k-1 of `seed` (each one's own draw, without its later
// draws); the first one's memory, timing and back-pressure seeds; per boundary a gap (Case::gap)
// drawn from (seed, index): 0 at half of them, else 1-8 cycles. origin "stream".
Case random_stream(uint64_t seed, uint64_t index, uint32_t k);

// The case's draws in order: the case itself, then `then`.
std::vector<const Case*> draws(const Case& c);
// Its vertices, all draws.
size_t vertex_count(const Case& c);

// The 16 bytes of memory word `word` (byte address word * 16) under `mem_seed`: four DWORDs,
// each random or one of the special patterns (NaN, infinity, denormal, -0, extreme shorts,
// bytes 0/255/128/127).
void mem_word(uint64_t mem_seed, uint32_t word, uint8_t out[16]);

// What a side gave for one vertex.
struct Vertex {
    uint32_t index = 0;
    uint32_t loaded = 0;
    std::array<uint32_t, kRegs * 4> regs{};
    uint64_t cycle = 0;  // the design's: the cycle the vertex left in (the golden side: 0)
};

// One memory request: the byte address of its first word and its words (1 or 2).
struct Request {
    uint32_t addr = 0, words = 0;
    uint64_t cycle = 0;  // the design's: the cycle the request was taken in (expected ones: 0)
    bool operator==(const Request& o) const { return addr == o.addr && words == o.words; }
};

struct SideResult {
    std::vector<Vertex> vertices;
    std::vector<Request> requests_made;  // in order
    uint64_t cycles = 0, requests = 0, words = 0;
    bool timed_out = false, assertion_failed = false;
    std::string protocol;  // a broken port rule (request of 0 or 3 words, misaligned address)
};

// Functional coverage of what went through the pins.
struct Coverage {
    std::array<std::array<uint64_t, 16>, 8> type_stream{};  // elements fetched [type][stream]
    std::array<uint64_t, 16> start_byte{};                  // element start address mod 16
    std::array<uint64_t, 8> span2{};                        // per type: element across two words
    std::array<uint64_t, 3> hit{};                          // first word reused (held) / read / held but flushed (read again)
    std::array<uint64_t, 5> stride{};                       // packed, padded, not a multiple of 4, >= 64 KiB, wraps 2^32
    std::array<uint64_t, 6> pressure{};                     // req stalled, out stalled, idx idle, lat 1, lat 2-9, lat >= 10
    std::array<uint64_t, 12> data{};                        // NaN, +inf, -inf, denormal, -0 (float types); short -32768, 32767, -1;
                                                            // byte 0, 255 (UBYTE4), color 0, 255
    std::array<uint64_t, 10> layout{};                      // register 16 dropped, tess-zeroed register, register loaded twice, no element,
                                                            // >= 16 elements, an offset >= 2^18, a byte offset (not a multiple of 4),
                                                            // layout changed between vertices, reset between vertices,
                                                            // a later draw's first element in the word the one before it ended in
    void add(const Coverage& o);
    std::vector<std::string> holes() const;
    std::string table() const;
};

struct Mismatch {
    Case c;
    std::string what;        // the first difference: vertex, register, expected and actual
    std::string signature;   // what differs at the first diverging vertex, without values (compare)
    uint64_t vertex = 0;     // its position in the case
    int reg = -1;
    Case shrunk;             // the smallest case that still fails with the same signature
    std::string shrunk_what;
    std::string replay;      // the command that reproduces it
    std::string written_to;  // the shrunk case's file (Options::mismatch_dir), replayed by --case FILE
    std::string wave;        // the shrunk case's waveform (Options::wave_dir; the first failure only)
    uint64_t wave_cycles = 0;
};

struct Options {
    uint64_t random = 10000;   // random cases
    uint64_t seed = 1;
    int64_t only = -1;         // just this case (with `stream`, this stream)
    uint32_t stream = 0;       // >= 2: the random cases are streams of this many draws (random_stream),
                               // `random` rounded up to whole streams
    bool directed = true;      // the directed cases first
    int jobs = 1;
    bool first_mismatch = false;
    size_t show = 5;           // mismatches kept: shrunk, written and detailed (every one is counted and grouped)
    // Fixed timing (the command-line options); unset fields are drawn per case.
    int64_t lat_min = -1, lat_max = -1;
    double req_ready = -1, out_ready = -1, idx_valid = -1;
    std::function<std::unique_ptr<Pins>()> rtl;   // empty: the built-in RTL
    std::string replay_args;   // the options that shaped the run (--rtl ..., -G ...) for replay commands
    std::string coverage_file; // an RTL built with coverage: coverage.dat here
    // The requests must be exactly those of rtl/vertex_fetch.sv's one-word tag, in order
    // (expected_requests): on for the built-in RTL and its mutants, off for a user's design
    // (which may read memory its own way) unless asked for.
    bool check_traffic = true;
    int progress = 0;          // 0 none, 1 terminal, 2 a line every 30 s
    std::string mismatch_dir;  // non-empty: each shrunk failing case is written here as a case file
    std::string case_file;     // non-empty: check just the case in this file (a shrunk case written so)
    // --wave-on-fail: the first failure's shrunk case is replayed on `wave_rtl` (the design built
    // with tracing; only called on a mismatch) into a VCD file in wave_dir.
    std::string wave_dir;
    std::function<std::unique_ptr<Pins>()> wave_rtl;
    std::shared_ptr<const UserCoverageSpec> user_bins;  // --bins: counted per case (fetch events, declarations)
    int gate = -1;             // the coverage gate: 1 on (--coverage-gate), 0 off (--no-coverage-gate), -1 the default
};

// Whether the run's coverage holes are computed (a run with the directed cases, not --only,
// --case or --first-mismatch; or --coverage-gate) and whether they fail it (--no-coverage-gate: not).
bool counts_holes(const Options& o);
bool gated(const Options& o);
// The built-in bins the design's parameters make unreachable (tb/coverage_gate.h), with the
// reason: none at the built-in parameters.
std::vector<Exclusion> unreachable_bins(const Options& o);

struct Report {
    uint64_t cases = 0, vertices = 0, elements = 0, cycles = 0, mismatches = 0;
    double seconds = 0;
    Coverage coverage;
    UserCoverage user;               // --bins
    std::vector<Mismatch> failures;  // the first few, shrunk
    std::vector<std::string> holes;
    std::vector<TriageGroup> groups;  // every mismatch, grouped by signature (the first diverging vertex's)
    std::vector<TriageGroup> pin_groups;  // every mismatch, grouped by pin_signature (not with first_mismatch)
    std::vector<CaseRecord> records;  // JUnit: each directed case, each chunk of random cases
    bool ok() const { return mismatches == 0 && holes.empty(); }
};

constexpr uint64_t kChunk = 1000;  // cases per chunk; every chunk starts from a reset design

Case random_case(uint64_t seed, uint64_t index);
std::vector<Case> directed_cases();
// Fixed timing options applied over a case's drawn ones.
void apply_timing(const Options& o, Case& c);

// The golden vertices of a case (vs::fetch_vertex on each vertex's bytes).
std::vector<Vertex> golden(const Case& c);
// The requests rtl/vertex_fetch.sv makes for a case (docs/vertex-fetch-rtl.md, "Cycle
// behaviour"): per element, in layout order, the words first..last of its bytes, less the first
// when it is the word the previous element ended in (not for a flushed vertex's first element).
std::vector<Request> expected_requests(const Case& c);
// "" when equal, else the first request that differs.
std::string compare_requests(const std::vector<Request>& expected, const std::vector<Request>& actual);
// The fetch events of a case for the user bins: per draw, per vertex in order, per element in
// layout order (type, stream, byte offset, register, vertex index, idx_flush).
void fetch_events(const Case& c, std::vector<FetchEvent>& out);
// Counts a case into the user bins: its fetch events and each draw's declaration (lenient).
void count_user(const UserCoverageSpec& spec, const Case& c, UserCoverage& u);
// Drives a case into the design; `cov` (may be null) counts the pin-side bins.
void run_case(Pins& rtl, const Case& c, SideResult& out, Coverage* cov);
// "" when equal, else the first difference; sets vertex/register, and the signature: what differs
// at the first diverging vertex (the output events in order, so cycle-aligned), without values:
// "register value (SHORT2)" (the type of the element that loads it; "tessellator", "not
// loaded"), "vertex index", "out_loaded", "protocol", "assertion", "missing vertex", "extra
// vertex", "timeout". Mismatches with one signature are most likely one bug (triage).
std::string compare(const Case& c, const std::vector<Vertex>& expected, const SideResult& actual, uint64_t* vertex = nullptr,
                    int* reg = nullptr, std::string* signature = nullptr);
// What differs first in time on the design's pins (issue 34 item 6, cycle-aligned): of the first
// output vertex that differs and, with `traffic`, the first memory request that is not the expected
// one, the one the design made in the earlier cycle; named by pins, without values or element
// types: "mem_req_addr", "mem_req_words", "missing memory request", "extra memory request", or the
// output pins that differ at that vertex ("out_index", "out_regs", "out_loaded", joined by " + ");
// else "missing vertex", "extra vertex", "timeout", "protocol", "assertion"; "" when equal. A bug
// that makes the design read the wrong memory is one group whatever element types it hits.
std::string pin_signature(const Case& c, const std::vector<Vertex>& expected, const SideResult& actual, bool traffic);
// The smallest case (fewest draws, then fewest vertices, then fewest declaration tokens, plain
// streams) for which `fails` still holds: whole draws dropped (the first one too: the next one
// takes its place, with the case's memory, timing and back-pressure), then their resets. Every step keeps the stimulus legal: a declaration that decodes lenient
// and breaks no lenient rule its draw did not already break (no REG before a STREAM made by
// removing the STREAM: D7).
Case shrink(Case c, const std::function<bool(const Case&)>& fails);
// The lenient rules a declaration breaks: bit n set for rule Dn (decl::rule_id).
uint32_t lenient_rules(const std::vector<uint32_t>& tokens);
// A case as a file (JSON: docs/xcheck.md, "Vertex fetch case files") and back. read_case throws
// std::runtime_error naming the file, the field and the rule (a declaration that does not decode,
// a vertex count that does not match its flush flags, ...).
nlohmann::ordered_json case_json(const Case& c);  // the case's fields (--json's failures)
// `replay`: the command that checks the file; `found_by`: the run's replay command of the case it was shrunk from.
std::string case_file_text(const Case& c, const std::string& replay, const std::string& found_by, const std::string& what);
Case read_case(const std::string& file);
// The case as text: declaration, streams, vertices, timing.
std::string describe(const Case& c);
std::string replay_command(const Options& o, const Case& c);

Report run(const Options& o);

}  // namespace vpsim::tb::vf
