// The C ABI of model/capi/vpsim_golden.h over the golden model (docs/dpi.md).
#include "model/capi/vpsim_golden.h"

#include "model/decl/decl_decoder.h"
#include "model/decl/decl_decoder_timing.h"
#include "model/vs/vs_exec.h"
#include "model/vs/vs_fetch.h"
#include "model/vs/vs_validate.h"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#define VPSIM_API extern "C" __attribute__((visibility("default")))

using namespace vpsim;

struct vpsim_decl_stepper {
    decl::DeclStepper s;
};
struct vpsim_decl_timing {
    decl::DeclDecoderTiming t;
};
struct vpsim_shader {
    vs::Program program;
};

namespace {

void put_error(char* err, size_t size, const std::string& m) {
    if (!err || !size) return;
    std::snprintf(err, size, "%s", m.c_str());
}

bool options_ok(uint32_t const_count, uint32_t max_length) {
    return const_count >= 1 && const_count <= VPSIM_MAX_DECODER_OPTION && max_length >= 1 &&
           max_length <= VPSIM_MAX_DECODER_OPTION;
}

// n tokens of 4 bytes (or n events) that can be in memory at all.
constexpr size_t kMaxTokens = SIZE_MAX / sizeof(uint32_t);
constexpr size_t kMaxEvents = SIZE_MAX / sizeof(vpsim_event);

// decl::decode of tokens[0..n), reading only the tokens the decoder reads: up to the one that ends
// the array (END, or an error; rule 14's comes at token max_length at the latest). The rest would
// be discarded; the events do not change, because `last` matters only to a decoder not yet ended.
decl::Declaration decode_array(const uint32_t* tokens, size_t n, const decl::DecoderOptions& o) {
    decl::DecoderOptions quiet = o;
    quiet.diagnostics = false;
    decl::DeclStepper st(quiet);
    decl::Event ev[2];
    size_t read = 0;
    while (read < n) {
        st.step(tokens[read], read + 1 == n, ev);
        ++read;
        if (st.finished()) break;
    }
    return decl::decode(std::vector<uint32_t>(tokens, tokens + read), o);
}
static_assert(VPSIM_FETCH_MAX_LENGTH == decl::DecoderOptions{}.max_length, "the header's VPSIM_FETCH_MAX_LENGTH");

decl::DecoderOptions options(uint32_t const_count, uint32_t max_length, bool lenient) {
    decl::DecoderOptions o;
    o.const_count = const_count;
    o.max_length = max_length;
    o.lenient = lenient;
    o.diagnostics = false;
    return o;
}

void to_c(const decl::Event& e, vpsim_event* o) {
    o->kind = unsigned(e.kind);
    o->stream = e.stream;
    o->value = e.value;
    o->code = e.code;
    o->reg = e.reg;
    for (int i = 0; i < 4; ++i) o->data[i] = e.data[size_t(i)];
}

decl::Event from_c(const vpsim_event& o) {
    decl::Event e;
    e.kind = decl::EventKind(o.kind & 7u);
    e.stream = uint8_t(o.stream);
    e.value = o.value;
    e.code = uint8_t(o.code);
    e.reg = uint16_t(o.reg);
    for (int i = 0; i < 4; ++i) e.data[size_t(i)] = o.data[i];
    return e;
}

}  // namespace

VPSIM_API int vpsim_golden_abi(void) { return VPSIM_GOLDEN_ABI; }
VPSIM_API const char* vpsim_golden_version(void) { return VPSIM_VERSION; }

VPSIM_API int vpsim_event_text(const vpsim_event* e, char* buf, size_t size) {
    if (!e || (!buf && size) || e->kind > 7 || e->stream > 0xFFu || e->code > 0xFFu || e->reg > 0xFFFFu) return -1;
    try {
        const std::string s = decl::to_string(from_c(*e));
        if (buf && size) std::snprintf(buf, size, "%s", s.c_str());
        return int(s.size());
    } catch (...) {
        return -1;
    }
}

VPSIM_API vpsim_decl_stepper* vpsim_decl_stepper_new(uint32_t const_count, uint32_t max_length) {
    if (!options_ok(const_count, max_length)) return nullptr;
    return new (std::nothrow) vpsim_decl_stepper{decl::DeclStepper(options(const_count, max_length, false))};
}
VPSIM_API void vpsim_decl_stepper_free(vpsim_decl_stepper* s) { delete s; }
VPSIM_API void vpsim_decl_stepper_reset(vpsim_decl_stepper* s) {
    if (s) s->s.reset();
}
VPSIM_API int vpsim_decl_stepper_step(vpsim_decl_stepper* s, uint32_t token, int last, int lenient, vpsim_event out[2]) {
    if (!s || !out) return -1;
    decl::Event ev[2];
    s->s.set_lenient(lenient != 0);
    const int n = s->s.step(token, last != 0, ev);
    for (int i = 0; i < n; ++i) to_c(ev[i], &out[i]);
    return n;
}

VPSIM_API long vpsim_decl_decode(const uint32_t* tokens, size_t n, int lenient, uint32_t const_count, uint32_t max_length,
                                 vpsim_event* events, size_t capacity) {
    if ((!tokens && n) || (!events && capacity) || n > kMaxTokens || capacity > kMaxEvents ||
        !options_ok(const_count, max_length))
        return -1;
    try {
        const decl::Declaration d = decode_array(tokens, n, options(const_count, max_length, lenient != 0));
        for (size_t i = 0; i < d.events.size() && i < capacity; ++i) to_c(d.events[i], &events[i]);
        return long(d.events.size());
    } catch (...) {
        return -1;
    }
}

VPSIM_API vpsim_decl_timing* vpsim_decl_timing_new(uint32_t const_count, uint32_t max_length) {
    if (!options_ok(const_count, max_length)) return nullptr;
    return new (std::nothrow) vpsim_decl_timing{decl::DeclDecoderTiming(options(const_count, max_length, false))};
}
VPSIM_API void vpsim_decl_timing_free(vpsim_decl_timing* t) { delete t; }
VPSIM_API void vpsim_decl_timing_reset(vpsim_decl_timing* t) {
    if (t) t->t.reset();
}
VPSIM_API int vpsim_decl_timing_in_ready(const vpsim_decl_timing* t, int out_ready) { return t && t->t.in_ready(out_ready != 0); }
VPSIM_API int vpsim_decl_timing_out_valid(const vpsim_decl_timing* t) { return t && t->t.out_valid(); }
VPSIM_API void vpsim_decl_timing_out(const vpsim_decl_timing* t, vpsim_event* e) {
    if (!e) return;
    if (!t || !t->t.out_valid()) {
        std::memset(e, 0, sizeof *e);  // fields are 0 while out_valid is low (the contract)
        return;
    }
    to_c(t->t.out(), e);
}
VPSIM_API int vpsim_decl_timing_tick(vpsim_decl_timing* t, int in_valid, uint32_t token, int last, int lenient, int out_ready) {
    return t && t->t.tick(in_valid != 0, token, last != 0, lenient != 0, out_ready != 0);
}

VPSIM_API int vpsim_fetch_vertex(const uint32_t* tokens, size_t n, const vpsim_stream streams[16], uint32_t index,
                                 float v[16][4], char* err, size_t err_size) {
    if (!tokens || !streams || !v) {
        put_error(err, err_size, "vpsim_fetch_vertex: a NULL argument");
        return -1;
    }
    if (n > kMaxTokens) {
        put_error(err, err_size,
                  fmt::format("vpsim_fetch_vertex: n = {} tokens is more than an array in memory can hold ({} at most)",
                              n, kMaxTokens));
        return -1;
    }
    for (size_t i = 0; i < 16; ++i) {
        const vpsim_stream& st = streams[i];
        if (!st.bound) continue;
        if (!st.data) {
            put_error(err, err_size, fmt::format("vpsim_fetch_vertex: stream {} is bound with a NULL data pointer", i));
            return -1;
        }
        if (st.size > UINTPTR_MAX - reinterpret_cast<uintptr_t>(st.data)) {
            put_error(err, err_size,
                      fmt::format("vpsim_fetch_vertex: stream {}: size {} runs past the end of the address space", i,
                                  st.size));
            return -1;
        }
    }
    try {
        const decl::Declaration d = decode_array(tokens, n, decl::DecoderOptions{});
        if (!d.valid) {
            std::string m = "the declaration is not valid";
            for (const auto& diag : d.diagnostics)
                if (diag.severity == decl::Severity::Error) {
                    m += ": " + decl::to_string(diag);
                    break;
                }
            put_error(err, err_size, m);
            return -1;
        }
        vs::Streams s;
        for (size_t i = 0; i < 16; ++i) {
            s[i].data = static_cast<const uint8_t*>(streams[i].data);
            s[i].size = streams[i].size;
            s[i].stride = streams[i].stride;
            s[i].bound = streams[i].bound != 0;
        }
        vs::check_streams(d, s);
        const auto in = vs::fetch_vertex(d, s, index);
        for (size_t r = 0; r < 16; ++r)
            for (size_t c = 0; c < 4; ++c) v[r][c] = in[r][c];
        return 0;
    } catch (const std::exception& e) {
        put_error(err, err_size, e.what());
        return -1;
    } catch (...) {
        put_error(err, err_size, "vpsim_fetch_vertex: unknown error");
        return -1;
    }
}

VPSIM_API vpsim_shader* vpsim_shader_new(const uint32_t* bytecode, size_t n, char* err, size_t err_size) {
    if (!bytecode || !n) {
        put_error(err, err_size, "vpsim_shader_new: no bytecode");
        return nullptr;
    }
    if (n > VPSIM_MAX_BYTECODE_TOKENS) {
        put_error(err, err_size,
                  fmt::format("vpsim_shader_new: n = {} tokens is more than the bytecode limit of {} tokens (1 GiB, "
                              "vpsim's input file limit)",
                              n, VPSIM_MAX_BYTECODE_TOKENS));
        return nullptr;
    }
    try {
        vs::Program p = vs::decode_bytecode(std::vector<uint32_t>(bytecode, bytecode + n));
        const vs::Validation val = vs::validate(p);
        if (!val.valid) {
            std::string m = "the shader is not valid vs.1.1 (D3D8 profile)";
            for (const auto& d : val.diagnostics)
                if (d.severity == vs::Severity::Error) {
                    m += ": " + vs::to_string(d);
                    break;
                }
            put_error(err, err_size, m);
            return nullptr;
        }
        return new vpsim_shader{std::move(p)};
    } catch (const std::exception& e) {
        put_error(err, err_size, e.what());
        return nullptr;
    } catch (...) {
        put_error(err, err_size, "vpsim_shader_new: unknown error");
        return nullptr;
    }
}
VPSIM_API void vpsim_shader_free(vpsim_shader* s) { delete s; }

VPSIM_API int vpsim_shader_run(const vpsim_shader* s, const float inputs[16][4], const float (*constants)[4],
                               uint32_t const_count, vpsim_vertex_out* out, char* err, size_t err_size) {
    if (!s || !inputs || !out || (!constants && const_count)) {
        put_error(err, err_size, "vpsim_shader_run: a NULL argument");
        return -1;
    }
    if (const_count > VPSIM_SHADER_CONSTANTS) {
        put_error(err, err_size,
                  fmt::format("vpsim_shader_run: const_count {} is more than the {} constant registers of the D3D8 "
                              "profile (c0..c{}); a shader cannot read the others",
                              const_count, VPSIM_SHADER_CONSTANTS, VPSIM_SHADER_CONSTANTS - 1));
        return -1;
    }
    try {
        std::array<vs::Vec4, vs::kNumInputs> in;
        for (size_t r = 0; r < 16; ++r)
            for (size_t c = 0; c < 4; ++c) in[r][c] = inputs[r][c];
        vs::Constants k(const_count);
        for (uint32_t r = 0; r < const_count; ++r)
            for (size_t c = 0; c < 4; ++c) k[r][c] = constants[r][c];
        const vs::VertexOutputs o = vs::execute_reference(s->program, vs::Profile::d3d8(), in, k);
        for (size_t c = 0; c < 4; ++c) {
            out->pos[c] = o.pos[c];
            out->d0[c] = o.d0[c];
            out->d1[c] = o.d1[c];
            for (size_t t = 0; t < 8; ++t) out->t[t][c] = o.t[t][c];
        }
        out->fog = o.fog;
        out->pts = o.pts;
        return 0;
    } catch (const std::exception& e) {
        put_error(err, err_size, e.what());
        return -1;
    } catch (...) {
        put_error(err, err_size, "vpsim_shader_run: unknown error");
        return -1;
    }
}
