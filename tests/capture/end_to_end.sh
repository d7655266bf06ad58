#!/usr/bin/env bash
# vpsim capture end to end (docs/capture.md): records 3 frames of the D3D8 test program
# d3d8_spin.exe under Wine through the recorder, then checks that
#   - capture info sees 3 frames of 5 draws each (2 through the vertex shader, 2 from user memory) (the program's draws per frame);
#   - capture convert writes a scene of 15 draws;
#   - scene-exec and run execute every draw of it.
# The recording also keeps frame 2's back buffer (--shots 2), which shots.sh checks.
# Usage: end_to_end.sh VPSIM CAPTURE_BUILD_DIR WORK_DIR. The Wine prefix is kept in
# CAPTURE_BUILD_DIR/wineprefix and reused by the next run (wineboot only the first time).
set -euo pipefail
vpsim=$1 dir=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

t0=$(date +%s.%N)
"$vpsim" capture run --prefix "$dir/wineprefix" --frames 0-2 --shots 2 --screen 320x240x24 --time-limit 120 \
  -o "$work/spin.vpcap" -- "$dir/d3d8_spin.exe" 10 >"$work/run.out" 2>"$work/run.err" ||
  fail "capture run: exit $? ($(cat "$work/run.err"))"
t1=$(date +%s.%N)
cat "$work/run.out" "$work/run.err"
grep -q "3 complete frames recorded" "$work/run.out" || fail "capture run did not record 3 frames"
[ ! -e "$dir/d3d8.dll" ] || fail "the recorder was left beside the program"

"$vpsim" capture info --json "$work/spin.vpcap" >"$work/info.json"
python3 - "$work/info.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["frames"]
assert len(f) == 3, f"{len(f)} frames"
for x in f:
    assert x["draws"] == 5, x
    assert x["shader_draws"] == 2 and x["fixed_function_draws"] == 3 and x["user_pointer_draws"] == 2, x
PY

"$vpsim" capture convert "$work/spin.vpcap" -o "$work/spin.json" >"$work/convert.out" 2>"$work/convert.err" ||
  fail "capture convert: $(cat "$work/convert.err")"
grep -q "3 frames, 15 draws" "$work/convert.out" || fail "convert: $(cat "$work/convert.out")"

"$vpsim" scene-exec "$work/spin.json" >"$work/scene_exec.out" || fail "scene-exec exit $?"
grep -q "15 draws" "$work/scene_exec.out" || fail "scene-exec: $(head -1 "$work/scene_exec.out")"
"$vpsim" run --json "$work/spin.json" >"$work/run.json" || fail "run exit $?"
python3 - "$work/run.json" "$work/scene_exec.out" <<'PY'
import json, re, sys
run = json.load(open(sys.argv[1]))
refs = int(re.search(r"total: \d+ primitives, (\d+) vertices", open(sys.argv[2]).read()).group(1))
assert run["draws"] == 15, f"run: {run['draws']} draws"
assert run["references"] == refs, f"run: {run['references']} vertex references, scene-exec {refs}"
print(f"scene-exec and run: 15 draws, {refs} vertex references")
PY
t2=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "record %.1f s, convert + scene-exec + run %.1f s\n", b - a, c - b }'
