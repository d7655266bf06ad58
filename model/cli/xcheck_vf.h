// vpsim xcheck --unit vertex_fetch: the options only the vertex fetch cross-check has, and its
// run (model/cli/cmd_xcheck_vf.cpp). cmd_xcheck.cpp registers them and dispatches on --unit.
#pragma once

#include "model/rtl/user_rtl.h"
#include "tb/coverage_gate.h"
#include "tb/mutants.h"
#include "tb/user_bins.h"
#include "tb/triage.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::cli {

// Code-coverage waivers and gate of either unit (--code-waive FILE, --code-gate PCT; with --coverage).
struct CodeCoverageControls {
    std::vector<std::string> waive_files;
    double gate = -1;  // percent of points hit or waived; < 0: no gate
    std::vector<tb::Waiver> waivers;  // loaded from waive_files (load_code_waivers)
};

struct VfXcheckArgs {
    std::string unit = "decl_decoder";  // --unit
    int64_t lat_min = -1, lat_max = -1;  // --latency-min/--latency-max (-1: drawn per case)
    double req_ready = -1, idx_valid = -1, out_ready = -1;
    bool no_directed = false;
    bool check_traffic = false, no_check_traffic = false;  // --check-traffic / --no-check-traffic
    // Shared with the decoder's cross-check (copied from its options by cmd_xcheck.cpp).
    uint64_t random = 0, seed = 1;
    int64_t only = -1;
    uint32_t stream = 0;  // --stream K: random streams of K draws back to back (tb::vf::random_stream)
    int jobs = 1;
    bool first_mismatch = false, json = false;
    size_t show = 5;  // --show: mismatches kept, shrunk and written
    std::vector<std::string> rtl, params;
    std::string top, rtl_cache, coverage;
    int mutants = 0;
    uint64_t mutant_seed = 1;
    double mutant_timeout = 60;
    std::string mutants_dir = "xcheck-mutants";
    std::string case_file;     // --case FILE: check one case file (a shrunk failing case)
    std::string mismatch_dir;  // where shrunk failing cases are written (--out DIR/mismatches, --mismatch-dir)
    std::string junit;         // --junit FILE
    std::string wave_on_fail;  // --wave-on-fail DIR
    std::string bins;          // --bins FILE
    std::vector<std::string> waive, waive_bin;  // --waive FILE, --waive-bin "BIN because REASON"
    bool gate = false, no_gate = false;         // --coverage-gate / --no-coverage-gate
    CodeCoverageControls code;                  // --code-waive, --code-gate
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
// What a campaign's report says beside its rows: the unit, what each mutant is checked against
// (the budget and its seed), yosys mutate's count and seed, and --junit FILE ("" none).
struct CampaignReport {
    std::string unit;     // decl_decoder, vertex_fetch
    std::string against;  // "corpus ... + N random arrays (seed S)"
    int n = 0;
    uint64_t seed = 1;
    std::string junit;
};
// The mutation campaign of either unit (tb::run_mutation_campaign, the unit's part in `cs`): the
// header ("each against AGAINST"), one row per mutant, the summary, each survivor with its replay
// command; with --junit, the campaign's JUnit report (tb::write_campaign_junit, one test case per
// mutant). 0 when every mutant was killed, 1 otherwise, 2 when the report cannot be written.
int run_campaign(const MutantsSetup& setup, const tb::CampaignSpec& cs, const CampaignReport& report);
// Either unit's triage: the text table ("mismatch groups (...)") and the JSON array
// ("mismatch_groups": signature, count, first, first_difference, replay).
std::string groups_text(const std::vector<tb::TriageGroup>& groups, uint64_t mismatches);
nlohmann::ordered_json groups_json(const std::vector<tb::TriageGroup>& groups);
// And the pin groups, by what differs first in time on the pins ("pin groups (...)"; "pin_groups":
// pins, count, first, first_divergence, replay).
std::string pin_groups_text(const std::vector<tb::TriageGroup>& groups);
nlohmann::ordered_json pin_groups_json(const std::vector<tb::TriageGroup>& groups);
// The coverage controls of either unit: --waive files and --waive-bin texts into `waivers`, --bins
// FILE into `spec` (null without), its bins checked against the unit. False after printing why (exit 2).
bool load_coverage_controls(const std::vector<std::string>& waive, const std::vector<std::string>& waive_bin,
                            const std::string& bins, bool vertex_fetch, std::vector<tb::Waiver>& waivers,
                            std::shared_ptr<const tb::UserCoverageSpec>& spec);
// --wave-on-fail DIR of either unit: the directory created, and the spec of the design (`sources`,
// or the built-in RTL file `builtin` when empty; --top, -G, --rtl-cache) to build with tracing when
// a mismatch needs it. False after printing why.
bool prepare_wave(const std::string& dir, const std::vector<std::string>& sources, const std::string& builtin, const std::string& top,
                  const std::vector<std::string>& params, const std::string& rtl_cache, rtl::UserRtlSpec& spec);
// The coverage gate's JSON fields (coverage_gate, coverage_holes, coverage_holes_not_gated,
// coverage_excluded, coverage_waived) and the user bins' counts (user_bins, user_crosses, user_seqs).
void gate_json(const tb::GateResult& gate, bool gated, nlohmann::ordered_json& j);
void user_bins_json(const tb::UserCoverageSpec* spec, const tb::UserCoverage& u, nlohmann::ordered_json& j);
// Loads the waiver files (before anything runs). False after printing why (exit 2).
bool load_code_waivers(CodeCoverageControls& c);
// The --coverage report of cmd_xcheck.cpp (coverage.info, lcov HTML, holes.txt, waived.txt) for
// DIR/coverage.dat, with the code waivers and gate: 0, 1 when under the gate, 2 on an error.
int xcheck_coverage_report(const std::string& dir, bool json, nlohmann::ordered_json* j, const CodeCoverageControls& cc);

}  // namespace vpsim::cli
