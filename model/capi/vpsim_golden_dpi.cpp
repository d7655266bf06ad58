// The DPI-C face of the golden library (vpsim_golden_pkg.sv imports these): only DPI's basic
// types (chandle = void*, int = int, output int = int*), so any simulator's DPI loads them from
// libvpsim_golden_c.so (-sv_lib). Each handle keeps the events of its last step for
// vpsim_dpi_*_event to read. docs/dpi.md.
#include "model/capi/vpsim_golden.h"

#include <new>

#define VPSIM_API extern "C" __attribute__((visibility("default")))

namespace {
struct DpiStepper {
    vpsim_decl_stepper* s = nullptr;
    vpsim_event ev[2]{};
    int n = 0;
};
struct DpiTiming {
    vpsim_decl_timing* t = nullptr;
};
void put(const vpsim_event& e, int* kind, int* stream, int* value, int* code, int* reg, int* d0, int* d1, int* d2, int* d3) {
    *kind = int(e.kind);
    *stream = int(e.stream);
    *value = int(e.value);
    *code = int(e.code);
    *reg = int(e.reg);
    *d0 = int(e.data[0]);
    *d1 = int(e.data[1]);
    *d2 = int(e.data[2]);
    *d3 = int(e.data[3]);
}
}  // namespace

VPSIM_API int vpsim_dpi_abi(void) { return vpsim_golden_abi(); }

VPSIM_API void* vpsim_dpi_decl_new(int const_count, int max_length) {
    if (const_count < 1 || max_length < 1) return nullptr;
    vpsim_decl_stepper* s = vpsim_decl_stepper_new(uint32_t(const_count), uint32_t(max_length));
    if (!s) return nullptr;
    DpiStepper* d = new (std::nothrow) DpiStepper;
    if (!d) {
        vpsim_decl_stepper_free(s);
        return nullptr;
    }
    d->s = s;
    return d;
}
VPSIM_API void vpsim_dpi_decl_free(void* h) {
    DpiStepper* d = static_cast<DpiStepper*>(h);
    if (!d) return;
    vpsim_decl_stepper_free(d->s);
    delete d;
}
VPSIM_API void vpsim_dpi_decl_reset(void* h) {
    if (h) vpsim_decl_stepper_reset(static_cast<DpiStepper*>(h)->s);
}
// One token; returns the number of events (0, 1, 2) it produced, -1 for a NULL handle.
VPSIM_API int vpsim_dpi_decl_step(void* h, int token, int last, int lenient) {
    DpiStepper* d = static_cast<DpiStepper*>(h);
    if (!d) return -1;
    d->n = vpsim_decl_stepper_step(d->s, uint32_t(token), last, lenient, d->ev);
    return d->n;
}
// Event i (0 or 1) of the last step; -1 when there is no such event.
VPSIM_API int vpsim_dpi_decl_event(void* h, int i, int* kind, int* stream, int* value, int* code, int* reg, int* d0, int* d1,
                                   int* d2, int* d3) {
    DpiStepper* d = static_cast<DpiStepper*>(h);
    if (!d || i < 0 || i >= d->n) return -1;
    put(d->ev[i], kind, stream, value, code, reg, d0, d1, d2, d3);
    return 0;
}

VPSIM_API void* vpsim_dpi_timing_new(int const_count, int max_length) {
    if (const_count < 1 || max_length < 1) return nullptr;
    vpsim_decl_timing* t = vpsim_decl_timing_new(uint32_t(const_count), uint32_t(max_length));
    if (!t) return nullptr;
    DpiTiming* d = new (std::nothrow) DpiTiming;
    if (!d) {
        vpsim_decl_timing_free(t);
        return nullptr;
    }
    d->t = t;
    return d;
}
VPSIM_API void vpsim_dpi_timing_free(void* h) {
    DpiTiming* d = static_cast<DpiTiming*>(h);
    if (!d) return;
    vpsim_decl_timing_free(d->t);
    delete d;
}
VPSIM_API void vpsim_dpi_timing_reset(void* h) {
    if (h) vpsim_decl_timing_reset(static_cast<DpiTiming*>(h)->t);
}
VPSIM_API int vpsim_dpi_timing_in_ready(void* h, int out_ready) {
    return h ? vpsim_decl_timing_in_ready(static_cast<DpiTiming*>(h)->t, out_ready) : 0;
}
// out_valid, and the output event's fields (0 while out_valid is low).
VPSIM_API int vpsim_dpi_timing_out(void* h, int* kind, int* stream, int* value, int* code, int* reg, int* d0, int* d1, int* d2,
                                   int* d3) {
    vpsim_event e{};
    const vpsim_decl_timing* t = h ? static_cast<DpiTiming*>(h)->t : nullptr;
    vpsim_decl_timing_out(t, &e);
    put(e, kind, stream, value, code, reg, d0, d1, d2, d3);
    return t ? vpsim_decl_timing_out_valid(t) : 0;
}
VPSIM_API int vpsim_dpi_timing_tick(void* h, int in_valid, int token, int last, int lenient, int out_ready) {
    return h ? vpsim_decl_timing_tick(static_cast<DpiTiming*>(h)->t, in_valid, uint32_t(token), last, lenient, out_ready) : 0;
}
