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
};

// Reads coverage.dat; throws std::runtime_error naming the file on a malformed one.
CoverageSummary read_coverage_dat(const std::string& file);

}  // namespace vpsim::tb
