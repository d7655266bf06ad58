#!/usr/bin/env bash
# A `vpsim sweep --launcher` for tests that must stop a sweep at a known point, with no timing:
# the first $GATE_PASS points run at once; every later one announces itself by creating
# $GATE_DIR/waiting.K (K = its start number, 1-based; the file holds its process id, which the
# point keeps when this script execs it) and waits until $GATE_DIR/release exists.
# Start numbers are taken with mkdir, which is atomic, so parallel points get distinct ones.
set -u
dir="${GATE_DIR:?GATE_DIR: the directory of the gate}"
pass="${GATE_PASS:?GATE_PASS: how many points run before the gate}"
mkdir -p "$dir"
k=1
until mkdir "$dir/start.$k" 2>/dev/null; do k=$((k + 1)); done
if [ "$k" -gt "$pass" ]; then
  echo $$ > "$dir/waiting.$k.tmp" && mv "$dir/waiting.$k.tmp" "$dir/waiting.$k"
  until [ -e "$dir/release" ]; do sleep 0.02; done
fi
exec "$@"
