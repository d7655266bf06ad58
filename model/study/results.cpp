#include "model/study/results.h"

#include "model/common/file_util.h"
#include "model/common/printable.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fnmatch.h>
#include <map>
#include <set>
#include <stdexcept>

namespace vpsim::study {

namespace {

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string r = "\"";
    for (char c : s) r += c == '"' ? std::string("\"\"") : std::string(1, c);
    return r + "\"";
}

// The summary's metrics, flattened ("tessellator.patches"). Left out: the scene (its own
// column), the stall list (the per-unit columns hold every stall) and the host timing
// (host_seconds, cycles_per_host_second: how fast this machine ran the point, not a result;
// each point's stats.json keeps them).
void flatten_metrics(const nlohmann::ordered_json& j, const std::string& prefix, nlohmann::ordered_json& out) {
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string k = prefix + it.key();
        if (prefix.empty() && (k == "scene" || k == "stalls" || k == "rtl" || k == "host_seconds" ||
                               k == "cycles_per_host_second"))
            continue;
        if (it->is_object())
            flatten_metrics(*it, k + ".", out);
        else if (!it->is_array())
            out[k] = *it;
    }
}

}  // namespace

void write_results(const std::string& out_dir, const Study& s, const std::vector<Point>& points) {
    std::vector<std::string> axis_keys;
    for (const Axis& a : s.axes) axis_keys.insert(axis_keys.end(), a.keys.begin(), a.keys.end());
    std::vector<std::string> columns = {"point", "scene", "repeat"};
    columns.insert(columns.end(), axis_keys.begin(), axis_keys.end());
    std::vector<std::map<std::string, std::string>> cells;
    std::set<std::string> known(columns.begin(), columns.end());
    std::vector<std::string> all_metric_columns;  // for the message when a pattern matches none
    std::set<std::string> all_seen;
    std::vector<bool> pattern_used(s.metrics.size(), false);
    auto keep = [&](const std::string& name) {
        if (all_seen.insert(name).second) all_metric_columns.push_back(name);
        if (s.metrics.empty()) return true;
        bool k = false;
        for (size_t i = 0; i < s.metrics.size(); ++i)
            if (::fnmatch(s.metrics[i].c_str(), name.c_str(), 0) == 0) k = pattern_used[i] = true;
        return k;
    };
    std::string jsonl;
    for (const Point& p : points) {
        const std::string path = p.dir + "/stats.json";
        nlohmann::ordered_json st;
        std::string text, why;
        if (!read_input_file(path, text, why))
            throw std::runtime_error(path + ": cannot read the point's statistics: " + why);
        try {
            st = nlohmann::ordered_json::parse(text);
        } catch (const std::exception& e) {
            throw std::runtime_error(path + ": cannot read the point's statistics: " + e.what());
        }
        if (!st.contains("summary") || !st.contains("units")) throw std::runtime_error(path + ": no summary or units");
        nlohmann::ordered_json all = nlohmann::ordered_json::object();
        flatten_metrics(st["summary"], "", all);
        nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
        nlohmann::ordered_json units = nlohmann::ordered_json::object();
        std::map<std::string, std::string> row = {{"point", p.hash}, {"scene", p.scene}, {"repeat", std::to_string(p.repeat)}};
        for (const auto& [k, v] : p.axis_values) row[k] = cell_text(p.axis_json[k]);
        std::vector<std::string> order;
        for (auto it = all.begin(); it != all.end(); ++it) {
            if (!keep(it.key())) continue;
            metrics[it.key()] = *it;
            row[it.key()] = cell_text(*it);
            order.push_back(it.key());
        }
        for (auto it = st["units"].begin(); it != st["units"].end(); ++it) {
            if (!it->contains("cycles") || !(*it)["cycles"].is_object()) continue;  // a counter group (no cycles)
            const auto& c = (*it)["cycles"];
            const std::string un = it.key();
            nlohmann::ordered_json u = nlohmann::ordered_json::object();
            auto add = [&](const std::string& col, const nlohmann::ordered_json& v) {
                if (!keep(col)) return false;
                row[col] = cell_text(v);
                order.push_back(col);
                return true;
            };
            // A sampled run's (sample_stats.h) has no idle cycles and a half-width beside each estimate.
            for (const char* k : {"busy", "busy_half_width", "idle"})
                if (c.contains(k) && add(un + "." + k, c[k])) u[k] = c[k];
            nlohmann::ordered_json stalled = nlohmann::ordered_json::object();
            nlohmann::ordered_json half_widths = nlohmann::ordered_json::object();
            for (auto r = c["stalled"].begin(); r != c["stalled"].end(); ++r) {
                if (add(un + ".stalled." + r.key(), (*r)["cycles"])) stalled[r.key()] = (*r)["cycles"];
                if (r->contains("half_width") && add(un + ".stalled." + r.key() + ".half_width", (*r)["half_width"]))
                    half_widths[r.key()] = (*r)["half_width"];
            }
            if (!stalled.empty() || s.metrics.empty()) u["stalled"] = stalled;
            if (!half_widths.empty()) u["stalled_half_width"] = half_widths;
            if (add(un + ".stalled_total", c["stalled_total"])) u["stalled_total"] = c["stalled_total"];
            if (!u.empty()) units[un] = u;
        }
        for (const auto& k : order)
            if (known.insert(k).second) columns.push_back(k);
        cells.push_back(std::move(row));
        nlohmann::ordered_json j;
        j["point"] = p.hash;
        j["scene"] = p.scene;
        j["repeat"] = p.repeat;
        j["axes"] = p.axis_json.is_null() ? nlohmann::ordered_json::object() : p.axis_json;
        j["metrics"] = metrics;
        j["units"] = units;
        jsonl += j.dump() + "\n";
    }
    for (size_t i = 0; i < s.metrics.size(); ++i)
        if (!pattern_used[i] && !points.empty())
            throw StudyError(fmt::format("metrics: \"{}\" matches no metric of the points (the points are kept: fix "
                                         "the pattern and run the sweep again); the metrics: {}",
                                         printable(s.metrics[i]), fmt::join(all_metric_columns, ", ")));
    std::string csv;
    for (size_t i = 0; i < columns.size(); ++i) csv += (i ? "," : "") + csv_field(columns[i]);
    csv += "\n";
    for (const auto& row : cells) {
        for (size_t i = 0; i < columns.size(); ++i) {
            auto it = row.find(columns[i]);
            csv += (i ? "," : "") + (it == row.end() ? std::string() : csv_field(it->second));
        }
        csv += "\n";
    }
    write_file_atomic(out_dir + "/results.jsonl", jsonl);
    write_file_atomic(out_dir + "/results.csv", csv);
}


}  // namespace vpsim::study
