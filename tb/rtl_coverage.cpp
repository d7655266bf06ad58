#include "tb/rtl_coverage.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <tuple>

namespace vpsim::tb {

CoverageSummary read_coverage_dat(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error(file + ": cannot read the coverage data");
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

}  // namespace vpsim::tb
