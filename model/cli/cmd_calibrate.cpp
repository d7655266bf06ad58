// vpsim bench calibrate: the timing model against the chips' published vertex rates, on the
// transform-only workload with every preset (model/bench/calibration.h, docs/calibration.md).
#include "model/cli/commands.h"
#include "model/bench/calibration.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim::cli {

namespace {

struct CalibrateArgs {
    std::vector<std::string> sets;
    bool json = false;
};

int run_bench_calibrate(const CalibrateArgs& a) {
    std::vector<bench::CalibrationRow> rows;
    try {
        rows = bench::calibrate(a.sets);
    } catch (const ParamError& e) {
        std::fprintf(stderr, "vpsim bench calibrate: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim bench calibrate: %s\n", e.what());
        return 3;
    }
    bool ok = true;
    for (const auto& r : rows) ok = ok && r.ok;
    if (a.json) {
        nlohmann::ordered_json j;
        j["workload"] = "transform-only: 30,000 vertices, one FLOAT3 stream, non-indexed triangle list, m4x4 oPos, v0, c0";
        j["sets"] = a.sets;
        auto arr = nlohmann::ordered_json::array();
        for (const auto& r : rows)
            arr.push_back({{"preset", r.preset},
                           {"chip", r.chip},
                           {"clock_mhz", r.clock_mhz},
                           {"published_vertices_per_second", r.published},
                           {"source", r.source},
                           {"model_vertices_per_second", r.model},
                           {"error", r.error},
                           {"tolerance", r.tolerance},
                           {"within_tolerance", r.ok},
                           {"cycles", r.cycles},
                           {"vertices", r.vertices},
                           {"cycles_per_vertex", r.cycles_per_vertex},
                           {"alu_utilisation", r.alu_utilisation},
                           {"bottleneck", r.bottleneck}});
        j["presets"] = arr;
        j["all_within_tolerance"] = ok;
        std::cout << j.dump(2) << "\n";
        return ok ? 0 : 1;
    }
    std::string sets;
    for (const auto& s : a.sets) sets += (sets.empty() ? "" : ", ") + s;
    std::cout << "vpsim bench calibrate: transform-only workload (30,000 vertices, one FLOAT3 stream, non-indexed "
                 "triangle list, m4x4 oPos, v0, c0)"
              << (sets.empty() ? "" : " with " + sets) << "\n";
    std::cout << fmt::format("{:<6} {:<36} {:>7}  {:>11}  {:>11}  {:>7}  {:>9}  {:>9}  {}\n", "preset", "chip",
                             "clock", "published", "model", "error", "tolerance", "cyc/vert", "bottleneck");
    for (const auto& r : rows)
        std::cout << fmt::format("{:<6} {:<36} {:>3g} MHz  {:>7.1f} M/s  {:>7.1f} M/s  {:>+6.1f}%  {:>4}{:>3g}% {}  {:>9.3f}  {}\n",
                                 r.preset, r.chip, r.clock_mhz, r.published / 1e6, r.model / 1e6, 100 * r.error, "±",
                                 100 * r.tolerance, r.ok ? "ok " : "OUT", r.cycles_per_vertex, r.bottleneck);
    std::cout << "published figures:\n";
    for (const auto& r : rows) std::cout << fmt::format("  {}: {}\n", r.preset, r.source);
    std::cout << (ok ? "every preset within its tolerance\n" : "a preset is outside its tolerance\n");
    return ok ? 0 : 1;
}

}  // namespace

void add_bench_calibrate(CLI::App* bench, int& exit_code) {
    auto a = std::make_shared<CalibrateArgs>();
    CLI::App* c = bench->add_subcommand(
        "calibrate",
        "The timing model against the published vertex rates: the transform-only workload (30,000 vertices, one FLOAT3 "
        "stream, non-indexed triangle list, m4x4 oPos, v0, c0) with every preset (nv20, nv2a, nv25): published | model "
        "| error | bottleneck (docs/calibration.md).\nExit status: 0 every preset within its tolerance, 1 one is "
        "not, 2 bad parameter, 3 internal error.");
    c->add_option("--set", a->sets, "Override one parameter on top of every preset, unit.param=value (repeatable)")
        ->allow_extra_args(false);
    c->add_flag("--json", a->json, "Print one JSON object instead of the table");
    c->callback([a, &exit_code] { exit_code = run_bench_calibrate(*a); });
}

}  // namespace vpsim::cli
