/* ctests "capi: fetch unit: ..." and "dpi-c: ...": the golden library's vertex fetch unit (the
 * fetch as rtl/vertex_fetch.sv's pins carry it) from C, and the DPI-C functions of the fetch unit
 * and the vs.1.1 interpreter called as a simulator would (plain C, DPI's basic types). One behaviour
 * per case: test_golden_c_units CASE; exit 0 when every check holds. Random data: seed printed,
 * VPSIM_TEST_SEED=N replays it. */
#include "model/capi/vpsim_golden.h"
#include "tests/golden_c_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The DPI-C functions (model/capi/vpsim_golden_dpi_*.cpp; the package's imports). */
void* vpsim_dpi_fetch_new(int max_elems);
void vpsim_dpi_fetch_free(void* h);
const char* vpsim_dpi_fetch_error(void* h);
int vpsim_dpi_fetch_token(void* h, int token);
int vpsim_dpi_fetch_decl(void* h);
int vpsim_dpi_fetch_lay_count(void* h);
int vpsim_dpi_fetch_lay_elem(void* h, int k);
int vpsim_dpi_fetch_loaded(void* h);
int vpsim_dpi_fetch_stream(void* h, int s, int base, int stride);
int vpsim_dpi_fetch_mem_write(void* h, int addr, int data);
void vpsim_dpi_fetch_mem_clear(void* h);
int vpsim_dpi_fetch_vertex(void* h, int index);
int vpsim_dpi_fetch_reg(void* h, int r, int c);
void* vpsim_dpi_shader_new(void);
void vpsim_dpi_shader_free(void* h);
const char* vpsim_dpi_shader_error(void* h);
int vpsim_dpi_shader_token(void* h, int token);
int vpsim_dpi_shader_load(void* h);
int vpsim_dpi_shader_input(void* h, int r, int c, int bits);
int vpsim_dpi_shader_const(void* h, int r, int c, int bits);
int vpsim_dpi_shader_run(void* h);
int vpsim_dpi_shader_out(void* h, int o, int c);

static uint64_t rng_state;
static uint32_t rnd(void) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

/* A flat memory image at byte address `addr` (addresses mod 2^32). */
typedef struct {
    const uint8_t* bytes;
    uint32_t addr;
    uint32_t size;
} image;
static int image_read(void* ctx, uint32_t a, uint32_t n, uint8_t* out) {
    const image* m = (const image*)ctx;
    const uint32_t off = a - m->addr; /* mod 2^32 */
    if (off >= m->size || n > m->size - off) return 0;
    memcpy(out, m->bytes + off, n);
    return 1;
}

static uint32_t bits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* STREAM(0) FLOAT3 v0, SHORT4 v3; STREAM(2) D3DCOLOR v5, UBYTE4 v1, FLOAT2 v7, SHORT2 v2, FLOAT1 v4,
 * FLOAT4 v6: the eight types over two streams. */
static const uint32_t kDecl8[] = {0x20000000u, 0x40020000u, 0x40070003u, 0x20000002u, 0x40040005u, 0x40050001u,
                                  0x40010007u, 0x40060002u, 0x40000004u, 0x40030006u, 0xFFFFFFFFu};

/* The layout bus and out_loaded of a declaration with a register the tessellator overwrites. */
static void case_layout(void) {
    char err[256];
    const uint32_t d1[] = {0x20000000u, 0x40020000u, 0x40070003u, 0xFFFFFFFFu};
    vpsim_fetch_unit* u = vpsim_fetch_unit_new(d1, 4, 20, err, sizeof err);
    CHECK(u != NULL);
    uint32_t w[4] = {0, 0, 0, 0};
    CHECK(vpsim_fetch_unit_layout(u, w, 4) == 2);
    CHECK(w[0] == 0x2u);                                     /* FLOAT3, v0, stream 0, offset 0 */
    CHECK(w[1] == (7u | 3u << 3 | 0u << 8 | 12u << 12));      /* SHORT4, v3, offset 12 */
    CHECK(vpsim_fetch_unit_loaded(u) == 0x9u);
    vpsim_fetch_unit_free(u);
    /* v3 loaded, then written by TESSNORMAL (v3 <- v0): fetched and dropped (register 31), not loaded. */
    const uint32_t d2[] = {0x20000000u, 0x40020000u, 0x40020003u, 0x30000000u, 0x60020003u, 0xFFFFFFFFu};
    u = vpsim_fetch_unit_new(d2, 6, 20, err, sizeof err);
    CHECK(u != NULL);
    CHECK(vpsim_fetch_unit_layout(u, w, 4) == 2);
    CHECK(w[1] == (2u | 31u << 3 | 12u << 12));
    CHECK(vpsim_fetch_unit_loaded(u) == 0x1u);
    vpsim_fetch_unit_free(u);
    /* Two streams, eight types: stream numbers in [11:8], offsets per stream. */
    u = vpsim_fetch_unit_new(kDecl8, 11, 20, err, sizeof err);
    CHECK(u != NULL);
    uint32_t w8[8];
    CHECK(vpsim_fetch_unit_layout(u, w8, 8) == 8);
    CHECK(w8[2] == (4u | 5u << 3 | 2u << 8 | 0u << 12));
    CHECK(w8[7] == (3u | 6u << 3 | 2u << 8 | 24u << 12)); /* 4 + 4 + 8 + 4 + 4 bytes before it */
    CHECK(vpsim_fetch_unit_loaded(u) == 0xFFu);
    vpsim_fetch_unit_free(u);
}

/* out_regs equal vpsim_fetch_vertex (the golden fetch) bit for bit on random memory, and addresses
 * wrap at 2^32 as the RTL's do. */
static void case_vertex(void) {
    char err[256];
    static uint8_t mem[8192];
    for (size_t i = 0; i < sizeof mem; ++i) mem[i] = (uint8_t)rnd();
    /* special patterns: NaN, -0, short -32768, byte 255 */
    const uint32_t special[4] = {0x7FC00001u, 0x80000000u, 0x80008000u, 0xFFFFFFFFu};
    for (int i = 0; i < 64; ++i) memcpy(mem + 4 * (rnd() % (sizeof mem / 4)), &special[i & 3], 4);
    const image img = {mem, 0x10000u, sizeof mem};
    vpsim_fetch_unit* u = vpsim_fetch_unit_new(kDecl8, 11, 20, err, sizeof err);
    CHECK(u != NULL);
    if (!u) return;
    uint32_t base[16] = {0}, stride[16] = {0};
    base[0] = 0x10000u + 4;
    stride[0] = 20 + 4 * (rnd() % 4);
    base[2] = 0x10000u + 2048 + (rnd() % 16);
    stride[2] = 40 + (rnd() % 9); /* not a multiple of 4: elements across memory words */
    int compared = 0;
    for (uint32_t index = 0; index < 40; ++index) {
        uint32_t regs[64];
        CHECK(vpsim_fetch_unit_vertex(u, base, stride, index, image_read, (void*)&img, regs, err, sizeof err) == 0);
        vpsim_stream st[16];
        memset(st, 0, sizeof st);
        for (int s = 0; s < 3; s += 2) {
            st[s].data = mem + (base[s] - img.addr);
            st[s].size = sizeof mem - (base[s] - img.addr);
            st[s].stride = stride[s];
            st[s].bound = 1;
        }
        float v[16][4];
        CHECK(vpsim_fetch_vertex(kDecl8, 11, st, index, v, err, sizeof err) == 0);
        for (int r = 0; r < 16; ++r)
            for (int c = 0; c < 4; ++c)
                if (regs[4 * r + c] != bits(v[r][c])) {
                    fprintf(stderr, "vertex %u v%d.%d: fetch unit 0x%08x, vpsim_fetch_vertex 0x%08x\n", index, r, c,
                            regs[4 * r + c], bits(v[r][c]));
                    ++failures;
                }
        ++compared;
    }
    CHECK(compared == 40);
    vpsim_fetch_unit_free(u);
    /* FLOAT4 at 0xFFFFFFF8: bytes 0xFFFFFFF8..0x00000007 (mod 2^32), as the RTL reads them. */
    const uint32_t d4[] = {0x20000000u, 0x40030000u, 0xFFFFFFFFu};
    u = vpsim_fetch_unit_new(d4, 3, 20, err, sizeof err);
    const float f4[4] = {1.5f, -2.0f, 3.25f, 8.0f};
    uint8_t wrap[32];
    memset(wrap, 0, sizeof wrap);
    memcpy(wrap + 8, f4, 16); /* image at 0xFFFFFFF0: byte 8 is address 0xFFFFFFF8 */
    const image wimg = {wrap, 0xFFFFFFF0u, sizeof wrap};
    uint32_t regs[64];
    memset(base, 0, sizeof base);
    memset(stride, 0, sizeof stride);
    base[0] = 0xFFFFFFE8u;
    stride[0] = 16;
    CHECK(vpsim_fetch_unit_vertex(u, base, stride, 1, image_read, (void*)&wimg, regs, err, sizeof err) == 0);
    CHECK(regs[0] == bits(1.5f) && regs[1] == bits(-2.0f) && regs[2] == bits(3.25f) && regs[3] == bits(8.0f));
    vpsim_fetch_unit_free(u);
}

/* Bad input: a NULL/-1 return and a message naming the problem, never a crash. */
static void case_errors(void) {
    char err[512];
    err[0] = 0;
    const uint32_t noend[] = {0x20000000u, 0x40020000u};
    CHECK(vpsim_fetch_unit_new(noend, 2, 20, err, sizeof err) == NULL && strstr(err, "not valid") != NULL);
    printf("no END: %s\n", err);
    const uint32_t junk[] = {0xDEADBEEFu, 0xFFFFFFFFu};
    err[0] = 0;
    CHECK(vpsim_fetch_unit_new(junk, 2, 20, err, sizeof err) == NULL && strstr(err, "not valid") != NULL);
    printf("0xDEADBEEF: %s\n", err);
    err[0] = 0;
    CHECK(vpsim_fetch_unit_new(kDecl8, 11, 4, err, sizeof err) == NULL && strstr(err, "more than 4 elements") != NULL);
    printf("MAX_ELEMS 4: %s\n", err);
    CHECK(vpsim_fetch_unit_new(kDecl8, 11, 0, err, sizeof err) == NULL && strstr(err, "max_elems 0") != NULL);
    CHECK(vpsim_fetch_unit_new(kDecl8, 11, 64, err, sizeof err) == NULL && strstr(err, "max_elems 64") != NULL);
    CHECK(vpsim_fetch_unit_new(NULL, 3, 20, err, sizeof err) == NULL && strstr(err, "NULL") != NULL);
    /* An element at offset 2^20 + 4: 17477 SKIPs of 15 DWORDs, then REG. */
    const size_t nskip = 17477;
    uint32_t* far = (uint32_t*)malloc((nskip + 3) * sizeof *far);
    far[0] = 0x20000000u;
    for (size_t i = 0; i < nskip; ++i) far[1 + i] = 0x500F0000u;
    far[nskip + 1] = 0x40000000u;
    far[nskip + 2] = 0xFFFFFFFFu;
    err[0] = 0;
    CHECK(vpsim_fetch_unit_new(far, nskip + 3, 20, err, sizeof err) == NULL && strstr(err, "below 2^20") != NULL);
    printf("far offset: %s\n", err);
    free(far);
    /* Memory that does not hold an element's bytes: the element and the addresses named. */
    vpsim_fetch_unit* u = vpsim_fetch_unit_new(kDecl8, 11, 20, err, sizeof err);
    uint8_t small[16] = {0};
    const image img = {small, 0x100u, sizeof small};
    uint32_t base[16] = {0}, stride[16] = {0}, regs[64];
    base[0] = 0x100u;
    base[2] = 0x100u;
    err[0] = 0;
    CHECK(vpsim_fetch_unit_vertex(u, base, stride, 0, image_read, (void*)&img, regs, err, sizeof err) == -1 &&
          strstr(err, "element 2 (v3") != NULL && strstr(err, "0x0000010c..0x00000113") != NULL);
    printf("memory: %s\n", err);
    CHECK(vpsim_fetch_unit_vertex(u, base, stride, 0, NULL, NULL, regs, err, sizeof err) == -1 && strstr(err, "NULL") != NULL);
    CHECK(vpsim_fetch_unit_vertex(NULL, base, stride, 0, image_read, (void*)&img, regs, err, sizeof err) == -1);
    CHECK(vpsim_fetch_unit_layout(NULL, regs, 4) == -1 && vpsim_fetch_unit_loaded(NULL) == 0);
    vpsim_fetch_unit_free(u);
    vpsim_fetch_unit_free(NULL);
}

/* The fetch unit's DPI-C functions give what the C ABI gives; their failures leave a message. */
static void case_dpi_fetch(void) {
    char err[256];
    void* h = vpsim_dpi_fetch_new(20);
    CHECK(h != NULL && vpsim_dpi_fetch_new(0) == NULL && vpsim_dpi_fetch_new(64) == NULL);
    for (size_t i = 0; i < 11; ++i) CHECK(vpsim_dpi_fetch_token(h, (int)kDecl8[i]) == 0);
    CHECK(vpsim_dpi_fetch_decl(h) == 0 && strcmp(vpsim_dpi_fetch_error(h), "") == 0);
    vpsim_fetch_unit* u = vpsim_fetch_unit_new(kDecl8, 11, 20, err, sizeof err);
    uint32_t w[20];
    CHECK(vpsim_dpi_fetch_lay_count(h) == vpsim_fetch_unit_layout(u, w, 20));
    for (int k = 0; k < 8; ++k) CHECK((uint32_t)vpsim_dpi_fetch_lay_elem(h, k) == w[k]);
    CHECK(vpsim_dpi_fetch_lay_elem(h, 8) == 0 && vpsim_dpi_fetch_loaded(h) == 0xFF);
    static uint8_t mem[4096];
    for (size_t i = 0; i < sizeof mem; ++i) mem[i] = (uint8_t)rnd();
    for (uint32_t a = 0; a < sizeof mem; a += 4) {
        uint32_t d;
        memcpy(&d, mem + a, 4);
        CHECK(vpsim_dpi_fetch_mem_write(h, (int)(0x8000u + a), (int)d) == 0);
    }
    const image img = {mem, 0x8000u, sizeof mem};
    uint32_t base[16] = {0}, stride[16] = {0};
    base[0] = 0x8000u, stride[0] = 24, base[2] = 0x8000u + 1500, stride[2] = 43;
    CHECK(vpsim_dpi_fetch_stream(h, 0, (int)base[0], (int)stride[0]) == 0);
    CHECK(vpsim_dpi_fetch_stream(h, 2, (int)base[2], (int)stride[2]) == 0);
    CHECK(vpsim_dpi_fetch_stream(h, 16, 0, 0) == -1 && strstr(vpsim_dpi_fetch_error(h), "0..15") != NULL);
    for (uint32_t index = 0; index < 30; ++index) {
        uint32_t regs[64];
        CHECK(vpsim_fetch_unit_vertex(u, base, stride, index, image_read, (void*)&img, regs, err, sizeof err) == 0);
        CHECK(vpsim_dpi_fetch_vertex(h, (int)index) == 0);
        for (int r = 0; r < 16; ++r)
            for (int c = 0; c < 4; ++c) CHECK((uint32_t)vpsim_dpi_fetch_reg(h, r, c) == regs[4 * r + c]);
    }
    /* A vertex past the memory written: -1, the element and addresses in the message. */
    CHECK(vpsim_dpi_fetch_vertex(h, 1000) == -1 && strstr(vpsim_dpi_fetch_error(h), "element 1 (v0") != NULL);
    printf("dpi memory: %s\n", vpsim_dpi_fetch_error(h));
    vpsim_dpi_fetch_mem_clear(h);
    CHECK(vpsim_dpi_fetch_vertex(h, 0) == -1);
    /* Malformed tokens: -1, the decoder's rule in the message, and no layout until a valid one. */
    CHECK(vpsim_dpi_fetch_token(h, (int)0xDEADBEEFu) == 0 && vpsim_dpi_fetch_decl(h) == -1);
    CHECK(strstr(vpsim_dpi_fetch_error(h), "not valid") != NULL);
    printf("dpi 0xDEADBEEF: %s\n", vpsim_dpi_fetch_error(h));
    CHECK(vpsim_dpi_fetch_lay_count(h) == -1 && vpsim_dpi_fetch_vertex(h, 0) == -1);
    CHECK(strstr(vpsim_dpi_fetch_error(h), "no valid declaration") != NULL);
    /* NULL handles are refused, not dereferenced. */
    CHECK(vpsim_dpi_fetch_decl(NULL) == -1 && vpsim_dpi_fetch_vertex(NULL, 0) == -1 && vpsim_dpi_fetch_reg(NULL, 0, 0) == 0);
    CHECK(vpsim_dpi_fetch_lay_count(NULL) == -1 && vpsim_dpi_fetch_mem_write(NULL, 0, 0) == -1);
    CHECK(strlen(vpsim_dpi_fetch_error(NULL)) > 0);
    vpsim_fetch_unit_free(u);
    vpsim_dpi_fetch_free(h);
    vpsim_dpi_fetch_free(NULL);
}

/* The interpreter's DPI-C functions give vpsim_shader_run's bits; bad bytecode leaves a message. */
static void case_dpi_shader(void) {
    char err[256];
    /* mul r0, v0, c0; add oPos, r0, c1; mov oD0, v1; mov oT3, c95 */
    const uint32_t code[] = {0xFFFE0101u, 0x00000005u, 0x800F0000u, 0x90E40000u, 0xA0E40000u, 0x00000002u, 0xC00F0000u,
                             0x80E40000u, 0xA0E40001u, 0x00000001u, 0xD00F0000u, 0x90E40001u, 0x00000001u, 0xE00F0003u,
                             0xA0E4005Fu, 0x0000FFFFu};
    const size_t n = sizeof code / sizeof code[0];
    vpsim_shader* s = vpsim_shader_new(code, n, err, sizeof err);
    CHECK(s != NULL);
    if (!s) {
        fprintf(stderr, "%s\n", err);
        return;
    }
    void* h = vpsim_dpi_shader_new();
    CHECK(vpsim_dpi_shader_run(h) == -1 && strstr(vpsim_dpi_shader_error(h), "no valid shader") != NULL);
    for (size_t i = 0; i < n; ++i) CHECK(vpsim_dpi_shader_token(h, (int)code[i]) == 0);
    CHECK(vpsim_dpi_shader_load(h) == 0);
    float in[16][4], k[96][4];
    memset(in, 0, sizeof in);
    memset(k, 0, sizeof k);
    for (int round = 0; round < 20; ++round) {
        for (int r = 0; r < 2; ++r)
            for (int c = 0; c < 4; ++c) {
                uint32_t b = rnd();
                if (round == 0 && c == 0) b = 0x7F800001u; /* a signalling NaN through the DPI's int */
                memcpy(&in[r][c], &b, 4);
                CHECK(vpsim_dpi_shader_input(h, r, c, (int)b) == 0);
            }
        for (int r = 0; r < 96; r += 1)
            for (int c = 0; c < 4; ++c) {
                const float f = (float)((int)(rnd() % 2001) - 1000) / 8.0f;
                k[r][c] = f;
                CHECK(vpsim_dpi_shader_const(h, r, c, (int)bits(f)) == 0);
            }
        vpsim_vertex_out o;
        CHECK(vpsim_shader_run(s, (const float(*)[4])in, (const float(*)[4])k, 96, &o, err, sizeof err) == 0);
        CHECK(vpsim_dpi_shader_run(h) == 0);
        for (int c = 0; c < 4; ++c) {
            CHECK((uint32_t)vpsim_dpi_shader_out(h, 0, c) == bits(o.pos[c]));
            CHECK((uint32_t)vpsim_dpi_shader_out(h, 1, c) == bits(o.d0[c]));
            CHECK((uint32_t)vpsim_dpi_shader_out(h, 8, c) == bits(o.t[3][c]));
            CHECK((uint32_t)vpsim_dpi_shader_out(h, 8, c) == bits(k[95][c]));
        }
        CHECK((uint32_t)vpsim_dpi_shader_out(h, 3, 0) == bits(o.fog) && vpsim_dpi_shader_out(h, 3, 1) == 0);
    }
    vpsim_shader_free(s);
    CHECK(vpsim_dpi_shader_const(h, 96, 0, 0) == -1 && strstr(vpsim_dpi_shader_error(h), "c96") != NULL);
    CHECK(vpsim_dpi_shader_input(h, 16, 0, 0) == -1 && strstr(vpsim_dpi_shader_error(h), "v16") != NULL);
    CHECK(vpsim_dpi_shader_out(h, 13, 0) == 0);
    /* Bytecode that does not validate (no oPos written) and bytecode that does not decode. */
    const uint32_t bad[] = {0xFFFE0101u, 0x00000001u, 0x800F0000u, 0x90E40000u, 0x0000FFFFu};
    for (size_t i = 0; i < 5; ++i) vpsim_dpi_shader_token(h, (int)bad[i]);
    CHECK(vpsim_dpi_shader_load(h) == -1 && strstr(vpsim_dpi_shader_error(h), "not valid") != NULL);
    printf("dpi shader (no oPos): %s\n", vpsim_dpi_shader_error(h));
    CHECK(vpsim_dpi_shader_run(h) == -1); /* the failed load left no shader */
    const uint32_t junk[] = {0xFFFE0101u, 0xDEADBEEFu, 0x12345678u};
    for (size_t i = 0; i < 3; ++i) vpsim_dpi_shader_token(h, (int)junk[i]);
    CHECK(vpsim_dpi_shader_load(h) == -1 && strlen(vpsim_dpi_shader_error(h)) > 0);
    printf("dpi shader (junk): %s\n", vpsim_dpi_shader_error(h));
    CHECK(vpsim_dpi_shader_load(h) == -1 && strlen(vpsim_dpi_shader_error(h)) > 0); /* no tokens at all */
    CHECK(vpsim_dpi_shader_load(NULL) == -1 && vpsim_dpi_shader_run(NULL) == -1 && vpsim_dpi_shader_out(NULL, 0, 0) == 0);
    vpsim_dpi_shader_free(h);
    vpsim_dpi_shader_free(NULL);
}

int main(int argc, char** argv) {
    const char* seed_env = getenv("VPSIM_TEST_SEED");
    const unsigned long long seed = seed_env ? strtoull(seed_env, NULL, 0) : 1;
    rng_state = seed;
    printf("seed %llu (VPSIM_TEST_SEED=%llu replays it)\n", seed, seed);
    if (argc != 2) {
        fprintf(stderr, "usage: test_golden_c_units layout|vertex|errors|dpi_fetch|dpi_shader\n");
        return 2;
    }
    const char* c = argv[1];
    if (!strcmp(c, "layout")) case_layout();
    else if (!strcmp(c, "vertex")) case_vertex();
    else if (!strcmp(c, "errors")) case_errors();
    else if (!strcmp(c, "dpi_fetch")) case_dpi_fetch();
    else if (!strcmp(c, "dpi_shader")) case_dpi_shader();
    else {
        fprintf(stderr, "test_golden_c_units: unknown case %s\n", c);
        return 2;
    }
    printf("%s: %s: %d failures\n", c, failures ? "FAILED" : "passed", failures);
    return failures ? 1 : 0;
}
