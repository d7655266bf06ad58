/* A program outside vpsim built against the installed golden library (ctests "install: ..."):
 * through pkg-config (vpsim-golden.pc) and through find_package(vpsim-golden) (CMakeLists.txt here).
 * It decodes a declaration, reads its layout bus and prints one line; exit 0 when the results hold. */
#include <vpsim/vpsim_golden.h>

#include <stdio.h>

int main(void) {
    if (vpsim_golden_abi() != VPSIM_GOLDEN_ABI) {
        fprintf(stderr, "consumer: library ABI %d, header %d\n", vpsim_golden_abi(), VPSIM_GOLDEN_ABI);
        return 1;
    }
    const uint32_t decl[] = {0x20000000u, 0x40020000u, 0x40070003u, 0xFFFFFFFFu}; /* FLOAT3 v0, SHORT4 v3 */
    vpsim_event ev[8];
    const long n = vpsim_decl_decode(decl, 4, 0, 96, 4096, ev, 8);
    char err[256];
    vpsim_fetch_unit* u = vpsim_fetch_unit_new(decl, 4, 20, err, sizeof err);
    uint32_t lay[4] = {0, 0, 0, 0};
    const int count = u ? vpsim_fetch_unit_layout(u, lay, 4) : -1;
    char text[96];
    vpsim_event_text(&ev[2], text, sizeof text);
    printf("consumer: libvpsim_golden_c %s ABI %d: %ld events, event 2 %s; layout %d words 0x%x 0x%x, loaded 0x%x\n",
           vpsim_golden_version(), vpsim_golden_abi(), n, text, count, lay[0], lay[1], vpsim_fetch_unit_loaded(u));
    const int ok = n == 4 && count == 2 && lay[1] == 0xC01Fu && vpsim_fetch_unit_loaded(u) == 0x9u;
    vpsim_fetch_unit_free(u);
    return ok ? 0 : 1;
}
