// vpsim bench exec (docs/fast-path.md): vertices per second of fetch + shading with the outputs
// written to memory, in one run and on one core, three ways: the reference interpreter
// (fetch_vertex + execute_reference per vertex), the fast path (run_fast_fetch_packed) and the
// same computation written directly in C++ (model/bench/exec_bench.cpp), on (a) `m4x4 oPos, v0, c0` and (b) the
// transform + lighting example. It checks that all three write the same bits.
#include "model/bench/exec_bench.h"
#include "model/cli/commands.h"
#include "model/cli/run_common.h"
#include "model/vs/vs_fast.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace vpsim::cli {

namespace {

using bench::Measured;
using bench::make_m4x4;
using bench::measure;

struct BenchExecArgs {
    uint32_t vertices = 1u << 20;
    int reps = 5;
    bool json = false;
    std::string isa = "auto";
    std::string clock = "cpu";
};

constexpr double kGoalFastA = 200e6;  // vertices/s on (a)
constexpr double kGoalRatio = 3.0;    // fast path within 3x of direct C++

int run_bench_exec(const BenchExecArgs& a) {
    if (a.isa != "auto" && !vs::set_fast_isa(a.isa == "avx2" ? vs::FastIsa::Avx2 : vs::FastIsa::Baseline)) {
        std::fprintf(stderr, "vpsim bench exec: --isa %s: this CPU does not have it\n", a.isa.c_str());
        return 2;
    }
    const std::string kernels = vs::fast_isa_name(vs::fast_isa());
    const bench::Clock clock = a.clock == "wall" ? bench::Clock::Wall : bench::Clock::ThreadCpu;
    const char* clock_name = clock == bench::Clock::Wall ? "wall-clock time" : "CPU time of the measuring thread";
    std::vector<std::string> notes;
    std::vector<Measured> results;
    try {
        {
            bench::Workload w = make_m4x4(a.vertices);
            results.push_back(measure(w, a.vertices, a.reps, clock));
        }
        std::string note;
        const std::string example = data_path("examples/shaders/transform_light.vsh");
        bench::Workload w = bench::make_transform_light(a.vertices, example, note);
        if (example.empty())
            note = data_not_found("examples/shaders/transform_light.vsh") + ": the built-in copy is measured";
        if (!note.empty()) notes.push_back(note);
        results.push_back(measure(w, a.vertices, a.reps, clock));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim bench exec: %s\n", e.what());
        return 2;
    }
    bool identical = true;
    for (const auto& m : results) identical = identical && m.fast_mismatch.empty() && m.direct_mismatch.empty();
    const bool goal_a = results[0].fast_vps >= kGoalFastA;
    const bool goal_ratio_a = results[0].direct_vps <= kGoalRatio * results[0].fast_vps;
    const bool goal_ratio_b = results[1].direct_vps <= kGoalRatio * results[1].fast_vps;

    if (a.json) {
        nlohmann::ordered_json j;
        j["vertices"] = a.vertices;
        j["repetitions"] = a.reps;
        j["statistic"] = "median";
        j["clock"] = a.clock;
        j["batch"] = vs::kFastBatch;
        j["fast_kernels"] = kernels;
        j["workloads"] = nlohmann::ordered_json::array();
        for (const auto& m : results) {
            j["workloads"].push_back({
                {"name", m.label},
                {"shader", m.shader},
                {"instructions", m.instructions},
                {"micro_ops", m.micro_ops},
                {"output_floats_per_vertex", m.record_floats},
                {"interpreter_vertices_per_second", m.interp_vps},
                {"fast_vertices_per_second", m.fast_vps},
                {"direct_vertices_per_second", m.direct_vps},
                {"fast_over_direct", m.fast_vps / m.direct_vps},
                {"fast_over_interpreter", m.fast_vps / m.interp_vps},
                {"fast_identical", m.fast_mismatch.empty()},
                {"direct_identical", m.direct_mismatch.empty()},
                {"fast_first_mismatch", m.fast_mismatch},
                {"direct_first_mismatch", m.direct_mismatch},
                {"seconds", {{"interpreter", m.interp_s}, {"fast", m.fast_s}, {"direct", m.direct_s}}},
            });
        }
        j["goals"] = {{"a_fast_at_least_200M", goal_a},
                      {"a_fast_within_3x_of_direct", goal_ratio_a},
                      {"b_fast_within_3x_of_direct", goal_ratio_b}};
        j["identical"] = identical;
        j["notes"] = notes;
        std::cout << j.dump(2) << "\n";
    } else {
        std::cout << fmt::format(
            "vpsim bench exec: {} vertices, median of {} repetitions, one core; fetch from a vertex buffer + "
            "shading, outputs written to memory\nfast path: batches of {} vertices, {} kernels; timed by {}\n\n",
            a.vertices, a.reps, vs::kFastBatch, kernels, clock_name);
        std::cout << fmt::format("{:<24} {:>14} {:>14} {:>14} {:>12} {:>12}  {}\n", "workload", "interpreter",
                                 "fast path", "direct C++", "fast/direct", "fast/interp", "outputs");
        const auto mvs = [](double v) { return fmt::format("{:.1f} M/s", v / 1e6); };
        for (const auto& m : results) {
            const bool same = m.fast_mismatch.empty() && m.direct_mismatch.empty();
            std::cout << fmt::format("{:<24} {:>14} {:>14} {:>14} {:>12.3f} {:>11.1f}x  {}\n", m.label,
                                     mvs(m.interp_vps), mvs(m.fast_vps), mvs(m.direct_vps), m.fast_vps / m.direct_vps,
                                     m.fast_vps / m.interp_vps, same ? "bit-identical" : "MISMATCH");
        }
        std::cout << "\n";
        for (const auto& m : results) {
            std::cout << fmt::format("{}: {} ({} instructions -> {} micro-ops, {} output floats per vertex)\n",
                                     m.label, m.shader, m.instructions, m.micro_ops, m.record_floats);
            if (!m.fast_mismatch.empty()) std::cout << "  fast path differs: " << m.fast_mismatch << "\n";
            if (!m.direct_mismatch.empty()) std::cout << "  direct C++ differs: " << m.direct_mismatch << "\n";
        }
        for (const auto& n : notes) std::cout << "note: " << n << "\n";
        std::cout << fmt::format("\ngoals: (a) fast path >= 200 M vertices/s: {} ({:.1f} M/s)\n",
                                 goal_a ? "met" : "MISSED", results[0].fast_vps / 1e6);
        std::cout << fmt::format("       fast path within 3x of direct C++: (a) {} ({:.2f}x slower), (b) {} ({:.2f}x slower)\n",
                                 goal_ratio_a ? "met" : "MISSED", results[0].direct_vps / results[0].fast_vps,
                                 goal_ratio_b ? "met" : "MISSED", results[1].direct_vps / results[1].fast_vps);
    }
    return identical ? 0 : 1;
}

}  // namespace

void add_bench_exec(CLI::App* bench, int& exit_code) {
    auto a = std::make_shared<BenchExecArgs>();
    CLI::App* c = bench->add_subcommand(
        "exec",
        "Vertices per second of fetch + shading (outputs written to memory, one core) of the reference interpreter, "
        "the fast path and the same computation written directly in C++, on (a) `m4x4 oPos, v0, c0` and (b) the "
        "transform + lighting example; checks that all three write the same bits.\nExit status: 0 when the outputs "
        "are bit-identical, 1 otherwise, 2 usage error.");
    c->add_option("--vertices", a->vertices, "Vertices per measurement (default 1048576)")
        ->check(CLI::Range(1u, 1u << 26));
    c->add_option("--reps", a->reps, "Repetitions; the median is reported (default 5)")->check(CLI::Range(1, 1000));
    c->add_option("--isa", a->isa,
                  "Instruction set of the fast path's kernels: auto (avx2 when the CPU has it), baseline (sse2), "
                  "avx2 (default auto)")
        ->check(CLI::IsMember({"auto", "baseline", "avx2"}));
    c->add_option("--clock", a->clock,
                  "What a repetition's time is: cpu (the CPU time of the measuring thread: time the thread "
                  "spends descheduled on a loaded machine counts for none of the three) or wall (wall-clock time) "
                  "(default cpu)")
        ->check(CLI::IsMember({"cpu", "wall"}));
    c->add_flag("--json", a->json, "Print one JSON object instead of the table");
    c->callback([a, &exit_code] { exit_code = run_bench_exec(*a); });
}

}  // namespace vpsim::cli

