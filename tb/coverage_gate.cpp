#include "tb/coverage_gate.h"

#include "model/common/file_util.h"

#include <fmt/format.h>

#include <sstream>
#include <stdexcept>

namespace vpsim::tb {

namespace {
std::string trim_blanks(std::string s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
    size_t i = 0;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    return s.substr(i);
}
}  // namespace

Waiver parse_waiver(const std::string& text, const std::string& where) {
    std::string t = trim_blanks(text);
    if (t.rfind("waive ", 0) == 0) t = trim_blanks(t.substr(6));
    const size_t b = t.find(" because ");
    if (b == std::string::npos || trim_blanks(t.substr(0, b)).empty() || trim_blanks(t.substr(b + 9)).empty())
        throw std::runtime_error(fmt::format("{}: expected `waive BIN because REASON` (a bin name or pattern with *, "
                                             "and why it may stay unhit), got: {}",
                                             where, text));
    return {trim_blanks(t.substr(0, b)), trim_blanks(t.substr(b + 9)), where};
}

std::vector<Waiver> load_waivers(const std::string& file) {
    std::string text, why;
    if (!read_input_file(file, text, why)) throw std::runtime_error(fmt::format("{}: the waiver file: {}", file, why));
    std::istringstream in(text);
    std::vector<Waiver> w;
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        const std::string t = trim_blanks(line);
        if (t.empty() || t[0] == '#') continue;
        if (t.rfind("waive ", 0) != 0)
            throw std::runtime_error(fmt::format("{}:{}: a waiver line starts with `waive ` (`waive BIN because REASON`), "
                                                 "got: {}",
                                                 file, n, t));
        w.push_back(parse_waiver(t, fmt::format("{}:{}", file, n)));
    }
    return w;
}

bool bin_matches(const std::string& p, const std::string& s) {
    // Glob with '*' only, iterative with backtracking.
    size_t pi = 0, si = 0, star = std::string::npos, mark = 0;
    while (si < s.size()) {
        if (pi < p.size() && p[pi] == '*') {
            star = pi++;
            mark = si;
        } else if (pi < p.size() && p[pi] == s[si]) {
            ++pi;
            ++si;
        } else if (star != std::string::npos) {
            pi = star + 1;
            si = ++mark;
        } else {
            return false;
        }
    }
    while (pi < p.size() && p[pi] == '*') ++pi;
    return pi == p.size();
}

GateResult apply_gate(const std::vector<std::string>& holes, const std::vector<Exclusion>& excluded,
                      const std::vector<Waiver>& waivers, bool gated) {
    GateResult g;
    g.gated = gated;
    std::vector<bool> used(waivers.size(), false);
    for (const auto& h : holes) {
        const Exclusion* ex = nullptr;
        for (const auto& e : excluded)
            if (bin_matches(e.pattern, h)) {
                ex = &e;
                break;
            }
        if (ex) {
            g.excluded.emplace_back(h, ex->reason);
            continue;
        }
        bool waived = false;
        for (size_t i = 0; i < waivers.size() && !waived; ++i)
            if (bin_matches(waivers[i].pattern, h)) {
                g.waived.emplace_back(h, waivers[i].reason);
                used[i] = waived = true;
            }
        if (!waived) g.holes.push_back(h);
    }
    for (size_t i = 0; i < waivers.size(); ++i)
        if (!used[i]) g.unused.push_back(waivers[i]);
    return g;
}

std::string GateResult::text(const std::string& waive_hint) const {
    std::string s;
    for (const auto& [bin, why] : excluded) s += fmt::format("coverage excluded: {} (unreachable: {})\n", bin, why);
    for (const auto& [bin, why] : waived) s += fmt::format("coverage waived: {} ({})\n", bin, why);
    for (const auto& w : unused) s += fmt::format("coverage waiver unused: {} ({}: matches no hole)\n", w.pattern, w.where);
    if (holes.empty()) {
        s += excluded.empty() && waived.empty() ? "coverage: complete\n"
                                                : fmt::format("coverage: complete ({} excluded, {} waived)\n",
                                                              excluded.size(), waived.size());
        return s;
    }
    for (const auto& h : holes) s += "coverage hole: " + h + "\n";
    if (gated)
        s += fmt::format("coverage: {} holes fail the run; {}\n", holes.size(), waive_hint);
    else
        s += fmt::format("coverage: {} holes, not gated\n", holes.size());
    return s;
}

}  // namespace vpsim::tb
