// Functional coverage as named bins with hit counts, merged across runs (vpsim coverage merge,
// vpsim regress; docs/regress.md). A bin's name is the one its hole prints as ("token NOP",
// "strict rule D7 (rtl)", "FLOAT3 from stream 2", "user bin short4"), so a merged hole reads like
// a run's. File format: schema "vpsim-coverage-1".
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim::tb {

struct CoverageFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One unit's bins over `runs` runs.
struct UnitCoverage {
    uint64_t runs = 0;
    std::vector<std::string> order;          // bin names, first seen first
    std::map<std::string, uint64_t> hits;    // bin -> hits summed over the runs
    // Bins a run did not count as holes (unreachable with its -G parameters, or waived): bin ->
    // (how many runs excluded it, the first reason).
    std::map<std::string, std::pair<uint64_t, std::string>> excluded;
    void add_bin(const std::string& bin, uint64_t n);
    void add(const UnitCoverage& other);
    // Bins no run hit, but those that every run excluded.
    std::vector<std::string> holes() const;
};

struct CoverageSet {
    std::map<std::string, UnitCoverage> units;  // "decl_decoder", "vertex_fetch"
    void add(const CoverageSet& other);
    nlohmann::ordered_json to_json() const;
};

// The coverage of one `vpsim xcheck --json` report (either unit). `source` names it in errors.
CoverageSet coverage_of_xcheck(const nlohmann::json& report, const std::string& source);
// A coverage file (schema "vpsim-coverage-1") or an xcheck --json report. Throws CoverageFileError
// naming the file and the rule.
CoverageSet load_coverage(const std::string& path);

}  // namespace vpsim::tb
