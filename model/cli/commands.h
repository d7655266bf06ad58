// vpsim's subcommands. Each registers itself on the top-level CLI11 app; the callback it
// installs stores the exit code in `exit_code` (0 ok, 1 rejected/mismatch, 2 usage or I/O).
#pragma once

#include <CLI/CLI.hpp>

namespace vpsim::cli {

void add_decl_command(CLI::App& app, int& exit_code);
void add_xcheck_command(CLI::App& app, int& exit_code);

// Where the sources are (for the built-in corpus and examples).
const char* source_dir();

}  // namespace vpsim::cli
