// vpsim bench sensitivity (docs/calibration.md, "Sensitivity of assumed values"): how much each
// preset value whose source is "assumed" matters. For each preset and each such parameter, the
// calibration workload (bench::calibrate_preset, as `bench calibrate` runs it) and the workload
// suite (suite.h, as `bench coissue` and `bench reference` run it) at the preset's value and at
// half and double of it (an enum or a boolean: at each other value); per row the change of the
// calibration's vertex rate and of the workloads' cycles (the largest and the median), flagged
// when any result moves by more than kSensitivityThreshold (10 %) or the caps refuse a workload
// the preset's value runs.
//
// --write FILE writes model/presets/sensitivity.json (the flagged parameters with their largest
// change, one line each; the run summary names them, model/common/presets.h); --check FILE lists
// every entry that moved against it (exit 1).
#include "model/bench/calibration.h"
#include "model/cli/commands.h"
#include "model/cli/exit_status.h"
#include "model/cli/run_common.h"
#include "model/cli/suite.h"
#include "model/common/file_util.h"
#include "model/common/presets.h"
#include "model/sc/pipeline.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vpsim::cli {

namespace {
// Named too: the CLI is a unity build, and cmd_correlate.cpp has its own Row.
namespace sensitivity {

struct SensitivityArgs {
    std::string dir = "examples/workloads";
    std::vector<std::string> presets;
    std::string json, write, check;
    bool markdown = false;
};

// The preset's value: the calibration's vertex rate and every workload's cycles (or its refusal).
struct Baseline {
    double rate = 0;
    std::vector<uint64_t> cycles;      // per workload; 0 where refused
    std::vector<std::string> refused;  // per workload: the refusal, "" where it ran
};

// One changed value of a parameter and what it did.
struct Variant {
    std::string at;        // "half", "double", or the other value of an enum or boolean
    nlohmann::json value;  // the value run
    std::string note;      // "8 clamped to the maximum 4", "rounds to the preset's value"
    bool same = false;     // the preset's value after rounding or clamping: nothing run
    std::string refused;   // the model refuses the value (its message): nothing measured
    double calibration = 0;                                  // relative change of the vertex rate
    std::vector<std::pair<std::string, double>> changes;     // workload, relative change of cycles
    double largest = 0;                                      // the largest |change| of `changes`, signed
    std::string largest_on;                                  // its workload
    double median = 0;                                       // over `changes`
    std::vector<std::string> caps_refuse;  // workloads the caps refuse at this value and not at the preset's
    std::vector<std::string> caps_allow;   // workloads the preset's value refuses that run at this one
    bool moves() const {
        return std::fabs(calibration) > kSensitivityThreshold || std::fabs(largest) > kSensitivityThreshold ||
               !caps_refuse.empty();
    }
};

struct Row {
    std::string preset, param, source;
    nlohmann::json value;
    bool numeric = true;            // half and double; otherwise one row per other value
    std::vector<Variant> variants;  // half, double; or the one other value
    bool flag() const {
        for (const auto& v : variants)
            if (v.moves()) return true;
        return false;
    }
};

const ParamDef& def_of(const ParamSet& p, const std::string& key) {
    for (const ParamTable& t : p.tables())
        if (key.rfind(t.unit + ".", 0) == 0)
            if (const ParamDef* d = t.find(key.substr(t.unit.size() + 1))) return *d;
    throw std::logic_error(key + ": a preset value of no parameter (internal error)");
}

std::string value_text(const nlohmann::json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_float()) return fmt::format("{}", v.get<double>());
    return v.dump();
}

// Half and double of a numeric value: a uint or int rounded (half away from zero), then kept
// within the parameter's declared range (clamped, and the note says so).
Variant scaled(const ParamDef& d, const nlohmann::json& value, const char* at, double factor) {
    Variant v;
    v.at = at;
    const double x = value.get<double>() * factor;
    const bool integer = d.type == ParamType::Uint || d.type == ParamType::Int;
    double y = integer ? std::round(x) : x;
    const double lo = d.min.value_or(d.type == ParamType::Uint ? 0.0 : -std::numeric_limits<double>::infinity());
    const double hi = d.max.value_or(std::numeric_limits<double>::infinity());
    auto num = [](double n) { return fmt::format("{:g}", n); };
    if (y < lo) {
        v.note = fmt::format("{} clamped to the minimum {}", num(y), num(lo));
        y = lo;
    } else if (y > hi) {
        v.note = fmt::format("{} clamped to the maximum {}", num(y), num(hi));
        y = hi;
    }
    if (d.type == ParamType::Uint)
        v.value = uint64_t(y);
    else if (d.type == ParamType::Int)
        v.value = int64_t(y);
    else
        v.value = y;
    if (y == value.get<double>()) {
        v.same = true;
        v.note = v.note.empty() && x == y ? "the preset's value: not run"
                 : v.note.empty()         ? fmt::format("{} rounds to the preset's value: not run", num(x))
                                          : v.note + ", the preset's value: not run";
    }
    return v;
}

double median_of(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

class Measure {
public:
    explicit Measure(const std::vector<Workload>& suite) : suite_(suite) {}

    Baseline baseline(const Preset& pr) {
        Baseline b;
        b.rate = bench::calibrate_preset(pr).model;
        ++runs_;
        for (const auto& w : suite_) {
            const Outcome o = run_or_refuse(w, pr.name, {});
            ++runs_;
            b.cycles.push_back(o.refused.empty() ? o.result.cycles : 0);
            b.refused.push_back(o.refused);
        }
        return b;
    }

    void run(const Preset& pr, const Baseline& b, const std::string& key, Variant& v) {
        if (v.same) return;
        const std::vector<std::string> sets{key + "=" + value_text(v.value)};
        try {
            const double rate = bench::calibrate_preset(pr, sets).model;
            ++runs_;
            v.calibration = (rate - b.rate) / b.rate;
            std::vector<double> changes;
            for (size_t i = 0; i < suite_.size(); ++i) {
                const Outcome o = run_or_refuse(suite_[i], pr.name, sets);
                ++runs_;
                if (!o.refused.empty() && b.refused[i].empty()) v.caps_refuse.push_back(suite_[i].name);
                if (o.refused.empty() && !b.refused[i].empty()) v.caps_allow.push_back(suite_[i].name);
                if (!o.refused.empty() || !b.refused[i].empty() || b.cycles[i] == 0) continue;
                const double c = (double(o.result.cycles) - double(b.cycles[i])) / double(b.cycles[i]);
                v.changes.emplace_back(suite_[i].name, c);
                changes.push_back(c);
                if (std::fabs(c) > std::fabs(v.largest) || v.largest_on.empty()) {
                    v.largest = c;
                    v.largest_on = suite_[i].name;
                }
            }
            v.median = median_of(changes);
        } catch (const ParamError& e) {  // the model refuses the value (e.g. a line size not a power of two)
            v.refused = e.what();
            v.calibration = 0;
            v.changes.clear();
            v.caps_refuse.clear();
            v.caps_allow.clear();
            v.largest = v.median = 0;
            v.largest_on.clear();
        }
    }

    uint64_t runs() const { return runs_; }

private:
    const std::vector<Workload>& suite_;
    uint64_t runs_ = 0;
};

// Every row of `preset`: its assumed values, in the order of its file.
std::vector<Row> preset_rows(const Preset& pr, Measure& m) {
    const ParamSet params = sc::default_params();
    const Baseline b = m.baseline(pr);
    std::vector<Row> rows;
    for (const auto& [unit, ps] : pr.json["params"].items())
        for (const auto& [name, e] : ps.items()) {
            const std::string source = e.value("source", "");
            if (source.rfind("assumed", 0) != 0) continue;
            const std::string key = unit + "." + name;
            const ParamDef& d = def_of(params, key);
            const nlohmann::json value = check_param_value(d, e["value"], key);
            if (d.type == ParamType::Uint || d.type == ParamType::Int || d.type == ParamType::Double) {
                Row r{pr.name, key, source, value, true, {scaled(d, value, "half", 0.5), scaled(d, value, "double", 2.0)}};
                for (auto& v : r.variants) m.run(pr, b, key, v);
                rows.push_back(std::move(r));
                continue;
            }
            std::vector<nlohmann::json> others;
            if (d.type == ParamType::Bool)
                others.push_back(!value.get<bool>());
            else
                for (const auto& a : d.allowed)
                    if (a != value.get<std::string>()) others.push_back(a);
            for (const auto& o : others) {
                Variant v;
                v.at = value_text(o);
                v.value = o;
                m.run(pr, b, key, v);
                rows.push_back(Row{pr.name, key, source, value, false, {v}});
            }
        }
    return rows;
}

// ------------------------------------------------------------------------------ output

std::string pct(double x) { return fmt::format("{:+.1f} %", 100 * x); }

// The cells of one variant: value (and note), calibration, suite largest (workload), suite median.
struct Cells {
    std::string value, note, calibration, largest, median;
};

Cells cells(const Variant& v) {
    Cells c;
    c.value = value_text(v.value);
    c.note = v.note;
    if (v.same) {
        c.calibration = c.largest = c.median = "=";
        return c;
    }
    if (!v.refused.empty()) {
        c.calibration = c.largest = c.median = "-";
        c.note += (c.note.empty() ? "" : "; ") + std::string("refused: ") + v.refused;
        return c;
    }
    c.calibration = pct(v.calibration);
    c.largest = v.largest_on.empty() ? std::string("-")
                : v.largest == 0     ? pct(0) + " (every workload)"
                                     : pct(v.largest) + " " + v.largest_on;
    c.median = v.changes.empty() ? std::string("-") : pct(v.median);
    std::vector<std::string> notes;
    if (!c.note.empty()) notes.push_back(c.note);
    if (!v.caps_refuse.empty()) notes.push_back(fmt::format("the caps refuse {}", fmt::join(v.caps_refuse, ", ")));
    if (!v.caps_allow.empty())
        notes.push_back(fmt::format("{} run{} (refused at the preset's value)", fmt::join(v.caps_allow, ", "),
                                    v.caps_allow.size() == 1 ? "s" : ""));
    c.note = fmt::format("{}", fmt::join(notes, "; "));
    return c;
}

void print_text(const std::vector<Row>& rows) {
    const char* const f = "{:<6} {:<44} {:>8}  {:<16} {:>11}  {:<36} {:>8}  {:<6} {}\n";
    std::cout << fmt::format(f, "preset", "parameter", "value", "changed to", "calibration", "suite: largest change",
                             "median", "> 10 %", "note");
    for (const Row& r : rows)
        for (size_t i = 0; i < r.variants.size(); ++i) {
            const Variant& v = r.variants[i];
            const Cells c = cells(v);
            std::cout << fmt::format(f, i ? "" : r.preset, i ? "" : r.param, i ? "" : value_text(r.value),
                                     r.numeric ? v.at + " " + c.value : c.value, c.calibration, c.largest, c.median,
                                     v.moves() ? "yes" : "", c.note);
        }
}

void print_markdown(const std::vector<Row>& rows) {
    std::cout << "| preset | parameter | value | half (or other value) | calibration | suite: largest | suite: median "
                 "| double | calibration | suite: largest | suite: median | > 10 % |\n"
                 "|---|---|---:|---|---:|---|---:|---|---:|---|---:|---|\n";
    for (const Row& r : rows) {
        std::string line = fmt::format("| {} | `{}` | {} |", r.preset, r.param, value_text(r.value));
        for (size_t i = 0; i < 2; ++i) {
            if (i < r.variants.size()) {
                const Cells c = cells(r.variants[i]);
                line += fmt::format(" {}{} | {} | {} | {} |", c.value, c.note.empty() ? "" : " (" + c.note + ")",
                                    c.calibration, c.largest, c.median);
            } else {
                line += " - | | | |";
            }
        }
        line += r.flag() ? " **yes** |" : " |";
        std::cout << line << "\n";
    }
}

nlohmann::ordered_json rows_json(const std::vector<Row>& rows) {
    auto arr = nlohmann::ordered_json::array();
    for (const Row& r : rows) {
        nlohmann::ordered_json j;
        j["preset"] = r.preset;
        j["param"] = r.param;
        j["source"] = r.source;
        j["value"] = r.value;
        auto vs = nlohmann::ordered_json::array();
        for (const Variant& v : r.variants) {
            nlohmann::ordered_json e;
            e["at"] = v.at;
            e["value"] = v.value;
            if (!v.note.empty()) e["note"] = v.note;
            e["run"] = !v.same && v.refused.empty();
            if (!v.refused.empty()) e["refused"] = v.refused;
            if (e["run"]) {
                e["calibration_change"] = v.calibration;
                e["suite_largest_change"] = v.largest;
                e["suite_largest_workload"] = v.largest_on;
                e["suite_median_change"] = v.median;
                nlohmann::ordered_json ch = nlohmann::ordered_json::object();
                for (const auto& [w, c] : v.changes) ch[w] = c;
                e["suite_changes"] = ch;
                e["caps_refuse"] = v.caps_refuse;
                e["caps_allow"] = v.caps_allow;
            }
            e["moves_more_than_threshold"] = v.moves();
            vs.push_back(std::move(e));
        }
        j["variants"] = vs;
        j["flag"] = r.flag();
        arr.push_back(std::move(j));
    }
    return arr;
}

// The sensitivity.json entries of one preset: each flagged parameter with its largest change (the
// calibration's or a workload's, over its variants) and the first variant at which the caps refuse
// workloads.
std::vector<SensitiveAssumption> entries(const std::vector<Row>& rows, const std::string& preset) {
    std::vector<SensitiveAssumption> out;
    for (const Row& r : rows) {
        if (r.preset != preset || !r.flag()) continue;
        SensitiveAssumption* a = nullptr;
        for (auto& e : out)
            if (e.param == r.param) a = &e;
        if (!a) {
            out.push_back({});
            a = &out.back();
            a->param = r.param;
            a->value = r.value;
        }
        for (const Variant& v : r.variants) {
            if (v.same || !v.refused.empty()) continue;
            auto consider = [&](double change, const char* result, const std::string& workload) {
                if (a->at.empty() || std::fabs(change) > std::fabs(a->change)) {
                    a->change = change;
                    a->result = result;
                    a->workload = workload;
                    a->at = v.at;
                    a->at_value = v.value;
                }
            };
            consider(v.calibration, "calibration", "");
            if (!v.largest_on.empty()) consider(v.largest, "suite", v.largest_on);
            if (a->refused.empty() && !v.caps_refuse.empty()) {
                a->refuses_at = v.at;
                a->refuses_value = v.value;
                a->refused = v.caps_refuse;
            }
        }
    }
    return out;
}

std::string sensitivity_text(const std::vector<Row>& rows, const std::vector<Workload>& suite) {
    std::vector<std::string> names;
    for (const auto& w : suite) names.push_back(w.name);
    std::string s = "{\"schema\": \"vpsim-sensitivity-1\",\n"
                    " \"note\": \"written by scripts/update-sensitivity.sh (vpsim bench sensitivity examples/workloads "
                    "--write model/presets/sensitivity.json); checked by ctest; built into vpsim (model/presets/"
                    "embed.cmake): the run summary names these assumed values (docs/calibration.md)\",\n";
    s += fmt::format(" \"threshold_percent\": {:g},\n", 100 * kSensitivityThreshold);
    s += " \"workloads\": " + nlohmann::json(names).dump() + ",\n \"presets\": {\n";
    const auto& all = presets();
    for (size_t p = 0; p < all.size(); ++p) {
        const auto es = entries(rows, all[p].name);
        s += fmt::format("  \"{}\": [", all[p].name);
        for (size_t i = 0; i < es.size(); ++i) s += (i ? ",\n   " : "\n   ") + es[i].to_json().dump();
        s += es.empty() ? "]" : "\n  ]";
        s += p + 1 < all.size() ? ",\n" : "\n";
    }
    return s + " }}\n";
}

// --check's file, read and its form checked before anything is measured (a file that cannot be
// read or is no --write output is an error at once, not after the minutes the measurement takes).
struct CheckFile {
    std::string text;
    nlohmann::json json;
};
CheckFile read_check_file(const std::string& path) {
    CheckFile f;
    std::string why;
    if (!read_input_file(path, f.text, why)) throw std::runtime_error(path + ": cannot read it: " + why);
    try {
        f.json = nlohmann::json::parse(f.text);
    } catch (const std::exception& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
    const nlohmann::json& j = f.json;
    if (!j.is_object() || !j.contains("schema") || j["schema"] != "vpsim-sensitivity-1" || !j.contains("presets") ||
        !j["presets"].is_object())
        throw std::runtime_error(path + ": expected {\"schema\": \"vpsim-sensitivity-1\", \"presets\": {...}}");
    return f;
}

// --check: the entries that moved, one line each; 0 when the file equals `text`.
size_t compare_with(const std::string& path, const CheckFile& file, const std::string& text) {
    if (file.text == text) return 0;
    const nlohmann::json& old = file.json;
    const nlohmann::json now = nlohmann::json::parse(text);
    size_t moved = 0;
    auto keyed = [](const nlohmann::json& j) {
        std::map<std::string, nlohmann::json> m;
        for (const auto& [p, es] : j["presets"].items())
            for (const auto& e : es) m[p + " " + e.value("param", "?")] = e;
        return m;
    };
    auto before = keyed(old);
    for (const auto& [k, e] : keyed(now)) {
        const auto it = before.find(k);
        if (it == before.end())
            std::cout << fmt::format("{}: new: {}\n", k, e.dump());
        else if (it->second != e)
            std::cout << fmt::format("{}: {} -> {}\n", k, it->second.dump(), e.dump());
        if (it == before.end() || it->second != e) ++moved;
        if (it != before.end()) before.erase(it);
    }
    for (const auto& [k, e] : before) {
        std::cout << fmt::format("{}: in {} but no longer moves a result by more than {:g} %\n", k, path,
                                 100 * kSensitivityThreshold);
        ++moved;
    }
    if (!moved) {
        std::cout << fmt::format("{}: the entries are equal but the file is not what --write writes (its workloads, "
                                 "note or layout)\n",
                                 path);
        ++moved;
    }
    return moved;
}

int run_sensitivity(const SensitivityArgs& a) {
    const char* const me = "vpsim bench sensitivity";
    auto usage = [&](const std::string& m) {
        std::fprintf(stderr, "%s: %s\n", me, m.c_str());
        return 2;
    };
    if (!a.write.empty() && !a.check.empty()) return usage("give at most one of --write FILE and --check FILE");
    const std::string file_opt = !a.write.empty() ? "--write" : "--check";
    if ((!a.write.empty() || !a.check.empty()) && !a.presets.empty())
        return usage(file_opt + " covers every preset (the file lists them all): --preset does not apply");
    if ((!a.write.empty() || !a.check.empty()) && a.markdown)
        return usage(file_opt + " prints no table: --markdown does not apply");
    std::vector<const Preset*> chosen;
    try {
        for (const auto& n : a.presets) {
            const Preset& p = find_preset(n);
            if (std::find(chosen.begin(), chosen.end(), &p) != chosen.end())
                return usage("--preset " + n + ": given twice");
            chosen.push_back(&p);
        }
    } catch (const ParamError& e) {
        return usage(e.what());
    }
    if (chosen.empty())
        for (const Preset& p : presets()) chosen.push_back(&p);
    CheckFile check;
    if (!a.check.empty()) {
        try {
            check = read_check_file(a.check);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: %s\n", me, e.what());
            return 2;
        }
    }
    std::vector<Row> rows;
    std::vector<Workload> suite;
    double seconds = 0;
    uint64_t runs = 0;
    if (const int rc = exit_status_of(me, [&] {
            suite = load_suite(a.dir);
            const auto t0 = std::chrono::steady_clock::now();
            Measure m(suite);
            const bool progress = ::isatty(2);
            for (const Preset* p : chosen) {
                if (progress) std::fprintf(stderr, "%s: %s ...\n", me, p->name.c_str());
                const auto r = preset_rows(*p, m);
                rows.insert(rows.end(), r.begin(), r.end());
            }
            seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            runs = m.runs();
            if (!a.json.empty()) {
                nlohmann::ordered_json j;
                j["schema"] = "vpsim-sensitivity-rows-1";
                j["workloads_dir"] = a.dir;
                j["threshold"] = kSensitivityThreshold;
                j["runs"] = runs;
                j["seconds"] = seconds;
                j["rows"] = rows_json(rows);
                write_file_atomic(a.json, j.dump(2) + "\n");
            }
        }))
        return rc;
    size_t flagged = 0;
    for (const Row& r : rows) flagged += r.flag();
    const std::string took = fmt::format("{} rows, {} flagged (a result moves by more than {:g} % or the caps refuse a "
                                         "workload); {} runs of the timing model on {} workloads and the calibration "
                                         "workload in {:.1f} s",
                                         rows.size(), flagged, 100 * kSensitivityThreshold, group_digits(runs),
                                         suite.size(), seconds);
    if (!a.write.empty() || !a.check.empty()) {
        const std::string text = sensitivity_text(rows, suite);
        if (!a.write.empty()) {
            try {
                write_file_atomic(a.write, text);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "%s: %s\n", me, e.what());
                return 2;
            }
            std::cout << fmt::format("{}: written ({})\n", a.write, took);
            return 0;
        }
        const size_t moved = compare_with(a.check, check, text);
        if (moved) {
            std::cout << fmt::format("{} entr{} moved against {}; if the change is intended, run "
                                     "scripts/update-sensitivity.sh and commit the diff\n",
                                     moved, moved == 1 ? "y" : "ies", a.check);
            return 1;
        }
        std::cout << fmt::format("{} equals the measurement ({})\n", a.check, took);
        return 0;
    }
    if (a.markdown)
        print_markdown(rows);
    else
        print_text(rows);
    std::cout << (a.markdown ? "\n" : "") << took << "\n";
    return 0;
}

}  // namespace sensitivity
}  // namespace

void add_bench_sensitivity(CLI::App* bench, int& exit_code) {
    using namespace sensitivity;
    auto a = std::make_shared<SensitivityArgs>();
    CLI::App* c = bench->add_subcommand(
        "sensitivity",
        "How much each assumed preset value matters: for every preset value whose source is \"assumed\", the "
        "calibration workload's vertex rate (bench calibrate) and the cycles of every workload of WORKLOADS_DIR "
        "(bench coissue's suite) at half and double the value (an enum or boolean: each other value), against the "
        "preset's value; flagged when a result moves by more than 10 % (docs/calibration.md, \"Sensitivity of "
        "assumed values\").\nExit status: 0 done (or --check equal), 1 --check: an entry moved (or a scene command "
        "failed), 2 usage, bad input or I/O error, 3 internal error.");
    c->add_option("WORKLOADS_DIR", a->dir, "The workload suite (default: examples/workloads)");
    c->add_option("--preset", a->presets, "Only these presets (repeatable or comma-separated; default: every preset)")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->type_name("NAME");
    c->add_option("--json", a->json, "Also write every row (each variant's changes per workload) to FILE")
        ->type_name("FILE");
    c->add_flag("--markdown", a->markdown, "Print a Markdown table (one row per parameter: half, double)");
    c->add_option("--write", a->write,
                  "Write the parameters that move a result by more than 10 % to FILE (model/presets/sensitivity.json) "
                  "instead of printing the table")
        ->type_name("FILE");
    c->add_option("--check", a->check, "Compare with FILE (a --write output): list every entry that moved, exit 1")
        ->type_name("FILE");
    c->callback([a, &exit_code] { exit_code = run_sensitivity(*a); });
}

}  // namespace vpsim::cli
