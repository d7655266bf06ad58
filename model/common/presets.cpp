#include "model/common/presets.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace vpsim {

namespace {

Preset parse_preset(const std::string& name, const std::string& text) {
    Preset p;
    p.name = name;
    p.text = text;
    const std::string origin = fmt::format("built-in preset {}", name);
    try {
        p.json = nlohmann::ordered_json::parse(text);
        if (p.json.value("schema", "") != "vpsim-preset-1" || p.json.value("name", "") != name)
            throw std::logic_error("expected \"schema\": \"vpsim-preset-1\" and \"name\": \"" + name + "\"");
        p.chip = p.json.at("chip").get<std::string>();
        p.description = p.json.at("description").get<std::string>();
        p.released = p.json.at("released").get<std::string>();
        const auto& c = p.json.at("calibration");
        p.target_vps = c.at("vertices_per_second").get<double>();
        p.tolerance = c.at("tolerance").get<double>();
        p.workload = c.at("workload").get<std::string>();
        p.target_source = c.at("source").get<std::string>();
    } catch (const std::exception& e) {
        throw std::logic_error(fmt::format("{}: {} (internal error)", origin, e.what()));
    }
    return p;
}

}  // namespace

const std::vector<Preset>& presets() {
    static const std::vector<Preset> all = [] {
        std::vector<Preset> v;
        for (const auto& [name, text] : preset_files()) v.push_back(parse_preset(name, text));
        // In the order the chips came out ("released": "YYYY-MM").
        std::stable_sort(v.begin(), v.end(), [](const Preset& a, const Preset& b) { return a.released < b.released; });
        return v;
    }();
    return all;
}

const Preset& find_preset(const std::string& name) {
    std::vector<std::string> names;
    for (const Preset& p : presets()) {
        if (p.name == name) return p;
        names.push_back(p.name);
    }
    throw ParamError(fmt::format("--preset {}: no such preset; valid presets: {}", name, fmt::join(names, ", ")));
}

void apply_preset(ParamSet& p, const std::string& name) {
    const Preset& pr = find_preset(name);
    p.apply_preset_json(pr.json, "preset " + name);
}

}  // namespace vpsim
