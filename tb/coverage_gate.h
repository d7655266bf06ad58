// Coverage you control: the gate that decides whether coverage holes fail a run, with
//   - exclusions: bins the design's parameters make unreachable, found by the cross-check itself
//     (e.g. rule D12 with CONST_COUNT >= 142), listed with the reason, never holes;
//   - waivers: a file of `waive PATTERN because REASON` lines (PATTERN: a bin name, `*` matching
//     any text), for holes the user knows to be unreachable or out of scope; each waived hole is
//     reported with its reason, and a waiver that matches no bin is reported as unused;
//   - the gate on or off (directed runs of a few files are not expected to cover everything).
// Generic over bin names: any cross-check with named functional-coverage bins uses it.
#pragma once

#include <string>
#include <vector>

namespace vpsim::tb {

struct Waiver {
    std::string pattern;  // bin name; '*' matches any text (also none)
    std::string reason;
    std::string where;    // "file:line" (or "--waive-bin")
};

// `waive PATTERN because REASON` lines; blank lines and lines starting with '#' are skipped.
// A malformed line throws std::runtime_error "file:line: ..." naming the rule.
std::vector<Waiver> load_waivers(const std::string& file);
// One waiver from the command line: "PATTERN because REASON".
Waiver parse_waiver(const std::string& text, const std::string& where);

bool bin_matches(const std::string& pattern, const std::string& bin);

struct Exclusion {
    std::string pattern;
    std::string reason;
};

struct GateResult {
    bool gated = true;                              // holes fail the run
    std::vector<std::string> holes;                 // neither excluded nor waived
    std::vector<std::pair<std::string, std::string>> excluded;  // bin, reason (unreachable)
    std::vector<std::pair<std::string, std::string>> waived;    // bin, reason (waiver)
    std::vector<Waiver> unused;                     // waivers that matched no hole
    bool fails() const { return gated && !holes.empty(); }
    // The summary lines: holes, excluded and waived bins, unused waivers, and when it fails, how
    // to waive.
    std::string text(const std::string& waive_hint) const;
};

GateResult apply_gate(const std::vector<std::string>& holes, const std::vector<Exclusion>& excluded,
                      const std::vector<Waiver>& waivers, bool gated);

}  // namespace vpsim::tb
