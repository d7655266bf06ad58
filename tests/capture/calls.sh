#!/usr/bin/env bash
# vpsim capture of examples/d3d8/d3d8_calls.cpp under Wine (docs/capture.md): the calls d3d8_spin
# does not make. Records the whole run (3 frames drawn, the Reset's frame, the deletes' frame),
# then checks that
#   - the program drew as without the recorder ("3 frames drawn", exit 0);
#   - capture info sees 5 frames, 31 draws, 27 state-block calls, 22 ProcessVertices of 3
#     vertices and 1 Reset (the program's calls: 4 creations / recordings, 5 applies and a
#     capture per frame, 4 deletes; 7 probes per frame and one after the Reset);
#   - capture convert writes a scene of 31 draws and scene-exec and run execute them all.
# The probes' values are checked by probes.sh on this recording.
# Usage: calls.sh VPSIM CAPTURE_BUILD_DIR WORK_DIR (the Wine prefix: CAPTURE_BUILD_DIR/wineprefix).
set -euo pipefail
vpsim=$1 dir=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$vpsim" capture run --prefix "$dir/wineprefix" --screen 320x240x24 --time-limit 120 \
  -o "$work/calls.vpcap" -- "$dir/d3d8_calls.exe" 3 >"$work/run.out" 2>"$work/run.err" ||
  fail "capture run: exit $? ($(cat "$work/run.err"))"
cat "$work/run.out" "$work/run.err"
grep -q "d3d8_calls: 3 frames drawn" "$work/run.out" || fail "the program under the recorder did not draw its 3 frames"
grep -q "5 complete frames recorded" "$work/run.out" || fail "capture run did not record 5 frames"

"$vpsim" capture info --json "$work/calls.vpcap" >"$work/info.json"
python3 - "$work/info.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["frames"]
assert len(f) == 5, f"{len(f)} frames"
total = lambda k: sum(x[k] for x in f)
got = {k: total(k) for k in ("draws", "state_block_calls", "process_vertices_calls", "processed_vertices", "resets")}
want = {"draws": 31, "state_block_calls": 27, "process_vertices_calls": 22, "processed_vertices": 66, "resets": 1}
assert got == want, f"capture info: {got}, expected {want}"
print("capture info:", got)
PY

"$vpsim" capture convert "$work/calls.vpcap" -o "$work/calls.json" >"$work/convert.out" 2>"$work/convert.err" ||
  fail "capture convert: $(cat "$work/convert.err")"
grep -q "5 frames, 31 draws" "$work/convert.out" || fail "convert: $(cat "$work/convert.out")"
"$vpsim" scene-exec --json "$work/calls.json" >"$work/scene_exec.json" || fail "scene-exec exit $?"
"$vpsim" run --json "$work/calls.json" >"$work/run.json" || fail "run exit $?"
python3 - "$work/scene_exec.json" "$work/run.json" <<'PY'
import json, sys
se, run = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert len(se["draws"]) == 31, f"scene-exec: {len(se['draws'])} draws"
assert run["draws"] == 31, f"run: {run['draws']} draws"
print("scene-exec and run: 31 draws")
PY
