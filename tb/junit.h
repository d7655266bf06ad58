// The cross-check's JUnit XML report (vpsim xcheck --junit FILE, docs/xcheck.md): one test case
// per corpus file and per batch of random arrays, a failure carrying the first mismatch and its
// replay command; with the coverage gate on, the functional coverage is one more test case
// (its holes the failure, excluded and waived bins with their reasons in its system-out).
// A mutation campaign (--mutants N, either unit) has its own report: one test case per mutant.
#pragma once

#include "tb/coverage_gate.h"
#include "tb/mutants.h"
#include "tb/xcheck.h"

#include <string>

namespace vpsim::tb {

// Text with <, >, & and " as entities; control characters other than newline and tab as '?'.
std::string xml_escape(const std::string& text);

std::string junit_xml(const XcheckReport& report, const GateResult& gate);
// Any unit's report: its test cases, the run's time and the coverage gate (a test case when gated).
std::string junit_xml(const std::vector<CaseRecord>& cases, double seconds, const GateResult& gate);

// junit_xml written atomically (model/common/file_util.h); throws OutputError.
void write_junit(const std::string& file, const XcheckReport& report, const GateResult& gate);
void write_junit(const std::string& file, const std::vector<CaseRecord>& cases, double seconds, const GateResult& gate);

// A mutation campaign of any unit (vpsim xcheck --mutants N --junit FILE): one test suite named
// `suite` (the unit, the design, the seeds), one test case per mutant (classname xcheck.mutants,
// named by its number, mode, source line and cell or wire), its time the mutant's. A killed
// mutant passes (what killed it in its system-out); a survivor is a <failure> with its replay
// command; a mutant timed out, not built or whose check could not run is an <error>; an
// equivalent one (the unmutated netlist) is <skipped>. The counts are the suite's attributes.
std::string campaign_junit_xml(const std::string& suite, const CampaignResult& campaign);
// campaign_junit_xml written atomically (model/common/file_util.h); throws OutputError.
void write_campaign_junit(const std::string& file, const std::string& suite, const CampaignResult& campaign);

}  // namespace vpsim::tb
