#include "tb/junit.h"

#include "model/common/file_util.h"

#include <fmt/format.h>

namespace vpsim::tb {

std::string xml_escape(const std::string& in) {
    std::string o;
    for (unsigned char c : in) {
        switch (c) {
        case '<': o += "&lt;"; break;
        case '>': o += "&gt;"; break;
        case '&': o += "&amp;"; break;
        case '"': o += "&quot;"; break;
        case '\n': case '\t': o += char(c); break;
        default: o += c < 0x20 ? std::string("?") : std::string(1, char(c));
        }
    }
    return o;
}

std::string junit_xml(const XcheckReport& r, const GateResult& gate) { return junit_xml(r.cases, r.seconds, gate); }

std::string junit_xml(const std::vector<CaseRecord>& cases, double seconds, const GateResult& gate) {
    const bool check_coverage = gate.gated;
    size_t failures = 0;
    for (const auto& c : cases) failures += c.mismatches ? 1 : 0;
    const bool cov_fail = gate.fails();
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    const size_t tests = cases.size() + (check_coverage ? 1 : 0);
    x += fmt::format("<testsuites name=\"vpsim xcheck\" tests=\"{}\" failures=\"{}\" time=\"{:.6f}\">\n", tests,
                     failures + cov_fail, seconds);
    x += fmt::format("  <testsuite name=\"xcheck\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\" time=\"{:.6f}\">\n",
                     tests, failures + cov_fail, seconds);
    for (const auto& c : cases) {
        x += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"{:.6f}\"", xml_escape(c.classname),
                         xml_escape(c.name), c.seconds);
        if (!c.mismatches) {
            x += "/>\n";
            continue;
        }
        const std::string first = c.failure.substr(0, c.failure.find('\n'));
        x += fmt::format(">\n      <failure message=\"{} of {} {} mismatch: {}\" type=\"mismatch\">{}</failure>\n    </testcase>\n",
                         c.mismatches, c.arrays, c.unit_word, xml_escape(first), xml_escape(c.failure));
    }
    if (check_coverage) {
        x += fmt::format("    <testcase classname=\"xcheck.coverage\" name=\"functional coverage\" time=\"0\">\n");
        if (cov_fail) {
            std::string holes;
            for (const auto& h : gate.holes) holes += h + "\n";
            x += fmt::format("      <failure message=\"{} coverage holes\" type=\"coverage\">{}</failure>\n", gate.holes.size(),
                             xml_escape(holes));
        }
        // Excluded (unreachable with these parameters) and waived bins, with their reasons.
        std::string notes;
        for (const auto& [bin, why] : gate.excluded) notes += fmt::format("excluded: {} (unreachable: {})\n", bin, why);
        for (const auto& [bin, why] : gate.waived) notes += fmt::format("waived: {} ({})\n", bin, why);
        if (!notes.empty()) x += fmt::format("      <system-out>{}</system-out>\n", xml_escape(notes));
        x += "    </testcase>\n";
    }
    x += "  </testsuite>\n</testsuites>\n";
    return x;
}

std::string campaign_junit_xml(const std::string& suite, const CampaignResult& campaign) {
    using R = MutantOutcome::Result;
    size_t failures = 0, errors = 0, skipped = 0;
    std::string body;
    for (const MutantOutcome& o : campaign.outcomes) {
        const Mutation& m = *o.mutation;
        body += fmt::format("    <testcase classname=\"xcheck.mutants\" name=\"{}\" time=\"{:.6f}\"",
                            xml_escape(fmt::format("mutant {}: {} at {} on {}", o.index, m.mode, m.where, m.signal)), o.seconds);
        const std::string replay = o.replay.empty() ? "" : "\nreplay: " + o.replay;
        switch (o.result) {
        case R::Killed:
            body += fmt::format(">\n      <system-out>killed: {}\n{}{}</system-out>\n    </testcase>\n", xml_escape(o.detail),
                                xml_escape(m.command), xml_escape(replay));
            break;
        case R::Survived:
            ++failures;
            body += fmt::format(">\n      <failure message=\"survived: the cross-check found no mismatch; replay: {}\" "
                                "type=\"survived\">{}{}</failure>\n    </testcase>\n",
                                xml_escape(o.replay), xml_escape(m.command), xml_escape(replay));
            break;
        case R::Equivalent:
            ++skipped;
            body += fmt::format(">\n      <skipped message=\"equivalent: {}\"/>\n    </testcase>\n", xml_escape(o.detail));
            break;
        case R::TimedOut:
        case R::Error:
        case R::NotBuilt:
            ++errors;
            body += fmt::format(">\n      <error message=\"{}: {}\" type=\"{}\">{}{}</error>\n    </testcase>\n", o.result_text(),
                                xml_escape(o.detail), o.result_text(), xml_escape(m.command), xml_escape(replay));
            break;
        }
    }
    const size_t tests = campaign.outcomes.size();
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x += fmt::format("<testsuites name=\"vpsim xcheck --mutants\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" "
                     "time=\"{:.6f}\">\n",
                     tests, failures, errors, skipped, campaign.seconds);
    x += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.6f}\">\n",
                     xml_escape(suite), tests, failures, errors, skipped, campaign.seconds);
    return x + body + "  </testsuite>\n</testsuites>\n";
}

void write_campaign_junit(const std::string& file, const std::string& suite, const CampaignResult& campaign) {
    write_file_atomic(file, campaign_junit_xml(suite, campaign));
}

void write_junit(const std::string& file, const XcheckReport& report, const GateResult& gate) {
    write_file_atomic(file, junit_xml(report, gate));
}

void write_junit(const std::string& file, const std::vector<CaseRecord>& cases, double seconds, const GateResult& gate) {
    write_file_atomic(file, junit_xml(cases, seconds, gate));
}

}  // namespace vpsim::tb
