// vpsim's subcommands. Each registers itself on the top-level CLI11 app; the callback it
// installs stores the exit code in `exit_code` (0 ok, 1 rejected/mismatch, 2 usage or I/O).
#pragma once

#include "model/tess/tess_types.h"
#include "model/vs/vs_isa.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace vpsim::cli {

void add_decl_command(CLI::App& app, int& exit_code);
void add_xcheck_command(CLI::App& app, int& exit_code);
void add_asm_commands(CLI::App& app, int& exit_code);   // asm, disasm
void add_check_command(CLI::App& app, int& exit_code);
void add_exec_command(CLI::App& app, int& exit_code);
void add_bench_command(CLI::App& app, int& exit_code);  // vpsim bench and its subcommands (cmd_bench.cpp)
void add_bench_exec(CLI::App* bench, int& exit_code);      // vpsim bench exec (cmd_bench_exec.cpp)
void add_bench_run(CLI::App* bench, int& exit_code);       // vpsim bench run (cmd_bench_run.cpp)
void add_bench_dispatch(CLI::App* bench, int& exit_code);  // vpsim bench dispatch (cmd_bench_dispatch.cpp)
void add_scene_exec_command(CLI::App& app, int& exit_code);
void add_params_command(CLI::App& app, int& exit_code);
void add_bench_calibrate(CLI::App* bench, int& exit_code);  // vpsim bench calibrate
void add_bench_suite(CLI::App* bench, int& exit_code);      // vpsim bench coissue, bench reference
void add_bench_metamorphic(CLI::App* bench, int& exit_code);  // vpsim bench metamorphic (cmd_metamorphic.cpp)
void add_bench_correlate(CLI::App* bench, int& exit_code);  // vpsim bench correlate (cmd_correlate.cpp)
void add_bench_sensitivity(CLI::App* bench, int& exit_code);  // vpsim bench sensitivity (cmd_sensitivity.cpp)
void add_bench_xcheck(CLI::App* bench, int& exit_code);     // vpsim bench xcheck (cmd_bench_xcheck.cpp)
void add_presets_command(CLI::App& app, int& exit_code);  // vpsim presets
// --preset NAME on a command that takes parameters (applied before --config and --set).
void add_preset_option(CLI::App* c, std::string& preset);
void add_run_command(CLI::App& app, int& exit_code);
void add_report_commands(CLI::App& app, int& exit_code);  // vpsim plot, vpsim report
void add_sweep_command(CLI::App& app, int& exit_code);  // vpsim sweep (docs/sweep.md)
void add_compare_command(CLI::App& app, int& exit_code);  // vpsim compare (docs/run.md)
void add_ff_program_command(CLI::App& app, int& exit_code);  // vpsim ff-program (docs/fixed-function.md)
void add_import_command(CLI::App& app, int& exit_code);  // vpsim import (docs/import.md)
void add_formal_command(CLI::App& app, int& exit_code);  // vpsim formal (docs/formal.md)
void add_why_command(CLI::App& app, int& exit_code);  // vpsim why (docs/why.md)
void add_capture_command(CLI::App& app, int& exit_code);  // vpsim capture (docs/capture.md)
void add_regress_command(CLI::App& app, int& exit_code);  // vpsim regress, coverage merge (docs/regress.md)

// CLI11 check for --profile KEY=VALUE: the message names the valid keys and values.
inline CLI::Validator profile_option_check() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            try {
                vs::Profile p;
                p.set(text);
            } catch (const std::exception& e) {
                return e.what();
            }
            return "";
        },
        "KEY=VALUE");
}

// CLI11 check for --tess-profile KEY=VALUE (docs/tessellation.md).
inline CLI::Validator tess_option_check() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            try {
                tess::TessProfile p;
                tess::set_tess_option(p, text);
            } catch (const std::exception& e) {
                return e.what();
            }
            return "";
        },
        "KEY=VALUE");
}

// vpsim's run-time data (xcheck's directed corpus tb/corpus, bench's examples/shaders, bench
// correlate's examples/correlation), found relative to the executable, not the source tree:
// <exe dir>/share/vpsim (the build copies it there), then <exe dir>/../share/vpsim (an install);
// VPSIM_DATA_DIR, when set, replaces both.
std::vector<std::string> data_dirs();
// The first existing `relative` path under data_dirs(), or "" when none has it.
std::string data_path(const std::string& relative);
// An error message for a missing `relative` path, naming where vpsim looked.
std::string data_not_found(const std::string& relative);

}  // namespace vpsim::cli
