#include "model/sc/vertex_alu.h"

#include "model/vs/vs_validate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace vpsim::sc {

const ParamBindings<VertexAluParams>& VertexAluParams::bindings() {
    static const auto b = ParamBindings<VertexAluParams>(kUnit, "vertex ALU: engines of co-issuing vector + scalar pipes, several vertices in flight")
        .uint("engines", "engines", &VertexAluParams::engines, "vertex engines",
                  "NV20 (GeForce3) has one; NV2A and NV25 two (docs/spec/pipeline.md)", 1, 64).capacity()
        .uint("contexts", "vertices", &VertexAluParams::contexts, "vertices in flight per engine",
                  "NV20: up to 3 vertices in flight per engine (docs/spec/pipeline.md)", 1, 64).capacity()
        .uint("vector_latency", "cycles", &VertexAluParams::vector_latency, "cycles from a vector slot's issue to its result",
                  "assumed (no public figure): the latency at which 3 vertices in flight give GeForce3's published vertex rate (docs/calibration.md)", 1, 64).latency()
        .uint("scalar_latency", "cycles", &VertexAluParams::scalar_latency, "cycles from a scalar slot's issue to its result",
                  "assumed: as the vector pipe", 1, 64).latency()
        .uint("dot_latency", "cycles", &VertexAluParams::dot_latency,
                  "cycles from issue to result of a dot product slot (dp3, dp4, m4x4 ... rows)",
                  "assumed: as the vector pipe", 1, 64).latency()
        .uint("rcp_rsq_latency", "cycles", &VertexAluParams::rcp_rsq_latency, "cycles from issue to result of rcp and rsq",
                  "assumed: as the vector pipe", 1, 64).latency()
        .uint("rcp_interval", "cycles", &VertexAluParams::rcp_interval, "scalar pipe cycles per rcp / rsq (other scalar ops: 1)",
                  "NV20: one reciprocal or reciprocal square root per two cycles (docs/spec/pipeline.md)", 1, 64).latency()
        .choice("coissue", {"off", "pairs", "window"}, &VertexAluParams::coissue,
                  "co-issue of a vector and a scalar slot in one cycle: off, adjacent pairs, look-ahead window",
                  "NV20 instruction slots hold one vector and one scalar op (docs/spec/pipeline.md); window assumed")
        .choice("schedule", {"round_robin", "oldest"}, &VertexAluParams::schedule,
                  "which vertex in flight issues when several can: round robin over the contexts, or the oldest",
                  "assumed (no public figure); oldest first keeps vertices staggered so each finishes early")
        .uint("window", "instructions", &VertexAluParams::window, "slots searched for a partner (head included; coissue=window)",
                  "assumed", 2, VertexAluProgram::kMaxWindow).capacity()
        .boolean("port_limit", &VertexAluParams::port_limit,
                  "a co-issued pair reads at most one input and one constant register",
                  "NV20: one instruction reads at most one input and one constant (docs/spec/pipeline.md)");
    return b;
}
ParamTable VertexAluParams::table() { return bindings().table(); }

VertexAluParams VertexAluParams::from(const ParamSet& p) {
    return bindings().from(p);
}

// ---------------------------------------------------------------- slot programs

namespace {

constexpr uint8_t kA0 = 12, kOut0 = 13, kHidden0 = 26;

uint8_t dst_reg(const vs::Dst& d) {
    switch (d.type) {
        case vs::REG_TEMP: return uint8_t(d.num);
        case vs::REG_ADDR: return kA0;
        case vs::REG_RASTOUT: return uint8_t(kOut0 + d.num);       // oPos, oFog, oPts
        case vs::REG_ATTROUT: return uint8_t(kOut0 + 3 + d.num);   // oD0, oD1
        case vs::REG_TEXCRDOUT: return uint8_t(kOut0 + 5 + d.num); // oT0..oT7
        default: return kHidden0;
    }
}

struct Builder {
    const vs::Profile& profile;
    const VertexAluParams& params;
    std::vector<AluSlot> slots;
    uint8_t hidden = 0;

    AluSlot base(uint32_t index, AluSlot::Pipe pipe) const {
        AluSlot s;
        s.pipe = pipe;
        s.latency = uint8_t(pipe == AluSlot::Scalar ? params.scalar_latency : params.vector_latency);
        s.interval = 1;
        s.instruction = index;
        return s;
    }
    static void read(AluSlot& s, uint8_t reg, uint8_t mask) {
        if (!mask) return;
        for (unsigned i = 0; i < s.nreads; ++i)
            if (s.read_reg[i] == reg) {
                s.read_mask[i] |= mask;
                return;
            }
        s.read_reg[s.nreads] = reg;
        s.read_mask[s.nreads] = mask;
        ++s.nreads;
    }
    // The instruction's register sources (temps, a0, and a0 for relative constants).
    void sources(AluSlot& s, const vs::Instruction& ins, int only = -1, uint32_t row = 0) const {
        for (int k = 0; k < ins.nsrc; ++k) {
            if (only >= 0 && k != only) continue;
            const vs::Src& src = ins.src[size_t(k)];
            const uint8_t mask = uint8_t(vs::components_read(ins, k, profile));
            if (src.type == vs::REG_TEMP) read(s, uint8_t(src.num), mask);
            if (src.type == vs::REG_ADDR) read(s, kA0, mask);
            if (src.type == vs::REG_INPUT) s.input = int32_t(src.num);
            if (src.type == vs::REG_CONST) {
                const uint32_t r = src.num + (k == 1 ? row : 0);
                s.constant = src.relative ? int32_t(0x10000 + r) : int32_t(r);
                if (src.relative) read(s, kA0, 1);
            }
        }
    }

    void add(const vs::Instruction& ins, uint32_t index) {
        const uint32_t op = ins.opcode;
        const bool scalar_op = op == vs::OP_RCP || op == vs::OP_RSQ || op == vs::OP_EXPP || op == vs::OP_LOGP ||
                               op == vs::OP_LIT;
        if (op == vs::OP_M4x4 || op == vs::OP_M4x3 || op == vs::OP_M3x4 || op == vs::OP_M3x3 || op == vs::OP_M3x2) {
            // One dot product per row: slot i reads src0 and constant row i, writes component i.
            const int rows = vs::op_info(op)->matrix_rows;
            for (int i = 0; i < rows; ++i) {
                AluSlot s = base(index, AluSlot::Vector);
                s.latency = uint8_t(params.dot_latency);
                sources(s, ins, -1, uint32_t(i));
                s.write_reg = dst_reg(ins.dst);
                s.write_mask = uint8_t(1u << i);
                slots.push_back(s);
            }
        } else if (op == vs::OP_EXP || op == vs::OP_LOG || op == vs::OP_FRC) {
            // A dependent chain through a macro temporary: exp/log start with a scalar slot.
            const int n = profile.slots(op);
            const uint8_t h = uint8_t(kHidden0 + (hidden++ & 1));
            for (int i = 0; i < n; ++i) {
                AluSlot s = base(index, i == 0 && op != vs::OP_FRC ? AluSlot::Scalar : AluSlot::Vector);
                if (i == 0)
                    sources(s, ins);
                else
                    read(s, h, 0xF);
                s.write_reg = i + 1 == n ? dst_reg(ins.dst) : h;
                s.write_mask = uint8_t(i + 1 == n ? ins.dst.mask : 0xF);
                slots.push_back(s);
            }
        } else {
            AluSlot s = base(index, scalar_op ? AluSlot::Scalar : AluSlot::Vector);
            if (op == vs::OP_RCP || op == vs::OP_RSQ) {
                s.interval = uint8_t(params.rcp_interval);
                s.latency = uint8_t(params.rcp_rsq_latency);
            }
            if (op == vs::OP_DP3 || op == vs::OP_DP4) s.latency = uint8_t(params.dot_latency);
            sources(s, ins);
            if (vs::op_info(op)->has_dst) {
                s.write_reg = dst_reg(ins.dst);
                s.write_mask = uint8_t(ins.dst.mask);
            }
            slots.push_back(s);
        }
        slots.back().ends_instruction = true;
    }
};

bool overlaps(const AluSlot& a, uint8_t reg, uint8_t mask) {
    for (unsigned i = 0; i < a.nreads; ++i)
        if (a.read_reg[i] == reg && (a.read_mask[i] & mask)) return true;
    return false;
}

// Slot `late` may not pass slot `early` (RAW, WAR or WAW).
bool conflict(const AluSlot& early, const AluSlot& late) {
    if (early.write_mask && overlaps(late, early.write_reg, early.write_mask)) return true;  // RAW
    if (late.write_mask && overlaps(early, late.write_reg, late.write_mask)) return true;    // WAR
    return early.write_mask && late.write_mask && early.write_reg == late.write_reg &&
           (early.write_mask & late.write_mask);                                               // WAW
}

}  // namespace

VertexAluProgram::VertexAluProgram(const vs::Program& p, const vs::Profile& profile, const VertexAluParams& params) {
    Builder b{profile, params, {}, 0};
    for (size_t i = 0; i < p.code.size(); ++i) b.add(p.code[i], uint32_t(i));
    slots_ = std::move(b.slots);
    for (AluSlot& s : slots_) {
        for (unsigned i = 0; i < s.nreads; ++i)
            for (unsigned k = 0; k < 4; ++k)
                if (s.read_mask[i] >> k & 1u) s.read_comps[s.nread_comps++] = uint8_t(s.read_reg[i] * 4u + k);
        for (unsigned k = 0; k < 4; ++k)
            if (s.write_mask >> k & 1u) s.write_comps[s.nwrite_comps++] = uint8_t(s.write_reg * 4u + k);
    }
    instructions_ = p.code.size();
    // The co-issue search's tables (VertexAlu::issue_from): the slots a head slot may take along
    // (pairs: the next one; window: the next window - 1) and what each of them may not pass.
    const size_t n = slots_.size();
    window_ = params.coissue == "window" ? params.window : params.coissue == "pairs" ? 2 : 1;
    partners_.assign(n, 0);
    blockers_.assign(n * window_, 0);
    for (size_t pc = 0; pc < n; ++pc) {
        const AluSlot& head = slots_[pc];
        for (size_t d = 1; d < window_ && pc + d < n; ++d) {
            const AluSlot& s = slots_[pc + d];
            for (size_t i = 1; i < d; ++i)
                if (conflict(slots_[pc + i], s)) blockers_[pc * window_ + d] |= 1u << i;
            if (s.pipe == head.pipe) continue;
            if (params.port_limit && ((s.input >= 0 && head.input >= 0 && s.input != head.input) ||
                                      (s.constant >= 0 && head.constant >= 0 && s.constant != head.constant)))
                continue;
            partners_[pc] |= 1u << d;
        }
    }
}

// ---------------------------------------------------------------- the function

DrawFunction::DrawFunction(const DrawState& d, std::shared_ptr<MissStream> misses, const vs::FastShader& fs)
    : d_(d), misses_(std::move(misses)), own_(misses_->fresh()), fs_(fs) {}

void DrawFunction::refill(uint64_t from) {
    constexpr size_t kBatch = 256;
    const auto& s = d_.setup;
    uint32_t batch[kBatch];
    for (; pos_ < from && own_.next(batch[0]); ++pos_) {}  // other ALUs' misses
    first_ = pos_;
    size_t n = 0;
    while (n < kBatch && own_.next(batch[n])) ++n;
    misses_done_ = n < kBatch;
    inputs_.resize(n * vs::kNumInputs);
    out_.resize(n);
    try {
        for (size_t i = 0; i < n; ++i) {
            const uint32_t v = batch[i];
            const auto in = s.generated ? s.generated->vertices[v] : vs::fetch_vertex(s.shader->decl, s.streams, v);
            std::copy(in.begin(), in.end(), inputs_.begin() + long(i * vs::kNumInputs));
        }
    } catch (const vs::FetchError& e) {
        throw DrawFetchError(s, e);
    }
    vs::run_fast(fs_, *d_.constants, inputs_.data(), out_.data(), n);
    pos_ += n;
    next_ = 0;
}

const vs::VertexOutputs& DrawFunction::next(const VertexJob& j) {
    // (One ALU: j.miss is always first_ + next_, and a batch is read when the last is used up.)
    if (j.misses == misses_ && j.miss >= first_ + out_.size() && !misses_done_) refill(j.miss);
    if (j.misses == misses_ && j.miss >= first_ + next_ && j.miss < first_ + out_.size()) next_ = size_t(j.miss - first_);
    if (next_ == out_.size() || j.misses != misses_ || j.miss != first_ + next_)
        throw std::logic_error(fmt::format("vertex ALU: draw {} shades vertex {} (miss {}) out of its order "
                                           "(internal error)",
                                           d_.setup.pointer, j.index, j.miss));
    return out_[next_++];
}

// ---------------------------------------------------------------- the unit

VertexAlu::VertexAlu(const sc_core::sc_module_name& n, const VertexAluParams& p, const vs::Profile& profile,
                     VertexPool& pool, const vs::Constants& constants, Probes* probes)
    : TimedUnit(n), p_(p),
      mode_(p.coissue == "off" ? Coissue::Off : p.coissue == "pairs" ? Coissue::Pairs : Coissue::Window),
      oldest_first_(p.schedule == "oldest"),
      profile_(profile), pool_(pool), probes_(probes), constants_(&constants), engines_(p.engines),
      stats_(basename(), "vertex ALU"), acct_(stats_),
      vertices_(stats_.counter("vertices", "vertices", "vertices shaded")),
      instructions_(stats_.counter("instructions", "instructions", "program instructions executed")),
      slots_(stats_.counter("slots", "slots", "instruction slots issued (macros expanded)")),
      vector_(stats_.counter("vector_slots", "slots", "slots issued to a vector pipe")),
      scalar_(stats_.counter("scalar_slots", "slots", "slots issued to a scalar pipe")),
      issue_cycles_(stats_.counter("issue_cycles", "engine-cycles", "engine cycles that issued at least one slot")),
      coissue_cycles_(stats_.counter("coissue_cycles", "engine-cycles", "engine cycles that issued a vector and a scalar slot")),
      engine_cycles_(stats_.counter("engine_cycles", "engine-cycles", "cycles x engines")),
      vertex_cycles_(stats_.counter("vertex_cycles", "vertex-cycles", "vertices in flight summed over the cycles, all engines")),
      max_in_flight_(stats_.counter("max_in_flight", "vertices", "most vertices in flight in one engine at once")),
      st_dep_(stats_.stall_reason("dependency", "every vertex in flight waits for an operand or an earlier write")),
      st_scalar_(stats_.stall_reason("scalar_pipe", "the next slot needs the scalar pipe, still busy (rcp/rsq)")),
      st_output_(stats_.stall_reason("output_full", "the oldest vertex is done but the output buffers are full")),
      st_latency_(stats_.stall_reason("result_latency",
                                      "every slot is issued; the vertices wait for their last results or older vertices")),
      st_const_(stats_.stall_reason("constants_pending",
                                    "the next vertex's draw waits for constant writes issued before it",
                                    StallKind::starvation("constants_written"))),
      st_starved_(stats_.stall_reason("starved",
                                      "nothing issues, a context is free and no fetched vertex waits at the input",
                                      StallKind::starvation("in"))),
      in_flight_(p.engines, 0) {
    order_.slots.resize(size_t(p.engines) * p.contexts);
    for (uint32_t e = 0; e < p.engines; ++e) {
        engines_[e].ctx.resize(p.contexts);
        engines_[e].age.assign(p.contexts, nullptr);
        if (probes) {
            engines_[e].sig_issue = probes->vcd_signal(fmt::format("{}.e{}", basename(), e), "issue", 2);
            if (probes->trace_on())
                for (uint32_t c = 0; c < p.contexts; ++c)
                    engines_[e].ctx[c].track = probes->track(fmt::format("{}.e{}.ctx{}", basename(), e, c));
        }
    }
    issued_.assign(p.engines, 0);
    engine_tally_.resize(p.engines);
    class_tally_.resize(p.contexts);
    for (uint32_t e = 0; e < p.engines; ++e) {
        auto c = [&](const char* what, const char* description) {
            return &stats_.counter(fmt::format("e{}_{}_cycles", e, what), "cycles",
                                   fmt::format("cycles engine {} {}", e, description));
        };
        engine_cycles_of_.push_back(
            {c("issue", "issued at least one slot"),
             c("dependency", "held a vertex with slots left and issued none (an operand, an earlier write, the "
                             "scalar pipe)"),
             c("latency", "held only vertices with every slot issued (waiting for results or to leave in order)"),
             c("empty", "held no vertex")});
    }
    for (uint32_t k = 1; k <= p.contexts; ++k) {
        auto c = [&](const char* what, const char* description) {
            return &stats_.counter(fmt::format("k{}_{}_cycles", k, what), "engine cycles",
                                   fmt::format("engine cycles with {} of its contexts holding a vertex that {}", k,
                                               description));
        };
        class_cycles_of_.push_back({c("issue", "issued at least one slot"),
                                    c("dependency", "issued none with slots left (engine's e<N>_dependency_cycles)"),
                                    c("latency", "held only vertices with every slot issued"), nullptr});
    }
    if (probes) sig_active_ = probes->vcd_signal(basename(), "vertices_in_flight", 8);
    acct_.attach(probes, basename());
    stats_.rate("utilisation", "issue_cycles", "engine_cycles", "fraction", "engine cycles that issued a slot");
    stats_.rate("coissue_rate", "coissue_cycles", "issue_cycles", "fraction", "issuing cycles that co-issued a pair");
    stats_.rate("slots_per_cycle", "slots", "cycles", "slots/cycle", "slots issued per cycle, all engines");
    stats_.rate("cycles_per_vertex", "cycles", "vertices", "cycles/vertex", "run cycles per shaded vertex");
    stats_.rate("in_flight_per_engine", "vertex_cycles", "engine_cycles", "vertices",
                "mean vertices in flight per engine: `vertex_cycles / engine_cycles`");
}

const VertexAluProgram& VertexAlu::program_of(const DrawState& d) {
    if (d.setup.shader != last_shader_) {
        auto& slot = programs_[d.setup.shader];
        if (!slot) slot = std::make_unique<VertexAluProgram>(*d.setup.shader->program, profile_, p_);
        last_shader_ = d.setup.shader;
        last_program_ = slot.get();
    }
    return *last_program_;
}

void VertexAlu::in_flight_change(uint32_t engine, int delta, Cycle now) {
    uint64_t n = 0;
    for (uint32_t k : in_flight_) n += k;
    vertex_cycles_ += n * (now - in_flight_since_);
    in_flight_since_ = now;
    in_flight_[engine] = uint32_t(int(in_flight_[engine]) + delta);
    max_in_flight_.value = std::max<uint64_t>(max_in_flight_.value, in_flight_[engine]);
}

bool VertexAlu::draw_in_progress() const {
    return !progress_.empty();
}

void VertexAlu::draw_progress(Cycle now) {
    bool moved = false;
    while (!progress_.empty() && progress_.begin()->second.retired == progress_.begin()->second.jobs) {
        progress_.erase(progress_.begin());
        ++draws_left_;
        moved = true;
    }
    if (moved) draws_done_->push(DrawsDone{draws_left_}, now);
}

const vs::FastShader& VertexAlu::fast_of(const DrawState& d) {
    auto& slot = fast_[d.setup.shader];
    if (!slot) slot = std::make_unique<vs::FastShader>(vs::compile_fast(*d.setup.shader->program, profile_));
    return *slot;
}

[[gnu::always_inline]] inline Cycle VertexAlu::earliest_ops(const Context& c, const AluSlot& s) const {
    Cycle t = c.from;
    for (unsigned i = 0; i < s.nread_comps; ++i) t = std::max(t, c.ready[s.read_comps[i]]);
    // An earlier write must land first: each written component's ready cycle - latency, when
    // positive (their maximum, once).
    Cycle w = 0;
    for (unsigned i = 0; i < s.nwrite_comps; ++i) w = std::max(w, c.ready[s.write_comps[i]]);
    if (w > s.latency) t = std::max(t, w - s.latency);
    return t;
}

[[gnu::always_inline]] inline Cycle VertexAlu::earliest(const Context& c, const AluSlot& s, const Engine& e) const {
    const Cycle t = earliest_ops(c, s);
    return s.pipe == AluSlot::Scalar ? std::max(t, e.scalar_free) : t;
}

[[gnu::always_inline]] inline void VertexAlu::issue(Context& c, const AluSlot& s, Engine& e, Cycle now) {
    const Cycle done = now + s.latency;
    for (unsigned i = 0; i < s.nwrite_comps; ++i) c.ready[s.write_comps[i]] = done;
    if (done > c.done_at) c.done_at = done;
    if (s.pipe == AluSlot::Scalar) {
        e.scalar_free = now + s.interval;
        ++tally_.scalar;
    } else {
        ++tally_.vector;
    }
    ++tally_.slots;
    tally_.instructions += s.ends_instruction;
}

int VertexAlu::issue_from(Engine& e, Context& c, Cycle now) {
    // The caller saw head_earliest(c, e) <= now (head_at >= from: nothing issues before a
    // vertex's first cycle; kNever with nothing to issue).
    const AluSlot* slots = c.slots;
    const uint32_t pc = c.pc;
    issue(c, slots[pc], e, now);
    uint64_t issued = c.issued | 1u;
    int n = 1;
    // With co-issue: the first partner (VertexAluProgram::partners) not issued yet that passes
    // no unissued slot it conflicts with and whose operands (and pipe) are ready.
    uint32_t cand = c.prog->partners(pc) & ~uint32_t(issued);
    if (cand) {
        const uint32_t* blockers = c.prog->blockers(pc);
        const uint32_t unissued = ~uint32_t(issued);
        for (; cand; cand &= cand - 1) {
            const unsigned d = unsigned(__builtin_ctz(cand));
            if (blockers[d] & unissued) continue;
            const AluSlot& s = slots[pc + d];
            if (earliest(c, s, e) > now) continue;
            issue(c, s, e, now);
            issued |= uint64_t(1) << d;
            n = 2;
            break;
        }
    }
    // The head moves past the slots issued (issued has bit 0 set, and bits below 32 only).
    const unsigned k = unsigned(__builtin_ctzll(~issued));
    c.issued = issued >> k;
    c.pc = pc + k;
    if (finished(c)) --e.slots_left;  // its last slot issued (it had slots left before)
    new_head(c);  // its registers' ready cycles changed
    return n;
}

[[gnu::always_inline]] inline int VertexAlu::try_issue(uint32_t ei, Engine& e, Cycle now) {
    (void)ei;
    if (oldest_first_) {
        // The oldest vertex of this engine that can issue goes first (entry order = retire order).
        Context* const* age = e.age.data();
        const uint32_t K = uint32_t(e.age.size());
        for (uint32_t k = 0, i = e.age_head; k < e.age_count; ++k, i = i + 1 == K ? 0 : i + 1) {
            Context& c = *age[i];
            if (head_earliest(c, e) <= now) return issue_from(e, c, now);
        }
        return 0;
    }
    const uint32_t K = uint32_t(e.ctx.size());
    uint32_t ci = e.rr;
    for (uint32_t i = 0; i < K; ++i, ci = ci + 1 == K ? 0 : ci + 1) {
        Context& c = e.ctx[ci];
        if (head_earliest(c, e) <= now) {
            e.rr = ci + 1 == K ? 0 : ci + 1;
            return issue_from(e, c, now);
        }
    }
    return 0;
}

void VertexAlu::engine_cycles_charge(Cycle now) {
    if (now <= engines_since_) return;
    const uint64_t d = now - engines_since_;
    engines_since_ = now;
    // A step that issued returns the next cycle: that cycle was the engine's issue cycle, charged
    // by the step itself (step 3); the rest is charged here to what its vertices wait for now.
    // Every engine issued and the unit is stepped again at once (most steps): no rest (the
    // inline engine_cycles_until returned before the call).
    if (d == 1 && engines_issued_ == p_.engines) return;
    for (uint32_t ei = 0; ei < p_.engines; ++ei) {
        const uint64_t rest = d - (issued_[ei] ? 1 : 0);
        if (!rest) continue;
        const bool slots_left = engines_[ei].slots_left != 0;
        const uint32_t in_use = in_flight_[ei];  // its contexts holding a vertex
        CyclesTally& ec = engine_tally_[ei];
        (slots_left ? ec.dependency : in_use ? ec.latency : ec.empty) += rest;
        if (in_use) {
            CyclesTally& kc = class_tally_[in_use - 1];
            (slots_left ? kc.dependency : kc.latency) += rest;
        }
    }
}

// step's four steps below are functions of their own for reading, compiled into step as one body
// (always_inline): called apart, `vpsim run` on the default scene took 312.0 M instructions
// (callgrind) against 298.1 M with step in one piece; inlined, 298.8 M.
Cycle VertexAlu::step(Cycle now) {
    engine_cycles_until(now);
    while (written_->can_pop(now)) constants_written_ = written_->pop(now).vectors;
    bool progress = false;
    while (draw_end_->can_pop(now)) {
        const DrawEnd e = draw_end_->pop(now);
        progress_[e.draw].jobs = e.jobs;
        progress = true;
    }
    if (progress) draw_progress(now);
    const bool retired = retire_oldest(now);
    const Accept accepted = accept_vertex(now);
    // (Every engine tries to issue, whatever steps 1 and 2 did.)
    if (issue_engines(now) || retired || accepted == Accept::Took) {
        acct_.busy(now);
        return now + 1;
    }
    return account_wait(now, accepted == Accept::ConstWait);
}

// Step 1: retires the oldest vertex when its results are written and the output has a buffer.
[[gnu::always_inline]] inline bool VertexAlu::retire_oldest(Cycle now) {
    if (order_.empty()) return false;
    const uint32_t ei = order_.front().engine;
    Context& c = *order_.front().ctx;
    if (!finished(c) || c.done_at > now || !out_->can_push(now)) return false;
    VertexJob& j = pool_[c.job];
    if (probes_) probes_->span(c.track, j.t_alu, now, fmt::format("v{}", j.index),
                               fmt::format("\"draw\": {}, \"seq\": {}", j.draw->id, j.seq));
    out_->push(c.job, now);
    ++vertices_;
    credits_->push(Credit{1}, now);
    ++progress_[j.draw->id].retired;
    draw_progress(now);
    c.active = false;
    c.head_at = kNever;  // (already: every slot issued)
    in_flight_change(ei, -1, now);
    order_.pop_front();
    Engine& e = engines_[ei];  // the oldest of all is the oldest of its engine
    e.age_head = e.age_head + 1 == e.age.size() ? 0 : e.age_head + 1;
    --e.age_count;
    if (probes_) probes_->vcd_change(sig_active_, now, order_.size());
    return true;
}

// Step 2: takes a new vertex into a free context (one per cycle), or says that the input's vertex
// waits for the constants its draw reads.
[[gnu::always_inline]] inline VertexAlu::Accept VertexAlu::accept_vertex(Cycle now) {
    const bool free_ctx = order_.size() < size_t(p_.engines) * p_.contexts;
    if (!free_ctx || !in_->can_pop(now)) return Accept::None;
    const Job h = in_->front();
    VertexJob& j = pool_[h];
    if (constants_written_ < j.draw->const_epoch) {
        return Accept::ConstWait;
    }
    for (uint32_t k = 0; k < p_.engines; ++k) {
        const uint32_t ei = (next_engine_ + k) % p_.engines;
        auto& ctxs = engines_[ei].ctx;
        auto it = std::find_if(ctxs.begin(), ctxs.end(), [](const Context& c) { return !c.active; });
        if (it == ctxs.end()) continue;
        in_->pop(now);
        const VertexAluProgram& prog = program_of(*j.draw);
        // The function: the fast path (bit-identical to the reference interpreter) on
        // the draw's misses with the constants the draw sees.
        if (function_draw_ != j.draw) {
            // A new draw: constant memory must hold what the draw sees, in command order,
            // bit for bit (as the driver tracks it: a NaN constant equals itself).
            if (!constants_ || !vs::same_bits(*constants_, *j.draw->constants))
                throw std::logic_error(fmt::format("vertex ALU: draw {} would read constants the loader has "
                                                   "not written (internal error)",
                                                   j.draw->setup.pointer));
            function_ = std::make_unique<DrawFunction>(*j.draw, j.misses, fast_of(*j.draw));
            function_draw_ = j.draw;
        }
        j.outputs = function_->next(j);
        j.t_alu = now;
        progress_[j.draw->id];  // the draw is under way (its count comes at its end)
        Context& c = *it;  // reset in place (a Context{} temporary is ~1 KB to build and copy)
        c.active = true;
        c.job = h;
        c.prog = &prog;
        c.slots = prog.slots().data();
        c.nslots = uint32_t(prog.slots().size());
        c.pc = 0;
        c.issued = 0;
        c.ready.fill(0);
        c.from = now + 1;
        c.done_at = now + 1;
        if (!finished(c)) ++engines_[ei].slots_left;
        new_head(c);
        order_.push_back({ei, &*it});
        {
            Engine& e = engines_[ei];
            uint32_t t = e.age_head + e.age_count;
            if (t >= e.age.size()) t -= uint32_t(e.age.size());
            e.age[t] = &*it;
            ++e.age_count;
        }
        in_flight_change(ei, +1, now);
        next_engine_ = (ei + 1) % p_.engines;
        if (probes_) probes_->vcd_change(sig_active_, now, order_.size());
        return Accept::Took;
    }
    return Accept::None;
}

// Step 3: lets every engine issue; whether one did.
[[gnu::always_inline]] inline bool VertexAlu::issue_engines(Cycle now) {
    bool any = false;
    engines_issued_ = 0;
    for (uint32_t ei = 0; ei < p_.engines; ++ei) {
        Engine& e = engines_[ei];
        const int n = try_issue(ei, e, now);
        // (engine_cycles_until read the last step's flags first; in the one step without that,
        // at cycle 0, they were all 0.)
        issued_[ei] = n > 0;
        if (n) {
            ++tally_.issue_cycles;
            tally_.coissue_cycles += n == 2;
            any = true;
            // This cycle is the engine's issue cycle, of its context class as it holds its
            // vertices from now to its next step (steps 1 and 2, above, made this step's changes).
            ++engines_issued_;
            ++engine_tally_[ei].issue;
            if (in_flight_[ei]) ++class_tally_[in_flight_[ei] - 1].issue;
        }
        if (probes_ && probes_->vcd_on()) {
            const uint64_t code = uint64_t(n);
            if (code != e.last_issue_code) probes_->vcd_change(e.sig_issue, now, code);
            e.last_issue_code = code;
        }
    }
    return any;
}

// Step 4, when nothing issued: charges the cycle to its reason and returns when something can
// happen next.
[[gnu::always_inline]] inline Cycle VertexAlu::account_wait(Cycle now, bool const_wait) {
    Cycle next = kNever;
    const StallReason* reason = nullptr;
    for (auto& e : engines_)
        for (auto& c : e.ctx) {
            if (!c.active) continue;
            if (!finished(c)) {
                const AluSlot& s = c.slots[c.pc];
                const Cycle t = head_earliest(c, e);
                next = std::min(next, std::max(t, now + 1));
                if (!reason) {
                    const Cycle t_ops = c.head_at;  // without the scalar pipe
                    reason = t_ops <= now && s.pipe == AluSlot::Scalar ? &st_scalar_ : &st_dep_;
                }
            }
        }
    if (!order_.empty()) {
        const Context& c = *order_.front().ctx;
        if (finished(c)) {
            if (c.done_at > now)
                next = std::min(next, c.done_at);
            else if (!out_->can_push(now) && !reason)
                reason = &st_output_;  // the output's pop wakes us
            else
                next = std::min(next, now + 1);
        }
        if (!reason) reason = &st_latency_;
    }
    const bool room = order_.size() < size_t(p_.engines) * p_.contexts;
    if (room && !const_wait) next = std::min(next, in_->next_pop(now));
    // The vertices in flight cannot issue and a context could take another vertex, but none
    // waits at the input while a draw is under way: the fetch starves the ALU. (Not when the
    // oldest vertex waits for an output buffer: that is back-pressure.)
    if (room && !const_wait && reason != &st_output_ && !in_->can_pop(now) && draw_in_progress())
        reason = &st_starved_;
    if (reason)
        acct_.stall(*reason, now);
    else if (const_wait)
        acct_.stall(st_const_, now);  // the constant loader's count wakes us
    else
        acct_.idle(now);
    return next;
}

void VertexAlu::flush_tallies() {
    slots_ += tally_.slots;
    vector_ += tally_.vector;
    scalar_ += tally_.scalar;
    instructions_ += tally_.instructions;
    issue_cycles_ += tally_.issue_cycles;
    coissue_cycles_ += tally_.coissue_cycles;
    tally_ = Tally{};
    auto add = [](const EngineCycles& c, CyclesTally& t) {
        c.issue->value += t.issue;
        c.dependency->value += t.dependency;
        c.latency->value += t.latency;
        if (c.empty) c.empty->value += t.empty;  // (a context class has none)
        t = CyclesTally{};
    };
    for (size_t i = 0; i < engine_tally_.size(); ++i) add(engine_cycles_of_[i], engine_tally_[i]);
    for (size_t i = 0; i < class_tally_.size(); ++i) add(class_cycles_of_[i], class_tally_[i]);
}

void VertexAlu::finish(Cycle end) {
    engine_cycles_until(end);
    flush_tallies();
    acct_.finish(end);
    in_flight_change(0, 0, end);
    engine_cycles_.value = end * p_.engines;
}

namespace {
// Each engine's cycles (e<N>_*_cycles) as fractions of the run, for the first ALU of two or more
// engines: a shortfall of one engine is not visible in the ALU's totals. Null for one engine.
nlohmann::ordered_json engine_shares(const SummaryUnits& u) {
    if (!u.cycles) return nullptr;
    for (const StatGroup* g : u.groups) {
        if (!g->has("e1_issue_cycles")) continue;
        auto f = [&](unsigned e, const char* what) {
            return double(g->get(fmt::format("e{}_{}_cycles", e, what))) / double(u.cycles);
        };
        auto out = nlohmann::ordered_json::array();
        for (unsigned e = 0; g->has(fmt::format("e{}_issue_cycles", e)); ++e)
            out.push_back({{"issue", f(e, "issue")}, {"dependency", f(e, "dependency")}, {"latency", f(e, "latency")},
                           {"empty", f(e, "empty")}});
        return out;
    }
    return nullptr;
}

// Issue and co-issue, vertices in flight and each engine's share: one ALU's rates, or over
// several, the same ratios of their summed counters.
UnitSummary vertex_alu_summary() {
    using J = nlohmann::ordered_json;
    UnitSummary s;
    s.metrics = {
        rate_metric("alu_utilisation", 30, "utilisation", "issue_cycles", "engine_cycles"),
        rate_metric("coissue_rate", 31, "coissue_rate", "coissue_cycles", "issue_cycles"),
        {"engines", 42, [](const SummaryUnits& u) { return engine_shares(u); }, {}},
        rate_metric("in_flight_per_engine", 44, "in_flight_per_engine", "vertex_cycles", "engine_cycles"),
        {"max_in_flight_per_engine", 45, [](const SummaryUnits& u) { return J(u.max("max_in_flight")); }, {}},
    };
    s.lines = {
        {30, [](const SummaryUnits&, const SummaryValues& v) -> SummaryRows {
             return {{"ALU utilisation", fmt::format("{:.1f} %", 100 * v.real("alu_utilisation"))},
                     {"co-issue rate", fmt::format("{:.1f} % of issuing cycles", 100 * v.real("coissue_rate"))}};
         }},
        {42, [](const SummaryUnits&, const SummaryValues& v) -> SummaryRows {
             SummaryRows rows = {{"vertices in flight", fmt::format("{:.2f} per engine on average, {} at most",
                                                             v.real("in_flight_per_engine"),
                                                             v.count("max_in_flight_per_engine"))}};
             const auto* engines = v.find("engines");
             if (engines && engines->is_array())
                 for (size_t e = 0; e < engines->size(); ++e) {
                     const auto& x = (*engines)[e];
                     rows.push_back({e ? "" : "per engine",
                                     fmt::format("engine {}: issuing {:.1f} %, dependency {:.1f} %, latency {:.1f} %, "
                                                 "empty {:.1f} %",
                                                 e, 100 * x["issue"].get<double>(), 100 * x["dependency"].get<double>(),
                                                 100 * x["latency"].get<double>(), 100 * x["empty"].get<double>())});
                 }
             return rows;
         }},
    };
    return s;
}
}  // namespace

void register_unit_vertex_alu(UnitRegistry& r) {
    UnitType t;
    t.name = "vertex_alu";
    t.what = "vertex ALU: engines of co-issuing vector + scalar pipes, several vertices in flight";
    t.tables = {VertexAluParams::table()};
    t.words.noun = "the vertex ALU";
    t.words.busy = "issuing in {} of engine cycles";
    t.summary = vertex_alu_summary();
    t.roles = {"vertex_alu"};
    auto utilisation = [](const nlohmann::ordered_json& g) {
        if (!g.contains("rates") || !g["rates"].contains("utilisation") || g["rates"]["utilisation"]["value"].is_null())
            return double(NAN);
        return g["rates"]["utilisation"]["value"].get<double>();
    };
    // Its capacity is its engines' issue slots: issue cycles per engine cycle.
    t.words.capacity = [utilisation](const nlohmann::ordered_json& g, uint64_t, const UnitParams&) { return utilisation(g); };
    t.words.stall = [utilisation](const std::string& unit, const std::string& reason, double frac,
                                  const nlohmann::ordered_json& units, const UnitParams& p,
                                  const std::string&) -> std::string {
        if (reason != "dependency" && reason != "result_latency" && reason != "scalar_pipe") return "";
        // The context class of those cycles (k<N>_* counters): with every context in use, more
        // contexts could hide the wait; with fewer, the ALU lacks vertices rather than contexts.
        const uint64_t K = p.of<VertexAluParams>().contexts;
        const char* what = reason == "result_latency" ? "latency" : "dependency";
        const auto& c = units[unit]["counters"];
        auto counter = [&](const std::string& name) {
            return c.contains(name) ? c[name]["value"].get<double>() : 0.0;
        };
        double all = 0;
        for (uint64_t k = 1; k <= K; ++k) all += counter(fmt::format("k{}_{}_cycles", k, what));
        const double full = counter(fmt::format("k{}_{}_cycles", K, what));
        return fmt::format("{}: issuing in {:.1f} % of engine cycles; stalled on {} in {:.1f} % of cycles, {} with "
                           "all {} contexts of an engine in use",
                           unit == "vertex_alu" ? "the vertex ALU" : "the vertex ALU " + unit,
                           100 * utilisation(units[unit]), reason, 100 * frac,
                           all > 0 ? fmt::format("{:.1f} % of the engines' {} cycles", 100 * full / all, what)
                                   : std::string("none of them"),
                           K);
    };
    t.make = [](const UnitContext& c) {
        return std::make_unique<VertexAlu>(c.name.c_str(), c.params.of<VertexAluParams>(), c.machine.profile(), c.pool,
                                           c.constant_memory, c.probes);
    };
    r.add(std::move(t));
}

}  // namespace vpsim::sc
