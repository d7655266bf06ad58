#!/usr/bin/env bash
# ctests "cli: sweep ... SIGKILL ..." (docs/sweep.md, "Points and resume"): a sweep killed by
# SIGKILL leaves no point running, and a resumed sweep records only what the points' files say.
#
#   sweep_orphan_test.sh VPSIM SRC WORK killed local|parallel
#     The sweep is held with two points at tests/sweep_gate.sh's gate (their process ids in the
#     gate's waiting files), killed by SIGKILL alone; both points must be gone within 5 s, before
#     the gate opens. The resumed sweep then runs every point: exit 0, each with stats.json and
#     exit_status 0.
#   sweep_orphan_test.sh VPSIM SRC WORK busy
#     A point directory another process holds (as a still running `vpsim run` does; flock(1) here)
#     and fills with a complete point before it lets go: the resumed sweep waits for it and takes
#     its files as the point's result (exit 0, no exit_status 2 beside its stats.json).
set -u
vpsim=$1 src=$2 work=$3 what=$4 backend=${5:-local}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
scene="$src/examples/scenes/strip.json"
args=(--scene "$scene" --axis vertex_alu.engines=1,2,3 --quiet)
fail() { echo "FAILED: $*"; exit 1; }

# every point of DIR: stats.json and exit_status 0
all_done() {
  local n=0
  for p in "$1"/points/*/; do
    n=$((n + 1))
    [ -f "$p/stats.json" ] || fail "$p: no stats.json"
    [ "$(cat "$p/exit_status" 2>/dev/null)" = 0 ] || fail "$p: exit_status '$(cat "$p/exit_status" 2>/dev/null)' beside the point's files"
  done
  [ "$n" = 3 ] || fail "$1: $n point directories, expected 3"
}

case "$what" in
killed)
  GATE_PASS=0 GATE_DIR=gate "$vpsim" sweep "${args[@]}" --backend "$backend" --jobs 2 \
    --launcher "$src/tests/sweep_gate.sh" --out s 2>s.log &
  sweep=$!
  for i in $(seq 500); do [ -e gate/waiting.1 ] && [ -e gate/waiting.2 ] && break; sleep 0.02; done
  [ -e gate/waiting.2 ] || fail "the points did not reach the gate: $(cat s.log)"
  pids="$(cat gate/waiting.1) $(cat gate/waiting.2)"
  kill -KILL "$sweep"
  wait "$sweep" 2>/dev/null
  for i in $(seq 250); do
    alive=""
    for p in $pids; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
    [ -z "$alive" ] && break
    sleep 0.02
  done
  if [ -n "$alive" ]; then
    kill -KILL $alive 2>/dev/null
    : > gate/release  # whatever else the orphans started runs through and ends
    fail "points$alive still run 5 s after the sweep was killed ($backend backend)"
  fi
  echo "ok: the killed sweep's points ($pids) ended with it"
  : > gate/release
  "$vpsim" sweep "${args[@]}" --backend "$backend" --jobs 2 --out s 2>r.log || fail "the resumed sweep: exit $?: $(cat r.log)"
  all_done s
  echo "ok: the resumed sweep ran every point; each has stats.json and exit_status 0"
  ;;
busy)
  "$vpsim" sweep "${args[@]}" --out done 2>d.log || fail "the reference sweep: $(cat d.log)"
  h=$(basename "$(ls -d done/points/*/ | head -1)")
  mkdir -p s/points/"$h"
  # The holder keeps the directory locked until the sweep says it waits (or has ended), then
  # completes the point as a running `vpsim run` would and lets go.
  flock s/points/"$h" sh -c "touch held; i=0; until grep -q 'still writing' r.log 2>/dev/null || [ -e sweep.ended ] || [ \$i -ge 1000 ]; do sleep 0.02; i=\$((i + 1)); done
    cp done/points/$h/* s/points/$h/ && rm s/points/$h/exit_status" &
  holder=$!
  for i in $(seq 250); do [ -e held ] && break; sleep 0.02; done
  "$vpsim" sweep "${args[@]}" --out s 2>r.log
  rc=$?
  : > sweep.ended
  wait "$holder"
  [ "$rc" = 0 ] || fail "the sweep beside a busy point: exit $rc: $(cat r.log)"
  grep -q "another process is still writing" r.log || fail "no word of the wait: $(cat r.log)"
  [ -f s/points/"$h"/stats.json ] || fail "the busy point has no stats.json"
  [ ! -e s/points/"$h"/exit_status ] || [ "$(cat s/points/"$h"/exit_status)" = 0 ] ||
    fail "exit_status $(cat s/points/"$h"/exit_status) beside the busy point's complete stats.json"
  cmp -s done/points/"$h"/stats.json s/points/"$h"/stats.json || fail "the busy point was run again"
  echo "ok: the sweep waited for the busy point and took its files: $(grep -c . r.log) lines on stderr"
  ;;
*) fail "usage: sweep_orphan_test.sh VPSIM SRC WORK killed local|parallel | busy" ;;
esac
