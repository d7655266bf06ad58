#include "model/sc/tessellator_unit.h"

#include <fmt/format.h>

namespace vpsim::sc {

const ParamBindings<TessellatorParams>& TessellatorParams::bindings() {
    static const auto b = ParamBindings<TessellatorParams>(kUnit, "tessellator and tessellator input: patches and N-patches to generated vertices")
        .uint("queue", "draws", &TessellatorParams::queue, "draws buffered from the front end", "assumed", 1, 1024).capacity()
        .uint("control_points_per_cycle", "points/cycle", &TessellatorParams::control_points_per_cycle,
                  "patch control points read per cycle (skipped on a patch handle hit)", "assumed", 1, 64).rate()
        .uint("points_per_cycle", "points/cycle", &TessellatorParams::points_per_cycle, "domain points generated per cycle, at most",
                  "assumed (one vertex per cycle into the vertex ALU's input)", 1, 64).rate()
        .uint("macs_per_cycle", "products/cycle", &TessellatorParams::macs_per_cycle,
                  "register x control point four-wide multiply-adds per cycle when evaluating a point",
                  "assumed (four 4-wide multiply-add units)", 1, 4096).rate();
    return b;
}
ParamTable TessellatorParams::table() { return bindings().table(); }

TessellatorParams TessellatorParams::from(const ParamSet& p) {
    return bindings().from(p);
}

TessellatorUnit::TessellatorUnit(const sc_core::sc_module_name& n, const TessellatorParams& p, Probes* probes)
    : TimedUnit(n), p_(p), probes_(probes),
      stats_(basename(), "tessellator and tessellator input"), acct_(stats_),
      draws_(stats_.counter("draws", "draws", "draws passed on (tessellated or not)")),
      patches_(stats_.counter("patches", "patches", "rect and tri patches tessellated")),
      npatch_draws_(stats_.counter("npatch_draws", "draws", "triangle draws tessellated as N-patches")),
      vertices_(stats_.counter("generated_vertices", "vertices", "vertices generated")),
      triangles_(stats_.counter("generated_triangles", "triangles", "triangles generated")),
      control_points_(stats_.counter("control_points", "points", "control points read")),
      handle_hits_(stats_.counter("handle_hits", "patches", "patch draws that used a cached handle's control points")),
      reused_(stats_.counter("reused_tessellations", "patches", "handle hits that reused the cached tessellation")),
      approximated_(stats_.counter("approximated", "draws", "draws with the continuous edge style (approximated)")),
      stall_out_(stats_.stall_reason("index_queue_full", "a draw waits for space in the index fetch's queue",
                                                  StallKind::back_pressure("out"))) {
    acct_.attach(probes, basename());
    if (probes) track_ = probes->track(basename());
    stats_.rate("vertices_per_cycle", "generated_vertices", "busy_cycles", "vertices/cycle",
                "generated vertices per busy cycle");
}

Cycle TessellatorUnit::step(Cycle now) {
    if (current_) {
        const DrawState& d = *current_;
        const scene::Generated& g = *d.setup.generated;
        acct_.busy(now);
        if (now < control_done_) return control_done_;
        // Domain points: `points_per_step_` every `cycles_per_point_` cycles.
        const uint64_t total = g.vertices.size();
        const uint64_t made = std::min<uint64_t>(total, made_ + points_per_step_);
        if (probes_ && probes_->trace_on())
            for (uint64_t v = made_; v < made; ++v)
                probes_->span(track_, now, now + cycles_per_point_, fmt::format("p{}", v), fmt::format("\"draw\": {}", d.id));
        made_ = made;
        // (The index fetch takes every count the cycle after it is sent: this never waits.)
        generated_->push(GeneratedReady{d.id, made}, now);
        if (made == total) {
            if (probes_) probes_->span(track_, start_, now + cycles_per_point_, g.what);
            current_ = nullptr;
            return now + cycles_per_point_;
        }
        return now + cycles_per_point_;
    }
    if (!in_->can_pop(now)) {
        acct_.idle(now);
        return in_->next_pop(now);
    }
    if (!out_->can_push(now)) {
        acct_.stall(stall_out_, now);
        return kNever;  // the index fetch's pop wakes us
    }
    const DrawState* d = in_->pop(now);
    ++draws_;
    out_->push(d, now);
    acct_.busy(now);
    if (!d->setup.generated) return now + 1;
    const scene::Generated& g = *d->setup.generated;
    if (g.kind == scene::Generated::Kind::NPatch)
        ++npatch_draws_;
    else
        ++patches_;
    vertices_ += g.vertices.size();
    triangles_ += g.indices.size() / 3;
    if (g.approximated) ++approximated_;
    current_ = d;
    start_ = now;
    uint64_t control = 0;
    if (g.handle_hit) {
        ++handle_hits_;
        if (g.reused) ++reused_;
    } else {
        control = uint64_t(g.control_points) * g.patches;
        control_points_ += control;
    }
    control_done_ = now + 1 + (control + p_.control_points_per_cycle - 1) / p_.control_points_per_cycle;
    const uint64_t products = g.reused ? 0 : uint64_t(g.evaluated_registers) * g.support;
    const uint64_t eval = (products + p_.macs_per_cycle - 1) / p_.macs_per_cycle;
    if (eval > 1) {
        cycles_per_point_ = eval;
        points_per_step_ = 1;
    } else {
        cycles_per_point_ = 1;
        points_per_step_ = p_.points_per_cycle;
    }
    made_ = 0;
    return control_done_;
}

namespace {
// What it read and generated, summed over the tessellators; three rows when the scene has patches.
UnitSummary tessellator_summary() {
    UnitSummary s;
    for (const char* c : {"patches", "npatch_draws", "generated_vertices", "generated_triangles", "handle_hits",
                          "control_points"})
        s.metrics.push_back(summed_metric(fmt::format("tessellator/{}", c), 60, c));
    s.metrics.push_back({"tessellator/busy_cycles", 60,
                         [](const SummaryUnits& u) { return nlohmann::ordered_json(u.busy_cycles()); }, {}});
    s.lines = {{60, [](const SummaryUnits&, const SummaryValues& v) -> SummaryRows {
                    auto n = [&](const char* c) { return v.count(fmt::format("tessellator/{}", c)); };
                    if (!n("patches") && !n("npatch_draws")) return {};
                    const uint64_t vertices = n("generated_vertices"), busy = n("busy_cycles");
                    return {{"tessellator", fmt::format("{} patches, {} N-patch draws, {} handle hits",
                                                        group_digits(n("patches")), group_digits(n("npatch_draws")),
                                                        group_digits(n("handle_hits")))},
                            {"", fmt::format("{} generated vertices, {} triangles, {} control points read",
                                             group_digits(vertices), group_digits(n("generated_triangles")),
                                             group_digits(n("control_points")))},
                            {"", fmt::format("busy {} cycles ({:.2f} cycles per generated vertex)", group_digits(busy),
                                             vertices ? double(busy) / double(vertices) : 0.0)}};
                }}};
    return s;
}
}  // namespace

void register_unit_tessellator_unit(UnitRegistry& r) {
    UnitType t;
    t.name = "tessellator";
    t.what = "tessellator and its input stage: patches and N-patches to generated vertices";
    t.tables = {TessellatorParams::table()};
    t.words = {"the tessellator", "generating vertices in {} of cycles", {}, {}};
    t.summary = tessellator_summary();
    t.make = [](const UnitContext& c) {
        return std::make_unique<TessellatorUnit>(c.name.c_str(), c.params.of<TessellatorParams>(), c.probes);
    };
    r.add(std::move(t));
}

}  // namespace vpsim::sc
