// vpsim bench run (docs/bench.md): the timing model's simulated cycles per host second on a
// scene (the default scene with a 1000 x 1000-vertex sphere unless one is given) beside a bare
// sc_clock ticking the same number of cycles, interleaved, and the peak resident memory of
// `vpsim run` child processes (model/bench/memory.h) against the scenes' own buffers.
#include "model/bench/memory.h"
#include "model/cli/commands.h"
#include "model/cli/run_common.h"
#include "model/common/params.h"
#include "model/common/presets.h"
#include "model/sc/pipeline.h"
#include "model/scene/default_scene.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim::cli {

namespace {

using bench::MemoryReport;
using bench::MemorySample;
using bench::default_scene_with_side;
using bench::measure_memory;

// ------------------------------------------------------------------------------ bench run

struct BenchRunArgs {
    std::string scene;              // "" = the default scene with a 1000 x 1000-vertex sphere
    int repeat = 5;
    double memory_bound_mib = 1.0;  // most growth beyond the buffers from the 10k to the 1M scene
    std::vector<std::string> sets;  // unit.param=value, for the model runs
    std::string preset;
    bool no_memory = false, json = false;
};

// One repetition: a model run, then a bare clock for the same number of cycles.
struct SpeedSample {
    uint64_t cycles = 0;
    uint64_t vertices = 0;           // vertices shaded (post-transform cache misses)
    double model_s = 0, bare_s = 0;  // host seconds of sc_start
    double model_cps() const { return double(cycles) / model_s; }
    double bare_cps() const { return double(cycles) / bare_s; }
    double ratio() const { return bare_s / model_s; }  // model cycles/s over bare clock cycles/s
    double vps() const { return double(vertices) / model_s; }
};

std::string mib(double bytes) { return fmt::format("{:.1f} MiB", bytes / (1024.0 * 1024.0)); }

// The medians over the repetitions.
struct SpeedMedians {
    double cycles = 0, model_s = 0, model_cps = 0, bare_s = 0, bare_cps = 0, ratio = 0, vps = 0;
};

SpeedMedians medians(const std::vector<SpeedSample>& reps) {
    const auto med = [&](auto f) {
        std::vector<double> v;
        for (const auto& s : reps) v.push_back(double(f(s)));
        return median(v);
    };
    SpeedMedians m;
    m.cycles = med([](const SpeedSample& s) { return s.cycles; });
    m.model_s = med([](const SpeedSample& s) { return s.model_s; });
    m.model_cps = med([](const SpeedSample& s) { return s.model_cps(); });
    m.bare_s = med([](const SpeedSample& s) { return s.bare_s; });
    m.bare_cps = med([](const SpeedSample& s) { return s.bare_cps(); });
    m.ratio = med([](const SpeedSample& s) { return s.ratio(); });
    m.vps = med([](const SpeedSample& s) { return s.vps(); });
    return m;
}

// Growth from the smallest to the largest scene, and how much of it the buffers explain.
struct MemoryGrowth {
    int64_t peak = 0, buffers = 0, beyond = 0;
    double beyond_per_vertex = 0;
    int64_t bound_bytes = 0;
    bool ok = true;  // within the bound (or not measured)
};

MemoryGrowth memory_growth(const std::optional<MemoryReport>& memory, double bound_mib) {
    MemoryGrowth g;
    if (memory) {
        const MemorySample &lo = memory->samples.front(), &hi = memory->samples.back();
        g.peak = int64_t(hi.peak_bytes) - int64_t(lo.peak_bytes);
        g.buffers = int64_t(hi.buffer_bytes) - int64_t(lo.buffer_bytes);
        g.beyond = g.peak - g.buffers;
        g.beyond_per_vertex = double(g.beyond) / double(hi.vertices - lo.vertices);
    }
    g.bound_bytes = int64_t(bound_mib * 1024 * 1024);
    g.ok = !memory || g.beyond <= g.bound_bytes;
    return g;
}

// What is measured, all of it: the scene, the repetitions and the memory children.
struct BenchRunResult {
    scene::Scene scene;
    std::vector<SpeedSample> reps;
    std::optional<MemoryReport> memory;
};

// The parameters, and a bad scene file is a usage error before the seconds of the memory
// measurement (loaded again after it: the children must not inherit it). 0, or the exit status.
int check_bench_inputs(const BenchRunArgs& a, const char* me, ParamSet& params) {
    try {
        if (!a.preset.empty()) apply_preset(params, a.preset);
        for (const auto& s : a.sets) params.apply_set(s);
        if (!a.scene.empty()) (void)load_run_scene(a.scene, false);  // (checked here; no hash is written)
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 2;
    }
    return 0;
}

// The speed scene: the given one, or the default scene with a 1000 x 1000-vertex sphere. 0, or the exit status.
int load_speed_scene(const BenchRunArgs& a, const char* me, scene::Scene& sc) {
    try {
        if (a.scene.empty()) {
            // The speed workload: long enough (seconds per repetition) that start-up and the
            // machine's noise do not decide the ratio, as the default scene's 25 ms did.
            sc = scene::parse_scene(default_scene_with_side(1000), "", "<default, 1000 x 1000-vertex sphere>");
        } else {
            sc = load_run_scene(a.scene, false).scene;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 2;
    }
    return 0;
}

// The repetitions, interleaved: a model run, then a bare clock for the same cycles. 0, or the exit status.
int measure_speed(const BenchRunArgs& a, const char* me, const ParamSet& params, BenchRunResult& out) {
    const vs::Profile profile = vs::Profile::d3d8();
    try {
        for (int r = 0; r < a.repeat; ++r) {
            SpeedSample s;
            const sc::RunResult res = sc::run_pipeline(out.scene, params, profile);
            if (res.cycles == 0) {
                std::fprintf(stderr, "%s: %s simulates 0 cycles: nothing to measure\n", me, out.scene.name.c_str());
                return 2;
            }
            s.cycles = res.cycles;
            s.vertices = res.count("shaded");
            s.model_s = res.host_seconds;
            s.bare_s = sc::bare_clock_seconds(s.cycles);
            out.reps.push_back(s);
        }
    } catch (const ParamError& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 1;
    }
    return 0;
}

void print_bench_json(const BenchRunArgs& a, const BenchRunResult& b, const SpeedMedians& med, const MemoryGrowth& g) {
    using oj = nlohmann::ordered_json;
    oj j;
    j["scene"] = b.scene.name;
    j["sets"] = a.sets;
    j["repetitions"] = a.repeat;
    j["order"] = "interleaved: model, bare clock, model, bare clock, ...";
    j["statistic"] = "median";
    oj per = oj::array();
    for (const auto& s : b.reps)
        per.push_back({{"cycles", s.cycles},
                       {"model_seconds", s.model_s},
                       {"model_cycles_per_second", s.model_cps()},
                       {"bare_clock_seconds", s.bare_s},
                       {"bare_clock_cycles_per_second", s.bare_cps()},
                       {"vertices", s.vertices},
                       {"vertices_per_second", s.vps()},
                       {"ratio", s.ratio()}});
    j["speed"] = {{"per_repetition", per},
                  {"median",
                   {{"cycles", uint64_t(std::llround(med.cycles))},
                    {"model_seconds", med.model_s},
                    {"model_cycles_per_second", med.model_cps},
                    {"bare_clock_seconds", med.bare_s},
                    {"bare_clock_cycles_per_second", med.bare_cps},
                    {"vertices_per_second", med.vps},
                    {"ratio", med.ratio}}}};
    if (b.memory) {
        oj scenes = oj::array();
        for (const auto& s : b.memory->samples)
            scenes.push_back({{"label", s.label},
                              {"slices", s.side - 1},
                              {"stacks", s.side - 1},
                              {"vertices", s.vertices},
                              {"triangles", s.triangles},
                              {"buffer_bytes", s.buffer_bytes},
                              {"peak_rss_bytes", s.peak_bytes},
                              {"peak_minus_buffers_bytes", s.beyond_buffers()},
                              {"child_seconds", s.seconds}});
        j["memory"] = {{"command", "vpsim run SCENE --quiet --no-progress (child process, wait4 ru_maxrss)"},
                       {"launcher_anonymous_rss_bytes", b.memory->launcher_anon_bytes},
                       {"scenes", scenes},
                       {"growth",
                        {{"peak_bytes", g.peak},
                         {"buffer_bytes", g.buffers},
                         {"beyond_buffers_bytes", g.beyond},
                         {"beyond_buffers_bytes_per_vertex", g.beyond_per_vertex}}},
                       {"bound_bytes", g.bound_bytes},
                       {"within_bound", g.ok}};
    } else {
        j["memory"] = nullptr;
    }
    std::cout << j.dump(2) << "\n";
}

void print_speed_text(const BenchRunArgs& a, const BenchRunResult& b, const SpeedMedians& med) {
    std::string sets;
    for (const auto& s : a.sets) sets += (sets.empty() ? "" : ", ") + s;
    std::cout << fmt::format("vpsim bench run: {}{}\n", b.scene.name, sets.empty() ? "" : " with " + sets);
    std::cout << fmt::format(
        "speed: {} repetitions, each the timing model then a bare sc_clock for the same cycles; medians\n\n",
        a.repeat);
    std::cout << fmt::format("  {:<8} {:>12} {:>10} {:>16} {:>20} {:>11} {:>12}\n", "rep", "cycles", "model s",
                             "model cycles/s", "bare clock cycles/s", "model/bare", "vertices/s");
    for (size_t i = 0; i < b.reps.size(); ++i) {
        const auto& s = b.reps[i];
        std::cout << fmt::format("  {:<8} {:>12} {:>10.4f} {:>16} {:>20} {:>11.3f} {:>12}\n", i + 1,
                                 group_digits(s.cycles), s.model_s, mcps(s.model_cps()), mcps(s.bare_cps()), s.ratio(),
                                 mcps(s.vps()));
    }
    std::cout << fmt::format("  {:<8} {:>12} {:>10.4f} {:>16} {:>20} {:>11.3f} {:>12}\n", "median",
                             group_digits(uint64_t(med.cycles)), med.model_s, mcps(med.model_cps), mcps(med.bare_cps),
                             med.ratio, mcps(med.vps));
    std::cout << fmt::format("\nratio (model cycles/s over bare sc_clock cycles/s, > 1: the model is faster): {:.3f}\n",
                             med.ratio);
}

void print_memory_text(const MemoryReport& memory, const MemoryGrowth& g) {
    std::cout << "\nmemory: peak resident memory (wait4 ru_maxrss) of `vpsim run SCENE --quiet --no-progress` in a "
                 "child process, SCENE the default scene's sphere at two sizes\n\n";
    std::cout << fmt::format("  {:<6} {:>11} {:>10} {:>11} {:>11} {:>11} {:>14} {:>8}\n", "scene", "vertices",
                             "sphere", "triangles", "buffers", "peak RSS", "peak - buffers", "child s");
    for (const auto& s : memory.samples)
        std::cout << fmt::format("  {:<6} {:>11} {:>10} {:>11} {:>11} {:>11} {:>14} {:>8.2f}\n", s.label,
                                 group_digits(s.vertices), fmt::format("{}x{}", s.side - 1, s.side - 1),
                                 group_digits(s.triangles), mib(double(s.buffer_bytes)), mib(double(s.peak_bytes)),
                                 mib(double(s.beyond_buffers())), s.seconds);
    const MemorySample &lo = memory.samples.front(), &hi = memory.samples.back();
    std::cout << fmt::format("\n  {} -> {}: peak +{}, buffers +{}, beyond the buffers {}{} ({:.1f} bytes per added "
                             "vertex)\n",
                             lo.label, hi.label, mib(double(g.peak)), mib(double(g.buffers)), g.beyond >= 0 ? "+" : "",
                             mib(double(g.beyond)), g.beyond_per_vertex);
    std::cout << fmt::format("  (this process held {} of anonymous memory when it forked the children: a floor under "
                             "each peak)\n",
                             mib(double(memory.launcher_anon_bytes)));
    std::cout << fmt::format("  bound: at most {} beyond the buffers (--memory-bound): {}\n", mib(double(g.bound_bytes)),
                             g.ok ? "within" : "EXCEEDED");
}

int run_bench_run(const BenchRunArgs& a) {
    const char* const me = "vpsim bench run";
    ParamSet params = sc::default_params();
    if (const int rc = check_bench_inputs(a, me, params)) return rc;
    BenchRunResult b;
    // The memory children first: a child's ru_maxrss includes this process's resident memory
    // at fork, so no scene (the speed scene's 1M vertices are ~55 MB) may be loaded yet.
    if (!a.no_memory) {
        try {
            b.memory = measure_memory();
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: memory: %s\n", me, e.what());
            return 1;
        }
    }
    if (const int rc = load_speed_scene(a, me, b.scene)) return rc;
    if (const int rc = measure_speed(a, me, params, b)) return rc;
    const SpeedMedians med = medians(b.reps);
    const MemoryGrowth g = memory_growth(b.memory, a.memory_bound_mib);
    const int status = g.ok ? 0 : 3;
    if (a.json) {
        print_bench_json(a, b, med, g);
        return status;
    }
    print_speed_text(a, b, med);
    if (!b.memory) return 0;
    print_memory_text(*b.memory, g);
    return status;
}

}  // namespace

void add_bench_run(CLI::App* bench, int& exit_code) {
    auto a = std::make_shared<BenchRunArgs>();
    CLI::App* c = bench->add_subcommand(
        "run",
        "Simulated cycles per host second of the timing model on a scene (none: the built-in default scene) beside a "
        "bare sc_clock ticking the same number of cycles, interleaved, and their ratio; and the peak resident memory "
        "of `vpsim run` on the default scene's sphere at 10,000 and 1,000,000 vertices against the scene's buffers "
        "(docs/bench.md).\nExit status: 0 ok, 1 a measurement failed, 2 usage, bad parameter or malformed scene, 3 "
        "the memory beyond the buffers grew by more than --memory-bound.");
    c->add_option("SCENE", a->scene,
                  "The scene for the speed measurement (.json); none: the default scene with its sphere at "
                  "1000 x 1000 vertices");
    c->add_option("--repeat", a->repeat, "Repetitions (model run + bare clock each); medians are reported (default 5)")
        ->check(CLI::Range(1, 1000));
    add_preset_option(c, a->preset);
    c->add_option("--set", a->sets, "Override one parameter of the model runs, unit.param=value (repeatable)")
        ->allow_extra_args(false);
    c->add_flag("--no-memory", a->no_memory, "Skip the peak-memory measurement");
    c->add_option("--memory-bound", a->memory_bound_mib,
                  "Most growth of the peak beyond the buffers from the 10k to the 1M scene, in MiB; more exits 3 "
                  "(default 1)")
        ->check(CLI::Range(0.0, 1e6));
    c->add_flag("--json", a->json, "Print one JSON object instead of the tables");
    c->callback([a, &exit_code] { exit_code = run_bench_run(*a); });
}

}  // namespace vpsim::cli
