#!/usr/bin/env bash
# The Slurm backend on a real single-node Slurm: scripts/slurm-local.sh installs (slurm-wlm,
# munge) and starts munged, slurmctld and slurmd on this machine; scripts/sweep-slurm.sh runs
# a points file of 12 vpsim runs (vertex_alu.engines 1-4 x coissue off/pairs/window) and one
# line that fails as a job array. Each point's stats.json must equal the same run done here
# without Slurm (host timing fields aside), the failing line must be named, and a controller
# that does not answer and a missing sbatch must be reported plainly. Slurm is stopped at the end. Needs root.
#   tests/slurm_test.sh VPSIM SOURCE_DIR WORK_DIR
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: tests/slurm_test.sh VPSIM SOURCE_DIR WORK_DIR" >&2; exit 2; }
vpsim="$(realpath "$1")"
src="$(realpath "$2")"
work="$3"
[ -x "$vpsim" ] || { echo "FAIL: $vpsim is not an executable" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "FAIL: this test starts Slurm daemons and must run as root" >&2; exit 1; }

t0="$(date +%s.%N)"
# Slurm and munge are not in deps.sh's default list: this test installs them itself.
"$src/scripts/deps.sh" slurm-wlm munge

# The test cluster's directory and ports are fixed, so two checkouts testing at once on one machine
# would stop each other's daemons: a machine-wide lock makes the second wait (up to 10 minutes).
exec 9> /var/tmp/vpsim-slurm-tests.lock
if ! flock -n 9; then
  echo "waiting for another checkout's Slurm test to end (/var/tmp/vpsim-slurm-tests.lock)"
  flock -w 600 9 || { echo "FAIL: another checkout's Slurm test held the lock for 10 minutes" >&2; exit 1; }
fi
# A test cluster of its own (directory and ports), so a local cluster someone started with
# scripts/slurm-local.sh is not the one this test stops.
export VPSIM_SLURM_DIR=/var/tmp/vpsim-slurm-test
export VPSIM_SLURM_PORT=16827
export VPSIM_SLURM_POLL=1
trap '"$src/scripts/slurm-local.sh" stop || true' EXIT
"$src/scripts/slurm-local.sh" start 9>&-  # (the daemons must not hold the lock)
export SLURM_CONF="$VPSIM_SLURM_DIR/slurm.conf"
t1="$(date +%s.%N)"

rm -rf "$work"
mkdir -p "$work"
work="$(realpath "$work")"
scene="$src/examples/workloads/point_light.json"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

points="$work/points.txt"
: > "$points"
n=0
for engines in 1 2 3 4; do
  for coissue in off pairs window; do
    n=$((n + 1))
    set_args="--set vertex_alu.engines=$engines --set vertex_alu.coissue=$coissue"
    echo "$vpsim run $scene --out $work/p$n --quiet --no-progress $set_args" >> "$points"
    # The same point, run here without Slurm.
    "$vpsim" run "$scene" --out "$work/local/p$n" --quiet --no-progress $set_args
  done
done
bad_line=$((n + 1))
echo "$vpsim run $work/no-such-scene.json --out $work/p$bad_line --quiet --no-progress" >> "$points"

ts0="$(date +%s.%N)"
set +e
"$src/scripts/sweep-slurm.sh" "$points" "$work" --chunk 2 --max-running 2 --time 10 --mem 500 \
  > "$work/job_id.txt" 2> "$work/sweep.log"
rc=$?
set -e
ts1="$(date +%s.%N)"
cat "$work/sweep.log"
[ "$rc" -eq 1 ] || fail "sweep-slurm.sh exited $rc (want 1: line $bad_line fails)"
grep -q "lines failed: $bad_line\$" "$work/sweep.log" || fail "the failing line $bad_line is not named"
grep -q "^[0-9][0-9]*\$" "$work/job_id.txt" || fail "no job id on standard output"
[ -f "$work/slurm/job.sbatch" ] || fail "no job.sbatch"
grep -q -- "--array=0-6%2" "$work/slurm/job.sbatch" || fail "job.sbatch does not have --array=0-6%2"

for ((i = 1; i <= n; i++)); do
  [ "$(cat "$work/slurm/status/$i.rc" 2>/dev/null)" = 0 ] || fail "line $i: status $(cat "$work/slurm/status/$i.rc" 2>/dev/null || echo missing)"
  if [ ! -f "$work/p$i/stats.json" ]; then
    fail "point $i: no stats.json"
    continue
  fi
  /usr/bin/python3 - "$work/p$i/stats.json" "$work/local/p$i/stats.json" <<'EOF' || fail "point $i: stats.json differs from the local run"
import json, sys
HOST = {"host_seconds", "cycles_per_host_second"}
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in HOST}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
a, b = (strip(json.load(open(p))) for p in sys.argv[1:3])
if a != b:
    sys.exit(1)
EOF
done
[ "$(cat "$work/slurm/status/$bad_line.rc" 2>/dev/null)" = 2 ] || fail "line $bad_line: status $(cat "$work/slurm/status/$bad_line.rc" 2>/dev/null || echo missing), want 2"
[ -s "$work/slurm/status/$bad_line.err" ] || fail "line $bad_line: its stderr was not kept"

# A controller that does not answer: the same cluster's configuration with a port nobody serves.
sed -e 's/^SlurmctldPort=.*/SlurmctldPort=16899/' "$SLURM_CONF" > "$work/unreachable.conf"
set +e
SLURM_CONF="$work/unreachable.conf" "$src/scripts/sweep-slurm.sh" "$points" "$work/unreachable" \
  > /dev/null 2> "$work/unreachable.log"
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "the Slurm controller does not answer" "$work/unreachable.log" \
  || { cat "$work/unreachable.log" >&2; fail "an unreachable controller: exit $rc, not reported plainly"; }

# Slurm not installed: no sbatch on PATH (the script needs only bash builtins before that check).
set +e
PATH=/nonexistent "$BASH" "$src/scripts/sweep-slurm.sh" "$points" "$work/nosbatch" > /dev/null 2> "$work/nosbatch.log"
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "Slurm is not installed: sbatch not found" "$work/nosbatch.log" \
  || { cat "$work/nosbatch.log" >&2; fail "a missing sbatch: exit $rc, not reported plainly"; }

# slurm-local.sh removes only a directory it made: a VPSIM_SLURM_DIR that holds someone else's
# files is left in place by stop and refused by start.
foreign="$work/foreign-slurm-dir"
mkdir -p "$foreign"
echo "not Slurm's" > "$foreign/keep.txt"
set +e
VPSIM_SLURM_DIR="$foreign" "$src/scripts/slurm-local.sh" stop > "$work/foreign.log" 2>&1
VPSIM_SLURM_DIR="$foreign" "$src/scripts/slurm-local.sh" start >> "$work/foreign.log" 2>&1
rc=$?
VPSIM_SLURM_DIR=relative/dir "$src/scripts/slurm-local.sh" stop >> "$work/foreign.log" 2>&1
rrc=$?
set -e
[ -f "$foreign/keep.txt" ] || fail "slurm-local.sh stop removed a directory it did not make"
[ "$rc" -ne 0 ] && grep -q "was not made by slurm-local.sh" "$work/foreign.log" \
  || { cat "$work/foreign.log" >&2; fail "slurm-local.sh start into a foreign directory: exit $rc"; }
[ "$rrc" -eq 2 ] && grep -q "must be an absolute path" "$work/foreign.log" \
  || { cat "$work/foreign.log" >&2; fail "a relative VPSIM_SLURM_DIR: exit $rrc"; }

t2="$(date +%s.%N)"
awk -v a="$t0" -v b="$t1" -v c="$ts0" -v d="$ts1" -v e="$t2" -v n="$n" 'BEGIN {
  printf "wall time: Slurm install check + start %.1f s; sweep-slurm.sh of %d points + 1 failing line (7 array tasks of 2, at most 2 running) %.1f s; whole test %.1f s (before stop)\n", b - a, n, d - c, e - a }'
[ "$failures" -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok: $n points on Slurm equal the local runs; line $bad_line reported as failed"
