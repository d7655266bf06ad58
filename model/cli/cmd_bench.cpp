// vpsim bench: performance measurements and studies. One file per subcommand:
// cmd_bench_exec.cpp (bench exec), cmd_bench_run.cpp (bench run), cmd_bench_dispatch.cpp
// (bench dispatch), cmd_calibrate.cpp, cmd_suite.cpp (coissue, reference), cmd_metamorphic.cpp,
// cmd_correlate.cpp, cmd_sensitivity.cpp and cmd_bench_xcheck.cpp (bench xcheck).
#include "model/cli/commands.h"

namespace vpsim::cli {

void add_bench_command(CLI::App& app, int& exit_code) {
    CLI::App* bench = app.add_subcommand("bench", "Performance measurements and studies (subcommands: exec, run, dispatch, calibrate, coissue, reference, metamorphic, correlate, sensitivity, xcheck)");
    bench->require_subcommand(1);
    add_bench_exec(bench, exit_code);
    add_bench_run(bench, exit_code);
    add_bench_dispatch(bench, exit_code);
    add_bench_calibrate(bench, exit_code);
    add_bench_suite(bench, exit_code);
    add_bench_metamorphic(bench, exit_code);
    add_bench_correlate(bench, exit_code);
    add_bench_sensitivity(bench, exit_code);
    add_bench_xcheck(bench, exit_code);
}

}  // namespace vpsim::cli
