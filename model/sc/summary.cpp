#include "model/sc/summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace vpsim::sc {

uint64_t SummaryUnits::sum(const std::string& counter) const {
    uint64_t n = 0;
    for (const StatGroup* g : groups) n += g->get(counter);
    return n;
}

uint64_t SummaryUnits::max(const std::string& counter) const {
    uint64_t n = 0;
    for (const StatGroup* g : groups) n = std::max(n, g->get(counter));
    return n;
}

uint64_t SummaryUnits::busy_cycles() const {
    uint64_t n = 0;
    for (const StatGroup* g : groups) n += g->busy_cycles();
    return n;
}

double SummaryUnits::rate(const std::string& name) const {
    const double v = groups.empty() ? NAN : groups.front()->rate_value(name, cycles);
    return std::isnan(v) ? 0.0 : v;
}

double SummaryUnits::ratio(const std::string& numerator, const std::string& denominator) const {
    const uint64_t n = numerator == "cycles" ? cycles : sum(numerator);
    const uint64_t d = denominator == "cycles" ? cycles : sum(denominator);
    return d ? double(n) / double(d) : 0.0;
}

double SummaryUnits::rate(const std::string& name, const std::string& numerator, const std::string& denominator) const {
    return groups.size() > 1 ? ratio(numerator, denominator) : rate(name);
}

SummaryMetric summed_metric(std::string key, int rank, std::string counter, bool in_json) {
    return {std::move(key), rank,
            [counter = std::move(counter)](const SummaryUnits& u) { return nlohmann::ordered_json(u.sum(counter)); },
            {}, in_json};
}

SummaryMetric rate_metric(std::string key, int rank, std::string name, std::string numerator, std::string denominator) {
    return {std::move(key), rank,
            [name = std::move(name), numerator = std::move(numerator), denominator = std::move(denominator)](
                const SummaryUnits& u) { return nlohmann::ordered_json(u.rate(name, numerator, denominator)); },
            {}};
}

const nlohmann::ordered_json* SummaryValues::find(const std::string& key) const {
    for (const SummaryValue& v : items_)
        if (v.key == key) return &v.value;
    return nullptr;
}

namespace {
const nlohmann::ordered_json& declared(const SummaryValues& s, const std::string& key) {
    const nlohmann::ordered_json* v = s.find(key);
    if (!v) throw std::logic_error(fmt::format("summary value {}: no unit type declares it", key));
    return *v;
}
}  // namespace

uint64_t SummaryValues::count(const std::string& key) const {
    const auto& v = declared(*this, key);
    return v.is_null() ? 0 : v.get<uint64_t>();
}

double SummaryValues::real(const std::string& key) const {
    const auto& v = declared(*this, key);
    return v.is_null() ? 0.0 : v.get<double>();
}

std::string group_digits(uint64_t v) {
    const std::string s = std::to_string(v);
    std::string r;
    for (size_t i = 0; i < s.size(); ++i) {
        if (i && (s.size() - i) % 3 == 0) r += ',';
        r += s[i];
    }
    return r;
}

void put_summary_value(nlohmann::ordered_json& j, const SummaryValue& v) {
    if (v.value.is_null() || !v.in_json) return;
    const size_t slash = v.key.find('/');
    if (slash == std::string::npos)
        j[v.key] = v.value;
    else
        j[v.key.substr(0, slash)][v.key.substr(slash + 1)] = v.value;
}

}  // namespace vpsim::sc
