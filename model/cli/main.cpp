// vpsim: a hardware-model simulator of the DirectX 8 vertex pipeline. One binary, one
// subcommand per job; `vpsim <cmd> --help` explains every option.
#include "model/common/file_util.h"
#include "model/common/printable.h"
#include "model/cli/commands.h"

#include <systemc>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

// libsystemc.so needs sc_main; vpsim has its own main, so this is never called.
extern "C" int sc_main(int, char*[]) { return 0; }

namespace vpsim::cli {

std::vector<std::string> data_dirs() {
    if (const char* env = std::getenv("VPSIM_DATA_DIR"); env && *env) return {env};
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    const std::filesystem::path dir = exe.parent_path();
    return {(dir / "share" / "vpsim").string(), (dir.parent_path() / "share" / "vpsim").string()};
}

std::string data_path(const std::string& relative) {
    for (const std::string& d : data_dirs()) {
        const std::filesystem::path p = std::filesystem::path(d) / relative;
        std::error_code ec;
        if (std::filesystem::exists(p, ec)) return p.string();
    }
    return "";
}

std::string data_not_found(const std::string& relative) {
    std::string where;
    for (const std::string& d : data_dirs()) where += (where.empty() ? "" : ", ") + d;
    return relative + " not found in vpsim's data directories (looked in: " + (where.empty() ? "none" : where) +
           "; the build copies the data to <build>/share/vpsim, an install to <prefix>/share/vpsim, and "
           "VPSIM_DATA_DIR names another)";
}

}  // namespace vpsim::cli

int main(int argc, char** argv) {
    CLI::App app{"vpsim: a hardware-model simulator of the DirectX 8 vertex pipeline\n"
                 "(D3D8 declarations and vs.1.x shaders: golden model, SystemC timing model, RTL cross-check)"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "vpsim " VPSIM_VERSION);
    int exit_code = 0;
    vpsim::install_cleanup_on_signals();  // SIGINT/SIGTERM: no temporary file left, exit 130/143
    vpsim::install_out_of_memory_exit("vpsim");  // std::bad_alloc anywhere: exit 3, docs/limits.md
    vpsim::cli::add_decl_command(app, exit_code);
    vpsim::cli::add_xcheck_command(app, exit_code);
    vpsim::cli::add_asm_commands(app, exit_code);
    vpsim::cli::add_check_command(app, exit_code);
    vpsim::cli::add_exec_command(app, exit_code);
    vpsim::cli::add_bench_command(app, exit_code);
    vpsim::cli::add_scene_exec_command(app, exit_code);
    vpsim::cli::add_params_command(app, exit_code);
    vpsim::cli::add_presets_command(app, exit_code);
    vpsim::cli::add_run_command(app, exit_code);
    vpsim::cli::add_report_commands(app, exit_code);  // vpsim plot, vpsim report
    vpsim::cli::add_sweep_command(app, exit_code);
    vpsim::cli::add_regress_command(app, exit_code);
    vpsim::cli::add_why_command(app, exit_code);
    vpsim::cli::add_compare_command(app, exit_code);
    vpsim::cli::add_ff_program_command(app, exit_code);
    vpsim::cli::add_import_command(app, exit_code);
    vpsim::cli::add_capture_command(app, exit_code);
    vpsim::cli::add_formal_command(app, exit_code);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        // CLI11's message quotes the arguments: shown with control and non-ASCII bytes escaped.
        std::fprintf(stderr, "%s\nRun with --help for more information.\n",
                     vpsim::printable(e.what(), 2000, true).c_str());
        return 2;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "vpsim: internal error: out of memory (an input limit should have prevented this; "
                             "please report the command)\n");
        return 3;
    } catch (const std::invalid_argument& e) {  // bad input that a command let through
        std::fprintf(stderr, "vpsim: error: %s\n", vpsim::printable(e.what(), 2000, true).c_str());
        return 2;
    } catch (const std::out_of_range& e) {
        std::fprintf(stderr, "vpsim: error: %s\n", vpsim::printable(e.what(), 2000, true).c_str());
        return 2;
    } catch (const std::logic_error& e) {  // length_error, a broken invariant: a bug
        std::fprintf(stderr, "vpsim: internal error: %s\n", vpsim::printable(e.what(), 2000, true).c_str());
        return 3;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim: error: %s\n", vpsim::printable(e.what(), 2000, true).c_str());
        return 2;
    }
    return exit_code;
}
