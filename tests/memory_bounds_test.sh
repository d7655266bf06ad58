#!/usr/bin/env bash
# ctests "cli: memory ...": memory in proportion to what a command is asked for (docs/limits.md,
# "Memory"), measured as GNU time's maximum resident set size.
#   tests/memory_bounds_test.sh VPSIM WORK scene-exec|run|out-of-memory
# scene-exec   a 1023 x 1023 grid drawn indexed (6.3 M references, 1 M distinct vertices): without
#              --json under 100 MB (vpsim before this kept every reference's vertex: 1.4 GB)
# run          8,000 fixed-function state changes, each followed by a draw: under 100 MB (before:
#              ~23 KB a pair, 200 MB)
# out-of-memory  scene-exec --json of that grid under a 1 GiB address space: the internal error,
#              exit 3 (before: "std::bad_alloc", exit 1)
# VPSIM_PEAK_LIMIT_KB=0 (the sanitizer build: ASan's shadow memory is not vpsim's) skips the checks.
set -uo pipefail
vpsim="$(realpath "$1")" work="$2" what="$3"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
limit_kb="${VPSIM_PEAK_LIMIT_KB:-102400}"
if [ "$limit_kb" -eq 0 ]; then
  echo "skipped: no memory limit under the sanitizers"
  exit 0
fi
fail() { echo "FAILED: $*"; exit 1; }

cat > grid.json <<'JSON'
{"buffers": {"g": {"generator": "grid", "columns": 1023, "rows": 1023, "indices": "INDEX32",
  "streams": {"p": [{"attribute": "position", "type": "FLOAT3"}]}}},
 "commands": [
  {"op": "CreateVertexShader", "name": "s", "declaration": {"text": "D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_END()"},
   "function": {"asm": "vs.1.1\nmov oPos, v0\n"}},
  {"op": "SetVertexShader", "shader": "s"},
  {"op": "SetStreamSource", "stream": 0, "buffer": "g.p", "stride": 12},
  {"op": "SetIndices", "buffer": "g.indices", "base_vertex": 0},
  {"op": "DrawIndexedPrimitive", "type": "trianglelist", "min_index": 0, "num_vertices": 1048576, "start_index": 0}]}
JSON

# peak CODE REGEX ARGS...: runs vpsim under GNU time; exit status, output and peak memory checked.
peak() {
  local code="$1" regex="$2"
  shift 2
  /usr/bin/time -f "%M" -o time.txt "$vpsim" "$@" > out.txt 2> err.txt
  local rc=$? kb
  kb="$(tail -n 1 time.txt)"
  [ "$rc" -eq "$code" ] || fail "vpsim $*: exit $rc, expected $code: $(head -c 600 err.txt)"
  grep -Eq -- "$regex" out.txt err.txt || fail "vpsim $*: output does not match '$regex': $(head -c 600 out.txt err.txt)"
  [ "$kb" -le "$limit_kb" ] || fail "vpsim $*: peak memory $kb KB, more than $limit_kb KB"
  echo "ok (exit $rc, peak $((kb / 1024)) MB): vpsim $*"
}

case "$what" in
scene-exec)
  peak 0 "total: 2093058 primitives, 6279174 vertices, 1048576 unique" scene-exec grid.json
  peak 0 '"unique_vertices": 1048576' scene-exec --json --summary grid.json
  ;;
run)
  python3 - <<'PY'
import json
cmds = [{"op": "SetVertexShader", "fvf": "D3DFVF_XYZ"}, {"op": "SetStreamSource", "stream": 0, "buffer": "tri", "stride": 12}]
for i in range(8000):
    cmds.append({"op": "SetTransform", "state": "WORLD", "matrix": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [i * 1e-3, 0, 0, 1]]})
    cmds.append({"op": "DrawPrimitive", "type": "trianglelist", "start_vertex": 0, "primitive_count": 1})
json.dump({"buffers": {"tri": {"layout": ["FLOAT3"], "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]]}}, "commands": cmds},
          open("ff_pairs.json", "w"))
PY
  peak 0 "draws +8,000" run ff_pairs.json --no-progress
  ;;
out-of-memory)
  ulimit -v 1048576
  "$vpsim" scene-exec --json grid.json > out.txt 2> err.txt
  rc=$?
  [ "$rc" -eq 3 ] || fail "scene-exec --json under 1 GiB: exit $rc, expected 3: $(head -c 600 err.txt)"
  grep -q "vpsim: internal error: out of memory" err.txt || fail "no internal error: $(head -c 600 err.txt)"
  echo "ok (exit 3): $(cat err.txt)"
  ;;
*) fail "usage: memory_bounds_test.sh VPSIM WORK scene-exec|run|out-of-memory" ;;
esac
