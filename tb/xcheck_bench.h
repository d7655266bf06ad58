// vpsim bench xcheck (docs/xcheck.md, "Speed"): the fast cross-check of the built-in RTL on random
// arrays (no corpus), three ways interleaved run by run -- the serial per-array path (every array
// into new vectors, a new golden side per array), the chunked path with --jobs 1 and with --jobs
// 2 (or the --jobs list) -- then where one thread's time goes, on arrays generated beforehand:
// generation alone, the golden side alone, the RTL alone (Verilator's evaluations). In the same
// rounds, the vertex fetch's cross-check (vpsim xcheck --unit vertex_fetch, random cases only) at
// each --jobs value. The measurements; the CLI takes the medians and prints them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::tb {

struct XcheckBenchOptions {
    uint64_t random = 1000000, seed = 1;
    int repeat = 5;                  // runs of each way, and of each part
    std::vector<int> jobs = {1, 2};  // the chunked path's --jobs values
    uint64_t phase_arrays = 200000;  // arrays for the time by part (at most `random`)
    uint64_t vf_random = 20000;      // vertex fetch cases per run (0: the fetch is not measured)
};

struct VfBenchWay {
    int jobs = 1;
    std::vector<double> vertices_s, seconds;  // per run
};

struct XcheckBenchWay {
    std::string name;
    int jobs = 1;
    bool per_array = false;                        // the serial per-array path
    std::vector<double> arrays_s, cycles_s, seconds;  // per run
};

struct XcheckBench {
    std::vector<XcheckBenchWay> ways;  // the serial path first
    uint64_t arrays = 0, cycles = 0, tokens = 0;  // of one run (the same every way)
    uint64_t phase_arrays = 0, phase_cycles = 0;
    std::vector<double> gen_s, model_s, rtl_s;  // per run: seconds for phase_arrays arrays
    std::vector<VfBenchWay> vf_ways;            // one per --jobs value, when vf_random
    uint64_t vf_cases = 0, vf_vertices = 0, vf_cycles = 0;  // of one run (the same every way)
    std::string failure;  // a mismatch or ways that checked different arrays: the measurement is void
};

XcheckBench bench_xcheck(const XcheckBenchOptions& o);

}  // namespace vpsim::tb
