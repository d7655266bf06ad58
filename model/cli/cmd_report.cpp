// vpsim plot and vpsim report (docs/report.md): a sweep directory's results.csv drawn with
// matplotlib, and a self-contained HTML page for a sweep or a single `vpsim run --out`
// directory. The drawing is the Python package vpsim.plot (python/vpsim/plot, installed with
// vpsim's data, run by /usr/bin/python3); this command finds it, gives it the base parameters (the defaults, with a
// sweep's preset and --set base when its study.json has them) and passes its exit status on.
#include "model/cli/commands.h"
#include "model/common/file_util.h"
#include "model/common/presets.h"
#include "model/common/process.h"
#include "model/sc/pipeline.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace vpsim::cli {

namespace {

constexpr const char* kPython = "/usr/bin/python3";
// The plot package (python/vpsim/plot, installed with vpsim's data): found by its command-line
// module, run as `python3 -c LAUNCH PYTHON_DIR CMD ARGS...` (LAUNCH puts PYTHON_DIR first on the
// module path, so the package beside this vpsim is the one imported).
constexpr const char* kScript = "python/vpsim/plot/cli.py";
constexpr const char* kPackageTail = "/vpsim/plot/cli.py";
constexpr const char* kLaunch =
    "import sys; sys.path.insert(0, sys.argv.pop(1)); from vpsim.plot.cli import main; sys.exit(main(sys.argv[1:]))";

struct PlotArgs {
    std::string dir, x, y, hue, heatmap, out, facet;
    std::vector<std::string> where;  // --where KEY=VALUE: only the points with that value
    bool stalls = false, zoom = false;
};

// The base a sweep's points differ from: the defaults, then study.json's preset and --sets
// (top level or under "base"), when the directory has one.
ParamSet base_params(const std::string& dir) {
    ParamSet p = sc::default_params();
    const std::filesystem::path study = std::filesystem::path(dir) / "study.json";
    std::error_code ec;
    if (!std::filesystem::is_regular_file(study, ec)) return p;
    std::string text, why;
    if (!read_input_file(study.string(), text, why))
        throw std::runtime_error(study.string() + ": cannot read the sweep's resolved study: " + why);
    nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions*/ false);
    if (j.is_discarded() || !j.is_object())
        throw std::runtime_error(study.string() + ": not valid JSON (the sweep's resolved study)");
    const nlohmann::json& b = j.contains("base") && j["base"].is_object() ? j["base"] : j;
    if (b.contains("preset") && b["preset"].is_string() && !b["preset"].get<std::string>().empty())
        apply_preset(p, b["preset"].get<std::string>());
    if (b.contains("sets") && b["sets"].is_array())
        for (const auto& s : b["sets"])
            if (s.is_string()) p.apply_set(s.get<std::string>());
    return p;
}

}  // namespace

int run_plot_script(const char* cmd, const std::string& dir, std::vector<std::string> args) {
    const std::string script = data_path(kScript);
    if (script.empty()) {
        std::fprintf(stderr, "vpsim %s: %s\n", cmd, data_not_found(kScript).c_str());
        return 2;
    }
    if (::access(kPython, X_OK) != 0) {
        std::fprintf(stderr, "vpsim %s: %s not found: install Debian's python3 and python3-matplotlib "
                             "(scripts/deps.sh python3-matplotlib)\n", cmd, kPython);
        return 2;
    }
    std::string base_file;
    if (!dir.empty()) try {
        const ParamSet base = base_params(dir);
        base_file = (std::filesystem::temp_directory_path() /
                     ("vpsim-base-" + std::to_string(::getpid()) + "-" + std::to_string(std::random_device{}()) + ".json"))
                        .string();
        write_file_atomic(base_file, base.to_json().dump() + "\n");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim %s: %s\n", cmd, e.what());
        return 2;
    }
    const std::string python_dir = script.substr(0, script.size() - std::strlen(kPackageTail));
    args.insert(args.begin(), {kPython, "-c", kLaunch, python_dir, cmd});
    if (!base_file.empty()) {
        args.push_back("--base");
        args.push_back(base_file);
    }
    ExitStatus status;
    std::error_code ec;
    try {
        SpawnOptions o;
        o.stdin_null = false;  // the script's input, output and messages are ours
        status = *spawn(args, o).wait();
    } catch (const ProcessError& e) {
        std::fprintf(stderr, "vpsim %s: %s\n", cmd, e.what());
        if (!base_file.empty()) std::filesystem::remove(base_file, ec);
        return 2;
    }
    if (!base_file.empty()) std::filesystem::remove(base_file, ec);
    if (status.exited && (status.code == 0 || status.code == 2)) return status.code;
    std::fprintf(stderr, "vpsim %s: %s %s failed (%s): an internal error\n", cmd, kPython, script.c_str(),
                 status.describe().c_str());
    return 3;
}

void add_report_commands(CLI::App& app, int& exit_code) {
    auto p = std::make_shared<PlotArgs>();
    CLI::App* plot = app.add_subcommand(
        "plot",
        "Draw a sweep directory's results.csv (matplotlib, docs/report.md) as .png, .svg or .pdf, one panel per scene: "
        "METRIC against AXIS (lines over a numeric axis, bars over a categorical one), one line (or bar) per --hue "
        "value, "
        "total cycles beside a per-vertex metric when the shaded count changes; --heatmap AXIS2: a heatmap over AXIS "
        "x AXIS2; --stalls: --y names a unit (or `bottleneck`: each point's cause) and each value of AXIS gets a bar "
        "of its busy / stalled-by-reason / idle cycles. A title says when points are averaged and over what. A study's "
        "zipped axes (its study.json) are one axis: a member as --x plots the zip; as --hue or --heatmap of its own zip, "
        "an error.\nExit "
        "status: 0 ok, 2 usage or bad input (no output file), 3 internal error.");
    plot->add_option("DIR", p->dir, "A sweep directory (its results.csv)")->required();
    plot->add_option("--x", p->x, "The x axis: a column of results.csv (a parameter, e.g. vertex_alu.engines)")
        ->required()
        ->type_name("AXIS");
    plot->add_option("--y", p->y,
                     "The metric (a numeric column, e.g. cycles_per_vertex); with --stalls a unit, or bottleneck")
        ->required()
        ->type_name("METRIC");
    plot->add_option("--hue", p->hue, "One line per value of this column (one bar per value at each AXIS value over a categorical AXIS)")->type_name("AXIS");
    plot->add_option("--heatmap", p->heatmap, "A heatmap of METRIC over AXIS x AXIS2")->type_name("AXIS2");
    plot->add_flag("--stalls", p->stalls, "A stacked bar of the unit's cycles (--y UNIT) per value of AXIS");
    plot->add_option("--where", p->where, "Only the points whose column KEY has VALUE (repeatable; scene: its file name)")
        ->allow_extra_args(false)
        ->type_name("KEY=VALUE");
    plot->add_option("--facet", p->facet, "scene (default: one panel per scene) or none (every scene in one panel, "
                                          "averaged, as its title says)");
    plot->add_flag("--zoom", p->zoom, "Zoom the y axis to the data (the axis break is marked); default: from zero");
    plot->add_option("-o,--output", p->out, "The file to write: .png, .svg or .pdf")->required()->type_name("FILE");
    plot->callback([p, &exit_code] {
        std::vector<std::string> args = {p->dir, "--x", p->x, "--y", p->y, "-o", p->out};
        if (!p->hue.empty()) args.insert(args.end(), {"--hue", p->hue});
        if (!p->heatmap.empty()) args.insert(args.end(), {"--heatmap", p->heatmap});
        if (p->stalls) args.push_back("--stalls");
        for (const auto& w : p->where) args.insert(args.end(), {"--where", w});
        if (!p->facet.empty()) args.insert(args.end(), {"--facet", p->facet});
        if (p->zoom) args.push_back("--zoom");
        exit_code = run_plot_script("plot", p->dir, args);
    });

    auto r = std::make_shared<PlotArgs>();
    CLI::App* report = app.add_subcommand(
        "report",
        "Write a self-contained HTML report (plots embedded as SVG, docs/report.md) of a sweep directory (results.csv: "
        "one panel per scene: plots per independent axis (a zip is one), a heatmap, the bottleneck's cause per point, "
        "stall breakdowns, the table, each point's difference from the base) or of a "
        "`vpsim run --out` directory (per-unit busy / stalled / idle bars, utilisation over time from "
        "timeseries.csv, the summary, the parameters that differ from the defaults).\nExit status: 0 ok, 2 usage "
        "or bad input (no output file), 3 internal error.");
    report->add_option("DIR", r->dir, "A sweep directory or a run's --out directory")->required();
    report->add_option("--where", r->where, "A sweep: only the points whose column KEY has VALUE (repeatable)")
        ->allow_extra_args(false)
        ->type_name("KEY=VALUE");
    report->add_option("-o,--output", r->out, "The HTML file to write")->required()->type_name("FILE.html");
    report->callback([r, &exit_code] {
        std::vector<std::string> args = {r->dir, "-o", r->out};
        for (const auto& w : r->where) args.insert(args.end(), {"--where", w});
        exit_code = run_plot_script("report", r->dir, args);
    });
}

}  // namespace vpsim::cli
