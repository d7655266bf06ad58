// vpsim bench metamorphic (docs/calibration.md, "Metamorphic properties"): properties of the
// timing model over parameter changes, checked on the workload suite. Each property changes one
// parameter in the direction that should never hurt (or never help) and states the margin by
// which a response may still go the wrong way (the scheduling effects docs/calibration.md
// explains, "Wrong-way responses"):
//
//   more memory latency       never reduces cycles by more than the margin
//   more engines / contexts / input buffers / output buffers / miss registers
//                             never increase cycles by more than the margin
//   a larger post-transform cache never raises ACMR, except where a FIFO of the two sizes,
//                             replayed on the draws' references, shows Belady's anomaly (and an
//                             LRU of the same sizes, a stack algorithm, does not rise)
//
// Default (CI): for each workload, one preset and one step of each property drawn from --seed
// (printed; the same seed gives the same checks). --all: every preset and every step.
#include "model/bench/ptc_replay.h"
#include "model/cli/commands.h"
#include "model/cli/exit_status.h"
#include "model/cli/suite.h"
#include "model/common/presets.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vpsim::cli {

namespace {

struct Property {
    std::string name;    // "memory latency up"
    std::string key;     // the parameter changed
    std::string metric;  // "cycles" or "acmr"
    int direction;       // +1: the metric must not rise by more than the margin; -1: not fall by more
    double margin;       // relative
    std::vector<std::pair<std::string, std::string>> steps;  // (from, to) values
};

// The margins are the worst wrong-way responses measured with --all on the suite (reported by it)
// rounded up: a new, larger one fails and must be explained (docs/calibration.md).
std::vector<Property> properties() {
    return {
        {"more memory latency", "memory.latency", "cycles", -1, 0.02, {{"40", "80"}, {"80", "160"}, {"160", "320"}}},
        {"more engines", "vertex_alu.engines", "cycles", +1, 0.02, {{"1", "2"}, {"2", "3"}, {"3", "4"}}},
        {"more contexts", "vertex_alu.contexts", "cycles", +1, 0.02, {{"2", "3"}, {"3", "4"}, {"4", "6"}}},
        {"more input buffers", "vertex_fetch.input_buffers", "cycles", +1, 0.03, {{"3", "6"}, {"6", "12"}}},
        {"more output buffers", "output.buffers", "cycles", +1, 0.02, {{"2", "4"}, {"4", "8"}}},
        {"more miss registers", "vertex_fetch.max_misses", "cycles", +1, 0.08, {{"2", "4"}, {"4", "8"}, {"8", "16"}}},
        {"larger post-transform cache", "post_transform_cache.entries", "acmr", +1, 0.0,
         {{"0", "4"}, {"4", "8"}, {"8", "12"}, {"12", "16"}, {"16", "24"}, {"24", "32"}}},
    };
}

struct MetaArgs {
    std::string dir;
    uint64_t seed = 1;
    bool all = false, json = false;
};

using bench::DrawRefs;

struct Check {
    std::string property, workload, preset, key, from, to, metric;
    double before = 0, after = 0, change = 0;  // change: relative, in the property's wrong direction when > 0
    bool ok = true;
    std::string note;  // Belady's anomaly shown, or why it failed
};

uint64_t next_random(uint64_t& s) {  // splitmix64: the same sequence on every platform
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The runs of one workload under one preset, each parameter value once ("key=value" -> result);
// the first run also records the draws' references (for Belady's anomaly).
class PresetRuns {
public:
    PresetRuns(const Workload& w, const std::string& preset, size_t& runs) : w_(w), preset_(preset), runs_(runs) {}
    // The run with key=value; null when the preset's caps refuse the workload.
    const sc::RunResult* result(const std::string& key, const std::string& value) {
        const std::string set = key + "=" + value;
        auto it = cache_.find(set);
        if (it != cache_.end()) return &it->second;
        sc::RunOptions opt;
        const bool capture = draws_.empty();
        std::vector<DrawRefs> got;
        if (capture)
            opt.draw_done = [&got](const sc::DrawState& d) {
                DrawRefs r;
                r.indexed = d.setup.indexed;
                r.primitives = d.setup.primitives;
                r.refs.reserve(d.setup.refs);
                for (uint64_t k = 0; k < d.setup.refs; ++k) r.refs.push_back(d.setup.vertex(k));
                got.push_back(std::move(r));
            };
        Outcome o = run_or_refuse(w_, preset_, {set}, opt);
        ++runs_;
        if (!o.refused.empty()) {
            refused_ = true;
            return nullptr;
        }
        if (capture) draws_ = std::move(got);
        return &cache_.emplace(set, std::move(o.result)).first->second;
    }
    bool refused() const { return refused_; }
    const std::vector<DrawRefs>& draws() const { return draws_; }

private:
    const Workload& w_;
    const std::string& preset_;
    size_t& runs_;
    std::map<std::string, sc::RunResult> cache_;
    std::vector<DrawRefs> draws_;  // the references (from the first run)
    bool refused_ = false;
};

// One step of a property: the metric before and after, the change the wrong way, within the
// margin or (ACMR) Belady's anomaly shown.
Check check_step(const Property& p, const std::string& workload, const std::string& preset, const std::string& from,
                 const std::string& to, const sc::RunResult& r0, const sc::RunResult& r1, const std::vector<DrawRefs>& draws) {
    Check c;
    c.property = p.name, c.workload = workload, c.preset = preset, c.key = p.key;
    c.from = from, c.to = to, c.metric = p.metric;
    c.before = p.metric == "acmr" ? r0.real("acmr") : double(r0.cycles);
    c.after = p.metric == "acmr" ? r1.real("acmr") : double(r1.cycles);
    const double rel = c.before > 0 ? c.after / c.before - 1.0 : 0.0;
    c.change = p.direction > 0 ? rel : -rel;
    c.ok = c.change <= p.margin + 1e-12;
    if (!c.ok && p.metric == "acmr") {
        // Belady's anomaly? The same rise from a FIFO replay of the draws, and
        // none from an LRU of the same sizes.
        ParamSet ps = sc::default_params();
        apply_preset(ps, preset);
        const auto reset = uint32_t(ps.get_uint("post_transform_cache.batch_reset"));
        const bench::BeladyVerdict v = bench::belady_anomaly(draws, uint32_t(std::stoul(from)), uint32_t(std::stoul(to)),
                                                             reset, r0.count("shaded"), r1.count("shaded"));
        c.ok = v.shown;
        c.note = v.note;
    }
    return c;
}

// The checks drawn (or, with --all, every preset and step), in order; the seed's draws as before.
struct MetaChecks {
    std::vector<Check> checks;
    size_t runs = 0, refused = 0;
};

// One workload under one preset: each property's steps (one drawn unless --all) until the caps refuse it.
void check_preset(const MetaArgs& a, const std::vector<Property>& props, const Workload& w, const std::string& preset,
                  uint64_t& rng, MetaChecks& out) {
    PresetRuns runs(w, preset, out.runs);
    for (const Property& p : props) {
        std::vector<std::pair<std::string, std::string>> steps = p.steps;
        if (!a.all) steps = {p.steps[next_random(rng) % p.steps.size()]};
        for (const auto& [from, to] : steps) {
            const sc::RunResult* r0 = runs.result(p.key, from);
            if (!r0) break;
            const sc::RunResult* r1 = runs.result(p.key, to);
            if (!r1) break;
            out.checks.push_back(check_step(p, w.name, preset, from, to, *r0, *r1, runs.draws()));
        }
        if (runs.refused()) break;
    }
    if (runs.refused()) ++out.refused;
}

// The table's row and the JSON object of one property, over its checks.
void summarize_property(const Property& p, const std::vector<Check>& checks, std::string& text, nlohmann::ordered_json& jp) {
    size_t n = 0, wrong = 0, anomalies = 0;
    const Check* worst = nullptr;
    for (const Check& c : checks)
        if (c.property == p.name) {
            ++n;
            wrong += c.change > 1e-12;
            anomalies += c.ok && !c.note.empty();
            if (!worst || c.change > worst->change) worst = &c;
        }
    const std::string wtext = worst ? fmt::format("{} {} {}={}->{}: {:g} -> {:g}", worst->workload, worst->preset, worst->key,
                                                  worst->from, worst->to, worst->before, worst->after)
                                    : "-";
    text += fmt::format("{:<30} {:>7.1f}% {:>8} {:>9.2f}%  {}\n", p.name, 100 * p.margin, n,
                        worst ? 100 * worst->change : 0.0, wtext);
    jp.push_back({{"property", p.name},
                  {"key", p.key},
                  {"metric", p.metric},
                  {"direction", p.direction > 0 ? "must not rise" : "must not fall"},
                  {"margin", p.margin},
                  {"checked", n},
                  {"wrong_way", wrong},
                  {"belady", anomalies},
                  {"worst_change", worst ? worst->change : 0.0},
                  {"worst", wtext}});
}

// The report (JSON or the table with the failures and Belady's anomalies); the exit status.
int report_metamorphic(const MetaArgs& a, const std::vector<Property>& props, const MetaChecks& m) {
    size_t failed = 0;
    nlohmann::ordered_json j;
    j["seed"] = a.all ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(a.seed);
    j["all"] = a.all;
    j["runs"] = m.runs;
    j["refused"] = m.refused;
    auto jp = nlohmann::ordered_json::array();
    std::string text = fmt::format("{:<30} {:>8} {:>8} {:>10}  {}\n", "property", "margin", "checked", "worst", "worst response");
    for (const Property& p : props) summarize_property(p, m.checks, text, jp);
    j["properties"] = jp;
    auto jf = nlohmann::ordered_json::array();
    auto jb = nlohmann::ordered_json::array();
    for (const Check& c : m.checks) {
        nlohmann::ordered_json e = {{"property", c.property}, {"workload", c.workload}, {"preset", c.preset},
                                    {"set", c.key},           {"from", c.from},         {"to", c.to},
                                    {"metric", c.metric},     {"before", c.before},     {"after", c.after},
                                    {"change", c.change}};
        if (!c.note.empty()) e["note"] = c.note;
        if (!c.ok) {
            ++failed;
            jf.push_back(e);
            text += fmt::format("FAIL {}: {} on {}: {}={} -> {}: {} {:g} -> {:g} ({:+.2f} % the wrong way){}{}\n"
                                "  replay: vpsim run {}/{}.json --preset {} --set {}={}  (then ={})\n",
                                c.property, c.workload, c.preset, c.key, c.from, c.to, c.metric, c.before, c.after,
                                100 * c.change, c.note.empty() ? "" : "; ", c.note, a.dir, c.workload, c.preset, c.key,
                                c.from, c.to);
        } else if (!c.note.empty()) {
            jb.push_back(e);
            text += fmt::format("ok (Belady) {} on {}: {}={} -> {}: ACMR {:.4f} -> {:.4f}; {}\n", c.property, c.workload,
                                c.key, c.from, c.to, c.before, c.after, c.note);
        }
    }
    j["checked"] = m.checks.size();
    j["failed"] = failed;
    j["failures"] = jf;
    j["belady"] = jb;
    text += fmt::format("{} responses checked ({} runs, {} workload x preset refused by the caps), {} failed\n",
                        m.checks.size(), m.runs, m.refused, failed);
    if (a.json)
        std::cout << j.dump(2) << "\n";
    else
        std::cout << text;
    return failed ? 1 : 0;
}

int run_bench_metamorphic(const MetaArgs& a) {
    const char* me = "vpsim bench metamorphic";
    std::vector<Workload> suite;
    try {
        suite = load_suite(a.dir);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", me, e.what());
        return 2;
    }
    const auto props = properties();
    std::vector<std::string> preset_names;
    for (const Preset& p : presets()) preset_names.push_back(p.name);
    if (!a.all) std::fprintf(stderr, "%s: seed %llu (replay: --seed %llu)\n", me, (unsigned long long)a.seed,
                             (unsigned long long)a.seed);
    uint64_t rng = a.seed;
    MetaChecks m;
    if (const int rc = exit_status_of(me, [&] {
            for (const Workload& w : suite) {
                std::vector<std::string> pres = preset_names;
                if (!a.all) pres = {preset_names[next_random(rng) % preset_names.size()]};
                for (const std::string& preset : pres) check_preset(a, props, w, preset, rng, m);
            }
        }))
        return rc;
    return report_metamorphic(a, props, m);
}

}  // namespace

void add_bench_metamorphic(CLI::App* bench, int& exit_code) {
    auto a = std::make_shared<MetaArgs>();
    CLI::App* c = bench->add_subcommand(
        "metamorphic",
        "Metamorphic properties of the timing model on the workload suite (docs/calibration.md): more memory latency "
        "never reduces cycles, more engines, contexts, buffers or miss registers never increase them, by more than a "
        "stated margin; a larger post-transform cache never raises ACMR except where Belady's anomaly is shown. "
        "Default: one preset and one step per property and workload, drawn from --seed; --all: every one.\nExit "
        "status: 0 every property holds, 1 one does not (each named, with the commands that replay it), 2 usage or "
        "bad input, 3 internal error.");
    c->add_option("DIR", a->dir, "The workload suite (examples/workloads)")->required();
    c->add_option("--seed", a->seed, "The seed that draws the checks (default 1, or VPSIM_TEST_SEED)");
    c->add_flag("--all", a->all, "Every preset and every step of every property (the long version)");
    c->add_flag("--json", a->json, "Print one JSON object");
    c->callback([a, c, &exit_code] {
        if (c->count("--seed") == 0)
            if (const char* env = std::getenv("VPSIM_TEST_SEED"); env && *env) {
                char* end = nullptr;
                a->seed = std::strtoull(env, &end, 10);
                if (*end) {
                    std::fprintf(stderr, "vpsim bench metamorphic: VPSIM_TEST_SEED=%s: expected a number\n", env);
                    exit_code = 2;
                    return;
                }
            }
        exit_code = run_bench_metamorphic(*a);
    });
}

}  // namespace vpsim::cli
