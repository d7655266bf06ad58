// The DPI-C face of the vs.1.1 reference interpreter (vpsim_golden_pkg.sv, class shader_model):
// DPI's basic types only (chandle, int, string). A handle collects the bytecode a token at a time,
// decodes and validates it (vpsim_shader_new), holds the inputs v0..v15 and constants c0..c95 as
// float bits, runs one vertex (vpsim_shader_run) and gives the outputs' bits. A failing call
// returns -1; vpsim_dpi_shader_error gives its message. docs/dpi.md.
#include "model/capi/vpsim_golden.h"
#include "model/common/float_bits.h"

#include <new>
#include <string>
#include <vector>

#define VPSIM_API extern "C" __attribute__((visibility("default")))

namespace {

struct DpiShader {
    std::vector<uint32_t> bytecode;
    vpsim_shader* shader = nullptr;
    float inputs[16][4] = {};
    float constants[VPSIM_SHADER_CONSTANTS][4] = {};
    vpsim_vertex_out out{};
    std::string error;
    ~DpiShader() { vpsim_shader_free(shader); }
};

DpiShader* get(void* h) { return static_cast<DpiShader*>(h); }

int fail(DpiShader* d, const std::string& m) {
    d->error = m;
    return -1;
}

float from_bits(int b) { return vpsim::bits_float(uint32_t(b)); }
int to_bits(float f) { return int(vpsim::float_bits(f)); }

}  // namespace

VPSIM_API void* vpsim_dpi_shader_new(void) { return new (std::nothrow) DpiShader; }
VPSIM_API void vpsim_dpi_shader_free(void* h) {
    try {
        delete get(h);
    } catch (...) {
    }
}
// The last failure's message ("" when none); valid until the next call on the handle.
VPSIM_API const char* vpsim_dpi_shader_error(void* h) { return h ? get(h)->error.c_str() : "vpsim_dpi_shader: a null handle"; }

// The bytecode: tokens one at a time (version token to END), then vpsim_dpi_shader_load (0, or -1
// with a message: bytecode that does not decode or validate as vs.1.1, D3D8 profile).
VPSIM_API int vpsim_dpi_shader_token(void* h, int token) {
    if (!h) return -1;
    try {
        get(h)->bytecode.push_back(uint32_t(token));
        return 0;
    } catch (...) {
        return fail(get(h), "vpsim_dpi_shader_token: out of memory");
    }
}
VPSIM_API int vpsim_dpi_shader_load(void* h) {
    DpiShader* d = get(h);
    if (!d) return -1;
    char err[512] = "";
    vpsim_shader* s = vpsim_shader_new(d->bytecode.data(), d->bytecode.size(), err, sizeof err);
    d->bytecode.clear();
    vpsim_shader_free(d->shader);
    d->shader = s;
    if (!s) return fail(d, err);
    d->error.clear();
    return 0;
}
// Input v_r component c (r 0..15, c 0..3: x..w) and constant c_r component c (r 0..95), as float bits.
VPSIM_API int vpsim_dpi_shader_input(void* h, int r, int c, int bits) {
    if (!h) return -1;
    if (r < 0 || r > 15 || c < 0 || c > 3)
        return fail(get(h), "vpsim_dpi_shader_input: v" + std::to_string(r) + " component " + std::to_string(c) +
                                " is outside v0..v15, components 0..3");
    get(h)->inputs[r][c] = from_bits(bits);
    return 0;
}
VPSIM_API int vpsim_dpi_shader_const(void* h, int r, int c, int bits) {
    if (!h) return -1;
    if (r < 0 || r >= int(VPSIM_SHADER_CONSTANTS) || c < 0 || c > 3)
        return fail(get(h), "vpsim_dpi_shader_const: c" + std::to_string(r) + " component " + std::to_string(c) +
                                " is outside c0..c95 (the D3D8 profile), components 0..3");
    get(h)->constants[r][c] = from_bits(bits);
    return 0;
}
// One vertex with the inputs and constants given: 0, or -1 (no shader loaded).
VPSIM_API int vpsim_dpi_shader_run(void* h) {
    DpiShader* d = get(h);
    if (!d) return -1;
    if (!d->shader) return fail(d, "vpsim_dpi_shader_run: no valid shader (vpsim_dpi_shader_load)");
    char err[512] = "";
    if (vpsim_shader_run(d->shader, d->inputs, d->constants, VPSIM_SHADER_CONSTANTS, &d->out, err, sizeof err) != 0)
        return fail(d, err);
    d->error.clear();
    return 0;
}
// Output register o, component c, of the last run, as float bits: o 0 oPos, 1 oD0, 2 oD1, 3 oFog
// (c 0), 4 oPts (c 0), 5..12 oT0..oT7; 0 otherwise.
VPSIM_API int vpsim_dpi_shader_out(void* h, int o, int c) {
    if (!h || o < 0 || o > 12 || c < 0 || c > 3) return 0;
    const vpsim_vertex_out& v = get(h)->out;
    switch (o) {
    case 0: return to_bits(v.pos[c]);
    case 1: return to_bits(v.d0[c]);
    case 2: return to_bits(v.d1[c]);
    case 3: return c == 0 ? to_bits(v.fog) : 0;
    case 4: return c == 0 ? to_bits(v.pts) : 0;
    default: return to_bits(v.t[o - 5][c]);
    }
}
