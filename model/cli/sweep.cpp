#include "model/cli/sweep.h"

#include "model/cli/run_common.h"
#include "model/common/file_util.h"
#include "model/common/fnv.h"
#include "model/common/presets.h"
#include "model/common/printable.h"
#include "model/sc/pipeline.h"
#include "model/tess/tess_types.h"
#include "model/vs/vs_isa.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <fnmatch.h>
#include <glob.h>
#include <map>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace vpsim::cli::sweep {

namespace {

volatile std::sig_atomic_t g_signal = 0;
extern "C" void on_signal(int sig) { g_signal = sig; }


std::string read_text(const std::string& path, bool* ok = nullptr) {
    std::ifstream in(path, std::ios::binary);
    if (ok) *ok = bool(in);
    if (!in) return "";
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The identity of the binary that runs the points: its version and a hash of its bytes, so a
// rebuilt vpsim invalidates earlier points.
std::string binary_identity(const std::string& exe) {
    std::ifstream in(exe, std::ios::binary);
    if (!in) throw StudyError(exe + ": cannot read the vpsim binary (to hash it)");
    Fnv f;
    std::vector<char> buf(1 << 20);
    while (in) {
        in.read(buf.data(), std::streamsize(buf.size()));
        f.add(buf.data(), size_t(in.gcount()));
    }
    return fmt::format("vpsim {} binary fnv1a64:{:016x}", VPSIM_VERSION, f.h);
}

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

std::string sh_quote(const std::string& s) {
    std::string r = "'";
    for (char c : s) r += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return r + "'";
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string r = "\"";
    for (char c : s) r += c == '"' ? std::string("\"\"") : std::string(1, c);
    return r + "\"";
}

std::string cell_text(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

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

bool interrupted() { return g_signal != 0; }

void install_interrupt_handlers() {
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: waitpid returns EINTR
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

int interrupt_signal() { return g_signal; }

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

std::vector<Point> resolve_points(const Study& s, const std::string& out_dir, const std::string& exe) {
    if (s.scenes.empty()) throw StudyError("no scene: give --scene (a file, folder or glob) or a study file's \"scenes\"");
    // The base: preset, then the --set list; the profiles.
    ParamSet base = sc::default_params();
    try {
        if (!s.preset.empty()) apply_preset(base, s.preset);
    } catch (const std::exception& e) {
        throw StudyError(std::string("preset: ") + e.what());
    }
    for (const auto& kv : s.sets) {
        try {
            base.apply_set(kv);
        } catch (const std::exception& e) {
            throw StudyError(fmt::format("base --set {}: {}", kv, e.what()));
        }
    }
    for (const auto& kv : s.profile) {
        try {
            vs::Profile p;
            p.set(kv);
        } catch (const std::exception& e) {
            throw StudyError(fmt::format("--profile {}: {}", kv, e.what()));
        }
    }
    for (const auto& kv : s.tess_profile) {
        try {
            tess::TessProfile p;
            tess::set_tess_option(p, kv);
        } catch (const std::exception& e) {
            throw StudyError(fmt::format("--tess-profile {}: {}", kv, e.what()));
        }
    }
    // The `topology` axis: topology files (vpsim run --topology-file), each loaded once; a point
    // with one takes that topology's parameter tables.
    std::map<std::string, sc::Topology> topologies;
    for (const Axis& a : s.axes)
        for (size_t k = 0; k < a.keys.size(); ++k)
            if (a.keys[k] == "topology")
                for (const auto& vs : a.values) try {
                        if (!topologies.count(vs[k])) topologies.emplace(vs[k], sc::load_topology_file(vs[k]));
                    } catch (const std::exception& e) {
                        throw StudyError(fmt::format("axis topology: {}", e.what()));
                    }
    // A point's parameters: the defaults (of its topology), its preset (the `preset` axis's
    // value, else the study's), the base --set list.
    auto base_for = [&](const std::string& preset, const std::string& topology = "") {
        if (preset == s.preset && topology.empty()) return base;
        ParamSet p = topology.empty() ? sc::default_params() : sc::default_params(topologies.at(topology));
        if (!preset.empty()) apply_preset(p, preset);
        for (const auto& kv : s.sets) p.apply_set(kv);
        return p;
    };
    // Every axis key and value, on the base.
    std::set<std::string> seen;
    for (const Axis& a : s.axes) {
        for (size_t k = 0; k < a.keys.size(); ++k) {
            if (!seen.insert(a.keys[k]).second)
                throw StudyError(fmt::format("axis {}: the key is on two axes (zip them to vary them together)", a.keys[k]));
            if (a.values.empty()) throw StudyError(fmt::format("axis {}: no values (an empty axis)", a.keys[k]));
            if (a.keys[k] == "preset" || a.keys[k] == "topology") {
                for (const auto& vs : a.values) try {
                        if (a.keys[k] == "preset")
                            base_for(vs[k]);
                        else
                            base_for(s.preset, vs[k]);
                    } catch (const std::exception& e) {
                        throw StudyError(fmt::format("axis {}: {}", a.keys[k], e.what()));
                    }
                continue;
            }
            for (const auto& vs : a.values) {
                ParamSet p = base;
                try {
                    p.apply_set(a.keys[k] + "=" + vs[k]);
                } catch (const std::exception& e) {
                    throw StudyError(fmt::format("axis {}: {}", a.keys[k], e.what()));
                }
            }
        }
    }
    // Every scene loads (a malformed scene is bad input; a scene whose commands fail is a failed point).
    std::vector<std::string> scene_hash;
    for (const auto& sc : s.scenes) {
        try {
            scene_hash.push_back(load_run_scene(sc).hash);
        } catch (const std::exception& e) {
            throw StudyError(fmt::format("scene {}: {}", sc, e.what()));
        }
    }
    const std::string identity = binary_identity(exe);
    std::vector<Point> pts;
    size_t combos = 1;
    for (const Axis& a : s.axes) combos *= a.values.size();
    for (size_t si = 0; si < s.scenes.size(); ++si) {
        for (size_t c = 0; c < combos; ++c) {
            // Mixed radix: the first axis varies slowest.
            std::vector<size_t> idx(s.axes.size());
            size_t rest = c;
            for (size_t ai = s.axes.size(); ai-- > 0;) {
                idx[ai] = rest % s.axes[ai].values.size();
                rest /= s.axes[ai].values.size();
            }
            std::string preset = s.preset, topology;
            for (size_t ai = 0; ai < s.axes.size(); ++ai)
                for (size_t k = 0; k < s.axes[ai].keys.size(); ++k) {
                    if (s.axes[ai].keys[k] == "preset") preset = s.axes[ai].values[idx[ai]][k];
                    if (s.axes[ai].keys[k] == "topology") topology = s.axes[ai].values[idx[ai]][k];
                }
            ParamSet params = base_for(preset, topology);
            std::vector<std::pair<std::string, std::string>> av;
            for (size_t ai = 0; ai < s.axes.size(); ++ai)
                for (size_t k = 0; k < s.axes[ai].keys.size(); ++k) {
                    av.emplace_back(s.axes[ai].keys[k], s.axes[ai].values[idx[ai]][k]);
                    if (av.back().first != "preset" && av.back().first != "topology")
                        params.apply_set(av.back().first + "=" + av.back().second);
                }
            for (unsigned r = 0; r < s.repeats; ++r) {
                Point p;
                p.index = pts.size();
                p.scene = s.scenes[si];
                p.repeat = r;
                p.axis_values = av;
                for (const auto& [k, v] : av)
                    p.axis_json[k] = k == "preset" || k == "topology" ? nlohmann::json(v) : params.value(k);
                Fnv f;
                f.add("vpsim-sweep-point-1");
                f.add(p.scene);
                f.add(scene_hash[si]);
                f.add(params.to_json().dump());
                if (!topology.empty()) f.add("topology " + topologies.at(topology).text);
                for (const auto& x : s.profile) f.add("profile " + x);
                for (const auto& x : s.tess_profile) f.add("tess_profile " + x);
                f.add(identity);
                f.add(std::to_string(r));
                p.hash = fmt::format("{:016x}", f.h);
                p.dir = (fs::path(out_dir) / "points" / p.hash).string();
                p.argv = {exe, "run", p.scene, "--out", p.dir, "--quiet", "--no-progress"};
                if (!preset.empty()) p.argv.insert(p.argv.end(), {"--preset", preset});
                if (!topology.empty()) p.argv.insert(p.argv.end(), {"--topology-file", topology});
                for (const auto& kv : s.sets) p.argv.insert(p.argv.end(), {"--set", kv});
                for (const auto& [k, v] : av)
                    if (k != "preset" && k != "topology") p.argv.insert(p.argv.end(), {"--set", k + "=" + v});
                for (const auto& x : s.profile) p.argv.insert(p.argv.end(), {"--profile", x});
                for (const auto& x : s.tess_profile) p.argv.insert(p.argv.end(), {"--tess-profile", x});
                pts.push_back(std::move(p));
            }
        }
    }
    return pts;
}

nlohmann::ordered_json study_json(const Study& s, const std::vector<Point>& points) {
    nlohmann::ordered_json j;
    j["schema"] = "vpsim-study-resolved-1";
    j["name"] = s.name;
    j["vpsim"] = VPSIM_VERSION;
    j["scenes"] = s.scenes;
    nlohmann::ordered_json base;
    if (!s.preset.empty()) base["preset"] = s.preset;
    base["sets"] = s.sets;
    base["profile"] = s.profile;
    base["tess_profile"] = s.tess_profile;
    j["base"] = base;
    auto axes = nlohmann::ordered_json::array();
    for (const Axis& a : s.axes) {
        nlohmann::ordered_json x;
        x["keys"] = a.keys;
        x["values"] = a.values;
        axes.push_back(x);
    }
    j["axes"] = axes;
    j["repeats"] = s.repeats;
    j["metrics"] = s.metrics;
    auto pts = nlohmann::ordered_json::array();
    for (const Point& p : points) {
        nlohmann::ordered_json x;
        x["index"] = p.index;
        x["point"] = p.hash;
        x["scene"] = p.scene;
        x["repeat"] = p.repeat;
        x["axes"] = p.axis_json;
        x["dir"] = p.dir;
        pts.push_back(x);
    }
    j["points"] = pts;
    return j;
}

PointState point_state(const Point& p, int* exit_status, std::string* message) {
    std::error_code ec;
    if (fs::is_regular_file(fs::path(p.dir) / "stats.json", ec)) return PointState::Done;
    bool ok = false;
    const std::string st = read_text((fs::path(p.dir) / "exit_status").string(), &ok);
    if (!ok || st.empty()) return PointState::Missing;
    if (exit_status) *exit_status = std::atoi(st.c_str());
    if (message) {
        std::string err = read_text((fs::path(p.dir) / "stderr.txt").string());
        while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
        if (err.empty()) err = std::atoi(st.c_str()) == 0 ? "exited 0 without writing stats.json" : "(no message)";
        *message = err;
    }
    return PointState::Failed;
}

std::string point_shell_command(const Point& p) {
    std::string cmd = "mkdir -p " + sh_quote(p.dir) + " && ";
    for (size_t i = 0; i < p.argv.size(); ++i) cmd += (i ? " " : "") + sh_quote(p.argv[i]);
    const std::string st = sh_quote(p.dir + "/exit_status");
    const std::string tmp = sh_quote(p.dir + "/exit_status.tmp");
    cmd += " >/dev/null 2>" + sh_quote(p.dir + "/stderr.txt") + " </dev/null; s=$?; echo $s >" + tmp + " && mv " + tmp +
           " " + st + "; exit $s";
    return cmd;
}

namespace {

// Starts `argv` (argv[0] a path or a name on PATH) with stdin and stdout on /dev/null and stderr
// into the file `err`; returns its pid. A program that cannot start says why there, exit 127.
pid_t spawn(const std::vector<std::string>& args, const std::string& err) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        const int fe = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int fn = ::open("/dev/null", O_RDWR);
        if (fn >= 0) ::dup2(fn, 0), ::dup2(fn, 1);
        if (fe >= 0) ::dup2(fe, 2);
        ::execvp(argv[0], argv.data());
        const std::string m = std::string("vpsim sweep: cannot run ") + argv[0] + ": " + std::strerror(errno) + "\n";
        if (::write(2, m.data(), m.size()) < 0) {
        }
        ::_exit(127);
    }
    return pid;
}

class LocalBackend : public Backend {
public:
    explicit LocalBackend(unsigned jobs) : jobs_(std::max(1u, jobs)) {}
    std::string name() const override { return "local"; }
    bool run(const std::vector<const Point*>& jobs, const std::function<void(const Point&, bool)>& done) override {
        std::map<pid_t, const Point*> running;
        size_t next = 0;
        while (next < jobs.size() || !running.empty()) {
            if (interrupted()) {
                for (const auto& [pid, p] : running) ::kill(pid, SIGTERM);
                for (const auto& [pid, p] : running) {
                    int st = 0;
                    while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
                    }
                }
                return false;
            }
            while (next < jobs.size() && running.size() < jobs_) {
                const Point* p = jobs[next++];
                running[start(*p)] = p;
            }
            int st = 0;
            const pid_t pid = ::waitpid(-1, &st, 0);
            if (pid < 0) {
                if (errno == EINTR) continue;
                throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
            }
            auto it = running.find(pid);
            if (it == running.end()) continue;
            const Point* p = it->second;
            running.erase(it);
            if (interrupted() && WIFSIGNALED(st)) continue;  // stopped by the interrupt: still missing
            const int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            write_file_atomic(p->dir + "/exit_status", std::to_string(code) + "\n");
            done(*p, point_state(*p) == PointState::Done);
        }
        return true;
    }

private:
    static pid_t start(const Point& p) {
        return spawn(p.argv, p.dir + "/stderr.txt");
    }
    unsigned jobs_;
};

// Runs `args` (a tool that runs a points file: GNU parallel, sweep-slurm.sh) with stdin and
// stdout on /dev/null and stderr into `err`, reporting each point as its directory says it
// ended. On SIGINT/SIGTERM `stop(pid)` is called once and the run returns false. The tool's
// exit status is passed to `exited` (which may throw) when it ended on its own.
bool run_points_tool(const std::vector<std::string>& args, const std::string& err, const std::vector<const Point*>& jobs,
                     const std::function<void(const Point&, bool)>& done, const std::function<void(pid_t)>& stop,
                     const std::function<void(int)>& exited) {
    const pid_t pid = spawn(args, err);
    std::vector<bool> reported(jobs.size(), false);
    auto poll = [&] {
        for (size_t i = 0; i < jobs.size(); ++i)
            if (!reported[i]) {
                const PointState s = point_state(*jobs[i]);
                if (s == PointState::Missing) continue;
                reported[i] = true;
                done(*jobs[i], s == PointState::Done);
            }
    };
    bool stopping = false;
    for (;;) {
        int st = 0;
        const pid_t r = ::waitpid(pid, &st, WNOHANG);
        if (r == pid) {
            if (!stopping && WIFEXITED(st)) exited(WEXITSTATUS(st));
            break;
        }
        if (interrupted() && !stopping) {
            stopping = true;
            stop(pid);
        }
        poll();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (stopping) return false;
    poll();
    return true;
}

std::string write_points_file(const std::string& path, const std::vector<const Point*>& jobs) {
    std::string lines;
    for (const Point* p : jobs) lines += point_shell_command(*p) + "\n";
    write_file_atomic(path, lines);
    return path;
}

class ParallelBackend : public Backend {
public:
    ParallelBackend(unsigned jobs, std::string out) : jobs_(std::max(1u, jobs)), out_(std::move(out)) {}
    std::string name() const override { return "parallel"; }
    void check() const override {
        std::FILE* f = ::popen("parallel --version 2>/dev/null", "r");
        std::string text;
        if (f) {
            char buf[256];
            while (std::fgets(buf, sizeof buf, f)) text += buf;
            ::pclose(f);
        }
        if (text.find("GNU parallel") == std::string::npos)
            throw StudyError("--backend parallel: GNU parallel is not installed (`parallel --version` does not say GNU "
                             "parallel); install the Debian package parallel (scripts/deps.sh parallel)");
    }
    bool run(const std::vector<const Point*>& jobs, const std::function<void(const Point&, bool)>& done) override {
        const std::string jobs_file = write_points_file(out_ + "/parallel.jobs", jobs);
        const std::string err = out_ + "/parallel.stderr";
        return run_points_tool(
            {"parallel", "--will-cite", "--halt", "never", "--jobs", std::to_string(jobs_), "--joblog",
             out_ + "/parallel.joblog", "::::", jobs_file},
            err, jobs, done,
            [](pid_t pid) {
                ::kill(pid, SIGTERM);  // GNU parallel: no new jobs
                ::kill(pid, SIGTERM);  // a second TERM ends the running ones
            },
            [&](int status) {
                if (status == 255) throw std::runtime_error("GNU parallel failed; its messages are in " + err);
            });
    }

private:
    unsigned jobs_;
    std::string out_;
};

// Slurm: the points file goes to scripts/sweep-slurm.sh (installed with vpsim's data), which
// submits it as one job array and follows it; the points' directories say how each ended.
class SlurmBackend : public Backend {
public:
    SlurmBackend(SlurmOptions o, std::string out, std::string script)
        : o_(std::move(o)), out_(std::move(out)), script_(std::move(script)) {}
    std::string name() const override { return "slurm"; }
    bool detached() const override { return o_.no_wait; }
    void check() const override {
        if (::access(script_.c_str(), R_OK) != 0)
            throw StudyError("--backend slurm: " + script_ + " is missing (vpsim's data is not installed)");
        if (std::system("command -v sbatch >/dev/null 2>&1") != 0)
            throw StudyError("--backend slurm: Slurm is not installed: sbatch not found on PATH (Debian: slurm-client; "
                             "for a local test cluster see docs/slurm.md)");
        // A job submitted earlier into this directory (--no-wait) that is still queued would write
        // the same points: nothing is touched until it has ended.
        const std::string job = slurm_job_id(out_);
        std::vector<std::string> queued;
        try {
            queued = slurm_queued_states(job);
        } catch (const StudyError&) {
            // squeue not answering: sweep-slurm.sh says so plainly when it runs
        }
        if (!queued.empty())
            throw StudyError(fmt::format("--backend slurm: job {}, submitted earlier into {}, still has {} array task(s) "
                                         "queued or running: wait for it and run `vpsim sweep collect {}`, or scancel {}",
                                         job, out_, queued.size(), out_, job));
    }
    bool run(const std::vector<const Point*>& jobs, const std::function<void(const Point&, bool)>& done) override {
        if (jobs.empty()) return true;  // every point is done: nothing to submit
        const std::string jobs_file = write_points_file(out_ + "/slurm.jobs", jobs);
        const std::string err = out_ + "/slurm.stderr";
        std::vector<std::string> args = {"bash", script_, jobs_file, out_};
        auto opt = [&](const char* flag, unsigned v) {
            if (v) args.insert(args.end(), {flag, std::to_string(v)});
        };
        if (!o_.partition.empty()) args.insert(args.end(), {"--partition", o_.partition});
        opt("--time", o_.time_minutes);
        opt("--mem", o_.mem_mb);
        opt("--chunk", o_.chunk);
        opt("--max-running", o_.max_running);
        if (o_.no_wait) args.push_back("--no-wait");
        return run_points_tool(
            args, err, jobs, done,
            [&](pid_t pid) {
                ::kill(pid, SIGTERM);
                std::ifstream id(out_ + "/slurm/job_id");
                std::string job;
                if (id >> job && job.find_first_not_of("0123456789_") == std::string::npos)
                    (void)std::system(("scancel " + job + " >/dev/null 2>&1").c_str());
            },
            [&](int status) {
                // Exit 2: usage, or Slurm missing or unreachable; its message says which.
                if (status != 2) return;
                std::ifstream in(err);
                std::stringstream ss;
                ss << in.rdbuf();
                std::string m = ss.str();
                while (!m.empty() && m.back() == '\n') m.pop_back();
                throw std::runtime_error("--backend slurm: " + (m.empty() ? "sweep-slurm.sh failed" : m));
            });
    }

private:
    SlurmOptions o_;
    std::string out_, script_;
};

}  // namespace

std::unique_ptr<Backend> make_slurm_backend(SlurmOptions o, std::string out_dir, std::string script) {
    return std::make_unique<SlurmBackend>(std::move(o), std::move(out_dir), std::move(script));
}
std::unique_ptr<Backend> make_local_backend(unsigned jobs) { return std::make_unique<LocalBackend>(jobs); }
std::unique_ptr<Backend> make_parallel_backend(unsigned jobs, std::string out_dir) {
    return std::make_unique<ParallelBackend>(jobs, std::move(out_dir));
}

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
        try {
            st = nlohmann::ordered_json::parse(read_text(path));
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
            for (const char* k : {"busy", "idle"})
                if (add(un + "." + k, c[k])) u[k] = c[k];
            nlohmann::ordered_json stalled = nlohmann::ordered_json::object();
            for (auto r = c["stalled"].begin(); r != c["stalled"].end(); ++r)
                if (add(un + ".stalled." + r.key(), (*r)["cycles"])) stalled[r.key()] = (*r)["cycles"];
            if (!stalled.empty() || s.metrics.empty()) u["stalled"] = stalled;
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

void load_resolved_study(const std::string& out_dir, Study& s, std::vector<Point>& points) {
    const std::string path = out_dir + "/study.json";
    bool ok = false;
    const std::string text = read_text(path, &ok);
    if (!ok) throw StudyError(path + ": cannot read it (not a sweep directory? `vpsim sweep ... --out DIR` writes it)");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw StudyError(fmt::format("{}: not valid JSON: {}", path, e.what()));
    }
    auto bad = [&](const std::string& what) { return StudyError(path + ": " + what + " (was it written by vpsim sweep?)"); };
    if (!j.is_object() || j.value("schema", "") != "vpsim-study-resolved-1")
        throw bad("/schema: expected \"vpsim-study-resolved-1\"");
    try {
        s = Study{};
        s.name = j.at("name").get<std::string>();
        s.scenes = j.at("scenes").get<std::vector<std::string>>();
        s.repeats = j.at("repeats").get<unsigned>();
        for (const auto& a : j.at("axes")) {
            Axis ax;
            ax.keys = a.at("keys").get<std::vector<std::string>>();
            ax.values = a.at("values").get<std::vector<std::vector<std::string>>>();
            s.axes.push_back(ax);
        }
        if (j.contains("metrics")) s.metrics = j["metrics"].get<std::vector<std::string>>();
        points.clear();
        for (const auto& x : j.at("points")) {
            Point p;
            p.index = x.at("index").get<size_t>();
            p.hash = x.at("point").get<std::string>();
            if (p.hash.size() != 16 || p.hash.find_first_not_of("0123456789abcdef") != std::string::npos)
                throw bad(fmt::format("/points/{}/point: not a 16-digit point hash", points.size()));
            p.scene = x.at("scene").get<std::string>();
            p.repeat = x.at("repeat").get<unsigned>();
            p.axis_json = nlohmann::ordered_json::parse(x.at("axes").dump());
            for (auto it = p.axis_json.begin(); it != p.axis_json.end(); ++it)
                p.axis_values.emplace_back(it.key(), cell_text(*it));
            p.dir = out_dir + "/points/" + p.hash;
            points.push_back(std::move(p));
        }
    } catch (const nlohmann::json::exception& e) {
        throw bad(std::string("unexpected content: ") + e.what());
    }
}

std::string slurm_job_id(const std::string& out_dir) {
    std::string job = read_text(out_dir + "/slurm/job_id");
    while (!job.empty() && (job.back() == '\n' || job.back() == '\r')) job.pop_back();
    if (job.empty() || job.find_first_not_of("0123456789") != std::string::npos) return "";
    return job;
}

std::vector<std::string> slurm_queued_states(const std::string& job) {
    if (job.empty() || job.find_first_not_of("0123456789") != std::string::npos) return {};
    std::FILE* f = ::popen(("squeue -h -j " + job + " -o %T 2>&1").c_str(), "r");
    if (!f) throw StudyError("squeue: cannot run it");
    std::string text;
    char buf[512];
    while (std::fgets(buf, sizeof buf, f)) text += buf;
    const int rc = ::pclose(f);
    if (rc != 0) {
        if (text.find("Invalid job id") != std::string::npos) return {};  // the controller forgot it: it ended
        while (!text.empty() && text.back() == '\n') text.pop_back();
        throw StudyError(fmt::format("squeue -j {} failed: {}", job, printable(text.empty() ? "(no message)" : text)));
    }
    std::vector<std::string> r;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) r.push_back(line);
    return r;
}

}  // namespace vpsim::cli::sweep
