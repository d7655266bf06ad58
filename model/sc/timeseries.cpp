#include "model/sc/timeseries.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace vpsim::sc {

TimeSeries::TimeSeries(uint64_t interval) : interval_(interval) {
    if (interval == 0) throw std::invalid_argument("the statistics interval must be at least 1 cycle");
}

void TimeSeries::signal(int id, const std::string& scope, const std::string& name) {
    if (id < 0) return;
    if (sigs_.size() <= size_t(id)) sigs_.resize(size_t(id) + 1);
    Sig& s = sigs_[size_t(id)];
    s.scope = scope;
    s.kind = name == "state"       ? Kind::state
             : name == "occupancy" ? Kind::occupancy
             : name == "full"      ? Kind::full
             : name == "pushes"    ? Kind::pushes
                                   : Kind::ignored;
}

std::vector<uint64_t>& TimeSeries::at_least(std::vector<uint64_t>& v, size_t n) {
    if (v.size() < n) v.resize(n, 0);
    return v;
}

// Counts the signal's current value over [since, to), interval by interval.
void TimeSeries::advance(Sig& s, uint64_t to) {
    uint64_t t = s.since;
    while (t < to) {
        const size_t k = size_t(t / interval_);
        const uint64_t stop = std::min(to, (uint64_t(k) + 1) * interval_);
        const uint64_t n = stop - t;
        switch (s.kind) {
            case Kind::state:
                if (s.by_code.size() <= k) s.by_code.resize(k + 1);
                s.by_code[k][s.value] += n;
                break;
            case Kind::occupancy: at_least(s.sum, k + 1)[k] += s.value * n; break;
            case Kind::full: at_least(s.sum, k + 1)[k] += s.value ? n : 0; break;
            case Kind::pushes: at_least(s.sum, k + 1)[k] = s.value; break;  // the count held at the interval's end
            case Kind::ignored: break;
        }
        t = stop;
    }
    s.since = std::max(s.since, to);
}

void TimeSeries::change(int id, uint64_t t, uint64_t value) {
    if (id < 0 || size_t(id) >= sigs_.size()) return;
    Sig& s = sigs_[size_t(id)];
    if (s.kind == Kind::ignored) return;
    if (finished_) throw std::logic_error("time series: a change after the end of the run");
    advance(s, t);
    s.value = value;
}

void TimeSeries::finish(uint64_t end) {
    for (Sig& s : sigs_)
        if (s.kind != Kind::ignored) advance(s, end);
    end_ = end;
    finished_ = true;
}

std::string TimeSeries::csv(const std::map<std::string, std::vector<std::string>>& reasons) const {
    if (!finished_) throw std::logic_error("time series: csv() before finish()");
    const size_t intervals = size_t((end_ + interval_ - 1) / interval_);
    struct Column {
        std::string name;
        const Sig* sig;
        int what;  // state: code (0 idle, 1 busy, 2 + k); channel: 0 occupancy, 1 full, 2 pushes
    };
    std::vector<Column> cols;
    std::vector<std::string> units, channels;
    for (const Sig& s : sigs_)
        if (s.kind == Kind::state && std::find(units.begin(), units.end(), s.scope) == units.end())
            units.push_back(s.scope);
    for (const std::string& u : units) {
        const auto it = reasons.find(u);
        if (it == reasons.end()) continue;
        const Sig* sig = nullptr;
        for (const Sig& s : sigs_)
            if (s.kind == Kind::state && s.scope == u) sig = &s;
        cols.push_back({u + ".busy", sig, 1});
        cols.push_back({u + ".idle", sig, 0});
        for (size_t k = 0; k < it->second.size(); ++k) cols.push_back({u + ".stalled." + it->second[k], sig, int(2 + k)});
    }
    for (const Sig& s : sigs_) {
        if (s.kind == Kind::occupancy) cols.push_back({s.scope + ".occupancy", &s, 0});
        if (s.kind == Kind::full) cols.push_back({s.scope + ".full", &s, 1});
        if (s.kind == Kind::pushes) cols.push_back({s.scope + ".pushes", &s, 2});
    }
    std::string out = "interval_begin,interval_end";
    for (const Column& c : cols) out += "," + c.name;
    out += "\n";
    for (size_t k = 0; k < intervals; ++k) {
        const uint64_t b = uint64_t(k) * interval_, e = std::min(end_, b + interval_);
        out += fmt::format("{},{}", b, e);
        for (const Column& c : cols) {
            const Sig& s = *c.sig;
            if (s.kind == Kind::state) {
                uint64_t n = 0;
                if (k < s.by_code.size()) {
                    const auto it = s.by_code[k].find(uint64_t(c.what));
                    if (it != s.by_code[k].end()) n = it->second;
                }
                out += fmt::format(",{}", n);
            } else if (s.kind == Kind::occupancy) {
                const uint64_t item_cycles = k < s.sum.size() ? s.sum[k] : 0;
                out += fmt::format(",{:.4f}", e > b ? double(item_cycles) / double(e - b) : 0.0);
            } else if (s.kind == Kind::full) {
                out += fmt::format(",{}", k < s.sum.size() ? s.sum[k] : 0);
            } else {
                const uint64_t now = k < s.sum.size() ? s.sum[k] : 0, before = k && k - 1 < s.sum.size() ? s.sum[k - 1] : 0;
                out += fmt::format(",{}", now - before);
            }
        }
        out += "\n";
    }
    return out;
}

}  // namespace vpsim::sc
