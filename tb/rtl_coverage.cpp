#include "tb/rtl_coverage.h"

#include "model/common/file_util.h"
#include "model/rtl/user_rtl.h"
#include "model/common/process.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <sstream>
#include <tuple>

namespace vpsim::tb {

CoverageSummary read_coverage_dat(const std::string& file) {
    std::string text, why;
    if (!read_input_file(file, text, why)) throw std::runtime_error(file + ": cannot read the coverage data: " + why);
    std::istringstream in(text);
    CoverageSummary s;
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        // C '<key>' <count>, the key fields \001name\002value
        if (line.rfind("C '", 0) != 0) continue;
        const size_t close = line.rfind('\'');
        if (close == std::string::npos || close < 3)
            throw std::runtime_error(file + ":" + std::to_string(n) + ": not a coverage record");
        const std::string key = line.substr(3, close - 3);
        CoveragePoint p;
        p.count = std::strtoull(line.c_str() + close + 1, nullptr, 10);
        for (size_t i = 0; i < key.size();) {
            const size_t f = key.find('\001', i);
            const size_t next = key.find('\001', f == std::string::npos ? key.size() : f + 1);
            if (f == std::string::npos) break;
            const std::string field = key.substr(f + 1, (next == std::string::npos ? key.size() : next) - f - 1);
            const size_t sep = field.find('\002');
            if (sep != std::string::npos) {
                const std::string name = field.substr(0, sep), value = field.substr(sep + 1);
                if (name == "page") p.kind = value.substr(0, value.find('/'));
                else if (name == "f") p.file = value;
                else if (name == "l") p.line = std::atoi(value.c_str());
                else if (name == "o") p.comment = value;
                else if (name == "h") p.hier = value;
            }
            i = next == std::string::npos ? key.size() : next;
        }
        if (p.kind.rfind("v_", 0) == 0) p.kind = p.kind.substr(2);
        s.points.push_back(p);
        auto& k = s.kinds[p.kind];
        ++k.points;
        if (p.count) ++k.hit;
        else s.holes.push_back(p);
    }
    std::stable_sort(s.holes.begin(), s.holes.end(), [](const CoveragePoint& a, const CoveragePoint& b) {
        return std::tie(a.file, a.line) < std::tie(b.file, b.line);
    });
    return s;
}

namespace {
// "name[12]" -> ("name", 12); false for anything else.
bool bit_of(const std::string& c, std::string& name, long& bit) {
    if (c.size() < 4 || c.back() != ']') return false;
    const size_t open = c.rfind('[');
    if (open == std::string::npos || open == 0 || c.find(':', open) != std::string::npos) return false;
    char* end = nullptr;
    bit = std::strtol(c.c_str() + open + 1, &end, 10);
    if (end != c.c_str() + c.size() - 1) return false;
    name = c.substr(0, open);
    return true;
}
}  // namespace

std::vector<CoveragePoint> group_bit_ranges(const std::vector<CoveragePoint>& holes) {
    // Toggle holes keyed by (file, line, hier, signal): their bits, then runs of contiguous bits.
    std::map<std::tuple<std::string, int, std::string, std::string>, std::vector<long>> bits;
    std::vector<CoveragePoint> out;
    std::vector<std::tuple<std::string, int, std::string, std::string>> order;
    for (const auto& h : holes) {
        std::string name;
        long b = 0;
        if (h.kind == "toggle" && bit_of(h.comment, name, b)) {
            auto key = std::make_tuple(h.file, h.line, h.hier, name);
            auto& v = bits[key];
            if (v.empty()) order.push_back(key);
            v.push_back(b);
            continue;
        }
        out.push_back(h);
    }
    for (const auto& key : order) {
        auto v = bits[key];
        std::sort(v.begin(), v.end());
        for (size_t i = 0; i < v.size();) {
            size_t j = i;
            while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
            CoveragePoint p;
            p.kind = "toggle";
            std::tie(p.file, p.line, p.hier, p.comment) = key;
            p.comment += i == j ? "[" + std::to_string(v[i]) + "]" : "[" + std::to_string(v[j]) + ":" + std::to_string(v[i]) + "]";
            out.push_back(p);
            i = j + 1;
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const CoveragePoint& a, const CoveragePoint& b) {
        return std::tie(a.file, a.line) < std::tie(b.file, b.line);
    });
    return out;
}

std::string add_branch_records(const std::string& info, const std::vector<CoveragePoint>& points) {
    std::string out, file, line;
    size_t i = 0;
    while (i < info.size()) {
        const size_t nl = info.find('\n', i);
        line = info.substr(i, (nl == std::string::npos ? info.size() : nl) - i);
        i = nl == std::string::npos ? info.size() : nl + 1;
        if (line.rfind("SF:", 0) == 0) file = line.substr(3);
        if (line == "end_of_record") {
            // This file's branch and toggle points: BRDA:<line>,<block>,<branch>,<taken>.
            std::map<int, int> next;  // per line, the next branch number
            uint64_t found = 0, hit = 0;
            for (const auto& p : points) {
                if (p.file != file || (p.kind != "branch" && p.kind != "toggle")) continue;
                out += "BRDA:" + std::to_string(p.line) + "," + (p.kind == "branch" ? "0" : "1") + "," +
                       std::to_string(next[p.line]++) + "," + std::to_string(p.count) + "\n";
                ++found;
                hit += p.count ? 1 : 0;
            }
            if (found) out += "BRF:" + std::to_string(found) + "\nBRH:" + std::to_string(hit) + "\n";
        }
        out += line + "\n";
    }
    return out;
}

std::string point_name(const CoveragePoint& p) {
    const size_t slash = p.file.find_last_of('/');
    return fmt::format("{}:{}: {} {}", slash == std::string::npos ? p.file : p.file.substr(slash + 1), p.line, p.kind, p.comment);
}

CodeGate apply_code_gate(const CoverageSummary& s, const std::vector<Waiver>& waivers, double gate) {
    CodeGate g;
    g.gate = gate;
    std::vector<char> used(waivers.size(), 0);
    for (const auto& p : s.points) {
        ++g.points;
        if (p.count) {
            ++g.hit;
            continue;
        }
        const std::string name = point_name(p);
        size_t w = 0;
        while (w < waivers.size() && !bin_matches(waivers[w].pattern, name)) ++w;
        if (w == waivers.size()) {
            g.holes.push_back(p);
            continue;
        }
        used[w] = 1;
        g.waived.emplace_back(p, waivers[w].reason);
        ++g.waived_by_kind[p.kind];
    }
    for (size_t w = 0; w < waivers.size(); ++w)
        if (!used[w]) g.unused.push_back(waivers[w]);
    return g;
}

RtlCoverageReport write_rtl_coverage_report(const std::string& dir, const std::vector<Waiver>& waivers, double gate) {
    const std::string dat = dir + "/coverage.dat", info = dir + "/coverage.info";
    RtlCoverageReport rep;
    rep.summary = read_coverage_dat(dat);
    std::string out;
    if (run_command({"verilator_coverage", "--write-info", info, dat}, "", out) != 0)
        throw std::runtime_error("verilator_coverage --write-info failed:\n" + out);
    out.clear();
    run_command({"verilator_coverage", "--annotate", dir + "/annotated", "--annotate-min", "1", dat}, "", out);
    // Branch records for the branch and toggle points (verilator_coverage writes lines only).
    std::string text, why;
    try {
        if (!read_input_file(info, text, why)) throw std::runtime_error(why);
        text = add_branch_records(text, rep.summary.points);
        write_file_atomic(info, text);
    } catch (const std::exception& e) {
        throw std::runtime_error(info + ": " + e.what());
    }
    // Holes with each bus's contiguous bits as one range (offset_q[23:18]); written before the HTML
    // report, so a missing genhtml still leaves every hole listed.
    rep.gate = apply_code_gate(rep.summary, waivers, gate);
    rep.grouped_holes = group_bit_ranges(rep.gate.holes);
    std::string holes;
    for (const auto& h : rep.grouped_holes)
        holes += fmt::format("{}:{}: {} {} ({})\n", h.file, h.line, h.kind, h.comment, h.hier);
    write_file_atomic(dir + "/holes.txt", holes);
    if (!waivers.empty()) {
        std::string w;
        for (const auto& [p, why] : rep.gate.waived) w += fmt::format("{} ({}): {}\n", point_name(p), p.hier, why);
        write_file_atomic(dir + "/waived.txt", w);
    }
    out.clear();
    const int gh = run_command({"genhtml", "--quiet", "--branch-coverage", "--output-directory", dir + "/html", info}, "", out);
    if (gh != 0)
        throw std::runtime_error(fmt::format("genhtml {} (the HTML report needs Debian's lcov: scripts/deps.sh lcov; "
                                             "{}/holes.txt and coverage.info are written){}{}",
                                             gh == 127 ? "is not installed" : "failed", dir, gh == 127 ? "" : ":\n",
                                             gh == 127 ? "" : out));
    // The lcov view: source lines with at least one point (DA records), and those hit.
    std::istringstream lines(text);
    for (std::string l; std::getline(lines, l);)
        if (l.rfind("DA:", 0) == 0) {
            ++rep.lcov_lines;
            const size_t comma = l.find(',');
            if (comma != std::string::npos && std::strtoull(l.c_str() + comma + 1, nullptr, 10) > 0) ++rep.lcov_hit;
        }
    return rep;
}

}  // namespace vpsim::tb
