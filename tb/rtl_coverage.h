// Verilator's coverage.dat (verilator --coverage: line, branch, toggle and the RTL's own cover
// properties) summarised per kind of point, with the points never hit.
#pragma once

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

// Reads coverage.dat; throws std::runtime_error naming the file on a malformed one.
CoverageSummary read_coverage_dat(const std::string& file);

// The reports of DIR/coverage.dat (vpsim xcheck --coverage DIR, docs/xcheck.md): DIR/coverage.info
// (verilator_coverage --write-info, with add_branch_records), DIR/annotated/ (the sources, each
// line with its points), DIR/html/ (lcov's genhtml --branch-coverage) and DIR/holes.txt (the
// points never hit, a bus's bits as one range). Throws std::runtime_error: a malformed
// coverage.dat, a tool missing or failing (its output), a file that cannot be written.
struct RtlCoverageReport {
    CoverageSummary summary;                   // coverage.dat
    uint64_t lcov_lines = 0, lcov_hit = 0;     // source lines with a point (lcov's DA records), and those hit
    std::vector<CoveragePoint> grouped_holes;  // summary.holes through group_bit_ranges: holes.txt's lines
};
RtlCoverageReport write_rtl_coverage_report(const std::string& dir);

}  // namespace vpsim::tb
