#include "model/common/stats.h"

#include "model/common/file_util.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace vpsim {

namespace {
const char* const kCycleOperands[] = {"cycles", "busy_cycles", "idle_cycles", "stalled_cycles"};

bool is_cycle_operand(const std::string& s) {
    for (const char* c : kCycleOperands)
        if (s == c) return true;
    return false;
}
}  // namespace

StatGroup::StatGroup(std::string unit, std::string description, bool timed)
    : unit_(std::move(unit)), description_(std::move(description)), timed_(timed) {}

Counter& StatGroup::counter(const std::string& name, const std::string& unit, const std::string& description) {
    if (index_.count(name) || is_cycle_operand(name))
        throw std::logic_error(fmt::format("{}: counter '{}' declared twice or reserved", unit_, name));
    index_[name] = counters_.size();
    counters_.push_back(Counter{name, unit, description, 0});
    return counters_.back();
}

Counter& StatGroup::operator[](const std::string& name) {
    auto it = index_.find(name);
    if (it == index_.end()) throw std::logic_error(fmt::format("{}: no counter '{}'", unit_, name));
    return counters_[it->second];
}

const Counter& StatGroup::operator[](const std::string& name) const {
    auto it = index_.find(name);
    if (it == index_.end()) throw std::logic_error(fmt::format("{}: no counter '{}'", unit_, name));
    return counters_[it->second];
}

const char* stall_class_name(StallClass c) {
    switch (c) {
    case StallClass::local: return "local";
    case StallClass::back_pressure: return "back_pressure";
    case StallClass::starvation: return "starvation";
    }
    return "?";
}

StallReason StatGroup::stall_reason(const std::string& reason, const std::string& description, StallKind kind) {
    for (const Counter& r : stalls_)
        if (r.name == reason) throw std::logic_error(fmt::format("{}: stall reason '{}' declared twice", unit_, reason));
    if (kind.cls != StallClass::local && kind.port.empty())
        throw std::logic_error(fmt::format("{}: stall reason '{}' names no port", unit_, reason));
    stalls_.push_back(Counter{reason, "cycles", description, 0});
    kinds_.push_back(std::move(kind));
    return StallReason{&stalls_.back(), int(stalls_.size() - 1)};
}

const StallKind& StatGroup::stall_kind(const std::string& reason) const {
    for (size_t i = 0; i < stalls_.size(); ++i)
        if (stalls_[i].name == reason) return kinds_[i];
    throw std::logic_error(fmt::format("{}: undeclared stall reason '{}'", unit_, reason));
}

std::vector<std::string> StatGroup::stall_reasons() const {
    std::vector<std::string> v;
    for (const Counter& r : stalls_) v.push_back(r.name);
    return v;
}

void StatGroup::stall(const std::string& reason, uint64_t n) {
    for (Counter& r : stalls_)
        if (r.name == reason) {
            r.value += n;
            return;
        }
    throw std::logic_error(fmt::format("{}: undeclared stall reason '{}'", unit_, reason));
}

CyclesAt StatGroup::cycles_at(uint64_t now) const {
    CyclesAt c;
    c.busy = busy_;
    c.idle = idle_;
    for (const Counter& r : stalls_) c.stalled.push_back(r.value);
    if (open_) open_->add_open(now, c);
    return c;
}

uint64_t StatGroup::stalled_cycles() const {
    uint64_t s = 0;
    for (const Counter& r : stalls_) s += r.value;
    return s;
}

uint64_t StatGroup::stalled_cycles(const std::string& reason) const {
    for (const Counter& r : stalls_)
        if (r.name == reason) return r.value;
    return 0;
}

void StatGroup::rate(const std::string& name, const std::string& numerator, const std::string& denominator,
                     const std::string& unit, const std::string& description) {
    for (const std::string& op : {numerator, denominator})
        if (!is_cycle_operand(op) && !index_.count(op))
            throw std::logic_error(fmt::format("{}: rate '{}' uses unknown operand '{}'", unit_, name, op));
    rates_.push_back(Rate{name, numerator, denominator, unit, description});
}

double StatGroup::operand(const std::string& name, uint64_t total_cycles) const {
    if (name == "cycles") return double(total_cycles);
    if (name == "busy_cycles") return double(busy_);
    if (name == "idle_cycles") return double(idle_);
    if (name == "stalled_cycles") return double(stalled_cycles());
    return double((*this)[name].value);
}

double StatGroup::rate_value(const std::string& name, uint64_t total_cycles) const {
    for (const Rate& r : rates_)
        if (r.name == name) {
            const double den = operand(r.denominator, total_cycles);
            return den == 0 ? std::numeric_limits<double>::quiet_NaN() : operand(r.numerator, total_cycles) / den;
        }
    throw std::logic_error(fmt::format("{}: no rate '{}'", unit_, name));
}

void StatGroup::reset() {
    for (Counter& c : counters_) c.value = 0;
    busy_ = idle_ = 0;
    for (Counter& r : stalls_) r.value = 0;
}

nlohmann::ordered_json StatGroup::to_json(uint64_t total_cycles) const {
    nlohmann::ordered_json j;
    j["description"] = description_;
    if (timed_) {
        nlohmann::ordered_json c;
        c["busy"] = busy_;
        c["idle"] = idle_;
        nlohmann::ordered_json st = nlohmann::ordered_json::object();
        for (size_t i = 0; i < stalls_.size(); ++i) {
            const Counter& r = stalls_[i];
            st[r.name] = {{"cycles", r.value}, {"description", r.description}, {"class", stall_class_name(kinds_[i].cls)}};
            if (!kinds_[i].port.empty()) st[r.name]["port"] = kinds_[i].port;
        }
        c["stalled"] = std::move(st);
        c["stalled_total"] = stalled_cycles();
        c["total"] = accounted_cycles();
        c["adds_up"] = accounted_cycles() == total_cycles;
        j["cycles"] = std::move(c);
    } else {
        j["cycles"] = nullptr;
    }
    nlohmann::ordered_json cs = nlohmann::ordered_json::object();
    for (const Counter& c : counters_) cs[c.name] = {{"value", c.value}, {"unit", c.unit}, {"description", c.description}};
    j["counters"] = std::move(cs);
    nlohmann::ordered_json rs = nlohmann::ordered_json::object();
    for (const Rate& r : rates_) {
        const double v = rate_value(r.name, total_cycles);
        nlohmann::ordered_json e;
        e["value"] = std::isnan(v) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v);
        e["unit"] = r.unit;
        e["description"] = r.description;
        e["formula"] = r.numerator + " / " + r.denominator;
        rs[r.name] = std::move(e);
    }
    j["rates"] = std::move(rs);
    return j;
}

std::vector<std::string> StatsReport::check_cycles_add_up(uint64_t total_cycles) const {
    std::vector<std::string> bad;
    for (const StatGroup* g : groups_)
        if (g->timed() && !cycles_add_up(*g, total_cycles))
            bad.push_back(fmt::format("{}: busy {} + idle {} + stalled {} = {} != total {}", g->unit(), g->busy_cycles(),
                                      g->idle_cycles(), g->stalled_cycles(), g->accounted_cycles(), total_cycles));
    return bad;
}

nlohmann::ordered_json StatsReport::to_json(uint64_t total_cycles) const {
    nlohmann::ordered_json j;
    j["schema"] = "vpsim-stats-1";
    j["cycles"] = total_cycles;
    nlohmann::ordered_json units = nlohmann::ordered_json::object();
    for (const StatGroup* g : groups_) units[g->unit()] = g->to_json(total_cycles);
    j["units"] = std::move(units);
    return j;
}

void StatsReport::write(const std::string& path, uint64_t total_cycles) const {
    write_file_atomic(path, to_json(total_cycles).dump(2) + "\n");
}

}  // namespace vpsim
