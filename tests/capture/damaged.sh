#!/usr/bin/env bash
# vpsim capture convert on a recording cut short inside frame 1 (the end-to-end test's capture, its
# first 4,000 bytes): exit 2, the cut located (frame 1 and its byte offset), and a scene of frame 0
# written that scene-exec runs (5 draws).
# Usage: damaged.sh VPSIM E2E_WORK_DIR WORK_DIR
set -uo pipefail
vpsim=$1 e2e=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work"
head -c 4000 "$e2e/spin.vpcap" >cut.vpcap
"$vpsim" capture convert cut.vpcap -o cut.json >out.txt 2>err.txt
code=$?
[ "$code" -eq 2 ] || { echo "FAIL: exit $code, expected 2"; cat err.txt; exit 1; }
grep -q "cut.vpcap: frame 1, byte offset [0-9]*: .*a truncated capture (1 frame before it converted)" err.txt ||
  { echo "FAIL: message: $(cat err.txt)"; exit 1; }
"$vpsim" scene-exec cut.json | grep -q "cut.json: 5 draws" || { echo "FAIL: the scene of frame 0"; exit 1; }
cat err.txt
