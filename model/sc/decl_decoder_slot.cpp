#include "model/sc/decl_decoder_slot.h"

#include <fmt/format.h>

#include <stdexcept>

namespace vpsim::sc {

using namespace sc_core;

DeclDecoderParams decl_decoder_params(DeclDecoderParams p, const scene::Scene& s) {
    p.const_count = s.const_count;
    return p;
}

DeclDecoderSlot::DeclDecoderSlot(const sc_module_name& n, const DeclDecoderParams& p, const DeclDecoderImpl& decoder,
                                 std::function<void(Cycle)> sync)
    : TimedUnit(n), pins_("decl"), sync_(std::move(sync)) {
    decoder_ = (decoder.make ? decoder.make : model_decl_decoder().make)(basename(), p, pins_);
    if (decoder_->stats().unit() != basename())
        throw std::logic_error(std::string("unit ") + basename() + ": the declaration decoder's statistics are group " +
                               decoder_->stats().unit() + " (a decoder slot must be named decl_decoder)");
    decoder_->stats().hold_open(this);
}

// One rising and falling clock edge of the decoder, in delta cycles: its processes run on the
// rising edge, and its outputs have settled when this returns.
void DeclDecoderSlot::clock_decoder() {
    pins_.clk.write(true);
    wait(SC_ZERO_TIME);
    wait(SC_ZERO_TIME);
    pins_.clk.write(false);
}

void DeclDecoderSlot::check_beside(bool in_valid, uint32_t token, bool last) {
    decl::DeclDecoderTiming& m = *beside_;
    std::string d;
    auto pin = [&](const char* name, bool model, bool rtl) {
        if (model != rtl) d += fmt::format("{}{} model {} | rtl {}", d.empty() ? "" : "; ", name, int(model), int(rtl));
    };
    pin("in_ready", m.in_ready(true), pins_.in_ready.read());
    pin("out_valid", m.out_valid(), pins_.out_valid.read());
    if (d.empty() && m.out_valid() && m.out() != pins_.event())
        d = fmt::format("event {}: model {} | rtl {}", result_.events.size(), decl::to_string(m.out()),
                        decl::to_string(pins_.event()));
    if (!d.empty())
        throw DeclDecoderMismatch(fmt::format("{}: CreateVertexShader: the declaration decoder differs from the model "
                                              "(the cycle contract, docs/decl-decoder.md) at cycle {} of the decode: {}",
                                              pointer_, decode_clocks_, d),
                                  pointer_, tokens_);
    m.tick(in_valid, token, last, false, true);
    ++decode_clocks_;
}

// One clock of the decoder, in kernel time: drive the token, raise the clock, let the decoder's
// processes run, collect the event it delivers.
Cycle DeclDecoderSlot::decode_cycle(Cycle now) {
    sync_(now);
    if (!reset_done_) {
        // A synchronous reset before the first token, in delta cycles: no cycle of the run.
        pins_.rst.write(true);
        wait(SC_ZERO_TIME);
        clock_decoder();
        pins_.rst.write(false);
        wait(SC_ZERO_TIME);
        reset_done_ = true;
    }
    if (final_seen_) {
        // The END (or ERROR) event is taken at this edge; the decode is over.
        pins_.drive(false, 0u, false, false, true);
        wait(SC_ZERO_TIME);
        check_beside(false, 0u, false);
        clock_decoder();
        ++clocks_;
        decoding_ = false;
        final_seen_ = false;
        out_->push(std::move(result_), now);
        return now + 1;
    }
    const bool offer = token_pos_ < tokens_.size();
    pins_.drive(offer, offer ? tokens_[token_pos_] : 0u, offer && token_pos_ + 1 == tokens_.size(), false, true);
    wait(SC_ZERO_TIME);
    check_beside(offer, offer ? tokens_[token_pos_] : 0u, offer && token_pos_ + 1 == tokens_.size());
    const bool fire = offer && pins_.in_ready.read();
    clock_decoder();
    ++clocks_;
    if (fire) {
        ++token_pos_;
        ++result_.tokens;
    }
    if (pins_.out_valid.read()) {
        const decl::Event e = pins_.event();
        result_.events.push_back(e);
        if (e.kind == decl::EventKind::End || e.kind == decl::EventKind::Error) final_seen_ = true;
    }
    return now + 1;
}

Cycle DeclDecoderSlot::step(Cycle now) {
    if (!decoding_) {
        if (!in_->can_pop(now)) return in_->next_pop(now);
        // The front end waits for one declaration at a time: the result channel has room.
        DeclRequest r = in_->pop(now);
        tokens_ = std::move(r.tokens);
        pointer_ = std::move(r.pointer);
        beside_.emplace(r.options);
        decode_clocks_ = 0;
        token_pos_ = 0;
        result_ = DeclResult{};
        decoding_ = true;
    }
    return decode_cycle(now);
}

UnitFactory decl_decoder_factory(DeclDecoderImpl decoder) {
    return [decoder](const UnitContext& c) {
        const DeclDecoderParams p = decl_decoder_params(c.params.of<DeclDecoderParams>(), c.machine.scene());
        // An implementation that cannot take these parameters (a Verilated RTL's fixed ones) is
        // refused before it is built.
        if (decoder.cannot_build) {
            const std::string why = decoder.cannot_build(p);
            if (!why.empty()) throw ParamError(why);
        }
        return std::make_unique<DeclDecoderSlot>(c.name.c_str(), p, decoder, c.sync);
    };
}

void register_unit_decl_decoder_slot(UnitRegistry& r) {
    UnitType t;
    t.name = "decl_decoder";
    t.what = "declaration decoder: token array to stream/element/tessellator/constant events (behind its pins)";
    t.tables = {DeclDecoderParams::table()};
    t.roles = {"decl_decoder"};  // (the front end reads its max_length: CommandFrontEndNeeds)
    t.words = {"the declaration decoder", "decoding tokens in {} of cycles", {}, {}};
    t.make = decl_decoder_factory(model_decl_decoder());
    r.add(std::move(t));
}

}  // namespace vpsim::sc
