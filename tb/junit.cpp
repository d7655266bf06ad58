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

void write_junit(const std::string& file, const XcheckReport& report, const GateResult& gate) {
    write_file_atomic(file, junit_xml(report, gate));
}

void write_junit(const std::string& file, const std::vector<CaseRecord>& cases, double seconds, const GateResult& gate) {
    write_file_atomic(file, junit_xml(cases, seconds, gate));
}

}  // namespace vpsim::tb
