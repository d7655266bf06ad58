// The C ABI of the vertex fetch unit's golden side (vpsim_fetch_unit_*, model/capi/vpsim_golden.h)
// over model/vs/vs_fetch_unit.h. docs/dpi.md.
#include "model/capi/vpsim_golden.h"

#include "model/decl/decl_decoder.h"
#include "model/vs/vs_fetch_unit.h"

#include <fmt/format.h>

#include <cstdio>
#include <algorithm>
#include <exception>
#include <memory>
#include <new>
#include <string>

#define VPSIM_API extern "C" __attribute__((visibility("default")))

using namespace vpsim;

struct vpsim_fetch_unit {
    decl::Declaration decl;
    std::vector<uint32_t> layout;
    uint32_t loaded = 0;
};

namespace {

void put_error(char* err, size_t size, const std::string& m) {
    if (err && size) std::snprintf(err, size, "%s", m.c_str());
}

// The first error diagnostic of a declaration that is not valid.
std::string invalid_text(const decl::Declaration& d) {
    std::string m = "the declaration is not valid";
    for (const auto& diag : d.diagnostics)
        if (diag.severity == decl::Severity::Error) return m + ": " + decl::to_string(diag);
    return m;
}

}  // namespace

VPSIM_API vpsim_fetch_unit* vpsim_fetch_unit_new(const uint32_t* tokens, size_t n, uint32_t max_elems, char* err,
                                                 size_t err_size) {
    if (!tokens && n) {
        put_error(err, err_size, "vpsim_fetch_unit_new: tokens is NULL with n > 0");
        return nullptr;
    }
    if (n > SIZE_MAX / sizeof(uint32_t)) {
        put_error(err, err_size, fmt::format("vpsim_fetch_unit_new: n = {} tokens is more than an array in memory can hold", n));
        return nullptr;
    }
    if (max_elems < 1 || max_elems > VPSIM_FETCH_UNIT_MAX_ELEMS) {
        put_error(err, err_size,
                  fmt::format("vpsim_fetch_unit_new: max_elems {} is outside 1..{} (lay_count is 6 bits)", max_elems,
                              VPSIM_FETCH_UNIT_MAX_ELEMS));
        return nullptr;
    }
    try {
        decl::DecoderOptions o;
        o.lenient = true;
        o.diagnostics = true;
        o.max_length = VPSIM_FETCH_UNIT_MAX_LENGTH;
        // Only the tokens the decoder reads (up to END or an error, at most MAX_LENGTH + 1).
        const size_t read = std::min<size_t>(n, size_t(VPSIM_FETCH_UNIT_MAX_LENGTH) + 1);
        auto* u = new vpsim_fetch_unit;
        std::unique_ptr<vpsim_fetch_unit> owner(u);
        u->decl = decl::decode(std::vector<uint32_t>(tokens, tokens + read), o);
        if (!u->decl.valid) {
            put_error(err, err_size, invalid_text(u->decl));
            return nullptr;
        }
        u->layout = vs::fetch_unit_layout(u->decl, max_elems);
        u->loaded = vs::fetch_unit_loaded(u->decl);
        return owner.release();
    } catch (const std::exception& e) {
        put_error(err, err_size, e.what());
        return nullptr;
    } catch (...) {
        put_error(err, err_size, "vpsim_fetch_unit_new: unknown error");
        return nullptr;
    }
}

VPSIM_API void vpsim_fetch_unit_free(vpsim_fetch_unit* u) { delete u; }

VPSIM_API int vpsim_fetch_unit_layout(const vpsim_fetch_unit* u, uint32_t* words, size_t capacity) {
    if (!u || (!words && capacity)) return -1;
    for (size_t k = 0; k < u->layout.size() && k < capacity; ++k) words[k] = u->layout[k];
    return int(u->layout.size());
}

VPSIM_API uint32_t vpsim_fetch_unit_loaded(const vpsim_fetch_unit* u) { return u ? u->loaded : 0; }

VPSIM_API int vpsim_fetch_unit_vertex(const vpsim_fetch_unit* u, const uint32_t base[16], const uint32_t stride[16],
                                      uint32_t index, vpsim_memory_read read, void* ctx, uint32_t regs[64], char* err,
                                      size_t err_size) {
    if (!u || !base || !stride || !read || !regs) {
        put_error(err, err_size, "vpsim_fetch_unit_vertex: a NULL argument");
        return -1;
    }
    try {
        std::array<uint32_t, 16> b{}, s{};
        for (size_t i = 0; i < 16; ++i) b[i] = base[i], s[i] = stride[i];
        const auto out = vs::fetch_unit_vertex(u->decl, b, s, index, [&](uint32_t a, uint32_t n, uint8_t* o) {
            return read(ctx, a, n, o) != 0;
        });
        for (size_t i = 0; i < 64; ++i) regs[i] = out[i];
        return 0;
    } catch (const std::exception& e) {
        put_error(err, err_size, e.what());
        return -1;
    } catch (...) {
        put_error(err, err_size, "vpsim_fetch_unit_vertex: unknown error");
        return -1;
    }
}
