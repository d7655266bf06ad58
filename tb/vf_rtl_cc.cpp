// The built-in rtl/vertex_fetch.sv, Verilated in plain C++ mode (library vf_rtl_cc), behind the
// vf::Pins interface: the cross-check and the pipeline's RTL unit clock it themselves.
#include "tb/vf_pins.h"

#include "Vvertex_fetch.h"
#include "verilated.h"

namespace vpsim::tb::vf {

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

class BuiltinPins : public Pins {
public:
    BuiltinPins() {
        // A new context makes itself the thread's current one (and so does a model's symbol
        // table): the caller's comes back once the model is made.
        VerilatedContext* const prev = Verilated::threadContextp();
        ctx_ = std::make_unique<VerilatedContext>();
        ctx_->fatalOnError(false);  // an assertion failure is reported, not an abort
        top_ = std::make_unique<Vvertex_fetch>(ctx_.get(), "vertex_fetch");
        Verilated::threadContextp(prev);
        reset();
    }
    ~BuiltinPins() override {
        {
            Use u(ctx_.get());
            top_->final();
            top_.reset();
        }
        // The context goes now: the last one made must not name it (a thread without a current
        // context takes that one).
        if (Verilated::lastContextp() == ctx_.get()) Verilated::lastContextp(Verilated::defaultContextp());
    }
    void set_inputs(const Inputs& in, bool layout_changed) override {
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
        t.eval();
    }
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
    void clock() override {
        Use u(ctx_.get());
        top_->clk = 1;
        top_->eval();
    }
    void reset() override {
        Inputs in;
        in.rst = true;
        for (int i = 0; i < 2; ++i) {
            set_inputs(in, true);
            clock();
        }
        in.rst = false;
        set_inputs(in, true);
    }
    bool broken() const override { return ctx_->gotError(); }
    void clear_error() override { ctx_->gotError(false); }

private:
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vvertex_fetch> top_;
};

}  // namespace

std::unique_ptr<Pins> builtin_vertex_fetch() { return std::make_unique<BuiltinPins>(); }

}  // namespace vpsim::tb::vf
