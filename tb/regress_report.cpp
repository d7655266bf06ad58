// vpsim regress's reports over all runs (tb/regress.h): merged coverage, one triage, one JUnit.
#include "tb/regress.h"

#include "model/common/file_util.h"
#include "model/common/process.h"
#include "tb/coverage_merge.h"
#include "tb/junit.h"
#include "tb/rtl_coverage.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <map>

namespace vpsim::tb {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ojson = nlohmann::ordered_json;

// One signature over every run: the mismatches it counts, the runs it was seen in, the first.
struct CrossGroup {
    std::string unit, signature;
    uint64_t mismatches = 0;
    std::vector<std::string> runs;
    std::string first_run, first_where, first_detail, replay;
};

class CrossTriage {
public:
    void add(const RegressRun& r, const std::string& sig, uint64_t n, const std::string& where, const std::string& detail,
             const std::string& replay) {
        const std::string key = r.unit + "\n" + sig;
        auto it = index_.find(key);
        if (it == index_.end()) {
            it = index_.emplace(key, groups_.size()).first;
            groups_.push_back({r.unit, sig, 0, {}, r.label, where, detail, replay});
        }
        CrossGroup& g = groups_[it->second];
        g.mismatches += n;
        if (g.runs.empty() || g.runs.back() != r.label) g.runs.push_back(r.label);
    }
    std::vector<CrossGroup> sorted() const {
        std::vector<CrossGroup> v = groups_;
        std::stable_sort(v.begin(), v.end(), [](const CrossGroup& a, const CrossGroup& b) {
            return a.runs.size() != b.runs.size() ? a.runs.size() > b.runs.size() : a.mismatches > b.mismatches;
        });
        return v;
    }

private:
    std::vector<CrossGroup> groups_;
    std::map<std::string, size_t> index_;
};

std::string str(const json& j, const char* key) { return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : ""; }

// The mismatch groups (both units report them) and the decoder's pin groups of every failing run.
void triage_runs(const std::vector<RunOutcome>& outcomes, CrossTriage& sigs, CrossTriage& pins) {
    for (const RunOutcome& o : outcomes) {
        if (o.state != RunOutcome::State::Failed) continue;
        const json& r = o.report;
        if (r.contains("mismatch_groups") && r["mismatch_groups"].is_array())
            for (const auto& g : r["mismatch_groups"])
                sigs.add(*o.run, str(g, "signature"), g.value("count", uint64_t(0)), str(g, "first"), str(g, "first_difference"),
                         str(g, "replay"));
        if (r.contains("pin_groups") && r["pin_groups"].is_array())
            for (const auto& g : r["pin_groups"])
                pins.add(*o.run, str(g, "pins"), g.value("count", uint64_t(0)), str(g, "first"), str(g, "first_divergence"),
                         str(g, "replay"));
    }
}

ojson groups_json(const std::vector<CrossGroup>& gs, const char* key) {
    ojson a = ojson::array();
    for (const auto& g : gs)
        a.push_back({{"unit", g.unit}, {key, g.signature}, {"mismatches", g.mismatches}, {"runs", g.runs.size()},
                     {"run_labels", g.runs}, {"first_run", g.first_run}, {"first", g.first_where},
                     {"first_difference", g.first_detail}, {"replay", g.replay}});
    return a;
}

std::string groups_text(const std::vector<CrossGroup>& gs, const std::string& title) {
    std::string s = fmt::format("{} ({} groups):\n", title, gs.size());
    for (const auto& g : gs) {
        s += fmt::format("  {:>8} mismatches in {:>3} runs  {}: {}\n", g.mismatches, g.runs.size(), g.unit, g.signature);
        s += fmt::format("            first: {}: {}: {}\n            replay: {}\n", g.first_run, g.first_where, g.first_detail,
                         g.replay);
    }
    return s;
}

std::string junit_text(const Regression& reg, const std::vector<RunOutcome>& outcomes, const CoverageSet& cov) {
    size_t failures = 0, errors = 0, tests = outcomes.size() + cov.units.size();
    double seconds = 0;
    std::string cases;
    for (const RunOutcome& o : outcomes) {
        seconds += o.seconds;
        cases += fmt::format("    <testcase classname=\"regress.{}\" name=\"{}\" time=\"{:.3f}\">\n", xml_escape(o.run->group),
                             xml_escape(o.run->label), o.seconds);
        if (o.state == RunOutcome::State::Error) {
            ++errors;
            cases += fmt::format("      <error message=\"the run did not finish\">{}</error>\n", xml_escape(o.error));
        } else if (o.state == RunOutcome::State::Failed) {
            ++failures;
            std::string first, replay;
            if (o.report.contains("failures") && o.report["failures"].is_array() && !o.report["failures"].empty()) {
                first = str(o.report["failures"][0], "first_difference");
                replay = str(o.report["failures"][0], "replay");
            }
            cases += fmt::format("      <failure message=\"{} mismatches\">first: {}\nreplay: {}\nrun folder: {}</failure>\n",
                                 o.mismatches, xml_escape(first), xml_escape(replay), xml_escape(o.run->dir));
        }
        cases += fmt::format("      <system-out>vpsim {}</system-out>\n    </testcase>\n", xml_escape(fmt::format("{}", fmt::join(o.run->args, " "))));
    }
    for (const auto& [unit, u] : cov.units) {
        const auto holes = u.holes();
        cases += fmt::format("    <testcase classname=\"regress.coverage\" name=\"{} merged functional coverage ({} runs)\">\n",
                             xml_escape(unit), u.runs);
        if (!holes.empty()) {
            ++failures;
            cases += fmt::format("      <failure message=\"{} bins not hit in any run\">{}</failure>\n", holes.size(),
                                 xml_escape(fmt::format("{}", fmt::join(holes, "\n"))));
        }
        cases += "    </testcase>\n";
    }
    return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"vpsim regress {}\" "
                       "tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{:.3f}\">\n{}  </testsuite>\n</testsuites>\n",
                       xml_escape(reg.name), tests, failures, errors, seconds, cases);
}

// Code coverage: the runs' coverage.dat summed by verilator_coverage, and its report. "" when no
// run had code coverage.
std::string merge_code_coverage(const std::vector<RunOutcome>& outcomes, const std::string& out_dir, ojson& summary) {
    std::vector<std::string> cmd = {"verilator_coverage", "--write"};
    const std::string dir = out_dir + "/code-coverage";
    const std::string tmp = dir + "/coverage.tmp.dat";
    cmd.push_back(tmp);
    for (const RunOutcome& o : outcomes)
        if (o.state != RunOutcome::State::Error && o.run->code_coverage) cmd.push_back(o.run->dir + "/code-coverage/coverage.dat");
    if (cmd.size() == 3) return "";
    fs::create_directories(dir);
    std::string out;
    if (run_command(cmd, "", out) != 0) throw std::runtime_error("verilator_coverage --write failed:\n" + out);
    fs::rename(tmp, dir + "/coverage.dat");
    const RtlCoverageReport rep = write_rtl_coverage_report(dir);
    std::string s = fmt::format("code coverage ({} runs merged by verilator_coverage: {}/coverage.dat, {}/html/index.html):\n",
                                cmd.size() - 3, dir, dir);
    ojson k = ojson::object();
    for (const auto& [name, v] : rep.summary.kinds) {
        s += fmt::format("  {:<8} {:>6} / {:<6} {:6.2f} %\n", name, v.hit, v.points, v.percent());
        k[name] = {{"points", v.points}, {"hit", v.hit}, {"percent", v.percent()}};
    }
    summary["code_coverage"] = {{"runs", cmd.size() - 3}, {"dat", dir + "/coverage.dat"}, {"kinds", k}, {"holes", rep.summary.holes.size()}};
    return s;
}

}  // namespace

std::string write_regress_reports(const Regression& reg, const std::vector<RunOutcome>& outcomes, const std::string& out_dir,
                                  bool& passed) {
    size_t n_pass = 0, n_fail = 0, n_err = 0;
    CoverageSet cov;
    ojson runs = ojson::array();
    std::string text = "runs:\n";
    for (const RunOutcome& o : outcomes) {
        const char* verdict = o.state == RunOutcome::State::Passed ? "pass" : o.state == RunOutcome::State::Failed ? "FAIL" : "ERROR";
        (o.state == RunOutcome::State::Passed ? n_pass : o.state == RunOutcome::State::Failed ? n_fail : n_err)++;
        if (o.state != RunOutcome::State::Error) cov.add(load_coverage(o.run->dir + "/coverage.json"));
        text += fmt::format("  {:<5} {:>8} mismatches  {:>7.2f} s  {}  ({})\n", verdict, o.mismatches, o.seconds, o.run->label,
                            o.run->dir);
        if (o.state == RunOutcome::State::Error) text += fmt::format("        {}\n", o.error.substr(0, 400));
        runs.push_back({{"label", o.run->label}, {"dir", o.run->dir}, {"verdict", verdict}, {"mismatches", o.mismatches},
                        {"seconds", o.seconds}, {"error", o.error}});
    }
    CrossTriage sigs, pins;
    triage_runs(outcomes, sigs, pins);
    const auto sg = sigs.sorted(), pg = pins.sorted();
    ojson tj;
    tj["schema"] = "vpsim-regress-triage-1";
    tj["mismatch_groups"] = groups_json(sg, "signature");
    tj["pin_groups"] = groups_json(pg, "pins");
    std::string triage = groups_text(sg, "triage over all runs: mismatch groups by signature");
    if (!pg.empty()) triage += groups_text(pg, "pin groups (the pins that differ where the two sides part)");
    write_file_atomic(out_dir + "/triage.json", tj.dump(2) + "\n");
    write_file_atomic(out_dir + "/triage.txt", triage);
    const ojson cj = cov.to_json();
    write_file_atomic(out_dir + "/coverage.json", cj.dump(1) + "\n");
    std::string ctext = "merged functional coverage (coverage.json):\n";
    bool holes = false;
    for (const auto& [unit, u] : cov.units) {
        const auto h = u.holes();
        holes = holes || !h.empty();
        ctext += fmt::format("  {:<13} {} runs  {} / {} bins hit  {} holes\n", unit, u.runs, cj["units"][unit]["bins_hit"].get<size_t>(),
                             u.order.size(), h.size());
        for (size_t i = 0; i < h.size() && i < 20; ++i) ctext += fmt::format("      hole: {}\n", h[i]);
        if (h.size() > 20) ctext += fmt::format("      ... {} holes in all (coverage.json)\n", h.size());
    }
    ojson summary;
    summary["schema"] = "vpsim-regress-summary-1";
    summary["name"] = reg.name;
    summary["runs"] = outcomes.size();
    summary["passed"] = n_pass;
    summary["failed"] = n_fail;
    summary["errors"] = n_err;
    summary["mismatch_groups"] = sg.size();
    const std::string code = merge_code_coverage(outcomes, out_dir, summary);
    passed = n_fail == 0 && n_err == 0 && !holes;
    summary["verdict"] = passed ? "pass" : "fail";
    summary["run_results"] = runs;
    write_file_atomic(out_dir + "/junit.xml", junit_text(reg, outcomes, cov));
    write_file_atomic(out_dir + "/summary.json", summary.dump(2) + "\n");
    text += fmt::format("regression {}: {} runs: {} passed, {} failed, {} did not finish\n", reg.name, outcomes.size(), n_pass, n_fail,
                        n_err);
    if (!sg.empty()) text += triage;
    text += ctext + code;
    text += fmt::format("reports: {0}/summary.json {0}/junit.xml {0}/triage.txt {0}/coverage.json\n", out_dir);
    text += fmt::format("verdict: {}\n", passed ? "pass" : "FAIL");
    return text;
}

}  // namespace vpsim::tb
