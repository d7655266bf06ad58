// The SystemC bench: the Verilated RTL (SystemC mode) and the SystemC unit DeclDecoderUnit in
// one simulation, one clock. Each has its own driver, fed the same arrays and the same
// per-cycle back-pressure draws, so their event lists and cycle counts can be compared.
#include "tb/xcheck.h"

#include "model/sc/decl_decoder_pins.h"
#include "model/sc/decl_decoder_unit.h"
#include "model/sc/sc_context.h"
#include "tb/decl_gen.h"

#include "Vdecl_decoder_sc.h"
#include "verilated.h"
#include "verilated_vcd_sc.h"

#include <systemc>

#include <memory>

namespace vpsim::tb {

using namespace sc_core;

namespace {

bool is_final(const decl::Event& e) { return e.kind == decl::EventKind::End || e.kind == decl::EventKind::Error; }

// Feeds the arrays one after another into one decoder and records what comes out.
class Driver : public sc_module {
public:
    Driver(const sc_module_name& n, sc_clock& clk, sc_signal<bool>& rst, sc::DeclDecoderPins& w,
           const std::vector<ArrayCase>& arrays, const Backpressure& bp, std::vector<SideResult>& results)
        : sc_module(n), rst_(rst), w_(w), arrays_(arrays), bp_(bp), results_(results), rng_(0) {
        SC_HAS_PROCESS(Driver);
        SC_METHOD(on_clock);
        sensitive << clk.posedge_event();
        dont_initialize();
        p_in_ = uint32_t(bp.in_valid * 4294967295.0);
        p_out_ = uint32_t(bp.out_ready * 4294967295.0);
    }
    bool done() const { return next_ >= arrays_.size() && !active_; }

private:
    void on_clock() {
        if (rst_.read()) return;
        if (active_) {
            const ArrayCase& a = arrays_[next_];
            if (w_.out_valid.read() && w_.out_ready.read()) {
                cur_.events.push_back(w_.event());
                final_seen_ = final_seen_ || is_final(cur_.events.back());
            }
            if (w_.in_valid.read() && w_.in_ready.read()) ++pos_;
            ++cur_.cycles;
            const size_t n = a.tokens.size();
            if (pos_ == n && final_seen_) {
                finish();
            } else if (cur_.cycles > limit_) {
                cur_.timed_out = true;
                finish();
                while (next_ < arrays_.size()) {  // the decoder is stuck: give up on this side
                    SideResult r;
                    r.timed_out = true;
                    results_.push_back(r);
                    ++next_;
                }
            }
        }
        if (!active_ && next_ < arrays_.size()) start();
        drive();
    }
    void start() {
        const ArrayCase& a = arrays_[next_];
        active_ = true;
        pos_ = 0;
        final_seen_ = false;
        cur_ = SideResult{};
        rng_ = Rng(a.bp_seed);
        const uint64_t n = a.tokens.size();
        limit_ = 64 + 8 * n + n * n / 4 + 40 * n;
    }
    void finish() {
        results_.push_back(std::move(cur_));
        active_ = false;
        ++next_;
    }
    // Inputs for the next cycle (the same draw per cycle as drive_array in drive.h).
    void drive() {
        if (!active_) {
            w_.drive(false, 0u, false, false, true);
            return;
        }
        const ArrayCase& a = arrays_[next_];
        const uint64_t draw = rng_.next();
        const bool in_valid = pos_ < a.tokens.size() && uint32_t(draw) <= p_in_;
        w_.drive(in_valid, in_valid ? a.tokens[pos_] : 0u, in_valid && pos_ + 1 == a.tokens.size(), a.lenient,
                 uint32_t(draw >> 32) <= p_out_);
    }

    sc_signal<bool>& rst_;
    sc::DeclDecoderPins& w_;
    const std::vector<ArrayCase>& arrays_;
    Backpressure bp_;
    std::vector<SideResult>& results_;
    Rng rng_;
    uint32_t p_in_ = 0, p_out_ = 0;
    size_t next_ = 0, pos_ = 0;
    bool active_ = false, final_seen_ = false;
    uint64_t limit_ = 0;
    SideResult cur_;
};

class Bench : public sc_module {
public:
    sc_clock clk{"clk", 10, SC_NS};
    sc_signal<bool> rst{"rst", true};  // in reset from time 0
    sc::DeclDecoderPins rtl_w{"rtl"}, model_w{"model"};
    Vdecl_decoder_sc rtl{"rtl"};
    sc::DeclDecoderUnit model{"model"};
    Driver rtl_drv, model_drv;

    Bench(const sc_module_name& n, const std::vector<ArrayCase>& arrays, const Backpressure& bp, ScBenchResult& out)
        : sc_module(n),
          rtl_drv("rtl_driver", clk, rst, rtl_w, arrays, bp, out.rtl),
          model_drv("model_driver", clk, rst, model_w, arrays, bp, out.model) {
        rtl_w.bind(rtl, clk, rst);
        model_w.bind(model, clk, rst);
        SC_HAS_PROCESS(Bench);
        SC_THREAD(control);
    }

private:
    void control() {
        rst.write(true);
        wait(25, SC_NS);
        rst.write(false);
        while (!(rtl_drv.done() && model_drv.done())) wait(clk.posedge_event());
        wait(clk.posedge_event());
        sc_stop();
    }
};

}  // namespace

ScBenchResult run_sc_bench(const std::vector<ArrayCase>& arrays, const Backpressure& bp, const std::string& vcd_prefix) {
    ScBenchResult out;
    sc::sc_fresh_context();
    sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", SC_DO_NOTHING);
    sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
    Verilated::traceEverOn(!vcd_prefix.empty());
    auto bench = std::make_unique<Bench>("bench", arrays, bp, out);
    sc_trace_file* tf = nullptr;
    std::unique_ptr<VerilatedVcdSc> vtf;
    if (!vcd_prefix.empty()) {
        tf = sc_create_vcd_trace_file((vcd_prefix + "_model").c_str());
        sc_trace(tf, bench->clk, "clk");
        sc_trace(tf, bench->rst, "rst");
        bench->model_w.trace(tf);
    }
    sc_start(SC_ZERO_TIME);
    if (!vcd_prefix.empty()) {
        vtf = std::make_unique<VerilatedVcdSc>();
        bench->rtl.trace(vtf.get(), 99);
        vtf->open((vcd_prefix + "_rtl.vcd").c_str());
    }
    sc_start();
    if (vtf) vtf->close();
    if (tf) sc_close_vcd_trace_file(tf);
    bench->rtl.final();
    bench.reset();
    // A side that never finished its arrays reports them as timed out.
    for (auto* v : {&out.rtl, &out.model})
        while (v->size() < arrays.size()) {
            SideResult r;
            r.timed_out = true;
            v->push_back(r);
        }
    return out;
}

}  // namespace vpsim::tb
