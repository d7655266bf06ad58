// Verilator's coverage.dat (verilator --coverage: line, branch, toggle and the RTL's own cover
// properties) summarised per kind of point, with the points never hit.
#pragma once

#include "tb/coverage_gate.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace vpsim::tb {

struct CoveragePoint {
    std::string kind;     // "line", "branch", "toggle", "user"
    std::string file;
    int line = 0;
    std::string comment;  // Verilator's "o" field: the block, the toggled signal bit, the cover name
    std::string hier;     // the instance
    uint64_t count = 0;
};

struct CoverageSummary {
    struct Kind {
        uint64_t points = 0, hit = 0;
        double percent() const { return points ? 100.0 * double(hit) / double(points) : 100.0; }
    };
    std::map<std::string, Kind> kinds;   // by kind
    std::vector<CoveragePoint> holes;    // points with count 0, in file order
    std::vector<CoveragePoint> points;   // every point, in the file's order
};

// Holes with the bits of one bus merged: toggle points of the same file, line, instance and signal
// whose bits are contiguous become one, "offset_q[23:18]" (count 0).
std::vector<CoveragePoint> group_bit_ranges(const std::vector<CoveragePoint>& holes);

// lcov's tracefile (verilator_coverage --write-info: line records only) with branch records added
// for Verilator's branch points and its toggle points (each signal bit a branch of its declaration's
// line, "taken" = toggled), so genhtml --branch-coverage shows both, toggle holes included.
std::string add_branch_records(const std::string& info, const std::vector<CoveragePoint>& points);

// Code-coverage waivers and the gate (vpsim xcheck --coverage DIR --code-waive FILE --code-gate PCT):
// a point is named `FILE:LINE: KIND COMMENT` with the source file's base name, one toggle bit each
// (`decl_decoder.sv:212: toggle offset_q[0]`); a waiver (tb/coverage_gate.h's `waive PATTERN because
// REASON`, '*' matching any text) covers the holes it names. The gate is the share of points hit or
// waived, over every kind; the run fails under it.
std::string point_name(const CoveragePoint& p);
struct CodeGate {
    uint64_t points = 0, hit = 0;
    std::vector<std::pair<CoveragePoint, std::string>> waived;  // holes covered by a waiver, with its reason
    std::vector<CoveragePoint> holes;                            // neither hit nor waived
    std::map<std::string, uint64_t> waived_by_kind;
    std::vector<Waiver> unused;                                  // waivers that named no hole
    double gate = -1;                                            // percent; < 0: no gate
    double percent() const { return points ? 100.0 * double(hit + waived.size()) / double(points) : 100.0; }
    bool fails() const { return gate >= 0 && double(hit + waived.size()) * 100.0 < gate * double(points) - 1e-9; }
};
CodeGate apply_code_gate(const CoverageSummary& s, const std::vector<Waiver>& waivers, double gate);

// Reads coverage.dat; throws std::runtime_error naming the file on a malformed one.
CoverageSummary read_coverage_dat(const std::string& file);

// The reports of DIR/coverage.dat (vpsim xcheck --coverage DIR, docs/xcheck.md): DIR/coverage.info
// (verilator_coverage --write-info, with add_branch_records), DIR/annotated/ (the sources, each
// line with its points), DIR/html/ (lcov's genhtml --branch-coverage) and DIR/holes.txt (the
// points never hit, a bus's bits as one range; with waivers, the holes no waiver covers, and
// DIR/waived.txt the waived points with their reasons). Throws std::runtime_error: a malformed
// coverage.dat, a tool missing or failing (its output), a file that cannot be written.
struct RtlCoverageReport {
    CoverageSummary summary;                   // coverage.dat
    uint64_t lcov_lines = 0, lcov_hit = 0;     // source lines with a point (lcov's DA records), and those hit
    std::vector<CoveragePoint> grouped_holes;  // the unwaived holes through group_bit_ranges: holes.txt's lines
    CodeGate gate;                             // waivers and the gate
};
RtlCoverageReport write_rtl_coverage_report(const std::string& dir, const std::vector<Waiver>& waivers = {}, double gate = -1);

}  // namespace vpsim::tb
