#!/bin/sh
# Prints the case items of rtl/vertex_fetch.sv's unorm8 table: float(b) / 255.0f for b = 0..255,
# IEEE single-precision division rounded to nearest even (what vs::expand_element computes for
# D3DCOLOR). Usage: scripts/vertex-fetch-unorm-table.sh > table.txt (paste into the function).
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/t.c" <<'C'
#include <stdio.h>
#include <string.h>
int main(void) {
    for (int b = 0; b < 256; b++) {
        volatile float f = (float)b / 255.0f;
        unsigned u;
        memcpy(&u, (const void*)&f, 4);
        printf("      8'd%d: unorm8 = 32'h%08X;\n", b, u);
    }
    return 0;
}
C
cc -O0 -ffloat-store -o "$tmp/t" "$tmp/t.c"
"$tmp/t"
