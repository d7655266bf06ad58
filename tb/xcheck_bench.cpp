#include "tb/xcheck_bench.h"

#include "tb/decl_gen.h"
#include "tb/vf_xcheck.h"
#include "tb/xcheck.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace vpsim::tb {

namespace {

// One run of the vertex fetch's cross-check (random cases, no directed ones) into `w`; false (and
// b.failure) on a mismatch or when it checked other cases than the first run.
bool run_vf(const XcheckBenchOptions& a, XcheckBench& b, VfBenchWay& w) {
    vf::Options o;
    o.random = a.vf_random;
    o.seed = a.seed;
    o.jobs = w.jobs;
    o.directed = false;
    const vf::Report rep = vf::run(o);
    if (rep.mismatches) {
        b.failure = fmt::format("vertex fetch, --jobs {}: {} mismatches (run vpsim xcheck --unit vertex_fetch --seed {})",
                                w.jobs, rep.mismatches, a.seed);
        return false;
    }
    if (!b.vf_cases) b.vf_cases = rep.cases, b.vf_vertices = rep.vertices, b.vf_cycles = rep.cycles;
    if (rep.cases != b.vf_cases || rep.vertices != b.vf_vertices || rep.cycles != b.vf_cycles) {
        b.failure = fmt::format("vertex fetch, --jobs {} checked {} cases / {} vertices / {} cycles, the first run {} / {} / {}",
                                w.jobs, rep.cases, rep.vertices, rep.cycles, b.vf_cases, b.vf_vertices, b.vf_cycles);
        return false;
    }
    w.vertices_s.push_back(double(rep.vertices) / rep.seconds);
    w.seconds.push_back(rep.seconds);
    return true;
}

}  // namespace

XcheckBench bench_xcheck(const XcheckBenchOptions& a) {
    XcheckBench b;
    auto& ways = b.ways;
    ways.push_back({"serial, per-array allocation (the path before chunks)", 1, true, {}, {}, {}});
    for (int j : a.jobs) ways.push_back({fmt::format("chunked, --jobs {}", j), j, false, {}, {}, {}});
    if (a.vf_random)
        for (int j : a.jobs) b.vf_ways.push_back({j, {}, {}});
    for (int r = 0; r < a.repeat; ++r) {
        for (auto& w : b.vf_ways)
            if (!run_vf(a, b, w)) return b;
        for (auto& w : ways) {
            XcheckOptions o;
            o.random = a.random;
            o.seed = a.seed;
            o.jobs = w.jobs;
            o.per_array_path = w.per_array;
            const XcheckReport rep = run_xcheck(o);
            if (rep.mismatches) {
                b.failure = fmt::format("{}: {} mismatches (run vpsim xcheck --seed {})", w.name, rep.mismatches, a.seed);
                return b;
            }
            if (!b.arrays) b.arrays = rep.arrays, b.cycles = rep.cycles, b.tokens = rep.tokens;
            if (rep.arrays != b.arrays || rep.cycles != b.cycles || rep.tokens != b.tokens) {  // the same arrays every way
                b.failure = fmt::format("{} checked {} arrays / {} cycles, the first way {} / {}", w.name, rep.arrays,
                                        rep.cycles, b.arrays, b.cycles);
                return b;
            }
            w.arrays_s.push_back(double(rep.arrays) / rep.seconds);
            w.cycles_s.push_back(double(rep.cycles) / rep.seconds);
            w.seconds.push_back(rep.seconds);
        }
    }

    // One thread's time per array, by part, on arrays generated beforehand.
    const uint64_t n = std::min(a.phase_arrays, a.random);
    b.phase_arrays = n;
    std::vector<ArrayCase> cases(n);
    GenScratch scratch;
    SideResult res;
    auto dut = builtin_rtl();
    using clock = std::chrono::steady_clock;
    for (int r = 0; r < a.repeat; ++r) {
        auto t = clock::now();
        for (uint64_t i = 0; i < n; ++i) random_case(a.seed, i, cases[i], scratch);
        b.gen_s.push_back(std::chrono::duration<double>(clock::now() - t).count());
        t = clock::now();
        uint64_t c = 0;
        for (const auto& k : cases) c += run_model(k.tokens, k.lenient, k.bp_seed, {}).cycles;
        b.model_s.push_back(std::chrono::duration<double>(clock::now() - t).count());
        t = clock::now();
        uint64_t rc = 0;
        for (const auto& k : cases) {
            dut->run_into(k.tokens, k.lenient, k.bp_seed, {}, res);
            rc += res.cycles;
        }
        b.rtl_s.push_back(std::chrono::duration<double>(clock::now() - t).count());
        if (rc != c) {
            b.failure = fmt::format("the RTL took {} cycles, the model {}", rc, c);
            return b;
        }
        b.phase_cycles = c;
    }
    return b;
}

}  // namespace vpsim::tb
