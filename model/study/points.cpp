#include "model/study/points.h"

#include "model/common/file_util.h"
#include "model/common/presets.h"
#include "model/sc/pipeline.h"
#include "model/scene/scene_hash.h"
#include "model/study/point_hash.h"
#include "model/tess/tess_types.h"
#include "model/vs/vs_isa.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace vpsim::study {

namespace {

std::string sh_quote(const std::string& s) {
    std::string r = "'";
    for (char c : s) r += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return r + "'";
}

// A file's text, "" when it cannot be read (`ok` says which).
std::string read_text(const std::string& path, bool* ok = nullptr) {
    std::string text, why;
    const bool r = read_input_file(path, text, why);
    if (ok) *ok = r;
    return r ? text : std::string();
}

}  // namespace

std::string cell_text(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

namespace {

// resolve_points' stages: the base parameters, the topologies, the axes checked on the base, the
// scenes' hashes, then every point.
class Resolver {
public:
    explicit Resolver(const Study& s) : s_(s) {}

    std::vector<Point> run(const std::string& out_dir, const std::string& exe) {
        if (s_.scenes.empty())
            throw StudyError("no scene: give --scene (a file, folder or glob) or a study file's \"scenes\"");
        base_params();
        check_profiles();
        load_topologies();
        check_axes();
        hash_scenes();
        return points(out_dir, exe);
    }

private:
    // The base: preset, then the --set list. With a `topology` axis every point takes its
    // topology's tables: a base --set of a unit only those topologies have (delay_stage.latency)
    // is checked on them, point by point.
    void base_params() {
        try {
            if (!s_.preset.empty()) apply_preset(base_, s_.preset);
        } catch (const std::exception& e) {
            throw StudyError(std::string("preset: ") + e.what());
        }
        bool topology_axis = false;
        for (const Axis& a : s_.axes)
            for (const auto& k : a.keys) topology_axis = topology_axis || k == "topology";
        for (const auto& kv : s_.sets) {
            try {
                base_.apply_set(kv);
            } catch (const std::exception& e) {
                if (!topology_axis) throw StudyError(fmt::format("base --set {}: {}", kv, e.what()));
            }
        }
    }

    void check_profiles() const {
        for (const auto& kv : s_.profile) {
            try {
                vs::Profile p;
                p.set(kv);
            } catch (const std::exception& e) {
                throw StudyError(fmt::format("--profile {}: {}", kv, e.what()));
            }
        }
        for (const auto& kv : s_.tess_profile) {
            try {
                tess::TessProfile p;
                tess::set_tess_option(p, kv);
            } catch (const std::exception& e) {
                throw StudyError(fmt::format("--tess-profile {}: {}", kv, e.what()));
            }
        }
    }

    // The `topology` axis: topology files (vpsim run --topology-file), each loaded once.
    void load_topologies() {
        for (const Axis& a : s_.axes)
            for (size_t k = 0; k < a.keys.size(); ++k)
                if (a.keys[k] == "topology")
                    for (const auto& vs : a.values) try {
                            if (!topologies_.count(vs[k])) topologies_.emplace(vs[k], sc::load_topology_file(vs[k]));
                        } catch (const std::exception& e) {
                            throw StudyError(fmt::format("axis topology: {}", e.what()));
                        }
    }

    // A point's parameters: the defaults (of its topology), its preset (the `preset` axis's value,
    // else the study's), the base --set list.
    ParamSet base_for(const std::string& preset, const std::string& topology = "") const {
        if (preset == s_.preset && topology.empty()) return base_;
        ParamSet p = topology.empty() ? sc::default_params() : sc::default_params(topologies_.at(topology));
        if (!preset.empty()) apply_preset(p, preset);
        for (const auto& kv : s_.sets) p.apply_set(kv);
        return p;
    }

    // Every axis key and value, on the base.
    void check_axes() const {
        std::set<std::string> seen;
        for (const Axis& a : s_.axes) {
            for (size_t k = 0; k < a.keys.size(); ++k) {
                if (!seen.insert(a.keys[k]).second)
                    throw StudyError(
                        fmt::format("axis {}: the key is on two axes (zip them to vary them together)", a.keys[k]));
                if (a.values.empty()) throw StudyError(fmt::format("axis {}: no values (an empty axis)", a.keys[k]));
                for (const auto& vs : a.values) try {
                        if (a.keys[k] == "preset") {
                            base_for(vs[k]);
                        } else if (a.keys[k] == "topology") {
                            base_for(s_.preset, vs[k]);
                        } else {
                            ParamSet p = base_;
                            p.apply_set(a.keys[k] + "=" + vs[k]);
                        }
                    } catch (const std::exception& e) {
                        throw StudyError(fmt::format("axis {}: {}", a.keys[k], e.what()));
                    }
            }
        }
    }

    // Every scene loads (a malformed scene is bad input; a scene whose commands fail is a failed point).
    void hash_scenes() {
        for (const auto& sc : s_.scenes) {
            try {
                scene_hash_.push_back(scene::load_hashed_scene(sc).hash);
            } catch (const std::exception& e) {
                throw StudyError(fmt::format("scene {}: {}", sc, e.what()));
            }
        }
    }

    // Combination c's value index on every axis: mixed radix, the first axis varies slowest.
    std::vector<size_t> axis_indices(size_t c) const {
        std::vector<size_t> idx(s_.axes.size());
        for (size_t ai = s_.axes.size(); ai-- > 0;) {
            idx[ai] = c % s_.axes[ai].values.size();
            c /= s_.axes[ai].values.size();
        }
        return idx;
    }

    std::vector<Point> points(const std::string& out_dir, const std::string& exe) const {
        const std::string identity = binary_identity(exe);
        std::vector<Point> pts;
        size_t combos = 1;
        for (const Axis& a : s_.axes) combos *= a.values.size();
        for (size_t si = 0; si < s_.scenes.size(); ++si)
            for (size_t c = 0; c < combos; ++c) add_combination(si, axis_indices(c), out_dir, exe, identity, pts);
        return pts;
    }

    // The points (one per repeat) of scene `si` at one combination of axis values.
    void add_combination(size_t si, const std::vector<size_t>& idx, const std::string& out_dir, const std::string& exe,
                         const std::string& identity, std::vector<Point>& pts) const {
        std::string preset = s_.preset, topology;
        std::vector<std::pair<std::string, std::string>> av;
        for (size_t ai = 0; ai < s_.axes.size(); ++ai)
            for (size_t k = 0; k < s_.axes[ai].keys.size(); ++k) {
                av.emplace_back(s_.axes[ai].keys[k], s_.axes[ai].values[idx[ai]][k]);
                if (av.back().first == "preset") preset = av.back().second;
                if (av.back().first == "topology") topology = av.back().second;
            }
        ParamSet params = base_;
        try {
            params = base_for(preset, topology);
        } catch (const std::exception& e) {
            throw StudyError(fmt::format("topology {}: base --set: {}", topology, e.what()));
        }
        for (const auto& [k, v] : av)
            if (k != "preset" && k != "topology") params.apply_set(k + "=" + v);
        for (unsigned r = 0; r < s_.repeats; ++r) {
            Point p;
            p.index = pts.size();
            p.scene = s_.scenes[si];
            p.repeat = r;
            p.axis_values = av;
            for (const auto& [k, v] : av)
                p.axis_json[k] = k == "preset" || k == "topology" ? nlohmann::json(v) : params.value(k);
            PointInputs in;
            in.scene = p.scene;
            in.scene_hash = scene_hash_[si];
            if (s_.draws) in.scene_hash += fmt::format(" draws={}", s_.draws);  // a window is another input
            in.params_json = params.to_json().dump();
            if (!topology.empty()) in.topology = topologies_.at(topology).text;
            in.profile = s_.profile;
            in.tess_profile = s_.tess_profile;
            in.binary = identity;
            in.sample = s_.sample;
            in.repeat = r;
            p.hash = point_hash(in);
            p.dir = (fs::path(out_dir) / "points" / p.hash).string();
            p.argv = point_argv(exe, p, preset, topology);
            pts.push_back(std::move(p));
        }
    }

    // The point's `vpsim run` command line.
    std::vector<std::string> point_argv(const std::string& exe, const Point& p, const std::string& preset,
                                        const std::string& topology) const {
        std::vector<std::string> argv = {exe, "run", p.scene, "--out", p.dir, "--quiet", "--no-progress"};
        if (!preset.empty()) argv.insert(argv.end(), {"--preset", preset});
        if (s_.draws) argv.insert(argv.end(), {"--draws", std::to_string(s_.draws)});
        if (!topology.empty()) argv.insert(argv.end(), {"--topology-file", topology});
        for (const auto& kv : s_.sets) argv.insert(argv.end(), {"--set", kv});
        for (const auto& [k, v] : p.axis_values)
            if (k != "preset" && k != "topology") argv.insert(argv.end(), {"--set", k + "=" + v});
        for (const auto& x : s_.profile) argv.insert(argv.end(), {"--profile", x});
        for (const auto& x : s_.tess_profile) argv.insert(argv.end(), {"--tess-profile", x});
        argv.insert(argv.end(), s_.sample.begin(), s_.sample.end());
        return argv;
    }

    const Study& s_;
    ParamSet base_ = sc::default_params();
    std::map<std::string, sc::Topology> topologies_;
    std::vector<std::string> scene_hash_;
};

}  // namespace

std::vector<Point> resolve_points(const Study& s, const std::string& out_dir, const std::string& exe) {
    return Resolver(s).run(out_dir, exe);
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
    if (!s.sample.empty()) base["sample"] = s.sample;  // absent: every point in full
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
    if (fs::is_regular_file(fs::path(p.dir) / p.done_file, ec)) return PointState::Done;
    bool ok = false;
    const std::string st = read_text((fs::path(p.dir) / "exit_status").string(), &ok);
    if (!ok || st.empty()) return PointState::Missing;
    if (exit_status) *exit_status = std::atoi(st.c_str());
    if (message) {
        std::string err = read_text((fs::path(p.dir) / "stderr.txt").string());
        while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
        if (err.empty()) err = std::atoi(st.c_str()) == 0 ? "exited 0 without writing " + p.done_file : "(no message)";
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


}  // namespace vpsim::study
