/* vpsim's golden model as a library: a small C ABI over the pure C++ golden model (no SystemC,
 * no Verilator). libvpsim_golden_c.so; the rules (types, memory ownership, threads, errors) are in
 * docs/dpi.md. The SystemVerilog DPI-C package over it is vpsim_golden_pkg.sv, the Python module
 * vpsim_golden.py (ctypes).
 *
 *   - declaration decoding: the token-at-a-time stepper (vpsim_decl_stepper_*), a whole array
 *     (vpsim_decl_decode), and the decoder's cycle contract (vpsim_decl_timing_*:
 *     docs/decl-decoder.md, "The cycle contract");
 *   - the vertex fetch of one vertex (vpsim_fetch_vertex), and as the fetch unit's pins carry it
 *     (vpsim_fetch_unit_*: layout bus, loaded mask, out_regs);
 *   - vs.1.1 execution of one vertex (vpsim_shader_*), the reference interpreter, D3D8 profile.
 *
 * Every function is noexcept: C++ exceptions never cross this interface; a failure is a return
 * value and, where a buffer is given, a message.
 *
 * Preconditions: each function states what it requires of its arguments ("Requires: ..."). What
 * the library can check it checks before it reads or allocates anything, and a count outside its
 * limit is refused (NULL or -1, with a message where the function takes an error buffer), never
 * truncated or wrapped: a count that cannot describe an array in memory (n tokens of 4 bytes
 * beyond SIZE_MAX bytes), a constant count beyond the device's registers. What it cannot check
 * (that a pointer really holds the count of elements it is given with) is the caller's part. */
#ifndef VPSIM_GOLDEN_H
#define VPSIM_GOLDEN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VPSIM_GOLDEN_ABI 1

/* The limits the functions check. */
#define VPSIM_MAX_DECODER_OPTION 0xFFFFFFu      /* CONST_COUNT and MAX_LENGTH: 1 .. 2^24-1 */
#define VPSIM_FETCH_MAX_LENGTH 4096u            /* vpsim_fetch_vertex decodes with MAX_LENGTH 4096 */
#define VPSIM_SHADER_CONSTANTS 96u              /* constant registers of the D3D8 profile (c0..c95) */
#define VPSIM_MAX_BYTECODE_TOKENS (1u << 28)    /* 1 GiB of bytecode, vpsim's input file limit */

/* VPSIM_GOLDEN_ABI of the library (check it against the header's at start-up). */
int vpsim_golden_abi(void);
/* vpsim's version, e.g. "0.1.0" (static storage). */
const char* vpsim_golden_version(void);

/* One decoder event (docs/decl-decoder.md, "Events"); fields a kind does not use are 0.
 * kind: 0 STREAM, 1 ELEMENT, 2 SKIP, 3 TESS, 4 CONST, 5 EXT, 6 END, 7 ERROR. */
typedef struct vpsim_event {
    uint32_t kind, stream, value, code, reg;
    uint32_t data[4]; /* CONST: x, y, z, w bits */
} vpsim_event;

/* The event in words ("ELEMENT stream=0 offset=12 type=SHORT4 v3"), snprintf-style: writes at most
 * `size` bytes (NUL included), returns the length of the whole text.
 * Requires: e not NULL, with the ranges the decoder's events have (kind <= 7, stream <= 255,
 * code <= 255, reg <= 65535); buf not NULL when size > 0. Else -1 (nothing written). */
int vpsim_event_text(const vpsim_event* e, char* buf, size_t size);

/* ---- Declaration decoding: the golden stepper. const_count: constant registers (rule 12, 1 ..
 * 2^24-1, default 96); max_length: tokens within which END must come (rule 14, default 4096).
 * Requires: 1 <= const_count, max_length <= VPSIM_MAX_DECODER_OPTION. Else NULL (also when out of
 * memory). Free with vpsim_decl_stepper_free. */
typedef struct vpsim_decl_stepper vpsim_decl_stepper;
vpsim_decl_stepper* vpsim_decl_stepper_new(uint32_t const_count, uint32_t max_length);
void vpsim_decl_stepper_free(vpsim_decl_stepper* s);
void vpsim_decl_stepper_reset(vpsim_decl_stepper* s);
/* One token (`last`: the array's last token; `lenient`: lenient mode for this token). Writes 0, 1
 * or 2 events into out[0..1] and returns how many. After `last` the stepper starts a new array.
 * Requires: s and out not NULL (else -1). */
int vpsim_decl_stepper_step(vpsim_decl_stepper* s, uint32_t token, int last, int lenient, vpsim_event out[2]);

/* A whole array: the events of decoding tokens[0..n-1] (the last one marked last). Writes at most
 * `capacity` events and returns how many there are (call again with more room if larger), or -1 on
 * a bad argument. Tokens are read up to the one that ends the array (END or an error; at the
 * latest token max_length, rule 14), whatever n is.
 * Requires: tokens not NULL unless n is 0, events not NULL unless capacity is 0; n <= SIZE_MAX / 4
 * and capacity <= SIZE_MAX / sizeof(vpsim_event) (arrays that fit in memory); const_count and
 * max_length as for vpsim_decl_stepper_new. Else -1. */
long vpsim_decl_decode(const uint32_t* tokens, size_t n, int lenient, uint32_t const_count, uint32_t max_length,
                       vpsim_event* events, size_t capacity);

/* ---- The decoder's cycle contract: what a cycle-accurate decoder's pins do. Per cycle: read the
 * combinational outputs (in_ready for this cycle's out_ready, out_valid, out), then tick with the
 * cycle's inputs (the rising edge). */
typedef struct vpsim_decl_timing vpsim_decl_timing;
/* Requires: as vpsim_decl_stepper_new (else NULL). The functions below take a handle: NULL reads
 * as not ready / not valid / an all-zero event and does nothing on tick. */
vpsim_decl_timing* vpsim_decl_timing_new(uint32_t const_count, uint32_t max_length);
void vpsim_decl_timing_free(vpsim_decl_timing* t);
void vpsim_decl_timing_reset(vpsim_decl_timing* t);
int vpsim_decl_timing_in_ready(const vpsim_decl_timing* t, int out_ready);
int vpsim_decl_timing_out_valid(const vpsim_decl_timing* t);
void vpsim_decl_timing_out(const vpsim_decl_timing* t, vpsim_event* e);
/* The clock edge; returns 1 when the token was accepted. */
int vpsim_decl_timing_tick(vpsim_decl_timing* t, int in_valid, uint32_t token, int last, int lenient, int out_ready);

/* ---- The vertex fetch of one vertex: v0..v15 from the bound streams, as D3D8 expands each
 * element to four floats (registers the declaration does not load are 0). The declaration must be
 * valid (strict). Returns 0, or -1 with a message in err (err may be NULL).
 * Requires: decl, streams and v not NULL; n <= SIZE_MAX / 4 (tokens are read up to END or the first
 * error, at most VPSIM_FETCH_MAX_LENGTH + 1 of them); each bound stream with
 * data not NULL and data + size within the address space (size bytes readable at data); index
 * any uint32_t (offsets are computed in 64 bits and checked against size). Else -1 and a message. */
typedef struct vpsim_stream {
    const void* data; /* the vertex buffer (not copied; read during the call only) */
    size_t size;      /* its bytes */
    uint32_t stride;  /* SetStreamSource's stride */
    int bound;        /* 0: not bound */
} vpsim_stream;
int vpsim_fetch_vertex(const uint32_t* decl, size_t n, const vpsim_stream streams[16], uint32_t index, float v[16][4],
                       char* err, size_t err_size);

/* ---- The vertex fetch unit as its pins carry it (rtl/vertex_fetch.sv, docs/vertex-fetch-rtl.md):
 * what a fetch unit's testbench drives (the layout bus) and compares (out_loaded, out_regs). A unit
 * holds one declaration, decoded (lenient: a register may be loaded twice, as the RTL allows) with
 * MAX_LENGTH 65536; vertices are read from a byte-addressed memory through the caller's `read`
 * at base[stream] + stride[stream] * index + offset, mod 2^32 (the RTL's address arithmetic).
 * The values are vpsim_fetch_vertex's (the golden fetch), bit for bit.
 * vpsim_fetch_unit_new: NULL and a message in err when the declaration is not valid, has more than
 * max_elems elements (the RTL's MAX_ELEMS, 1 .. VPSIM_FETCH_UNIT_MAX_ELEMS) or an element at an
 * offset of 2^20 bytes or more (the layout bus's offset field).
 * Requires: decl not NULL unless n is 0, n <= SIZE_MAX / 4. Else NULL and a message. */
#define VPSIM_FETCH_UNIT_MAX_LENGTH 65536u     /* declarations are decoded with this MAX_LENGTH */
#define VPSIM_FETCH_UNIT_MAX_ELEMS 63u         /* lay_count is 6 bits */
typedef struct vpsim_fetch_unit vpsim_fetch_unit;
vpsim_fetch_unit* vpsim_fetch_unit_new(const uint32_t* decl, size_t n, uint32_t max_elems, char* err, size_t err_size);
void vpsim_fetch_unit_free(vpsim_fetch_unit* u);
/* The layout bus: writes at most `capacity` words of lay_elems (element k: [2:0] type, [7:3]
 * register, 31 for one a later TESS overwrites, [11:8] stream, [31:12] byte offset) and returns
 * lay_count. Requires: u not NULL, words not NULL unless capacity is 0. Else -1. */
int vpsim_fetch_unit_layout(const vpsim_fetch_unit* u, uint32_t* words, size_t capacity);
/* out_loaded: bit r set when v_r's last writer is an element. Requires u not NULL (else 0). */
uint32_t vpsim_fetch_unit_loaded(const vpsim_fetch_unit* u);
/* The caller's memory: copy n bytes (1..16) at byte address addr (mod 2^32: the bytes are addr,
 * addr+1, ... wrapping past 0xFFFFFFFF) into out and return 1, or return 0 when it does not hold
 * them (the call then fails with a message naming the element and the addresses). */
typedef int (*vpsim_memory_read)(void* ctx, uint32_t addr, uint32_t n, uint8_t* out);
/* One vertex: out_regs as 64 words, regs[4 * r + c] = bits of v_r's component c (x = 0 .. w = 3,
 * out_regs[128r + 32c + 31 : 128r + 32c]); registers not loaded are 0. Returns 0, or -1 with a
 * message in err. Requires: u, base, stride, read and regs not NULL. Else -1 and a message. */
int vpsim_fetch_unit_vertex(const vpsim_fetch_unit* u, const uint32_t base[16], const uint32_t stride[16], uint32_t index,
                            vpsim_memory_read read, void* ctx, uint32_t regs[64], char* err, size_t err_size);

/* ---- vs.1.1 on one vertex: the reference interpreter (docs/vs-semantics.md, D3D8 profile).
 * vpsim_shader_new decodes and validates the shader's bytecode (version token to END); NULL on an
 * error (message in err). The handle owns its copy.
 * Requires: bytecode not NULL, 1 <= n <= VPSIM_MAX_BYTECODE_TOKENS. Else NULL and a message. */
typedef struct vpsim_shader vpsim_shader;
vpsim_shader* vpsim_shader_new(const uint32_t* bytecode, size_t n, char* err, size_t err_size);
void vpsim_shader_free(vpsim_shader* s);
typedef struct vpsim_vertex_out {
    float pos[4], d0[4], d1[4];
    float fog, pts;
    float t[8][4];
} vpsim_vertex_out;
/* inputs: v0..v15; constants: `const_count` registers c0.. (fewer than 96: the rest read 0).
 * Requires: s, inputs and out not NULL; const_count <= VPSIM_SHADER_CONSTANTS (the D3D8 profile's
 * registers; a shader cannot read more), constants not NULL when const_count > 0. Else -1 and a
 * message, before any constant is read. */
int vpsim_shader_run(const vpsim_shader* s, const float inputs[16][4], const float (*constants)[4], uint32_t const_count,
                     vpsim_vertex_out* out, char* err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
