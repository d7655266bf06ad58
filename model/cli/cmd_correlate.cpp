// vpsim bench correlate: every published figure a preset cites, beside the model's value and the
// error (docs/calibration.md, "Correlation"): the peak vertex rate from `vpsim bench calibrate`'s
// run (within the preset's tolerance), and each parameter whose source is "published: ..." (post-
// transform cache entries, engines, vertices in flight, clocks, bandwidth, lights ...) against the
// value the model runs with after the preset and any --set (exact: tolerance 0).
#include "model/cli/commands.h"
#include "model/cli/run_common.h"
#include "model/common/file_util.h"
#include "model/common/params.h"
#include "model/common/presets.h"
#include "model/bench/calibration.h"
#include "model/sc/pipeline.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace vpsim::cli {

namespace {

struct CorrelateArgs {
    std::vector<std::string> sets;
    bool json = false, markdown = false;
    std::string plot;  // --plot FILE: the chart (.png, .svg, .pdf)
};

struct Row {
    std::string preset, figure, source;
    double published = 0, model = 0, error = 0, tolerance = 0;
    bool ok = false;
};

int run_correlate(const CorrelateArgs& a) {
    std::vector<Row> rows;
    try {
        for (const auto& c : bench::calibrate(a.sets))
            rows.push_back({c.preset, "vertices per second (transform-only workload)", c.source, c.published, c.model,
                            c.error, c.tolerance, c.ok});
        for (const Preset& p : presets()) {
            ParamSet params = sc::default_params();
            apply_preset(params, p.name);
            for (const auto& s : a.sets) params.apply_set(s);
            for (const auto& [unit, ps] : p.json["params"].items())
                for (const auto& [name, e] : ps.items()) {
                    const std::string source = e.value("source", "");
                    if (source.rfind("published", 0) != 0 || !e["value"].is_number()) continue;
                    const std::string key = unit + "." + name;
                    const nlohmann::json& v = params.value(key);
                    if (!v.is_number()) continue;
                    Row r{p.name, key, source, e["value"].get<double>(), v.get<double>(), 0, 0, false};
                    r.error = r.published != 0 ? (r.model - r.published) / r.published : (r.model == 0 ? 0 : 1);
                    r.ok = r.model == r.published;
                    rows.push_back(r);
                }
        }
    } catch (const ParamError& e) {
        std::fprintf(stderr, "vpsim bench correlate: %s\n", e.what());
        return 2;
    }
    bool ok = true;
    for (const auto& r : rows) ok = ok && r.ok;
    auto num = [](double x) { return std::fabs(x) >= 1e5 ? fmt::format("{:.4g}", x) : fmt::format("{:g}", x); };
    auto figures_json = [&] {
        nlohmann::ordered_json j;
        j["sets"] = a.sets;
        auto arr = nlohmann::ordered_json::array();
        for (const auto& r : rows)
            arr.push_back({{"preset", r.preset}, {"figure", r.figure}, {"published", r.published}, {"model", r.model},
                           {"error", r.error}, {"tolerance", r.tolerance}, {"within_tolerance", r.ok},
                           {"source", r.source}});
        j["figures"] = arr;
        j["all_within_tolerance"] = ok;
        return j;
    };
    if (!a.plot.empty()) {
        // The chart is drawn by the plot script from the --json document, written to a temporary file.
        const std::string tmp = (std::filesystem::temp_directory_path() /
                                 fmt::format("vpsim-correlate-{}-{}.json", ::getpid(), std::random_device{}()))
                                    .string();
        int rc = 2;
        try {
            write_file_atomic(tmp, figures_json().dump(2) + "\n");
            rc = run_plot_script("correlate", "", {tmp, "-o", a.plot});
        } catch (const std::exception& e) {
            std::fprintf(stderr, "vpsim bench correlate: %s\n", e.what());
        }
        std::error_code ec;
        std::filesystem::remove(tmp, ec);
        if (rc != 0) return rc;
    }
    if (a.json) {
        std::cout << figures_json().dump(2) << "\n";
    } else if (a.markdown) {
        std::cout << "| preset | figure | published | model | error | tolerance | ok | source |\n"
                     "|---|---|---:|---:|---:|---:|---|---|\n";
        for (const auto& r : rows)
            std::cout << fmt::format("| {} | {} | {} | {} | {:+.1f} % | ±{:g} % | {} | {} |\n", r.preset, r.figure,
                                     num(r.published), num(r.model), 100 * r.error, 100 * r.tolerance,
                                     r.ok ? "ok" : "**OUT**", r.source);
    } else {
        std::cout << fmt::format("{:<6} {:<46} {:>11} {:>11} {:>8} {:>6}\n", "preset", "figure", "published", "model",
                                 "error", "tol.");
        for (const auto& r : rows)
            std::cout << fmt::format("{:<6} {:<46} {:>11} {:>11} {:>+7.1f}% {:>5g}% {}\n", r.preset, r.figure,
                                     num(r.published), num(r.model), 100 * r.error, 100 * r.tolerance,
                                     r.ok ? "ok" : "OUT");
        std::cout << (ok ? "every published figure within its tolerance\n" : "a figure is outside its tolerance\n");
    }
    return ok ? 0 : 1;
}

}  // namespace

void add_bench_correlate(CLI::App* bench, int& exit_code) {
    auto a = std::make_shared<CorrelateArgs>();
    CLI::App* c = bench->add_subcommand(
        "correlate",
        "Every published figure the presets cite beside the model's value and the error: the peak vertex rate on "
        "the transform-only workload (within the preset's tolerance) and every parameter sourced \"published\" "
        "against the value the model runs with (exact) (docs/calibration.md, \"Correlation\").\nExit status: 0 every "
        "figure within its tolerance, 1 one is not, 2 bad parameter.");
    c->add_option("--set", a->sets, "Override one parameter on top of every preset, unit.param=value (repeatable)")
        ->allow_extra_args(false);
    c->add_flag("--json", a->json, "One JSON object");
    c->add_flag("--markdown", a->markdown, "A Markdown table");
    c->add_option("--plot", a->plot,
                  "Also draw the figures as a chart (error against the published value, its tolerance band) into "
                  "FILE: .png, .svg or .pdf (matplotlib, as vpsim plot)")
        ->type_name("FILE");
    c->callback([a, &exit_code] { exit_code = run_correlate(*a); });
}

}  // namespace vpsim::cli
