// vpsim xcheck: options and printing of the token-array cross-check of the RTL declaration decoder
// against the model; the work is in tb/ (xcheck, user_rtl, rtl_coverage, mutants, junit).
#include "model/cli/commands.h"
#include "model/cli/run_common.h"
#include "model/cli/xcheck_vf.h"
#include "model/common/file_util.h"
#include "tb/decl_gen.h"
#include "tb/junit.h"
#include "tb/coverage_gate.h"
#include "tb/mutants.h"
#include "tb/replay.h"
#include "tb/rtl_coverage.h"
#include "tb/user_rtl_dut.h"
#include "tb/xcheck.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <unistd.h>

namespace vpsim::cli {

namespace {

struct XcheckArgs {
    tb::XcheckOptions opt;
    bool json = false;
    bool no_corpus = false;
    bool corpus_given = false;
    std::vector<std::string> rtl;     // --rtl: the user's decoder sources
    std::string top;                  // --top
    std::vector<std::string> params;  // -G NAME=VALUE
    std::string rtl_cache;            // --rtl-cache
    std::string coverage;             // --coverage DIR
    int mutants = 0;                  // --mutants N
    uint64_t mutant_seed = 1;         // --mutant-seed
    double mutant_timeout = 60;       // --mutant-timeout (seconds per mutant's cross-check)
    std::string mutants_dir = "xcheck-mutants";
    std::string junit;                // --junit FILE
    std::string wave_on_fail;         // --wave-on-fail DIR
    std::string out = "xcheck-out";   // --out DIR: the run's files (mismatches/ unless --mismatch-dir)
    bool mismatch_dir_given = false;
    std::vector<std::string> waive;   // --waive FILE
    std::vector<std::string> waive_bin;  // --waive-bin "BIN because REASON"
    bool gate = false, no_gate = false;  // --coverage-gate / --no-coverage-gate
    std::string dump_arrays;          // --dump-arrays DIR
    std::string bins;                 // --bins FILE
    VfXcheckArgs vf;                  // --unit vertex_fetch (model/cli/cmd_xcheck_vf.cpp)
    CodeCoverageControls code;        // --code-waive FILE, --code-gate PCT (with --coverage)
};

// --rtl: Verilate (or find in the cache) and load the user's design; the golden side takes
// its CONST_COUNT and MAX_LENGTH. Returns false after printing the error.
bool load_user_rtl(const XcheckArgs& a, tb::XcheckOptions& opt) {
    rtl::UserRtlSpec spec;
    spec.sources = a.rtl;
    spec.coverage = !a.coverage.empty();
    spec.top = a.top;
    spec.cache_dir = a.rtl_cache;
    spec.vpsim_version = VPSIM_VERSION;
    spec.verbose = true;
    std::shared_ptr<rtl::UserRtl> rtl;
    try {
        for (const auto& g : a.params) spec.params.push_back(rtl::parse_param(g));
        rtl = rtl::build_user_rtl(spec);
    } catch (const rtl::RtlBuildError& e) {
        std::fprintf(stderr, "vpsim xcheck: %s\n", e.what());
        return false;
    }
    for (const auto& [name, value] : rtl->params()) {
        uint32_t* field = name == "CONST_COUNT" ? &opt.model.const_count : name == "MAX_LENGTH" ? &opt.model.max_length : nullptr;
        if (!field) continue;
        const unsigned long long v = std::strtoull(value.c_str(), nullptr, 10);
        if (v < 1 || v > 0xFFFFFFull) {
            std::fprintf(stderr, "vpsim xcheck: %s: parameter %s = %s is out of range for the golden model (1 .. 2^24-1)\n",
                         spec.sources.front().c_str(), name.c_str(), value.c_str());
            return false;
        }
        *field = uint32_t(v);
    }
    opt.rtl = [rtl] { return tb::make_user_dut(*rtl); };
    opt.rtl_build = rtl->dir();
    opt.rtl_name = spec.sources.front() + (spec.sources.size() > 1 ? fmt::format(" (+{} files)", spec.sources.size() - 1) : "") +
                   fmt::format(", top {}, {} build {}", rtl->top(), rtl->was_cached() ? "cached" : "new", rtl->dir());
    for (const auto& f : a.rtl) opt.replay_args.insert(opt.replay_args.end(), {"--rtl", f});
    if (!a.top.empty()) opt.replay_args.insert(opt.replay_args.end(), {"--top", a.top});
    for (const auto& g : a.params) opt.replay_args.insert(opt.replay_args.end(), {"-G", g});
    return true;
}

// --coverage DIR after the run: coverage.dat is written; the lcov report, the annotated sources
// and the summary go next to it (tb::write_rtl_coverage_report), printed here.
// The code waivers' and gate's lines (only when either is given, so a run without them reports as before).
void code_gate_text(const std::string& dir, const CodeCoverageControls& cc, const tb::CodeGate& g) {
    if (!cc.waivers.empty()) {
        std::string kinds;
        for (const auto& [k, n] : g.waived_by_kind) kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", k, n);
        std::cout << fmt::format("code coverage waived: {} points{}{}  ({}/waived.txt)\n", g.waived.size(),
                                 kinds.empty() ? "" : ": ", kinds, dir);
        for (const auto& w : g.unused)
            std::cout << fmt::format("code coverage waiver unused: {} ({}: names no hole)\n", w.pattern, w.where);
    }
    if (cc.gate >= 0)
        std::cout << fmt::format("code coverage gate: {:.2f} % of {} points hit or waived ({} waived, {} holes), gate {} %: {}\n",
                                 g.percent(), g.points, g.waived.size(), g.holes.size(), cc.gate,
                                 g.fails() ? "under the gate, the run fails (waive points unreachable under the contract "
                                             "with --code-waive FILE)"
                                           : "pass");
}

int coverage_report(const std::string& dir, bool json, nlohmann::ordered_json* j, const CodeCoverageControls& cc) {
    tb::RtlCoverageReport rep;
    try {
        rep = tb::write_rtl_coverage_report(dir, cc.waivers, cc.gate);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim xcheck: %s\n", e.what());
        return 2;
    }
    const tb::CoverageSummary& cs = rep.summary;
    const double da_pct = rep.lcov_lines ? 100.0 * double(rep.lcov_hit) / double(rep.lcov_lines) : 100.0;
    if (j) {
        nlohmann::ordered_json k;
        for (const auto& [name, v] : cs.kinds) k[name] = {{"points", v.points}, {"hit", v.hit}, {"percent", v.percent()}};
        (*j)["rtl_coverage"] = {{"dir", dir},
                                {"kinds", k},
                                {"lcov_lines", {{"lines", rep.lcov_lines}, {"hit", rep.lcov_hit}, {"percent", da_pct}}},
                                {"holes", rep.gate.holes.size()},
                                {"html", dir + "/html/index.html"}};
        if (!cc.waivers.empty()) {
            (*j)["rtl_coverage"]["waived"] = rep.gate.waived.size();
            nlohmann::ordered_json u = nlohmann::ordered_json::array();
            for (const auto& w : rep.gate.unused) u.push_back({{"pattern", w.pattern}, {"where", w.where}});
            (*j)["rtl_coverage"]["waivers_unused"] = u;
        }
        if (cc.gate >= 0)
            (*j)["rtl_coverage"]["gate"] = {{"percent", rep.gate.percent()}, {"threshold", cc.gate}, {"pass", !rep.gate.fails()}};
    }
    if (!json) {
        std::cout << "RTL code coverage (verilator --coverage):\n";
        for (const auto& [name, v] : cs.kinds)
            std::cout << fmt::format("  {:<8} {:>6} / {:<6} {:6.2f} %   (points)\n", name, v.hit, v.points, v.percent());
        std::cout << fmt::format("  {:<8} {:>6} / {:<6} {:6.2f} %   (source lines with a point, lcov)\n", "lines",
                                 rep.lcov_hit, rep.lcov_lines, da_pct);
        size_t shown = 0;
        for (const auto& h : rep.grouped_holes) {
            if (++shown > 20) break;
            std::cout << fmt::format("  not hit: {}:{}: {} {}\n", h.file, h.line, h.kind, h.comment);
        }
        if (rep.grouped_holes.size() > 20)
            std::cout << fmt::format("  ... {} points not hit in all ({} lines): {}/holes.txt\n", rep.gate.holes.size(),
                                     rep.grouped_holes.size(), dir);
        std::cout << fmt::format("coverage data: {}  report: {}/html/index.html  annotated: {}/annotated\n", dir + "/coverage.dat",
                                 dir, dir);
        code_gate_text(dir, cc, rep.gate);
    }
    return rep.gate.fails() ? 1 : 0;
}

// --mutants N: yosys mutate makes N mutants of the RTL; each is Verilated (in this process, so a
// build failure is told apart) and cross-checked in a child `vpsim xcheck --first-mismatch`
// (its own process: a hanging or crashing mutant cannot take the campaign with it).
int run_mutants(const XcheckArgs& a, const tb::XcheckOptions& opt) {
    MutantsSetup setup;
    if (!prepare_mutants(a.rtl, a.top, "rtl/decl_decoder.sv", "decl_decoder", a.mutants_dir, a.params, a.mutants,
                         a.mutant_seed, setup))
        return 2;
    const tb::MutationSpec& ms = setup.spec;
    // The child cross-check of each mutant (tb::run_mutation_campaign adds --rtl MUTANT).
    std::vector<std::string> check = {"xcheck", "--first-mismatch", "--json", "--random", std::to_string(opt.random),
                                      "--seed", std::to_string(opt.seed), "--out-ready", fmt::format("{}", opt.bp.out_ready),
                                      "--in-valid", fmt::format("{}", opt.bp.in_valid)};
    if (opt.jobs > 1) check.insert(check.end(), {"--jobs", std::to_string(opt.jobs)});
    if (opt.stream) check.insert(check.end(), {"--stream", std::to_string(opt.stream)});
    if (opt.corpus.empty()) check.push_back("--no-corpus");
    for (const auto& p : opt.corpus) check.insert(check.end(), {"--corpus", p});
    if (!a.rtl_cache.empty()) check.insert(check.end(), {"--rtl-cache", a.rtl_cache});
    // The coverage gate of each mutant's check: a hole left by a short budget kills a mutant only
    // when the check is gated.
    if (a.no_gate) check.push_back("--no-coverage-gate");
    if (a.gate) check.push_back("--coverage-gate");
    tb::CampaignSpec cs;
    cs.mutation = ms;
    cs.check_args = check;
    cs.rtl_cache = a.rtl_cache;
    cs.vpsim_version = VPSIM_VERSION;
    cs.timeout_seconds = a.mutant_timeout;
    CampaignReport report;
    report.unit = "decl_decoder";
    report.against = fmt::format("corpus {} + {} random arrays (seed {})",
                                 opt.corpus.empty() ? "(none)" : fmt::format("{}", fmt::join(opt.corpus, " ")), opt.random, opt.seed);
    report.n = a.mutants;
    report.seed = a.mutant_seed;
    report.junit = a.junit;
    return run_campaign(setup, cs, report);
}

}  // namespace

bool prepare_mutants(const std::vector<std::string>& rtl, const std::string& top, const std::string& builtin,
                     const std::string& builtin_top, const std::string& dir, const std::vector<std::string>& params,
                     int n, uint64_t seed, MutantsSetup& out) {
    tb::MutationSpec& ms = out.spec;
    if (rtl.size() > 1) {
        std::fprintf(stderr, "vpsim xcheck: --mutants works on one source file (got %zu --rtl files)\n", rtl.size());
        return false;
    }
    ms.source = rtl.empty() ? data_path(builtin) : std::filesystem::absolute(rtl.front()).string();
    if (ms.source.empty()) {
        std::fprintf(stderr, "vpsim xcheck: --mutants: the RTL source %s\n", data_not_found(builtin).c_str());
        return false;
    }
    ms.top = rtl.empty() ? builtin_top : top;
    if (ms.top.empty()) {
        std::fprintf(stderr, "vpsim xcheck: --mutants with --rtl needs --top NAME (yosys' hierarchy -top)\n");
        return false;
    }
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        std::fprintf(stderr, "vpsim xcheck: --mutants-dir %s: cannot create (%s)\n", dir.c_str(), ec.message().c_str());
        return false;
    }
    ms.work_dir = std::filesystem::absolute(dir).string();
    try {
        for (const auto& g : params) ms.params.push_back(rtl::parse_param(g));
        out.list = tb::list_mutations(ms, n, seed);
        out.unmutated = tb::unmutated_netlist(ms);
    } catch (const rtl::RtlBuildError& e) {
        std::fprintf(stderr, "vpsim xcheck: %s\n", e.what());
        return false;
    }
    return true;
}

int run_campaign(const MutantsSetup& setup, const tb::CampaignSpec& cs, const CampaignReport& report) {
    const tb::MutationSpec& ms = setup.spec;
    const std::string header = fmt::format("mutants of {} (yosys mutate -list {} -seed {}), each against {}", ms.source, report.n,
                                           report.seed, report.against);
    std::printf("%s\n", header.c_str());
    std::printf("%4s  %-6s  %-22s  %-9s  %s\n", "#", "mode", "where", "result", "detail");
    const tb::CampaignResult res = tb::run_mutation_campaign(cs, setup.list, setup.unmutated, [](const tb::MutantOutcome& o) {
        std::printf("%4zu  %-6s  %-22s  %-9s  %s\n", o.index, o.mutation->mode.c_str(), o.mutation->where.c_str(),
                    o.result_text(), o.detail.c_str());
        std::fflush(stdout);
    });
    const int run = res.killed + res.survived + res.timed_out;
    std::printf("mutants: %zu  equivalent (same netlist): %d  killed: %d  survived: %d  timed out: %d  not built: %d  "
                "kill rate: %.1f %% (%d / %d)\n",
                setup.list.size(), res.equivalent, res.killed, res.survived, res.timed_out, res.not_built,
                run ? 100.0 * res.killed / run : 0.0, res.killed, run);
    for (const auto& o : res.outcomes)
        if (o.result == tb::MutantOutcome::Result::Survived) {
            const tb::Mutation& m = *o.mutation;
            std::printf("survivor %zu: %s at %s on %s  (%s)\n  replay: %s\n", o.index, m.mode.c_str(), m.where.c_str(),
                        m.signal.c_str(), m.command.c_str(), o.replay.c_str());
        }
    std::printf("time: %.1f s  mutants in %s\n", res.seconds, ms.work_dir.c_str());
    if (!report.junit.empty()) {
        try {
            // The suite's name: the unit, the design and its top, the mutation seed and the budget (its seed).
            tb::write_campaign_junit(report.junit,
                                     fmt::format("xcheck --unit {}: mutants of {} (top {}, yosys mutate -list {} -seed {}), each "
                                                 "against {}",
                                                 report.unit, ms.source, ms.top, report.n, report.seed, report.against),
                                     res);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "vpsim xcheck: --junit: %s\n", e.what());
            return 2;
        }
    }
    return res.passed() ? 0 : 1;
}

namespace {

// One block per group: its count and signature, where it was first seen and what differed, the replay.
std::string group_blocks(const std::vector<tb::TriageGroup>& groups) {
    std::string s;
    for (const auto& g : groups)
        s += fmt::format("  {:>8}  {}\n            first: {}: {}\n            replay: {}\n", g.count, g.signature,
                         g.first_where, g.first_detail, g.first_replay);
    return s;
}

}  // namespace

std::string groups_text(const std::vector<tb::TriageGroup>& groups, uint64_t mismatches) {
    return fmt::format("mismatch groups ({} mismatches, {} signatures; a signature is what differs):\n", mismatches,
                       groups.size()) +
           group_blocks(groups);
}

std::string pin_groups_text(const std::vector<tb::TriageGroup>& groups) {
    return fmt::format("pin groups ({} groups; the pins that differ at the first cycle the two sides part):\n", groups.size()) +
           group_blocks(groups);
}

namespace {

// Groups as JSON, the signature and the detail under the given keys.
nlohmann::ordered_json groups_json_as(const std::vector<tb::TriageGroup>& groups, const char* signature, const char* detail) {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto& g : groups)
        j.push_back({{signature, g.signature}, {"count", g.count}, {"first", g.first_where}, {detail, g.first_detail},
                     {"replay", g.first_replay}});
    return j;
}

}  // namespace

nlohmann::ordered_json pin_groups_json(const std::vector<tb::TriageGroup>& groups) {
    return groups_json_as(groups, "pins", "first_divergence");
}

nlohmann::ordered_json groups_json(const std::vector<tb::TriageGroup>& groups) {
    return groups_json_as(groups, "signature", "first_difference");
}

bool load_coverage_controls(const std::vector<std::string>& waive, const std::vector<std::string>& waive_bin,
                            const std::string& bins, bool vertex_fetch, std::vector<tb::Waiver>& waivers,
                            std::shared_ptr<const tb::UserCoverageSpec>& spec) {
    try {
        for (const auto& f : waive) {
            auto w = tb::load_waivers(f);
            waivers.insert(waivers.end(), w.begin(), w.end());
        }
        for (const auto& w : waive_bin) waivers.push_back(tb::parse_waiver(w, "--waive-bin"));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim xcheck: %s\n", e.what());
        return false;
    }
    if (bins.empty()) return true;
    try {
        auto s = std::make_shared<const tb::UserCoverageSpec>(tb::load_user_bins(bins));
        if (const std::string bad = tb::user_bins_unit_error(*s, vertex_fetch); !bad.empty()) throw std::runtime_error(bad);
        spec = std::move(s);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim xcheck: --bins: %s\n", e.what());
        return false;
    }
    return true;
}

bool prepare_wave(const std::string& dir, const std::vector<std::string>& sources, const std::string& builtin,
                  const std::string& top, const std::vector<std::string>& params, const std::string& rtl_cache,
                  rtl::UserRtlSpec& spec) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        std::fprintf(stderr, "vpsim xcheck: --wave-on-fail %s: cannot create the directory (%s)\n", dir.c_str(),
                     ec.message().c_str());
        return false;
    }
    spec.sources = sources.empty() ? std::vector<std::string>{data_path(builtin)} : sources;
    if (spec.sources.front().empty()) {
        std::fprintf(stderr, "vpsim xcheck: --wave-on-fail: the RTL source %s\n", data_not_found(builtin).c_str());
        return false;
    }
    spec.top = top;
    spec.cache_dir = rtl_cache;
    spec.vpsim_version = VPSIM_VERSION;
    spec.trace = true;
    spec.verbose = true;
    try {
        for (const auto& g : params) spec.params.push_back(rtl::parse_param(g));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim xcheck: %s\n", e.what());
        return false;
    }
    return true;
}

void gate_json(const tb::GateResult& gate, bool gated, nlohmann::ordered_json& j) {
    j["coverage_gate"] = gated;
    j["coverage_holes"] = gated ? gate.holes : std::vector<std::string>{};
    j["coverage_holes_not_gated"] = gated ? std::vector<std::string>{} : gate.holes;
    j["coverage_excluded"] = nlohmann::ordered_json::array();
    for (const auto& [bin, why] : gate.excluded) j["coverage_excluded"].push_back({{"bin", bin}, {"reason", why}});
    j["coverage_waived"] = nlohmann::ordered_json::array();
    for (const auto& [bin, why] : gate.waived) j["coverage_waived"].push_back({{"bin", bin}, {"reason", why}});
}

void user_bins_json(const tb::UserCoverageSpec* spec, const tb::UserCoverage& u, nlohmann::ordered_json& j) {
    if (!spec) return;
    j["user_bins"] = nlohmann::ordered_json::object();
    for (size_t i = 0; i < spec->bins.size(); ++i) j["user_bins"][spec->bins[i].name] = i < u.bins.size() ? u.bins[i] : 0;
    j["user_crosses"] = nlohmann::ordered_json::object();
    for (size_t i = 0; i < spec->crosses.size(); ++i)
        j["user_crosses"][spec->crosses[i].name] = i < u.crosses.size() ? u.crosses[i] : 0;
    if (!spec->seqs.empty()) {  // only with `seq` lines: a bins file without them reports as before
        j["user_seqs"] = nlohmann::ordered_json::object();
        for (size_t i = 0; i < spec->seqs.size(); ++i) j["user_seqs"][spec->seqs[i].name] = i < u.seqs.size() ? u.seqs[i] : 0;
    }
}

int xcheck_coverage_report(const std::string& dir, bool json, nlohmann::ordered_json* j, const CodeCoverageControls& cc) {
    return coverage_report(dir, json, j, cc);
}

bool load_code_waivers(CodeCoverageControls& c) {
    try {
        for (const auto& f : c.waive_files) {
            auto w = tb::load_waivers(f);
            c.waivers.insert(c.waivers.end(), w.begin(), w.end());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim xcheck: --code-waive: %s\n", e.what());
        return false;
    }
    return true;
}

namespace {

// The header's words for the random part of the run: what was checked, not the default budget.
std::string random_words(const tb::XcheckOptions& opt) {
    if (!opt.stream_file.empty()) return fmt::format("stream file {}", opt.stream_file);
    if (opt.stream && opt.only >= 0) return fmt::format("random stream {} of seed {} ({} arrays back to back)", opt.only, opt.seed, opt.stream);
    if (opt.only >= 0) return fmt::format("random array {} of seed {}", opt.only, opt.seed);
    if (opt.stream)
        return fmt::format("{} random arrays back to back in streams of {}, seed {}",
                           (opt.random + opt.stream - 1) / opt.stream * opt.stream, opt.stream, opt.seed);
    return fmt::format("{} random arrays, seed {}", opt.random, opt.seed);
}

// --wave-on-fail DIR: the directory, and a factory of the design Verilated with tracing (built only
// when a mismatch needs it). `la.rtl`: the design's sources (the built-in one's with --coverage).
// False after printing why (exit 2).
bool setup_wave(const XcheckArgs& a, const XcheckArgs& la, tb::XcheckOptions& opt) {
    rtl::UserRtlSpec spec;
    if (!prepare_wave(a.wave_on_fail, la.rtl, "rtl/decl_decoder.sv", a.top, a.params, a.rtl_cache, spec))
        return false;
    // Built only when a mismatch needs it; the loaded design lives as long as the factory.
    auto held = std::make_shared<std::shared_ptr<rtl::UserRtl>>();
    opt.wave_rtl = [spec, held] {
        if (!*held) *held = rtl::build_user_rtl(spec);
        return tb::make_user_dut(**held);
    };
    opt.wave_dir = a.wave_on_fail;
    return true;
}

// The report as one JSON object on stdout (with --coverage, the code coverage in it); non-zero on
// a coverage report error.
int print_json(const XcheckArgs& a, const tb::XcheckOptions& opt, const tb::XcheckReport& r, const tb::GateResult& gate,
               bool gated) {
    const double rate = r.seconds > 0 ? double(r.arrays) / r.seconds : 0;
    nlohmann::ordered_json j;
    j["bench"] = opt.systemc ? "systemc" : "fast";
    j["rtl"] = opt.rtl_name;
    j["rtl_build"] = opt.rtl_build;  // --rtl: the cache entry (model.so: the design behind a C ABI)
    j["seed"] = opt.seed;
    j["random"] = opt.random;
    j["corpus"] = fmt::format("{}", fmt::join(opt.corpus, " "));  // the paths given, space-separated ("" none)
    j["arrays"] = r.arrays;
    j["tokens"] = r.tokens;
    j["events"] = r.events;
    j["cycles"] = r.cycles;
    j["mismatches"] = r.mismatches;
    j["seconds"] = r.seconds;
    j["arrays_per_second"] = rate;
    gate_json(gate, gated, j);
    user_bins_json(opt.user_bins.get(), r.user, j);

    j["mismatch_groups"] = groups_json(r.groups);
    if (!r.pin_groups.empty()) j["pin_groups"] = pin_groups_json(r.pin_groups);
    j["failures"] = nlohmann::ordered_json::array();
    for (const auto& m : r.failures)
        j["failures"].push_back({{"origin", m.array.origin},
                                 {"index", m.array.index},
                                 {"lenient", m.array.lenient},
                                 {"first_difference", m.first_difference},
                                 {"signature", m.signature},
                                 {"replay", m.replay},
                                 {"divergence", m.divergence},
                                 {"shrunk_tokens", m.shrunk.size()},
                                 {"file", m.written_to},
                                 {"wave", m.wave}});
    const auto& c = r.coverage;
    j["coverage"] = {{"token_kinds", c.token_kinds}, {"data_types", c.data_types},
                     {"events_model", c.events[0]}, {"events_rtl", c.events[1]},
                     {"rules_model", c.rules[0]},   {"rules_rtl", c.rules[1]},
                     {"lenient_rules_model", c.lenient_rules[0]}, {"lenient_rules_rtl", c.lenient_rules[1]}};
    if (!a.coverage.empty()) {
        const int rc = coverage_report(a.coverage, true, &j, a.code);
        if (rc == 2) return rc;
        std::cout << j.dump(2) << "\n";
        return rc;  // 1: under the code coverage gate
    }
    std::cout << j.dump(2) << "\n";
    return 0;
}

// The report as tables on stdout; non-zero on a coverage report error.
int print_text(const XcheckArgs& a, const tb::XcheckOptions& opt, const tb::XcheckReport& r, const tb::GateResult& gate,
               bool gated) {
    const double rate = r.seconds > 0 ? double(r.arrays) / r.seconds : 0;
    std::cout << r.coverage.table();
    if (opt.user_bins) std::cout << r.user.table(*opt.user_bins);
    std::cout << fmt::format("bench: {} ({})\n", opt.systemc ? "SystemC (RTL in SystemC mode vs DeclDecoderUnit)"
                                                            : "fast (Verilated RTL in C++ mode vs golden model)",
                             fmt::format("{}{}", opt.corpus.empty() ? "" : fmt::format("corpus {} + ", fmt::join(opt.corpus, " ")),
                                         random_words(opt)));
    std::cout << fmt::format("rtl: {}\n", opt.rtl_name);
    std::cout << fmt::format("arrays checked: {}  tokens: {}  events: {}  cycles: {}\n", r.arrays, r.tokens,
                             r.events, r.cycles);
    std::cout << fmt::format("mismatches: {}\n", r.mismatches);
    if (r.mismatches) {
        std::string table = groups_text(r.groups, r.mismatches);
        if (!r.pin_groups.empty()) table += pin_groups_text(r.pin_groups);
        std::cout << table;
    }
    if (gated) {
        std::cout << gate.text("waive bins that cannot be hit with --waive FILE (lines `waive BIN because REASON`, "
                               "BIN may use *) or --waive-bin, or turn the gate off with --no-coverage-gate");
    } else if (!gate.holes.empty()) {
        std::cout << fmt::format("coverage: {} bins not hit, not gated (a directed run: --only or --random 0; "
                                 "--coverage-gate gates it)\n",
                                 gate.holes.size());
    } else {
        std::cout << "coverage: complete\n";
    }
    std::cout << fmt::format("time: {:.3f} s  arrays/s: {:.0f}\n", r.seconds, rate);
    if (!a.coverage.empty()) {
        const int rc = coverage_report(a.coverage, false, nullptr, a.code);
        if (rc) return rc;
    }
    return 0;
}

int run_xcheck(XcheckArgs& a, const CLI::App& c) {
    tb::XcheckOptions opt = a.opt;
    const bool streaming = opt.stream > 0 || !opt.stream_file.empty();
    if (streaming) {
        // Options that do not apply to streams are errors, never ignored.
        if (!a.dump_arrays.empty()) {
            std::fprintf(stderr, "vpsim xcheck: --dump-arrays exports single arrays: it does not apply with --stream / "
                                 "--stream-file\n");
            return 2;
        }
        if (!opt.stream_file.empty()) {
            for (const char* o : {"--random", "--seed", "--only"})
                if (c.count(o)) {
                    std::fprintf(stderr, "vpsim xcheck: --stream-file checks the stream in the file: %s does not apply\n", o);
                    return 2;
                }
            a.no_corpus = true;
            opt.random = 0;
        }
    }
    if (a.no_corpus) {
        opt.corpus.clear();
    } else if (!a.corpus_given) {
        const std::string dir = data_path("tb/corpus");
        opt.corpus.clear();
        if (!dir.empty()) opt.corpus.push_back(dir);
        if (opt.corpus.empty()) {
            std::fprintf(stderr, "vpsim xcheck: the directed corpus %s; or pass --corpus DIR or --no-corpus\n",
                         data_not_found("tb/corpus").c_str());
            return 2;
        }
    }
    if (a.mutants > 0) {
        return run_mutants(a, opt);
    }
    // Output folders: an explicit --mismatch-dir is created now (an impossible one is an error
    // before anything runs); the default, <--out>/mismatches, only when a mismatch is written.
    if (a.mismatch_dir_given) {
        std::error_code ec;
        std::filesystem::create_directories(opt.mismatch_dir, ec);
        if (ec || !std::filesystem::is_directory(opt.mismatch_dir)) {
            std::fprintf(stderr, "vpsim xcheck: --mismatch-dir %s: cannot create the directory%s%s\n", opt.mismatch_dir.c_str(),
                         ec ? ": " : "", ec ? ec.message().c_str() : "");
            return 2;
        }
    } else {
        opt.mismatch_dir = a.out + "/mismatches";
    }
    std::vector<tb::Waiver> waivers;
    if (!load_coverage_controls(a.waive, a.waive_bin, a.bins, false, waivers, opt.user_bins)) return 2;
    XcheckArgs la = a;
    if (!a.coverage.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(a.coverage, ec);
        if (ec) {
            std::fprintf(stderr, "vpsim xcheck: --coverage %s: cannot create the directory (%s)\n", a.coverage.c_str(),
                         ec.message().c_str());
            return 2;
        }
        if (la.rtl.empty()) {  // the built-in decoder, Verilated again with coverage
            const std::string sv = data_path("rtl/decl_decoder.sv");
            if (sv.empty()) {
                std::fprintf(stderr, "vpsim xcheck: --coverage: the RTL source %s\n", data_not_found("rtl/decl_decoder.sv").c_str());
                return 2;
            }
            la.rtl = {sv};
        }
        opt.coverage_file = a.coverage + "/coverage.dat";
    }
    if (!la.rtl.empty() && !load_user_rtl(la, opt)) return 2;
    if (!a.wave_on_fail.empty() && !setup_wave(a, la, opt)) return 2;
    if (!a.dump_arrays.empty()) {
        // Export only: the arrays with the golden model's events (with -G: the design's parameters).
        try {
            const uint64_t n = tb::dump_arrays(opt, a.dump_arrays);
            std::printf("wrote %llu arrays with their expected events to %s/arrays.txt (%s/arrays.info)\n",
                        (unsigned long long)n, a.dump_arrays.c_str(), a.dump_arrays.c_str());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "vpsim xcheck: --dump-arrays: %s\n", e.what());
            return 2;
        }
        return 0;
    }
    opt.progress = isatty(2) && !a.json ? 1 : 2;
    if (!a.junit.empty()) opt.case_batch = 10000;
    tb::XcheckReport r;
    try {
        r = tb::run_xcheck(opt);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim xcheck: %s\n", e.what());
        return 2;
    }
    // The coverage gate: on for runs with random arrays, off for directed runs (--only, or
    // --random 0), unless said otherwise; bins these parameters make unreachable are excluded,
    // waived bins are reported with their reasons.
    const bool gated = a.gate || (!a.no_gate && opt.only < 0 && opt.random > 0);
    const tb::GateResult gate = tb::apply_gate(r.holes, tb::unreachable_bins(opt.model, opt.user_bins.get()), waivers, gated);
    if (!a.junit.empty()) {
        try {
            tb::write_junit(a.junit, r, gate);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "vpsim xcheck: --junit: %s\n", e.what());
            return 2;
        }
    }
    const int rc = a.json ? print_json(a, opt, r, gate, gated) : print_text(a, opt, r, gate, gated);
    if (rc) return rc;
    return r.mismatches == 0 && !gate.fails() ? 0 : 1;
}

// The arrays checked (corpus, random, one of them) and where the failing ones go.
void add_xcheck_array_options(CLI::App* c, const std::shared_ptr<XcheckArgs>& a) {
    c->add_option("--random", a->opt.random, "Random arrays to check (default 100000)")->check(CLI::Range(0ull, 1ull << 40));
    c->add_option("--seed", a->opt.seed, "Seed of the random arrays, 0 .. 2^64-1 (default 1)")
        ->check([](const std::string& v) -> std::string {
            if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
                return "--seed " + v + ": the seed is a non-negative decimal integer (0 .. 18446744073709551615)";
            if (v.size() > 20 || (v.size() == 20 && v > "18446744073709551615"))
                return "--seed " + v + ": the seed must be at most 18446744073709551615 (2^64-1)";
            return "";
        });
    c->add_option("--only", a->opt.only, "Check only random array number N of --seed (replay a reported mismatch); with --stream, stream N")
        ->check(CLI::NonNegativeNumber);
    c->add_option("--corpus", a->opt.corpus,
                  "Token arrays: a file (any format vpsim decl reads) or a directory of .decl/.hex/.bin files "
                  "(repeatable), each array run in strict and lenient mode (default: tb/corpus in vpsim's data "
                  "directory, <build>/share/vpsim)")
        ->allow_extra_args(false)
        ->each([a](const std::string&) { a->corpus_given = true; });
    c->add_flag("--no-corpus", a->no_corpus, "Skip the corpus")->excludes("--corpus");
    c->add_flag("--systemc", a->opt.systemc,
                "Run the SystemC bench (Verilated RTL in SystemC mode against the SystemC unit, event lists and "
                "cycle counts) instead of the fast path");
    c->add_option("--mismatch-dir", a->opt.mismatch_dir,
                  "Where shrunk failing arrays are written, created if missing (default: OUT/mismatches of --out)")
        ->each([a](const std::string&) { a->mismatch_dir_given = true; });
    c->add_option("--out", a->out,
                  "The run's output directory (default xcheck-out): shrunk failing arrays (with --unit vertex_fetch: "
                  "shrunk failing cases, JSON case files for --case) go to OUT/mismatches/ unless --mismatch-dir; "
                  "nothing is created when nothing is written");
    c->add_option("--show", a->opt.show,
                  "Mismatches detailed, shrunk and written (default 5); every mismatch is counted and grouped by "
                  "signature (what differs)")
        ->check(CLI::Range(size_t(0), size_t(1000000)));
}

// Functional coverage: waivers, user-defined bins, the gate; and the arrays' export.
void add_xcheck_gate_options(CLI::App* c, const std::shared_ptr<XcheckArgs>& a) {
    c->add_option("--waive", a->waive,
                  "Coverage waivers: a file of `waive BIN because REASON` lines (BIN may use *), for bins that "
                  "cannot be hit; waived bins are listed with their reasons (repeatable)")
        ->allow_extra_args(false);
    c->add_option("--waive-bin", a->waive_bin, "One coverage waiver: \"BIN because REASON\" (repeatable)")
        ->allow_extra_args(false);
    c->add_option("--bins", a->bins,
                  "User-defined coverage: a file of `bin NAME token MASK VALUE[..HI]`, `bin NAME event KIND "
                  "[stream=R] [value=R] [code=R] [reg=R]` (R is N or LO..HI; each bin optionally `strict` or "
                  "`lenient`), `cross NAME BIN BIN... [within N]` (in one array, or within N consecutive events) "
                  "and `seq NAME BIN BIN... [same=FIELD]` (adjacent tokens or events of one array, in order) "
                  "lines; with --unit vertex_fetch also `bin NAME fetch [type=R] [stream=R] [offset=R] [reg=R] "
                  "[index=R] [flush=R]` (one element fetched for one vertex; crosses of them count cases); a bin, "
                  "cross or seq never hit is a hole like the built-in ones (docs/xcheck.md)");
    c->add_flag("--coverage-gate", a->gate,
                "Fail the run on coverage holes even when it is directed (--only, --random 0; with --unit vertex_fetch "
                "--only, --case, --no-directed); by default only runs with random arrays (and the directed cases) are gated");
    c->add_flag("--no-coverage-gate", a->no_gate, "Coverage holes are reported but never fail the run")
        ->excludes("--coverage-gate");
    c->add_option("--dump-arrays", a->dump_arrays,
                  "Export the run's arrays (corpus, then --random/--only) with the golden model's events and cycles "
                  "into DIR/arrays.txt (format: docs/dpi.md) and exit without checking; with --rtl -G the "
                  "design's CONST_COUNT / MAX_LENGTH apply");
}

// The SystemC bench's waveforms and the random back-pressure.
void add_xcheck_bench_options(CLI::App* c, const std::shared_ptr<XcheckArgs>& a) {
    c->add_option("--vcd", a->opt.vcd, "With --systemc: write waveforms PREFIX_model.vcd and PREFIX_rtl.vcd")
        ->needs("--systemc");
    c->add_option("--out-ready", a->opt.bp.out_ready, "Probability that the event sink is ready in a cycle (default 0.7)")
        ->check(CLI::Range(0.05, 1.0));
    c->add_option("--in-valid", a->opt.bp.in_valid, "Probability that the source offers a token in a cycle (default 0.9)")
        ->check(CLI::Range(0.05, 1.0));
}

// The user's RTL (--rtl) and the RTL's code coverage.
void add_xcheck_rtl_options(CLI::App* c, const std::shared_ptr<XcheckArgs>& a) {
    c->add_option("--rtl", a->rtl,
                  "Your own decoder RTL instead of rtl/decl_decoder.sv (repeat for more files): Verilated at run time "
                  "into the RTL cache, its ports checked against docs/decl-decoder.md's contract first")
        ->excludes("--systemc");
    c->add_option("--top", a->top, "With --rtl: the top module (default: Verilator's choice, the one uninstantiated module)")
        ->needs("--rtl");
    c->add_option("-G", a->params,
                  "With --rtl: a parameter of the top module, NAME=VALUE (repeatable); CONST_COUNT and MAX_LENGTH "
                  "also set the golden model's")
        ->needs("--rtl");
    c->add_option("--rtl-cache", a->rtl_cache,
                  "With --rtl, --coverage: the directory of Verilated builds (default $VPSIM_RTL_CACHE, else "
                  "$XDG_CACHE_HOME/vpsim/rtl, else ~/.cache/vpsim/rtl)");
    c->add_option("--coverage", a->coverage,
                  "Code coverage of the RTL (built-in, or --rtl): Verilate it with --coverage (line, branch, toggle, "
                  "cover properties) and write DIR/coverage.dat, DIR/coverage.info, the lcov report DIR/html/ "
                  "(needs lcov's genhtml), DIR/annotated/ and DIR/holes.txt")
        ->excludes("--systemc");
    c->add_option("--code-waive", a->code.waive_files,
                  "With --coverage: code-coverage waivers, a file of `waive POINT because REASON` lines, POINT as "
                  "`FILE:LINE: KIND COMMENT` with the source's base name (decl_decoder.sv:212: toggle offset_q[0]; "
                  "* matches any text), for points unreachable under the contract: not holes, listed in DIR/waived.txt "
                  "with the reason (repeatable)")
        ->check(CLI::ExistingFile);
    c->add_option("--code-gate", a->code.gate,
                  "With --coverage: fail the run (exit 1) when fewer than PCT % of the code coverage points (line, "
                  "branch, toggle, cover) are hit or waived")
        ->check(CLI::Range(0.0, 100.0));
}

// The mutation campaign (--mutants) and the stop at the first mismatch it runs per mutant.
void add_xcheck_mutant_options(CLI::App* c, const std::shared_ptr<XcheckArgs>& a) {
    c->add_option("--mutants", a->mutants,
                  "Mutation score: yosys' mutate makes N mutants of the RTL (built-in, or one --rtl file with --top), each "
                  "Verilated and cross-checked (corpus + --random arrays) until the first mismatch; prints killed / "
                  "survived / timed out, the kill rate and every survivor (needs yosys: scripts/deps.sh yosys)")
        ->check(CLI::Range(1, 100000))
        ->excludes("--systemc")
        ->excludes("--coverage");
    c->add_option("--mutant-seed", a->mutant_seed, "With --mutants: yosys mutate's seed (default 1)");
    c->add_option("--mutant-timeout", a->mutant_timeout,
                  "With --mutants: seconds for one mutant's cross-check, then it counts as timed out (default 60)")
        ->check(CLI::Range(1.0, 86400.0));
    c->add_option("--mutants-dir", a->mutants_dir, "With --mutants: where the mutants' Verilog goes (default xcheck-mutants)");
    c->add_flag("--first-mismatch", a->opt.first_mismatch,
                "Stop at the first mismatch, without shrinking or writing it (what --mutants runs per mutant)");
}

// The reports beside the table (JUnit, a failure's waveform, JSON), threads and streams.
void add_xcheck_run_options(CLI::App* c, const std::shared_ptr<XcheckArgs>& a) {
    c->add_option("--junit", a->junit,
                  "Also write a JUnit XML report: one test case per corpus file and per 10,000 random arrays (with "
                  "--unit vertex_fetch: per directed case and per 1,000 random cases), failures with the first mismatch "
                  "and its replay command, and one for the functional coverage; with --mutants, one test case per "
                  "mutant (a survivor fails with its replay command)");
    c->add_option("--wave-on-fail", a->wave_on_fail,
                  "On a mismatch, write an FST waveform (GTKWave) of the first failing array's shrunk replay into DIR: "
                  "the RTL is Verilated again with --trace-fst (cached) when it is needed; with --unit vertex_fetch, a VCD "
                  "of the first failing case's shrunk replay (--trace)")
        ->excludes("--systemc");
    c->add_option("--jobs", a->opt.jobs,
                  "Threads for the random arrays, one RTL instance each, made on its thread (default 1). The arrays go "
                  "in chunks of 2000, each from a reset decoder, merged in order: the arrays checked and the report are "
                  "the same for any N")
        ->check(CLI::Range(1, 256))
        ->excludes("--systemc");
    c->add_option("--stream", a->opt.stream,
                  "Drive the random arrays back to back, K to a stream (K >= 2; --random rounded up to whole "
                  "streams), with random idle gaps between them, none at half of the boundaries: the cycle contract "
                  "across array boundaries. --only I then checks stream I; a failing stream is shrunk and written "
                  "as a stream file. With --unit vertex_fetch: K random draws back to back, no reset between them, "
                  "the idle index cycles drawn per boundary the same way; a stream is a case (--random rounded up to "
                  "whole streams), its shrunk draws written as a case file (--case FILE), the gaps in it")
        ->check(CLI::Range(2ull, 1000000ull))
        ->excludes("--systemc");
    c->add_option("--stream-file", a->opt.stream_file,
                  "Check the one stream in FILE (a shrunk failing stream, as --stream writes them), without the "
                  "corpus and the random arrays")
        ->excludes("--systemc")
        ->excludes("--stream")
        ->excludes("--corpus");
    c->add_flag("--json", a->json, "Print one JSON object instead of the table");
}

// An option that does not apply is an error, never ignored: prints the first of `opts` given, if any.
bool refuse_given(const CLI::App& c, const std::vector<const char*>& opts, const std::string& why) {
    for (const char* o : opts)
        if (c.count(o)) {
            std::fprintf(stderr, "vpsim xcheck: %s does not apply %s\n", o, why.c_str());
            return true;
        }
    return false;
}

// Options that do not apply to the unit, or without --coverage: true after printing the first.
bool refuse_misplaced_xcheck(const XcheckArgs& a, const CLI::App& c) {
    if (a.vf.unit == "vertex_fetch") {
        if (refuse_given(c, {"--corpus", "--no-corpus", "--systemc", "--vcd", "--dump-arrays", "--in-valid"},
                         "to --unit vertex_fetch (the vertex fetch cross-check has directed cases, not the decoder's "
                         "corpus: docs/xcheck.md)"))
            return true;
        // A fetch stream is a case whose later draws follow back to back: a shrunk one is a case file.
        if (refuse_given(c, {"--stream-file"},
                         "to --unit vertex_fetch (a failing stream is written as a case file, with each draw's idle gap: "
                         "replay it with --case FILE)"))
            return true;
        // --case FILE checks the case as written, its timing included.
        if (c.count("--case") &&
            refuse_given(c, {"--random", "--seed", "--only", "--no-directed", "--jobs", "--mutants", "--latency-min",
                             "--latency-max", "--req-ready", "--out-ready", "--idx-valid", "--first-mismatch", "--stream"},
                         "with --case (the case file holds the one case to check, its timing and back-pressure included)"))
            return true;
    } else if (refuse_given(c, {"--latency-min", "--latency-max", "--req-ready", "--idx-valid", "--no-directed",
                                "--check-traffic", "--no-check-traffic", "--case"},
                            "to the declaration decoder (it is a --unit vertex_fetch option)")) {
        return true;
    }
    return !c.count("--coverage") &&
           refuse_given(c, {"--code-waive", "--code-gate"},
                        "without --coverage DIR (it waives and gates the RTL code coverage that --coverage measures)");
}

// --unit vertex_fetch: the shared options into the unit's own arguments.
const VfXcheckArgs& vf_args_of(XcheckArgs& a, const CLI::App& c) {
    VfXcheckArgs& v = a.vf;
    v.random = c.count("--random") ? a.opt.random : 10000;
    v.seed = a.opt.seed;
    v.only = a.opt.only;
    v.stream = uint32_t(a.opt.stream);
    v.jobs = a.opt.jobs;
    v.first_mismatch = a.opt.first_mismatch;
    v.show = a.opt.show;
    v.json = a.json;
    v.rtl = a.rtl;
    v.params = a.params;
    v.top = a.top;
    v.rtl_cache = a.rtl_cache;
    v.coverage = a.coverage;
    v.mutants = a.mutants;
    v.mutant_seed = a.mutant_seed;
    v.mutant_timeout = a.mutant_timeout;
    v.mutants_dir = a.mutants_dir;
    if (c.count("--out-ready")) v.out_ready = a.opt.bp.out_ready;
    v.junit = a.junit;
    v.wave_on_fail = a.wave_on_fail;
    v.bins = a.bins;
    v.waive = a.waive;
    v.waive_bin = a.waive_bin;
    v.gate = a.gate;
    v.no_gate = a.no_gate;
    v.code = a.code;
    v.mismatch_dir = a.mismatch_dir_given ? a.opt.mismatch_dir : a.out + "/mismatches";
    return v;
}

}  // namespace

void add_xcheck_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<XcheckArgs>();
    a->opt.random = 100000;
    CLI::App* c = app.add_subcommand(
        "xcheck",
        "Cross-check the RTL declaration decoder against the model on the directed corpus and on seeded random "
        "token arrays (valid, mutated and raw), with random back-pressure.\nExit status: 0 with no mismatch and "
        "full coverage, 1 otherwise, 2 usage or I/O error.");
    add_xcheck_array_options(c, a);
    add_xcheck_gate_options(c, a);
    add_xcheck_bench_options(c, a);
    add_xcheck_rtl_options(c, a);
    add_xcheck_mutant_options(c, a);
    add_xcheck_run_options(c, a);
    add_vf_xcheck_options(c, a->vf);
    c->callback([a, c, &exit_code] {
        // An option that does not apply to the unit (or to a mutation campaign) is an error, never ignored.
        if (refuse_misplaced_xcheck(*a, *c)) {
            exit_code = 2;
            return;
        }
        if (!load_code_waivers(a->code)) {  // before anything runs, for either unit
            exit_code = 2;
            return;
        }
        // --junit applies (one test case per mutant); the rest shape or report one cross-check's
        // mismatches and coverage, which a mutant's check (stopped at its first mismatch) has not.
        if (a->mutants > 0 && refuse_given(*c,
                                           {"--wave-on-fail", "--bins", "--waive", "--waive-bin", "--dump-arrays",
                                            "--show", "--mismatch-dir", "--first-mismatch", "--stream-file"},
                                           "with --mutants (each mutant's check stops at its first mismatch; the "
                                           "campaign prints one row per mutant)")) {
            exit_code = 2;
            return;
        }
        // The campaign's report is its table (and --junit); each mutant is checked against the
        // whole budget, and writes no files of its own.
        if (a->mutants > 0 && refuse_given(*c, {"--json", "--only", "--out"},
                                           "with --mutants (the campaign prints a table of the mutants, each checked "
                                           "against the whole budget; --junit FILE writes them as a JUnit report)")) {
            exit_code = 2;
            return;
        }
        if (a->mutants > 0 && !a->junit.empty()) {
            // The campaign's report is written when it ends: a folder it cannot go into is an error
            // now, before minutes of mutants.
            const std::filesystem::path dir = std::filesystem::path(a->junit).parent_path();
            std::error_code ec;
            if (!dir.empty() && !std::filesystem::is_directory(dir, ec)) {
                std::fprintf(stderr, "vpsim xcheck: --junit %s: the directory %s does not exist\n", a->junit.c_str(),
                             dir.string().c_str());
                exit_code = 2;
                return;
            }
        }
        exit_code = a->vf.unit == "vertex_fetch" ? run_vf_xcheck(vf_args_of(*a, *c)) : run_xcheck(*a, *c);
    });
}

}  // namespace vpsim::cli
