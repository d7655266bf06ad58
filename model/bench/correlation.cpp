#include "model/bench/correlation.h"

#include "model/common/file_util.h"
#include "model/common/json_error.h"
#include "model/common/params.h"
#include "model/common/presets.h"
#include "model/sc/pipeline.h"
#include "model/scene/scene.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

namespace vpsim::bench {

const char* const kSplitRule =
    "figure k (its 1-based position in the measurements file, where figures are only ever appended) is held out "
    "when k is a multiple of 3; the others are the fit set";

const char* measure_name(Measure m) {
    return m == Measure::TrianglesPerSecond ? "triangles_per_second" : "frames_per_second";
}
const char* comparison_name(Comparison c) { return c == Comparison::Rate ? "rate" : "upper_bound"; }

bool split_holdout(size_t index) { return (index + 1) % 3 == 0; }

namespace {

using json = nlohmann::json;

struct Reader {
    std::string file;
    [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
        throw MeasurementError(fmt::format("{}: {}: {}", file, pointer.empty() ? "/" : pointer, what));
    }
    void keys(const json& j, const std::string& ptr, const std::vector<std::string>& valid) const {
        for (auto it = j.begin(); it != j.end(); ++it) {
            const std::string& k = it.key();
            if (k == "comment" || (!k.empty() && k[0] == '_')) continue;  // notes, as in scenes
            if (std::find(valid.begin(), valid.end(), k) == valid.end())
                fail(ptr + "/" + k, fmt::format("unknown key; valid keys: {}", fmt::join(valid, ", ")));
        }
    }
    const json& need(const json& j, const std::string& ptr, const std::string& key, const char* rule) const {
        if (!j.contains(key)) fail(ptr + "/" + key, fmt::format("missing ({})", rule));
        return j[key];
    }
    std::string text(const json& j, const std::string& ptr, const std::string& key, const char* rule) const {
        const json& v = need(j, ptr, key, rule);
        if (!v.is_string() || v.get<std::string>().find_first_not_of(" \t\r\n") == std::string::npos)
            fail(ptr + "/" + key, fmt::format("expected a non-empty string ({}), found {}", rule, v.dump()));
        return v.get<std::string>();
    }
    // A string that may be null or absent (unknown): "" then.
    std::string optional_text(const json& j, const std::string& ptr, const std::string& key) const {
        if (!j.contains(key) || j[key].is_null()) return "";
        if (!j[key].is_string()) fail(ptr + "/" + key, fmt::format("expected a string or null (unknown), found {}", j[key].dump()));
        return j[key].get<std::string>();
    }
    double positive(const json& j, const std::string& ptr, const std::string& key, const char* rule) const {
        const json& v = need(j, ptr, key, rule);
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() <= 0)
            fail(ptr + "/" + key, fmt::format("expected a positive number ({}), found {}", rule, v.dump()));
        return v.get<double>();
    }
    void url(const std::string& u, const std::string& ptr) const {
        if ((u.rfind("http://", 0) != 0 && u.rfind("https://", 0) != 0) || u.find_first_of(" \t\r\n") != std::string::npos)
            fail(ptr, fmt::format("expected the address of the page the figure was read from (http:// or https://, "
                                  "no spaces), found \"{}\"",
                                  u));
    }
};

// The scene's draws are all triangles (lists, strips or fans), so its primitives are triangles;
// "" or the pointer and name of the first draw that is not.
std::string non_triangle_draw(const scene::Scene& sc) {
    using pipe::PrimitiveType;
    auto tri = [](PrimitiveType t) {
        return t == PrimitiveType::TriangleList || t == PrimitiveType::TriangleStrip || t == PrimitiveType::TriangleFan;
    };
    for (const scene::Command& c : sc.commands) {
        if (const auto* d = std::get_if<scene::DrawPrimitive>(&c.body); d && !tri(d->type)) return c.pointer;
        if (const auto* d = std::get_if<scene::DrawIndexedPrimitive>(&c.body); d && !tri(d->type)) return c.pointer;
        if (std::holds_alternative<scene::DrawRectPatch>(c.body) || std::holds_alternative<scene::DrawTriPatch>(c.body))
            return c.pointer;
    }
    return "";
}

bool valid_date(const std::string& d) {
    auto digits = [&](size_t from, size_t n) {
        if (d.size() < from + n) return false;
        for (size_t i = from; i < from + n; ++i)
            if (d[i] < '0' || d[i] > '9') return false;
        return true;
    };
    if (!digits(0, 4)) return false;
    if (d.size() == 4) return true;
    if (d.size() < 7 || d[4] != '-' || !digits(5, 2)) return false;
    const int month = std::stoi(d.substr(5, 2));
    if (month < 1 || month > 12) return false;
    if (d.size() == 7) return true;
    if (d.size() != 10 || d[7] != '-' || !digits(8, 2)) return false;
    const int day = std::stoi(d.substr(8, 2));
    return day >= 1 && day <= 31;
}

bool valid_id(const std::string& id) {
    if (id.empty() || !((id[0] >= 'a' && id[0] <= 'z') || (id[0] >= '0' && id[0] <= '9'))) return false;
    for (char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.')) return false;
    return true;
}

// The quote must show the figure: its value written with 0 to 3 decimals ("49.7" as "49.70").
bool quote_shows(const std::string& quote, double value) {
    for (int decimals = 0; decimals <= 3; ++decimals) {
        const std::string s = fmt::format("{:.{}f}", value, decimals);
        if (std::fabs(std::stod(s) - value) > 1e-9 * std::max(1.0, std::fabs(value))) continue;  // not this precision
        for (size_t at = quote.find(s); at != std::string::npos; at = quote.find(s, at + 1)) {
            // A whole number in the text: not a part of a longer one ("6.3" in "16.35").
            const bool before = at > 0 && (std::isdigit(static_cast<unsigned char>(quote[at - 1])) || quote[at - 1] == '.');
            const size_t end = at + s.size();
            const bool after = end < quote.size() &&
                               (std::isdigit(static_cast<unsigned char>(quote[end])) ||
                                (quote[end] == '.' && end + 1 < quote.size() &&
                                 std::isdigit(static_cast<unsigned char>(quote[end + 1]))));
            if (!before && !after) return true;
        }
    }
    return false;
}

}  // namespace

Measurements parse_measurements(const json& j, const std::string& path) {
    const Reader r{path};
    if (!j.is_object()) r.fail("", "expected an object {\"schema\", \"figures\", \"context\"}");
    r.keys(j, "", {"schema", "description", "figures", "context"});
    const json& schema = r.need(j, "", "schema", "the file's format");
    if (schema != "vpsim-measurements-1")
        r.fail("/schema", fmt::format("expected \"vpsim-measurements-1\", found {}", schema.dump()));
    if (j.contains("description") && !j["description"].is_string()) r.fail("/description", "expected a string");
    const json& figs = r.need(j, "", "figures", "the measured figures");
    if (!figs.is_array() || figs.empty()) r.fail("/figures", "expected a non-empty array of measured figures");

    Measurements out;
    out.path = path;
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    std::set<std::string> ids;
    for (size_t i = 0; i < figs.size(); ++i) {
        const std::string ptr = fmt::format("/figures/{}", i);
        const json& f = figs[i];
        if (!f.is_object()) r.fail(ptr, "expected an object (one measured figure)");
        r.keys(f, ptr,
               {"id", "test", "test_kind", "chip", "core_mhz", "board", "driver", "system", "settings", "value", "unit",
                "unit_scale", "measure", "triangles_per_frame", "triangles_per_frame_source", "comparison", "url",
                "quote", "date", "preset", "sets", "scene", "notes"});
        Measurement m;
        m.index = i;
        m.holdout = split_holdout(i);
        m.id = r.text(f, ptr, "id", "a unique name: lower-case letters, digits, '-' and '.'");
        if (!valid_id(m.id))
            r.fail(ptr + "/id", fmt::format("\"{}\": only lower-case letters, digits, '-' and '.', starting with a "
                                            "letter or digit",
                                            m.id));
        if (!ids.insert(m.id).second) r.fail(ptr + "/id", fmt::format("\"{}\" names another figure too: ids are unique", m.id));
        m.test = r.text(f, ptr, "test", "the named test the figure was measured with");
        m.test_kind = r.text(f, ptr, "test_kind", "the family of tests it belongs to");
        m.chip = r.text(f, ptr, "chip", "the chip measured");
        m.core_mhz = r.positive(f, ptr, "core_mhz", "the chip's core clock in MHz");
        m.board = r.optional_text(f, ptr, "board");
        m.driver = r.optional_text(f, ptr, "driver");
        m.system = r.optional_text(f, ptr, "system");
        m.settings = r.optional_text(f, ptr, "settings");
        m.notes = r.optional_text(f, ptr, "notes");
        m.value = r.positive(f, ptr, "value", "the measured value, in `unit`");
        m.unit = r.text(f, ptr, "unit", "the unit the value is published in");
        m.unit_scale = r.positive(f, ptr, "unit_scale", "per-second units in one `unit`: 1e6 for M triangles/s, 1 for fps");
        const std::string measure = r.text(f, ptr, "measure", "triangles_per_second or frames_per_second");
        if (measure == "triangles_per_second")
            m.measure = Measure::TrianglesPerSecond;
        else if (measure == "frames_per_second")
            m.measure = Measure::FramesPerSecond;
        else
            r.fail(ptr + "/measure", fmt::format("expected \"triangles_per_second\" or \"frames_per_second\", found \"{}\"", measure));
        if (m.measure == Measure::FramesPerSecond) {
            const double t = r.positive(f, ptr, "triangles_per_frame",
                                        "a frame rate is converted through the test's triangles per frame");
            if (t != std::floor(t)) r.fail(ptr + "/triangles_per_frame", fmt::format("expected a whole number, found {}", t));
            m.triangles_per_frame = t;
            m.triangles_per_frame_source =
                r.text(f, ptr, "triangles_per_frame_source", "where the triangles per frame were published");
        } else {
            for (const char* k : {"triangles_per_frame", "triangles_per_frame_source"})
                if (f.contains(k))
                    r.fail(ptr + "/" + k, "only a frame rate (measure \"frames_per_second\") has triangles per frame");
        }
        const std::string comparison = r.text(f, ptr, "comparison", "rate or upper_bound");
        if (comparison == "rate")
            m.comparison = Comparison::Rate;
        else if (comparison == "upper_bound")
            m.comparison = Comparison::UpperBound;
        else
            r.fail(ptr + "/comparison", fmt::format("expected \"rate\" (a throughput test) or \"upper_bound\" (the vertex "
                                                    "pipeline is one of several limits), found \"{}\"",
                                                    comparison));
        m.url = r.text(f, ptr, "url", "every figure names the page it was read from");
        r.url(m.url, ptr + "/url");
        m.quote = r.text(f, ptr, "quote", "every figure quotes the sentence or table row it was read from");
        if (!quote_shows(m.quote, m.value))
            r.fail(ptr + "/quote", fmt::format("the quote does not show the value {:g}: it must be the sentence or table "
                                               "row the figure was read from",
                                               m.value));
        m.date = r.text(f, ptr, "date", "when it was published: YYYY, YYYY-MM or YYYY-MM-DD");
        if (!valid_date(m.date))
            r.fail(ptr + "/date", fmt::format("expected YYYY, YYYY-MM or YYYY-MM-DD, found \"{}\"", m.date));
        m.preset = r.text(f, ptr, "preset", "the preset the chip maps to");
        std::vector<std::string> names;
        for (const Preset& p : presets()) names.push_back(p.name);
        if (std::find(names.begin(), names.end(), m.preset) == names.end())
            r.fail(ptr + "/preset", fmt::format("no such preset \"{}\"; valid presets: {}", m.preset, fmt::join(names, ", ")));
        if (f.contains("sets")) {
            const json& s = f["sets"];
            if (!s.is_array()) r.fail(ptr + "/sets", "expected an array of \"unit.param=value\" strings");
            for (size_t k = 0; k < s.size(); ++k) {
                const std::string sp = fmt::format("{}/sets/{}", ptr, k);
                if (!s[k].is_string() || s[k].get<std::string>().find('=') == std::string::npos)
                    r.fail(sp, fmt::format("expected \"unit.param=value\", found {}", s[k].dump()));
                const std::string v = s[k].get<std::string>();
                if (v.rfind("pipeline.clock_mhz=", 0) == 0)
                    r.fail(sp, "the clock comes from core_mhz (the chip's clock is set when it differs from the preset's)");
                m.sets.push_back(v);
            }
        }
        m.scene = r.text(f, ptr, "scene", "the scene that rebuilds the test, relative to this file");
        m.scene_path = (dir / m.scene).lexically_normal().string();
        out.figures.push_back(std::move(m));
    }
    if (j.contains("context")) {
        const json& c = j["context"];
        if (!c.is_array()) r.fail("/context", "expected an array of figures that are not rows (with the reason)");
        for (size_t i = 0; i < c.size(); ++i) {
            const std::string ptr = fmt::format("/context/{}", i);
            if (!c[i].is_object()) r.fail(ptr, "expected an object {\"id\", \"what\", \"url\", \"quote\", \"why\"}");
            r.keys(c[i], ptr, {"id", "what", "url", "quote", "why"});
            ContextFigure x;
            x.id = r.text(c[i], ptr, "id", "a unique name");
            if (!ids.insert(x.id).second)
                r.fail(ptr + "/id", fmt::format("\"{}\" names another figure too: ids are unique", x.id));
            x.what = r.text(c[i], ptr, "what", "the figure and its chip");
            x.url = r.text(c[i], ptr, "url", "the page it was read from");
            r.url(x.url, ptr + "/url");
            x.quote = r.text(c[i], ptr, "quote", "the sentence or table row");
            x.why = r.text(c[i], ptr, "why", "why it is not a row");
            out.context.push_back(std::move(x));
        }
    }
    return out;
}

Measurements load_measurements(const std::string& path) {
    std::string text, why;
    if (!read_input_file(path, text, why)) throw MeasurementError(path + ": " + why);
    json j;
    try {
        j = parse_json_located(text);
    } catch (const std::runtime_error& e) {
        throw MeasurementError(path + ": " + e.what());
    }
    return parse_measurements(j, path);
}

std::vector<CorrelationRow> correlate(const Measurements& data, const std::vector<std::string>& sets) {
    std::map<std::string, scene::Scene> scenes;  // a scene shared by several figures is read once
    std::vector<CorrelationRow> rows;
    for (const Measurement& m : data.figures) {
        const std::string ptr = fmt::format("{}: /figures/{}", data.path, m.index);
        CorrelationRow row;
        row.m = m;
        ParamSet params = sc::default_params();
        apply_preset(params, m.preset);
        if (params.value("pipeline.clock_mhz").get<double>() != m.core_mhz) try {
                row.sets.push_back(fmt::format("pipeline.clock_mhz={:g}", m.core_mhz));
                params.apply_set(row.sets.back());
            } catch (const ParamError& e) {
                throw MeasurementError(fmt::format("{}/core_mhz: {}", ptr, e.what()));
            }
        for (size_t k = 0; k < m.sets.size(); ++k) try {
                params.apply_set(m.sets[k]);
                row.sets.push_back(m.sets[k]);
            } catch (const ParamError& e) {
                throw MeasurementError(fmt::format("{}/sets/{}: {}", ptr, k, e.what()));
            }
        for (const std::string& s : sets) params.apply_set(s);  // --set: a ParamError of its own
        auto it = scenes.find(m.scene_path);
        if (it == scenes.end()) try {
                it = scenes.emplace(m.scene_path, scene::load_scene(m.scene_path)).first;
            } catch (const scene::SceneError& e) {
                throw MeasurementError(fmt::format("{}/scene: {}", ptr, e.what()));
            }
        if (const std::string bad = non_triangle_draw(it->second); !bad.empty())
            throw MeasurementError(fmt::format("{}/scene: {}: {}: only triangle draws (lists, strips, fans): the model's "
                                               "figure is triangles per second",
                                               ptr, m.scene_path, bad));
        sc::RunResult r;
        try {
            r = sc::run_pipeline(it->second, params, vs::Profile::d3d8());
        } catch (const scene::SceneError& e) {
            throw MeasurementError(fmt::format("{}/scene: {}", ptr, e.what()));
        }
        if (!r.cycle_errors.empty()) throw std::logic_error("correlate: statistics do not add up (internal error)");
        if (r.cycles == 0 || r.count("primitives") == 0)
            throw MeasurementError(fmt::format("{}/scene: {} draws no triangles", ptr, m.scene_path));
        row.clock_mhz = r.clock_mhz;
        row.cycles = r.cycles;
        row.triangles = r.count("primitives");
        row.shaded = r.count("shaded");
        row.triangles_per_second = double(r.count("primitives")) * r.clock_mhz * 1e6 / double(r.cycles);
        const double per_second = m.measure == Measure::TrianglesPerSecond
                                      ? row.triangles_per_second
                                      : row.triangles_per_second / m.triangles_per_frame;
        row.model = per_second / m.unit_scale;
        row.error = (row.model - m.value) / m.value;
        row.within = m.comparison == Comparison::Rate ? std::fabs(row.error) <= kTolerance : row.model >= m.value;
        row.bottleneck = r.bottleneck;
        rows.push_back(std::move(row));
    }
    return rows;
}

CorrelationSummary summarise(const std::vector<CorrelationRow>& rows) {
    CorrelationSummary s;
    std::set<std::string> kinds;
    for (const auto& r : rows) {
        SetSummary& set = r.m.holdout ? s.holdout : s.fit;
        if (r.m.comparison == Comparison::UpperBound) {
            ++set.bounds;
            set.bounds_held += r.within;
            continue;
        }
        ++set.rate_figures;
        set.within += r.within;
        set.mean_abs_error += std::fabs(r.error);
        ++s.rate_figures;
        kinds.insert(r.m.test_kind);
    }
    for (SetSummary* set : {&s.fit, &s.holdout})
        if (set->rate_figures) set->mean_abs_error /= double(set->rate_figures);
    s.kinds = kinds.size();
    const size_t holdout_out = s.holdout.rate_figures - s.holdout.within;
    const bool enough = s.rate_figures >= kGoalFigures, varied = s.kinds >= kGoalKinds;
    s.goal_met = enough && varied && holdout_out == 0 && s.holdout.rate_figures > 0;
    s.goal_text = fmt::format("{} rate figures (goal {}), {} kinds of test (goal {}), {} of {} holdout figures within "
                              "±{:g} % (goal all)",
                              s.rate_figures, kGoalFigures, s.kinds, kGoalKinds, s.holdout.within,
                              s.holdout.rate_figures, 100 * kTolerance);
    return s;
}

}  // namespace vpsim::bench
