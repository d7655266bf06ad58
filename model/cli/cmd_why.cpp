// vpsim why: what would make a run faster. Every capacity, rate and latency the units declare is
// relaxed in turn, each variant runs as a study point through a study backend, and they are
// ranked by the cycles they save; the top few are tried in pairs (docs/why.md). The analysis is
// model/study/why.h; this file runs the points and prints.
#include "model/cli/commands.h"
#include "model/cli/run_common.h"
#include "model/cli/run_sample.h"
#include "model/common/file_util.h"
#include "model/common/presets.h"
#include "model/sc/pipeline.h"
#include "model/scene/scene_window.h"
#include "model/study/backend.h"
#include "model/study/points.h"
#include "model/study/sample_stats.h"
#include "model/study/sampling.h"
#include "model/study/why.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fnmatch.h>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <optional>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace vpsim::cli {

namespace {

struct WhyArgs {
    std::string scene, preset, topology_file, out, backend = "local";
    std::vector<std::string> sets, profile, tess_profile;
    std::vector<std::string> only;  // --only: globs over the keys to relax (empty: every one)
    double factor = 2.0;
    unsigned jobs = 0, pairs = 4, moves = 3;
    uint64_t budget = 1000000;
    SampleArgs sample;  // --sample: every run sampled (a scene sampling refuses is refused here)
    bool json = false, quiet = false;
};

// Bad input: the message is printed and the exit status is 2.
struct WhyUsage : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The scene's window: the draws every point runs (0: all) and what they hold, in words.
struct Window {
    uint64_t draws = 0, of = 0;
    uint64_t references = 0, total = 0;  // counted draws only
    uint64_t uncounted = 0;              // patches: no count before they are tessellated
    std::string text() const {
        std::string s = draws == 0 ? fmt::format("the whole scene: {} draw{}, {} references", of, of == 1 ? "" : "s",
                                                 group_digits(total))
                                   : fmt::format("the first {} of {} draws: {} of {} references", draws, of,
                                                 group_digits(references), group_digits(total));
        if (uncounted) s += fmt::format(" ({} patch draw{} not counted)", uncounted, uncounted == 1 ? "" : "s");
        return s;
    }
};

Window scene_window(const scene::Scene& sc, uint64_t budget) {
    const auto sizes = scene::draw_sizes(sc);
    Window w;
    w.of = sizes.size();
    const uint64_t n = scene::draws_within(sizes, budget);
    for (size_t i = 0; i < sizes.size(); ++i) {
        const uint64_t r = sizes[i].references.value_or(0);
        w.total += r;
        if (i < n) w.references += r;
        if (!sizes[i].references && (i < n || n == sizes.size())) ++w.uncounted;
    }
    if (n < sizes.size()) w.draws = n;
    if (w.draws == 0) w.references = w.total;
    return w;
}

// Runs the points (those not already done in the directory), through the backend.
void run_points(const WhyArgs& a, study::Backend& backend, const std::vector<const study::Point*>& pts) {
    using namespace study;
    std::vector<const Point*> todo;
    std::error_code ec;
    for (const Point* p : pts) {
        if (point_state(*p) == PointState::Done) continue;
        fs::create_directories(p->dir, ec);
        if (ec) throw OutputError(fmt::format("{}: cannot create the point's directory: {}", p->dir, ec.message()));
        for (const char* f : {"exit_status", "stderr.txt"}) fs::remove(fs::path(p->dir) / f, ec);
        todo.push_back(p);
    }
    size_t ran = 0;
    const bool progress = !a.quiet && !a.json && ::isatty(2);
    if (!backend.run(todo, [&](const Point&, bool) {
            ++ran;
            if (progress) std::fprintf(stderr, "\rvpsim why: %zu/%zu runs   ", ran, todo.size());
        }))
        throw std::runtime_error(fmt::format("interrupted (signal {})", interrupt_signal()));
    if (progress) std::fprintf(stderr, "\r%40s\r", "");
    std::string failures;
    for (const Point* p : pts) {
        int status = 0;
        std::string msg;
        if (point_state(*p, &status, &msg) != PointState::Done)
            failures += fmt::format("\n  {}: exit {}: {} ({}/stderr.txt)",
                                    p->axis_values.empty() ? std::string("run") : p->axis_values[0].second, status, msg,
                                    p->dir);
    }
    if (!failures.empty()) throw std::runtime_error("a run failed:" + failures);
}

nlohmann::json read_stats(const study::Point& p) {
    std::string text, why;
    if (!read_input_file(p.dir + "/stats.json", text, why)) throw std::runtime_error(p.dir + "/stats.json: " + why);
    return nlohmann::json::parse(text);
}

std::string signed_digits(int64_t v) { return (v < 0 ? "-" : "") + group_digits(uint64_t(v < 0 ? -v : v)); }

// The baseline's cycles; a sampled run's with its interval and what was sampled.
std::string baseline_text(const nlohmann::json& base) {
    const std::string cycles = group_digits(base["cycles"].get<uint64_t>());
    if (!study::is_sampled_stats(base)) return cycles + " cycles";
    const nlohmann::json& s = base["sample"];
    const nlohmann::json& c = s["cycles"];
    return fmt::format("{} ± {} cycles (sampled: {:.1f} % interval, {} units measured of {}; a saving's ± is the "
                       "sum of its two runs')",
                       cycles, group_digits(uint64_t(std::llround(c["half_width"].get<double>()))),
                       100 * s["confidence"].get<double>(), s["samples"].get<uint64_t>(), s["units"].get<uint64_t>());
}

std::string change_text(const std::vector<study::Relaxation>& ch) {
    std::string s;
    for (const auto& r : ch)
        s += (s.empty() ? "" : " + ") + fmt::format("{} {} -> {}", r.key, study::cell_text(r.from), study::cell_text(r.to));
    return s;
}

std::string moves_text(const std::vector<study::StallMove>& m) {
    std::string s;
    for (const auto& x : m)
        s += (s.empty() ? "" : ", ") + fmt::format("{} {}{}", x.counter, x.change() < 0 ? "" : "+", signed_digits(x.change()));
    return s.empty() ? "none" : s;
}

struct WhyResult {
    Window window;
    nlohmann::json base;
    std::vector<study::Effect> ranking, pairs;
    study::Plan plan;
    study::Agreement agree;
    size_t runs = 0;
    double seconds = 0;
};

std::string why_text(const WhyArgs& a, const WhyResult& w) {
    const auto& b = w.base["summary"]["bottleneck"];
    std::string s = fmt::format("vpsim why: {}{}{}\n", a.scene.empty() ? "<default>" : a.scene,
                                a.preset.empty() ? "" : " --preset " + a.preset,
                                a.topology_file.empty() ? "" : " --topology-file " + a.topology_file);
    auto row = [&](const std::string& k, const std::string& v) { s += fmt::format("  {:<10} {}\n", k, v); };
    row("relaxed", fmt::format("each capacity and rate x{0:g}, each latency /{0:g}, one at a time{1}", a.factor,
                               a.only.empty() ? "" : fmt::format(" (only {})", fmt::join(a.only, ","))));
    row("window", w.window.text());
    row("baseline", baseline_text(w.base));
    row("runs", fmt::format("{} ({} backend), {:.1f} s", w.runs, a.backend, w.seconds));
    s += "\n  rank  change                                        cycles    saved      %  stall counters that moved most\n";
    size_t i = 0;
    std::string none;
    for (const auto& e : w.ranking) {
        if (e.saved == 0) {
            none += (none.empty() ? "" : ", ") + e.changes[0].key;
            continue;
        }
        s += fmt::format("  {:>4}  {:<42} {:>9} {:>8} {:>6.1f}  {}\n", ++i, change_text(e.changes),
                         group_digits(e.cycles), signed_digits(e.saved), e.percent, moves_text(e.moved));
        if (e.sampled)
            s += fmt::format("  {:>4}  {:<42} {:>9} {:>8} {:>6}  {}\n", "", "", "±",
                             group_digits(uint64_t(std::llround(e.saved_half_width))), "",
                             e.within_interval() ? "within the interval: not told apart from no effect" : "");
    }
    if (!none.empty()) s += fmt::format("\n  no effect (same cycles): {}\n", none);
    if (!w.pairs.empty()) {
        s += "\n  pairs of the top ones, together:\n";
        for (const auto& e : w.pairs)
            s += fmt::format("    {}: {} cycles, saved {} ({:.1f} %); alone {} + {} = {}{}\n", change_text(e.changes),
                             group_digits(e.cycles), signed_digits(e.saved), e.percent, signed_digits(e.parts.at(0)),
                             signed_digits(e.parts.at(1)), signed_digits(e.parts_sum),
                             e.synergy      ? "  <- more together than apart"
                             : e.same_limit ? "  <- the same limit: either will do"
                                            : "");
    }
    if (!w.plan.skipped.empty()) {
        s += "\n  skipped:\n";
        for (const auto& k : w.plan.skipped)
            s += fmt::format("    {} = {} ({}): {}\n", k.key, study::cell_text(k.value), param_kind_name(k.kind), k.why);
    }
    s += fmt::format("\n  summary   {}\n", b.value("text", std::string("(none)")));
    if (!w.ranking.empty() && w.ranking[0].saved > 0)
        s += fmt::format("  top       {} ({:.1f} %)\n", change_text(w.ranking[0].changes), w.ranking[0].percent);
    s += fmt::format("  verdict   {}\n", w.agree.text);
    return s;
}

nlohmann::ordered_json why_json(const WhyArgs& a, const WhyResult& w) {
    nlohmann::ordered_json j;
    j["schema"] = "vpsim-why-1";
    j["scene"] = a.scene.empty() ? "<default>" : a.scene;
    if (!a.preset.empty()) j["preset"] = a.preset;
    if (!a.topology_file.empty()) j["topology"] = a.topology_file;
    j["sets"] = a.sets;
    j["factor"] = a.factor;
    j["only"] = a.only;
    j["window"] = {{"draws", w.window.draws == 0 ? w.window.of : w.window.draws}, {"scene_draws", w.window.of},
                   {"whole_scene", w.window.draws == 0}, {"references", w.window.references},
                   {"scene_references", w.window.total}, {"uncounted_patch_draws", w.window.uncounted},
                   {"budget", a.budget}, {"text", w.window.text()}};
    j["baseline"] = {{"cycles", w.base["cycles"]}, {"bottleneck", w.base["summary"]["bottleneck"]}};
    if (study::is_sampled_stats(w.base))  // absent: full runs
        j["baseline"]["sample"] = w.base["summary"]["sample"];
    auto r = nlohmann::ordered_json::array();
    for (const auto& e : w.ranking) r.push_back(study::effect_json(e, false));
    j["ranking"] = r;
    auto p = nlohmann::ordered_json::array();
    for (const auto& e : w.pairs) p.push_back(study::effect_json(e, true));
    j["pairs"] = p;
    auto sk = nlohmann::ordered_json::array();
    for (const auto& k : w.plan.skipped)
        sk.push_back({{"key", k.key}, {"kind", param_kind_name(k.kind)}, {"value", k.value}, {"why", k.why}});
    j["skipped"] = sk;
    j["agreement"] = {{"agrees", w.agree.agrees}, {"text", w.agree.text}};
    j["runs"] = {{"count", w.runs}, {"backend", a.backend}, {"seconds", w.seconds}};
    return j;
}

// The tables of each unit instance and the memory each reads (the summary's unit names).
void unit_maps(const sc::Topology& t, std::map<std::string, std::vector<std::string>>& tables,
               std::map<std::string, std::string>& memory) {
    for (const sc::UnitSpec& u : t.units) {
        std::vector<std::string>& names = tables[u.name];
        if (const sc::UnitType* type = sc::builtin_units().find(u.type))
            for (const ParamTable& pt : type->tables) {
                // A unit named otherwise than its type has a table of its own (what `why` relaxes).
                if (pt.unit == type->name && u.name != u.type) names.push_back(u.name);
                names.push_back(pt.unit);
            }
        memory[u.name] = u.memory;
    }
}

// The directory the points run in: --out (kept, resumable) or a temporary one (removed).
struct WorkDir {
    std::string path;
    bool temporary = false;
    ~WorkDir() {
        std::error_code ec;
        if (temporary && !path.empty()) fs::remove_all(path, ec);
    }
};

WhyResult analyse(const WhyArgs& a, const std::string& exe, const std::string& dir) {
    using namespace study;
    WhyResult w;
    sc::Topology topology = sc::default_topology();
    ParamSet params = sc::default_params();
    Study base;
    try {
        if (!a.topology_file.empty()) {
            topology = sc::load_topology_file(a.topology_file);
            params = sc::default_params(topology);
            base.axes.push_back(Axis{{"topology"}, {{a.topology_file}}});
        }
        if (!a.preset.empty()) apply_preset(params, a.preset);
        for (const auto& s : a.sets) params.apply_set(s);
        scene::HashedScene hs = scene::load_hashed_scene(a.scene);
        w.window = scene_window(hs.scene, a.budget);
        if (a.sample.on) {  // every run has the same plan (the scene's): refused here, not in every run
            if (w.window.draws) scene::keep_draws(hs.scene, w.window.draws);
            study::SampleOptions so = a.sample.options;
            so.cache = pipe::PostTransformCacheParams::from(params);
            const study::SamplePlan plan = study::plan_sampling(hs.scene, so);
            sc::RunOptions opt;  // the baseline's start check (docs/sampling.md, "The draw's start")
            opt.topology = &topology;
            study::check_start(hs.scene, plan, params, vs::Profile::d3d8(), opt);
        }
    } catch (const study::SampleRefused& e) {
        throw WhyUsage(std::string("--sample refused: ") + e.what() + " (run without --sample)");
    } catch (const std::exception& e) {
        throw WhyUsage(e.what());
    }
    w.plan = plan_relaxations(params, a.factor);
    if (!a.only.empty()) {
        auto wanted = [&](const std::string& key) {
            for (const auto& g : a.only)
                if (::fnmatch(g.c_str(), key.c_str(), 0) == 0) return true;
            return false;
        };
        for (const auto& g : a.only) {
            bool any = false;
            for (const auto& r : w.plan.variants) any = any || ::fnmatch(g.c_str(), r.key.c_str(), 0) == 0;
            for (const auto& r : w.plan.skipped) any = any || ::fnmatch(g.c_str(), r.key.c_str(), 0) == 0;
            if (!any) {
                std::string keys;
                for (const auto& r : w.plan.variants) keys += (keys.empty() ? "" : ", ") + r.key;
                throw WhyUsage(fmt::format("--only {}: matches no capacity, rate or latency of this pipeline; they "
                                           "are: {}", g, keys));
            }
        }
        auto& v = w.plan.variants;
        v.erase(std::remove_if(v.begin(), v.end(), [&](const Relaxation& r) { return !wanted(r.key); }), v.end());
        auto& k = w.plan.skipped;
        k.erase(std::remove_if(k.begin(), k.end(), [&](const Skipped& r) { return !wanted(r.key); }), k.end());
    }
    base.name = "why";
    base.scenes = {a.scene};
    base.preset = a.preset;
    base.sets = a.sets;
    base.profile = a.profile;
    base.tess_profile = a.tess_profile;
    base.draws = w.window.draws;
    base.sample = sample_run_args(a.sample);
    std::deque<Point> points;  // stable addresses
    auto point = [&](const std::vector<Relaxation>& ch) -> const Point& {
        Study s = base;
        for (const auto& r : ch) s.sets.push_back(r.set());
        std::vector<Point> p = resolve_points(s, dir, exe);
        p[0].axis_values = {{"change", ch.empty() ? std::string("baseline") : change_text(ch)}};
        points.push_back(std::move(p[0]));
        return points.back();
    };
    std::unique_ptr<Backend> backend;
    const unsigned jobs = a.jobs ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
    if (a.backend == "local")
        backend = make_local_backend(jobs);
    else if (a.backend == "parallel")
        backend = make_parallel_backend(jobs, dir);
    else
        throw WhyUsage("--backend " + a.backend + ": unknown backend; valid: local, parallel");
    try {
        backend->check();
    } catch (const std::exception& e) {
        throw WhyUsage(e.what());
    }
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<const Point*> first = {&point({})};
    for (const auto& r : w.plan.variants) first.push_back(&point({r}));
    run_points(a, *backend, first);
    w.base = read_stats(*first[0]);
    const uint64_t base_cycles = w.base.at("cycles").get<uint64_t>();
    for (size_t i = 0; i < w.plan.variants.size(); ++i)
        w.ranking.push_back(measure({w.plan.variants[i]}, w.base, read_stats(*first[i + 1]), a.moves));
    rank(w.ranking);
    // The top few together, two at a time.
    const size_t top = std::min<size_t>(a.pairs, w.ranking.size());
    std::vector<std::pair<size_t, size_t>> which;
    std::vector<const Point*> second;
    for (size_t i = 0; i < top; ++i)
        for (size_t k = i + 1; k < top; ++k) {
            which.emplace_back(i, k);
            second.push_back(&point({w.ranking[i].changes[0], w.ranking[k].changes[0]}));
        }
    run_points(a, *backend, second);
    for (size_t n = 0; n < which.size(); ++n) {
        const auto [i, k] = which[n];
        Effect e = measure({w.ranking[i].changes[0], w.ranking[k].changes[0]}, w.base, read_stats(*second[n]), a.moves);
        combine(e, {&w.ranking[i], &w.ranking[k]}, base_cycles);
        w.pairs.push_back(std::move(e));
    }
    rank(w.pairs);
    w.runs = first.size() + second.size();
    w.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::map<std::string, std::vector<std::string>> tables;
    std::map<std::string, std::string> memory;
    unit_maps(topology, tables, memory);
    const nlohmann::json& b = w.base["summary"]["bottleneck"];
    if (w.ranking.empty() || w.ranking[0].saved <= 0)
        w.agree = {false, "no relaxation saves cycles: nothing to compare the summary's bottleneck with"};
    else
        w.agree = agreement(b, w.ranking[0].changes[0].key, w.ranking[0].percent, tables, memory);
    return w;
}

int run_why(const WhyArgs& a) {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) {
        std::fprintf(stderr, "vpsim why: /proc/self/exe: cannot find the vpsim binary: %s\n", ec.message().c_str());
        return 2;
    }
    if (!(a.factor > 1.0) || !std::isfinite(a.factor)) {
        std::fprintf(stderr, "vpsim why: --factor %g: must be a number above 1 (capacities and rates are multiplied "
                             "by it, latencies divided)\n", a.factor);
        return 2;
    }
    WorkDir dir;
    std::optional<OutputDirLock> lock;
    try {
        if (a.out.empty()) {
            const char* tmp = std::getenv("TMPDIR");
            std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/vpsim-why-XXXXXX";
            if (!::mkdtemp(tmpl.data())) throw OutputError(tmpl + ": cannot create a temporary directory");
            dir.path = tmpl;
            dir.temporary = true;
        } else {
            dir.path = a.out;
            fs::create_directories(fs::path(a.out) / "points", ec);
            if (ec) throw OutputError(fmt::format("{}: cannot create the output directory: {}", a.out, ec.message()));
        }
        lock.emplace(dir.path);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim why: %s\n", e.what());
        return 2;
    }
    study::install_interrupt_handlers();
    WhyResult w;
    try {
        w = analyse(a, exe.string(), dir.path);
    } catch (const WhyUsage& e) {
        std::fprintf(stderr, "vpsim why: %s\n", e.what());
        return 2;
    } catch (const study::StudyError& e) {
        std::fprintf(stderr, "vpsim why: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim why: %s\n", e.what());
        return study::interrupted() ? 128 + study::interrupt_signal() : 1;
    }
    const nlohmann::ordered_json j = why_json(a, w);
    try {
        if (!a.out.empty()) write_file_atomic(a.out + "/why.json", j.dump(2) + "\n");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim why: %s\n", e.what());
        return 2;
    }
    if (!a.quiet) {
        const std::string s = a.json ? j.dump(2) + "\n" : why_text(a, w);
        std::fwrite(s.data(), 1, s.size(), stdout);
    }
    return 0;
}

}  // namespace

void add_why_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<WhyArgs>();
    CLI::App* c = app.add_subcommand(
        "why",
        "What would make a run faster: every capacity, rate and latency the units declare (vpsim params --json: "
        "\"kind\") is relaxed in turn (capacities and rates x FACTOR, latencies / FACTOR), each variant runs as "
        "`vpsim run` through a study backend, and they are ranked by the cycles they save, with the stall counters "
        "that moved most; the top ones are tried in pairs to find those that only help together; the run summary's "
        "bottleneck sentence is set beside the top and said to agree or not (docs/why.md).\nExit status: 0 ok, 1 a "
        "run failed, 2 usage, bad parameter, malformed scene or I/O error, 128+N interrupted by signal N.");
    c->add_option("SCENE", a->scene, "The scene (.json, docs/scenes.md); none: the built-in default scene");
    add_preset_option(c, a->preset);
    c->add_option("--set", a->sets, "A base parameter, unit.param=value (repeatable), as vpsim run")
        ->allow_extra_args(false);
    c->add_option("--topology-file", a->topology_file, "The pipeline of this topology file, as vpsim run")
        ->type_name("T.json");
    c->add_option("--profile", a->profile, "Interpreter choice (repeatable, as vpsim run)")
        ->allow_extra_args(false)
        ->check(profile_option_check());
    c->add_option("--tess-profile", a->tess_profile, "Tessellation choice (repeatable, as vpsim run)")
        ->allow_extra_args(false)
        ->check(tess_option_check());
    c->add_option("--only", a->only,
                  "Relax only the parameters these globs match (unit.param, e.g. 'output.*'; comma-separated or "
                  "repeated); a glob that matches none is an error")
        ->delimiter(',')
        ->allow_extra_args(false);
    c->add_option("--factor", a->factor, "How far each parameter is relaxed (default 2: capacities and rates x2, "
                                         "latencies /2; integers rounded toward the relaxed side, within range)");
    CLI::Option* budget = c->add_option("--budget", a->budget,
                  "References the runs may take: the scene's draws are run from the first while their references "
                  "fit (at least one draw; `vpsim run --draws`); the window is stated in the output; 0: the whole "
                  "scene (default 1,000,000; with --sample 0)")
        ->type_name("N");
    add_points_sample_options(c, a->sample, "variant and the baseline (the same units measured in each)",
                              "a saving's half-width is the sum of its two runs'; a scene sampling refuses is refused "
                              "(exit 2)");
    c->add_option("--pairs", a->pairs, "Try the top N relaxations two at a time (default 4: 6 pairs; 0 or 1: none)")
        ->check(CLI::Range(0u, 16u));
    c->add_option("--moves", a->moves, "Stall counters shown per relaxation (default 3)")->check(CLI::Range(0u, 100u));
    c->add_option("--jobs,-j", a->jobs, "Runs at once (default: the cores)")->check(CLI::Range(1, 4096));
    c->add_option("--backend", a->backend, "local (a pool of processes, default) or parallel (GNU parallel), as vpsim "
                                           "sweep");
    c->add_option("--out", a->out,
                  "Keep the runs in DIR (points/<hash>/, as vpsim sweep: a second why reuses them) and write "
                  "DIR/why.json; default: a temporary directory, removed")
        ->type_name("DIR");
    c->add_flag("--json", a->json, "Print the analysis as JSON (schema vpsim-why-1, docs/why.md)");
    c->add_flag("--quiet", a->quiet, "Print nothing (with --out: DIR/why.json only)");
    c->callback([a, budget, &exit_code] {
        // Sampling is what makes a whole large scene affordable: its window is the whole scene
        // unless --budget says otherwise.
        if (a->sample.on && budget->count() == 0) a->budget = 0;
        if (a->quiet && a->out.empty()) {
            std::fprintf(stderr, "vpsim why: --quiet without --out would print and keep nothing: give --out DIR\n");
            exit_code = 2;
            return;
        }
        if (a->quiet && a->json) {
            std::fprintf(stderr, "vpsim why: --json prints the analysis and --quiet prints nothing: choose one\n");
            exit_code = 2;
            return;
        }
        exit_code = run_why(*a);
    });
}

}  // namespace vpsim::cli
