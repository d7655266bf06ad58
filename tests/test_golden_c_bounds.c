/* ctest "capi: bounds ...": the preconditions model/capi/vpsim_golden.h states, from C. Each case
 * (the argument) is one function's refusals: a count beyond the device's limit or beyond what an
 * array in memory can hold is refused (NULL or -1, a message naming the limit where the function
 * takes an error buffer) before anything is read or allocated, never truncated or wrapped.
 * The address space is limited to 1 GiB first, so an allocation that a missing check lets
 * through (64 GiB of constants) fails instead of swapping. Exit 0 when every check holds.
 *
 * usage: test_golden_c_bounds decode|stepper|event_text|fetch|shader_new|shader_run */
#include "model/capi/vpsim_golden.h"
#include "tests/golden_c_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* STREAM(0), REG(0, FLOAT3), REG(3, SHORT4), END */
static const uint32_t decl[] = {0x20000000u, 0x40020000u, 0x40070003u, 0xFFFFFFFFu};

static void events_equal(const vpsim_event* a, const vpsim_event* b, long n) {
    for (long i = 0; i < n; ++i) CHECK(memcmp(&a[i], &b[i], sizeof a[i]) == 0);
}

static void decode_case(void) {
    vpsim_event ev[32];
    CHECK(vpsim_decl_decode(decl, (size_t)-1, 0, 96, 4096, ev, 32) == -1);                 /* n = SIZE_MAX */
    CHECK(vpsim_decl_decode(decl, (size_t)-1 / 4 + 1, 0, 96, 4096, ev, 32) == -1);         /* n * 4 wraps */
    CHECK(vpsim_decl_decode(decl, 4, 0, 96, 4096, ev, (size_t)-1) == -1);                  /* capacity */
    CHECK(vpsim_decl_decode(decl, 4, 0, VPSIM_MAX_DECODER_OPTION + 1, 4096, ev, 32) == -1); /* CONST_COUNT 2^24 */
    CHECK(vpsim_decl_decode(decl, 4, 0, 0xFFFFFFFFu, 4096, ev, 32) == -1);
    CHECK(vpsim_decl_decode(decl, 4, 0, 96, VPSIM_MAX_DECODER_OPTION + 1, ev, 32) == -1);  /* MAX_LENGTH 2^24 */
    CHECK(vpsim_decl_decode(decl, 4, 0, VPSIM_MAX_DECODER_OPTION, VPSIM_MAX_DECODER_OPTION, ev, 32) == 4);
    /* Only the tokens the decoder reads are read: n far beyond the 4-token array (END at 3), and
     * 9 tokens without END under MAX_LENGTH 8 (rule 14 at token 8): the events of the whole array. */
    vpsim_event big[32];
    CHECK(vpsim_decl_decode(decl, 4, 0, 96, 4096, ev, 32) == 4);
    CHECK(vpsim_decl_decode(decl, (size_t)1 << 40, 0, 96, 4096, big, 32) == 4);
    events_equal(ev, big, 4);
    uint32_t no_end[9];
    for (int i = 0; i < 9; ++i) no_end[i] = i ? 0x00000000u : 0x20000000u; /* STREAM(0), NOP x 8 */
    const long n9 = vpsim_decl_decode(no_end, 9, 0, 96, 8, ev, 32);
    CHECK(n9 > 0 && ev[n9 - 1].kind == 7 && ev[n9 - 1].code == 14);
    CHECK(vpsim_decl_decode(no_end, (size_t)1 << 40, 0, 96, 8, big, 32) == n9);
    events_equal(ev, big, n9);
}

static void stepper_case(void) {
    CHECK(vpsim_decl_stepper_new(0, 4096) == NULL);
    CHECK(vpsim_decl_stepper_new(VPSIM_MAX_DECODER_OPTION + 1, 4096) == NULL);
    CHECK(vpsim_decl_stepper_new(0xFFFFFFFFu, 4096) == NULL); /* would wrap to 2^24-1 if masked */
    CHECK(vpsim_decl_stepper_new(96, 0) == NULL);
    CHECK(vpsim_decl_stepper_new(96, VPSIM_MAX_DECODER_OPTION + 1) == NULL);
    CHECK(vpsim_decl_timing_new(VPSIM_MAX_DECODER_OPTION + 1, 4096) == NULL);
    CHECK(vpsim_decl_timing_new(96, 0xFFFFFFFFu) == NULL);
    vpsim_event out[2];
    CHECK(vpsim_decl_stepper_step(NULL, decl[0], 0, 0, out) == -1);
    vpsim_decl_stepper* s = vpsim_decl_stepper_new(VPSIM_MAX_DECODER_OPTION, VPSIM_MAX_DECODER_OPTION);
    CHECK(s != NULL);
    CHECK(vpsim_decl_stepper_step(s, decl[0], 0, 0, NULL) == -1);
    vpsim_decl_stepper_free(s);
}

static void event_text_case(void) {
    vpsim_event ev[4];
    CHECK(vpsim_decl_decode(decl, 4, 0, 96, 4096, ev, 4) == 4);
    char text[64];
    CHECK(vpsim_event_text(&ev[1], text, sizeof text) > 0);
    CHECK(vpsim_event_text(&ev[1], NULL, 0) > 0);           /* the length only */
    CHECK(vpsim_event_text(&ev[1], NULL, sizeof text) == -1); /* no buffer, a size */
    vpsim_event e = ev[1];
    e.stream = 256; /* would print as stream 0 if narrowed to 8 bits */
    CHECK(vpsim_event_text(&e, text, sizeof text) == -1);
    e = ev[1];
    e.kind = 8;
    CHECK(vpsim_event_text(&e, text, sizeof text) == -1);
    e = ev[1];
    e.code = 0x102;
    CHECK(vpsim_event_text(&e, text, sizeof text) == -1);
    e = ev[1];
    e.reg = 0x10003;
    CHECK(vpsim_event_text(&e, text, sizeof text) == -1);
}

static void fetch_case(void) {
    unsigned char vb[40];
    memset(vb, 0, sizeof vb);
    const float xyz[3] = {1.0f, 2.0f, 3.0f};
    memcpy(vb, xyz, sizeof xyz);
    vpsim_stream st[16];
    memset(st, 0, sizeof st);
    st[0].data = vb;
    st[0].size = sizeof vb;
    st[0].stride = 20;
    st[0].bound = 1;
    float v[16][4];
    char err[256];
    CHECK(vpsim_fetch_vertex(decl, 4, st, 0, v, err, sizeof err) == 0 && v[0][0] == 1.0f);
    /* n: SIZE_MAX is refused; a large n over a 4-token declaration reads only up to its END. */
    err[0] = 0;
    CHECK(vpsim_fetch_vertex(decl, (size_t)-1, st, 0, v, err, sizeof err) == -1 && strstr(err, "n = ") != NULL);
    CHECK(vpsim_fetch_vertex(decl, (size_t)1 << 40, st, 0, v, err, sizeof err) == 0 && v[0][0] == 1.0f);
    /* index 2^32-1 at stride 20: a byte offset past 2^36, not a wrapped one */
    err[0] = 0;
    CHECK(vpsim_fetch_vertex(decl, 4, st, 0xFFFFFFFFu, v, err, sizeof err) == -1 && strstr(err, "85899345900") != NULL);
    /* a bound stream without data is refused, not taken as unbound */
    st[0].data = NULL;
    err[0] = 0;
    CHECK(vpsim_fetch_vertex(decl, 4, st, 0, v, err, sizeof err) == -1 && strstr(err, "NULL data") != NULL);
    /* a size that runs past the end of the address space */
    st[0].data = vb;
    st[0].size = (size_t)-1;
    err[0] = 0;
    CHECK(vpsim_fetch_vertex(decl, 4, st, 0, v, err, sizeof err) == -1 && strstr(err, "address space") != NULL);
}

/* add oPos, v0, c1 */
static const uint32_t code[] = {0xFFFE0101u, 0x00000002u, 0xC00F0000u, 0x90E40000u, 0xA0E40001u, 0x0000FFFFu};

static void shader_new_case(void) {
    char err[256];
    err[0] = 0;
    CHECK(vpsim_shader_new(code, (size_t)-1, err, sizeof err) == NULL && strstr(err, "268435456") != NULL);
    err[0] = 0;
    CHECK(vpsim_shader_new(code, (size_t)VPSIM_MAX_BYTECODE_TOKENS + 1, err, sizeof err) == NULL &&
          strstr(err, "bytecode limit") != NULL);
    CHECK(vpsim_shader_new(code, 0, err, sizeof err) == NULL);
    vpsim_shader* s = vpsim_shader_new(code, 6, err, sizeof err);
    CHECK(s != NULL);
    vpsim_shader_free(s);
}

static void shader_run_case(void) {
    char err[256];
    vpsim_shader* s = vpsim_shader_new(code, 6, err, sizeof err);
    CHECK(s != NULL);
    if (!s) return;
    float v[16][4];
    memset(v, 0, sizeof v);
    v[0][0] = 1.0f;
    static float c[VPSIM_SHADER_CONSTANTS][4];
    c[1][0] = 10.0f;
    vpsim_vertex_out out;
    /* 2^32-1 constants: refused before any is read (a missing check would allocate 64 GiB and read
     * far past this array) */
    err[0] = 0;
    CHECK(vpsim_shader_run(s, (const float(*)[4])v, (const float(*)[4])c, 0xFFFFFFFFu, &out, err, sizeof err) == -1 &&
          strstr(err, "96 constant registers") != NULL);
    err[0] = 0;
    CHECK(vpsim_shader_run(s, (const float(*)[4])v, (const float(*)[4])c, VPSIM_SHADER_CONSTANTS + 1, &out, err,
                           sizeof err) == -1 &&
          strstr(err, "const_count 97") != NULL);
    CHECK(vpsim_shader_run(s, (const float(*)[4])v, (const float(*)[4])c, VPSIM_SHADER_CONSTANTS, &out, err,
                           sizeof err) == 0 &&
          out.pos[0] == 11.0f);
    CHECK(vpsim_shader_run(s, (const float(*)[4])v, NULL, 1, &out, err, sizeof err) == -1);
    CHECK(vpsim_shader_run(s, (const float(*)[4])v, NULL, 0, &out, err, sizeof err) == 0 && out.pos[0] == 1.0f);
    vpsim_shader_free(s);
}

#if defined(__SANITIZE_ADDRESS__)
#define ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN 1
#endif
#endif

int main(int argc, char** argv) {
#ifndef ASAN /* AddressSanitizer reserves terabytes of address space (and reports huge allocations itself) */
    const struct rlimit as = {(rlim_t)1 << 30, (rlim_t)1 << 30};
    if (setrlimit(RLIMIT_AS, &as) != 0) perror("setrlimit");
#endif
    const char* which = argc > 1 ? argv[1] : "";
    if (strcmp(which, "decode") == 0)
        decode_case();
    else if (strcmp(which, "stepper") == 0)
        stepper_case();
    else if (strcmp(which, "event_text") == 0)
        event_text_case();
    else if (strcmp(which, "fetch") == 0)
        fetch_case();
    else if (strcmp(which, "shader_new") == 0)
        shader_new_case();
    else if (strcmp(which, "shader_run") == 0)
        shader_run_case();
    else {
        fprintf(stderr, "usage: test_golden_c_bounds decode|stepper|event_text|fetch|shader_new|shader_run\n");
        return 2;
    }
    printf("%s %s: %d failures\n", which, failures ? "FAILED" : "passed", failures);
    return failures ? 1 : 0;
}
