// The DPI-C face of the vertex fetch unit's golden side (vpsim_golden_pkg.sv, class fetch_model):
// DPI's basic types only (chandle, int, string). A handle collects a declaration's tokens, the
// streams' base and stride and the memory the testbench's memory model serves (written a DWORD at a
// time), then gives the layout bus, out_loaded and out_regs of a vertex (vpsim_fetch_unit_*,
// model/capi/vpsim_golden.h). A failing call returns -1; vpsim_dpi_fetch_error gives its message.
// docs/dpi.md.
#include "model/capi/vpsim_golden.h"

#include <cstdio>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#define VPSIM_API extern "C" __attribute__((visibility("default")))

namespace {

struct DpiFetch {
    std::vector<uint32_t> tokens;
    vpsim_fetch_unit* unit = nullptr;
    int max_elems = 20;
    uint32_t base[16] = {}, stride[16] = {};
    std::unordered_map<uint32_t, uint8_t> mem;  // byte address -> byte (what the testbench wrote)
    uint32_t regs[64] = {};
    std::string error;
    ~DpiFetch() { vpsim_fetch_unit_free(unit); }
};

int memory_read(void* ctx, uint32_t addr, uint32_t n, uint8_t* out) {
    const auto& mem = static_cast<const DpiFetch*>(ctx)->mem;
    for (uint32_t i = 0; i < n; ++i) {
        const auto it = mem.find(addr + i);  // mod 2^32
        if (it == mem.end()) return 0;
        out[i] = it->second;
    }
    return 1;
}

DpiFetch* get(void* h) { return static_cast<DpiFetch*>(h); }

int fail(DpiFetch* d, const char* m) {
    d->error = m;
    return -1;
}

}  // namespace

// max_elems: the fetch unit's MAX_ELEMS (1..63); NULL otherwise.
VPSIM_API void* vpsim_dpi_fetch_new(int max_elems) {
    if (max_elems < 1 || max_elems > int(VPSIM_FETCH_UNIT_MAX_ELEMS)) return nullptr;
    DpiFetch* d = new (std::nothrow) DpiFetch;
    if (d) d->max_elems = max_elems;
    return d;
}
VPSIM_API void vpsim_dpi_fetch_free(void* h) {
    try {
        delete get(h);
    } catch (...) {
    }
}
// The last failure's message ("" when none); valid until the next call on the handle.
VPSIM_API const char* vpsim_dpi_fetch_error(void* h) { return h ? get(h)->error.c_str() : "vpsim_dpi_fetch: a null handle"; }

// The declaration: tokens one at a time, then vpsim_dpi_fetch_decl (0, or -1 with a message).
VPSIM_API int vpsim_dpi_fetch_token(void* h, int token) {
    if (!h) return -1;
    try {
        get(h)->tokens.push_back(uint32_t(token));
        return 0;
    } catch (...) {
        return fail(get(h), "vpsim_dpi_fetch_token: out of memory");
    }
}
VPSIM_API int vpsim_dpi_fetch_decl(void* h) {
    DpiFetch* d = get(h);
    if (!d) return -1;
    char err[512];
    vpsim_fetch_unit* u = vpsim_fetch_unit_new(d->tokens.data(), d->tokens.size(), uint32_t(d->max_elems), err, sizeof err);
    d->tokens.clear();
    vpsim_fetch_unit_free(d->unit);
    d->unit = u;
    if (!u) return fail(d, err);
    d->error.clear();
    return 0;
}
// lay_count of the declaration (-1 before a valid one), and lay_elems word k (0 beyond lay_count).
VPSIM_API int vpsim_dpi_fetch_lay_count(void* h) {
    if (!h || !get(h)->unit) return h ? fail(get(h), "vpsim_dpi_fetch_lay_count: no valid declaration") : -1;
    return vpsim_fetch_unit_layout(get(h)->unit, nullptr, 0);
}
VPSIM_API int vpsim_dpi_fetch_lay_elem(void* h, int k) {
    if (!h || !get(h)->unit || k < 0) return 0;
    uint32_t w[VPSIM_FETCH_UNIT_MAX_ELEMS] = {};
    const int n = vpsim_fetch_unit_layout(get(h)->unit, w, VPSIM_FETCH_UNIT_MAX_ELEMS);
    return k < n ? int(w[k]) : 0;
}
VPSIM_API int vpsim_dpi_fetch_loaded(void* h) { return h ? int(vpsim_fetch_unit_loaded(get(h)->unit)) : 0; }

// Stream s's str_base and str_stride (s 0..15; -1 otherwise).
VPSIM_API int vpsim_dpi_fetch_stream(void* h, int s, int base, int stride) {
    if (!h) return -1;
    if (s < 0 || s > 15) return fail(get(h), "vpsim_dpi_fetch_stream: the stream is outside 0..15");
    get(h)->base[s] = uint32_t(base);
    get(h)->stride[s] = uint32_t(stride);
    return 0;
}
// Memory: the DWORD `data` at byte address addr (its bytes at addr .. addr+3, little-endian, mod
// 2^32); clear forgets every byte written.
VPSIM_API int vpsim_dpi_fetch_mem_write(void* h, int addr, int data) {
    if (!h) return -1;
    try {
        for (uint32_t i = 0; i < 4; ++i) get(h)->mem[uint32_t(addr) + i] = uint8_t(uint32_t(data) >> (8 * i));
        return 0;
    } catch (...) {
        return fail(get(h), "vpsim_dpi_fetch_mem_write: out of memory");
    }
}
VPSIM_API void vpsim_dpi_fetch_mem_clear(void* h) {
    if (h) get(h)->mem.clear();
}
// Vertex `index`: 0 and out_regs for vpsim_dpi_fetch_reg, or -1 (no declaration, a byte the memory
// was not given).
VPSIM_API int vpsim_dpi_fetch_vertex(void* h, int index) {
    DpiFetch* d = get(h);
    if (!d) return -1;
    if (!d->unit) return fail(d, "vpsim_dpi_fetch_vertex: no valid declaration (vpsim_dpi_fetch_decl)");
    char err[512];
    if (vpsim_fetch_unit_vertex(d->unit, d->base, d->stride, uint32_t(index), memory_read, d, d->regs, err, sizeof err) != 0)
        return fail(d, err);
    d->error.clear();
    return 0;
}
// out_regs[128r + 32c + 31 : 128r + 32c] of the last vertex (r 0..15, c 0..3; 0 otherwise).
VPSIM_API int vpsim_dpi_fetch_reg(void* h, int r, int c) {
    if (!h || r < 0 || r > 15 || c < 0 || c > 3) return 0;
    return int(get(h)->regs[4 * r + c]);
}
