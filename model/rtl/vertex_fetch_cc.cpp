// The built-in rtl/vertex_fetch.sv, Verilated in plain C++ mode (library decl_rtl_cc), behind the
// vf::Pins interface (model/rtl/vertex_fetch_pins.h): the cross-check and the pipeline's RTL unit
// clock it themselves.
#include "model/rtl/vertex_fetch_pins.h"

#include "Vvertex_fetch.h"
#include "Vvertex_fetch___024root.h"
#include "verilated.h"

#include <type_traits>

// Verilator 5.006's evaluation regions of the model, which its eval() calls (tb/rtl_cc_side.cpp,
// "One region per step", explains why running them one at a time is the same evaluation).
void Vvertex_fetch___024root___eval_ico(Vvertex_fetch___024root* vlSelf);
void Vvertex_fetch___024root___eval_nba(Vvertex_fetch___024root* vlSelf);

namespace vpsim::rtl::vf {

namespace {

// Verilator keeps one current context per thread (docs/xcheck.md, "Verilator's current context"),
// which its run-time uses for assertion failures ($error, $fatal) and scope bookkeeping. Each call
// makes this design's context current and puts the caller's back when it returns: in the pipeline
// another Verilated model (the RTL declaration decoder) runs on the same thread with its own, and
// a context must not stay current after it is deleted.
class Use {
public:
    explicit Use(VerilatedContext* c) : prev_(Verilated::threadContextp()), ctx_(c) {
        if (prev_ != ctx_) Verilated::threadContextp(ctx_);
    }
    ~Use() {
        if (prev_ != ctx_) Verilated::threadContextp(prev_);
    }
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;

private:
    VerilatedContext* prev_;
    VerilatedContext* ctx_;
};

// One region per step, as for the declaration decoder (tb/rtl_cc_side.cpp): set_inputs runs the
// input-combinational region, clock the NBA region (the flops and the assertions); reset uses
// eval() itself, which also runs the model's initial blocks the first time. Valid while the design
// has one input-combinational and one active trigger (the rising edge of clk), checked here; the
// test "The built-in vertex fetch driven region by region equals Verilator's eval()" compares
// every output of every cycle of the two drivings.
using Root = Vvertex_fetch___024root;
static_assert(std::is_same_v<decltype(Root::__VicoTriggered), VlTriggerVec<1>>, "one input-combinational trigger");
static_assert(std::is_same_v<decltype(Root::__VactTriggered), VlTriggerVec<1>>, "one active trigger: posedge clk");
static_assert(std::is_same_v<decltype(Root::__VnbaTriggered), VlTriggerVec<1>>, "one NBA trigger: posedge clk");

class BuiltinPins : public Pins {
public:
    explicit BuiltinPins(Eval how) : regions_(how == Eval::Regions) {
        // A new context makes itself the thread's current one (and so does a model's symbol
        // table): the caller's comes back once the model is made.
        VerilatedContext* const prev = Verilated::threadContextp();
        ctx_ = std::make_unique<VerilatedContext>();
        ctx_->fatalOnError(false);  // an assertion failure is reported, not an abort
        top_ = std::make_unique<Vvertex_fetch>(ctx_.get(), "vertex_fetch");
        root_ = top_->rootp;
        Verilated::threadContextp(prev);
        reset();
    }
    ~BuiltinPins() override {
        {
            Use u(ctx_.get());
            top_->final();
            top_.reset();
        }
        // The context goes now: neither this thread (make_current) nor the last one made may name
        // it (a thread without a current context takes that one).
        if (Verilated::threadContextp() == ctx_.get()) Verilated::threadContextp(Verilated::defaultContextp());
        if (Verilated::lastContextp() == ctx_.get()) Verilated::lastContextp(Verilated::defaultContextp());
    }
    void set_inputs(const Inputs& in, bool layout_changed) override { drive(in, layout_changed, regions_); }
    void outputs(Outputs& o, bool regs) const override {
        const Vvertex_fetch& t = *top_;
        o.idx_ready = t.idx_ready;
        o.mem_req_valid = t.mem_req_valid;
        o.mem_req_addr = t.mem_req_addr;
        o.mem_req_words = t.mem_req_words;
        o.out_valid = t.out_valid;
        o.out_index = t.out_index;
        o.out_loaded = t.out_loaded;
        if (regs)
            for (unsigned k = 0; k < kRegs * 4; ++k) o.out_regs[k] = t.out_regs[k];
    }
    void clock() override { edge(regions_); }
    void reset() override {
        Inputs in;
        in.rst = true;
        for (int i = 0; i < 2; ++i) {
            drive(in, true, false);
            edge(false);
        }
        in.rst = false;
        drive(in, true, false);
    }
    bool broken() const override { return ctx_->gotError(); }
    void clear_error() override { ctx_->gotError(false); }
    void make_current() override {
        if (Verilated::threadContextp() != ctx_.get()) Verilated::threadContextp(ctx_.get());
    }

private:
    // clk low and the inputs, then the input-combinational region (`regions`) or eval().
    void drive(const Inputs& in, bool layout_changed, bool regions) {
        Use u(ctx_.get());
        Vvertex_fetch& t = *top_;
        t.clk = 0;
        t.rst = in.rst;
        t.idx_valid = in.idx_valid;
        t.idx_index = in.idx_index;
        t.idx_flush = in.idx_flush;
        if (layout_changed) {
            t.lay_count = uint8_t(in.lay_count);
            for (unsigned k = 0; k < kMaxElems; ++k) t.lay_elems[k] = in.lay_elems[k];
            for (unsigned s = 0; s < 16; ++s) {
                t.str_base[s] = in.str_base[s];
                t.str_stride[s] = in.str_stride[s];
            }
        }
        t.mem_req_ready = in.mem_req_ready;
        t.mem_resp_valid = in.mem_resp_valid;
        for (unsigned k = 0; k < 4; ++k) t.mem_resp_data[k] = in.mem_resp_data[k];
        t.out_ready = in.out_ready;
        if (!regions) return t.eval();
        root_->__VicoTriggered.at(0) = true;
        Vvertex_fetch___024root___eval_ico(root_);
        root_->__Vtrigrprev__TOP__clk = 0;  // as eval()'s trigger evaluation leaves it
    }
    // The rising edge: the NBA region (`regions`) or eval().
    void edge(bool regions) {
        Use u(ctx_.get());
        top_->clk = 1;
        if (!regions) return top_->eval();
        root_->__VnbaTriggered.at(0) = true;
        Vvertex_fetch___024root___eval_nba(root_);
        root_->__Vtrigrprev__TOP__clk = 1;
    }

    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vvertex_fetch> top_;
    Root* root_ = nullptr;
    bool regions_;
};

}  // namespace

std::unique_ptr<Pins> builtin_vertex_fetch(Eval how) { return std::make_unique<BuiltinPins>(how); }

}  // namespace vpsim::rtl::vf
