#include "model/study/study.h"

#include "model/common/file_util.h"
#include "model/common/printable.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <glob.h>

namespace fs = std::filesystem;

namespace vpsim::study {

namespace {

// A study value in the text form --set takes.
std::string value_text(const nlohmann::json& v, const std::string& where) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_number()) return v.dump();
    throw StudyError(fmt::format("{}: a value must be a number, a string or true/false, got {}", where, v.dump()));
}

std::vector<std::string> string_list(const nlohmann::json& j, const std::string& where) {
    std::vector<std::string> r;
    if (j.is_string()) return {j.get<std::string>()};
    if (!j.is_array()) throw StudyError(where + ": expected a string or an array of strings");
    for (size_t i = 0; i < j.size(); ++i) {
        if (!j[i].is_string()) throw StudyError(fmt::format("{}/{}: expected a string", where, i));
        r.push_back(j[i].get<std::string>());
    }
    return r;
}

void check_keys(const nlohmann::json& j, const std::vector<std::string>& valid, const std::string& where) {
    for (auto it = j.begin(); it != j.end(); ++it)
        if (std::find(valid.begin(), valid.end(), it.key()) == valid.end())
            throw StudyError(fmt::format("{}: unknown key \"{}\"; valid keys: {}", where, it.key(), fmt::join(valid, ", ")));
}

std::vector<std::string> range_values(double from, double to, double step, bool integral, const std::string& where) {
    if (step == 0) throw StudyError(where + ": step must not be 0");
    if ((to - from) / step < 0)
        throw StudyError(fmt::format("{}: from {} to {} with step {} gives no values (an empty axis)", where, from, to,
                                     step));
    const double n = std::floor((to - from) / step + 1e-9) + 1;
    if (n > 100000) throw StudyError(fmt::format("{}: {} values; at most 100000", where, n));
    std::vector<std::string> r;
    for (size_t i = 0; i < size_t(n); ++i) {
        const double v = from + double(i) * step;
        r.push_back(integral ? fmt::format("{}", int64_t(std::llround(v))) : fmt::format("{:g}", v));
    }
    return r;
}

Axis axis_from_json(const nlohmann::json& j, const std::string& where) {
    if (!j.is_object()) throw StudyError(where + ": an axis is an object: {\"key\", \"values\" | \"range\"} or {\"zip\"}");
    Axis a;
    if (j.contains("zip")) {
        check_keys(j, {"zip"}, where);
        const auto& z = j["zip"];
        if (!z.is_array() || z.size() < 2) throw StudyError(where + "/zip: expected an array of at least two axes");
        for (size_t i = 0; i < z.size(); ++i) {
            const std::string w = fmt::format("{}/zip/{}", where, i);
            if (z[i].is_object() && z[i].contains("zip")) throw StudyError(w + ": a zipped axis cannot itself be a zip");
            Axis m = axis_from_json(z[i], w);
            if (i && m.values.size() != a.values.size())
                throw StudyError(fmt::format("{}: {} has {} values, {} has {}: zipped axes must have the same length", w,
                                             m.keys[0], m.values.size(), a.keys[0], a.values.size()));
            a.keys.push_back(m.keys[0]);
            if (i == 0) a.values.resize(m.values.size());
            for (size_t k = 0; k < m.values.size(); ++k) a.values[k].push_back(m.values[k][0]);
        }
        return a;
    }
    check_keys(j, {"key", "values", "range"}, where);
    if (!j.contains("key") || !j["key"].is_string()) throw StudyError(where + ": \"key\" (unit.param) is required");
    a.keys.push_back(j["key"].get<std::string>());
    if (j.contains("values") == j.contains("range"))
        throw StudyError(where + ": an axis has either \"values\" (a list) or \"range\" ({from, to, step})");
    if (j.contains("values")) {
        const auto& v = j["values"];
        if (!v.is_array()) throw StudyError(where + "/values: expected an array");
        for (size_t i = 0; i < v.size(); ++i) a.values.push_back({value_text(v[i], fmt::format("{}/values/{}", where, i))});
    } else {
        const auto& r = j["range"];
        const std::string w = where + "/range";
        if (!r.is_object()) throw StudyError(w + ": expected {\"from\": F, \"to\": T, \"step\": S}");
        check_keys(r, {"from", "to", "step"}, w);
        for (const char* k : {"from", "to"})
            if (!r.contains(k) || !r[k].is_number()) throw StudyError(fmt::format("{}: \"{}\" (a number) is required", w, k));
        const nlohmann::json step = r.contains("step") ? r["step"] : nlohmann::json(1);
        if (!step.is_number()) throw StudyError(w + "/step: expected a number");
        const bool integral = r["from"].is_number_integer() && r["to"].is_number_integer() && step.is_number_integer();
        for (const auto& t : range_values(r["from"].get<double>(), r["to"].get<double>(), step.get<double>(), integral, w))
            a.values.push_back({t});
    }
    if (a.values.empty()) throw StudyError(fmt::format("{}: axis {} has no values (an empty axis)", where, a.keys[0]));
    return a;
}

}  // namespace

std::vector<std::string> expand_scenes(const std::string& arg, const std::string& origin) {
    std::vector<std::string> r;
    if (arg.find_first_of("*?[") != std::string::npos) {
        glob_t g{};
        const int rc = ::glob(arg.c_str(), 0, nullptr, &g);
        if (rc == 0)
            for (size_t i = 0; i < g.gl_pathc; ++i) r.push_back(g.gl_pathv[i]);
        globfree(&g);
        if (r.empty()) throw StudyError(fmt::format("{}: scene pattern {} matches no file", origin, arg));
        std::sort(r.begin(), r.end());
        return r;
    }
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
        for (const auto& e : fs::directory_iterator(arg, ec))
            if (e.is_regular_file() && e.path().extension() == ".json") r.push_back(e.path().string());
        if (r.empty()) throw StudyError(fmt::format("{}: scene folder {} has no .json scene", origin, arg));
        std::sort(r.begin(), r.end());
        return r;
    }
    if (!fs::is_regular_file(arg, ec)) throw StudyError(fmt::format("{}: {}: no such scene file", origin, arg));
    return {arg};
}

Study load_study(const std::string& path) {
    std::string text, why;
    if (!read_input_file(path, text, why)) throw StudyError(printable(path) + ": cannot read the study file: " + why);
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw StudyError(fmt::format("{}: not valid JSON: {}", path, e.what()));
    }
    if (!j.is_object()) throw StudyError(path + ": a study is a JSON object");
    check_keys(j, {"schema", "name", "description", "scenes", "base", "axes", "repeats", "metrics"}, path);
    if (!j.contains("schema") || j["schema"] != "vpsim-study-1")
        throw StudyError(path + ": /schema: expected \"vpsim-study-1\"");
    Study s;
    s.name = j.value("name", fs::path(path).stem().string());
    const fs::path dir = fs::path(path).parent_path();
    if (!j.contains("scenes")) throw StudyError(path + ": /scenes is required (files, folders or globs)");
    const auto scenes = string_list(j["scenes"], path + ": /scenes");
    for (size_t i = 0; i < scenes.size(); ++i) {
        const fs::path p = fs::path(scenes[i]).is_absolute() ? fs::path(scenes[i]) : (dir / scenes[i]).lexically_normal();
        for (auto& f : expand_scenes(p.string(), fmt::format("{}: /scenes/{}", path, i))) s.scenes.push_back(f);
    }
    if (j.contains("base")) {
        const auto& b = j["base"];
        const std::string w = path + ": /base";
        if (!b.is_object()) throw StudyError(w + ": expected an object");
        check_keys(b, {"preset", "sets", "profile", "tess_profile"}, w);
        if (b.contains("preset")) {
            if (!b["preset"].is_string()) throw StudyError(w + "/preset: expected a string");
            s.preset = b["preset"].get<std::string>();
        }
        if (b.contains("sets")) s.sets = string_list(b["sets"], w + "/sets");
        if (b.contains("profile")) s.profile = string_list(b["profile"], w + "/profile");
        if (b.contains("tess_profile")) s.tess_profile = string_list(b["tess_profile"], w + "/tess_profile");
    }
    if (j.contains("axes")) {
        if (!j["axes"].is_array()) throw StudyError(path + ": /axes: expected an array");
        for (size_t i = 0; i < j["axes"].size(); ++i)
            s.axes.push_back(axis_from_json(j["axes"][i], fmt::format("{}: /axes/{}", path, i)));
        // Topology files, like scenes, are relative to the study file.
        for (Axis& x : s.axes)
            for (size_t k = 0; k < x.keys.size(); ++k)
                if (x.keys[k] == "topology")
                    for (auto& v : x.values)
                        if (!fs::path(v[k]).is_absolute()) v[k] = (dir / v[k]).lexically_normal().string();
    }
    if (j.contains("repeats")) {
        if (!j["repeats"].is_number_unsigned() || j["repeats"].get<uint64_t>() < 1 || j["repeats"].get<uint64_t>() > 1000)
            throw StudyError(path + ": /repeats: expected an integer in [1, 1000]");
        s.repeats = unsigned(j["repeats"].get<uint64_t>());
    }
    if (j.contains("metrics")) {
        s.metrics = string_list(j["metrics"], path + ": /metrics");
        if (s.metrics.empty()) throw StudyError(path + ": /metrics: an empty list keeps no metric; leave it out to keep all");
        for (size_t i = 0; i < s.metrics.size(); ++i)
            check_metric_pattern(s.metrics[i], fmt::format("{}: /metrics/{}", path, i));
    }
    return s;
}

void check_metric_pattern(const std::string& pattern, const std::string& where) {
    if (pattern.empty()) throw StudyError(where + ": an empty metric pattern");
    for (unsigned char c : pattern)
        if (c < 0x20 || c >= 0x7f)
            throw StudyError(fmt::format("{}: metric pattern \"{}\": only printable ASCII (metric names are "
                                         "unit.name; * and ? match any text)",
                                         where, printable(pattern)));
}

Axis parse_axis_flag(const std::string& text) {
    const std::string where = "--axis " + text;
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw StudyError(where + ": expected unit.param=v1,v2,... or unit.param=FROM..TO[:STEP]");
    Axis a;
    a.keys.push_back(text.substr(0, eq));
    const std::string v = text.substr(eq + 1);
    const size_t dots = v.find("..");
    if (dots != std::string::npos) {
        const std::string from = v.substr(0, dots);
        std::string to = v.substr(dots + 2), step = "1";
        if (const size_t c = to.find(':'); c != std::string::npos) step = to.substr(c + 1), to = to.substr(0, c);
        auto num = [&](const std::string& t) {
            try {
                size_t used = 0;
                const double d = std::stod(t, &used);
                if (used != t.size()) throw std::invalid_argument(t);
                return d;
            } catch (const std::exception&) {
                throw StudyError(fmt::format("{}: '{}' is not a number (range FROM..TO[:STEP])", where, t));
            }
        };
        const bool integral = from.find_first_of(".eE") == std::string::npos &&
                              to.find_first_of(".eE") == std::string::npos && step.find_first_of(".eE") == std::string::npos;
        for (const auto& t : range_values(num(from), num(to), num(step), integral, where)) a.values.push_back({t});
    } else {
        size_t start = 0;
        while (start <= v.size()) {
            const size_t c = std::min(v.find(',', start), v.size());
            const std::string item = v.substr(start, c - start);
            if (!item.empty()) a.values.push_back({item});
            start = c + 1;
        }
    }
    if (a.values.empty()) throw StudyError(fmt::format("{}: axis {} has no values (an empty axis)", where, a.keys[0]));
    return a;
}

}  // namespace vpsim::study
