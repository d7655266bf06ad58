#include "model/sc/caps.h"

#include <fmt/format.h>

#include <cmath>

namespace vpsim::sc {

namespace {

uint64_t stalled(const nlohmann::ordered_json& units, const std::string& unit, const char* reason) {
    if (!units.contains(unit) || units[unit]["cycles"].is_null()) return 0;
    const auto& s = units[unit]["cycles"]["stalled"];
    return s.contains(reason) ? s[reason]["cycles"].get<uint64_t>() : 0;
}

uint64_t counter(const nlohmann::ordered_json& units, const std::string& unit, const char* name) {
    if (!units.contains(unit) || !units[unit]["counters"].contains(name)) return 0;
    return units[unit]["counters"][name]["value"].get<uint64_t>();
}

std::string pct(uint64_t n, uint64_t d) { return fmt::format("{:.1f} %", d ? 100.0 * double(n) / double(d) : 0.0); }

}  // namespace

const NeedBindings<CapsParams>& CapsParams::bindings() {
    static const auto b = NeedBindings<CapsParams>()
        .uint("engines", &CapsParams::engines, "vertex_alu", "vertex_alu.engines", "the vertex ALU's engines")
        .uint("contexts", &CapsParams::contexts, "vertex_alu", "vertex_alu.contexts", "contexts per engine")
        .uint("input_buffers", &CapsParams::input_buffers, "vertex_fetch", "vertex_fetch.input_buffers",
              "the vertex fetch's input buffers")
        .uint("fetch_window", &CapsParams::fetch_window, "vertex_fetch", "vertex_fetch.fetch_window",
              "the vertex fetch's window")
        .uint("max_misses", &CapsParams::max_misses, "vertex_fetch", "vertex_fetch.max_misses",
              "the vertex fetch's miss registers")
        .uint("prefetch_lines", &CapsParams::prefetch_lines, "vertex_fetch", "vertex_fetch.prefetch_lines",
              "the vertex fetch's read-ahead")
        .uint("buffers", &CapsParams::buffers, "output", "output.buffers", "the output's buffers")
        .uint("order_queue", &CapsParams::order_queue, "output", "output.order_queue", "the output's order queue");
    return b;
}

std::vector<CapWarning> find_caps(const BoundNeeds& bound, const nlohmann::ordered_json& units, uint64_t cycles,
                                  const std::map<std::string, RoleUnit>& roles) {
    std::vector<CapWarning> w;
    for (const char* role : {"vertex_alu", "vertex_fetch", "index_fetch", "output"})
        if (!roles.count(role)) return w;
    const RoleUnit &alu = roles.at("vertex_alu"), &fetch = roles.at("vertex_fetch"), &index = roles.at("index_fetch");
    // (The first unit of each role's values: a topology of several units of a role checks its first.)
    const CapsParams p = CapsParams::bindings().from(bound);
    const uint64_t engines = p.engines, contexts = p.contexts;
    const uint64_t slots = engines * contexts;
    const uint64_t inputs = p.input_buffers;
    const uint64_t outputs = p.buffers;
    const uint64_t order = p.order_queue;
    const uint64_t window = p.fetch_window, misses = p.max_misses;
    const uint64_t max_in_flight = counter(units, alu.unit, "max_in_flight");
    // A vertex holds its input buffer until the ALU finishes it: no more vertices than input
    // buffers are ever in the ALU, whatever the contexts.
    if (inputs < slots)
        w.push_back({"vertex_fetch.input_buffers", "vertex_alu.engines x vertex_alu.contexts",
                     fmt::format("vertex_fetch.input_buffers = {} caps the vertices in flight below vertex_alu.engines x "
                                 "contexts = {} x {} = {} (at most {} in one engine in this run): more contexts or "
                                 "engines cannot help until the input buffers grow",
                                 inputs, engines, contexts, slots, max_in_flight)});
    // Every vertex in flight has a reference in the order queue, and so has every cache hit
    // between it and the next: the queue bounds the vertices in flight between the index fetch
    // and the output to order / (references per shaded vertex).
    const uint64_t refs = counter(units, index.unit, "references"), shaded = counter(units, index.unit, "cache_misses");
    const double per_vertex = refs && shaded ? double(refs) / double(shaded) : 1.0;
    const double needed = double(slots + inputs) * per_vertex;
    if (double(order) < needed)
        w.push_back({"output.order_queue", "vertex_alu.engines x vertex_alu.contexts",
                     fmt::format("output.order_queue = {} references bounds the vertices in flight below the ALU's {} "
                                 "contexts plus {} input buffers: with {} of references hitting the post-transform "
                                 "cache each shaded vertex brings {:.2f} references, so {} vertices in flight need {:.0f} "
                                 "(index_fetch.order_queue_full in {} of cycles)",
                                 order, slots, inputs, pct(refs - shaded, refs), per_vertex, slots + inputs, std::ceil(needed),
                                 pct(stalled(units, index.unit, "order_queue_full"), cycles))});
    // A finished vertex keeps its context while the output buffers are full.
    const uint64_t out_full = stalled(units, alu.unit, "output_full");
    if (outputs < slots && out_full * 20 > cycles)
        w.push_back({"output.buffers", "vertex_alu.engines x vertex_alu.contexts",
                     fmt::format("output.buffers = {} are fewer than the {} contexts and full in {} of cycles "
                                 "(vertex_alu.output_full): finished vertices hold contexts",
                                 outputs, slots, pct(out_full, cycles))});
    // The fetch window's vertices each need their lines: fewer miss registers than vertices in
    // the window leave part of the window unused when the lines miss.
    const uint64_t miss_stall = stalled(units, fetch.unit, "miss_limit");
    if (misses < window && miss_stall * 20 > cycles)
        w.push_back({"vertex_fetch.max_misses", "vertex_fetch.fetch_window",
                     fmt::format("vertex_fetch.max_misses = {} caps the fetch window of {} vertices: every miss "
                                 "register is busy in {} of cycles (vertex_fetch.miss_limit)",
                                 misses, window, pct(miss_stall, cycles))});
    const uint64_t prefetch = p.prefetch_lines;
    if (prefetch && miss_stall * 20 > cycles)
        w.push_back({"vertex_fetch.max_misses", "vertex_fetch.prefetch_lines",
                     fmt::format("read-ahead (vertex_fetch.prefetch_lines = {}) shares the {} miss registers with "
                                 "demand misses, all busy in {} of cycles",
                                 prefetch, misses, pct(miss_stall, cycles))});
    return w;
}

}  // namespace vpsim::sc
