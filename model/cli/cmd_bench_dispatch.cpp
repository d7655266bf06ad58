// vpsim bench dispatch (docs/bench.md): one pipeline-shaped workload, a chain of stages joined by
// small FIFOs, modelled the textbook SystemC way (SC_THREADs / SC_METHODs on an sc_clock, sc_fifo)
// and vpsim's way (TimedUnits, Channels, the event-skipping dispatcher), in
// model/bench/dispatch_bench.h; it checks that all ways simulate the same cycles and reports their
// speeds side by side.
#include "model/cli/commands.h"
#include "model/cli/run_common.h"
#include "model/bench/dispatch_bench.h"
#include "model/sc/pipeline.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim::cli {

namespace {

// ------------------------------------------------------------------------- bench dispatch

struct BenchDispatchArgs {
    uint64_t items = 1000000;
    int repeat = 3;
    std::string workload = "all";
    bool json = false;
};

constexpr size_t kWays = std::size(bench::kDispatchWays);

// One workload's runs: runs[way][repetition].
struct DispatchMeasured {
    bench::DispatchWorkload w;
    std::array<std::vector<bench::DispatchRun>, kWays> runs;
    std::string disagreement;  // "" when every run gave the same cycles and per-stage figures

    const bench::DispatchRun& reference() const { return runs[0].front(); }
    double median_of(size_t way, double (*f)(const bench::DispatchRun&, uint64_t items)) const {
        std::vector<double> v;
        for (const auto& r : runs[way]) v.push_back(f(r, w.items));
        return median(v);
    }
    // The median over the repetitions of way a's speed over way b's (each pair run side by side),
    // by host seconds or by CPU seconds (the same cycles both ways).
    double median_ratio(size_t a, size_t b, bool cpu = false) const {
        std::vector<double> v;
        for (size_t i = 0; i < runs[a].size(); ++i)
            v.push_back(cpu ? runs[b][i].cpu_seconds / runs[a][i].cpu_seconds
                            : runs[b][i].host_seconds / runs[a][i].host_seconds);
        return median(v);
    }
};

double run_seconds(const bench::DispatchRun& r, uint64_t) { return r.host_seconds; }
double run_cpu_seconds(const bench::DispatchRun& r, uint64_t) { return r.cpu_seconds; }
double run_cps(const bench::DispatchRun& r, uint64_t) { return double(r.cycles) / r.host_seconds; }
double run_ips(const bench::DispatchRun& r, uint64_t items) { return double(items) / r.host_seconds; }

std::string join_numbers(const std::vector<uint32_t>& v) {
    std::string s;
    for (uint32_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
}

// Every run against the first: the cycles and each stage's busy and stalled cycles.
std::string disagreement(const DispatchMeasured& m) {
    const bench::DispatchRun& ref = m.reference();
    for (size_t k = 0; k < kWays; ++k)
        for (size_t i = 0; i < m.runs[k].size(); ++i) {
            const bench::DispatchRun& r = m.runs[k][i];
            const std::string who = fmt::format("{}: {} (repetition {}) against {} (repetition 1)", m.w.name,
                                                bench::dispatch_way_name(bench::kDispatchWays[k]), i + 1,
                                                bench::dispatch_way_name(bench::kDispatchWays[0]));
            if (r.cycles != ref.cycles) return fmt::format("{}: {} cycles vs {}", who, r.cycles, ref.cycles);
            for (size_t s = 0; s < ref.busy.size(); ++s) {
                if (r.busy[s] != ref.busy[s])
                    return fmt::format("{}: stage {} busy {} cycles vs {}", who, s, r.busy[s], ref.busy[s]);
                if (r.stalled[s] != ref.stalled[s])
                    return fmt::format("{}: stage {} stalled {} cycles vs {}", who, s, r.stalled[s], ref.stalled[s]);
            }
        }
    return "";
}

int run_bench_dispatch(const BenchDispatchArgs& a) {
    const char* const me = "vpsim bench dispatch";
    const uint64_t quantum = sc::PipelineParams{}.quantum;
    std::vector<DispatchMeasured> ms;
    for (const auto& w : bench::dispatch_workloads(a.items))
        if (a.workload == "all" || a.workload == w.name) ms.push_back({w, {}, ""});
    try {
        // Interleaved: every repetition runs every workload every way, so a burst of load from
        // another process slows the ways alike and each ratio compares runs made side by side.
        for (int r = 0; r < a.repeat; ++r)
            for (auto& m : ms)
                for (size_t k = 0; k < kWays; ++k)
                    m.runs[k].push_back(bench::run_dispatch_bench(m.w, bench::kDispatchWays[k], quantum));
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 1;
    }
    bool equal = true;
    for (auto& m : ms) {
        m.disagreement = disagreement(m);
        equal = equal && m.disagreement.empty();
    }
    constexpr size_t kDispatcher = kWays - 1;
    const std::string fifo_timing =
        "an item written at cycle t is readable from t + 1, a slot freed at t is writable from t + 1 (sc_fifo's)";

    if (a.json) {
        using oj = nlohmann::ordered_json;
        oj j;
        j["items"] = a.items;
        j["repetitions"] = a.repeat;
        j["statistic"] = "median";
        j["order"] = "interleaved: each repetition runs every workload every way, each in a fresh SystemC context";
        j["clock_period_ns"] = 5;
        j["dispatcher_quantum_cycles"] = quantum;
        j["fifo_timing"] = fifo_timing;
        oj wl = oj::array();
        for (const auto& m : ms) {
            const bench::DispatchRun& ref = m.reference();
            oj stages = oj::array();
            for (size_t s = 0; s < ref.busy.size(); ++s)
                stages.push_back({{"service_cycles", m.w.service[s]},
                                  {"busy_cycles", ref.busy[s]},
                                  {"stalled_cycles", ref.stalled[s]},
                                  {"idle_cycles", ref.cycles - ref.busy[s] - ref.stalled[s]}});
            oj ways = oj::array();
            for (size_t k = 0; k < kWays; ++k) {
                oj secs = oj::array(), cpu = oj::array();
                for (const auto& r : m.runs[k]) {
                    secs.push_back(r.host_seconds);
                    cpu.push_back(r.cpu_seconds);
                }
                ways.push_back({{"way", bench::dispatch_way_key(bench::kDispatchWays[k])},
                                {"name", bench::dispatch_way_name(bench::kDispatchWays[k])},
                                {"cycles", m.runs[k].front().cycles},
                                {"activations", m.runs[k].front().activations},
                                {"host_seconds", secs},
                                {"cpu_seconds", cpu},
                                {"median",
                                 {{"host_seconds", m.median_of(k, run_seconds)},
                                  {"cpu_seconds", m.median_of(k, run_cpu_seconds)},
                                  {"cycles_per_second", m.median_of(k, run_cps)},
                                  {"items_per_second", m.median_of(k, run_ips)}}}});
            }
            oj ratios = oj::object(), cpu_ratios = oj::object();
            for (size_t k = 0; k < kDispatcher; ++k) {
                const std::string key = fmt::format("dispatcher_over_{}", bench::dispatch_way_key(bench::kDispatchWays[k]));
                ratios[key] = m.median_ratio(kDispatcher, k);
                cpu_ratios[key] = m.median_ratio(kDispatcher, k, true);
            }
            wl.push_back({{"name", m.w.name},
                          {"description", m.w.what},
                          {"fifo_capacities", m.w.capacity},
                          {"cycles", ref.cycles},
                          {"stages", stages},
                          {"ways", ways},
                          {"speed_ratios", ratios},
                          {"speed_ratios_by_cpu_seconds", cpu_ratios},
                          {"cycles_equal", m.disagreement.empty()},
                          {"disagreement", m.disagreement}});
        }
        j["workloads"] = wl;
        j["cycles_equal"] = equal;
        std::cout << j.dump(2) << "\n";
        return equal ? 0 : 3;
    }

    std::cout << fmt::format(
        "vpsim bench dispatch: a chain of {} stages, {} items, each run in a fresh SystemC context; {} repetition{}, "
        "interleaved; medians of the host (wall) seconds of sc_start, its CPU seconds, and the rates per host "
        "second\nFIFOs (every way): {}\n",
        ms.front().w.service.size(), group_digits(a.items), a.repeat, a.repeat == 1 ? "" : "s", fifo_timing);
    for (const auto& m : ms) {
        const bench::DispatchRun& ref = m.reference();
        std::cout << fmt::format("\n{}: {}\n  service cycles per item {}; FIFO capacities {}\n\n", m.w.name, m.w.what,
                                 join_numbers(m.w.service), join_numbers(m.w.capacity));
        std::cout << fmt::format("  {:<22} {:>12} {:>9} {:>8} {:>12} {:>12} {:>13} {:>10}\n", "way", "cycles",
                                 "host s", "CPU s", "cycles/s", "items/s", "activations", "per cycle");
        for (size_t k = 0; k < kWays; ++k) {
            const bench::DispatchRun& r = m.runs[k].front();
            std::cout << fmt::format("  {:<22} {:>12} {:>9.4f} {:>8.4f} {:>12} {:>12} {:>13} {:>10.2f}\n",
                                     bench::dispatch_way_name(bench::kDispatchWays[k]), group_digits(r.cycles),
                                     m.median_of(k, run_seconds), m.median_of(k, run_cpu_seconds),
                                     mcps(m.median_of(k, run_cps)),
                                     mcps(m.median_of(k, run_ips)), group_digits(r.activations),
                                     double(r.activations) / double(r.cycles));
        }
        std::string row_busy, row_stalled, row_idle, row_head;
        const auto pct = [&](uint64_t c) { return fmt::format(" {:>6.1f}", 100.0 * double(c) / double(ref.cycles)); };
        for (size_t s = 0; s < ref.busy.size(); ++s) {
            row_head += fmt::format(" {:>6}", s);
            row_busy += pct(ref.busy[s]);
            row_stalled += pct(ref.stalled[s]);
            row_idle += pct(ref.cycles - ref.busy[s] - ref.stalled[s]);
        }
        std::cout << fmt::format("\n  {:<22}{}\n  {:<22}{}\n  {:<22}{}\n  {:<22}{}\n", "stage", row_head,
                                 "busy % of cycles", row_busy, "stalled %", row_stalled, "idle %", row_idle);
        std::cout << "\n";
        for (size_t k = 0; k < kDispatcher; ++k)
            std::cout << fmt::format("  dispatcher speed over {}: {:.2f}x by host seconds, {:.2f}x by CPU seconds\n",
                                     bench::dispatch_way_name(bench::kDispatchWays[k]), m.median_ratio(kDispatcher, k),
                                     m.median_ratio(kDispatcher, k, true));
        std::cout << "  (medians of the per-repetition ratios)\n";
    }
    std::cout << "\n";
    if (!equal) {
        for (const auto& m : ms)
            if (!m.disagreement.empty()) std::cout << "cycles DIFFER: " << m.disagreement << "\n";
        return 3;
    }
    std::string cycles;
    for (const auto& m : ms)
        cycles += fmt::format("{}{} {}", cycles.empty() ? "" : ", ", m.w.name, group_digits(m.reference().cycles));
    std::cout << fmt::format("cycles equal: {} cycles, and every stage's busy and stalled cycles, the same all {} "
                             "ways in every repetition\n",
                             cycles, kWays);
    return 0;
}

}  // namespace

void add_bench_dispatch(CLI::App* bench, int& exit_code) {
    auto a = std::make_shared<BenchDispatchArgs>();
    CLI::App* c = bench->add_subcommand(
        "dispatch",
        "One pipeline-shaped workload (a chain of 7 stages with their own service times and small FIFOs) modelled "
        "three ways with the same cycle-level behaviour: SC_THREADs on an sc_clock with sc_fifos, SC_METHODs on an "
        "sc_clock with sc_fifos, and TimedUnits with Channels stepped by the timing model's event-skipping "
        "dispatcher; simulated cycles, host seconds, cycles and items per host second, and the dispatcher's speed "
        "ratios (docs/bench.md).\nExit status: 0 ok, 1 a run failed, 2 usage, 3 the ways simulated different "
        "cycles.");
    c->add_option("--items", a->items, "Items through the chain (default 1000000)")
        ->check(CLI::Range(uint64_t(1), uint64_t(1000000000)));
    c->add_option("--repeat", a->repeat, "Repetitions (every workload every way each); medians are reported (default 3)")
        ->check(CLI::Range(1, 1000));
    c->add_option("--workload", a->workload, "busy, idle or all (default all)")
        ->check(CLI::IsMember({"busy", "idle", "all"}));
    c->add_flag("--json", a->json, "Print one JSON object instead of the tables");
    c->callback([a, &exit_code] { exit_code = run_bench_dispatch(*a); });
}

}  // namespace vpsim::cli
