#include "model/sc/output_unit.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace vpsim::sc {

const ParamBindings<OutputUnitParams>& OutputUnitParams::bindings() {
    static const auto b = ParamBindings<OutputUnitParams>(kUnit, "output: shaded vertices leave in draw order; primitive assembly counts primitives")
        .uint("buffers", "vertices", &OutputUnitParams::buffers, "output buffers between the ALU and the output",
                  "NV20: 6 copies of the per-vertex output buffers (docs/spec/pipeline.md)", 1, 1024).capacity()
        .uint("order_queue", "references", &OutputUnitParams::order_queue,
                  "references in flight between the index fetch and the output (bounds vertices in flight)",
                  "assumed", 1, 1u << 20).capacity()
        .uint("vertices_per_cycle", "vertices/cycle", &OutputUnitParams::vertices_per_cycle, "references emitted per cycle",
                  "assumed (one vertex per cycle to setup)", 1, 64).rate();
    return b;
}
ParamTable OutputUnitParams::table() { return bindings().table(); }

OutputUnitParams OutputUnitParams::from(const ParamSet& p) {
    return bindings().from(p);
}

const NeedBindings<OutputNeeds>& OutputNeeds::bindings() {
    static const auto b = NeedBindings<OutputNeeds>().uint(
        "ptc_entries", &OutputNeeds::ptc_entries, "index_fetch", "post_transform_cache.entries",
        "the post-transform cache's entries (the output keeps as many recently shaded vertices for its hits)");
    return b;
}

OutputUnit::OutputUnit(const sc_core::sc_module_name& n, const OutputUnitParams& p, uint32_t recent_entries,
                       VertexPool& pool, Probes* probes)
    : TimedUnit(n), p_(p), pool_(pool), probes_(probes), recent_(recent_entries ? recent_entries : 1), stats_(basename(), "output and primitive assembly"),
      acct_(stats_), refs_(stats_.counter("vertices", "vertices", "vertex references emitted in draw order")),
      shaded_count_(stats_.counter("shaded", "vertices", "emitted references shaded for them (cache misses)")),
      reused_(stats_.counter("reused", "vertices", "emitted references served from the post-transform cache")),
      primitives_(stats_.counter("primitives", "primitives", "primitives assembled")),
      draws_(stats_.counter("draws", "draws", "draws completed")),
      stall_shading_(stats_.stall_reason("vertex_in_flight", "the next reference's vertex is still being shaded",
                                                     StallKind::starvation("shaded"))) {
    acct_.attach(probes, basename());
    if (probes) track_ = probes->track(basename());
    stats_.rate("vertices_per_cycle", "vertices", "cycles", "vertices/cycle", "references emitted per cycle");
    stats_.rate("acmr", "shaded", "primitives", "vertices/primitive",
                "average cache miss ratio: shaded vertices per primitive (all primitive types)");
}

Cycle OutputUnit::step(Cycle now) {
    uint32_t n = 0;
    while (n < p_.vertices_per_cycle && order_->can_pop(now)) {
        OrderRef& r = order_->front();
        if (r.kind == OrderRef::DrawEnd) {
            if (assembler_ && assembler_->primitives() != r.draw->setup.primitives)
                throw std::logic_error(fmt::format("output: draw {} assembled {} primitives, expected {} (internal error)",
                                                   r.draw->setup.pointer, assembler_->primitives(),
                                                   r.draw->setup.primitives));
            ++draws_;
            if (draw_done_) draw_done_(*r.draw, now);
            assembler_.reset();
            assembling_ = nullptr;
            order_->pop(now);
            ++n;
            continue;
        }
        if (assembling_ != r.draw) {
            assembler_.emplace(r.draw->setup.type);
            assembling_ = r.draw;
        }
        if (r.kind == OrderRef::Miss) {
            if (!shaded_->can_pop(now) || shaded_->front() != r.job) break;
            shaded_->pop(now);
            VertexJob& j = pool_[r.job];
            recent_[head_] = {j.index, j.outputs};
            head_ = head_ + 1 == recent_.size() ? 0 : head_ + 1;
            if (filled_ < recent_.size()) ++filled_;
            if (sink_) sink_(*r.draw, r.ref, j.index, j.outputs);
            if (probes_ && probes_->trace_on())
                probes_->span(track_, now, now + 1, fmt::format("v{}", j.index),
                              fmt::format("\"draw\": {}, \"ref\": {}, \"seq\": {}", r.draw->id, r.ref, j.seq));
            pool_.release(r.job);
            ++shaded_count_;
        } else {
            // The newest shading of this index: the one the cache held at look-up.
            // (Newest first: from head_ - 1 down to 0, then from the end, without a division per entry.)
            const vs::VertexOutputs* o = nullptr;
            for (size_t k = 0, i = head_; k < filled_; ++k) {
                i = i == 0 ? recent_.size() - 1 : i - 1;
                if (recent_[i].first == r.index) {
                    o = &recent_[i].second;
                    break;
                }
            }
            if (!o)  // only when ptc_entries is bound below the feeding cache's entries (docs/timing-model.md)
                throw ParamError(fmt::format("{}: the post-transform cache hit on vertex {}, which is not among the {} "
                                             "shaded vertices the output keeps (its ptc_entries): bind ptc_entries to "
                                             "the entries of the cache that feeds it", basename(), r.index,
                                             recent_.size()));
            if (sink_) sink_(*r.draw, r.ref, r.index, *o);
            ++reused_;
        }
        if (assembler_->push()) ++primitives_;
        ++refs_;
        if (refs_.value == mark_at_) mark(now);
        order_->pop(now);
        ++n;
    }
    if (n) {
        acct_.busy(now);
        return now + 1;
    }
    if (order_->can_pop(now)) {
        acct_.stall(stall_shading_, now);
        return shaded_->next_pop(now);  // or the ALU's push wakes us
    }
    acct_.idle(now);
    return order_->next_pop(now);
}

void OutputUnit::mark(Cycle now) {
    do {  // a mark repeated (units without references between two marks) is given as often
        ++next_mark_;
        at_mark_(now);
    } while (next_mark_ < marks_.size() && marks_[next_mark_] == refs_.value);
    mark_at_ = next_mark_ < marks_.size() ? marks_[next_mark_] : kNever;
}

namespace {
// The run's counts of vertices and primitives, and the figures per shaded vertex.
UnitSummary output_summary() {
    using J = nlohmann::ordered_json;
    UnitSummary s;
    s.metrics = {
        summed_metric("draws", 10, "draws"),
        summed_metric("references", 11, "vertices"),
        summed_metric("shaded", 12, "shaded"),
        summed_metric("primitives", 14, "primitives"),
        {"cycles_per_vertex", 21,
         [](const SummaryUnits& u) {
             const uint64_t shaded = u.sum("shaded");
             return J(shaded ? double(u.cycles) / double(shaded) : 0.0);
         }, {}},
        {"vertices_per_second", 22,
         [](const SummaryUnits& u) {
             return J(u.cycles ? double(u.sum("shaded")) * u.clock_mhz * 1e6 / double(u.cycles) : 0.0);
         }, {}},
        {"acmr", 33,
         [](const SummaryUnits& u) {
             const uint64_t primitives = u.sum("primitives");
             return J(primitives ? double(u.sum("shaded")) / double(primitives) : 0.0);
         }, {}},
    };
    s.lines = {
        {10, [](const SummaryUnits&, const SummaryValues& v) -> SummaryRows {
             return {{"draws", group_digits(v.count("draws"))},
                     {"vertices (references)", group_digits(v.count("references"))},
                     {"vertices shaded", fmt::format("{} ({} distinct)", group_digits(v.count("shaded")),
                                                     group_digits(v.find("unique") ? v.count("unique") : 0))},
                     {"primitives", group_digits(v.count("primitives"))}};
         }},
        {21, [](const SummaryUnits& u, const SummaryValues& v) -> SummaryRows {
             return {{"cycles per vertex", fmt::format("{:.3f} (per shaded vertex)", v.real("cycles_per_vertex"))},
                     {fmt::format("vertices/s at {:g} MHz", u.clock_mhz),
                      fmt::format("{:.2f} M", v.real("vertices_per_second") / 1e6)}};
         }},
        {33, [](const SummaryUnits&, const SummaryValues& v) -> SummaryRows {
             return {{"ACMR / ATVR",
                      fmt::format("{:.3f} / {:.3f}", v.real("acmr"), v.find("atvr") ? v.real("atvr") : 0.0)}};
         }},
    };
    return s;
}
}  // namespace

void register_unit_output_unit(UnitRegistry& r) {
    UnitType t;
    t.name = "output";
    t.what = "output: shaded vertices leave in draw order; primitive assembly";
    t.tables = {OutputUnitParams::table()};
    t.words.noun = "the output";
    t.words.busy = "emitting vertices in {} of cycles";
    t.summary = output_summary();
    t.roles = {"output"};
    t.needs = OutputNeeds::bindings().needs();
    t.words.capacity = [](const nlohmann::ordered_json& g, uint64_t cycles, const UnitParams& p) {
        return cycles ? double(g["counters"]["vertices"]["value"].get<uint64_t>()) /
                            (double(cycles) * double(p.of<OutputUnitParams>().vertices_per_cycle))
                      : NAN;
    };
    t.make = [](const UnitContext& c) {
        auto u = std::make_unique<OutputUnit>(c.name.c_str(), c.params.of<OutputUnitParams>(),
                                              c.params.needs<OutputNeeds>().ptc_entries, c.pool, c.probes);
        u->set_sink(c.sink);
        if (c.draw_done) u->on_draw_done([f = c.draw_done](const DrawState& d, Cycle) { f(d); });
        if (c.at_mark) u->on_references(c.marks, c.at_mark);
        return u;
    };
    r.add(std::move(t));
}

}  // namespace vpsim::sc
