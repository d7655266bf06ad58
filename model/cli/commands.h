// vpsim's subcommands. Each registers itself on the top-level CLI11 app; the callback it
// installs stores the exit code in `exit_code` (0 ok, 1 rejected/mismatch, 2 usage or I/O).
#pragma once

#include <CLI/CLI.hpp>

namespace vpsim::cli {

void add_decl_command(CLI::App& app, int& exit_code);
void add_xcheck_command(CLI::App& app, int& exit_code);
void add_asm_commands(CLI::App& app, int& exit_code);   // asm, disasm
void add_check_command(CLI::App& app, int& exit_code);
void add_exec_command(CLI::App& app, int& exit_code);
void add_bench_command(CLI::App& app, int& exit_code);  // bench exec (later: bench run)

// Where the sources are (for the built-in corpus and examples).
const char* source_dir();

}  // namespace vpsim::cli
