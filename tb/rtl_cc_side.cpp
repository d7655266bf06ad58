// The fast path's RTL side: the Verilated decoder in plain C++ mode, clocked by the loop in
// drive.h (two evaluations per cycle, no SystemC kernel).
#include "tb/drive.h"

#include "model/decl/decl_pin_fields.h"

#include "Vdecl_decoder.h"
#include "verilated.h"

#include <memory>

namespace vpsim::tb {

namespace {

class RtlSide {
public:
    RtlSide() : ctx_(std::make_unique<VerilatedContext>()) {
        ctx_->fatalOnError(false);  // an assertion failure is reported as a mismatch, not an abort
        top_ = std::make_unique<Vdecl_decoder>(ctx_.get(), "decl_decoder");
        reset();
    }
    ~RtlSide() { top_->final(); }

    void reset() {
        top_->rst = 1;
        top_->in_valid = 0;
        top_->out_ready = 0;
        for (int i = 0; i < 2; ++i) {
            top_->clk = 0;
            top_->eval();
            top_->clk = 1;
            top_->eval();
        }
        top_->clk = 0;
        top_->rst = 0;
        top_->eval();
    }
    void set_inputs(bool in_valid, uint32_t token, bool last, bool lenient, bool out_ready) {
        top_->clk = 0;
        decl::drive_inputs(*top_, in_valid, token, last, lenient, out_ready);
        top_->eval();
    }
    bool in_ready() const { return top_->in_ready; }
    bool out_valid() const { return top_->out_valid; }
    decl::Event event() const { return decl::event_from_outputs(*top_); }
    void clock() {
        top_->clk = 1;
        top_->eval();
    }
    bool broken() const { return ctx_->gotError(); }
    void clear_error() { ctx_->gotError(false); }

private:
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vdecl_decoder> top_;
};

SideResult run_on(RtlSide& side, const std::vector<uint32_t>& tokens, bool lenient, uint64_t bp_seed,
                  const Backpressure& bp) {
    SideResult r = drive_array(side, tokens, lenient, bp_seed, bp);
    if (r.timed_out || side.broken()) {  // leave a clean decoder for the next array
        r.assertion_failed = side.broken();
        side.clear_error();
        side.reset();
    }
    return r;
}

class BuiltinDut : public RtlDut {
public:
    SideResult run(const std::vector<uint32_t>& tokens, bool lenient, uint64_t bp_seed, const Backpressure& bp) override {
        return run_on(side_, tokens, lenient, bp_seed, bp);
    }

private:
    RtlSide side_;
};

}  // namespace

SideResult run_rtl(const std::vector<uint32_t>& tokens, bool lenient, uint64_t bp_seed, const Backpressure& bp) {
    static thread_local RtlSide side;
    return run_on(side, tokens, lenient, bp_seed, bp);
}

std::unique_ptr<RtlDut> builtin_rtl() { return std::make_unique<BuiltinDut>(); }

}  // namespace vpsim::tb
