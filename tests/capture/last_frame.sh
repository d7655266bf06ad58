#!/usr/bin/env bash
# vpsim capture of a program that ends by itself (docs/capture.md, "The recorder"): the calls it
# makes after its last Present are written as a last frame at its normal end. d3d8_spin.exe 3,
# recorded without --frames, draws 3 frames and then deletes its vertex shader: the capture has 4
# frames, the last holding that one call (DeleteVertexShader, no Present), and its frames 0-2 are
# the end-to-end test's byte for byte (that recording was ended by the recorder after frame 2).
# Usage: last_frame.sh VPSIM CAPTURE_BUILD_DIR E2E_WORK_DIR WORK_DIR (the end-to-end test's prefix)
set -euo pipefail
vpsim=$1 dir=$2 e2e=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
"$vpsim" capture run --prefix "$dir/wineprefix" --screen 320x240x24 --time-limit 120 -o "$work/spin3.vpcap" \
  -- "$dir/d3d8_spin.exe" 3 >"$work/run.out" 2>"$work/run.err" || { echo "FAIL: capture run: $(cat "$work/run.err")"; exit 1; }
cat "$work/run.out"
python3 - "$work/spin3.vpcap" "$e2e/spin.vpcap" <<'PY'
import struct, sys
def frames(path):
    d = open(path, "rb").read()
    head = 12 if struct.unpack_from("<I", d, 8)[0] >= 3 else 8  # version 3: the call's HRESULT too
    at, out = 32, []
    while at < len(d):
        n, calls, size = struct.unpack_from("<III", d, at + 4)
        payload, ops, q = d[at + 20:at + 20 + size], [], 0
        while q < size:
            op, _, a = struct.unpack_from("<HHI", payload, q)
            ops.append(op)
            q += head + a
        out.append((d[at:at + 20 + size], ops))
        at += 20 + size
    return out
mine, e2e = frames(sys.argv[1]), frames(sys.argv[2])
assert len(mine) == 4, f"{len(mine)} frames, expected 4"
assert mine[3][1] == [10], f"the last frame's calls: ops {mine[3][1]}, expected [10] (DeleteVertexShader)"
assert all(f[1][-1] == 24 for f in mine[:3]), "frames 0-2 end with Present"
assert [f[0] for f in mine[:3]] == [f[0] for f in e2e], "frames 0-2 differ from the end-to-end test's"
print("4 frames: 0-2 as the end-to-end recording's, 3 = the DeleteVertexShader after the last Present")
PY
