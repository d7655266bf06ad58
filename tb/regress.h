// vpsim regress (docs/regress.md): a regression file's runs, each one `vpsim xcheck --json` in its
// own folder OUT/runs/<hash>/, run by the study backends (model/study/backend.h: local, GNU
// parallel, Slurm) through `vpsim regress-run DIR`, which writes DIR/result.json last: a run is
// finished when that file is there, so a regression run again skips its finished runs. The
// reports over all runs: merged functional coverage, merged code coverage, one triage, one JUnit.
#pragma once

#include "tb/regress_file.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace vpsim::tb {

struct RegressRun {
    size_t index = 0;
    std::string label;  // "group/design/params/profile/seedS"
    std::string group, unit, rtl, params, profile;
    uint64_t seed = 0;
    std::vector<std::string> args;  // vpsim's arguments, "xcheck" first
    bool code_coverage = false;
    std::string hash;  // 16 hex digits: what decides the run's result (see expand_runs)
    std::string dir;   // OUT/runs/<hash>
};

// Every run of the file, in order (groups, designs, -G sets, profiles, seeds). The hash covers the
// binary's identity (model/study/point_hash.h), the run's label, the xcheck arguments and the bytes of every RTL and
// bins file, so a run whose inputs changed runs again. `builtin_source(unit)`: the built-in RTL's
// file, given to --rtl when a -G set applies to the built-in design. `rtl_cache`: passed on as
// --rtl-cache ("" none; not part of the hash). Throws RegressError when a file cannot be read.
std::vector<RegressRun> expand_runs(const Regression& reg, const std::string& out_dir, const std::string& binary_identity,
                                    const std::function<std::string(const std::string&)>& builtin_source,
                                    const std::string& rtl_cache);

// DIR/run.json: what `vpsim regress-run DIR` runs.
nlohmann::ordered_json run_json(const RegressRun& run);

// vpsim regress-run DIR: runs DIR/run.json's xcheck with `exe` (stdout into DIR/xcheck.json,
// stderr into DIR/xcheck.stderr), then writes DIR/coverage.json (its functional coverage) and
// DIR/result.json, last. 0 when the run finished (whatever its verdict), 2 when it did not (the
// reason on stderr; no result.json).
int regress_run_one(const std::string& dir, const std::string& exe);

struct RunOutcome {
    enum class State { Passed, Failed, Error };
    const RegressRun* run = nullptr;
    State state = State::Error;
    uint64_t mismatches = 0;
    double seconds = 0;
    std::string error;     // State::Error: why (the run's stderr or exit status)
    nlohmann::json report; // xcheck's JSON
};

// What the run's folder says (the backend has ended).
RunOutcome read_outcome(const RegressRun& run);

// The reports of the whole regression into OUT: coverage.json (merged functional coverage),
// code-coverage/ (merged coverage.dat and its report, when runs had code coverage), triage.json
// and triage.txt, junit.xml (one test case per run, one per unit's merged coverage) and
// summary.json. Returns the text to print; `passed`: every run passed and the merged coverage
// has no hole. Throws OutputError / std::runtime_error (a tool or a file).
std::string write_regress_reports(const Regression& reg, const std::vector<RunOutcome>& outcomes, const std::string& out_dir,
                                  bool& passed);

}  // namespace vpsim::tb
