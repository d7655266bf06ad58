#!/usr/bin/env bash
# vpsim capture of a 32-bit program (docs/capture.md): the i686 build of d3d8_spin.exe recorded
# under Debian's wine32 through the i686 recorder, frames 0-2 of `d3d8_spin.exe 10` as the
# end-to-end test records the x86-64 build. The capture must be the x86-64 one byte for byte: the
# same calls, resources, shader tokens, constants and vertex bytes (the test program computes in
# SSE2 in both builds, and the timers are virtual). The end-to-end recording was made with --shots
# 2, this one without: the comparison also shows that taking a picture leaves the capture unchanged.
# Usage: i686.sh VPSIM CAPTURE_BUILD_DIR E2E_WORK_DIR WORK_DIR. The Wine prefix is
# CAPTURE_BUILD_DIR/wineprefix32, kept for later runs: one made with wine32 installed (a prefix made
# before has no 32-bit system folder, and capture run refuses it).
set -euo pipefail
vpsim=$1 dir=$2 e2e=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
"$vpsim" capture run --prefix "$dir/wineprefix32" --frames 0-2 --screen 320x240x24 --time-limit 120 \
  -o "$work/spin32.vpcap" -- "$dir/i686/d3d8_spin.exe" 10 >"$work/run.out" 2>"$work/run.err" ||
  fail "capture run: exit $? ($(cat "$work/run.err"))"
cat "$work/run.out" "$work/run.err"
grep -q "3 complete frames recorded in .* (i686 program: exit status 0)" "$work/run.out" ||
  fail "not recorded as an i686 program"
[ ! -e "$dir/i686/d3d8.dll" ] || fail "the recorder was left beside the program"
cmp "$work/spin32.vpcap" "$e2e/spin.vpcap" || fail "the 32-bit capture differs from the 64-bit one"
echo "the 32-bit capture is the 64-bit one byte for byte ($(stat -c %s "$work/spin32.vpcap") bytes)"
