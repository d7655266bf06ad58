/* ctest "capi: ...": the golden library's C ABI from a C program (model/capi/vpsim_golden.h compiled
 * as C, linked against libvpsim_golden_c.so): decode, step, the cycle contract, the fetch of one
 * vertex and vs.1.1 on one vertex, and the refusals. Exit 0 when every check holds. */
#include "model/capi/vpsim_golden.h"
#include "tests/golden_c_check.h"

#include <stdio.h>
#include <string.h>

int main(void) {
    CHECK(vpsim_golden_abi() == VPSIM_GOLDEN_ABI);
    /* STREAM(0), REG(0, FLOAT3), REG(3, SHORT4), END */
    const uint32_t decl[] = {0x20000000u, 0x40020000u, 0x40070003u, 0xFFFFFFFFu};
    vpsim_event ev[8];
    CHECK(vpsim_decl_decode(decl, 4, 0, 96, 4096, ev, 8) == 4);
    CHECK(ev[1].kind == 1 && ev[1].value == 0 && ev[1].code == 2);
    CHECK(ev[2].kind == 1 && ev[2].value == 12 && ev[2].reg == 3 && ev[2].code == 7);
    CHECK(ev[3].kind == 6 && ev[3].value == 4);
    CHECK(vpsim_decl_decode(decl, 4, 0, 96, 4096, ev, 1) == 4); /* too small: the count, one written */
    CHECK(vpsim_decl_decode(decl, 4, 0, 0, 4096, ev, 8) == -1); /* CONST_COUNT 0 */
    char text[64];
    CHECK(vpsim_event_text(&ev[2], text, sizeof text) > 0 && strcmp(text, "ELEMENT stream=0 offset=12 type=SHORT4 v3") == 0);

    /* Step by step: the same events. CONST(95, 2) with 96 registers breaks rule 12. */
    vpsim_decl_stepper* s = vpsim_decl_stepper_new(96, 4096);
    CHECK(s != NULL);
    vpsim_event o[2];
    int n = 0;
    for (int i = 0; i < 4; ++i) n += vpsim_decl_stepper_step(s, decl[i], i == 3, 0, o);
    CHECK(n == 4 && o[0].kind == 6);
    CHECK(vpsim_decl_stepper_step(s, 0x20000000u, 0, 0, o) == 1);
    CHECK(vpsim_decl_stepper_step(s, 0x40020000u, 0, 0, o) == 1);
    CHECK(vpsim_decl_stepper_step(s, 0x8400005Fu, 1, 0, o) == 1 && o[0].kind == 7 && o[0].code == 12);
    vpsim_decl_stepper_free(s);
    CHECK(vpsim_decl_stepper_new(0, 4096) == NULL);

    /* The cycle contract, no back-pressure: one token per cycle, the END out in the cycle after. */
    vpsim_decl_timing* t = vpsim_decl_timing_new(96, 4096);
    int cycles = 0, events = 0;
    for (int pos = 0; events < 4 && cycles < 20; ++cycles) {
        CHECK(vpsim_decl_timing_in_ready(t, 1));
        if (vpsim_decl_timing_out_valid(t)) ++events;
        pos += vpsim_decl_timing_tick(t, pos < 4, pos < 4 ? decl[pos] : 0, pos == 3, 0, 1);
    }
    CHECK(cycles == 5 && events == 4);
    vpsim_decl_timing_free(t);

    /* The fetch of vertex 1: FLOAT3 (1, 2, 3) and SHORT4 (-1, 2, 3, 4) at offset 12, stride 20. */
    unsigned char vb[40];
    memset(vb, 0, sizeof vb);
    const float xyz[3] = {1.0f, 2.0f, 3.0f};
    const short sh[4] = {-1, 2, 3, 4};
    memcpy(vb + 20, xyz, sizeof xyz);
    memcpy(vb + 32, sh, sizeof sh);
    vpsim_stream st[16];
    memset(st, 0, sizeof st);
    st[0].data = vb;
    st[0].size = sizeof vb;
    st[0].stride = 20;
    st[0].bound = 1;
    float v[16][4];
    char err[256];
    CHECK(vpsim_fetch_vertex(decl, 4, st, 1, v, err, sizeof err) == 0);
    CHECK(v[0][0] == 1.0f && v[0][2] == 3.0f && v[0][3] == 1.0f && v[3][0] == -1.0f && v[3][3] == 4.0f);
    CHECK(vpsim_fetch_vertex(decl, 4, st, 2, v, err, sizeof err) == -1 && strlen(err) > 0); /* past the buffer */
    st[0].bound = 0;
    CHECK(vpsim_fetch_vertex(decl, 4, st, 0, v, err, sizeof err) == -1);

    /* vs.1.1: add oPos, v0, c1 */
    const uint32_t code[] = {0xFFFE0101u, 0x00000002u, 0xC00F0000u, 0x90E40000u, 0xA0E40001u, 0x0000FFFFu};
    vpsim_shader* sh1 = vpsim_shader_new(code, 6, err, sizeof err);
    CHECK(sh1 != NULL);
    const float c[2][4] = {{0, 0, 0, 0}, {10, 20, 30, 40}};
    vpsim_vertex_out out;
    v[0][0] = 1.0f, v[0][1] = 2.0f, v[0][2] = 3.0f, v[0][3] = 4.0f;
    CHECK(vpsim_shader_run(sh1, (const float(*)[4])v, c, 2, &out, err, sizeof err) == 0);
    CHECK(out.pos[0] == 11.0f && out.pos[3] == 44.0f && out.d0[0] == 1.0f);
    vpsim_shader_free(sh1);
    const uint32_t bad[] = {0xFFFE0101u, 0x00000001u, 0x800F0000u, 0x90E40000u, 0x0000FFFFu}; /* mov r0, v0: no oPos */
    vpsim_shader* sh2 = vpsim_shader_new(bad, 5, err, sizeof err);
    CHECK(sh2 == NULL && strlen(err) > 0);
    if (sh2) vpsim_shader_free(sh2);
    printf("%s: %d failures (libvpsim_golden_c %s)\n", failures ? "FAILED" : "passed", failures, vpsim_golden_version());
    return failures ? 1 : 0;
}
