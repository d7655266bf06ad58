// vpsim params: print every unit's parameter table with the values resolved after --config
// and --set overrides (docs/parameters.md).
#include "model/cli/commands.h"
#include "model/common/params.h"
#include "model/sc/pipeline.h"

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
    std::string config;
    std::vector<std::string> sets;
};

int run_params(const ParamsArgs& a) {
    ParamSet p = sc::default_params();
    try {
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
    c->add_option("--config", a->config, "JSON file {\"unit\": {\"param\": value}} overriding defaults");
    c->add_option("--set", a->sets, "Override one parameter, unit.param=value (repeatable; applied after --config)")
        ->allow_extra_args(false);
    c->callback([a, &exit_code] { exit_code = run_params(*a); });
}

}  // namespace vpsim::cli
