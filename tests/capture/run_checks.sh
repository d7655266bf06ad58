#!/usr/bin/env bash
# vpsim capture run's checks before anything runs (docs/capture.md, "Recording"), one case per
# ctest: each exits 2 with a message naming the rule and runs, places and writes nothing.
#   not_pe      a file without an MZ header: "byte offset 0: not a Windows program"
#   machine     a PE image for another machine (ARM64, 0xAA64): its machine and offset named
#   no_pe_sig   an MZ header whose e_lfanew points at no "PE\0\0": the offset named
#   i686_hint   a 32-bit program with xvfb-run and xauth out of reach: the message points at
#               scripts/deps.sh --capture32 (the 32-bit packages are optional there)
#   shots_list  --shots 1,x: not a list of frames
#   shots_range --shots 5 with --frames 0-2: a frame after the last one recorded
#   old_prefix  a 32-bit program and a Wine prefix without a 32-bit system folder (one made before
#               wine32 was installed; here a system.reg alone): refused, the way out named (needs
#               the i686 recorder and wine32, so registered only with them)
# Usage: run_checks.sh VPSIM WORK_DIR CASE
set -uo pipefail
vpsim=$1 work=$2 case=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
# pe MACHINE_BYTES: an MZ header, e_lfanew = 64, "PE\0\0", then the machine field
pe() { printf 'MZ' && head -c 58 /dev/zero && printf '\x40\0\0\0PE\0\0' && printf "$1"; }
path=$PATH args=()
case "$case" in
  not_pe) printf 'not a program' >prog.exe; want="prog.exe: byte offset 0: not a Windows program" ;;
  machine) pe '\x64\xaa' >prog.exe; want="prog.exe: byte offset 68: PE machine 0xAA64 is not one vpsim capture records" ;;
  no_pe_sig) { printf 'MZ' && head -c 58 /dev/zero && printf '\x40\0\0\0NE\0\0\x4c\x01'; } >prog.exe
             want="prog.exe: byte offset 64: no PE signature" ;;
  i686_hint) pe '\x4c\x01' >prog.exe; path=/nonexistent
             want="missing: .*xvfb-run (package xvfb), xauth (package xauth); scripts/deps.sh --capture32 installs them" ;;
  shots_list) pe '\x64\x86' >prog.exe; args=(--shots 1,x); want="--shots 1,x: expected frame numbers and ranges" ;;
  shots_range) pe '\x64\x86' >prog.exe; args=(--frames 0-2 --shots 5)
               want="--shots: frame 5 is after the last frame recorded (--frames 0-2)" ;;
  old_prefix) pe '\x4c\x01' >prog.exe; mkdir pfx && : >pfx/system.reg
              want="pfx: this Wine prefix was made without 32-bit Wine (no drive_c/windows/syswow64/kernel32.dll" ;;
  *) echo "unknown case $case"; exit 1 ;;
esac
PATH=$path "$vpsim" capture run "${args[@]}" --prefix pfx -o out.vpcap -- ./prog.exe >out.txt 2>err.txt
code=$?
[ "$code" -eq 2 ] || { echo "FAIL: exit $code, expected 2"; cat out.txt err.txt; exit 1; }
grep -q -- "$want" err.txt || { echo "FAIL: message: $(cat err.txt)"; exit 1; }
[ ! -e out.vpcap ] && [ ! -e d3d8.dll ] && { [ ! -e pfx ] || [ "$case" = old_prefix ]; } ||
  { echo "FAIL: something was written"; ls; exit 1; }
echo "ok: $(cat err.txt)"
