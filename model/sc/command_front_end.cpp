#include "model/sc/command_front_end.h"

#include <fmt/format.h>

#include <stdexcept>

namespace vpsim::sc {

using namespace sc_core;

const ParamBindings<CommandFrontEndParams>& CommandFrontEndParams::bindings() {
    static const auto b = ParamBindings<CommandFrontEndParams>(kUnit, "command front end: executes the scene's D3D8 commands in order", 1)
        .uint("command_cycles", "cycles", &CommandFrontEndParams::command_cycles,
                  "cycles per state command (SetStreamSource, SetIndices, SetVertexShader, ...)", "assumed", 1, 1000000);
    return b;
}
ParamTable CommandFrontEndParams::table() { return bindings().table(); }

CommandFrontEndParams CommandFrontEndParams::from(const ParamSet& p) {
    return bindings().from(p);
}

CommandFrontEnd::CommandFrontEnd(const sc_module_name& n, const CommandFrontEndParams& p, scene::SceneMachine& machine,
                                 DeclDecoderPins& pins, DeclDecoderBlock& decoder, std::function<void(Cycle)> sync,
                                 Probes* probes)
    : TimedUnit(n), p_(p), machine_(machine), pins_(pins), decoder_(decoder), sync_(std::move(sync)),
      probes_(probes), constants_now_(machine.scene().const_count, vs::Vec4{}), stats_(CommandFrontEndParams::kUnit, "command front end"), acct_(stats_),
      commands_(stats_.counter("commands", "commands", "scene commands executed")),
      draw_count_(stats_.counter("draws", "draws", "draw commands sent to the tessellator (and on to the index fetch)")),
      decl_tokens_(stats_.counter("declaration_tokens", "tokens", "declaration tokens driven into the decoder")),
      stall_draw_q_(stats_.stall_reason("draw_queue_full", "a draw waits for space in the tessellator's queue",
                                                      StallKind::back_pressure("draws"))),
      stall_const_q_(stats_.stall_reason("constant_queue_full",
                                         "a constant batch waits for space in the constant loader's queue",
                                         StallKind::back_pressure("constants"))) {
    acct_.attach(probes, "front_end");
    if (probes) track_ = probes->track("front_end");
}

// One rising and falling clock edge of the declaration decoder, in delta cycles: its processes
// run on the rising edge, and its outputs have settled when this returns.
void CommandFrontEnd::clock_decoder() {
    pins_.clk.write(true);
    wait(SC_ZERO_TIME);
    wait(SC_ZERO_TIME);
    pins_.clk.write(false);
}

// Before a clock edge, with the inputs driven and settled: the decoder's outputs (in_ready, the
// output register) must be the model's; then the model takes the same edge.
void CommandFrontEnd::check_beside(bool in_valid, uint32_t token, bool last) {
    decl::DeclDecoderTiming& m = *beside_;
    std::string d;
    auto pin = [&](const char* name, bool model, bool rtl) {
        if (model != rtl) d += fmt::format("{}{} model {} | rtl {}", d.empty() ? "" : "; ", name, int(model), int(rtl));
    };
    pin("in_ready", m.in_ready(true), pins_.in_ready.read());
    pin("out_valid", m.out_valid(), pins_.out_valid.read());
    if (d.empty() && m.out_valid() && m.out() != pins_.event())
        d = fmt::format("event {}: model {} | rtl {}", events_.size(), decl::to_string(m.out()), decl::to_string(pins_.event()));
    if (!d.empty())
        throw DeclDecoderMismatch(fmt::format("{}: CreateVertexShader: the declaration decoder differs from the model "
                                              "(the cycle contract, docs/decl-decoder.md) at cycle {} of the decode: {}",
                                              cmd_pointer_, decode_clocks_, d),
                                  cmd_pointer_, tokens_);
    m.tick(in_valid, token, last, false, true);
    ++decode_clocks_;
}

// One clock of the declaration decoder, in kernel time: drive the token, raise the clock, let
// the unit's processes run, collect the event it delivers.
Cycle CommandFrontEnd::decode_cycle(Cycle now) {
    sync_(now);
    if (!decoder_reset_) {
        // A synchronous reset before the first token, in delta cycles: no cycle of the run.
        pins_.rst.write(true);
        wait(SC_ZERO_TIME);
        clock_decoder();
        pins_.rst.write(false);
        wait(SC_ZERO_TIME);
        decoder_reset_ = true;
    }
    if (final_seen_) {
        // The front end takes the END (or ERROR) event at this edge; the decode is over.
        pins_.drive(false, 0u, false, false, true);
        wait(SC_ZERO_TIME);
        check_beside(false, 0u, false);
        clock_decoder();
        ++decoder_clocks_;
        decoding_ = false;
        final_seen_ = false;
        if (events_.back().kind == decl::EventKind::Error)
            throw machine_.scene().error(
                cmd_pointer_, fmt::format("the declaration decoder rejected the declaration: {}",
                                          decl::to_string(events_.back())));
        return now + 1;
    }
    const bool offer = token_pos_ < tokens_.size();
    pins_.drive(offer, offer ? tokens_[token_pos_] : 0u, offer && token_pos_ + 1 == tokens_.size(), false, true);
    wait(SC_ZERO_TIME);
    check_beside(offer, offer ? tokens_[token_pos_] : 0u, offer && token_pos_ + 1 == tokens_.size());
    const bool fire = offer && pins_.in_ready.read();
    clock_decoder();
    ++decoder_clocks_;
    if (fire) {
        ++token_pos_;
        ++decl_tokens_;
    }
    if (pins_.out_valid.read()) {
        const decl::Event e = pins_.event();
        events_.push_back(e);
        if (e.kind == decl::EventKind::End || e.kind == decl::EventKind::Error) {
            final_seen_ = true;
            // The decoder and the golden decoder must agree event for event.
            size_t i = 0;
            while (i < events_.size() && i < expected_.size() && events_[i] == expected_[i]) ++i;
            if (i < events_.size() || i < expected_.size())
                throw DeclDecoderMismatch(
                    fmt::format("{}: CreateVertexShader: the declaration decoder gives {} events, the model {}; event {}: "
                                "model {} | rtl {}",
                                cmd_pointer_, events_.size(), expected_.size(), i,
                                i < expected_.size() ? decl::to_string(expected_[i]) : "none",
                                i < events_.size() ? decl::to_string(events_[i]) : "none"),
                    cmd_pointer_, tokens_);
        }
    }
    return now + 1;
}

// The function of a constant command (once): constant memory as the next draw sees it, and the
// batch for the loader.
void CommandFrontEnd::queue_constants(std::vector<scene::ConstantWrite> w, const char* what) {
    for (const auto& k : w) constants_now_[k.reg] = k.value;
    if (!w.empty()) pending_batch_ = ConstantBatch{std::move(w), draws_.size(), what};
}

// Its timing: the batch waits for room in the loader's queue. True when nothing is left to send.
bool CommandFrontEnd::push_constants(Cycle now) {
    if (!pending_batch_) return true;
    if (!constants_->can_push(now)) {
        acct_.stall(stall_const_q_, now);
        return false;
    }
    const_vectors_ += pending_batch_->writes.size();
    constants_->push(std::move(*pending_batch_), now);
    pending_batch_.reset();
    return true;
}

Cycle CommandFrontEnd::step(Cycle now) {
    if (decoding_) {
        acct_.busy(now);
        const Cycle next = decode_cycle(now);
        if (!decoding_) {
            if (probes_) probes_->span(track_, cmd_start_, now + 1, "CreateVertexShader");
            ++commands_;
            ++next_;
            started_ = false;
        }
        return next;
    }
    const auto& cmds = machine_.scene().commands;
    if (next_ >= cmds.size()) {
        acct_.idle(now);
        return kNever;
    }
    return execute(now, cmds[next_]);
}

Cycle CommandFrontEnd::execute(Cycle now, const scene::Command& c) {
    const bool first = !started_;  // the command's first cycle: its function runs now
    if (first) {
        cmd_start_ = now;
        started_ = true;
    }
    bool complete = true;
    Cycle cost = p_.command_cycles;
    const char* name = scene::command_name(c.body);
    if (auto* cv = std::get_if<scene::CreateVertexShader>(&c.body)) {
        machine_.create(c.pointer, *cv);
        // The golden decoder with the SystemC unit's options: the two must agree event for event.
        decl::DecoderOptions o;
        o.const_count = decoder_.params().const_count;
        o.max_length = decoder_.params().max_length;
        expected_ = decl::decode(cv->declaration, o).events;
        beside_.emplace(o);
        decode_clocks_ = 0;
        cmd_pointer_ = c.pointer;
        tokens_ = cv->declaration;
        token_pos_ = 0;
        events_.clear();
        decoding_ = true;
        acct_.busy(now);
        return decode_cycle(now);
    } else if (auto* sv = std::get_if<scene::SetVertexShader>(&c.body)) {
        if (first) queue_constants(machine_.set_shader(c.pointer, *sv), "SetVertexShader");
        complete = push_constants(now);
    } else if (auto* sc = std::get_if<scene::SetVertexShaderConstant>(&c.body)) {
        if (first) queue_constants(machine_.set_constants(c.pointer, *sc), "SetVertexShaderConstant");
        complete = push_constants(now);
    } else if (auto* ss = std::get_if<scene::SetStreamSource>(&c.body)) {
        machine_.set_stream(c.pointer, *ss);
    } else if (auto* si = std::get_if<scene::SetIndices>(&c.body)) {
        machine_.set_indices(c.pointer, *si);
    } else if (auto* dl = std::get_if<scene::DeletePatch>(&c.body)) {
        machine_.delete_patch(c.pointer, *dl);
    } else if (auto* rs = std::get_if<scene::SetRenderState>(&c.body)) {
        machine_.set_render_state(c.pointer, *rs);
    } else if (machine_.apply_ff_state(c.pointer, c.body)) {
    } else {
        if (first) {
            auto d = std::make_unique<DrawState>();
            if (auto* dp = std::get_if<scene::DrawPrimitive>(&c.body))
                d->setup = machine_.draw(next_, c.pointer, *dp);
            else if (auto* di = std::get_if<scene::DrawIndexedPrimitive>(&c.body))
                d->setup = machine_.draw(next_, c.pointer, *di);
            else if (auto* rp = std::get_if<scene::DrawRectPatch>(&c.body))
                d->setup = machine_.draw(next_, c.pointer, *rp);
            else
                d->setup = machine_.draw(next_, c.pointer, std::get<scene::DrawTriPatch>(c.body));
            d->unique = d->setup.unique_vertices();
            // The driver's constant writes before the draw (a fixed-function program's constants,
            // or the application's values restored after one) go through the loader first.
            queue_constants(d->setup.constant_writes,
                            d->setup.fixed_function ? "fixed-function constants" : "constants restored after fixed function");
            d->constants = std::make_shared<const vs::Constants>(constants_now_);
            for (uint32_t s = 0; s < 16; ++s) {
                auto it = address_.find(d->setup.streams[s].data);
                d->stream_address[s] = it == address_.end() ? 0 : it->second;
            }
            pending_draw_ = std::move(d);
        }
        if (!push_constants(now)) return kNever;  // woken when the constant loader takes the batch
        pending_draw_->const_epoch = const_vectors_;
        if (!draws_out_->can_push(now)) {
            acct_.stall(stall_draw_q_, now);
            return kNever;  // woken when the tessellator takes a draw
        }
        pending_draw_->id = uint32_t(draws_.size());
        pending_draw_->start = now;
        draws_.push_back(std::move(pending_draw_));
        draws_out_->push(draws_.back().get(), now);
        ++draw_count_;
        cost = 1;
    }
    if (!complete) return kNever;  // woken when the constant loader takes a batch
    acct_.busy(now);
    if (probes_) probes_->span(track_, cmd_start_, now + cost, name);
    ++commands_;
    ++next_;
    started_ = false;
    return now + cost;
}

void CommandFrontEnd::finish(Cycle end) {
    acct_.finish(end);
    // The decoder's clock runs only while it decodes; the rest of the run it is idle.
    decoder_.finish(end - decoder_clocks_);
}

}  // namespace vpsim::sc
