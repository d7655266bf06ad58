#include "model/sc/bottleneck.h"

#include <fmt/format.h>

#include <cmath>
#include <set>

namespace vpsim::sc {

namespace {

struct Words {
    const char* unit;
    const char* name;
    const char* busy;
};
const Words kWords[] = {
    {"front_end", "the command front end", "executing commands in {} of cycles"},
    {"decl_decoder", "the declaration decoder", "decoding tokens in {} of cycles"},
    {"constant_loader", "the constant loader", "writing constants in {} of cycles"},
    {"tessellator", "the tessellator", "generating vertices in {} of cycles"},
    {"index_fetch", "the index fetch", "reading indices in {} of cycles"},
    {"vertex_fetch", "the vertex fetch", "requesting or sending vertices in {} of cycles"},
    {"memory", "the memory bus", "carrying vertex data in {} of cycles"},
    {"vertex_alu", "the vertex ALU", "issuing in {} of engine cycles"},
    {"output", "the output", "emitting vertices in {} of cycles"},
};

const Words* words(const std::string& unit) {
    for (const Words& w : kWords)
        if (unit == w.unit) return &w;
    return nullptr;
}

std::string name_of(const std::string& unit) {
    const Words* w = words(unit);
    return w ? w->name : "unit " + unit;
}

std::string pct(double f) { return fmt::format("{:.1f} %", 100 * f); }

double rate(const nlohmann::ordered_json& g, const char* name) {
    if (!g.contains("rates") || !g["rates"].contains(name) || g["rates"][name]["value"].is_null()) return NAN;
    return g["rates"][name]["value"].get<double>();
}

// The words for a unit held back by a stall of its own.
std::string local_words(const std::string& unit, const std::string& reason, const std::string& description,
                        double frac, const nlohmann::ordered_json& units, const ParamSet& p) {
    const std::string n = name_of(unit);
    if (unit == "vertex_fetch") {
        const double bus = units.contains("memory") ? rate(units["memory"], "bus_utilisation") : NAN;
        const std::string mem = fmt::format("{}-cycle latency, bus busy {}", p.get_uint("memory.latency"),
                                            pct(std::isnan(bus) ? 0.0 : bus));
        if (reason == "miss_limit")
            return fmt::format("{}: waiting on memory with all {} miss registers busy ({}) in {} of cycles", n,
                               p.get_uint("vertex_fetch.max_misses"), mem, pct(frac));
        if (reason == "memory_latency")
            return fmt::format("{}: waiting for memory data ({}) in {} of cycles", n, mem, pct(frac));
        if (reason == "fetch_window_full")
            return fmt::format("{}: all {} vertices of its fetch window await memory data ({}) in {} of cycles", n,
                               p.get_uint("vertex_fetch.fetch_window"), mem, pct(frac));
    }
    if (unit == "vertex_alu" && (reason == "dependency" || reason == "result_latency" || reason == "scalar_pipe"))
        return fmt::format("{}: issuing in {} of engine cycles; stalled on {} in {} of cycles with all {} contexts "
                           "per engine in use at most",
                           n, pct(rate(units[unit], "utilisation")), reason, pct(frac),
                           p.get_uint("vertex_alu.contexts"));
    return fmt::format("{}: stalled on {} ({}) in {} of cycles", n, reason, description, pct(frac));
}

}  // namespace

double capacity_used(const std::string& unit, const nlohmann::ordered_json& g, uint64_t cycles, const ParamSet& p) {
    if (unit == "vertex_alu") return rate(g, "utilisation");
    if (unit == "memory") return rate(g, "bus_utilisation");
    // Units that can do several items a cycle: the items over the most they could have done.
    if (unit == "index_fetch" && cycles)
        return double(g["counters"]["references"]["value"].get<uint64_t>()) /
               (double(cycles) * double(p.get_uint("index_fetch.indices_per_cycle")));
    if (unit == "output" && cycles)
        return double(g["counters"]["vertices"]["value"].get<uint64_t>()) /
               (double(cycles) * double(p.get_uint("output.vertices_per_cycle")));
    if (g["cycles"].is_null() || cycles == 0) return NAN;
    return double(g["cycles"]["busy"].get<uint64_t>()) / double(cycles);
}

Bottleneck trace_bottleneck(const nlohmann::ordered_json& units, uint64_t cycles, const ParamSet& params) {
    Bottleneck b;
    if (cycles == 0) return b;
    // 1. The unit busiest for its capacity.
    std::string start;
    double best = -1;
    for (const auto& [unit, g] : units.items()) {
        const double c = capacity_used(unit, g, cycles, params);
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
        const double used = capacity_used(u, g, cycles, params);
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
                b.busy = capacity_used(step.by, units[step.by], cycles, params);
                if (std::isnan(b.busy)) b.busy = 0;
                b.reason = "capacity";
                b.capacity_key = s.value("capacity_key", "");
                b.text = fmt::format("the capacity between {} and {} ({} = {}) caps the work in flight: {} is "
                                     "back-pressured {} of its cycles by {}, which is starved {} of its cycles by {}",
                                     name_of(u), name_of(step.by), b.capacity_key, s.value("capacity", uint64_t(0)),
                                     name_of(u), pct(double(most) / double(cycles)), name_of(step.by),
                                     pct(double(vmost) / double(cycles)), name_of(vs[vr].value("by", "")));
                for (size_t i = b.chain.size() - 2; i-- > 0;)
                    if (b.chain[i].unit != b.chain.back().unit || b.chain[i].reason != b.chain.back().reason)
                        b.text += fmt::format("; {} is {} {} of its cycles by {}", name_of(b.chain[i].unit),
                                          b.chain[i].cls == "starvation" ? "starved" : "back-pressured",
                                          pct(double(b.chain[i].cycles) / double(cycles)), name_of(b.chain[i].by));
                return b;
            }
        }
        if (seen.count(step.by) || !units.contains(step.by)) {
            // A loop (a unit waits on one that waits on it): the cause is the busiest of the loop.
            double top = -1;
            for (const CauseStep& c : b.chain) {
                const double x = capacity_used(c.unit, units[c.unit], cycles, params);
                if (!std::isnan(x) && x > top) top = x, u = c.unit;
            }
            while (!b.chain.empty() && b.chain.back().unit != u) b.chain.pop_back();
            if (!b.chain.empty()) b.chain.pop_back();
            break;
        }
        u = step.by;
    }
    b.unit = u;
    b.busy = capacity_used(u, units[u], cycles, params);
    if (std::isnan(b.busy)) b.busy = 0;
    if (!local_reason.empty() && b.chain.back().unit == u) {
        b.reason = local_reason;
        b.text = local_words(u, local_reason, local_desc, double(local_cycles) / double(cycles), units, params);
    } else {
        b.reason = "busy";
        const Words* w = words(u);
        b.text = fmt::format("{}: {}", name_of(u), fmt::format(fmt::runtime(w ? w->busy : "busy in {} of cycles"), pct(b.busy)));
        if (b.busy < 0.5) b.text += " (none saturated: latency-bound)";
    }
    // 3. The victims, nearest first.
    for (auto it = b.chain.rbegin(); it != b.chain.rend(); ++it) {
        if (it->cls == "local") continue;
        b.text += fmt::format("; {} is {} {} of its cycles by {}", name_of(it->unit),
                              it->cls == "starvation" ? "starved" : "back-pressured",
                              pct(double(it->cycles) / double(cycles)), it->by == u ? "it" : name_of(it->by));
    }
    return b;
}

}  // namespace vpsim::sc
