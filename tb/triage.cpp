#include "tb/triage.h"

#include <fmt/format.h>

#include <algorithm>

namespace vpsim::tb {

void Triage::add(const std::string& signature, const std::string& where, const std::string& detail,
                 const std::string& replay) {
    ++total_;
    auto it = index_.find(signature);
    if (it == index_.end()) {
        it = index_.emplace(signature, groups_.size()).first;
        groups_.push_back({signature, 0, where, detail, replay});
    }
    ++groups_[it->second].count;
}

void Triage::merge(const Triage& later) {
    total_ += later.total_;
    for (const auto& g : later.groups_) {
        auto it = index_.find(g.signature);
        if (it == index_.end()) {
            it = index_.emplace(g.signature, groups_.size()).first;
            groups_.push_back(g);
        } else {
            groups_[it->second].count += g.count;
        }
    }
}

std::vector<TriageGroup> Triage::groups() const {
    std::vector<TriageGroup> g = groups_;
    std::stable_sort(g.begin(), g.end(), [](const TriageGroup& a, const TriageGroup& b) { return a.count > b.count; });
    return g;
}

std::string Triage::table() const {
    if (groups_.empty()) return "";
    std::string s = fmt::format("mismatch groups ({} mismatches, {} signatures; a signature is what differs):\n", total_,
                                groups_.size());
    for (const auto& g : groups())
        s += fmt::format("  {:>8}  {}\n            first: {}\n            {}\n            replay: {}\n", g.count, g.signature,
                         g.first_where, g.first_detail, g.first_replay);
    return s;
}

}  // namespace vpsim::tb
