// The fast path's RTL side: the Verilated decoder in plain C++ mode, clocked by the loop in
// drive.h (no SystemC kernel). Each cycle runs the model's input-combinational region once
// (set_inputs) and its clocked region once (clock): see "One region per step" below.
#include "tb/drive.h"

#include "model/decl/decl_pin_fields.h"

#include "Vdecl_decoder.h"
#include "Vdecl_decoder___024root.h"
#include "verilated.h"

#include <memory>
#include <type_traits>

// Verilator 5.006's evaluation regions of the model (Vdecl_decoder___024root__DepSet_*.cpp),
// which its eval() calls: the input-combinational region (every combinational signal that depends
// on an input) and the NBA region (the flops on the rising edge of clk, the RTL's immediate
// assertions, then every combinational signal that depends on a flop).
void Vdecl_decoder___024root___eval_ico(Vdecl_decoder___024root* vlSelf);
void Vdecl_decoder___024root___eval_nba(Vdecl_decoder___024root* vlSelf);

namespace vpsim::tb {

namespace {

// One region per step. Verilator's eval() runs the input-combinational region on every call,
// then the edge triggers, then the NBA region if clk rose. Driven with eval() twice a cycle
// (inputs with clk low, then clk high), a cycle costs two input-combinational regions and one NBA
// region, and the second input-combinational region recomputes exactly what the first did: the
// inputs and the flops have not changed since, and the region does not read clk. So set_inputs
// runs only the input-combinational region and clock only the NBA region: the same signals, the
// same assertions, the same order, one region fewer per cycle and none of eval()'s trigger loops.
// This holds while the design has exactly one input-combinational trigger ("first iteration") and
// one active trigger (the rising edge of clk), checked here at compile time; the test "The
// built-in RTL driven region by region equals Verilator's eval()" compares every pin of every cycle
// of the two drivings. reset() uses eval() itself.
using Root = Vdecl_decoder___024root;
static_assert(std::is_same_v<decltype(Root::__VicoTriggered), VlTriggerVec<1>>, "one input-combinational trigger");
static_assert(std::is_same_v<decltype(Root::__VactTriggered), VlTriggerVec<1>>, "one active trigger: posedge clk");
static_assert(std::is_same_v<decltype(Root::__VnbaTriggered), VlTriggerVec<1>>, "one NBA trigger: posedge clk");

class RtlSide {
public:
    explicit RtlSide(RtlEval how = RtlEval::Regions)
        : ctx_(std::make_unique<VerilatedContext>()), regions_(how == RtlEval::Regions) {
        ctx_->fatalOnError(false);  // an assertion failure is reported as a mismatch, not an abort
        top_ = std::make_unique<Vdecl_decoder>(ctx_.get(), "decl_decoder");
        root_ = top_->rootp;
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
        if (!regions_) return top_->eval();
        root_->__VicoTriggered.at(0) = true;
        Vdecl_decoder___024root___eval_ico(root_);
        root_->__Vtrigrprev__TOP__clk = 0;  // as eval()'s trigger evaluation leaves it
    }
    bool in_ready() const { return top_->in_ready; }
    bool out_valid() const { return top_->out_valid; }
    decl::Event event() const { return decl::event_from_outputs(*top_); }
    void clock() {
        top_->clk = 1;
        if (!regions_) return top_->eval();
        root_->__VnbaTriggered.at(0) = true;
        Vdecl_decoder___024root___eval_nba(root_);
        root_->__Vtrigrprev__TOP__clk = 1;
    }
    bool broken() const { return ctx_->gotError(); }
    void clear_error() { ctx_->gotError(false); }

private:
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vdecl_decoder> top_;
    Root* root_ = nullptr;
    bool regions_;
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
    explicit BuiltinDut(RtlEval how) : side_(how) {}
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

std::unique_ptr<RtlDut> builtin_rtl(RtlEval how) { return std::make_unique<BuiltinDut>(how); }

}  // namespace vpsim::tb
