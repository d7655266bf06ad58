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
    ~RtlSide() {
        use();
        top_->final();
        top_.reset();
    }

    // Verilator 5.006 keeps one "current context" per thread: a model's constructor sets it
    // (VerilatedSyms), and assertion failures ($error, $stop) and a model's destructor
    // (VerilatedScope) act on the current one, not the model's own. With several instances on
    // one thread (the corpus's, a waveform replay's, a test's), each must make its own context
    // current before it runs or goes, or errors land on another instance and a destructor
    // touches a context that may be gone.
    void use() {
        if (Verilated::threadContextp() != ctx_.get()) Verilated::threadContextp(ctx_.get());
    }

    void reset() {
        use();
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

void run_on(RtlSide& side, const std::vector<uint32_t>& tokens, bool lenient, uint64_t bp_seed, const Backpressure& bp,
            SideResult& r) {
    side.use();
    drive_array(side, tokens, lenient, bp_seed, bp, r);
    if (r.timed_out || side.broken()) {  // leave a clean decoder for the next array
        r.assertion_failed = side.broken();
        side.clear_error();
        side.reset();
    }
}

class BuiltinDut : public RtlDut {
public:
    void run_into(const std::vector<uint32_t>& tokens, bool lenient, uint64_t bp_seed, const Backpressure& bp,
                  SideResult& out) override {
        run_on(side_, tokens, lenient, bp_seed, bp, out);
    }
    void run_stream_into(const std::vector<StreamArray>& arrays, uint64_t bp_seed, const Backpressure& bp,
                         StreamResult& out) override {
        side_.use();
        drive_stream(side_, arrays, bp_seed, bp, out);
        if (out.timed_out || side_.broken()) {
            out.assertion_failed = side_.broken();
            side_.clear_error();
            side_.reset();
        }
    }
    void reset() override { side_.reset(); }

private:
    RtlSide side_;
};

}  // namespace

SideResult run_rtl(const std::vector<uint32_t>& tokens, bool lenient, uint64_t bp_seed, const Backpressure& bp) {
    static thread_local RtlSide side;
    SideResult r;
    run_on(side, tokens, lenient, bp_seed, bp, r);
    return r;
}

std::unique_ptr<RtlDut> builtin_rtl() { return std::make_unique<BuiltinDut>(); }

}  // namespace vpsim::tb
