#include "model/sc/bottleneck.h"

#include <fmt/format.h>

#include <cmath>
#include <set>

namespace vpsim::sc {

namespace {

const UnitWords* words(const UnitWordsMap& w, const std::string& unit) {
    const auto it = w.find(unit);
    return it == w.end() ? nullptr : it->second.words;
}

std::string name_of(const UnitWordsMap& w, const std::string& unit) {
    const UnitWords* x = words(w, unit);
    return x ? x->noun : "unit " + unit;
}

std::string pct(double f) { return fmt::format("{:.1f} %", 100 * f); }

// The words for a unit held back by a stall of its own: the unit's own words when it has them.
std::string local_words(const UnitWordsMap& w, const std::string& unit, const std::string& reason,
                        const std::string& description, double frac, const nlohmann::ordered_json& units) {
    const UnitWords* x = words(w, unit);
    if (x && x->stall) {
        const std::string own = x->stall(unit, reason, frac, units, *w.at(unit).params, w.at(unit).memory);
        if (!own.empty()) return own;
    }
    return fmt::format("{}: stalled on {} ({}) in {} of cycles", name_of(w, unit), reason, description, pct(frac));
}

}  // namespace

double capacity_used(const UnitWordsMap& w, const std::string& unit, const nlohmann::ordered_json& g, uint64_t cycles) {
    const UnitWords* x = words(w, unit);
    if (x && x->capacity) return x->capacity(g, cycles, *w.at(unit).params);
    if (g["cycles"].is_null() || cycles == 0) return NAN;
    return double(g["cycles"]["busy"].get<uint64_t>()) / double(cycles);
}

Bottleneck trace_bottleneck(const nlohmann::ordered_json& units, uint64_t cycles, const UnitWordsMap& w) {
    Bottleneck b;
    if (cycles == 0) return b;
    // 1. The unit busiest for its capacity.
    std::string start;
    double best = -1;
    for (const auto& [unit, g] : units.items()) {
        const double c = capacity_used(w, unit, g, cycles);
        if (std::isnan(c) || c <= best) continue;
        best = c;
        start = unit;
    }
    if (start.empty()) return b;
    // Latency-bound (no unit busy half its capacity): start from the largest stall instead.
    if (best < 0.5) {
        uint64_t most = 0;
        for (const auto& [unit, g] : units.items()) {
            if (g["cycles"].is_null()) continue;
            for (const auto& [r, v] : g["cycles"]["stalled"].items())
                if (v["cycles"].get<uint64_t>() > most) most = v["cycles"].get<uint64_t>(), start = unit;
        }
    }
    // 2. Follow its largest stall while it points at another unit.
    std::set<std::string> seen;
    std::string u = start;
    std::string local_reason, local_desc;
    uint64_t local_cycles = 0;
    for (;;) {
        seen.insert(u);
        const auto& g = units[u];
        const double used = capacity_used(w, u, g, cycles);
        if (used >= 0.95 || g["cycles"].is_null()) break;
        std::string reason;
        uint64_t most = 0;
        for (const auto& [r, v] : g["cycles"]["stalled"].items())
            if (v["cycles"].get<uint64_t>() > most) most = v["cycles"].get<uint64_t>(), reason = r;
        if (most * 20 <= cycles) break;  // no stall of 5 % or more: the unit's own pace
        const auto& s = g["cycles"]["stalled"][reason];
        CauseStep step{u, reason, s.value("class", "local"), s.value("by", ""), most};
        if (step.cls == "local" || step.by.empty()) {
            local_reason = reason;
            local_desc = s.value("description", "");
            local_cycles = most;
            b.chain.push_back(step);
            break;
        }
        b.chain.push_back(step);
        // Back-pressure from a unit that is itself starved: its queue is full of work that waits
        // further on, so the queue's capacity caps the work in flight.
        if (step.cls == "back_pressure" && units.contains(step.by) && !units[step.by]["cycles"].is_null()) {
            std::string vr;
            uint64_t vmost = 0;
            for (const auto& [r, v] : units[step.by]["cycles"]["stalled"].items())
                if (v["cycles"].get<uint64_t>() > vmost) vmost = v["cycles"].get<uint64_t>(), vr = r;
            const auto& vs = units[step.by]["cycles"]["stalled"];
            if (vmost * 20 > cycles && vs[vr].value("class", "") == "starvation") {
                b.chain.push_back({step.by, vr, "starvation", vs[vr].value("by", ""), vmost});
                b.unit = step.by;
                b.busy = capacity_used(w, step.by, units[step.by], cycles);
                if (std::isnan(b.busy)) b.busy = 0;
                b.reason = "capacity";
                b.capacity_key = s.value("capacity_key", "");
                b.text = fmt::format("the capacity between {} and {} ({} = {}) caps the work in flight: {} is "
                                     "back-pressured {} of its cycles by {}, which is starved {} of its cycles by {}",
                                     name_of(w, u), name_of(w, step.by), b.capacity_key, s.value("capacity", uint64_t(0)),
                                     name_of(w, u), pct(double(most) / double(cycles)), name_of(w, step.by),
                                     pct(double(vmost) / double(cycles)), name_of(w, vs[vr].value("by", "")));
                for (size_t i = b.chain.size() - 2; i-- > 0;)
                    if (b.chain[i].unit != b.chain.back().unit || b.chain[i].reason != b.chain.back().reason)
                        b.text += fmt::format("; {} is {} {} of its cycles by {}", name_of(w, b.chain[i].unit),
                                          b.chain[i].cls == "starvation" ? "starved" : "back-pressured",
                                          pct(double(b.chain[i].cycles) / double(cycles)), name_of(w, b.chain[i].by));
                return b;
            }
        }
        if (seen.count(step.by) || !units.contains(step.by)) {
            // A loop (a unit waits on one that waits on it): the cause is the busiest of the loop.
            double top = -1;
            for (const CauseStep& c : b.chain) {
                const double x = capacity_used(w, c.unit, units[c.unit], cycles);
                if (!std::isnan(x) && x > top) top = x, u = c.unit;
            }
            while (!b.chain.empty() && b.chain.back().unit != u) b.chain.pop_back();
            if (!b.chain.empty()) b.chain.pop_back();
            break;
        }
        u = step.by;
    }
    b.unit = u;
    b.busy = capacity_used(w, u, units[u], cycles);
    if (std::isnan(b.busy)) b.busy = 0;
    if (!local_reason.empty() && b.chain.back().unit == u) {
        b.reason = local_reason;
        b.text = local_words(w, u, local_reason, local_desc, double(local_cycles) / double(cycles), units);
    } else {
        b.reason = "busy";
        const UnitWords* x = words(w, u);
        b.text = fmt::format("{}: {}", name_of(w, u),
                             fmt::format(fmt::runtime(x && !x->busy.empty() ? x->busy : "busy in {} of cycles"), pct(b.busy)));
        if (b.busy < 0.5) b.text += " (none saturated: latency-bound)";
    }
    // 3. The victims, nearest first.
    for (auto it = b.chain.rbegin(); it != b.chain.rend(); ++it) {
        if (it->cls == "local") continue;
        b.text += fmt::format("; {} is {} {} of its cycles by {}", name_of(w, it->unit),
                              it->cls == "starvation" ? "starved" : "back-pressured",
                              pct(double(it->cycles) / double(cycles)), it->by == u ? "it" : name_of(w, it->by));
    }
    return b;
}

}  // namespace vpsim::sc
