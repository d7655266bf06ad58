#include "model/sc/constant_loader.h"

#include <fmt/format.h>

namespace vpsim::sc {

const ParamBindings<ConstantLoaderParams>& ConstantLoaderParams::bindings() {
    static const auto b = ParamBindings<ConstantLoaderParams>(kUnit, "constant memory loader: the write port of constant memory")
        .uint("vectors_per_cycle", "vectors/cycle", &ConstantLoaderParams::vectors_per_cycle,
                  "constant vectors (4 x 32 bits) written per cycle", "assumed (one 128-bit write port)", 1, 64).rate()
        .uint("queue", "batches", &ConstantLoaderParams::queue, "write batches buffered from the front end", "assumed", 1, 1024).capacity();
    return b;
}
ParamTable ConstantLoaderParams::table() { return bindings().table(); }

ConstantLoaderParams ConstantLoaderParams::from(const ParamSet& p) {
    return bindings().from(p);
}

ConstantLoader::ConstantLoader(const sc_core::sc_module_name& n, const ConstantLoaderParams& p, vs::Constants& memory,
                               Probes* probes)
    : TimedUnit(n), p_(p), probes_(probes), mem_(memory), stats_(basename(), "constant memory loader"), acct_(stats_),
      writes_(stats_.counter("writes", "vectors", "constant vectors written")),
      batches_(stats_.counter("batches", "batches", "SetVertexShader / SetVertexShaderConstant batches written")),
      stall_draw_(stats_.stall_reason("draw_in_flight",
                                      "a batch waits for the draws issued before it to leave the vertex ALU",
                                      StallKind::back_pressure("draws_done"))) {
    acct_.attach(probes, basename());
    if (probes) track_ = probes->track(basename());
    stats_.rate("writes_per_cycle", "writes", "cycles", "vectors/cycle", "constant vectors written per cycle");
}

Cycle ConstantLoader::step(Cycle now) {
    while (draws_done_->can_pop(now)) draws_left_alu_ = draws_done_->pop(now).draws;
    if (!in_->can_pop(now)) {
        acct_.idle(now);
        return in_->next_pop(now);
    }
    ConstantBatch& b = in_->front();
    if (draws_left_alu_ < b.draw_fence) {
        acct_.stall(stall_draw_, now);
        return kNever;  // the ALU's next count wakes us
    }
    if (pos_ == 0) batch_start_ = now;
    acct_.busy(now);
    for (uint32_t k = 0; k < p_.vectors_per_cycle && pos_ < b.writes.size(); ++k, ++pos_) {
        mem_[b.writes[pos_].reg] = b.writes[pos_].value;
        ++writes_;
    }
    if (pos_ < b.writes.size()) return now + 1;
    if (probes_) probes_->span(track_, batch_start_, now + 1, b.command, fmt::format("\"vectors\": {}", b.writes.size()));
    in_->pop(now);
    pos_ = 0;
    ++batches_;
    written_->push(ConstantsWritten{writes_.value}, now);
    return now + 1;
}

void register_unit_constant_loader(UnitRegistry& r) {
    UnitType t;
    t.name = "constant_loader";
    t.what = "constant memory loader: the write port of constant memory";
    t.tables = {ConstantLoaderParams::table()};
    t.words = {"the constant loader", "writing constants in {} of cycles", {}, {}};
    t.make = [](const UnitContext& c) {
        return std::make_unique<ConstantLoader>(c.name.c_str(), c.params.of<ConstantLoaderParams>(), c.constant_memory,
                                                c.probes);
    };
    r.add(std::move(t));
}

}  // namespace vpsim::sc
