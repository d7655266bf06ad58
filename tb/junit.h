// The cross-check's JUnit XML report (vpsim xcheck --junit FILE, docs/xcheck.md): one test case
// per corpus file and per batch of random arrays, a failure carrying the first mismatch and its
// replay command; with the coverage gate on, the functional coverage is one more test case
// (its holes the failure, excluded and waived bins with their reasons in its system-out).
#pragma once

#include "tb/coverage_gate.h"
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

}  // namespace vpsim::tb
