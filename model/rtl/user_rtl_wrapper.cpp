// A C ABI around the Verilated decoder (prefix Vdut), compiled by vpsim into the shared object of a
// user's design (model/rtl/user_rtl.cpp, build_user_rtl). Not part of vpsim's own build: the build embeds
// this text (model/rtl/embed_text.cmake), which is part of the RTL cache key.
#include "Vdut.h"
#include "verilated.h"
#if VM_COVERAGE
#include "verilated_cov.h"
#endif
#if VM_TRACE
#include "verilated_fst_c.h"
#endif
#include <cstdint>
#define VPSIM_API extern "C" __attribute__((visibility("default")))

namespace {
struct Dut {
    VerilatedContext ctx;
    Vdut* top = nullptr;
#if VM_TRACE
    VerilatedFstC* fst = nullptr;
#endif
    void dump() {
#if VM_TRACE
        if (fst) fst->dump(ctx.time());
#endif
    }
    // Verilator keeps a current context per thread, which assertion failures and a model's
    // destructor use: this instance's must be current (tb/rtl_cc_side.cpp, RtlSide::use).
    void use() {
        if (Verilated::threadContextp() != &ctx) Verilated::threadContextp(&ctx);  // (the setter also writes a global)
    }
    void eval(int clk) {
        use();
        top->clk = clk;
        top->eval();
        ctx.timeInc(5);
        dump();
    }
};
}  // namespace

VPSIM_API int vpsim_rtl_abi(void) { return 2; }
VPSIM_API int vpsim_rtl_features(void) { return (VM_COVERAGE ? 1 : 0) | (VM_TRACE ? 2 : 0); }
VPSIM_API void* vpsim_rtl_new(void) {
    Dut* d = new Dut;
    d->ctx.fatalOnError(false);
#if VM_TRACE
    d->ctx.traceEverOn(true);
#endif
    d->top = new Vdut(&d->ctx, "dut");
    return d;
}
VPSIM_API void vpsim_rtl_delete(void* p) {
    Dut* d = static_cast<Dut*>(p);
#if VM_TRACE
    if (d->fst) { d->fst->close(); delete d->fst; }
#endif
    d->use();
    d->top->final();
    delete d->top;
    delete d;
}
VPSIM_API void vpsim_rtl_reset(void* p) {
    Dut* d = static_cast<Dut*>(p);
    d->top->rst = 1;
    d->top->in_valid = 0;
    d->top->out_ready = 0;
    for (int i = 0; i < 2; ++i) { d->eval(0); d->eval(1); }
    d->top->rst = 0;
    d->eval(0);
}
// Every input including clk and rst as given, then one evaluation (the pipeline's pins, vpsim run
// --rtl decl_decoder=FILE); returns in_ready | out_valid << 1.
VPSIM_API unsigned vpsim_rtl_pins(void* p, unsigned clk, unsigned rst, unsigned in_valid, uint32_t token, unsigned last,
                                  unsigned lenient, unsigned out_ready) {
    Dut* d = static_cast<Dut*>(p);
    d->top->rst = rst;
    d->top->in_valid = in_valid;
    d->top->in_token = token;
    d->top->in_last = last;
    d->top->lenient = lenient;
    d->top->out_ready = out_ready;
    d->eval(clk);
    return (d->top->in_ready ? 1u : 0u) | (d->top->out_valid ? 2u : 0u);
}
// Drives the inputs with clk low (rst as it is); returns in_ready | out_valid << 1.
VPSIM_API unsigned vpsim_rtl_inputs(void* p, unsigned in_valid, uint32_t token, unsigned last, unsigned lenient,
                                    unsigned out_ready) {
    return vpsim_rtl_pins(p, 0, static_cast<Dut*>(p)->top->rst, in_valid, token, last, lenient, out_ready);
}
// kind, stream, value, code, reg, data x, y, z, w
VPSIM_API void vpsim_rtl_event(void* p, uint32_t* f) {
    const Vdut* t = static_cast<Dut*>(p)->top;
    f[0] = t->out_kind; f[1] = t->out_stream; f[2] = t->out_value; f[3] = t->out_code; f[4] = t->out_reg;
    for (int i = 0; i < 4; ++i) f[5 + i] = t->out_data[i];
}
VPSIM_API void vpsim_rtl_clock(void* p) { static_cast<Dut*>(p)->eval(1); }
VPSIM_API int vpsim_rtl_error(void* p, int clear) {
    Dut* d = static_cast<Dut*>(p);
    const int e = d->ctx.gotError() ? 1 : 0;
    if (clear) d->ctx.gotError(false);
    return e;
}
VPSIM_API int vpsim_rtl_coverage_write(void* p, const char* file) {
#if VM_COVERAGE
    static_cast<Dut*>(p)->ctx.coveragep()->write(file);
    return 1;
#else
    (void)p; (void)file;
    return 0;
#endif
}
VPSIM_API int vpsim_rtl_trace_open(void* p, const char* file) {
#if VM_TRACE
    Dut* d = static_cast<Dut*>(p);
    if (d->fst) { d->fst->close(); delete d->fst; }
    d->fst = new VerilatedFstC;
    d->top->trace(d->fst, 99);
    d->fst->open(file);
    d->ctx.time(0);
    d->dump();
    return d->fst->isOpen() ? 1 : 0;
#else
    (void)p; (void)file;
    return 0;
#endif
}
// Traced builds wrap the design in the harness vpsim_wave_top (scope `golden` beside `dut`): the
// model's pins for this cycle, shown in the waveform next to the design's.
VPSIM_API int vpsim_rtl_golden(void* p, unsigned in_ready, unsigned out_valid, const uint32_t* f) {
#if VPSIM_HARNESS
    Vdut* t = static_cast<Dut*>(p)->top;
    t->golden_in_ready = in_ready;
    t->golden_out_valid = out_valid;
    t->golden_kind = f[0]; t->golden_stream = f[1]; t->golden_value = f[2]; t->golden_code = f[3]; t->golden_reg = f[4];
    for (int i = 0; i < 4; ++i) t->golden_data[i] = f[5 + i];
    return 1;
#else
    (void)p; (void)in_ready; (void)out_valid; (void)f;
    return 0;
#endif
}
VPSIM_API void vpsim_rtl_trace_close(void* p) {
#if VM_TRACE
    Dut* d = static_cast<Dut*>(p);
    if (d->fst) { d->fst->close(); delete d->fst; d->fst = nullptr; }
#else
    (void)p;
#endif
}
