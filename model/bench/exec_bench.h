// bench exec's workloads and measurement (docs/fast-path.md): vertices per second of fetch +
// shading with the outputs written to memory, three ways: the reference interpreter
// (fetch_vertex + execute_reference per vertex), the fast path (run_fast_fetch_packed) and the
// same computation written directly in C++ (exec_bench.cpp), on (a) `m4x4 oPos, v0, c0` and
// (b) the transform + lighting example; all three must write the same bits.
#pragma once

#include "model/decl/decl_tokens.h"
#include "model/vs/vs_exec.h"
#include "model/vs/vs_fetch.h"
#include "model/vs/vs_isa.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::bench {

struct Workload {
    std::string label;   // "(a) m4x4"
    std::string shader;  // where the program comes from
    vs::Program program;
    decl::Declaration decl;
    std::vector<uint8_t> vb;
    uint32_t stride = 0;
    vs::Streams streams{};
    vs::Constants constants;
    void (*direct)(const uint8_t*, size_t, const vs::Constants&, size_t, float*) = nullptr;
};


// (a): `m4x4 oPos, v0, c0` on `n` vertices.
Workload make_m4x4(uint32_t n);
// (b): examples/shaders/transform_light.vsh, read from `example_path` when it assembles to the
// program the direct C++ implements (else the built-in copy, and `note` says why).
Workload make_transform_light(uint32_t n, const std::string& example_path, std::string& note);

struct Measured {
    std::string label, shader;
    size_t instructions = 0, micro_ops = 0;
    uint32_t record_floats = 0;
    std::vector<double> interp_s, fast_s, direct_s;  // seconds per repetition
    double interp_vps = 0, fast_vps = 0, direct_vps = 0;
    std::string fast_mismatch, direct_mismatch;        // "" = identical to the interpreter
};


// How a repetition is timed: the CPU time of the calling thread (the default: on a loaded machine,
// time when the thread is not running is charged to none of the three), or wall-clock time.
enum class Clock { ThreadCpu, Wall };

// Runs each way `reps` times on `n` vertices; the vertices per second are medians.
Measured measure(Workload& w, uint32_t n, int reps, Clock clock = Clock::ThreadCpu);

// The median of a benchmark's repetitions (the mean of the middle two for an even count).
double median(std::vector<double> v);

}  // namespace vpsim::bench
