// vpsim bench correlate: the timing model against published measurements of real chips
// (model/bench/correlation.h; docs/calibration.md, "Correlation with measured hardware"). Each
// figure of the measurements file (default: the run-time data's examples/correlation/
// measurements.json) names a test, a chip and its clock, the page and the sentence it was read
// from, its preset and the scene that rebuilds the test; the scene runs on the preset at the chip's
// clock and the model's triangles/s (or frames/s) stand beside the measured value, with the error,
// the figure's set (fit or holdout, by position) and each set's mean absolute error. The preset
// parameters copied from spec sheets are listed by `vpsim presets --published`.
#include "model/cli/commands.h"
#include "model/cli/run_common.h"
#include "model/common/file_util.h"
#include "model/common/params.h"
#include "model/bench/correlation.h"
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

constexpr const char* kMe = "vpsim bench correlate";
constexpr const char* kData = "examples/correlation/measurements.json";

struct CorrelateArgs {
    std::vector<std::string> sets;
    std::string data;  // --data FILE
    bool json = false, markdown = false, check = false;
    std::string plot;  // --plot FILE: the chart (.png, .svg, .pdf)
};

std::string num(double x) { return std::fabs(x) >= 100 ? fmt::format("{:.1f}", x) : fmt::format("{:.2f}", x); }

// A Markdown table cell: no pipes or line breaks inside.
std::string md(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '|')
            o += "\\|";
        else if (c == '\n' || c == '\r')
            o += ' ';
        else
            o += c;
    }
    return o;
}

const char* set_name(const bench::Measurement& m) { return m.holdout ? "holdout" : "fit"; }

std::string verdict(const bench::CorrelationRow& r) {
    if (r.m.comparison == bench::Comparison::UpperBound) return r.within ? "bound held" : "BOUND BROKEN";
    return r.within ? "within" : "out";
}

nlohmann::ordered_json to_json(const CorrelateArgs& a, const bench::Measurements& data,
                               const std::vector<bench::CorrelationRow>& rows, const bench::CorrelationSummary& s) {
    using oj = nlohmann::ordered_json;
    oj j;
    j["data"] = data.path;
    j["sets"] = a.sets;
    j["tolerance"] = bench::kTolerance;
    j["split_rule"] = bench::kSplitRule;
    j["conversion"] = "triangles/s = triangles drawn / (cycles / clock); frames/s = triangles/s / triangles per frame";
    auto figs = oj::array();
    for (const auto& r : rows) {
        const auto& m = r.m;
        auto opt = [](const std::string& v) { return v.empty() ? oj(nullptr) : oj(v); };
        oj f = {{"id", m.id},
                {"set", set_name(m)},
                {"test", m.test},
                {"test_kind", m.test_kind},
                {"chip", m.chip},
                {"core_mhz", m.core_mhz},
                {"board", opt(m.board)},
                {"driver", opt(m.driver)},
                {"system", opt(m.system)},
                {"settings", opt(m.settings)},
                {"date", m.date},
                {"url", m.url},
                {"quote", m.quote},
                {"preset", m.preset},
                {"preset_sets", r.sets},
                {"scene", m.scene},
                {"measure", bench::measure_name(m.measure)},
                {"comparison", bench::comparison_name(m.comparison)},
                {"unit", m.unit},
                {"measured", m.value},
                {"model", r.model},
                {"error", r.error},
                {"within", r.within}};
        if (m.measure == bench::Measure::FramesPerSecond) {
            f["triangles_per_frame"] = m.triangles_per_frame;
            f["triangles_per_frame_source"] = m.triangles_per_frame_source;
        }
        f["clock_mhz"] = r.clock_mhz;
        f["cycles"] = r.cycles;
        f["triangles"] = r.triangles;
        f["shaded"] = r.shaded;
        f["model_triangles_per_second"] = r.triangles_per_second;
        f["bottleneck"] = r.bottleneck;
        f["notes"] = opt(m.notes);
        figs.push_back(std::move(f));
    }
    j["figures"] = figs;
    auto set_json = [](const bench::SetSummary& x) {
        return oj{{"rate_figures", x.rate_figures},
                  {"within", x.within},
                  {"mean_abs_error", x.rate_figures ? oj(x.mean_abs_error) : oj(nullptr)},
                  {"upper_bounds", x.bounds},
                  {"upper_bounds_held", x.bounds_held}};
    };
    j["summary"] = {{"fit", set_json(s.fit)}, {"holdout", set_json(s.holdout)}};
    j["goal"] = {{"met", s.goal_met},
                 {"rate_figures", s.rate_figures},
                 {"kinds", s.kinds},
                 {"text", s.goal_text}};
    auto ctx = oj::array();
    for (const auto& c : data.context)
        ctx.push_back({{"id", c.id}, {"what", c.what}, {"url", c.url}, {"quote", c.quote}, {"why", c.why}});
    j["context"] = ctx;
    return j;
}

std::string set_line(const char* name, const bench::SetSummary& x, size_t width) {
    std::string line = fmt::format("{:<{}} {} rate figure{}", name, width, x.rate_figures, x.rate_figures == 1 ? "" : "s");
    if (x.rate_figures)
        line += fmt::format(", mean absolute error {:.1f} %, {} within ±{:g} %", 100 * x.mean_abs_error, x.within,
                            100 * bench::kTolerance);
    if (x.bounds) line += fmt::format("; {} upper bound{}, {} held", x.bounds, x.bounds == 1 ? "" : "s", x.bounds_held);
    return line;
}

void print_text(const std::vector<bench::CorrelationRow>& rows, const bench::CorrelationSummary& s) {
    std::cout << fmt::format("{:<8} {:<28} {:<12} {:>9} {:>9}  {:<14} {:>8}  {}\n", "set", "id", "preset@MHz",
                             "measured", "model", "unit", "error", "±15 %");
    for (const auto& r : rows)
        std::cout << fmt::format("{:<8} {:<28} {:<12} {:>9} {:>9}  {:<14} {:>+7.1f}%  {}\n", set_name(r.m), r.m.id,
                                 fmt::format("{}@{:g}", r.m.preset, r.clock_mhz), fmt::format("{:g}", r.m.value), num(r.model),
                                 r.m.unit, 100 * r.error, verdict(r));
    std::cout << "\n" << set_line("fit:", s.fit, 8) << "\n" << set_line("holdout:", s.holdout, 8) << "\n";
    std::cout << fmt::format("goal {}: {}\n", s.goal_met ? "met" : "not met", s.goal_text);
    std::cout << "Rate rows: the test measures vertex throughput, error = (model - measured) / measured. Upper "
                 "bounds: a game test also limited by fill and CPU; the model's vertex pipeline alone must not be "
                 "slower. Sources, quotes and what each scene guesses: --markdown, --json, "
                 "examples/correlation/README.md.\n";
}

void print_markdown(const std::vector<bench::CorrelationRow>& rows, const bench::CorrelationSummary& s) {
    std::cout << "| set | id | test | chip | preset (clock) | measured | model | unit | error | ±15 % |\n"
                 "|---|---|---|---|---|---:|---:|---|---:|---|\n";
    for (const auto& r : rows)
        std::cout << fmt::format("| {} | {} | {} | {} | {} ({:g} MHz) | {} | {} | {} | {:+.1f} % | {} |\n",
                                 set_name(r.m), r.m.id, md(r.m.test), md(r.m.chip), r.m.preset, r.clock_mhz,
                                 fmt::format("{:g}", r.m.value), num(r.model), md(r.m.unit), 100 * r.error, verdict(r));
    std::cout << "\n" << set_line("Fit:", s.fit, 0) << "  \n" << set_line("Holdout:", s.holdout, 0) << "  \n";
    std::cout << fmt::format("Goal {}: {}.\n\n", s.goal_met ? "met" : "not met", s.goal_text);
    std::cout << "| id | board | driver | system | date | quoted | source |\n|---|---|---|---|---|---|---|\n";
    auto or_dash = [](const std::string& v) { return v.empty() ? std::string("not stated") : md(v); };
    for (const auto& r : rows)
        std::cout << fmt::format("| {} | {} | {} | {} | {} | \"{}\" | <{}> |\n", r.m.id, or_dash(r.m.board),
                                 or_dash(r.m.driver), or_dash(r.m.system), r.m.date, md(r.m.quote), r.m.url);
}

int run_correlate(const CorrelateArgs& a) {
    std::string path = a.data;
    if (path.empty()) {
        path = data_path(kData);
        if (path.empty()) {
            std::fprintf(stderr, "%s: %s\n", kMe, data_not_found(kData).c_str());
            return 2;
        }
    }
    bench::Measurements data;
    std::vector<bench::CorrelationRow> rows;
    try {
        for (const auto& s : a.sets) ParamSet(sc::default_params()).apply_set(s);  // a bad --set before any run
        data = bench::load_measurements(path);
        rows = bench::correlate(data, a.sets);
    } catch (const std::logic_error& e) {
        std::fprintf(stderr, "%s: %s\n", kMe, e.what());
        return 3;
    } catch (const std::exception& e) {  // MeasurementError, ParamError
        std::fprintf(stderr, "%s: %s\n", kMe, e.what());
        return 2;
    }
    const bench::CorrelationSummary s = bench::summarise(rows);
    if (!a.plot.empty()) {
        // The chart is drawn by the plot script from the --json document, written to a temporary file.
        const std::string tmp = (std::filesystem::temp_directory_path() /
                                 fmt::format("vpsim-correlate-{}-{}.json", ::getpid(), std::random_device{}()))
                                    .string();
        int rc = 2;
        try {
            write_file_atomic(tmp, to_json(a, data, rows, s).dump(2) + "\n");
            rc = run_plot_script("correlate", "", {tmp, "-o", a.plot});
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: %s\n", kMe, e.what());
        }
        std::error_code ec;
        std::filesystem::remove(tmp, ec);
        if (rc != 0) return rc;
    }
    if (a.json)
        std::cout << to_json(a, data, rows, s).dump(2) << "\n";
    else if (a.markdown)
        print_markdown(rows, s);
    else
        print_text(rows, s);
    return a.check && !s.goal_met ? 1 : 0;
}

}  // namespace

void add_bench_correlate(CLI::App* bench, int& exit_code) {
    auto a = std::make_shared<CorrelateArgs>();
    CLI::App* c = bench->add_subcommand(
        "correlate",
        "The model against published measurements of real chips: each figure of the measurements file (a named "
        "test, chip, clock, page and quoted sentence) is rebuilt as a scene and run on its preset at the chip's clock; "
        "the model's triangles/s or frames/s beside the measured value, the error, the figure's set (every third "
        "figure is holdout) and each set's mean absolute error (docs/calibration.md, \"Correlation with measured "
        "hardware\"). Preset parameters copied from spec sheets: vpsim presets --published.\nExit status: 0 done "
        "(with --check: the goal met), 1 with --check: the goal not met, 2 a bad measurements file, scene or "
        "parameter, 3 an internal error.");
    c->add_option("--data", a->data,
                  "The measurements file (default: examples/correlation/measurements.json from vpsim's data); scenes "
                  "are relative to it")
        ->type_name("FILE");
    c->add_option("--set", a->sets, "Override one parameter on top of every figure's preset, unit.param=value (repeatable)")
        ->allow_extra_args(false);
    c->add_flag("--json", a->json, "One JSON object: every figure with its source, quote, model value and set");
    c->add_flag("--markdown", a->markdown, "Markdown tables: the results, then each figure's source and quote");
    c->add_flag("--check", a->check,
                "Exit 1 unless the goal is met: at least 12 rate figures over 3 kinds of test, every holdout figure "
                "within ±15 %");
    c->add_option("--plot", a->plot,
                  "Also draw model against measurement (log-log, fit and holdout marked, y = x and ±15 %) into FILE: "
                  ".png, .svg or .pdf (matplotlib, as vpsim plot)")
        ->type_name("FILE");
    c->callback([a, &exit_code] { exit_code = run_correlate(*a); });
}

}  // namespace vpsim::cli
