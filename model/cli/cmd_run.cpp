// vpsim run: a scene on the cycle-approximate SystemC timing model (docs/run.md): a summary on
// stdout; --out DIR writes config.json, stats.json and (--vertices) vertices.json; --vcd and
// --trace record the pipeline; a progress line on stderr for runs longer than ~2 s.
#include "model/cli/commands.h"
#include "model/cli/run_common.h"
#include "model/cli/run_compare.h"
#include "model/cli/run_sample.h"
#include "model/cli/vertex_format.h"
#include "model/common/file_util.h"
#include "model/common/presets.h"
#include "model/scene/default_scene.h"
#include "model/scene/program_cache.h"
#include "model/scene/scene_window.h"
#include "model/sc/pipeline.h"
#include "model/study/sample_stats.h"
#include "model/sc/rtl_in_loop.h"
#include "model/sc/rtl_vertex_fetch.h"
#include "model/sc/user_decl_decoder.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace vpsim::cli {

namespace {

struct RunArgs {
    std::string scene, preset, config, out, vcd, trace, topology_dot, topology_file, rtl_top, rtl_cache;
    std::vector<std::string> sets, profile, tess_profile, rtl;
    bool vertices = false, json = false, quiet = false, no_progress = false, topology = false;
    uint64_t stats_interval = 0;  // --stats-interval N (0: off)
    uint64_t draws = 0;           // --draws N: the scene up to its N-th draw (0: all of it)
    bool compare_model = false;   // --compare-model (with --rtl decl_decoder=FILE)
    uint64_t compare_random = 20000;
    SampleArgs sample;            // --sample and its options (run_sample.h)
};

// The vertices a run emits, in the `vpsim scene-exec --json` format (engine "timing").
class VertexWriter {
public:
    VertexWriter(const std::string& path, const scene::Scene& scene) : out_(path), scene_(scene) {
        out_.write(draws_json_open(scene.name, "timing"));
    }
    void vertex(const sc::DrawState& d, uint32_t index, const vs::VertexOutputs& o) {
        header(d);
        out_.write((first_vertex_ ? "\n   " : ",\n   ") + vertex_json(index, o));
        first_vertex_ = false;
    }
    void draw_done(const sc::DrawState& d) {
        header(d);
        out_.write(first_vertex_ ? "]}" : "\n  ]}");
        open_ = nullptr;
        prims_ += d.setup.primitives, refs_ += d.setup.refs, unique_ += d.unique, ++draws_;
    }
    void commit() {
        out_.write(draws_json_close(draws_, prims_, refs_, unique_));
        out_.commit();
    }

private:
    void header(const sc::DrawState& d) {
        if (open_ == &d) return;
        const auto& s = d.setup;
        out_.write(draw_json_open(draws_ == 0, {s.command, s.pointer, scene::command_name(scene_.commands[s.command].body),
                                                s.shader_name, pipe::primitive_type_name(s.type), s.primitives, s.refs,
                                                d.unique}) +
                   ",\n  \"outputs\": [");
        open_ = &d;
        first_vertex_ = true;
    }
    AtomicOutput out_;
    const scene::Scene& scene_;
    const sc::DrawState* open_ = nullptr;
    bool first_vertex_ = true;
    uint64_t draws_ = 0, prims_ = 0, refs_ = 0, unique_ = 0;
};

// `rtl`: the units that ran as Verilated RTL (--rtl); `assumptions`: as summary_json's. The rows
// the unit types declare (RunResult::rows, model/sc/summary.h) go among the run's own by rank:
// 1 RTL, 20 cycles, 40 stalls, 41 bottleneck, 44 instances, 50 caps, 52 assumptions, 70 fixed
// function, 71 software vertex processing, 90 simulation speed.
std::string summary_text(const std::string& scene, const sc::RunResult& r, const std::vector<std::string>& rtl,
                         const std::vector<SensitiveAssumption>& assumptions) {
    std::vector<sc::SummaryRow> rows;
    auto row = [&](int rank, const std::string& k, const std::string& v) { rows.push_back({rank, k, v}); };
    if (!rtl.empty()) row(1, "RTL in the loop", fmt::format("{} (Verilated)", fmt::join(rtl, ", ")));
    row(20, "cycles", group_digits(r.cycles));
    for (size_t i = 0; i < r.top_stalls.size() && i < 3; ++i) {
        const auto& t = r.top_stalls[i];
        row(40, i ? "" : "top stalls",
            fmt::format("{}.{}: {} cycles ({:.1f} %), {}", t.unit, t.reason, group_digits(t.cycles),
                        r.cycles ? 100.0 * double(t.cycles) / double(r.cycles) : 0.0,
                        t.cls == "local"          ? std::string("local")
                        : t.cls == "starvation"   ? "starved by " + t.by
                                                  : "back-pressure from " + t.by));
    }
    if (r.top_stalls.empty()) row(40, "top stalls", "none");
    row(41, "bottleneck", r.bottleneck);
    for (size_t i = 0; i < r.instances.size(); ++i) row(44, i ? "" : "per instance", r.instances[i].text);
    for (size_t i = 0; i < r.caps.size(); ++i) row(50, i ? "" : "caps", "warning: " + r.caps[i].text);
    if (!assumptions.empty()) {
        std::vector<std::string> texts;
        for (const auto& as : assumptions) texts.push_back(as.text());
        row(52, "assumptions", fmt::format("{}", fmt::join(texts, ", ")));
    }
    if (r.ff_draws) {
        std::vector<std::string> progs;
        for (const auto& [instructions, slots] : r.ff_programs)
            progs.push_back(fmt::format("fixed function ({} instructions, {} slots)", instructions, slots));
        row(70, "fixed-function draws", fmt::format("{}: {}", group_digits(r.ff_draws), fmt::join(progs, "; ")));
    }
    if (r.software_draws)
        row(71, "software vertex proc.",
            fmt::format("{} draws, {} vertices processed on the CPU ({}); not in the cycles above: the vertex "
                        "engine passes them through",
                        group_digits(r.software_draws), group_digits(r.software_vertices),
                        r.software_slots ? group_digits(r.software_slots) + " program slots"
                                         : std::string("fixed function: the reference processor")));
    const uint64_t shaded = r.values.find("shaded") ? r.count("shaded") : 0;  // (a topology without it: 0)
    row(90, "simulation speed", fmt::format("{:.2f} M cycles/s, {:.0f} k vertices/s ({:.3f} s)",
                                            r.host_seconds > 0 ? double(r.cycles) / r.host_seconds / 1e6 : 0.0,
                                            r.host_seconds > 0 ? double(shaded) / r.host_seconds / 1e3 : 0.0,
                                            r.host_seconds));
    rows.insert(rows.end(), r.rows.begin(), r.rows.end());
    std::stable_sort(rows.begin(), rows.end(), [](const sc::SummaryRow& a, const sc::SummaryRow& b) { return a.rank < b.rank; });
    std::string s = fmt::format("vpsim run: {}\n", scene);
    for (const auto& x : rows) s += fmt::format("  {:<28} {}\n", x.label, x.text);
    return s;
}

}  // namespace

// The values the unit types declare (RunResult::values) go among the run's own by rank: 0 scene,
// 1 rtl, 20 cycles, 40 stalls, 41 bottleneck, 43 instances, 50 caps, 51 cap_warnings,
// 52 assumptions, 70 fixed_function, 71 software_vertex_processing, 80 host_seconds,
// 81 cycles_per_host_second.
nlohmann::ordered_json summary_json(const std::string& scene, const sc::RunResult& r, const std::vector<std::string>& rtl,
                                    const std::vector<SensitiveAssumption>& assumptions) {
    std::vector<sc::SummaryValue> values;
    auto put = [&](int rank, const std::string& key, nlohmann::ordered_json v) { values.push_back({key, rank, std::move(v)}); };
    put(0, "scene", scene);
    if (!rtl.empty()) put(1, "rtl", rtl);
    put(20, "cycles", r.cycles);
    auto st = nlohmann::ordered_json::array();
    for (const auto& t : r.top_stalls) {
        nlohmann::ordered_json e = {{"unit", t.unit}, {"reason", t.reason}, {"cycles", t.cycles}, {"class", t.cls}};
        if (!t.by.empty()) e["by"] = t.by;
        st.push_back(std::move(e));
    }
    put(40, "stalls", st);
    auto chain = nlohmann::ordered_json::array();
    for (const auto& c : r.bottleneck_chain) {
        nlohmann::ordered_json e = {{"unit", c.unit}, {"reason", c.reason}, {"class", c.cls}, {"cycles", c.cycles}};
        if (!c.by.empty()) e["by"] = c.by;
        chain.push_back(std::move(e));
    }
    nlohmann::ordered_json b = {{"unit", r.bottleneck_unit}, {"busy", r.bottleneck_busy}, {"reason", r.bottleneck_reason},
                                {"text", r.bottleneck}, {"chain", chain}};
    if (!r.bottleneck_capacity_key.empty()) b["capacity_key"] = r.bottleneck_capacity_key;
    put(41, "bottleneck", b);
    if (!r.instances.empty()) {  // a topology with several units of a type
        auto inst = nlohmann::ordered_json::array();
        for (const auto& i : r.instances) inst.push_back({{"unit", i.unit}, {"type", i.type}, {"busy", i.busy}, {"text", i.text}});
        put(43, "instances", inst);
    }
    auto caps = nlohmann::ordered_json::array();
    std::string cap_keys;
    for (const auto& c : r.caps) {
        caps.push_back({{"capping", c.capping}, {"capped", c.capped}, {"text", c.text}});
        cap_keys += (cap_keys.empty() ? "" : " ") + c.capping + ">" + c.capped;
    }
    put(50, "caps", caps);
    put(51, "cap_warnings", cap_keys);  // one string: a sweep's results.csv column
    auto as = nlohmann::ordered_json::array();
    for (const auto& a : assumptions) {
        nlohmann::ordered_json e = a.to_json();
        e["text"] = a.text();
        as.push_back(std::move(e));
    }
    put(52, "assumptions", as);
    if (r.ff_draws) {
        auto progs = nlohmann::ordered_json::array();
        for (const auto& [instructions, slots] : r.ff_programs)
            progs.push_back({{"instructions", instructions}, {"slots", slots}});
        put(70, "fixed_function", {{"draws", r.ff_draws}, {"programs", progs}});
    }
    if (r.software_draws)
        put(71, "software_vertex_processing",
            {{"draws", r.software_draws}, {"cpu_vertices", r.software_vertices}, {"cpu_program_slots", r.software_slots}});
    put(80, "host_seconds", r.host_seconds);
    put(81, "cycles_per_host_second", r.host_seconds > 0 ? double(r.cycles) / r.host_seconds : 0.0);
    values.insert(values.end(), r.values.items().begin(), r.values.items().end());
    std::stable_sort(values.begin(), values.end(),
                     [](const sc::SummaryValue& a, const sc::SummaryValue& b) { return a.rank < b.rank; });
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const auto& v : values) sc::put_summary_value(j, v);
    return j;
}

namespace {

// One writer per output directory: a second run into it is refused (its files would mix with
// ours), and the lock goes with this process however it ends. False (the error printed) when
// the directory cannot be made or locked.
bool open_out_dir(const std::string& out, std::optional<OutputDirLock>& lock) {
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (ec || !std::filesystem::is_directory(out)) {
        std::fprintf(stderr, "vpsim run: %s: cannot create the output directory%s%s\n", out.c_str(), ec ? ": " : "",
                     ec ? ec.message().c_str() : "");
        return false;
    }
    try {
        lock.emplace(out);
        // stats.json marks a complete output (written last): an older one must not stay
        // beside this run's config.json if this run does not finish.
        std::filesystem::remove(std::filesystem::path(out) / "stats.json", ec);
        if (ec) throw OutputError(out + "/stats.json: cannot remove the previous run's: " + ec.message());
    } catch (const OutputError& e) {
        std::fprintf(stderr, "vpsim run: %s\n", e.what());
        return false;
    }
    return true;
}

// DIR/config.json: the scene, the window, the choices and every parameter (and the sampling
// options of a sampled run).
nlohmann::ordered_json run_config(const RunArgs& a, const std::string& scene, const std::string& hash,
                                  const ParamSet& params, const std::vector<std::string>& rtl_names) {
    nlohmann::ordered_json cfg;
    cfg["schema"] = "vpsim-config-1";
    cfg["scene"] = {{"name", scene}, {"hash", hash}};
    if (a.draws) cfg["draws"] = a.draws;  // absent: the whole scene
    if (!a.preset.empty()) cfg["preset"] = a.preset;  // then --config, then --set
    cfg["profile"] = a.profile;
    cfg["tess_profile"] = a.tess_profile;
    if (!rtl_names.empty()) cfg["rtl"] = rtl_names;  // absent: every unit is its SystemC model
    if (!a.topology_file.empty()) cfg["topology"] = a.topology_file;  // absent: the built-in one
    if (a.sample.on) {  // absent: a full run
        const study::SampleOptions& o = a.sample.options;
        cfg["sample"] = {{"unit", o.unit_refs}, {"period", o.period}, {"warmup", o.warmup}, {"seed", o.seed},
                         {"fallback", a.sample.fallback}};
    }
    cfg["params"] = params.to_json();
    return cfg;
}

// What a run is of: the scene and the pipeline with its parameters and profiles.
struct RunInputs {
    scene::Scene sc;
    std::string hash;
    sc::Topology topology;  // the built-in one, or --topology-file's (its unit types' tables are the run's)
    ParamSet params;
    vs::Profile profile;
    tess::TessProfile tess_profile;
};

// The scene, --topology-file, --preset, --config, --set, --profile and --tess-profile; nullopt
// (the error printed) on bad input.
std::optional<RunInputs> load_run_inputs(const RunArgs& a) {
    scene::Scene sc;
    std::string hash;
    try {
        LoadedScene ls = load_run_scene(a.scene, !a.out.empty());  // the hash is only for --out's config.json
        sc = std::move(ls.scene);
        hash = ls.hash;
        if (a.draws) scene::keep_draws(sc, a.draws);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim run: %s\n", e.what());
        return std::nullopt;
    }
    RunInputs in{std::move(sc), hash, sc::default_topology(), sc::default_params(), vs::Profile::d3d8(), {}};
    try {
        if (!a.topology_file.empty()) {
            in.topology = sc::load_topology_file(a.topology_file);
            in.params = sc::default_params(in.topology);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim run: %s\n", e.what());
        return std::nullopt;
    }
    try {
        if (!a.preset.empty()) apply_preset(in.params, a.preset);
        if (!a.config.empty()) in.params.apply_config_file(a.config);
        for (const auto& s : a.sets) in.params.apply_set(s);
        for (const auto& kv : a.profile) in.profile.set(kv);
        for (const auto& kv : a.tess_profile) tess::set_tess_option(in.tess_profile, kv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim run: %s\n", e.what());
        return std::nullopt;
    }
    return in;
}

// --sample (docs/sampling.md): the sampled run's exit status; nullopt when the scene is to run in
// full instead (refused with --sample-fallback: `refused` says why).
std::optional<int> run_sampled_if_asked(const RunArgs& a, RunInputs& in, std::string& refused) {
    if (!a.sample.on) return std::nullopt;
    study::SamplePlan plan;
    sc::RunOptions opt;
    opt.tess_profile = in.tess_profile;
    opt.topology = &in.topology;
    opt.programs = std::make_shared<scene::ProgramCache>();  // the start checks' and the blocks' runs share it
    std::vector<study::StartCheck> checks;
    try {
        study::SampleOptions so = a.sample.options;
        so.cache = pipe::PostTransformCacheParams::from(in.params);  // the auxiliary's cache: the run's
        plan = study::plan_sampling(in.sc, so);
        checks = study::check_start(in.sc, plan, in.params, in.profile, opt);
    } catch (const study::SampleRefused& e) {
        if (!a.sample.fallback) {
            std::fprintf(stderr, "vpsim run: --sample refused: %s\n", e.what());
            return 2;
        }
        refused = e.what();
        std::fprintf(stderr, "vpsim run: --sample refused: %s; running the whole scene in detail "
                             "(--sample-fallback)\n", e.what());
        return std::nullopt;
    } catch (const std::exception& e) {  // a run of the start check failed
        return run_error_status(e);
    }
    std::optional<OutputDirLock> out_lock;
    if (!a.out.empty() && !open_out_dir(a.out, out_lock)) return 2;
    SampleOutput out;
    out.start_checks = checks;
    out.json = a.json;
    out.quiet = a.quiet;
    out.dir = a.out;
    if (!a.out.empty()) out.config = run_config(a, in.sc.name, in.hash, in.params, {});
    return run_sample(std::move(in.sc), plan, in.params, in.profile, opt, a.sample.options.z, out);
}

// The units --rtl runs as RTL: built-in designs, and the user's own for the decoder or the fetch.
struct RtlChoice {
    std::vector<const sc::RtlUnit*> rtl;  // --rtl, each unit once, in the order given
    std::vector<std::string> names;
    sc::UnitFactory user_decoder;  // --rtl decl_decoder=FILE.sv[,FILE...]: decl_decoder's "rtl"
    std::shared_ptr<std::shared_ptr<rtl::UserRtl>> user_built =
        std::make_shared<std::shared_ptr<rtl::UserRtl>>();  // that design, as built for the run
    std::vector<std::string> user_rtl_args;  // its --rtl/--top options for replay commands
    std::string user_fetch_name;             // --rtl vertex_fetch=FILE.sv[,FILE...]
    sc::UnitFactory user_fetch;              // that design as vertex_fetch's "rtl"
    bool given(const std::string& unit) const {
        for (const std::string& n : names)
            if (n == unit || n.rfind(unit + "=", 0) == 0) return true;
        return false;
    }
};

// --rtl's words: UNIT,UNIT,... names several units; UNIT=FILE,FILE,... one unit's sources.
std::vector<std::string> rtl_words(const std::vector<std::string>& rtl) {
    std::vector<std::string> words;
    for (const std::string& arg : rtl) {
        if (arg.find('=') != std::string::npos) {
            words.push_back(arg);
            continue;
        }
        for (size_t b = 0; b <= arg.size();) {
            const size_t c = std::min(arg.find(',', b), arg.size());
            if (c > b) words.push_back(arg.substr(b, c - b));
            b = c + 1;
        }
    }
    return words;
}

// UNIT=FILE.sv[,FILE...]: the user's design for the decoder or the fetch. False (the error
// printed) when it cannot be used.
bool add_user_rtl(const RunArgs& a, const std::string& arg, RtlChoice& r) {
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    if (name != "decl_decoder" && name != "vertex_fetch") {
        std::fprintf(stderr, "vpsim run: --rtl %s: only decl_decoder and vertex_fetch take your own RTL (UNIT=FILE.sv)\n",
                     arg.c_str());
        return false;
    }
    rtl::UserRtlSpec spec;
    for (size_t b = eq + 1; b <= arg.size();) {
        const size_t c = std::min(arg.find(',', b), arg.size());
        if (c > b) spec.sources.push_back(arg.substr(b, c - b));
        b = c + 1;
    }
    if (spec.sources.empty()) {
        std::fprintf(stderr, "vpsim run: --rtl %s: no file after '='\n", arg.c_str());
        return false;
    }
    spec.top = a.rtl_top;
    spec.cache_dir = a.rtl_cache;
    spec.vpsim_version = VPSIM_VERSION;
    spec.verbose = !a.quiet;
    const std::string named = name + "=" + fmt::format("{}", fmt::join(spec.sources, ","));
    if (name == "decl_decoder") {
        r.user_decoder = sc::user_decl_decoder_unit(spec, r.user_built);
        for (const auto& f : spec.sources) r.user_rtl_args.insert(r.user_rtl_args.end(), {"--rtl", f});
        if (!spec.top.empty()) r.user_rtl_args.insert(r.user_rtl_args.end(), {"--top", spec.top});
    } else {
        try {
            r.user_fetch = sc::vf::user_loop_unit(spec);  // Verilated now: ports checked first
        } catch (const rtl::RtlBuildError& e) {
            std::fprintf(stderr, "vpsim run: --rtl %s: %s\n", arg.c_str(), e.what());
            return false;
        }
        r.user_fetch_name = named;
    }
    r.names.push_back(named);
    return true;
}

// --rtl; false (the error printed) on a unit given twice, an unknown unit or an unusable design.
bool choose_rtl(const RunArgs& a, RtlChoice& r) {
    for (const std::string& arg : rtl_words(a.rtl)) {
        const size_t eq = arg.find('=');
        const std::string name = arg.substr(0, eq);
        if (r.given(name)) {
            std::fprintf(stderr, "vpsim run: --rtl %s: %s is given twice\n", arg.c_str(), name.c_str());
            return false;
        }
        if (eq != std::string::npos) {
            if (!add_user_rtl(a, arg, r)) return false;
            continue;
        }
        const sc::RtlUnit* unit = nullptr;
        std::vector<std::string> valid;
        for (const sc::RtlUnit& u : sc::rtl_units()) {
            if (u.name == name) unit = &u;
            valid.push_back(u.name);
        }
        if (!unit) {
            std::fprintf(stderr, "vpsim run: --rtl %s: no RTL for this unit; valid values: %s\n", name.c_str(),
                         fmt::format("{}", fmt::join(valid, ", ")).c_str());
            return false;
        }
        r.rtl.push_back(unit);
        r.names.push_back(unit->name);
    }
    return true;
}

// --topology / --topology-dot: the channels with the capacities, latencies and bandwidths these
// parameters give, checked as a run would build it (every unit made, every link bound) first.
int show_topology(const RunArgs& a, const RunInputs& in) {
    try {
        sc::RunOptions check;
        check.topology = &in.topology;
        sc::check_topology(in.params, check);
        if (!a.topology_dot.empty()) write_file_atomic(a.topology_dot, sc::topology_dot(in.topology, in.params));
        if (a.topology) {
            const std::string text = a.json ? in.topology.text : sc::topology_text(in.topology, in.params);
            std::fwrite(text.data(), 1, text.size(), stdout);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim run: %s\n", e.what());
        return 2;
    }
    return 0;
}

// Options that need another: 0 when they are consistent, else 2 (the error printed).
int check_option_needs(const RunArgs& a, const RtlChoice& r) {
    if (a.compare_model && !r.user_decoder) {
        std::fprintf(stderr, "vpsim run: --compare-model compares your decoder RTL with the model: it needs --rtl "
                             "decl_decoder=FILE.sv\n");
        return 2;
    }
    if (a.stats_interval && a.out.empty()) {
        std::fprintf(stderr, "vpsim run: --stats-interval writes DIR/timeseries.csv: it needs --out DIR\n");
        return 2;
    }
    if (a.vertices && a.out.empty()) {
        std::fprintf(stderr, "vpsim run: --vertices writes DIR/vertices.json: it needs --out DIR\n");
        return 2;
    }
    return 0;
}

// The user's decoder disagreed with the model inside the run: a finding (1), with the declaration
// written for the cross-check and its replay command.
int user_decoder_mismatch(const RunArgs& a, const RtlChoice& r, const sc::DeclDecoderMismatch& e) {
    std::fprintf(stderr, "vpsim run: --rtl %s: %s\n", r.names.back().c_str(), e.what());
    try {
        // The declaration next to the run, ready for the cross-check (the pipeline drives
        // every token at once and takes every event: --out-ready 1 --in-valid 1, strict).
        const std::string f = write_mismatch_declaration(e, a.out.empty() ? "vpsim-run-mismatches" : a.out);
        std::vector<std::string> replay = {"vpsim", "xcheck"};
        replay.insert(replay.end(), r.user_rtl_args.begin(), r.user_rtl_args.end());
        replay.insert(replay.end(), {"--corpus", f, "--random", "0", "--out-ready", "1", "--in-valid", "1"});
        std::string cmd;
        for (const auto& w : replay) cmd += (cmd.empty() ? "" : " ") + w;
        std::fprintf(stderr, "vpsim run: the declaration: %s\n  replay: %s\n", f.c_str(), cmd.c_str());
    } catch (const std::exception& w) {
        std::fprintf(stderr, "vpsim run: could not write the declaration: %s\n", w.what());
    }
    return 1;
}

// The run on the timing model with its outputs (DIR's files, the --compare-model check); the
// exit status of a failure, 0 when done. `r` and `assumptions` are the summary's.
int simulate(const RunArgs& a, RunInputs& in, const RtlChoice& rtl, const std::string& sample_refused,
             sc::RunResult& r, std::vector<SensitiveAssumption>& assumptions) {
    try {
        // Without --preset the built-in defaults are GeForce3's (nv20's values): nv20's entries apply
        // wherever the value in force is the one they were measured at.
        assumptions = assumptions_in_force(a.preset.empty() ? "nv20" : a.preset, in.params, a.sets);
        std::unique_ptr<VertexWriter> vw;
        if (a.vertices) vw = std::make_unique<VertexWriter>(a.out + "/vertices.json", in.sc);
        sc::RunOptions opt;
        opt.vcd_path = a.vcd;
        opt.trace_path = a.trace;
        opt.stats_interval = a.stats_interval;
        opt.progress = !a.no_progress && !a.quiet && ::isatty(2);
        opt.tess_profile = in.tess_profile;
        opt.topology = &in.topology;
        sc::UnitRegistry units = sc::builtin_units();  // with the --rtl units' variants
        for (const sc::RtlUnit* u : rtl.rtl) sc::use_rtl(units, opt, u->name, u->make());
        if (rtl.user_decoder) sc::use_rtl(units, opt, "decl_decoder", rtl.user_decoder);
        if (rtl.user_fetch) sc::use_rtl(units, opt, "vertex_fetch", rtl.user_fetch);
        if (vw) {
            opt.sink = [&vw](const sc::DrawState& d, uint64_t, uint32_t index, const vs::VertexOutputs& o) {
                vw->vertex(d, index, o);
            };
            opt.draw_done = [&vw](const sc::DrawState& d) { vw->draw_done(d); };
        }
        r = sc::run_pipeline(in.sc, in.params, in.profile, opt);
        sc::check_cycles_add_up(r);
        if (a.compare_model) {
            // The model's pipeline beside the RTL's, then directed arrays on the same build.
            sc::RunOptions mo;
            mo.tess_profile = in.tess_profile;
            CompareModel cm;
            cm.random = a.compare_random;
            cm.mismatch_dir = (a.out.empty() ? std::string("vpsim-run-mismatches") : a.out + "/decl-mismatches");
            cm.rtl_args = rtl.user_rtl_args;
            const int rc = compare_with_model(in.sc, in.params, in.profile, mo, r, **rtl.user_built, cm);
            if (rc) return rc;
        }
        if (vw) vw->commit();
        if (!a.out.empty()) {
            if (a.stats_interval) write_file_atomic(a.out + "/timeseries.csv", r.timeseries_csv);
            write_file_atomic(a.out + "/config.json",
                              run_config(a, in.sc.name, in.hash, in.params, rtl.names).dump(2) + "\n");
            nlohmann::ordered_json st = r.stats;
            st["summary"] = summary_json(in.sc.name, r, rtl.names, assumptions);
            if (!sample_refused.empty()) study::note_sample_refused(st["summary"], sample_refused);
            write_file_atomic(a.out + "/stats.json", st.dump(2) + "\n");
        }
    } catch (const sc::vf::LoopMismatch& e) {
        if (rtl.user_fetch) {  // the user's RTL disagrees with the golden vertex fetch: a finding
            std::fprintf(stderr, "vpsim run: --rtl %s: %s (check it with vpsim xcheck --unit vertex_fetch --rtl)\n",
                         rtl.user_fetch_name.c_str(), e.what());
            return 1;
        }
        std::fprintf(stderr, "vpsim run: %s (internal error)\n", e.what());
        return 3;
    } catch (const sc::DeclDecoderMismatch& e) {
        if (rtl.user_decoder) return user_decoder_mismatch(a, rtl, e);  // a finding, not our error
        std::fprintf(stderr, "vpsim run: %s (internal error)\n", e.what());
        return 3;
    } catch (const std::exception& e) {  // a scene command failed (1), an internal error (3), else 2
        return run_error_status(e);
    }
    return 0;
}

// The warnings on stderr, then (unless --quiet) the summary: text or --json.
void print_run(const RunArgs& a, const std::string& scene, const sc::RunResult& r, const RtlChoice& rtl,
               const std::vector<SensitiveAssumption>& assumptions, const std::string& sample_refused) {
    for (const auto& w : r.warnings) std::fprintf(stderr, "%s\n", w.c_str());
    for (const auto& c : r.caps) std::fprintf(stderr, "vpsim run: warning: %s\n", c.text.c_str());
    if (a.quiet) return;
    std::string s;
    if (a.json) {
        nlohmann::ordered_json j = summary_json(scene, r, rtl.names, assumptions);
        if (!sample_refused.empty()) study::note_sample_refused(j, sample_refused);
        s = j.dump(2) + "\n";
    } else {
        s = summary_text(scene, r, rtl.names, assumptions);
        if (!sample_refused.empty())
            s += fmt::format("  {:<28} refused ({}); this is the whole scene in detail\n", "sampling", sample_refused);
    }
    std::fwrite(s.data(), 1, s.size(), stdout);
}

int run_run(const RunArgs& a) {
    std::optional<RunInputs> in = load_run_inputs(a);
    if (!in) return 2;
    std::string sample_refused;  // --sample --sample-fallback: why this run is in full
    if (const std::optional<int> rc = run_sampled_if_asked(a, *in, sample_refused)) return *rc;
    RtlChoice rtl;
    if (!choose_rtl(a, rtl)) return 2;
    if (a.topology || !a.topology_dot.empty()) return show_topology(a, *in);
    if (const int rc = check_option_needs(a, rtl)) return rc;
    std::optional<OutputDirLock> out_lock;
    if (!a.out.empty() && !open_out_dir(a.out, out_lock)) return 2;
    sc::RunResult r;
    std::vector<SensitiveAssumption> assumptions;  // the preset's that move results by more than 10 %
    if (const int rc = simulate(a, *in, rtl, sample_refused, r, assumptions)) return rc;
    print_run(a, in->sc.name, r, rtl, assumptions, sample_refused);
    return 0;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<RunArgs>();
    CLI::App* c = app.add_subcommand(
        "run",
        "Run a scene on the cycle-approximate SystemC timing model and print a summary (cycles, cycles per vertex, "
        "ALU utilisation, co-issue, cache hit rates, ACMR/ATVR, bandwidth, top stalls, simulation speed); no SCENE "
        "runs the built-in default scene.\nExit status: 0 ok, 1 a scene command failed, 2 usage, bad parameter, "
        "malformed scene or I/O error, 3 internal error.");
    c->add_option("SCENE", a->scene, "The scene (.json, docs/scenes.md); none: the built-in default scene");
    add_preset_option(c, a->preset);
    c->add_option("--draws", a->draws,
                  "Run the scene only up to its N-th draw (its commands after it are dropped; a scene with fewer "
                  "draws runs whole): a window of a large scene, as `vpsim why` runs it (docs/why.md)")
        ->type_name("N")
        ->check(CLI::Range(uint64_t(1), std::numeric_limits<uint64_t>::max()));
    c->add_option("--config", a->config,
                  "Parameters from a JSON file: {\"unit\": {\"param\": value}} or a run's config.json");
    c->add_option("--set", a->sets, "Override one parameter, unit.param=value (repeatable; after --config); a topology's unit "
                  "named otherwise than its type has its own, INSTANCE.param, following TYPE.param until set "
                  "(docs/parameters.md, \"Per-instance parameters\")")
        ->allow_extra_args(false);
    c->add_option("--out", a->out, "Write config.json and stats.json (and with --vertices vertices.json) into DIR")
        ->type_name("DIR");
    c->add_option("--stats-interval", a->stats_interval,
                  "With --out: write DIR/timeseries.csv, every N cycles each unit's busy / idle / stalled-by-reason "
                  "cycles and each channel's mean occupancy, full cycles and pushes (docs/stats.md, \"Time "
                  "series\"); results are the same with or without it")
        ->type_name("N")
        ->check(CLI::Range(uint64_t(1), std::numeric_limits<uint64_t>::max()));
    c->add_flag("--vertices", a->vertices,
                "With --out: write every emitted vertex, in draw order, to DIR/vertices.json (the format of "
                "`vpsim scene-exec --json`)");
    c->add_option("--vcd", a->vcd, "Write a waveform of every unit's state and every channel's handshakes and "
                                   "occupancy (GTKWave)")
        ->type_name("FILE");
    c->add_option("--trace", a->trace, "Write Chrome/Perfetto trace events: a track per unit, a span per vertex")
        ->type_name("FILE.json");
    c->add_option("--topology-file", a->topology_file,
                  "Run the pipeline this topology file describes (units and channels; docs/timing-model.md, \"The "
                  "topology file\") instead of the built-in one; it is checked before the run (a unit's \"params\" "
                  "too: its own values; and its \"bind\": the other units' parameters it reads)")
        ->type_name("T.json");
    c->add_flag("--topology", a->topology,
                "Print the topology in use (the built-in one or --topology-file's): its units, its channels "
                "(producer.port -> consumer.port, capacity, latency, bandwidth with these parameters) and the "
                "dispatcher's step order, and exit without running; with --json, the topology file itself");
    c->add_option("--topology-dot", a->topology_dot,
                  "Write the pipeline's channels as a Graphviz DOT graph to FILE and exit without running "
                  "(render: dot -Tsvg FILE)")
        ->type_name("FILE");
    std::string rtl_help = "Run UNIT as its Verilated RTL inside the pipeline (repeatable, or UNIT,UNIT; docs/run.md, "
                           "\"RTL in the loop\"); every vertex stays the model's (decl_decoder: every statistic and "
                           "cycle count too; vertex_fetch: its own timing, docs/vertex-fetch-rtl.md). UNIT:";
    for (const sc::RtlUnit& u : sc::rtl_units()) rtl_help += " " + u.name + " (" + u.what + ")";
    rtl_help += "; or decl_decoder=FILE.sv[,FILE.sv...]: your own decoder RTL, Verilated at run time into the RTL cache "
                "(docs/xcheck.md, \"Your own RTL\"), with the run's CONST_COUNT and MAX_LENGTH; or "
                "vertex_fetch=FILE.sv[,FILE.sv...]: your own vertex fetch RTL (docs/vertex-fetch-rtl.md)";
    c->add_option("--rtl", a->rtl, rtl_help)->type_name("UNIT[=FILE.sv]")->allow_extra_args(false);
    c->add_flag("--compare-model", a->compare_model,
                "With --rtl decl_decoder=FILE.sv: also run the model's pipeline and require the same cycles and unit "
                "statistics, then cross-check the same build on the directed corpus (strict and lenient) and "
                "--compare-random arrays; any difference exits 1 with a replay command");
    c->add_option("--compare-random", a->compare_random, "With --compare-model: random arrays after the corpus (default 20000)")
        ->check(CLI::Range(uint64_t(0), uint64_t(1) << 32));
    c->add_option("--rtl-top", a->rtl_top, "With --rtl UNIT=FILE: the top module (default: Verilator's choice)");
    c->add_option("--rtl-cache", a->rtl_cache,
                  "With --rtl UNIT=FILE: the directory of Verilated builds (default $VPSIM_RTL_CACHE, else "
                  "$XDG_CACHE_HOME/vpsim/rtl, else ~/.cache/vpsim/rtl)");
    CLI::Option* json = c->add_flag("--json", a->json, "Print the summary as JSON");
    // --quiet drops the summary --json would print: together they are a contradiction, refused.
    c->add_flag("--quiet", a->quiet, "Print no summary and no progress line (not with --json)")->excludes(json);
    c->add_flag("--no-progress", a->no_progress, "No progress line on stderr");
    c->add_option("--profile", a->profile,
                  std::string("Semantics option (repeatable; docs/vs-semantics.md): ") + vs::Profile::option_help())
        ->check(profile_option_check());
    c->add_option("--tess-profile", a->tess_profile,
                  std::string("Tessellation choice (repeatable; docs/tessellation.md): ") + tess::tess_profile_help())
        ->check(tess_option_check());
    add_sample_options(c, a->sample);
    c->callback([a, &exit_code] { exit_code = run_run(*a); });
}

}  // namespace vpsim::cli
