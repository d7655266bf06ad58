#!/usr/bin/env bash
# Bad and oversized input, misuse as a user would: each of issue 14's reproducers gets a clear
# error (exit status, message naming the rule or limit) and stays under 100 MB of peak memory
# (GNU time's maximum resident set size); output directories stay consistent under signals and
# a second writer. One case a run (a ctest each: tests/CMakeLists.txt), in a work directory of its own.
#   tests/robustness_test.sh VPSIM SOURCE_DIR WORK_DIR CASE
# CASE: tess_sizes numbers draw_range npatch exec_streams one_writer signals regular_files
set -uo pipefail
[ $# -eq 4 ] || { echo "usage: tests/robustness_test.sh VPSIM SOURCE_DIR WORK_DIR CASE" >&2; exit 2; }
vpsim="$(realpath "$1")"
src="$(realpath "$2")"
work="$3"
case="$4"
rm -rf "$work"
mkdir -p "$work"
work="$(realpath "$work")"
cd "$work"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
# Peak resident set allowed, KB (VPSIM_PEAK_LIMIT_KB; 0: not checked, as under the sanitizers).
limit_kb="${VPSIM_PEAK_LIMIT_KB:-102400}"

# expect CODE REGEX -- ARGS...: runs vpsim under /usr/bin/time; checks the exit status, that
# stderr+stdout match REGEX, and the peak memory.
expect() {
  local code="$1" regex="$2"
  shift 3
  /usr/bin/time -f "%M" -o time.txt "$vpsim" "$@" > out.txt 2> err.txt
  local rc=$?
  local kb
  kb="$(tail -n 1 time.txt)"
  if [ "$rc" -ne "$code" ]; then
    fail "vpsim $*: exit $rc, expected $code: $(head -c 600 err.txt)"
  # grep reads the two files itself: out.txt can be 4 M lines (exec --count below), which bash took
  # half a minute to hold in a variable and pass as a here-string.
  elif [ "$regex" != "-" ] && ! grep -Eq -- "$regex" < <(cat out.txt err.txt); then
    fail "vpsim $*: output does not match '$regex': $(head -c 600 err.txt)"
  elif [ "$limit_kb" -gt 0 ] && [ "$kb" -gt "$limit_kb" ]; then
    fail "vpsim $*: peak memory ${kb} KB, more than ${limit_kb} KB"
  else
    echo "ok (exit $rc, peak $((kb / 1024)) MB): vpsim $*"
  fi
}

# A scene file from a Python expression of the commands (buffers: a FLOAT3 quad).
scene() {  # scene FILE COMMANDS_JSON [BUFFERS_JSON]
  local buffers="${3:-}"
  [ -n "$buffers" ] || buffers='{"quad": {"layout": ["FLOAT3"], "vertices": [[0,0,0],[1,0,0],[0,1,0]]}}'
  cat > "$1" <<JSON
{"buffers": $buffers,
 "commands": [
  {"op": "CreateVertexShader", "name": "s",
   "declaration": {"text": "D3DVSD_STREAM(0),\nD3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3),\nD3DVSD_END()\n"},
   "function": {"asm": "vs.1.1\nmov oPos, v0\n"}},
  {"op": "SetVertexShader", "shader": "s"},
  {"op": "SetStreamSource", "stream": 0, "buffer": "quad", "stride": 12},
  $2
 ]}
JSON
}
grid_scene() {  # grid_scene FILE N [COMMAND_JSON,]: an N x N generated grid drawn indexed
  cat > "$1" <<JSON
{"buffers": {"g": {"generator": "grid", "columns": $2, "rows": $2, "indices": "INDEX32",
   "streams": {"pos": [{"attribute": "position", "type": "FLOAT3"}]}}},
 "commands": [
  {"op": "CreateVertexShader", "name": "s",
   "declaration": {"text": "D3DVSD_STREAM(0),\\nD3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3),\\nD3DVSD_END()\\n"},
   "function": {"asm": "vs.1.1\\nmov oPos, v0\\n"}},
  {"op": "SetVertexShader", "shader": "s"},
  {"op": "SetStreamSource", "stream": 0, "buffer": "g.pos", "stride": 12},
  {"op": "SetIndices", "buffer": "g.indices"},
  ${3:-}
  {"op": "DrawIndexedPrimitive", "type": "trianglelist"}
 ]}
JSON
}
patch_scene() {  # patch_scene FILE INFO_JSON SEGMENTS
  cat > "$1" <<JSON
{"buffers": {"cp": {"layout": ["FLOAT3"], "vertices": [[0,0,0],[1,0,0],[2,0,0],[3,0,0],[0,1,0],[1,1,1],[2,1,1],[3,1,0],
   [0,2,0],[1,2,1],[2,2,1],[3,2,0],[0,3,0],[1,3,0],[2,3,0],[3,3,0]]}},
 "commands": [
  {"op": "CreateVertexShader", "name": "p",
   "declaration": {"text": "D3DVSD_STREAM(0),\nD3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3),\nD3DVSD_END()\n"},
   "function": {"asm": "vs.1.1\nmov oPos, v0\n"}},
  {"op": "SetVertexShader", "shader": "p"},
  {"op": "SetStreamSource", "stream": 0, "buffer": "cp", "stride": 12},
  {"op": "DrawRectPatch", "handle": 0, "segments": [$3, $3, $3, $3], "info": $2}
 ]}
JSON
}

pair_of() {  # pair_of DIR: "config-scene stats-scene"
  python3 -c 'import json, sys; d = sys.argv[1]
print(json.load(open(d + "/config.json"))["scene"]["name"], json.load(open(d + "/stats.json"))["summary"]["scene"])' "$1"
}
# The declaration and shaders of the exec cases.
shader_files() {
  printf 'D3DVSD_STREAM(0),\nD3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3),\nD3DVSD_END()\n' > pos.decl
  printf 'vs.1.1\nmov oPos, v0\n' > pos.vsh
  printf 'D3DVSD_END()\n' > none.decl
  printf 'vs.1.1\nmov oPos, c0\n' > const.vsh
}

case_tess_sizes() {
  echo "== 1. tessellator sizes are checked before anything is allocated"
  patch_scene huge_rect.json '{"width": 4294967295, "height": 4294967295, "stride": 4294967295, "basis": "bspline", "order": "cubic"}' 8
  expect 1 "T13 \(size-limit\): rect patch 4294967295x4294967295 has 18446744065119617025 control points, more than the limit 65536" -- scene-exec huge_rect.json
  expect 1 "T13 \(size-limit\): rect patch 4294967295x4294967295" -- run huge_rect.json --quiet
  patch_scene max_segs.json '{"width": 4, "height": 4, "stride": 4, "basis": "bezier", "order": "cubic"}' 4096
  expect 1 "T13 \(size-limit\): the rect patch would generate up to 16801793 vertices, more than the limit 131072" -- \
    scene-exec max_segs.json --tess-profile max-segments=4096
  expect 1 "T13 \(size-limit\)" -- run max_segs.json --quiet --tess-profile max-segments=4096
  expect 0 "-" -- scene-exec max_segs.json --tess-profile max-segments=128
  expect 2 "max-segments: expected an integer 1..4096, found \"-18446744073709551615\"" -- \
    scene-exec max_segs.json --tess-profile max-segments=-18446744073709551615
  expect 2 "max-vertices: expected an integer 1..268435456, found \"0\"" -- scene-exec max_segs.json --tess-profile max-vertices=0
}

case_numbers() {
  echo "== 2, 3. numbers out of range and invalid UTF-8 are located parameter / scene errors"
  scene huge_number.json '{"op": "SetVertexShaderConstant", "register": 0, "values": [[1e999, 0, 0, 0]]}'
  expect 2 "huge_number.json: line 8, column 64: 1e999 does not fit a 64-bit float" -- scene-exec huge_number.json
  printf '{"vertex_alu": {"engines": 1e999}}\n' > huge.cfg.json
  expect 2 "huge.cfg.json: line 1, column 28: 1e999 does not fit a 64-bit float" -- params --config huge.cfg.json
  expect 2 "vertex_alu.coissue: expected enum \{off, pairs, window\}, got" -- params --set $'vertex_alu.coissue=\x90'
}

case_draw_range() {
  echo "== 4. scene-exec checks a draw's vertex range before allocating per reference"
  scene big_draw.json '{"op": "DrawPrimitive", "type": "trianglelist", "start_vertex": 0, "primitive_count": 100000000}'
  expect 1 "/commands/3: shader \"s\": stream 0, vertex 3: .*past the end of the 36-byte buffer" -- scene-exec big_draw.json
  expect 1 "/commands/3: shader \"s\": stream 0, vertex 3: .*past the end of the 36-byte buffer" -- run big_draw.json --quiet
  scene bigger_draw.json '{"op": "DrawPrimitive", "type": "trianglelist", "start_vertex": 0, "primitive_count": 1500000000}'
  expect 1 "vertices 0..4499999999 go past index 0xFFFFFFFF" -- scene-exec bigger_draw.json
}

case_npatch() {
  echo "== 5. N-patch draws: the range and the limit before the per-reference registers"
  scene npatch_draw.json '{"op": "SetRenderState", "state": "PATCHSEGMENTS", "value": 4.0},
    {"op": "DrawPrimitive", "type": "trianglelist", "start_vertex": 0, "primitive_count": 1000000}'
  expect 1 "/commands/4: shader \"s\": stream 0, vertex 3: .*past the end" -- scene-exec npatch_draw.json
  # A valid N-patch draw (a 256 x 256 grid: 131072 triangles) that would generate too much.
  grid_scene npatch_big.json 256 '{"op": "SetRenderState", "state": "PATCHSEGMENTS", "value": 4.0},'
  expect 1 "N-patch: T13 \(size-limit\): the N-patch draw would generate up to 1966080 vertices, more than the limit 131072" -- \
    scene-exec npatch_big.json
  expect 1 "N-patch: T13 \(size-limit\)" -- run npatch_big.json --quiet
}

case_exec_streams() {
  echo "== 6. exec --count streams its output"
  shader_files
  truncate -s 24000000 two_million.vb
  expect 0 "pos.vsh: 2000000 vertices \(0..1999999\), fast path" -- exec --decl pos.decl --shader pos.vsh --stream 0=two_million.vb
  [ "$(wc -l < out.txt)" -eq 4000001 ] || fail "exec of 2000000 vertices: $(wc -l < out.txt) lines, expected 4000001"
  rm -f two_million.vb out.txt
  expect 0 "const.vsh: 2000000 vertices" -- exec --decl none.decl --shader const.vsh --count 2000000 --first 18000000
  /usr/bin/time -f "%M" -o time.txt bash -c "'$vpsim' exec --decl none.decl --shader const.vsh --count 4294967295 --json | head -c 1000000 > head.txt"
  kb="$(tail -n 1 time.txt)"
  [ "$limit_kb" -eq 0 ] || [ "$kb" -le "$limit_kb" ] || fail "exec --count 4294967295 | head: peak ${kb} KB"
  head -c 16 head.txt | grep -q '{"vertices": \[' || fail "exec --count 4294967295 --json: output starts $(head -c 40 head.txt)"
  echo "ok (peak $((kb / 1024)) MB): exec --count 4294967295 --json | head -c 1000000"
}

case_one_writer() {
  echo "== 7. one writer per --out directory"
  # A run of a few seconds: a 1024 x 1024 grid (2M triangles).
  grid_scene slow.json 1024
  "$vpsim" run slow.json --quiet --out shared > /dev/null 2> a.err &
  apid=$!
  # Once the kernel lists the first run's flock() on shared/ (/proc/locks: looked at, not taken, so
  # the probe cannot be the second writer), the run is stopped (SIGSTOP): it cannot end while the
  # second run tries, however fast the machine is. Then it goes on (SIGCONT).
  held=0
  for i in $(seq 1 3000); do
    if [ -d shared ] && grep -Eq "FLOCK +ADVISORY +WRITE +$apid +[0-9a-f]+:[0-9a-f]+:$(stat -c %i shared) " /proc/locks; then
      kill -STOP "$apid"
      held=1
      break
    fi
    kill -0 "$apid" 2>/dev/null || break
    sleep 0.01
  done
  if [ "$held" = 1 ]; then
    expect 2 "shared: another vpsim process is writing this output directory" -- run --quiet --out shared
    kill -CONT "$apid"
  else
    fail "the first run was never seen holding shared/ (it ended, or took no lock): $(cat a.err)"
  fi
  wait "$apid" || fail "the first run exited $?: $(cat a.err)"
  [ -s shared/stats.json ] && [ -s shared/config.json ] || fail "the first run's files are missing"
  [ "$(pair_of shared)" = "slow.json slow.json" ] || fail "shared/: config.json and stats.json: $(pair_of shared)"
  # Ten pairs of runs one after the other into one directory: the pair is always one run's.
  for i in $(seq 1 5); do
    "$vpsim" run "$src/examples/workloads/toon.json" --quiet --out pair 2>/dev/null &
    p1=$!
    "$vpsim" run "$src/examples/workloads/point_light.json" --quiet --out pair 2>/dev/null &
    p2=$!
    wait $p1; r1=$?
    wait $p2; r2=$?
    [ $r1 -eq 0 ] || [ $r2 -eq 0 ] || fail "trial $i: both runs failed ($r1, $r2)"
    read -r c s <<<"$(pair_of pair)"
    [ -n "$c" ] && [ "$c" = "$s" ] || fail "trial $i: config.json from '$c', stats.json from '$s' (exits $r1 $r2)"
  done
  echo "ok: concurrent runs into one --out: refused or whole, never mixed"
}

case_signals() {
  echo "== 8. SIGINT / SIGTERM during run: temporaries removed, exit 130 / 143"
  grid_scene slow.json 1024
  for sig in INT TERM; do
    rm -rf sig
    "$vpsim" run slow.json --quiet --vertices --out sig > /dev/null 2>&1 &
    pid=$!
    # Stopped (SIGSTOP) as soon as a temporary file exists, so the signal reaches it while it writes
    # however fast the machine is; the signal waits until SIGCONT.
    for i in $(seq 1 3000); do
      if ls sig/*.tmp.* > /dev/null 2>&1; then
        kill -STOP "$pid"
        break
      fi
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.01
    done
    ls sig/*.tmp.* > /dev/null 2>&1 || fail "SIG$sig: no temporary file while the run was stopped: nothing to interrupt"
    kill -s "$sig" "$pid"
    kill -CONT "$pid"
    wait "$pid"
    rc=$?
    want=$([ "$sig" = INT ] && echo 130 || echo 143)
    [ "$rc" -eq "$want" ] || fail "SIG$sig: exit $rc, expected $want"
    left="$(ls sig/ | grep '\.tmp\.' || true)"
    [ -z "$left" ] || fail "SIG$sig: temporaries left: $left"
    [ ! -e sig/stats.json ] || fail "SIG$sig: stats.json written by an interrupted run"
    echo "ok: SIG$sig during run: exit $rc, no temporary left"
  done
}

case_regular_files() {
  echo "== 9. only regular files, of at most 1 GiB"
  shader_files
  printf '{"buffers": {"z": {"file": "/dev/zero"}}, "commands": []}\n' > devzero.json
  expect 2 "/buffers/z/file: /dev/zero: not a regular file \(a character device\)" -- scene-exec devzero.json
  expect 2 "/buffers/z/file: /dev/zero: not a regular file \(a character device\)" -- run devzero.json --quiet
  mkdir -p cfgdir
  expect 2 "cfgdir: cannot read the config file: not a regular file \(a directory\)" -- params --config cfgdir
  expect 2 "not a regular file \(a directory\)" -- run cfgdir --quiet
  truncate -s 1073741825 big.vb
  expect 2 "big.vb: size 1073741825 bytes is more than the input file limit of 1073741824 bytes" -- \
    exec --decl pos.decl --shader pos.vsh --stream 0=big.vb --count 1
  rm -f big.vb
  expect 2 "vertex_alu\\.\\\\x1b\[31m: unknown parameter" -- params --set $'vertex_alu.\x1b[31m=1'
  printf '\x00\x02\xfe\xff' > badver.bin  # 0xFFFE0200: vs.2.0
  expect 1 "B1 \(version\)" -- check --decl pos.decl --shader badver.bin
}

declare -F "case_$case" > /dev/null || { echo "tests/robustness_test.sh: no case '$case'" >&2; exit 2; }
"case_$case"
[ "$failures" -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok: $case: every reproducer is a clear error within 100 MB"
