#include "model/common/presets.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
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

namespace {

// 160 -> "160", 32.0 -> "32", "round_robin" -> "round_robin", true -> "true".
std::string shown_value(const nlohmann::json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_float()) return fmt::format("{:g}", v.get<double>());
    return v.dump();
}

bool same_value(const nlohmann::json& a, const nlohmann::json& b) {
    if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
    return a == b;
}

const char* const kSensitivityFile = "model/presets/sensitivity.json";

}  // namespace

std::string SensitiveAssumption::text() const {
    std::vector<std::string> parts;
    auto at_text = [](const std::string& at, const nlohmann::json& v) {
        return at == "half" || at == "double" ? fmt::format("at {}, {}", at, shown_value(v)) : "at " + shown_value(v);
    };
    if (std::fabs(change) > kSensitivityThreshold)
        parts.push_back(result == "calibration"
                            ? fmt::format("{:+.1f} % calibration rate {}", 100 * change, at_text(at, at_value))
                            : fmt::format("{:+.1f} % cycles on {} {}", 100 * change, workload, at_text(at, at_value)));
    if (!refused.empty())
        parts.push_back(fmt::format("the caps refuse {} workload{} {}", refused.size(), refused.size() == 1 ? "" : "s",
                                    at_text(refuses_at, refuses_value)));
    return fmt::format("{} (assumed; {})", param, fmt::join(parts, "; "));
}

nlohmann::ordered_json SensitiveAssumption::to_json() const {
    nlohmann::ordered_json j;
    j["param"] = param;
    j["value"] = value;
    j["change_percent"] = std::round(1000 * change) / 10;
    j["result"] = result;
    if (result == "suite") j["workload"] = workload;
    j["at"] = at;
    j["at_value"] = at_value;
    if (!refused.empty()) j["refuses"] = {{"at", refuses_at}, {"at_value", refuses_value}, {"workloads", refused}};
    return j;
}

SensitiveAssumption SensitiveAssumption::from_json(const nlohmann::json& j, const std::string& where) {
    SensitiveAssumption a;
    try {
        if (!j.is_object()) throw std::runtime_error("an entry is an object {\"param\", \"value\", \"change_percent\", ...}");
        a.param = j.at("param").get<std::string>();
        a.value = j.at("value");
        a.change = j.at("change_percent").get<double>() / 100;
        a.result = j.at("result").get<std::string>();
        if (a.result != "calibration" && a.result != "suite")
            throw std::runtime_error("\"result\" is \"calibration\" or \"suite\", not \"" + a.result + "\"");
        if (a.result == "suite") a.workload = j.at("workload").get<std::string>();
        a.at = j.at("at").get<std::string>();
        a.at_value = j.at("at_value");
        if (j.contains("refuses")) {
            const auto& r = j.at("refuses");
            a.refuses_at = r.at("at").get<std::string>();
            a.refuses_value = r.at("at_value");
            a.refused = r.at("workloads").get<std::vector<std::string>>();
            if (a.refused.empty()) throw std::runtime_error("\"refuses\" lists no workloads");
        }
        if (std::fabs(a.change) <= kSensitivityThreshold && a.refused.empty())
            throw std::runtime_error(fmt::format("{} moves no result by more than {:g} % and refuses no workload: it "
                                                 "is no entry",
                                                 a.param, 100 * kSensitivityThreshold));
    } catch (const std::exception& e) {
        throw ParamError(fmt::format("{}: {}", where, e.what()));
    }
    return a;
}

const std::vector<SensitiveAssumption>& sensitive_assumptions(const std::string& name) {
    static const std::map<std::string, std::vector<SensitiveAssumption>> all = [] {
        std::map<std::string, std::vector<SensitiveAssumption>> m;
        const std::string& text = preset_sensitivity_file();
        if (text.empty()) return m;
        try {
            const nlohmann::json j = nlohmann::json::parse(text);
            if (j.value("schema", "") != "vpsim-sensitivity-1" || !j.contains("presets") || !j["presets"].is_object())
                throw ParamError("expected {\"schema\": \"vpsim-sensitivity-1\", \"presets\": {\"NAME\": [...]}}");
            for (const auto& [preset, entries] : j["presets"].items()) {
                find_preset(preset);  // an unknown name is an error
                if (!entries.is_array()) throw ParamError("/presets/" + preset + ": expected an array of entries");
                auto& v = m[preset];
                for (size_t i = 0; i < entries.size(); ++i)
                    v.push_back(SensitiveAssumption::from_json(entries[i], fmt::format("/presets/{}/{}", preset, i)));
            }
        } catch (const std::exception& e) {
            throw std::logic_error(fmt::format("{} (built in): {} (internal error; rewrite it with scripts/update-sensitivity.sh)",
                                               kSensitivityFile, e.what()));
        }
        return m;
    }();
    static const std::vector<SensitiveAssumption> none;
    const auto it = all.find(name);
    return it == all.end() ? none : it->second;
}

std::vector<SensitiveAssumption> assumptions_in_force(const std::string& name, const ParamSet& params,
                                                      const std::vector<std::string>& sets) {
    const Preset& pr = find_preset(name);
    std::vector<SensitiveAssumption> v;
    for (const SensitiveAssumption& a : sensitive_assumptions(name)) {
        bool set = false;
        for (const std::string& s : sets) set = set || s.substr(0, s.find('=')) == a.param;
        if (set) continue;
        // An entry the preset no longer holds (the value changed or was given a source since the file
        // was written) is left out; the test "calibration: model/presets/sensitivity.json holds
        // what bench sensitivity measures now" catches the stale file.
        const size_t dot = a.param.find('.');
        const nlohmann::ordered_json* entry = nullptr;
        if (dot != std::string::npos && pr.json["params"].contains(a.param.substr(0, dot)))
            if (const auto& u = pr.json["params"][a.param.substr(0, dot)]; u.contains(a.param.substr(dot + 1)))
                entry = &u[a.param.substr(dot + 1)];
        if (!entry || entry->value("source", "").rfind("assumed", 0) != 0 || !same_value(entry->at("value"), a.value))
            continue;
        bool known = false;
        for (const ParamTable& t : params.tables())
            if (a.param.rfind(t.unit + ".", 0) == 0 && t.find(a.param.substr(t.unit.size() + 1))) known = true;
        if (!known || !same_value(params.value(a.param), a.value)) continue;  // another topology, or --config changed it
        v.push_back(a);
    }
    return v;
}

}  // namespace vpsim
