// vpsim xcheck --unit vertex_fetch: the vertex fetch RTL against the golden vertex fetch
// (tb/vf_xcheck.h, docs/vertex-fetch-rtl.md).
#include "model/cli/commands.h"
#include "model/cli/xcheck_vf.h"
#include "tb/junit.h"
#include "tb/replay.h"
#include "tb/mutants.h"
#include "model/rtl/user_vertex_fetch.h"
#include "model/sc/rtl_vertex_fetch.h"
#include "tb/vf_xcheck.h"
#include "model/common/process.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace vpsim::cli {

void add_vf_xcheck_options(CLI::App* c, VfXcheckArgs& a) {
    c->add_option("--unit", a.unit,
                  "The unit to cross-check: decl_decoder (default) or vertex_fetch (rtl/vertex_fetch.sv against the "
                  "golden vertex fetch: random layouts x vertex data x memory latency and back-pressure; "
                  "docs/vertex-fetch-rtl.md). With vertex_fetch, --random counts cases (default 10000)")
        ->check(CLI::IsMember({"decl_decoder", "vertex_fetch"}));
    c->add_option("--latency-min", a.lat_min, "With --unit vertex_fetch: the memory latency's minimum in cycles (default: drawn per case)")
        ->check(CLI::Range(int64_t(1), int64_t(100000)));
    c->add_option("--latency-max", a.lat_max, "With --unit vertex_fetch: the memory latency's maximum in cycles (default: drawn per case)")
        ->check(CLI::Range(int64_t(1), int64_t(100000)));
    c->add_option("--req-ready", a.req_ready,
                  "With --unit vertex_fetch: probability that the memory takes a request in a cycle (default: drawn per case)")
        ->check(CLI::Range(0.05, 1.0));
    c->add_option("--idx-valid", a.idx_valid,
                  "With --unit vertex_fetch: probability that a vertex index is offered in a cycle (default: drawn per case)")
        ->check(CLI::Range(0.05, 1.0));
    c->add_flag("--no-directed", a.no_directed, "With --unit vertex_fetch: skip the directed cases");
    auto* ct = c->add_flag("--check-traffic", a.check_traffic,
                           "With --unit vertex_fetch --rtl FILE: also require exactly the memory requests of "
                           "rtl/vertex_fetch.sv's one-word tag, in order (on without --rtl)");
    c->add_flag("--no-check-traffic", a.no_check_traffic,
                "With --unit vertex_fetch: compare the vertices only, not the memory requests")
        ->excludes(ct);
    c->add_option("--case", a.case_file,
                  "With --unit vertex_fetch: check just the case in FILE (a shrunk failing case, as written into "
                  "OUT/mismatches/), without the directed and random cases")
        ->check(CLI::ExistingFile);
}

namespace {

// The timing check of a mutant that passed the cross-check: in the pipeline (`vpsim run --rtl
// vertex_fetch=mutant.v`) on the built-in scene in each of these settings, its cycles must be the
// SystemC model unit's with the RTL's timing parameters (docs/vertex-fetch-rtl.md, "In the loop":
// an independent cycle model of rtl/vertex_fetch.sv). The settings push on the RTL's limits: a long
// memory latency fills the response FIFO's 32 words, one input buffer holds the output register
// and fills the element FIFO, a narrow bus spaces the responses.
const std::vector<std::pair<std::string, std::vector<std::string>>>& timing_settings() {
    static const std::vector<std::pair<std::string, std::vector<std::string>>> s = {
        {"the default parameters", {}},
        {"memory.latency=300", {"memory.latency=300"}},
        {"vertex_fetch.input_buffers=1", {"vertex_fetch.input_buffers=1"}},
        {"memory.latency=1 memory.bytes_per_cycle=4", {"memory.latency=1", "memory.bytes_per_cycle=4"}},
    };
    return s;
}

// `vpsim run` (the built-in scene) with `extra`; the cycle count, or -1 with the output in `err`.
int64_t run_cycles(const std::vector<std::string>& extra, std::string& err) {
    std::vector<std::string> argv = {"/proc/self/exe", "run", "--json", "--no-progress"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    std::string out;
    if (run_command(argv, "", out, 120) != 0) {
        err = out.substr(0, out.find('\n'));
        return -1;
    }
    try {
        return nlohmann::json::parse(out.substr(out.find('{')))["cycles"].get<int64_t>();
    } catch (const std::exception&) {
        err = "no cycle count in vpsim run's output";
        return -1;
    }
}

std::vector<std::string> with_sets(std::vector<std::string> argv, const std::vector<std::string>& sets) {
    for (const auto& kv : sets) argv.insert(argv.end(), {"--set", kv});
    return argv;
}

// --mutants N for the vertex fetch RTL: yosys mutate's list, each mutant Verilated through the
// cache and cross-checked by a child `vpsim xcheck --unit vertex_fetch --rtl mutant.v
// --first-mismatch --check-traffic` (tb/mutants.h; the decoder's campaign in cmd_xcheck.cpp works
// the same way); one that passes is then timed in the pipeline (timing_settings()).
int run_vf_mutants(const VfXcheckArgs& a) {
    MutantsSetup setup;
    if (!prepare_mutants(a.rtl, a.top, "rtl/vertex_fetch.sv", "vertex_fetch", a.mutants_dir, a.params, a.mutants,
                         a.mutant_seed, setup))
        return 2;
    std::vector<std::string> check = {"xcheck", "--unit", "vertex_fetch", "--first-mismatch", "--json",
                                      "--random", std::to_string(a.random), "--seed", std::to_string(a.seed)};
    if (a.jobs > 1) check.insert(check.end(), {"--jobs", std::to_string(a.jobs)});
    if (a.stream) check.insert(check.end(), {"--stream", std::to_string(a.stream)});
    if (a.no_directed) check.push_back("--no-directed");
    // A mutant of rtl/vertex_fetch.sv keeps its read policy: its requests are checked unless asked not to.
    check.push_back(a.no_check_traffic ? "--no-check-traffic" : "--check-traffic");
    // The memory latency and the handshakes, when given, as for one cross-check (default: drawn per case).
    if (a.lat_min >= 0) check.insert(check.end(), {"--latency-min", std::to_string(a.lat_min)});
    if (a.lat_max >= 0) check.insert(check.end(), {"--latency-max", std::to_string(a.lat_max)});
    if (a.req_ready >= 0) check.insert(check.end(), {"--req-ready", tb::exact_number(a.req_ready)});
    if (a.out_ready >= 0) check.insert(check.end(), {"--out-ready", tb::exact_number(a.out_ready)});
    if (a.idx_valid >= 0) check.insert(check.end(), {"--idx-valid", tb::exact_number(a.idx_valid)});
    if (!a.rtl_cache.empty()) check.insert(check.end(), {"--rtl-cache", a.rtl_cache});
    if (a.no_gate) check.push_back("--no-coverage-gate");  // each mutant's check gated as asked
    if (a.gate) check.push_back("--coverage-gate");
    // The model's cycles with the RTL's timing, and the built-in RTL's, per setting: equal, or the
    // timing check would kill every mutant.
    std::vector<int64_t> model_cycles;
    const bool timing = a.rtl.empty();  // a user's design need not have rtl/vertex_fetch.sv's timing
    if (timing)
        for (const auto& [name, sets] : timing_settings()) {
            std::string err;
            const int64_t m = run_cycles(with_sets(with_sets({}, sc::vf::rtl_timing_params()), sets), err);
            const int64_t r = run_cycles(with_sets({"--rtl", "vertex_fetch"}, sets), err);
            if (m < 0 || r < 0 || m != r) {
                std::fprintf(stderr, "vpsim xcheck: --mutants: the timing check's reference: with %s the model gives %lld "
                                     "cycles, the built-in RTL %lld %s\n",
                             name.c_str(), (long long)m, (long long)r, err.c_str());
                return 2;
            }
            model_cycles.push_back(m);
        }
    tb::CampaignSpec cs;
    cs.mutation = setup.spec;
    cs.check_args = check;
    cs.rtl_cache = a.rtl_cache;
    cs.vpsim_version = VPSIM_VERSION;
    cs.timeout_seconds = a.mutant_timeout;
    cs.build = [](const rtl::UserRtlSpec& spec) { rtl::vf::build(spec); };  // the vertex fetch's port contract
    // A mutant whose values and requests were right: its timing, in the pipeline.
    if (timing)
        cs.after_pass = [&a, &model_cycles](const std::string& file) {
            std::string detail;
            for (size_t k = 0; k < timing_settings().size() && detail.empty(); ++k) {
                std::vector<std::string> run = {"--rtl", "vertex_fetch=" + file};
                if (!a.rtl_cache.empty()) run.insert(run.end(), {"--rtl-cache", a.rtl_cache});
                std::string err;
                const int64_t c = run_cycles(with_sets(run, timing_settings()[k].second), err);
                if (c != model_cycles[k])
                    detail = c < 0 ? fmt::format("timing: the run with {} failed: {}", timing_settings()[k].first, err)
                                   : fmt::format("timing: with {} the pipeline ran {} cycles, the model with the RTL's "
                                                 "timing {}",
                                                 timing_settings()[k].first, c, model_cycles[k]);
            }
            return detail;
        };
    CampaignReport report;
    report.unit = "vertex_fetch";
    const std::string directed = a.no_directed ? "" : "the directed cases + ";
    report.against = a.stream ? fmt::format("{}{} random streams of {} draws (seed {})", directed,
                                            (a.random + a.stream - 1) / a.stream, a.stream, a.seed)
                              : fmt::format("{}{} random cases (seed {})", directed, a.random, a.seed);
    report.n = a.mutants;
    report.seed = a.mutant_seed;
    report.junit = a.junit;
    return run_campaign(setup, cs, report);
}

}  // namespace

namespace {

// The design: the built-in RTL, or --rtl (and the built-in one Verilated again for --coverage),
// built through the cache; its name for the report and its options for replay commands. False
// after printing why (exit 2).
bool load_vf_rtl(const VfXcheckArgs& a, tb::vf::Options& o, std::string& rtl_name) {
    rtl_name = "rtl/vertex_fetch.sv";
    std::vector<std::string> sources = a.rtl;
    if (!a.coverage.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(a.coverage, ec);
        if (ec) {
            std::fprintf(stderr, "vpsim xcheck: --coverage %s: cannot create the directory (%s)\n", a.coverage.c_str(),
                         ec.message().c_str());
            return false;
        }
        if (sources.empty()) {  // the built-in RTL, Verilated again with coverage
            const std::string sv = data_path("rtl/vertex_fetch.sv");
            if (sv.empty()) {
                std::fprintf(stderr, "vpsim xcheck: --coverage: the RTL source %s\n", data_not_found("rtl/vertex_fetch.sv").c_str());
                return false;
            }
            sources = {sv};
        }
        o.coverage_file = a.coverage + "/coverage.dat";
    }
    if (!sources.empty()) {
        rtl::UserRtlSpec spec;
        spec.sources = sources;
        spec.top = a.top;
        spec.cache_dir = a.rtl_cache;
        spec.vpsim_version = VPSIM_VERSION;
        spec.coverage = !a.coverage.empty();
        spec.verbose = !a.json;
        try {
            for (const auto& g : a.params) spec.params.push_back(rtl::parse_param(g));
            auto rtl = rtl::vf::build(spec);
            o.rtl = rtl::vf::factory(rtl);
            if (!a.json && rtl->was_cached()) std::fprintf(stderr, "vpsim: %s: cached build %s\n", sources.front().c_str(), rtl->dir().c_str());
        } catch (const rtl::RtlBuildError& e) {
            std::fprintf(stderr, "vpsim xcheck: %s\n", e.what());
            return false;
        }
        if (!a.rtl.empty()) {
            rtl_name = fmt::format("{}", fmt::join(a.rtl, ", "));
            for (const auto& f : a.rtl) o.replay_args += " --rtl " + f;
            if (!a.top.empty()) o.replay_args += " --top " + a.top;
            for (const auto& g : a.params) o.replay_args += " -G " + g;
            if (a.check_traffic) o.replay_args += " --check-traffic";
            if (!a.rtl_cache.empty()) o.replay_args += " --rtl-cache " + a.rtl_cache;
            o.replay_args = o.replay_args.substr(1);
        }
    }
    return true;
}

// The report as one JSON object (with --coverage, the code coverage in it); non-zero on a
// coverage report error.
int print_vf_json(const VfXcheckArgs& a, const tb::vf::Options& o, const tb::vf::Report& r, const std::string& rtl_name,
                  const tb::GateResult& gate, bool gated) {
    const double vps = r.seconds > 0 ? double(r.vertices) / r.seconds : 0;
    nlohmann::ordered_json j;
    j["unit"] = "vertex_fetch";
    j["rtl"] = rtl_name;
    j["seed"] = a.seed;
    if (a.stream) j["stream"] = a.stream;  // draws a stream (the random cases are streams)
    j["cases"] = r.cases;
    j["vertices"] = r.vertices;
    j["elements"] = r.elements;
    j["cycles"] = r.cycles;
    j["mismatches"] = r.mismatches;
    j["seconds"] = r.seconds;
    j["vertices_per_second"] = vps;
    j["jobs"] = a.jobs;
    nlohmann::ordered_json f = nlohmann::ordered_json::array();
    for (const auto& m : r.failures) {
        nlohmann::ordered_json x;
        x["origin"] = m.c.origin;
        x["index"] = m.c.index;
        x["vertex"] = m.vertex;
        x["register"] = m.reg;
        x["first_difference"] = m.what;
        x["replay"] = m.replay;
        x["case"] = tb::vf::case_json(m.c);
        x["signature"] = m.signature;
        if (!m.shrunk.indices.empty()) {
            x["shrunk"] = tb::vf::case_json(m.shrunk);
            x["shrunk_difference"] = m.shrunk_what;
            x["file"] = m.written_to;
        }
        if (!m.wave.empty()) x["wave"] = m.wave;
        f.push_back(x);
    }
    j["failures"] = f;
    j["mismatch_groups"] = groups_json(r.groups);
    if (!r.pin_groups.empty()) j["pin_groups"] = pin_groups_json(r.pin_groups);
    gate_json(gate, gated, j);
    user_bins_json(o.user_bins.get(), r.user, j);
    // Per-bin counts, for merging runs (vpsim coverage merge, vpsim regress: tb/coverage_merge.h).
    const auto& cv = r.coverage;
    j["coverage"] = {{"type_stream", cv.type_stream}, {"start_byte", cv.start_byte}, {"span2", cv.span2},
                     {"hit", cv.hit}, {"stride", cv.stride}, {"pressure", cv.pressure},
                     {"data", cv.data}, {"layout", cv.layout}};
    int rc = 0;
    if (!a.coverage.empty()) rc = xcheck_coverage_report(a.coverage, true, &j, a.code);
    if (rc == 2) return 2;
    std::printf("%s\n", j.dump(2).c_str());
    return rc;
}

// The report as text: totals, failures with their shrunk cases, triage, coverage.
int print_vf_text(const VfXcheckArgs& a, const tb::vf::Options& o, const tb::vf::Report& r, const std::string& rtl_name,
                  const tb::GateResult& gate, bool gated) {
    const double vps = r.seconds > 0 ? double(r.vertices) / r.seconds : 0;
    std::printf("vertex fetch cross-check: %s against the golden vertex fetch (vs::fetch_vertex)\n", rtl_name.c_str());
    if (a.stream)
        std::printf("random streams of %u draws back to back (no reset between them; an idle index gap of 0 at half "
                    "of the boundaries, else 1-8 cycles), seed %llu\n",
                    a.stream, (unsigned long long)a.seed);
    std::printf("cases: %llu  vertices: %llu  elements: %llu  RTL cycles: %llu  mismatches: %llu\n",
                (unsigned long long)r.cases, (unsigned long long)r.vertices, (unsigned long long)r.elements,
                (unsigned long long)r.cycles, (unsigned long long)r.mismatches);
    std::printf("time: %.2f s  (%.0f vertices/s, --jobs %d)\n", r.seconds, vps, a.jobs);
    for (const auto& m : r.failures) {
        if (m.c.origin == "stream")
            std::printf("\nMISMATCH stream %llu (seed %llu, %zu draws back to back): %s\n", (unsigned long long)m.c.index,
                        (unsigned long long)m.c.seed, 1 + m.c.then.size(), m.what.c_str());
        else
            std::printf("\nMISMATCH %s case %llu (seed %llu): %s\n", m.c.origin.c_str(), (unsigned long long)m.c.index,
                        (unsigned long long)m.c.seed, m.what.c_str());
        std::printf("  replay: %s\n%s", m.replay.c_str(), tb::vf::describe(m.c).c_str());
        if (!m.shrunk.indices.empty()) {
            size_t tokens = 0;
            for (const auto* d : tb::vf::draws(m.shrunk)) tokens += d->tokens.size();
            std::printf("  shrunk to %zu vertices in %zu draw(s), %zu declaration tokens: %s\n%s",
                        tb::vf::vertex_count(m.shrunk), 1 + m.shrunk.then.size(), tokens, m.shrunk_what.c_str(),
                        tb::vf::describe(m.shrunk).c_str());
            if (!m.written_to.empty())
                std::printf("  shrunk case: %s  (replay: vpsim xcheck --unit vertex_fetch --case %s%s%s)\n",
                            m.written_to.c_str(), m.written_to.c_str(), o.replay_args.empty() ? "" : " ",
                            o.replay_args.c_str());
        }
        if (!m.wave.empty())
            std::printf("  waveform of the shrunk replay (%llu cycles, VCD): %s\n", (unsigned long long)m.wave_cycles, m.wave.c_str());
    }
    if (r.mismatches) std::printf("\n%s", groups_text(r.groups, r.mismatches).c_str());
    if (!r.pin_groups.empty()) std::printf("%s", pin_groups_text(r.pin_groups).c_str());
    if (tb::vf::counts_holes(o)) {
        std::printf("\nfunctional coverage:\n%s", r.coverage.table().c_str());
        if (o.user_bins) std::printf("%s", r.user.table(*o.user_bins).c_str());
        if (gated && gate.holes.empty() && gate.excluded.empty() && gate.waived.empty() && gate.unused.empty()) {
            std::printf("coverage: every bin hit\n");
        } else if (gated) {
            std::printf("%s", gate.text("waive bins that cannot be hit with --waive FILE (lines `waive BIN because REASON`, "
                                        "BIN may use *) or --waive-bin, or turn the gate off with --no-coverage-gate")
                                  .c_str());
        } else if (!gate.holes.empty()) {
            std::printf("coverage: %zu bins not hit, not gated (--no-coverage-gate)\n", gate.holes.size());
        } else {
            std::printf("coverage: every bin hit\n");
        }
    } else if (o.user_bins) {  // --only, --case, --first-mismatch: the counts, not gated
        std::printf("\nuser bins (not gated: --coverage-gate gates them):\n%s", r.user.table(*o.user_bins).c_str());
    }
    std::fflush(stdout);
    return a.coverage.empty() ? 0 : xcheck_coverage_report(a.coverage, false, nullptr, a.code);
}

}  // namespace

int run_vf_xcheck(const VfXcheckArgs& a) {
    if (a.lat_min >= 0 && a.lat_max >= 0 && a.lat_max < a.lat_min) {
        std::fprintf(stderr, "vpsim xcheck: --latency-max %lld is less than --latency-min %lld\n", (long long)a.lat_max,
                     (long long)a.lat_min);
        return 2;
    }
    if (a.mutants > 0) return run_vf_mutants(a);
    tb::vf::Options o;
    o.random = a.random;
    o.seed = a.seed;
    o.only = a.only;
    o.stream = a.stream;
    o.directed = !a.no_directed;
    o.check_traffic = a.rtl.empty() ? !a.no_check_traffic : a.check_traffic;
    o.jobs = a.jobs;
    o.first_mismatch = a.first_mismatch;
    o.show = a.show;
    o.lat_min = a.lat_min;
    o.lat_max = a.lat_max;
    o.req_ready = a.req_ready;
    o.out_ready = a.out_ready;
    o.idx_valid = a.idx_valid;
    o.progress = a.json ? 0 : (isatty(2) ? 1 : 2);
    o.mismatch_dir = a.mismatch_dir;
    o.case_file = a.case_file;
    std::vector<tb::Waiver> waivers;
    if (!load_coverage_controls(a.waive, a.waive_bin, a.bins, true, waivers, o.user_bins)) return 2;
    // The coverage gate: on for runs with the directed cases and random ones (not --only, --case,
    // --first-mismatch, --no-directed), unless said otherwise.
    o.gate = a.gate ? 1 : a.no_gate ? 0 : -1;
    std::string rtl_name;
    if (!load_vf_rtl(a, o, rtl_name)) return 2;
    if (!a.wave_on_fail.empty()) {
        rtl::UserRtlSpec spec;
        if (!prepare_wave(a.wave_on_fail, a.rtl, "rtl/vertex_fetch.sv", a.top, a.params, a.rtl_cache, spec)) return 2;
        // Built only when a mismatch needs it; the loaded design lives as long as the factory.
        auto held = std::make_shared<std::function<std::unique_ptr<rtl::vf::Pins>()>>();
        o.wave_rtl = [spec, held] {
            if (!*held) *held = rtl::vf::factory(rtl::vf::build(spec));
            return (*held)();
        };
        o.wave_dir = a.wave_on_fail;
    }
    if (a.no_check_traffic) o.replay_args += std::string(o.replay_args.empty() ? "" : " ") + "--no-check-traffic";
    tb::vf::Report r;
    try {
        r = tb::vf::run(o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim xcheck: %s\n", e.what());
        return 2;
    }
    if (!a.coverage.empty()) {
        // Each RTL instance wrote coverage.dat.N; verilator_coverage sums them.
        std::vector<std::string> merge = {"verilator_coverage", "--write", o.coverage_file};
        for (const auto& e : std::filesystem::directory_iterator(a.coverage)) {
            const std::string f = e.path().filename().string();
            if (f.rfind("coverage.dat.", 0) == 0) merge.push_back(e.path().string());
        }
        std::string out;
        if (merge.size() == 3 || run_command(merge, "", out) != 0) {
            std::fprintf(stderr, "vpsim xcheck: verilator_coverage --write failed:\n%s\n", out.c_str());
            return 2;
        }
        for (size_t k = 3; k < merge.size(); ++k) std::filesystem::remove(merge[k]);
    }
    const bool gated = tb::vf::gated(o);
    const tb::GateResult gate = tb::apply_gate(r.holes, tb::vf::unreachable_bins(o), waivers, gated);
    if (!a.junit.empty()) {
        try {
            tb::write_junit(a.junit, r.records, r.seconds, gate);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "vpsim xcheck: --junit: %s\n", e.what());
            return 2;
        }
    }
    const int rc = a.json ? print_vf_json(a, o, r, rtl_name, gate, gated) : print_vf_text(a, o, r, rtl_name, gate, gated);
    if (rc) return rc;
    return r.mismatches == 0 && !gate.fails() ? 0 : 1;
}

}  // namespace vpsim::cli
