#include "tb/regress.h"

#include "model/common/file_util.h"
#include "model/common/fnv.h"
#include "model/common/process.h"
#include "tb/coverage_merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <map>

namespace vpsim::tb {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The run's own folder in its arguments, replaced once the hash (which cannot contain it) is known.
const char* const kRunDir = "@RUN";

std::string read_or_throw(const std::string& path) {
    std::string text, why;
    if (!read_input_file(path, text, why)) throw RegressError(path + ": " + why);
    return text;
}

std::vector<std::string> xcheck_args(const RegressGroup& g, const RegressRtl& d, const RegressParams& ps,
                                     const RegressProfile& prof, uint64_t seed, const std::string& builtin) {
    std::vector<std::string> a = {"xcheck"};
    const bool vf = g.unit == "vertex_fetch";
    if (vf) a.insert(a.end(), {"--unit", "vertex_fetch"});
    a.insert(a.end(), {"--json", "--random", std::to_string(g.random), "--seed", std::to_string(seed)});
    if (!vf) a.insert(a.end(), {"--out", std::string(kRunDir) + "/xcheck-out"});
    if (!g.directed) a.push_back(vf ? "--no-directed" : "--no-corpus");
    if (g.stream) a.insert(a.end(), {"--stream", std::to_string(g.stream)});
    if (!g.bins.empty()) a.insert(a.end(), {"--bins", g.bins});
    for (const auto& [flag, value] : prof.options) a.insert(a.end(), {flag, value});
    std::vector<std::string> files = d.files;
    std::string top = d.top;
    if (files.empty() && !ps.empty()) {  // -G on the built-in design: its source, Verilated at run time
        files = {builtin};
        top = g.unit;
    }
    for (const auto& f : files) a.insert(a.end(), {"--rtl", f});
    if (!top.empty()) a.insert(a.end(), {"--top", top});
    for (const auto& [k, v] : ps) a.insert(a.end(), {"-G", k + "=" + v});
    if (g.code_coverage) a.insert(a.end(), {"--coverage", std::string(kRunDir) + "/code-coverage"});
    return a;
}

}  // namespace

std::vector<RegressRun> expand_runs(const Regression& reg, const std::string& out_dir, const std::string& binary_identity,
                                    const std::function<std::string(const std::string&)>& builtin_source,
                                    const std::string& rtl_cache) {
    std::vector<RegressRun> runs;
    std::map<std::string, std::string> file_text;  // each file read once
    auto file_bytes = [&](const std::string& f) -> const std::string& {
        auto it = file_text.find(f);
        if (it == file_text.end()) it = file_text.emplace(f, read_or_throw(f)).first;
        return it->second;
    };
    for (const RegressGroup& g : reg.groups) {
        const std::string builtin = builtin_source(g.unit);
        for (const RegressRtl& d : g.rtl)
            for (const RegressParams& ps : g.params)
                for (const RegressProfile& prof : g.profiles)
                    for (uint64_t seed : g.seeds) {
                        if (d.files.empty() && !ps.empty() && builtin.empty())
                            throw RegressError(fmt::format("group {}: -G {} needs the built-in design's source, which was not "
                                                           "found (vpsim's data directory)",
                                                           g.name, params_label(ps)));
                        RegressRun r;
                        r.index = runs.size();
                        r.group = g.name;
                        r.unit = g.unit;
                        r.rtl = d.name;
                        r.params = params_label(ps);
                        r.profile = prof.name;
                        r.seed = seed;
                        r.label = fmt::format("{}/{}/{}/{}/seed{}", g.name, d.name, r.params, prof.name, seed);
                        r.code_coverage = g.code_coverage;
                        r.args = xcheck_args(g, d, ps, prof, seed, builtin);
                        Fnv h;
                        h.add("vpsim-regress-run-1");
                        h.add(binary_identity);
                        h.add(r.label);  // two rows with the same arguments (e.g. two empty profiles) are two runs
                        for (size_t i = 0; i < r.args.size(); ++i) {
                            h.add(r.args[i]);
                            if (i && (r.args[i - 1] == "--rtl" || r.args[i - 1] == "--bins")) h.add(file_bytes(r.args[i]));
                        }
                        r.hash = fmt::format("{:016x}", h.h);
                        r.dir = (fs::path(out_dir) / "runs" / r.hash).string();
                        for (auto& a : r.args)
                            if (a.rfind(kRunDir, 0) == 0) a = r.dir + a.substr(std::string(kRunDir).size());
                        if (!rtl_cache.empty() && (r.args.end() != std::find(r.args.begin(), r.args.end(), "--rtl") || r.code_coverage))
                            r.args.insert(r.args.end(), {"--rtl-cache", rtl_cache});
                        runs.push_back(std::move(r));
                    }
    }
    return runs;
}

nlohmann::ordered_json run_json(const RegressRun& r) {
    nlohmann::ordered_json j;
    j["schema"] = "vpsim-regress-run-1";
    j["label"] = r.label;
    j["group"] = r.group;
    j["unit"] = r.unit;
    j["rtl"] = r.rtl;
    j["params"] = r.params;
    j["profile"] = r.profile;
    j["seed"] = r.seed;
    j["code_coverage"] = r.code_coverage;
    j["args"] = r.args;
    return j;
}

int regress_run_one(const std::string& dir, const std::string& exe) {
    const std::string me = "vpsim regress-run: " + dir;
    try {
        OutputDirLock lock(dir);
        const json cfg = json::parse(read_file(dir + "/run.json"));
        if (cfg.value("schema", "") != "vpsim-regress-run-1") throw std::runtime_error("run.json: not a regression run");
        const std::vector<std::string> args = cfg.at("args").get<std::vector<std::string>>();
        for (const char* f : {"result.json", "xcheck.json", "coverage.json"}) fs::remove(fs::path(dir) / f);
        std::vector<std::string> argv = {exe};
        argv.insert(argv.end(), args.begin(), args.end());
        SpawnOptions o;
        o.out = Stream::File;
        o.out_file = dir + "/xcheck.json.tmp";
        o.err = Stream::File;
        o.err_file = dir + "/xcheck.stderr";
        o.parent_death_signal = SIGTERM;  // a run that is stopped stops its cross-check
        Child c = spawn(argv, o);
        const ExitStatus st = *c.wait();
        if (!st.exited || (st.code != 0 && st.code != 1)) {
            std::string err = read_file(dir + "/xcheck.stderr");
            while (!err.empty() && err.back() == '\n') err.pop_back();
            throw std::runtime_error(fmt::format("vpsim xcheck ended with {}: {}", st.describe(),
                                                 err.empty() ? "(no message)" : err.substr(err.size() > 2000 ? err.size() - 2000 : 0)));
        }
        const std::string text = read_file(dir + "/xcheck.json.tmp");
        const json report = json::parse(text);
        const CoverageSet cov = coverage_of_xcheck(report, dir + "/xcheck.json");
        if (cfg.value("code_coverage", false) && !fs::is_regular_file(fs::path(dir) / "code-coverage" / "coverage.dat"))
            throw std::runtime_error("code-coverage/coverage.dat is missing after the run");
        write_file_atomic(dir + "/coverage.json", cov.to_json().dump(1) + "\n");
        fs::rename(dir + "/xcheck.json.tmp", dir + "/xcheck.json");
        nlohmann::ordered_json res;
        res["schema"] = "vpsim-regress-result-1";
        res["exit_status"] = st.code;
        res["mismatches"] = report.value("mismatches", uint64_t(0));
        res["seconds"] = st.wall_seconds;
        write_file_atomic(dir + "/result.json", res.dump(1) + "\n");  // last: the run is finished
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", me.c_str(), e.what());
        return 2;
    }
}

RunOutcome read_outcome(const RegressRun& run) {
    RunOutcome o;
    o.run = &run;
    std::string text, why;
    if (!read_input_file(run.dir + "/result.json", text, why)) {
        std::string st, err;
        (void)read_input_file(run.dir + "/exit_status", st, why);
        (void)read_input_file(run.dir + "/stderr.txt", err, why);
        while (!err.empty() && err.back() == '\n') err.pop_back();
        while (!st.empty() && st.back() == '\n') st.pop_back();
        o.error = !err.empty() ? err : st.empty() ? "it did not run to its end" : "exit status " + st + " (no message)";
        return o;
    }
    try {
        const json res = json::parse(text);
        o.report = json::parse(read_file(run.dir + "/xcheck.json"));
        o.mismatches = o.report.value("mismatches", uint64_t(0));
        o.seconds = res.value("seconds", 0.0);
        o.state = o.mismatches ? RunOutcome::State::Failed : RunOutcome::State::Passed;
    } catch (const std::exception& e) {
        o.error = fmt::format("{}: unreadable results ({})", run.dir, e.what());
    }
    return o;
}

}  // namespace vpsim::tb
