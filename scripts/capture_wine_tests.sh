#!/usr/bin/env bash
# Wine's own Direct3D 8 conformance tests as a vpsim capture workload (docs/capture.md, "Wine's d3d8
# conformance tests"). Not in CI: the three tests take about ten minutes under Wine, twice.
#   1. fetches Debian's source package of the installed Wine (apt-get source --download-only, with
#      a deb-src entry in a private apt folder under WORK: the system's apt configuration is not
#      touched) and unpacks dlls/d3d8/tests and include/wine/{test,debug,heap}.h;
#   2. builds dlls/d3d8/tests (device.c, stateblock.c, visual.c) with mingw-w64 (x86-64) into one
#      d3d8_test.exe, with three small shims of our own: the test list (what Wine's make generates),
#      empty definitions of two heap-annotation macros, and __wine_dbg_strdup;
#   3. runs each test under Wine in Xvfb (1024x768x24) without the recorder, then through
#      `vpsim capture run`, and counts the checks and failures both ways (the harness's
#      "N tests executed (... F failures), S skipped" lines);
#   4. splits each capture where a test creates its next device (a scene has one device), converts
#      each part with `vpsim capture convert` and executes it with `vpsim scene-exec`, and counts the
#      draws recorded, converted and executed, with the reason of each part that fails.
# Usage: scripts/capture_wine_tests.sh [--build DIR] [--work DIR] [--real-time] [TEST...]
#   --build DIR  vpsim's build (default build/): vpsim, capture/libd3d8.a and the recorder
#   --work DIR   where everything goes (default DIR/wine-d3d8-tests)
#   --real-time  record with the program's real timers (VPSIM_CAPTURE_REAL_TIME=1). visual needs it:
#                its performance test divides by the time two of its draws took, which the
#                recorder's virtual clock (1 us per read within a frame) makes zero, and the
#                program dies of a division by zero (visual.c: test_map_synchronisation; see
#                docs/capture.md)
#   TEST         device, stateblock, visual (default all three; `stateblock` alone takes ~20 s)
# Prints a summary table and writes it to WORK/summary.md. Exit 0 when it ran to the end.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build" work="" tests=() real_time=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$(cd "$2" && pwd)"; shift ;;
    --work) work="$2"; shift ;;
    --real-time) real_time=1 ;;
    device|stateblock|visual) tests+=("$1") ;;
    *) echo "capture_wine_tests.sh: unknown argument $1 (see its header)" >&2; exit 2 ;;
  esac
  shift
done
[ ${#tests[@]} -gt 0 ] || tests=(device stateblock visual)
work="${work:-$build/wine-d3d8-tests}"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
vpsim="$build/vpsim"
wine64="$(command -v wine64 || echo /usr/lib/wine/wine64)"
for need in "$vpsim" "$build/capture/libd3d8.a" "$build/share/vpsim/capture/d3d8.dll" "$wine64"; do
  [ -x "$need" ] || [ -f "$need" ] || { echo "capture_wine_tests.sh: $need is missing (scripts/deps.sh, then the build)" >&2; exit 2; }
done
for tool in x86_64-w64-mingw32-gcc xvfb-run apt-get tar; do
  command -v "$tool" >/dev/null || { echo "capture_wine_tests.sh: $tool is missing (scripts/deps.sh)" >&2; exit 2; }
done
export PATH="$(dirname "$wine64"):$PATH"
t0=$(date +%s)
stage() { echo "== $1 ($(( $(date +%s) - t0 )) s)"; }

# ---- 1. the source, of the Wine that is installed ----
version="$(dpkg-query -W -f='${Version}' wine64)"
src="$work/src"
if [ ! -f "$src/dlls/d3d8/tests/visual.c" ]; then
  stage "fetching Debian's wine $version source package"
  apt="$work/apt"
  mkdir -p "$apt/sources" "$apt/lists/partial" "$apt/cache/archives/partial"
  suite="$(. /etc/os-release && echo "$VERSION_CODENAME")"
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$suite" >"$apt/sources/wine-src.sources"
  opts=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$apt/sources" -o "Dir::State::Lists=$apt/lists"
        -o "Dir::Cache=$apt/cache" -o "APT::Sandbox::User=root" -q)
  apt-get "${opts[@]}" update >/dev/null
  (cd "$work" && apt-get "${opts[@]}" source --download-only "wine=$version" >/dev/null)
  orig="$(ls "$work"/wine_*.orig.tar.* | head -1)"
  mkdir -p "$src"
  tar -xf "$orig" -C "$src" --strip-components=1 --wildcards '*/dlls/d3d8/tests/*' '*/include/wine/test.h' \
    '*/include/wine/debug.h' '*/include/wine/heap.h'
fi

# ---- 2. the build ----
bin="$work/bin"
if [ ! -f "$bin/d3d8_test.exe" ]; then
  stage "building dlls/d3d8/tests with mingw-w64"
  mkdir -p "$bin/inc/wine"
  cp "$src"/include/wine/{test,debug,heap}.h "$bin/inc/wine/"
  # The test list Wine's build generates for a test program, with the harness's main (STANDALONE).
  cat >"$bin/testlist.c" <<'EOF'
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#define STANDALONE
#include "wine/test.h"
extern void func_device(void);
extern void func_stateblock(void);
extern void func_visual(void);
const struct test winetest_testlist[] = {
    {"device", func_device}, {"stateblock", func_stateblock}, {"visual", func_visual}, {0, 0}};
EOF
  # wine/debug.h's debugstr helpers call this Wine-internal function: a copy of the string will do.
  cat >"$bin/shim.c" <<'EOF'
#include <string.h>
const char* __cdecl __wine_dbg_strdup(const char* s) { return _strdup(s); }
EOF
  # mingw-w64's own Windows headers (Wine's generate several from IDL at its build); only the three
  # wine/ headers are Wine's. wine/heap.h's allocation annotations are Wine's macros: empty here.
  cc=(x86_64-w64-mingw32-gcc -O1 -w -I"$bin/inc" '-D__WINE_ALLOC_SIZE(...)=' -D__WINE_MALLOC=)
  for f in device stateblock visual; do "${cc[@]}" -c -o "$bin/$f.o" "$src/dlls/d3d8/tests/$f.c"; done
  "${cc[@]}" -c -o "$bin/testlist.o" "$bin/testlist.c"
  "${cc[@]}" -c -o "$bin/shim.o" "$bin/shim.c"
  x86_64-w64-mingw32-gcc -static -o "$bin/d3d8_test.exe.part" "$bin"/{device,stateblock,visual,testlist,shim}.o \
    "$build/capture/libd3d8.a" -luser32 -lgdi32
  mv "$bin/d3d8_test.exe.part" "$bin/d3d8_test.exe"
fi

# ---- 3. the tests, without and with the recorder ----
prefix="$work/wineprefix"
runs="$work/runs"
mkdir -p "$runs/plain" "$runs/recorded"
cp "$bin/d3d8_test.exe" "$runs/plain/" && cp "$bin/d3d8_test.exe" "$runs/recorded/"
screen="1024x768x24"
# "checks failures skipped seconds" of a test's output: the harness's summary lines, summed.
tally() {
  awk '/ tests executed \(/ { n += $2; for (i = 1; i <= NF; ++i) if ($i ~ /^failures?\)/) f += $(i-1);
       for (i = 1; i <= NF; ++i) if ($i ~ /^skipped/) s += $(i-1) } END { printf "%d %d %d", n, f, s }' "$1"
}
for t in "${tests[@]}"; do
  stage "$t: with the recorder (vpsim capture run; the prefix is made the first time)"
  s=$(date +%s.%N)
  VPSIM_CAPTURE_REAL_TIME=$real_time "$vpsim" capture run --prefix "$prefix" --screen "$screen" --time-limit 1800 -o "$runs/recorded/$t.vpcap" \
    -- "$runs/recorded/d3d8_test.exe" "$t" >"$runs/recorded/$t.out" 2>"$runs/recorded/$t.err" || true
  echo "$(date +%s.%N) - $s" | bc >"$runs/recorded/$t.seconds"
  stage "$t: without the recorder"
  s=$(date +%s.%N)
  (cd "$runs/plain" && env WINEPREFIX="$prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=;winedbg.exe=d" \
    timeout 1800 xvfb-run -a -s "-screen 0 $screen" "$wine64" d3d8_test.exe "$t" >"$t.out" 2>"$t.err") || true
  echo "$(date +%s.%N) - $s" | bc >"$runs/plain/$t.seconds"
  env WINEPREFIX="$prefix" wineserver -k 2>/dev/null || true
done

# ---- 4. the captures: split per device, converted, executed ----
split_py="$work/split_devices.py"
cat >"$split_py" <<'EOF'
# Splits a vpsim capture (docs/capture.md, format versions 1..3) where a second, third, ... device is
# created: part k holds device k's calls, framed at Present as in the capture, frames renumbered
# and checksummed again. Writes OUT_PREFIX.devN.vpcap; prints the number of parts.
import struct, sys
data = open(sys.argv[1], "rb").read()
out = sys.argv[2]
assert data[:8] == b"VPSIMCAP", "not a capture"
hdr = bytearray(data[:32])
call_header = 12 if struct.unpack_from("<I", data, 8)[0] >= 3 else 8  # version 3 adds the HRESULT
struct.pack_into("<II", hdr, 20, 0, 0xFFFFFFFF)  # every frame of a part is wanted
def fnv(b):
    h = 2166136261
    for x in b:
        h = ((h ^ x) * 16777619) & 0xFFFFFFFF
    return h
parts, frame, calls = [], [], 0
def close_frame():
    global frame, calls
    if frame:
        parts[-1].append((calls, b"".join(frame)))
    frame, calls = [], 0
at = 32
while at + 20 <= len(data):
    magic, number, ncalls, size, checksum = struct.unpack_from("<5I", data, at)
    payload = data[at + 20:at + 20 + size]
    if magic != 0x4D415246 or len(payload) != size or fnv(payload) != checksum:
        break  # damage: the frames before it only (capture info says where)
    p = 0
    while p + call_header <= size:
        op, _, n = struct.unpack_from("<HHI", payload, p)
        hr = struct.unpack_from("<I", payload, p + 8)[0] if call_header == 12 else 0
        call = payload[p:p + call_header + n]
        if op == 1 and not hr & 0x80000000:  # a CreateDevice that succeeded: a new part
            close_frame()
            parts.append([])
        if not parts:
            parts.append([])
        frame.append(call)
        calls += 1
        if op == 24:  # Present
            close_frame()
        p += call_header + n
    at += 20 + size
close_frame()
for k, frames in enumerate(parts):
    with open(f"{out}.dev{k}.vpcap", "wb") as f:
        f.write(hdr)
        for i, (n, payload) in enumerate(frames):
            f.write(struct.pack("<5I", 0x4D415246, i, n, len(payload), fnv(payload)))
            f.write(payload)
print(len(parts))
EOF
summary="$work/summary.md"
{
  echo "| test | checks (failures, skipped) without the recorder | with it | seconds without / with | devices | frames | draws recorded | converted | executed |"
  echo "|---|---|---|---|---|---|---|---|---|"
} >"$summary"
for t in "${tests[@]}"; do
  stage "$t: converting and executing the capture"
  read -r pn pf ps <<<"$(tally "$runs/plain/$t.out")"
  read -r rn rf rs <<<"$(tally "$runs/recorded/$t.out")"
  cap="$runs/recorded/$t.vpcap"
  frames=0 recorded=0 converted=0 executed=0 devices=0
  fails="$work/$t.failures.txt"
  : >"$fails"
  if [ -f "$cap" ]; then
    "$vpsim" capture info --json "$cap" >"$work/$t.info.json" 2>>"$fails" || true
    read -r frames recorded <<<"$(python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["frames"]; print(len(f), sum(x["draws"] for x in f))' "$work/$t.info.json")"
    rm -rf "$work/$t.parts" && mkdir -p "$work/$t.parts"
    devices=$(python3 "$split_py" "$cap" "$work/$t.parts/$t")
    for part in "$work/$t.parts"/*.vpcap; do
      [ -e "$part" ] || continue
      scene="${part%.vpcap}.json"
      if "$vpsim" capture convert "$part" -o "$scene" >"$scene.out" 2>"$scene.err"; then :; else
        echo "$(basename "$part"): convert: $(grep -v 'left out' "$scene.err" | tail -1)" >>"$fails"
      fi
      c=$(sed -n 's/.*: [0-9]* frames\{0,1\}, \([0-9]*\) draws\(, .*\)\{0,1\}$/\1/p' "$scene.out")
      converted=$(( converted + ${c:-0} ))
      [ -f "$scene" ] || continue
      if "$vpsim" scene-exec "$scene" >"$scene.exec" 2>"$scene.exec.err"; then
        e=$(sed -n '1s/.*: \([0-9]*\) draws\{0,1\}, .*/\1/p' "$scene.exec")  # "1 draw, fast path" too
        executed=$(( executed + ${e:-0} ))
      else
        echo "$(basename "$part"): scene-exec: $(tail -1 "$scene.exec.err")" >>"$fails"
      fi
    done
  else
    echo "$t: no capture written: $(tail -2 "$runs/recorded/$t.err")" >>"$fails"
  fi
  printf '| %s | %d (%d, %d) | %d (%d, %d) | %.0f / %.0f | %d | %d | %d | %d | %d |\n' "$t" "$pn" "$pf" "$ps" "$rn" "$rf" "$rs" \
    "$(cat "$runs/plain/$t.seconds")" "$(cat "$runs/recorded/$t.seconds")" "$devices" "$frames" "$recorded" "$converted" \
    "$executed" >>"$summary"
done
stage "done"
cat "$summary"
for t in "${tests[@]}"; do
  grep -h "Test failed" "$runs/plain/$t.out" | sed "s/^/$t without the recorder: /" || true
  grep -h "Test failed" "$runs/recorded/$t.out" | sed "s/^/$t with the recorder: /" || true
  if [ -s "$work/$t.failures.txt" ]; then
    echo "$t: parts that did not convert or execute ($(wc -l <"$work/$t.failures.txt")), by reason:"
    sed 's/^[^:]*: //' "$work/$t.failures.txt" | sed 's/frame [0-9]*, call [0-9]*, byte offset [0-9]*: //' | sort | uniq -c | sort -rn | head -20
  fi
done
