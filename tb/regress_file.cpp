#include "tb/regress_file.h"

#include "model/common/file_util.h"
#include "model/common/json_error.h"
#include "model/common/json_offsets.h"
#include "model/common/printable.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <set>

namespace vpsim::tb {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The deepest value a message names: "/groups/0/rtl/1/files/2".
constexpr size_t kDepth = 6;

bool valid_name(const std::string& s) {
    return !s.empty() && s.size() <= 64 && std::all_of(s.begin(), s.end(), [](char c) {
               return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
                      c == '.';
           });
}

bool identifier(const std::string& s) {
    return !s.empty() && s.size() <= 64 && !(s[0] >= '0' && s[0] <= '9') && std::all_of(s.begin(), s.end(), [](char c) {
               return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
           });
}

std::string shown(const json& v) {
    if (v.is_structured()) return fmt::format("an {}", v.type_name());
    return printable(v.dump(), 60);
}

class Reader {
public:
    Reader(const std::string& text, const std::string& source, const std::string& base)
        : source_(source), base_(base), offsets_(text, kDepth), lines_(text) {}

    [[noreturn]] void fail(const std::string& ptr, const std::string& rule) const {
        // The value's own position, else its nearest ancestor's.
        std::string p = ptr;
        auto it = offsets_.at.find(p);
        while (it == offsets_.at.end() && !p.empty()) {
            p = p.substr(0, p.rfind('/'));
            it = offsets_.at.find(p);
        }
        throw RegressError(fmt::format("{}:{}: {}: {}", source_, lines_.at(it == offsets_.at.end() ? 0 : it->second),
                                       ptr.empty() ? "(the file)" : ptr, rule));
    }
    void keys(const json& o, const std::string& ptr, std::initializer_list<const char*> allowed) const {
        if (!o.is_object()) fail(ptr, fmt::format("expected an object, got {}", shown(o)));
        for (const auto& item : o.items()) {
            const std::string& k = item.key();
            if (std::none_of(allowed.begin(), allowed.end(), [&k](const char* a) { return k == a; })) {
                std::string valid;
                for (const char* a : allowed) valid += (valid.empty() ? "" : ", ") + std::string(a);
                fail(ptr + "/" + json_pointer_escape(k), fmt::format("unknown member \"{}\" (valid here: {})", printable(k, 60), valid));
            }
        }
    }
    std::string name(const json& o, const std::string& ptr, const char* what) const {
        if (!o.contains("name")) fail(ptr, fmt::format("missing member \"name\" (every {} has one)", what));
        const json& v = o["name"];
        if (!v.is_string() || !valid_name(v.get<std::string>()))
            fail(ptr + "/name", fmt::format("a {} name is 1-64 letters, digits, '_', '-' or '.', got {}", what, shown(v)));
        return v.get<std::string>();
    }
    uint64_t count(const json& v, const std::string& ptr, uint64_t lo, uint64_t hi) const {
        if (!v.is_number_unsigned() || v.get<uint64_t>() < lo || v.get<uint64_t>() > hi)
            fail(ptr, fmt::format("expected an integer {} .. {}, got {}", lo, hi, shown(v)));
        return v.get<uint64_t>();
    }
    bool flag(const json& v, const std::string& ptr) const {
        if (!v.is_boolean()) fail(ptr, fmt::format("expected true or false, got {}", shown(v)));
        return v.get<bool>();
    }
    std::vector<uint64_t> seeds(const json& v, const std::string& ptr) const {
        std::vector<uint64_t> s;
        if (v.is_object()) {
            keys(v, ptr, {"first", "count"});
            if (!v.contains("first") || !v.contains("count")) fail(ptr, "a seed range has \"first\" and \"count\"");
            const uint64_t first = count(v["first"], ptr + "/first", 0, UINT64_MAX);
            const uint64_t n = count(v["count"], ptr + "/count", 1, 10000);
            if (first > UINT64_MAX - (n - 1)) fail(ptr + "/count", "the range goes beyond 2^64-1");
            for (uint64_t i = 0; i < n; ++i) s.push_back(first + i);
            return s;
        }
        if (!v.is_array() || v.empty())
            fail(ptr, fmt::format("\"seeds\" is a non-empty array of seeds or {{\"first\": S, \"count\": N}}, got {}", shown(v)));
        std::set<uint64_t> seen;
        for (size_t i = 0; i < v.size(); ++i) {
            const std::string p = fmt::format("{}/{}", ptr, i);
            const uint64_t x = count(v[i], p, 0, UINT64_MAX);
            if (!seen.insert(x).second) fail(p, fmt::format("seed {} is listed twice", x));
            s.push_back(x);
        }
        return s;
    }
    std::string path(const json& v, const std::string& ptr) const {
        if (!v.is_string() || v.get<std::string>().empty()) fail(ptr, fmt::format("expected a file name, got {}", shown(v)));
        fs::path p(v.get<std::string>());
        if (p.is_relative()) p = fs::path(base_) / p;
        std::error_code ec;
        if (!fs::is_regular_file(p, ec))
            fail(ptr, fmt::format("{}: no such file (relative names are taken from the regression file's folder)",
                                  printable(p.lexically_normal().string())));
        // Absolute: a run may start elsewhere (a Slurm job runs in the regression's folder).
        return fs::absolute(p, ec).lexically_normal().string();
    }

private:
    const std::string& source_;
    std::string base_;
    JsonOffsets offsets_;
    TextLines lines_;
};

// A non-empty array whose elements are objects with unique names (rtl, profiles).
void named_list(const Reader& r, const json& v, const std::string& ptr, const char* key) {
    if (!v.is_array() || v.empty()) r.fail(ptr, fmt::format("\"{}\" is a non-empty array, got {}", key, shown(v)));
}

std::vector<RegressRtl> read_rtl(const Reader& r, const json& v, const std::string& ptr) {
    named_list(r, v, ptr, "rtl");
    std::vector<RegressRtl> out;
    std::set<std::string> names;
    for (size_t i = 0; i < v.size(); ++i) {
        const std::string p = fmt::format("{}/{}", ptr, i);
        r.keys(v[i], p, {"name", "files", "top"});
        RegressRtl d;
        d.name = r.name(v[i], p, "design");
        if (!names.insert(d.name).second) r.fail(p + "/name", fmt::format("design \"{}\" is named twice", d.name));
        if (v[i].contains("files")) {
            const json& f = v[i]["files"];
            if (!f.is_array() || f.empty()) r.fail(p + "/files", fmt::format("\"files\" is a non-empty array of file names, got {}", shown(f)));
            for (size_t k = 0; k < f.size(); ++k) d.files.push_back(r.path(f[k], fmt::format("{}/files/{}", p, k)));
        }
        if (v[i].contains("top")) {
            if (d.files.empty()) r.fail(p + "/top", "\"top\" needs \"files\" (the built-in design's top is known)");
            const json& t = v[i]["top"];
            if (!t.is_string() || !identifier(t.get<std::string>()))
                r.fail(p + "/top", fmt::format("\"top\" is a module name (letters, digits, '_'), got {}", shown(t)));
            d.top = t.get<std::string>();
        }
        out.push_back(std::move(d));
    }
    return out;
}

std::vector<RegressParams> read_params(const Reader& r, const json& v, const std::string& ptr) {
    if (!v.is_array() || v.empty())
        r.fail(ptr, fmt::format("\"params\" is a non-empty array of objects NAME: VALUE (one -G set each; {{}} the design's "
                                "defaults), got {}",
                                shown(v)));
    std::vector<RegressParams> out;
    std::set<std::string> labels;
    for (size_t i = 0; i < v.size(); ++i) {
        const std::string p = fmt::format("{}/{}", ptr, i);
        if (!v[i].is_object()) r.fail(p, fmt::format("a -G set is an object NAME: VALUE, got {}", shown(v[i])));
        RegressParams set;
        for (const auto& item : v[i].items()) {
            const std::string kp = p + "/" + json_pointer_escape(item.key());
            if (!identifier(item.key()))
                r.fail(kp, fmt::format("parameter name \"{}\": a name is letters, digits and '_'", printable(item.key(), 60)));
            const json& x = item.value();
            std::string text;
            if (x.is_number_integer())
                text = x.dump();
            else if (x.is_string() && !x.get<std::string>().empty() &&
                     x.get<std::string>().find_first_of(" \t\n\r\"\\=") == std::string::npos)
                text = x.get<std::string>();
            else
                r.fail(kp, fmt::format("a parameter value is an integer or a string without spaces, quotes or '=', got {}", shown(x)));
            set.emplace_back(item.key(), text);
        }
        if (!labels.insert(params_label(set)).second) r.fail(p, fmt::format("the -G set {} is listed twice", params_label(set)));
        out.push_back(std::move(set));
    }
    return out;
}

std::vector<RegressProfile> read_profiles(const Reader& r, const json& v, const std::string& ptr, const std::string& unit) {
    named_list(r, v, ptr, "profiles");
    const bool vf = unit == "vertex_fetch";
    std::vector<RegressProfile> out;
    std::set<std::string> names;
    for (size_t i = 0; i < v.size(); ++i) {
        const std::string p = fmt::format("{}/{}", ptr, i);
        if (vf)
            r.keys(v[i], p, {"name", "out_ready", "req_ready", "idx_valid", "latency_min", "latency_max"});
        else
            r.keys(v[i], p, {"name", "out_ready", "in_valid"});
        RegressProfile prof;
        prof.name = r.name(v[i], p, "profile");
        if (!names.insert(prof.name).second) r.fail(p + "/name", fmt::format("profile \"{}\" is named twice", prof.name));
        for (const auto& item : v[i].items()) {
            const std::string& k = item.key();
            if (k == "name") continue;
            const std::string kp = p + "/" + k;
            std::string flag = "--" + k;
            std::replace(flag.begin(), flag.end(), '_', '-');
            if (k.rfind("latency", 0) == 0) {
                prof.options.emplace_back(flag, std::to_string(r.count(item.value(), kp, 1, 100000)));
            } else {
                const json& x = item.value();
                if (!x.is_number() || x.get<double>() < 0.05 || x.get<double>() > 1.0)
                    r.fail(kp, fmt::format("\"{}\" is a probability 0.05 .. 1 (a cycle's chance), got {}", k, shown(x)));
                prof.options.emplace_back(flag, fmt::format("{}", x.get<double>()));
            }
        }
        const json& o = v[i];
        if (o.contains("latency_min") && o.contains("latency_max") && o["latency_min"].get<uint64_t>() > o["latency_max"].get<uint64_t>())
            r.fail(p + "/latency_max", "\"latency_max\" is below \"latency_min\"");
        out.push_back(std::move(prof));
    }
    return out;
}

RegressGroup read_group(const Reader& r, const json& g, const std::string& p, const RegressGroup& defaults) {
    r.keys(g, p, {"name", "unit", "seeds", "random", "code_coverage", "directed", "stream", "bins", "rtl", "params", "profiles"});
    RegressGroup grp = defaults;
    grp.name = r.name(g, p, "group");
    if (!g.contains("unit")) r.fail(p, "missing member \"unit\" (decl_decoder or vertex_fetch)");
    if (!g["unit"].is_string() || (g["unit"] != "decl_decoder" && g["unit"] != "vertex_fetch"))
        r.fail(p + "/unit", fmt::format("\"unit\" is decl_decoder or vertex_fetch, got {}", shown(g["unit"])));
    grp.unit = g["unit"].get<std::string>();
    if (g.contains("seeds")) grp.seeds = r.seeds(g["seeds"], p + "/seeds");
    if (g.contains("random")) grp.random = r.count(g["random"], p + "/random", 1, uint64_t(1) << 40);
    if (g.contains("code_coverage")) grp.code_coverage = r.flag(g["code_coverage"], p + "/code_coverage");
    if (g.contains("directed")) grp.directed = r.flag(g["directed"], p + "/directed");
    // Either unit: xcheck --stream K (the decoder's arrays, the fetch's draws back to back).
    if (g.contains("stream")) grp.stream = r.count(g["stream"], p + "/stream", 2, 1000000);
    if (g.contains("bins")) grp.bins = r.path(g["bins"], p + "/bins");  // either unit (fetch bins: the vertex fetch)
    grp.rtl = g.contains("rtl") ? read_rtl(r, g["rtl"], p + "/rtl") : std::vector<RegressRtl>{{"builtin", {}, ""}};
    grp.params = g.contains("params") ? read_params(r, g["params"], p + "/params") : std::vector<RegressParams>{{}};
    grp.profiles = g.contains("profiles") ? read_profiles(r, g["profiles"], p + "/profiles", grp.unit)
                                          : std::vector<RegressProfile>{{"default", {}}};
    if (grp.seeds.empty()) r.fail(p, "no seeds: give \"seeds\" here or at the top of the file");
    if (!grp.random) r.fail(p, "no \"random\" (arrays or cases per run): give it here or at the top of the file");
    return grp;
}

}  // namespace

std::string params_label(const RegressParams& p) {
    if (p.empty()) return "defaults";
    std::string s;
    for (const auto& [k, v] : p) s += (s.empty() ? "" : ",") + k + "=" + v;
    return s;
}

Regression parse_regression(const std::string& text, const std::string& source, const std::string& base_dir) {
    json j;
    try {
        j = parse_json_file(text, source);
    } catch (const std::exception& e) {
        throw RegressError(e.what());
    }
    const Reader r(text, source, base_dir);
    r.keys(j, "", {"schema", "name", "description", "seeds", "random", "code_coverage", "groups"});
    if (!j.contains("schema") || j["schema"] != "vpsim-regress-1")
        r.fail(j.contains("schema") ? "/schema" : "", "\"schema\" must be \"vpsim-regress-1\"");
    Regression reg;
    reg.name = j.contains("name") ? r.name(j, "", "regression") : fs::path(source).stem().string();
    RegressGroup defaults;
    if (j.contains("seeds")) defaults.seeds = r.seeds(j["seeds"], "/seeds");
    if (j.contains("random")) defaults.random = r.count(j["random"], "/random", 1, uint64_t(1) << 40);
    if (j.contains("code_coverage")) defaults.code_coverage = r.flag(j["code_coverage"], "/code_coverage");
    if (!j.contains("groups")) r.fail("", "missing member \"groups\" (an array of run groups)");
    const json& gs = j["groups"];
    if (!gs.is_array() || gs.empty()) r.fail("/groups", fmt::format("\"groups\" is a non-empty array, got {}", shown(gs)));
    std::set<std::string> names;
    uint64_t runs = 0;
    for (size_t i = 0; i < gs.size(); ++i) {
        const std::string p = fmt::format("/groups/{}", i);
        RegressGroup g = read_group(r, gs[i], p, defaults);
        if (!names.insert(g.name).second) r.fail(p + "/name", fmt::format("group \"{}\" is named twice", g.name));
        runs += uint64_t(g.rtl.size()) * g.params.size() * g.profiles.size() * g.seeds.size();
        if (runs > kMaxRegressRuns)
            r.fail(p, fmt::format("the file describes more than {} runs (each is a process); split it", kMaxRegressRuns));
        reg.groups.push_back(std::move(g));
    }
    return reg;
}

Regression load_regression(const std::string& path) {
    std::string text, why;
    if (!read_input_file(path, text, why)) throw RegressError(path + ": " + why);
    const fs::path parent = fs::path(path).parent_path();
    return parse_regression(text, path, parent.empty() ? "." : parent.string());
}

}  // namespace vpsim::tb
