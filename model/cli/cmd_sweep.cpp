// vpsim sweep: a study of scenes x parameter axes, one `vpsim run` process per point, resumable,
// on a local pool or through GNU parallel; results.csv / results.jsonl / study.json (docs/sweep.md).
#include "model/cli/commands.h"
#include "model/cli/run_sample.h"
#include "model/study/backend.h"
#include "model/study/points.h"
#include "model/study/results.h"
#include "model/study/slurm.h"
#include "model/study/study.h"
#include "model/common/file_util.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <optional>
#include <cstdio>
#include <filesystem>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace vpsim::cli {

namespace {

struct SweepArgs {
    std::string study, out, preset, backend = "local";
    std::string launcher;  // a program every point's command runs under (nice, taskset, valgrind, ...)
    std::vector<std::string> scenes, axes, sets, profile, tess_profile;
    unsigned repeats = 0, jobs = 0;
    std::vector<std::string> metrics;
    study::SlurmOptions slurm;
    SampleArgs sample;  // --sample: every point sampled, a refused one in full (--sample-fallback)
    bool quiet = false, list = false;
};

struct CollectArgs {
    std::string out;
    bool quiet = false;
};

std::string point_label(const study::Point& p) {
    std::string s = p.scene;
    for (const auto& [k, v] : p.axis_values) s += " " + k + "=" + v;
    if (p.repeat) s += fmt::format(" repeat={}", p.repeat);
    return s;
}

// Each point of `pts` that did not end with its statistics: "  label: why (where)".
std::vector<std::string> point_failures(const std::vector<const study::Point*>& pts) {
    using namespace study;
    std::vector<std::string> failures;
    for (const Point* p : pts) {
        int status = 0;
        std::string msg;
        const PointState st = point_state(*p, &status, &msg);
        if (st == PointState::Done) continue;
        if (st == PointState::Missing)  // the backend ended without running it
            failures.push_back(fmt::format("  {}: did not run (no {}/exit_status)", point_label(*p), p->dir));
        else
            failures.push_back(fmt::format("  {}: exit {}: {} ({}/stderr.txt)", point_label(*p), status, msg, p->dir));
    }
    return failures;
}

// Each point whose run was to be sampled but ran in full (`vpsim run --sample --sample-fallback`
// notes summary.sampled false): "  label: the reason".
std::vector<std::string> sample_refusals(const std::vector<study::Point>& points) {
    std::vector<std::string> r;
    for (const study::Point& p : points) {
        std::string text, why;
        if (!read_input_file(p.dir + "/stats.json", text, why)) continue;  // write_results has said so
        const nlohmann::json st = nlohmann::json::parse(text, nullptr, /*allow_exceptions*/ false);
        if (!st.is_object() || !st.contains("summary") || !st["summary"].is_object()) continue;
        const nlohmann::json& sum = st["summary"];
        if (sum.value("sampled", true)) continue;
        r.push_back(fmt::format("  {}: {}", point_label(p),
                                sum.contains("sample") ? sum["sample"].value("refused", "") : std::string()));
    }
    return r;
}

// The end of a sweep or a collect: the failures named (exit 1, no results table), or the table.
int finish(const std::string& out, const study::Study& s, const std::vector<study::Point>& points,
           const std::vector<std::string>& failures, bool quiet) {
    if (!failures.empty()) {
        std::fprintf(stderr, "vpsim sweep: %zu of %zu points failed; no results table (run again to retry them):\n",
                     failures.size(), points.size());
        for (const auto& f : failures) std::fprintf(stderr, "%s\n", f.c_str());
        return 1;
    }
    try {
        study::write_results(out, s, points);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim sweep: %s\n", e.what());
        return 2;
    }
    const std::vector<std::string> refused = sample_refusals(points);
    if (!refused.empty()) {
        std::fprintf(stderr, "vpsim sweep: %zu of %zu points ran in full, sampling refused (their rows: sampled "
                             "false, sample.refused):\n", refused.size(), points.size());
        for (const auto& r : refused) std::fprintf(stderr, "%s\n", r.c_str());
    }
    if (!quiet) std::fprintf(stderr, "vpsim sweep: results in %s/results.csv and results.jsonl\n", out.c_str());
    return 0;
}

int run_sweep(const SweepArgs& a) {
    using namespace study;
    Study s;
    std::vector<Point> points;
    std::unique_ptr<Backend> backend;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    try {
        if (ec) throw StudyError("/proc/self/exe: cannot find the vpsim binary: " + ec.message());
        if (!a.study.empty()) s = load_study(a.study);
        for (const auto& sc : a.scenes)
            for (auto& f : expand_scenes(sc, "--scene")) s.scenes.push_back(f);
        if (!a.preset.empty()) s.preset = a.preset;
        s.sets.insert(s.sets.end(), a.sets.begin(), a.sets.end());
        s.profile.insert(s.profile.end(), a.profile.begin(), a.profile.end());
        s.tess_profile.insert(s.tess_profile.end(), a.tess_profile.begin(), a.tess_profile.end());
        for (const auto& ax : a.axes) s.axes.push_back(parse_axis_flag(ax));
        if (a.repeats) s.repeats = a.repeats;
        if (!a.metrics.empty()) s.metrics = a.metrics;
        s.sample = sample_run_args(a.sample);
        for (const auto& m : s.metrics) check_metric_pattern(m, "--metric");
        if (s.name.empty()) s.name = "sweep";
        points = resolve_points(s, a.out, exe.string());
        if (!a.launcher.empty())
            for (Point& p : points) p.argv.insert(p.argv.begin(), a.launcher);
        const unsigned jobs = a.jobs ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
        if (a.backend == "local")
            backend = make_local_backend(jobs);
        else if (a.backend == "parallel")
            backend = make_parallel_backend(jobs, a.out);
        else if (a.backend == "slurm")
            backend = make_slurm_backend(a.slurm, a.out, data_path("scripts/sweep-slurm.sh"));
        else
            throw StudyError("--backend " + a.backend + ": unknown backend; valid: local, parallel, slurm");
        backend->check();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim sweep: %s\n", e.what());
        return 2;
    }
    if (a.list) {
        for (const Point& p : points) std::printf("%s  %s\n", p.hash.c_str(), point_label(p).c_str());
        return 0;
    }
    // The output directory: writable before anything runs; old results go (a sweep that does not
    // finish leaves no results table).
    std::vector<const Point*> todo;
    size_t done_before = 0;
    std::optional<OutputDirLock> lock;  // one sweep (or collect) at a time in DIR
    try {
        fs::create_directories(fs::path(a.out) / "points", ec);
        if (ec) throw OutputError(fmt::format("{}: cannot create the output directory: {}", a.out, ec.message()));
        lock.emplace(a.out);
        write_file_atomic(a.out + "/study.json", study_json(s, points).dump(2) + "\n");
        for (const char* f : {"results.csv", "results.jsonl"}) {
            fs::remove(fs::path(a.out) / f, ec);
            if (ec) throw OutputError(fmt::format("{}/{}: cannot remove the old results: {}", a.out, f, ec.message()));
        }
        for (const Point& p : points) {
            // A point directory another process still writes (a point of an earlier sweep that was
            // killed and left it running, e.g. under GNU parallel): its files are the truth once it
            // ends, so wait for it rather than run the point beside it (which would fail on the
            // directory's lock and record that beside the other's complete stats.json).
            if (point_state(p) != PointState::Done &&
                wait_for_dir_lock(p.dir, [&] {
                    std::fprintf(stderr,
                                 "vpsim sweep: %s: another process is still writing %s (a point of a sweep that was "
                                 "killed?); waiting for it to end\n",
                                 point_label(p).c_str(), p.dir.c_str());
                }) &&
                !a.quiet)
                std::fprintf(stderr, "vpsim sweep: %s: %s\n", point_label(p).c_str(),
                             point_state(p) == PointState::Done ? "done by that process" : "not done; it runs again");
            if (point_state(p) == PointState::Done) {
                ++done_before;
                continue;
            }
            fs::create_directories(p.dir, ec);
            if (ec) throw OutputError(fmt::format("{}: cannot create the point's directory: {}", p.dir, ec.message()));
            for (const char* f : {"exit_status", "stderr.txt"}) fs::remove(fs::path(p.dir) / f, ec);
            todo.push_back(&p);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim sweep: %s\n", e.what());
        return 2;
    }
    const bool tty = !a.quiet && ::isatty(2);
    size_t ran = 0, failed = 0;
    const auto t0 = std::chrono::steady_clock::now();
    auto progress = [&](bool final) {
        if (!tty) return;
        const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::string eta = "--";
        if (ran) eta = fmt::format("{:.0f} s", el / double(ran) * double(todo.size() - ran));
        std::fprintf(stderr, "\rvpsim sweep: %zu/%zu done, %zu failed, ETA %s   %s", done_before + ran, points.size(),
                     failed, eta.c_str(), final ? "\n" : "");
        std::fflush(stderr);
    };
    install_interrupt_handlers();
    bool complete = true;
    try {
        progress(false);
        complete = backend->run(todo, [&](const Point&, bool ok) {
            ++ran;
            if (!ok) ++failed;
            progress(false);
        });
        progress(true);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "\nvpsim sweep: %s\n", e.what());
        return 2;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!complete) {
        size_t now_done = 0;
        for (const Point& p : points) now_done += point_state(p) == PointState::Done;
        std::fprintf(stderr,
                     "vpsim sweep: interrupted (signal %d): %zu of %zu points done; the same command again runs the "
                     "rest\n",
                     interrupt_signal(), now_done, points.size());
        return 128 + interrupt_signal();
    }
    if (backend->detached()) {
        const std::string job = slurm_job_id(a.out);
        std::fprintf(stderr,
                     "vpsim sweep: %zu of %zu points submitted as Slurm job %s (%zu already done); when it has ended: "
                     "vpsim sweep collect %s\n",
                     todo.size(), points.size(), job.empty() ? "(none)" : job.c_str(), done_before, a.out.c_str());
        return 0;
    }
    std::vector<std::string> failures = point_failures(todo);
    if (!a.quiet)
        std::fprintf(stderr, "vpsim sweep: %zu points: %zu run (%zu ok, %zu failed), %zu already done; %s backend, "
                             "%.2f s, %.2f points/s\n",
                     points.size(), todo.size(), todo.size() - failures.size(), failures.size(), done_before,
                     backend->name().c_str(), seconds, seconds > 0 ? double(todo.size()) / seconds : 0.0);
    return finish(a.out, s, points, failures, a.quiet);
}

// vpsim sweep collect DIR: the results of a sweep whose points ran elsewhere (Slurm --no-wait).
int run_collect(const CollectArgs& a) {
    using namespace study;
    Study s;
    std::vector<Point> points;
    try {
        load_resolved_study(a.out, s, points);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim sweep collect: %s\n", e.what());
        return 2;
    }
    std::optional<OutputDirLock> lock;
    try {
        lock.emplace(a.out);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim sweep collect: %s\n", e.what());
        return 2;
    }
    size_t done = 0, missing = 0;
    std::vector<const Point*> all;
    for (const Point& p : points) {
        all.push_back(&p);
        const PointState st = point_state(p);
        done += st == PointState::Done;
        missing += st == PointState::Missing;
    }
    std::error_code ec;
    for (const char* f : {"results.csv", "results.jsonl"}) fs::remove(fs::path(a.out) / f, ec);
    if (missing) {
        const std::string job = slurm_job_id(a.out);
        std::vector<std::string> queued;
        std::string why;
        try {
            queued = slurm_queued_states(job);
        } catch (const std::exception& e) {
            why = e.what();
        }
        if (!queued.empty() || !why.empty()) {
            std::map<std::string, size_t> by;
            for (const auto& q : queued) ++by[q];
            std::string states;
            for (const auto& [k, n] : by) states += fmt::format("{}{} {}", states.empty() ? "" : ", ", n, k);
            std::fprintf(stderr,
                         "vpsim sweep collect: %zu of %zu points done; Slurm job %s %s: run `vpsim sweep collect %s` "
                         "again when it has ended\n",
                         done, points.size(), job.c_str(),
                         why.empty() ? ("still has array tasks in the queue (" + states + ")").c_str()
                                     : ("cannot be asked about: " + why).c_str(),
                         a.out.c_str());
            return 75;  // EX_TEMPFAIL: not finished yet
        }
    }
    const std::vector<std::string> failures = point_failures(all);
    if (!a.quiet)
        std::fprintf(stderr, "vpsim sweep collect: %zu points: %zu done, %zu failed\n", points.size(), done,
                     failures.size());
    return finish(a.out, s, points, failures, a.quiet);
}
}  // namespace

void add_sweep_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<SweepArgs>();
    CLI::App* c = app.add_subcommand(
        "sweep",
        "Run a study: scenes x parameter axes x repeats, one `vpsim run` process per point (resumable: points already "
        "run are kept), then DIR/results.csv, results.jsonl and study.json (docs/sweep.md).\nExit status: 0 ok, 1 a "
        "point failed (each named), 2 bad input or I/O error, 128+N interrupted by signal N.");
    c->add_option("STUDY", a->study, "A study file (JSON, docs/sweep.md); flags add to it");
    c->add_option("--scene", a->scenes, "A scene file, a folder of scenes (its *.json) or a glob (repeatable)")
        ->allow_extra_args(false);
    c->add_option("--axis", a->axes, "An axis: unit.param=v1,v2,... or unit.param=FROM..TO[:STEP] (repeatable)")
        ->allow_extra_args(false);
    add_preset_option(c, a->preset);
    c->add_option("--set", a->sets, "A base parameter, unit.param=value (repeatable; the axes override it)")
        ->allow_extra_args(false);
    c->add_option("--profile", a->profile, "Interpreter choice for every point (repeatable, as vpsim run)")
        ->allow_extra_args(false)
        ->check(profile_option_check());
    c->add_option("--tess-profile", a->tess_profile, "Tessellation choice for every point (repeatable, as vpsim run)")
        ->allow_extra_args(false)
        ->check(tess_option_check());
    c->add_option("--repeats", a->repeats, "Run every point N times (default 1, or the study's)")
        ->check(CLI::Range(1, 1000));
    c->add_option("--out", a->out, "The study's directory: points/<hash>/, results.csv, results.jsonl, study.json")
        ->type_name("DIR");
    c->add_option("--jobs,-j", a->jobs, "Points run at once (default: the cores)")->check(CLI::Range(1, 4096));
    c->add_option("--backend", a->backend,
                  "local (a pool of processes, default), parallel (GNU parallel) or slurm (one sbatch job array; "
                  "docs/slurm.md)");
    c->add_option("--launcher", a->launcher,
                  "A program each point runs under, given the point's vpsim command as its arguments (e.g. nice, "
                  "taskset or a wrapper script; it must exec them and pass on the exit status)")
        ->type_name("PROGRAM");
    c->add_option("--partition", a->slurm.partition, "slurm: the partition (default: the cluster's)");
    c->add_option("--time", a->slurm.time_minutes, "slurm: time limit per array task, minutes")
        ->check(CLI::Range(1u, 100000u));
    c->add_option("--mem", a->slurm.mem_mb, "slurm: memory per array task, MB")->check(CLI::Range(1u, 10000000u));
    c->add_option("--chunk", a->slurm.chunk, "slurm: points per array task (default: the script's)")
        ->check(CLI::Range(1u, 100000u));
    c->add_option("--max-running", a->slurm.max_running, "slurm: array tasks running at once (%M)")
        ->check(CLI::Range(1u, 100000u));
    c->add_option("--metric", a->metrics,
                  "A metric to keep in results.csv/.jsonl: a name or glob (cycles_per_vertex, vertex_alu.*); "
                  "repeatable; replaces the study's \"metrics\"; default: every metric")
        ->allow_extra_args(false);
    c->add_flag("--no-wait", a->slurm.no_wait,
                "slurm: submit the job array and exit; `vpsim sweep collect DIR` gathers the results after it ends");
    a->sample.fallback = true;
    add_points_sample_options(c, a->sample, "point",
                              "a point whose scene sampling refuses runs in full, its row says why (sampled false, "
                              "sample.refused) and the sweep names it on stderr");
    c->add_flag("--list", a->list, "Print the points (hash, scene, axis values) and exit without running them");
    c->add_flag("--quiet", a->quiet, "No progress line and no summary on stderr (failures are still reported)");
    auto ca = std::make_shared<CollectArgs>();
    CLI::App* col = c->add_subcommand(
        "collect",
        "Gather the results of a sweep whose points ran elsewhere (--backend slurm --no-wait): DIR/results.csv and "
        "results.jsonl from DIR/study.json and the points' directories.\nExit status: 0 ok, 1 a point failed or did "
        "not run (each named), 2 bad input or I/O error, 75 the Slurm job is still in the queue (run it again later).");
    col->add_option("DIR", ca->out, "The sweep's --out directory")->required();
    col->add_flag("--quiet", ca->quiet, "No summary on stderr (failures are still reported)");
    col->callback([ca, &exit_code] { exit_code = run_collect(*ca); });
    c->callback([a, c, &exit_code] {
        if (c->got_subcommand("collect")) return;
        if (a->out.empty()) {
            std::fprintf(stderr, "vpsim sweep: --out DIR is required (the study's directory)\n");
            exit_code = 2;
            return;
        }
        if (a->slurm.no_wait && a->backend != "slurm") {
            std::fprintf(stderr, "vpsim sweep: --no-wait is for --backend slurm (the other backends run the points "
                                 "themselves)\n");
            exit_code = 2;
            return;
        }
        exit_code = run_sweep(*a);
    });
}

}  // namespace vpsim::cli
