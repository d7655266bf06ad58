// vpsim compare (docs/run.md, "Comparing runs and presets"): one side-by-side table of the
// summary metrics of several runs: `vpsim run --out` directories (their stats.json "summary"),
// and/or one scene run on several presets (--preset a,b,c, each run here as `vpsim run --preset`
// would run it). Text (a column per run, each figure's change against the first column), JSON
// or CSV.
#include "model/cli/commands.h"
#include "model/cli/exit_status.h"
#include "model/cli/run_common.h"
#include "model/common/file_util.h"
#include "model/common/presets.h"
#include "model/sc/pipeline.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace vpsim::cli {

namespace {

struct CompareArgs {
    std::vector<std::string> dirs, presets, sets;
    std::string scene, format = "text", out;
};

// The rows of the table: a summary key (dotted for a nested one), its label, how it prints.
struct Row {
    const char* key;
    const char* label;
    enum Kind { Count, Real, Percent, Text } kind;
};
const std::vector<Row>& rows() {
    static const std::vector<Row> r = {
        {"scene", "scene", Row::Text},
        {"preset", "preset", Row::Text},
        {"draws", "draws", Row::Count},
        {"references", "vertices (references)", Row::Count},
        {"shaded", "vertices shaded", Row::Count},
        {"primitives", "primitives", Row::Count},
        {"cycles", "cycles", Row::Count},
        {"cycles_per_vertex", "cycles per shaded vertex", Row::Real},
        {"vertices_per_second", "vertices/s (M)", Row::Real},
        {"alu_utilisation", "ALU utilisation", Row::Percent},
        {"coissue_rate", "co-issue rate", Row::Percent},
        {"ptc_hit_rate", "post-transform cache hits", Row::Percent},
        {"acmr", "ACMR", Row::Real},
        {"atvr", "ATVR", Row::Real},
        {"fetch_bytes_per_cycle", "fetch B/cycle", Row::Real},
        {"fetch_cache_hit_rate", "fetch cache hits", Row::Percent},
        {"memory_bytes_per_cycle", "memory B/cycle", Row::Real},
        {"in_flight_per_engine", "vertices in flight per engine", Row::Real},
        {"max_in_flight_per_engine", "most in flight in an engine", Row::Count},
        {"bottleneck.unit", "bottleneck unit", Row::Text},
        {"bottleneck.reason", "bottleneck reason", Row::Text},
        {"bottleneck.busy", "bottleneck busy", Row::Percent},
        {"top_stall", "top stall", Row::Text},
        {"cap_warnings", "caps", Row::Text},
    };
    return r;
}

struct Column {
    std::string label;
    nlohmann::ordered_json summary;  // stats.json's "summary" (or the same built from a run)
    std::string preset;              // "" : the defaults
};

nlohmann::ordered_json lookup(const Column& c, const std::string& key) {
    if (key == "preset") return c.preset.empty() ? nlohmann::ordered_json("(defaults)") : nlohmann::ordered_json(c.preset);
    if (key == "top_stall") {
        const auto& st = c.summary.contains("stalls") ? c.summary["stalls"] : nlohmann::ordered_json();
        if (!st.is_array() || st.empty()) return "none";
        const auto& t = st[0];
        std::string s = t.value("unit", "") + "." + t.value("reason", "");
        const std::string cls = t.value("class", "");
        if (cls == "back_pressure") s += " (back-pressure from " + t.value("by", "?") + ")";
        else if (cls == "starvation") s += " (starved by " + t.value("by", "?") + ")";
        else if (!cls.empty()) s += " (" + cls + ")";
        return s;
    }
    const nlohmann::ordered_json* j = &c.summary;
    std::string rest = key;
    for (;;) {
        const size_t dot = rest.find('.');
        const std::string part = rest.substr(0, dot);
        if (!j->is_object() || !j->contains(part)) return nullptr;
        j = &(*j)[part];
        if (dot == std::string::npos) break;
        rest = rest.substr(dot + 1);
    }
    if (key == "vertices_per_second" && j->is_number()) return j->get<double>() / 1e6;
    return *j;
}

std::string cell(const Row& r, const nlohmann::ordered_json& v) {
    if (v.is_null()) return "-";
    if (v.is_string()) return v.get<std::string>().empty() ? "-" : v.get<std::string>();
    if (!v.is_number()) return v.dump();
    const double d = v.get<double>();
    switch (r.kind) {
        case Row::Count: return group_digits(uint64_t(std::llround(d)));
        case Row::Percent: return fmt::format("{:.1f} %", 100 * d);
        default: return fmt::format("{:.3f}", d);
    }
}

Column from_dir(const std::string& dir) {
    namespace fs = std::filesystem;
    const std::string path = (fs::path(dir) / "stats.json").string();
    std::string text, why;
    if (!read_input_file(path, text, why))
        throw std::runtime_error(path + ": cannot read it (" + why + "); give a `vpsim run --out` directory");
    nlohmann::ordered_json st = nlohmann::ordered_json::parse(text, nullptr, false);
    if (st.is_discarded() || !st.is_object() || st.value("schema", "") != "vpsim-stats-1")
        throw std::runtime_error(path + ": not a vpsim stats.json (schema vpsim-stats-1)");
    if (!st.contains("summary") || !st["summary"].is_object())
        throw std::runtime_error(path + ": no \"summary\" (written by vpsim run --out)");
    Column c;
    c.summary = st["summary"];
    std::string label = fs::path(dir).lexically_normal().filename().string();
    if (label.empty() || label == ".") label = fs::path(dir).lexically_normal().parent_path().filename().string();
    c.label = label.empty() ? dir : label;
    std::string cfg_text;
    if (read_input_file((fs::path(dir) / "config.json").string(), cfg_text, why)) {
        const auto cfg = nlohmann::json::parse(cfg_text, nullptr, false);
        if (cfg.is_object() && cfg.contains("preset") && cfg["preset"].is_string()) c.preset = cfg["preset"].get<std::string>();
    }
    return c;
}

std::string text_table(const std::vector<Column>& cols) {
    std::vector<std::vector<std::string>> t;  // [row][0 = label, 1.. = columns]
    t.push_back({"metric"});
    for (const auto& c : cols) t[0].push_back(c.label);
    for (const Row& r : rows()) {
        std::vector<std::string> line = {r.label};
        const auto first = lookup(cols[0], r.key);
        bool any = false;
        for (size_t i = 0; i < cols.size(); ++i) {
            const auto v = lookup(cols[i], r.key);
            any = any || !v.is_null();
            std::string s = cell(r, v);
            // The change against the first column, for the numbers that are not rates already.
            if (i && v.is_number() && first.is_number() && r.kind != Row::Percent && first.get<double>() != 0) {
                const double ch = 100.0 * (v.get<double>() / first.get<double>() - 1.0);
                s += std::fabs(ch) < 0.05 ? " (=)" : fmt::format(" ({:+.1f} %)", ch);
            }
            line.push_back(s);
        }
        if (any) t.push_back(std::move(line));
    }
    std::vector<size_t> w(t[0].size(), 0);
    for (const auto& line : t)
        for (size_t i = 0; i < line.size(); ++i) w[i] = std::max(w[i], line[i].size());
    std::string s;
    for (const auto& line : t) {
        std::string l;
        for (size_t i = 0; i < line.size(); ++i)
            l += i == 0 ? fmt::format("{:<{}}", line[i], w[i]) : fmt::format("  {:>{}}", line[i], w[i]);
        while (!l.empty() && l.back() == ' ') l.pop_back();
        s += l + "\n";
    }
    return s;
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string r = "\"";
    for (char ch : s) r += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return r + "\"";
}

// CSV: one row per compared run, one column per metric (the form of a sweep's results.csv).
std::string csv_table(const std::vector<Column>& cols) {
    std::string s = "column";
    for (const Row& r : rows()) s += std::string(",") + r.key;
    s += "\n";
    for (const auto& c : cols) {
        s += csv_field(c.label);
        for (const Row& r : rows()) {
            const auto v = lookup(c, r.key);
            s += "," + csv_field(v.is_null() ? "" : v.is_string() ? v.get<std::string>() : v.dump());
        }
        s += "\n";
    }
    return s;
}

std::string json_table(const std::vector<Column>& cols) {
    nlohmann::ordered_json j;
    j["schema"] = "vpsim-compare-1";
    auto arr = nlohmann::ordered_json::array();
    for (const auto& c : cols) {
        nlohmann::ordered_json m = nlohmann::ordered_json::object();
        for (const Row& r : rows()) m[r.key] = lookup(c, r.key);
        arr.push_back({{"column", c.label}, {"metrics", m}, {"summary", c.summary}});
    }
    j["columns"] = arr;
    return j.dump(2) + "\n";
}

int run_compare(const CompareArgs& a) {
    const char* me = "vpsim compare";
    if (a.format != "text" && a.format != "json" && a.format != "csv") {
        std::fprintf(stderr, "%s: --format %s: expected text, json or csv\n", me, a.format.c_str());
        return 2;
    }
    if (a.dirs.size() + a.presets.size() < 2) {
        std::fprintf(stderr, "%s: nothing to compare: give at least two run directories and/or presets "
                             "(e.g. --preset nv20,nv2a,nv25 or DIR1 DIR2)\n", me);
        return 2;
    }
    if (a.presets.empty() && (!a.scene.empty() || !a.sets.empty())) {
        std::fprintf(stderr, "%s: --scene and --set apply to the runs of --preset; with run directories alone "
                             "nothing is run\n", me);
        return 2;
    }
    std::vector<Column> cols;
    if (const int rc = exit_status_of(me, [&] {
        for (const auto& d : a.dirs) cols.push_back(from_dir(d));
        if (!a.presets.empty()) {
            for (const auto& p : a.presets) find_preset(p);  // an unknown name: before anything runs
            std::vector<ParamSet> params;
            for (const auto& p : a.presets) {
                ParamSet ps = sc::default_params();
                apply_preset(ps, p);
                for (const auto& s : a.sets) ps.apply_set(s);
                params.push_back(std::move(ps));
            }
            const LoadedScene ls = load_run_scene(a.scene);
            for (size_t i = 0; i < a.presets.size(); ++i) {
                const sc::RunResult r = sc::run_pipeline(ls.scene, params[i], vs::Profile::d3d8());
                if (!r.cycle_errors.empty()) throw std::logic_error("statistics do not add up (internal error)");
                Column c;
                c.label = a.presets[i];
                c.preset = a.presets[i];
                c.summary = summary_json(ls.scene.name, r, {});
                cols.push_back(std::move(c));
            }
        }
        const std::string s = a.format == "json" ? json_table(cols) : a.format == "csv" ? csv_table(cols) : text_table(cols);
        if (a.out.empty())
            std::fwrite(s.data(), 1, s.size(), stdout);
        else
            write_file_atomic(a.out, s);
        }))
        return rc;
    return 0;
}

}  // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<CompareArgs>();
    CLI::App* c = app.add_subcommand(
        "compare",
        "One side-by-side table of the summary metrics of several runs: `vpsim run --out` directories and/or a scene "
        "run on several presets (--preset nv20,nv2a,nv25); text (each figure's change against the first column), "
        "--format json or csv (docs/run.md).\nExit status: 0 ok, 1 a scene command failed, 2 usage, bad input or I/O "
        "error, 3 internal error.");
    c->add_option("DIR", a->dirs, "A `vpsim run --out` directory (its stats.json and config.json); repeatable");
    c->add_option("--preset", a->presets, "Run the scene on each of these presets (comma-separated: nv20,nv2a,nv25)")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->type_name("NAME,...");
    c->add_option("--scene", a->scene, "The scene the presets run (default: the built-in default scene)");
    c->add_option("--set", a->sets, "A parameter for the preset runs, after the preset: unit.param=value (repeatable)")
        ->allow_extra_args(false);
    c->add_option("--format", a->format, "text (default), json or csv")->type_name("FORMAT");
    c->add_option("-o,--output", a->out, "Write the table to FILE instead of stdout")->type_name("FILE");
    c->callback([a, &exit_code] { exit_code = run_compare(*a); });
}

}  // namespace vpsim::cli
