#include "model/sc/command_front_end.h"

#include <fmt/format.h>

#include <algorithm>

#include <stdexcept>

namespace vpsim::sc {

using namespace sc_core;

const ParamBindings<CommandFrontEndParams>& CommandFrontEndParams::bindings() {
    static const auto b = ParamBindings<CommandFrontEndParams>(kUnit, "command front end: executes the scene's D3D8 commands in order")
        .uint("command_cycles", "cycles", &CommandFrontEndParams::command_cycles,
                  "cycles per state command (SetStreamSource, SetIndices, SetVertexShader, ...)", "assumed", 1, 1000000).latency();
    return b;
}
ParamTable CommandFrontEndParams::table() { return bindings().table(); }

CommandFrontEndParams CommandFrontEndParams::from(const ParamSet& p) {
    return bindings().from(p);
}

const NeedBindings<CommandFrontEndNeeds>& CommandFrontEndNeeds::bindings() {
    static const auto b = NeedBindings<CommandFrontEndNeeds>().uint(
        "decl_max_length", &CommandFrontEndNeeds::decl_max_length, "decl_decoder", "decl_decoder.max_length",
        "the declaration decoder's longest declaration (tokens), sent with each declaration");
    return b;
}

CommandFrontEnd::CommandFrontEnd(const sc_module_name& n, const CommandFrontEndParams& p, scene::SceneMachine& machine,
                                 const DeclDecoderParams& decoder, Probes* probes)
    : TimedUnit(n), p_(p), machine_(machine), decoder_(decoder), probes_(probes),
      constants_now_(machine.scene().const_count, vs::Vec4{}), stats_(basename(), "command front end"), acct_(stats_),
      commands_(stats_.counter("commands", "commands", "scene commands executed")),
      draw_count_(stats_.counter("draws", "draws", "draw commands sent to the tessellator (and on to the index fetch)")),
      decl_tokens_(stats_.counter("declaration_tokens", "tokens", "declaration tokens driven into the decoder")),
      stall_draw_q_(stats_.stall_reason("draw_queue_full", "a draw waits for space in the tessellator's queue",
                                                      StallKind::back_pressure("draws"))),
      stall_const_q_(stats_.stall_reason("constant_queue_full",
                                         "a constant batch waits for space in the constant loader's queue",
                                         StallKind::back_pressure("constants"))) {
    acct_.attach(probes, basename());
    if (probes) track_ = probes->track(basename());
    // Modelled addresses: each buffer at its own 4 KiB-aligned place.
    uint64_t next = 0x10000;
    address_.reserve(machine.scene().buffers.size());
    for (const auto& [name, b] : machine.scene().buffers) {
        address_.emplace_back(b.bytes.data(), next);
        next += (b.bytes.size() + 0xFFF) & ~uint64_t(0xFFF);
        next += 0x1000;
    }
    // By the bytes' address; of equal ones (empty buffers) the last, as a map assigned in this order.
    std::stable_sort(address_.begin(), address_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    size_t kept = 0;
    for (size_t i = 0; i < address_.size(); ++i) {
        if (i + 1 < address_.size() && address_[i + 1].first == address_[i].first) continue;
        address_[kept++] = address_[i];
    }
    address_.resize(kept);
}

const uint64_t* CommandFrontEnd::address_of(const uint8_t* data) const {
    const auto it = std::lower_bound(address_.begin(), address_.end(), data,
                                     [](const auto& e, const uint8_t* d) { return e.first < d; });
    return it != address_.end() && it->first == data ? &it->second : nullptr;
}

// The decoder's events for the declaration sent: they must be the golden decoder's, event for
// event; an ERROR event fails the command. The command is over.
Cycle CommandFrontEnd::decoded(Cycle now) {
    const DeclResult r = decoded_->pop(now);
    decl_tokens_ += r.tokens;
    decoding_ = false;
    const auto& events = r.events;
    size_t i = 0;
    while (i < events.size() && i < expected_.size() && events[i] == expected_[i]) ++i;
    if (i < events.size() || i < expected_.size())
        throw DeclDecoderMismatch(
            fmt::format("{}: CreateVertexShader: the declaration decoder gives {} events, the model {}; event {}: "
                        "model {} | rtl {}",
                        cmd_pointer_, events.size(), expected_.size(), i,
                        i < expected_.size() ? decl::to_string(expected_[i]) : "none",
                        i < events.size() ? decl::to_string(events[i]) : "none"),
            cmd_pointer_, tokens_);
    if (events.back().kind == decl::EventKind::Error)
        throw machine_.scene().error(cmd_pointer_, fmt::format("the declaration decoder rejected the declaration: {}",
                                                               decl::to_string(events.back())));
    if (probes_) probes_->span(track_, cmd_start_, now, "CreateVertexShader");
    ++commands_;
    ++next_;
    started_ = false;
    return now;
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
        // Busy until the decoder's events come back (their push wakes us); then the next command
        // begins in the same cycle.
        if (!decoded_->can_pop(now)) return kNever;
        decoded(now);
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
        // The golden decoder with the decoder's options: the two must agree event for event.
        decl::DecoderOptions o;
        o.const_count = decoder_.const_count;
        o.max_length = decoder_.max_length;
        expected_ = decl::decode(cv->declaration, o).events;
        cmd_pointer_ = c.pointer;
        tokens_ = cv->declaration;
        // (The decoder takes one declaration at a time and the front end waits for it: the
        // channel to it always has room.) The slot checks the decoder's pins against the cycle
        // contract's model with the same options, cycle by cycle.
        declarations_->push(DeclRequest{cv->declaration, c.pointer, o}, now);
        decoding_ = true;
        acct_.busy(now);
        return kNever;  // the decoder's events wake us
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
    } else if (auto* ub = std::get_if<scene::UpdateBuffer>(&c.body)) {
        // The bytes are in the machine's copy of the buffer at once; the draws in flight keep the
        // bytes they were issued with. The write is the CPU's (a Lock / Unlock), one state command here.
        machine_.update_buffer(c.pointer, *ub);
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
                const uint8_t* data = d->setup.streams[s].data;
                const uint64_t* at = address_of(data);
                // A buffer changed by UpdateBuffer: its bytes are a copy, its address the buffer's.
                if (!at)
                    if (const uint8_t* own = machine_.scene_bytes(s, data)) at = address_of(own);
                d->stream_address[s] = at ? *at : 0;
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

void CommandFrontEnd::finish(Cycle end) { acct_.finish(end); }

void CommandFrontEnd::retire(uint32_t id) {
    if (id >= draws_.size()) return;
    DrawState& d = *draws_[id];
    d.constants.reset();
    d.setup.constant_writes = {};
    d.setup.ff_state.reset();
    d.setup.ff_program.reset();
    d.setup.generated.reset();
    d.setup.written.clear();
}

void register_unit_command_front_end(UnitRegistry& r) {
    UnitType t;
    t.name = "front_end";
    t.what = "command front end: executes the scene's D3D8 commands in order";
    t.tables = {CommandFrontEndParams::table()};
    t.words = {"the command front end", "executing commands in {} of cycles", {}, {}};
    // The draws it has started (the progress line's "done/started draws").
    t.summary.metrics = {summed_metric("draws_started", 0, "draws", false)};
    t.needs = CommandFrontEndNeeds::bindings().needs();
    t.make = [](const UnitContext& c) {
        DeclDecoderParams decoder;
        decoder.max_length = c.params.needs<CommandFrontEndNeeds>().decl_max_length;
        return std::make_unique<CommandFrontEnd>(c.name.c_str(), c.params.of<CommandFrontEndParams>(), c.machine,
                                                 decl_decoder_params(decoder, c.machine.scene()), c.probes);
    };
    r.add(std::move(t));
}

}  // namespace vpsim::sc
