#!/usr/bin/env bash
# vpsim capture run with a PATH where xvfb-run and xauth cannot be found: exit 2, a message naming
# their Debian packages and scripts/deps.sh, and nothing installed or run.
# Usage: missing_tools.sh VPSIM WORK_DIR
set -uo pipefail
vpsim=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work"
# A PE header's first bytes (an MZ header whose e_lfanew points at "PE\0\0" and machine 0x8664):
# enough for capture run to take it for an x86-64 program before it looks for the tools.
printf 'MZ' >prog.exe && head -c 58 /dev/zero >>prog.exe && printf '\x40\0\0\0PE\0\0\x64\x86' >>prog.exe
PATH=/nonexistent "$vpsim" capture run -o out.vpcap -- ./prog.exe >out.txt 2>err.txt
code=$?
[ "$code" -eq 2 ] || { echo "FAIL: exit $code, expected 2"; cat err.txt; exit 1; }
grep -q "missing: .*xvfb-run (package xvfb), xauth (package xauth); scripts/deps.sh installs them" err.txt ||
  { echo "FAIL: message: $(cat err.txt)"; exit 1; }
[ ! -e out.vpcap ] && [ ! -e d3d8.dll ] || { echo "FAIL: something was written"; exit 1; }
echo "ok: $(cat err.txt)"
