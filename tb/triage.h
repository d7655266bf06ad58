// Triage of many mismatches: each mismatch has a signature (what differs: the event kind and
// field, a missing or extra event, the cycle count, ...); mismatches with the same signature are
// most likely one bug. Groups are counted in the order they were first seen, each with its first
// mismatch (where, what, the replay command), so a report can show one line per bug instead of
// the first few mismatches. Generic: any cross-check that can name what differs uses it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace vpsim::tb {

struct TriageGroup {
    std::string signature;
    uint64_t count = 0;
    std::string first_where;   // e.g. "random array 46 of --seed 1 (strict mode)"
    std::string first_detail;  // the first difference in full
    std::string first_replay;  // the command that replays it
};

class Triage {
public:
    void add(const std::string& signature, const std::string& where, const std::string& detail,
             const std::string& replay);
    // Groups by count (largest first), ties in the order first seen.
    std::vector<TriageGroup> groups() const;
    // Another triage's mismatches after these (chunks of a run merged in order): its groups in the
    // order it first saw them.
    void merge(const Triage& later);
    uint64_t total() const { return total_; }
    // "mismatch groups (N mismatches, G signatures):" and one block per group.
    std::string table() const;

private:
    std::vector<TriageGroup> groups_;
    std::map<std::string, size_t> index_;
    uint64_t total_ = 0;
};

}  // namespace vpsim::tb
