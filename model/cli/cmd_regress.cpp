// vpsim regress FILE (docs/regress.md): a regression file's cross-check runs on a study backend
// (local, GNU parallel, Slurm), resumable, with merged coverage, one triage and one JUnit; vpsim
// regress-run DIR (one run, what the backends start); vpsim coverage merge. The work is in
// tb/regress*.cpp and tb/coverage_merge.cpp.
#include "model/cli/commands.h"
#include "model/common/file_util.h"
#include "model/study/backend.h"
#include "model/study/point_hash.h"
#include "model/study/points.h"
#include "model/study/slurm.h"
#include "tb/coverage_merge.h"
#include "tb/regress.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <thread>

namespace vpsim::cli {

namespace {

namespace fs = std::filesystem;

struct RegressArgs {
    std::string file, out, backend = "local", rtl_cache;
    unsigned jobs = 0;
    bool list = false;
    study::SlurmOptions slurm;
};

std::unique_ptr<study::Backend> make_backend(const RegressArgs& a) {
    const unsigned jobs = a.jobs ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
    if (a.backend == "local") return study::make_local_backend(jobs);
    if (a.backend == "parallel") return study::make_parallel_backend(jobs, a.out);
    if (a.backend == "slurm") return study::make_slurm_backend(a.slurm, a.out, data_path("scripts/sweep-slurm.sh"));
    throw study::StudyError("--backend " + a.backend + ": unknown backend; valid: local, parallel, slurm");
}

// The runs not finished yet, their folders made and run.json written; a folder another process
// still writes (a run of a regression that was killed) is waited for first.
std::vector<const study::Point*> runs_to_do(const std::vector<tb::RegressRun>& runs, const std::vector<study::Point>& points,
                                            size_t& done_before) {
    std::vector<const study::Point*> todo;
    for (size_t i = 0; i < runs.size(); ++i) {
        const study::Point& p = points[i];
        wait_for_dir_lock(p.dir, [&] {
            std::fprintf(stderr, "vpsim regress: %s: another process still writes %s; waiting for it to end\n",
                         runs[i].label.c_str(), p.dir.c_str());
        });
        if (study::point_state(p) == study::PointState::Done) {
            ++done_before;
            continue;
        }
        std::error_code ec;
        fs::create_directories(p.dir, ec);
        if (ec) throw OutputError(fmt::format("{}: cannot create the run's folder: {}", p.dir, ec.message()));
        for (const char* f : {"exit_status", "stderr.txt"}) fs::remove(fs::path(p.dir) / f, ec);
        write_file_atomic(p.dir + "/run.json", tb::run_json(runs[i]).dump(2) + "\n");
        todo.push_back(&p);
    }
    return todo;
}

int run_regress(const RegressArgs& a) {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    tb::Regression reg;
    std::vector<tb::RegressRun> runs;
    std::unique_ptr<study::Backend> backend;
    try {
        if (ec) throw study::StudyError("/proc/self/exe: cannot find the vpsim binary: " + ec.message());
        reg = tb::load_regression(a.file);
        auto builtin = [](const std::string& unit) { return data_path("rtl/" + unit + ".sv"); };
        // Absolute folders: the runs may start in another working directory (a Slurm job's).
        const std::string out = fs::absolute(a.out).lexically_normal().string();
        const std::string cache = a.rtl_cache.empty() ? "" : fs::absolute(a.rtl_cache).lexically_normal().string();
        runs = tb::expand_runs(reg, out, study::binary_identity(exe.string()), builtin, cache);
        backend = make_backend(a);
        if (!a.list) backend->check();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim regress: %s\n", e.what());
        return 2;
    }
    if (a.list) {
        for (const auto& r : runs) std::printf("%s  %s\n", r.hash.c_str(), r.label.c_str());
        return 0;
    }
    std::vector<study::Point> points(runs.size());
    for (size_t i = 0; i < runs.size(); ++i) {
        points[i].index = i;
        points[i].hash = runs[i].hash;
        points[i].dir = runs[i].dir;
        points[i].argv = {exe.string(), "regress-run", runs[i].dir};
        points[i].done_file = "result.json";
    }
    std::optional<OutputDirLock> lock;  // one regression at a time in OUT
    std::vector<const study::Point*> todo;
    size_t done_before = 0;
    try {
        fs::create_directories(fs::path(a.out) / "runs", ec);
        if (ec) throw OutputError(fmt::format("{}: cannot create the output directory: {}", a.out, ec.message()));
        lock.emplace(a.out);
        for (const char* f : {"summary.json", "junit.xml", "triage.json", "triage.txt", "coverage.json"}) fs::remove(fs::path(a.out) / f);
        nlohmann::ordered_json rj = {{"schema", "vpsim-regress-resolved-1"}, {"name", reg.name}, {"file", a.file}};
        rj["runs"] = nlohmann::ordered_json::array();
        for (const auto& r : runs) rj["runs"].push_back(tb::run_json(r));
        write_file_atomic(a.out + "/regress.json", rj.dump(2) + "\n");
        todo = runs_to_do(runs, points, done_before);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim regress: %s\n", e.what());
        return 2;
    }
    std::fprintf(stderr, "vpsim regress: %s: %zu runs, %zu already finished, %zu to run (%s backend)\n", reg.name.c_str(), runs.size(),
                 done_before, todo.size(), backend->name().c_str());
    study::install_interrupt_handlers();
    size_t ended = 0;
    bool complete = true;
    try {
        complete = backend->run(todo, [&](const study::Point& p, bool ok) {
            ++ended;
            std::fprintf(stderr, "vpsim regress: [%zu/%zu] %s %s\n", ended, todo.size(), ok ? "finished" : "did not finish",
                         runs[p.index].label.c_str());
        });
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim regress: %s\n", e.what());
        return 2;
    }
    if (!complete) {
        size_t now = 0;
        for (const auto& p : points) now += study::point_state(p) == study::PointState::Done;
        std::fprintf(stderr, "vpsim regress: interrupted (signal %d): %zu of %zu runs finished; the same command again runs the rest\n",
                     study::interrupt_signal(), now, runs.size());
        return 128 + study::interrupt_signal();
    }
    std::vector<tb::RunOutcome> outcomes;
    for (const auto& r : runs) outcomes.push_back(tb::read_outcome(r));
    bool passed = false;
    try {
        std::fputs(tb::write_regress_reports(reg, outcomes, a.out, passed).c_str(), stdout);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim regress: %s\n", e.what());
        return 2;
    }
    return passed ? 0 : 1;
}

int run_coverage_merge(const std::vector<std::string>& inputs, const std::string& out) {
    tb::CoverageSet merged;
    try {
        for (const auto& f : inputs) merged.add(tb::load_coverage(f));
        const auto j = merged.to_json();
        write_file_atomic(out, j.dump(1) + "\n");
        for (const auto& [unit, u] : merged.units)
            std::printf("%s: %llu runs, %zu / %zu bins hit, %zu holes\n", unit.c_str(), (unsigned long long)u.runs,
                        size_t(j["units"][unit]["bins_hit"].get<size_t>()), u.order.size(), u.holes().size());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim coverage merge: %s\n", e.what());
        return 2;
    }
    return 0;
}

}  // namespace

void add_regress_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<RegressArgs>();
    CLI::App* c = app.add_subcommand(
        "regress",
        "Run a regression file (docs/regress.md): cross-check runs of units x RTL designs x -G sets x back-pressure "
        "profiles x seeds, each a `vpsim xcheck` in OUT/runs/<hash>/, on the local, GNU parallel or Slurm backend; "
        "finished runs are kept (run it again after an interruption); then merged functional and code coverage, one "
        "triage and one JUnit.\nExit status: 0 every run passed and the merged coverage is complete, 1 otherwise, 2 "
        "bad file or I/O error, 128+N interrupted by signal N.");
    c->add_option("FILE", a->file, "The regression file (schema vpsim-regress-1)")->required();
    c->add_option("--out", a->out, "The regression's folder: runs/<hash>/, summary.json, junit.xml, triage.txt, coverage.json")
        ->required()
        ->type_name("DIR");
    c->add_option("--jobs,-j", a->jobs, "Runs at once (default: the cores)")->check(CLI::Range(1, 4096));
    c->add_option("--backend", a->backend, "local (default), parallel (GNU parallel) or slurm (docs/slurm.md)");
    c->add_option("--rtl-cache", a->rtl_cache, "The Verilated builds' cache for every run (as xcheck --rtl-cache)");
    c->add_option("--partition", a->slurm.partition, "slurm: the partition");
    c->add_option("--time", a->slurm.time_minutes, "slurm: time limit per array task, minutes")->check(CLI::Range(1u, 100000u));
    c->add_option("--mem", a->slurm.mem_mb, "slurm: memory per array task, MB")->check(CLI::Range(1u, 10000000u));
    c->add_option("--chunk", a->slurm.chunk, "slurm: runs per array task")->check(CLI::Range(1u, 100000u));
    c->add_option("--max-running", a->slurm.max_running, "slurm: array tasks running at once")->check(CLI::Range(1u, 100000u));
    c->add_flag("--list", a->list, "Print the runs (hash, label) and exit without running them");
    c->callback([a, c, &exit_code] {
        if (a->backend != "slurm")
            for (const char* o : {"--partition", "--time", "--mem", "--chunk", "--max-running"})
                if (c->count(o)) {
                    std::fprintf(stderr, "vpsim regress: %s does not apply to --backend %s (a Slurm option)\n", o, a->backend.c_str());
                    exit_code = 2;
                    return;
                }
        exit_code = run_regress(*a);
    });

    auto dir = std::make_shared<std::string>();
    CLI::App* one = app.add_subcommand("regress-run", "One run of a regression (what vpsim regress's backends start): DIR/run.json");
    one->group("");  // internal
    one->add_option("DIR", *dir, "The run's folder")->required();
    one->callback([dir, &exit_code] {
        std::error_code ec;
        const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
        exit_code = tb::regress_run_one(*dir, exe.string());
    });

    auto inputs = std::make_shared<std::vector<std::string>>();
    auto out = std::make_shared<std::string>();
    CLI::App* cov = app.add_subcommand("coverage", "Functional coverage files (docs/regress.md)");
    cov->require_subcommand(1);
    CLI::App* m = cov->add_subcommand(
        "merge",
        "Merge functional coverage: per-bin hit counts summed over the inputs (coverage files, schema vpsim-coverage-1, "
        "or `vpsim xcheck --json` reports of either unit), into one coverage file.\nExit status: 0, 2 bad input or I/O error.");
    m->add_option("FILES", *inputs, "Coverage files or xcheck --json reports")->required();
    m->add_option("-o,--output", *out, "The merged coverage file")->required();
    m->callback([inputs, out, &exit_code] { exit_code = run_coverage_merge(*inputs, *out); });
}

}  // namespace vpsim::cli
