#!/usr/bin/env bash
# vpsim capture run --shots (docs/capture.md): the end-to-end test's recording kept frame 2's back
# buffer as spin.frame2.png beside the capture. Checks that it is a whole, valid PNG (signature,
# chunk CRCs, zlib stream) of the program's 160 x 120 back buffer, that no partial or error file is
# left, and that it is not blank: most pixels are the program's clear colour (0x101018) but the
# spinning objects cover at least 5% of the picture in at least 8 colours (lit shading).
# Usage: shots.sh E2E_WORK_DIR
set -euo pipefail
e2e=$1
png="$e2e/spin.frame2.png"
[ -f "$png" ] || { echo "FAIL: $png was not written"; ls "$e2e"; exit 1; }
for f in "$e2e"/spin.frame*.png.part "$e2e"/spin.frame*.error; do
  [ ! -e "$f" ] || { echo "FAIL: $f left behind"; exit 1; }
done
python3 - "$png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
at, chunks = 8, {}
while at < len(data):
    (n,) = struct.unpack(">I", data[at:at + 4])
    kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + n]
    (crc,) = struct.unpack(">I", data[at + 8 + n:at + 12 + n])
    assert zlib.crc32(kind + body) == crc, f"chunk {kind} CRC"
    chunks[kind] = chunks.get(kind, b"") + body
    at += 12 + n
    if kind == b"IEND":
        break
assert at == len(data), "bytes after IEND"
w, h, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
assert (w, h, depth, colour) == (160, 120, 8, 2), (w, h, depth, colour)
raw = zlib.decompress(chunks[b"IDAT"])
assert len(raw) == h * (1 + 3 * w), len(raw)
pixels = [raw[y * (1 + 3 * w) + 1 + 3 * x:y * (1 + 3 * w) + 4 + 3 * x] for y in range(h) for x in range(w)]
clear = bytes([0x10, 0x10, 0x18])
drawn = sum(p != clear for p in pixels)
colours = len(set(pixels))
print(f"{sys.argv[1]}: {w} x {h}, {drawn} of {w * h} pixels drawn over the clear colour, {colours} colours")
assert sum(p == clear for p in pixels) > w * h // 4, "the clear colour is not the background"
assert drawn >= w * h // 20, "blank: fewer than 5% of the pixels differ from the clear colour"
assert colours >= 8, "fewer than 8 colours"
PY
