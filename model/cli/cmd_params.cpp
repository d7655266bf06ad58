// vpsim params: print every unit's parameter table with the values resolved after --config
// and --set overrides (docs/parameters.md).
#include "model/cli/commands.h"
#include "model/common/params.h"
#include "model/common/presets.h"
#include "model/sc/pipeline.h"

#include <fmt/format.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace vpsim::cli {

namespace {

struct ParamsArgs {
    bool json = false;
    bool config_only = false;
    std::string preset, config, topology_file;
    std::vector<std::string> sets;
};

int run_params(const ParamsArgs& a) {
    ParamSet p = sc::default_params();
    try {
        if (!a.topology_file.empty()) p = sc::default_params(sc::load_topology_file(a.topology_file));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim params: %s\n", e.what());
        return 2;
    }
    try {
        if (!a.preset.empty()) apply_preset(p, a.preset);
        if (!a.config.empty()) p.apply_config_file(a.config);
        for (const std::string& s : a.sets) p.apply_set(s);  // --set after --config: it wins
    } catch (const ParamError& e) {
        std::fprintf(stderr, "vpsim params: %s\n", e.what());
        return 2;
    }
    if (a.config_only)
        std::cout << p.to_json().dump(2) << "\n";
    else if (a.json)
        std::cout << p.tables_json().dump(2) << "\n";
    else
        std::cout << p.text();
    return 0;
}

}  // namespace

void add_params_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<ParamsArgs>();
    CLI::App* c = app.add_subcommand(
        "params",
        "Print every unit's parameter table (name, type, unit, resolved value, default, description, source of the "
        "default) after --config and --set overrides.\nExit status: 0 ok, 2 unknown key, ill-typed value or "
        "unreadable file.");
    c->add_flag("--json", a->json, "Print the tables as one JSON array (schema in docs/parameters.md)");
    auto* json_flag = c->get_option("--json");
    c->add_flag("--resolved", a->config_only,
                "Print only the resolved values, {\"unit\": {\"param\": value}}: the config.json a run writes, "
                "accepted back by --config")
        ->excludes(json_flag);
    add_preset_option(c, a->preset);
    c->add_option("--config", a->config, "JSON file {\"unit\": {\"param\": value}} overriding defaults");
    c->add_option("--topology-file", a->topology_file,
                  "The tables of the unit types this topology file names (vpsim run --topology-file), not the "
                  "built-in topology's")
        ->type_name("T.json");
    c->add_option("--set", a->sets, "Override one parameter, unit.param=value (repeatable; applied after --config)")
        ->allow_extra_args(false);
    c->callback([a, &exit_code] { exit_code = run_params(*a); });
}

void add_preset_option(CLI::App* c, std::string& preset) {
    c->add_option("--preset", preset,
                  "Start from a chip's parameters (nv20, nv2a, nv25; `vpsim presets`), then --config, then --set")
        ->type_name("NAME");
}

namespace {

struct PresetsArgs {
    std::string name;
    bool json = false, published = false;
};

// --published: every parameter a preset copied from a spec sheet or paper (its source starts with
// "published"), with the value and the source; these left `vpsim bench correlate`, which compares
// the model with measurements only (docs/calibration.md).
int print_published(const PresetsArgs& a) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const Preset& p : presets()) {
        if (!a.name.empty() && p.name != a.name) continue;
        for (const auto& [unit, ps] : p.json["params"].items())
            for (const auto& [name, e] : ps.items()) {
                const std::string source = e.value("source", "");
                if (source.rfind("published", 0) != 0) continue;
                rows.push_back({{"preset", p.name}, {"parameter", unit + "." + name}, {"value", e["value"]},
                                {"source", source}});
            }
    }
    if (a.json) {
        std::cout << rows.dump(2) << "\n";
        return 0;
    }
    std::cout << fmt::format("{:<6} {:<34} {:>8}  {}\n", "preset", "parameter", "value", "source");
    for (const auto& r : rows)
        std::cout << fmt::format("{:<6} {:<34} {:>8}  {}\n", r["preset"].get<std::string>(),
                                 r["parameter"].get<std::string>(),
                                 r["value"].is_string() ? r["value"].get<std::string>() : r["value"].dump(),
                                 r["source"].get<std::string>());
    return 0;
}

int run_presets(const PresetsArgs& a) {
    try {
        if (!a.name.empty()) find_preset(a.name);  // an unknown name: exit 2, listing the valid ones
        if (a.published) return print_published(a);
        if (!a.name.empty()) {
            // The file itself: it is also a --config file (`vpsim presets nv2a > mine.json`).
            std::cout << find_preset(a.name).text;
            return 0;
        }
        if (a.json) {
            nlohmann::ordered_json j = nlohmann::ordered_json::array();
            for (const Preset& p : presets())
                j.push_back({{"name", p.name},
                             {"chip", p.chip},
                             {"description", p.description},
                             {"calibration", p.json["calibration"]},
                             {"fixed_function", p.json["params"].value("fixed_function", nlohmann::ordered_json::object())}});
            std::cout << j.dump(2) << "\n";
            return 0;
        }
        std::cout << fmt::format("{:<6} {:<38} {:>9} {:>8} {:>18}  {}\n", "name", "chip", "clock", "engines",
                                 "published verts/s", "source");
        for (const Preset& p : presets()) {
            const auto& v = p.json["params"];
            std::cout << fmt::format("{:<6} {:<38} {:>5g} MHz {:>8} {:>13.1f} M ±{:g}%  {}\n", p.name, p.chip,
                                     v["pipeline"]["clock_mhz"]["value"].get<double>(),
                                     v["vertex_alu"]["engines"]["value"].get<unsigned>(), p.target_vps / 1e6,
                                     100 * p.tolerance, p.target_source);
        }
        // The fixed-function caps (D3DCAPS8) each preset states (sources: `vpsim presets NAME`).
        std::cout << fmt::format("\n{:<6} {:>15} {:>22} {:>25} {:>12} {:>14}\n", "caps", "MaxActiveLights",
                                 "MaxVertexBlendMatrices", "MaxVertexBlendMatrixIndex", "MaxPointSize",
                                 "program words");
        for (const Preset& p : presets()) {
            const auto ff = p.json["params"].value("fixed_function", nlohmann::ordered_json::object());
            auto val = [&](const char* k) {
                return ff.contains(k) ? ff[k]["value"].dump() : std::string("default");
            };
            std::cout << fmt::format("{:<6} {:>15} {:>22} {:>25} {:>12} {:>14}\n", p.name, val("max_active_lights"),
                                     val("max_vertex_blend_matrices"), val("max_vertex_blend_matrix_index"),
                                     val("max_point_size"), val("program_words"));
        }
        std::cout << "\n`vpsim presets NAME` prints one (a --config file, every value with its source); "
                     "`vpsim presets --published [NAME]` lists the values copied from spec sheets and papers; "
                     "`vpsim run --preset NAME` runs with it; `vpsim bench calibrate` checks the vertex rates; "
                     "`vpsim bench correlate` compares the model with measurements of real chips.\n";
    } catch (const ParamError& e) {
        std::fprintf(stderr, "vpsim presets: %s\n", e.what());
        return 2;
    }
    return 0;
}

}  // namespace

void add_presets_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<PresetsArgs>();
    CLI::App* c = app.add_subcommand(
        "presets",
        "List the hardware presets (chip, clock, vertex engines, the published vertex rate each is calibrated "
        "against); with NAME print that preset's file, every value with its source (docs/calibration.md).\nExit "
        "status: 0 ok, 2 unknown preset.");
    c->add_option("NAME", a->name, "A preset to print (nv20, nv2a, nv25)");
    c->add_flag("--json", a->json, "List the presets (or, with --published, the parameters) as JSON");
    c->add_flag("--published", a->published,
                "Every parameter whose source is published (a spec sheet or paper), with its value and source: "
                "of every preset, or of NAME");
    c->callback([a, &exit_code] { exit_code = run_presets(*a); });
}

}  // namespace vpsim::cli
