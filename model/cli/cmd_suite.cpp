// vpsim bench coissue and vpsim bench reference: the workload suite (examples/workloads/, one
// scene per .json file) run on every preset (docs/calibration.md).
//
// `bench coissue DIR` measures the co-issue policies (off, pairs, window 2/4/8) on each workload
// and preset and prints the speedup over co-issue off. `bench reference DIR --write FILE` writes
// the reference statistics (cycles and summary metrics of every workload x preset, one row per
// line so a change shows as a diff); `--check FILE` compares a fresh run with them and lists
// every value that moved (exit 1).
#include "model/cli/commands.h"
#include "model/cli/exit_status.h"
#include "model/cli/suite.h"
#include "model/common/file_util.h"
#include "model/common/presets.h"
#include "model/sc/pipeline.h"
#include "model/scene/scene.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim::cli {

std::vector<Workload> load_suite(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw std::runtime_error(dir + ": not a directory of workload scenes");
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    if (files.empty()) throw std::runtime_error(dir + ": no .json scenes");
    std::vector<Workload> v;
    for (const auto& f : files) v.push_back({fs::path(f).stem().string(), scene::load_scene(f)});
    return v;
}

sc::RunResult run_one(const Workload& w, const std::string& preset, const std::vector<std::string>& sets,
                      const sc::RunOptions& options) {
    ParamSet p = sc::default_params();
    apply_preset(p, preset);
    for (const auto& s : sets) p.apply_set(s);
    sc::RunResult r = sc::run_pipeline(w.scene, p, vs::Profile::d3d8(), options);
    if (!r.cycle_errors.empty()) throw std::logic_error(w.name + ": statistics do not add up (internal error)");
    return r;
}

const char* refusing_cap(const std::string& message) {
    for (const char* cap : {"MaxActiveLights", "MaxVertexBlendMatrixIndex", "MaxVertexBlendMatrices", "MaxPointSize"})
        if (message.find(cap) != std::string::npos) return cap;
    return nullptr;
}

Outcome run_or_refuse(const Workload& w, const std::string& preset, const std::vector<std::string>& sets,
                      const sc::RunOptions& options) {
    Outcome o;
    try {
        o.result = run_one(w, preset, sets, options);
    } catch (const scene::SceneError& e) {
        if (!refusing_cap(e.message)) throw;
        o.refused = e.pointer + ": " + e.message;  // without the file: the same from any working directory
    }
    return o;
}

namespace {

// ------------------------------------------------------------------------------ coissue

struct CoissueArgs {
    std::string dir;
    std::vector<std::string> sets;  // on every run, before the policy's own settings
    bool markdown = false;
};

int run_bench_coissue(const CoissueArgs& a) {
    const char* const me = "vpsim bench coissue";
    struct Mode {
        std::string label;
        std::vector<std::string> sets;
    };
    const std::vector<Mode> modes{{"off", {"vertex_alu.coissue=off"}},
                                  {"pairs", {"vertex_alu.coissue=pairs"}},
                                  {"window 2", {"vertex_alu.coissue=window", "vertex_alu.window=2"}},
                                  {"window 4", {"vertex_alu.coissue=window", "vertex_alu.window=4"}},
                                  {"window 8", {"vertex_alu.coissue=window", "vertex_alu.window=8"}}};
    return exit_status_of(me, [&] {
        const auto suite = load_suite(a.dir);
        for (const Preset& pr : presets()) {
            // speedup[w][m] = cycles with co-issue off / cycles with mode m
            std::vector<std::vector<double>> speedup(suite.size(), std::vector<double>(modes.size()));
            std::vector<std::vector<double>> rate(suite.size(), std::vector<double>(modes.size()));
            std::vector<std::string> refused(suite.size());  // the preset's caps refuse the workload
            for (size_t w = 0; w < suite.size(); ++w) {
                uint64_t off = 0;
                for (size_t m = 0; m < modes.size() && refused[w].empty(); ++m) {
                    std::vector<std::string> sets = a.sets;
                    sets.insert(sets.end(), modes[m].sets.begin(), modes[m].sets.end());
                    const Outcome o = run_or_refuse(suite[w], pr.name, sets);
                    if (!o.refused.empty()) {
                        refused[w] = o.refused;
                        break;
                    }
                    const auto& r = o.result;
                    if (m == 0) off = r.cycles;
                    speedup[w][m] = double(off) / double(r.cycles);
                    rate[w][m] = r.real("coissue_rate");
                }
            }
            const bool md = a.markdown;
            std::cout << (md ? fmt::format("\n**{}** ({}): speedup over co-issue off (co-issue rate)\n\n", pr.name, pr.chip)
                             : fmt::format("\n{} ({}): speedup over co-issue off (co-issue rate of issuing cycles)\n",
                                           pr.name, pr.chip));
            std::string head = md ? "| workload |" : fmt::format("{:<24}", "workload");
            for (const auto& m : modes) head += md ? fmt::format(" {} |", m.label) : fmt::format(" {:>16}", m.label);
            std::cout << head << "\n";
            if (md) {
                std::string sep = "|---|";
                for (size_t m = 0; m < modes.size(); ++m) sep += "---|";
                std::cout << sep << "\n";
            }
            std::vector<double> logsum(modes.size(), 0.0);
            size_t ran = 0;
            for (size_t w = 0; w < suite.size(); ++w) {
                std::string line = md ? fmt::format("| {} |", suite[w].name) : fmt::format("{:<24}", suite[w].name);
                if (!refused[w].empty()) {  // left out of the mean
                    const char* cap = refusing_cap(refused[w]);
                    line += md ? fmt::format(" refused by the preset's caps ({}) |", cap)
                               : fmt::format(" refused by the preset's caps ({})", cap);
                    std::cout << line << "\n";
                    continue;
                }
                ++ran;
                for (size_t m = 0; m < modes.size(); ++m) {
                    logsum[m] += std::log(speedup[w][m]);
                    const std::string cell = fmt::format("{:.3f} ({:.0f} %)", speedup[w][m], 100 * rate[w][m]);
                    line += md ? fmt::format(" {} |", cell) : fmt::format(" {:>16}", cell);
                }
                std::cout << line << "\n";
            }
            std::string line = md ? "| geometric mean |" : fmt::format("{:<24}", "geometric mean");
            for (size_t m = 0; m < modes.size(); ++m) {
                const std::string cell = ran ? fmt::format("{:.3f}", std::exp(logsum[m] / double(ran))) : std::string("-");
                line += md ? fmt::format(" {} |", cell) : fmt::format(" {:>16}", cell);
            }
            std::cout << line << "\n";
        }
    });
}

// ------------------------------------------------------------------------------ reference

struct ReferenceArgs {
    std::string dir, write, check;
};

// One row per workload x preset, its values as fixed text so that equal means equal.
// A workload the preset's caps refuse has a row {workload, preset, refused: the message}.
nlohmann::ordered_json reference_row(const std::string& workload, const std::string& preset, const Outcome& o) {
    auto f = [](double v) { return fmt::format("{:.6f}", v); };
    nlohmann::ordered_json j;
    j["workload"] = workload;
    j["preset"] = preset;
    if (!o.refused.empty()) {
        j["refused"] = o.refused;
        return j;
    }
    const sc::RunResult& r = o.result;
    j["cycles"] = r.cycles;
    j["shaded"] = r.count("shaded");
    j["cycles_per_vertex"] = f(r.count("shaded") ? double(r.cycles) / double(r.count("shaded")) : 0.0);
    j["alu_utilisation"] = f(r.real("alu_utilisation"));
    j["coissue_rate"] = f(r.real("coissue_rate"));
    j["acmr"] = f(r.real("acmr"));
    j["ptc_hit_rate"] = f(r.real("ptc_hit_rate"));
    j["fetch_cache_hit_rate"] = f(r.real("fetch_cache_hit_rate"));
    j["memory_bytes_per_cycle"] = f(r.real("memory_bytes_per_cycle"));
    j["bottleneck"] = r.bottleneck_unit;
    return j;
}

std::string reference_text(const std::vector<nlohmann::ordered_json>& rows) {
    std::string s = "{\"schema\": \"vpsim-reference-stats-1\",\n \"note\": \"written by scripts/update-reference-stats.sh "
                    "(vpsim bench reference examples/workloads --write); checked by ctest\",\n \"rows\": [\n";
    for (size_t i = 0; i < rows.size(); ++i) s += "  " + rows[i].dump() + (i + 1 < rows.size() ? ",\n" : "\n");
    return s + "]}\n";
}

int run_bench_reference(const ReferenceArgs& a) {
    const char* const me = "vpsim bench reference";
    if (a.write.empty() == a.check.empty()) {
        std::fprintf(stderr, "%s: give exactly one of --write FILE and --check FILE\n", me);
        return 2;
    }
    std::vector<nlohmann::ordered_json> rows;
    if (const int rc = exit_status_of(me, [&] {
            for (const auto& w : load_suite(a.dir))
                for (const Preset& pr : presets()) rows.push_back(reference_row(w.name, pr.name, run_or_refuse(w, pr.name, {})));
        }))
        return rc;
    if (!a.write.empty()) {
        try {
            write_file_atomic(a.write, reference_text(rows));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: %s\n", me, e.what());
            return 2;
        }
        std::cout << fmt::format("{}: {} rows (workloads x presets)\n", a.write, rows.size());
        return 0;
    }
    nlohmann::json old;
    {
        std::string text, why;
        if (!read_input_file(a.check, text, why)) {
            std::fprintf(stderr, "%s: %s: cannot read the reference statistics: %s\n", me, a.check.c_str(), why.c_str());
            return 2;
        }
        try {
            old = nlohmann::json::parse(text);
            if (old.value("schema", "") != "vpsim-reference-stats-1" || !old.contains("rows") || !old["rows"].is_array())
                throw std::runtime_error("expected {\"schema\": \"vpsim-reference-stats-1\", \"rows\": [...]}");
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: %s: %s\n", me, a.check.c_str(), e.what());
            return 2;
        }
    }
    std::map<std::string, nlohmann::json> before;
    for (const auto& r : old["rows"]) before[r.value("workload", "") + " / " + r.value("preset", "")] = r;
    size_t moved = 0;
    for (const auto& r : rows) {
        const std::string key = r["workload"].get<std::string>() + " / " + r["preset"].get<std::string>();
        const auto it = before.find(key);
        if (it == before.end()) {
            std::cout << fmt::format("{}: new (not in {})\n", key, a.check);
            ++moved;
            continue;
        }
        for (const auto& [field, v] : r.items()) {
            const nlohmann::json was = it->second.contains(field) ? it->second[field] : nlohmann::json();
            if (was.dump() != nlohmann::json(v).dump()) {
                std::cout << fmt::format("{}: {} {} -> {}\n", key, field, was.dump(), nlohmann::json(v).dump());
                ++moved;
            }
        }
        before.erase(it);
    }
    for (const auto& [key, r] : before) {
        std::cout << fmt::format("{}: in {} but no longer run\n", key, a.check);
        ++moved;
    }
    if (moved) {
        std::cout << fmt::format("{} value(s) moved against {}; if the change is intended, run "
                                 "scripts/update-reference-stats.sh and commit the diff\n",
                                 moved, a.check);
        return 1;
    }
    std::cout << fmt::format("{} rows equal {}\n", rows.size(), a.check);
    return 0;
}

}  // namespace

void add_bench_suite(CLI::App* bench, int& exit_code) {
    {
        auto a = std::make_shared<CoissueArgs>();
        CLI::App* c = bench->add_subcommand(
            "coissue",
            "The co-issue study: every workload of DIR (one scene per .json) on every preset with co-issue off, pairs "
            "and window 2/4/8: the speedup over off and the co-issue rate (docs/calibration.md); a workload the "
            "preset's caps refuse is listed as refused, naming the cap.\nExit status: 0 ok, "
            "1 a scene command failed, 2 usage or malformed scene, 3 internal error.");
        c->add_option("DIR", a->dir, "The workload suite (examples/workloads)")->required();
        c->add_option("--set", a->sets, "Override one parameter on every run, unit.param=value (repeatable)")
            ->allow_extra_args(false);
        c->add_flag("--markdown", a->markdown, "Print Markdown tables");
        c->callback([a, &exit_code] { exit_code = run_bench_coissue(*a); });
    }
    {
        auto a = std::make_shared<ReferenceArgs>();
        CLI::App* c = bench->add_subcommand(
            "reference",
            "Reference statistics: cycles and summary metrics of every workload of DIR on every preset; --write "
            "FILE writes them, --check FILE lists every value that moved (docs/calibration.md); a workload the "
            "preset's caps refuse has a row with the refusal, naming the cap.\nExit status: 0 "
            "written or equal, 1 a value moved (or a scene command failed), 2 usage or unreadable file, 3 internal "
            "error.");
        c->add_option("DIR", a->dir, "The workload suite (examples/workloads)")->required();
        c->add_option("--write", a->write, "Write the reference statistics to FILE")->type_name("FILE");
        c->add_option("--check", a->check, "Compare with the reference statistics in FILE")->type_name("FILE");
        c->callback([a, &exit_code] { exit_code = run_bench_reference(*a); });
    }
}

}  // namespace vpsim::cli
