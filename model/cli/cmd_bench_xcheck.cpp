// vpsim bench xcheck (docs/xcheck.md, "Speed"): options, medians and printing; the measurements
// are tb/xcheck_bench.cpp's.
#include "model/cli/commands.h"
#include "model/cli/run_common.h"
#include "tb/xcheck_bench.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <memory>

namespace vpsim::cli {

namespace {

struct BenchXcheckArgs {
    uint64_t random = 1000000, seed = 1;
    int repeat = 5;
    std::vector<int> jobs = {1, 2};
    uint64_t phase_arrays = 200000;
    uint64_t vf_random = 20000;
    bool json = false;
};

int run_bench_xcheck(const BenchXcheckArgs& a) {
    tb::XcheckBenchOptions bo;
    bo.random = a.random;
    bo.seed = a.seed;
    bo.repeat = a.repeat;
    bo.jobs = a.jobs;
    bo.phase_arrays = a.phase_arrays;
    bo.vf_random = a.vf_random;
    const tb::XcheckBench b = tb::bench_xcheck(bo);
    if (!b.failure.empty()) {
        std::fprintf(stderr, "vpsim bench xcheck: %s\n", b.failure.c_str());
        return 1;
    }
    const auto& ways = b.ways;
    const uint64_t arrays = b.arrays, cycles = b.cycles, n = b.phase_arrays, phase_cycles = b.phase_cycles;
    const double g = median(b.gen_s), m = median(b.model_s), rt = median(b.rtl_s);
    const double base = median(ways[0].arrays_s);
    if (a.json) {
        nlohmann::ordered_json j;
        j["bench"] = "xcheck";
        j["random"] = a.random;
        j["seed"] = a.seed;
        j["repeat"] = a.repeat;
        j["arrays"] = arrays;
        j["cycles"] = cycles;
        j["ways"] = nlohmann::ordered_json::array();
        for (const auto& w : ways)
            j["ways"].push_back({{"way", w.name}, {"jobs", w.jobs}, {"per_array_path", w.per_array},
                                 {"arrays_per_second", median(w.arrays_s)}, {"rtl_cycles_per_second", median(w.cycles_s)},
                                 {"seconds", median(w.seconds)}, {"ratio_to_serial", median(w.arrays_s) / base},
                                 {"runs_arrays_per_second", w.arrays_s}});
        j["phases"] = {{"arrays", n},
                       {"cycles", phase_cycles},
                       {"generation_ns_per_array", 1e9 * g / double(n)},
                       {"model_ns_per_array", 1e9 * m / double(n)},
                       {"rtl_ns_per_array", 1e9 * rt / double(n)},
                       {"rtl_cycles_per_second", double(phase_cycles) / rt},
                       {"rtl_evals_per_second", 2.0 * double(phase_cycles) / rt}};
        if (!b.vf_ways.empty()) {
            j["vertex_fetch"] = {{"cases", b.vf_cases}, {"vertices", b.vf_vertices}, {"cycles", b.vf_cycles},
                                 {"ways", nlohmann::ordered_json::array()}};
            for (const auto& w : b.vf_ways)
                j["vertex_fetch"]["ways"].push_back({{"jobs", w.jobs},
                                                     {"vertices_per_second", median(w.vertices_s)},
                                                     {"seconds", median(w.seconds)},
                                                     {"runs_vertices_per_second", w.vertices_s}});
        }
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    std::printf("vpsim bench xcheck: %llu random arrays (seed %llu, no corpus, built-in RTL), %llu cycles; median of %d, "
                "the ways interleaved run by run\n\n",
                (unsigned long long)arrays, (unsigned long long)a.seed, (unsigned long long)cycles, a.repeat);
    std::printf("%-56s %12s %16s %9s %7s   %s\n", "way", "arrays/s", "RTL cycles/s", "seconds", "ratio", "runs (arrays/s)");
    for (const auto& w : ways) {
        std::string runs;
        for (double v : w.arrays_s) runs += fmt::format(" {:.0f}", v);
        std::printf("%-56s %12.0f %16.0f %9.3f %7.2f  %s\n", w.name.c_str(), median(w.arrays_s), median(w.cycles_s),
                    median(w.seconds), median(w.arrays_s) / base, runs.c_str());
    }
    const double tot = g + m + rt;
    std::printf("\none thread's time per array (%llu arrays generated beforehand, %.1f cycles each; median of %d):\n",
                (unsigned long long)n, double(phase_cycles) / double(n), a.repeat);
    std::printf("  %-34s %8.0f ns  %5.1f %%\n", "generation (tb/decl_gen)", 1e9 * g / double(n), 100 * g / tot);
    std::printf("  %-34s %8.0f ns  %5.1f %%\n", "golden side (DeclDecoderTiming)", 1e9 * m / double(n), 100 * m / tot);
    std::printf("  %-34s %8.0f ns  %5.1f %%   %.0f cycles/s, %.0f regions/s\n", "RTL (Verilated, 2 regions per cycle)",
                1e9 * rt / double(n), 100 * rt / tot, double(phase_cycles) / rt, 2.0 * double(phase_cycles) / rt);
    if (b.vf_ways.empty()) return 0;
    std::printf("\nvertex fetch (vpsim xcheck --unit vertex_fetch --random %llu --seed %llu --no-directed): %llu vertices, "
                "%llu cycles; median of %d, in the same rounds\n",
                (unsigned long long)b.vf_cases, (unsigned long long)a.seed, (unsigned long long)b.vf_vertices,
                (unsigned long long)b.vf_cycles, a.repeat);
    std::printf("%-56s %12s %9s   %s\n", "way", "vertices/s", "seconds", "runs (vertices/s)");
    for (const auto& w : b.vf_ways) {
        std::string runs;
        for (double v : w.vertices_s) runs += fmt::format(" {:.0f}", v);
        std::printf("%-56s %12.0f %9.3f  %s\n", fmt::format("--jobs {}", w.jobs).c_str(), median(w.vertices_s),
                    median(w.seconds), runs.c_str());
    }
    return 0;
}

}  // namespace

void add_bench_xcheck(CLI::App* bench, int& exit_code) {
    auto a = std::make_shared<BenchXcheckArgs>();
    CLI::App* c = bench->add_subcommand(
        "xcheck", "Speed of the fast RTL cross-check: arrays/s and RTL cycles/s of the serial per-array path and the "
                  "chunked path at --jobs 1 and 2 (median of 5, interleaved), and one thread's time by part");
    c->add_option("--random", a->random, "Random arrays per run (default 1000000)")->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
    c->add_option("--seed", a->seed, "Seed of the arrays (default 1)");
    c->add_option("--repeat", a->repeat, "Runs of each way; medians are reported (default 5)")->check(CLI::Range(1, 99));
    c->add_option("--jobs", a->jobs, "The --jobs values of the chunked path (default 1 2)")->check(CLI::Range(1, 256));
    c->add_option("--phase-arrays", a->phase_arrays, "Arrays for the time-by-part measurement (default 200000)")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 24));
    c->add_option("--vf-random", a->vf_random,
                  "Vertex fetch cases per run (vpsim xcheck --unit vertex_fetch, no directed cases), at each --jobs "
                  "value in the same rounds; 0 skips the fetch (default 20000)")
        ->check(CLI::Range(uint64_t(0), uint64_t(1) << 32));
    c->add_flag("--json", a->json, "Print one JSON object instead of the tables");
    c->callback([a, &exit_code] { exit_code = run_bench_xcheck(*a); });
}

}  // namespace vpsim::cli
