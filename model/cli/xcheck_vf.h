// vpsim xcheck --unit vertex_fetch: the options only the vertex fetch cross-check has, and its
// run (model/cli/cmd_xcheck_vf.cpp). cmd_xcheck.cpp registers them and dispatches on --unit.
#pragma once

#include "tb/mutants.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::cli {

struct VfXcheckArgs {
    std::string unit = "decl_decoder";  // --unit
    int64_t lat_min = -1, lat_max = -1;  // --latency-min/--latency-max (-1: drawn per case)
    double req_ready = -1, idx_valid = -1, out_ready = -1;
    bool no_directed = false;
    bool check_traffic = false, no_check_traffic = false;  // --check-traffic / --no-check-traffic
    // Shared with the decoder's cross-check (copied from its options by cmd_xcheck.cpp).
    uint64_t random = 0, seed = 1;
    int64_t only = -1;
    int jobs = 1;
    bool first_mismatch = false, json = false;
    std::vector<std::string> rtl, params;
    std::string top, rtl_cache, coverage;
    int mutants = 0;
    uint64_t mutant_seed = 1;
    double mutant_timeout = 60;
    std::string mutants_dir = "xcheck-mutants";
};

// Adds --unit and the vertex fetch options to `xcheck`.
void add_vf_xcheck_options(CLI::App* c, VfXcheckArgs& a);
int run_vf_xcheck(const VfXcheckArgs& a);
// --mutants' set-up, the same for both units (cmd_xcheck.cpp): the source (`builtin` and
// `builtin_top` without --rtl, else the one --rtl file and its --top), the work directory, yosys
// mutate's list of `n` mutants and the unmutated netlist. False after printing why (exit 2).
struct MutantsSetup {
    tb::MutationSpec spec;
    std::vector<tb::Mutation> list;
    std::string unmutated;
};
bool prepare_mutants(const std::vector<std::string>& rtl, const std::string& top, const std::string& builtin,
                     const std::string& builtin_top, const std::string& dir, const std::vector<std::string>& params,
                     int n, uint64_t seed, MutantsSetup& out);
// The --coverage report of cmd_xcheck.cpp (coverage.info, lcov HTML, holes.txt) for DIR/coverage.dat.
int xcheck_coverage_report(const std::string& dir, bool json, nlohmann::ordered_json* j);

}  // namespace vpsim::cli
