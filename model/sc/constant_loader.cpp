#include "model/sc/constant_loader.h"

#include <fmt/format.h>

namespace vpsim::sc {

ParamTable ConstantLoaderParams::table() {
    const ConstantLoaderParams d;
    return ParamTable(kUnit, "constant memory loader: the write port of constant memory", 3)
        .add_uint("vectors_per_cycle", "vectors/cycle", d.vectors_per_cycle,
                  "constant vectors (4 x 32 bits) written per cycle", "assumed (one 128-bit write port)", 1, 64)
        .add_uint("queue", "batches", d.queue, "write batches buffered from the front end", "assumed", 1, 1024);
}
VPSIM_REGISTER_PARAMS(ConstantLoaderParams::table);

ConstantLoaderParams ConstantLoaderParams::from(const ParamSet& p) {
    ConstantLoaderParams r;
    r.vectors_per_cycle = uint32_t(p.get_uint("constant_loader.vectors_per_cycle"));
    r.queue = uint32_t(p.get_uint("constant_loader.queue"));
    return r;
}

ConstantLoader::ConstantLoader(const sc_core::sc_module_name& n, const ConstantLoaderParams& p, uint32_t const_count,
                               const DrawTracker& draws, Probes* probes)
    : TimedUnit(n), p_(p), draws_(draws), probes_(probes), in_("front_end_to_constant_loader", p.queue, 1, 1),
      mem_(const_count, vs::Vec4{}), stats_(ConstantLoaderParams::kUnit, "constant memory loader"), acct_(stats_),
      writes_(stats_.counter("writes", "vectors", "constant vectors written")),
      batches_(stats_.counter("batches", "batches", "SetVertexShader / SetVertexShaderConstant batches written")),
      stall_draw_(stats_.stall_reason("draw_in_flight",
                                      "a batch waits for the draws issued before it to leave the vertex ALU")) {
    acct_.attach(probes, "constant_loader");
    if (probes) track_ = probes->track("constant_loader");
    stats_.rate("writes_per_cycle", "writes", "cycles", "vectors/cycle", "constant vectors written per cycle");
}

Cycle ConstantLoader::step(Cycle now) {
    if (!in_.can_pop(now)) {
        acct_.idle(now);
        return in_.next_pop(now);
    }
    ConstantBatch& b = in_.front();
    if (draws_.alu_done() < b.draw_fence) {
        acct_.stall(stall_draw_, 0, now);
        return kNever;  // the draw tracker wakes us
    }
    if (pos_ == 0) batch_start_ = now;
    acct_.busy(now);
    for (uint32_t k = 0; k < p_.vectors_per_cycle && pos_ < b.writes.size(); ++k, ++pos_) {
        mem_[b.writes[pos_].reg] = b.writes[pos_].value;
        ++writes_;
    }
    if (pos_ < b.writes.size()) return now + 1;
    if (probes_) probes_->span(track_, batch_start_, now + 1, b.command, fmt::format("\"vectors\": {}", b.writes.size()));
    in_.pop(now);
    pos_ = 0;
    ++batches_;
    if (alu_) alu_->wake(now + 1);
    return now + 1;
}

}  // namespace vpsim::sc
