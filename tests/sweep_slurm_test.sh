#!/usr/bin/env bash
# vpsim sweep --backend slurm on a real single-node Slurm (scripts/slurm-local.sh installs
# slurm-wlm and munge and starts the daemons; stopped at the end): a 12-point study gives the
# same results.csv as the local backend, a re-run submits nothing, and a sweep whose Slurm is
# missing says so before any point runs. Needs root.
#   tests/sweep_slurm_test.sh VPSIM SOURCE_DIR WORK_DIR
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: tests/sweep_slurm_test.sh VPSIM SOURCE_DIR WORK_DIR" >&2; exit 2; }
vpsim="$(realpath "$1")"
src="$(realpath "$2")"
work="$3"
[ "$(id -u)" -eq 0 ] || { echo "FAIL: this test starts Slurm daemons and must run as root" >&2; exit 1; }
"$src/scripts/deps.sh" slurm-wlm munge

# The test cluster's directory and ports are fixed, so two checkouts testing at once on one machine
# would stop each other's daemons: a machine-wide lock makes the second wait (up to 10 minutes).
exec 9> /var/tmp/vpsim-slurm-tests.lock
if ! flock -n 9; then
  echo "waiting for another checkout's Slurm test to end (/var/tmp/vpsim-slurm-tests.lock)"
  flock -w 600 9 || { echo "FAIL: another checkout's Slurm test held the lock for 10 minutes" >&2; exit 1; }
fi
export VPSIM_SLURM_DIR=/var/tmp/vpsim-slurm-sweep-test
export VPSIM_SLURM_PORT=16837
export VPSIM_SLURM_POLL=1
trap '"$src/scripts/slurm-local.sh" stop || true' EXIT
"$src/scripts/slurm-local.sh" start 9>&-  # (the daemons must not hold the lock)
export SLURM_CONF="$VPSIM_SLURM_DIR/slurm.conf"

rm -rf "$work"
mkdir -p "$work"
work="$(realpath "$work")"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
axes=(--scene "$src/examples/workloads/point_light.json" --scene "$src/examples/workloads/toon.json"
      --axis vertex_alu.engines=1,2 --axis vertex_alu.coissue=off,pairs,window)

t0="$(date +%s.%N)"
"$vpsim" sweep "${axes[@]}" --backend slurm --chunk 2 --max-running 2 --time 10 --out "$work/slurm" --quiet \
  || fail "the Slurm sweep exited $?"
t1="$(date +%s.%N)"
"$vpsim" sweep "${axes[@]}" --out "$work/local" --quiet || fail "the local sweep exited $?"
cmp -s "$work/slurm/results.csv" "$work/local/results.csv" || fail "results.csv differs between slurm and local"
[ "$(($(wc -l < "$work/slurm/results.csv") - 1))" -eq 12 ] || fail "results.csv does not have 12 points"
[ -s "$work/slurm/slurm/job_id" ] || fail "no job id recorded"

# A work directory whose name holds spaces, both quotes, $ and a backquote: the job script takes it
# as quoted words only (nothing in it runs), and the results equal the local backend's.
odd="$work/odd dir \"q\" 'a' \$HOME \`touch pwned\`"
small=(--scene "$src/examples/workloads/toon.json" --axis vertex_alu.engines=1,2)
"$vpsim" sweep "${small[@]}" --backend slurm --out "$odd/slurm" --quiet || fail "the Slurm sweep into '$odd' exited $?"
"$vpsim" sweep "${small[@]}" --out "$odd/local" --quiet || fail "the local sweep into '$odd' exited $?"
cmp -s "$odd/slurm/results.csv" "$odd/local/results.csv" || fail "results.csv differs between slurm and local in '$odd'"
[ ! -e pwned ] && [ ! -e "$work/pwned" ] && [ ! -e "$odd/slurm/pwned" ] || fail "a backquote in the work directory ran a command"
grep -q 'SBATCH --chdir\|SBATCH --output' "$odd/slurm/slurm/job.sbatch" && fail "the job script carries the work directory in #SBATCH lines"

# Resume: everything is done, so nothing is submitted.
rm -f "$work/slurm/slurm/job_id"
out="$("$vpsim" sweep "${axes[@]}" --backend slurm --out "$work/slurm" 2>&1)" || fail "the re-run exited $?"
echo "$out" | grep -q "0 run" || fail "the re-run ran points: $out"
[ ! -e "$work/slurm/slurm/job_id" ] || fail "the re-run submitted a job"

# --no-wait: submitted, the sweep exits 0 at once; while the job is queued a second sweep into
# the directory refuses to touch it and `collect` exits 75; after it ends, collect gives the table.
t2="$(date +%s.%N)"
out="$("$vpsim" sweep "${axes[@]}" --set vertex_alu.contexts=3 --backend slurm --chunk 3 --no-wait \
        --out "$work/nowait" 2>&1)" || fail "the --no-wait sweep exited $?: $out"
echo "$out" | grep -q "12 of 12 points submitted as Slurm job [0-9]*.*vpsim sweep collect $work/nowait" \
  || fail "the --no-wait sweep's message: $out"
[ ! -e "$work/nowait/results.csv" ] || fail "--no-wait wrote results.csv before the points ran"
saw_queued=0
for i in $(seq 1 600); do
  set +e
  cout="$("$vpsim" sweep collect "$work/nowait" 2>&1)"
  crc=$?
  set -e
  [ "$crc" -eq 75 ] || break
  echo "$cout" | grep -q "points done; Slurm job [0-9]* still has array tasks in the queue" \
    || fail "collect while queued: $cout"
  if [ "$saw_queued" -eq 0 ]; then
    saw_queued=1
    set +e
    rout="$("$vpsim" sweep "${axes[@]}" --set vertex_alu.contexts=3 --backend slurm --out "$work/nowait" 2>&1)"
    rrc=$?
    set -e
    # The job may have ended in between; then the re-run finds every point done.
    if [ "$rrc" -eq 2 ]; then
      echo "$rout" | grep -q "still has .* array task(s) queued or running: wait for it and run .vpsim sweep collect" \
        || fail "a second sweep while the job runs: $rout"
    elif ! echo "$rout" | grep -q "12 already done"; then
      fail "a second sweep while the job runs: exit $rrc: $rout"
    fi
  fi
  sleep 0.5
done
t3="$(date +%s.%N)"
[ "$crc" -eq 0 ] || fail "collect after the job: exit $crc: $cout"
"$vpsim" sweep "${axes[@]}" --set vertex_alu.contexts=3 --out "$work/nowait_local" --quiet || fail "local contexts=3"
cmp -s "$work/nowait/results.csv" "$work/nowait_local/results.csv" || fail "--no-wait + collect differs from local"
echo "collect saw the job queued: $saw_queued (1 unless the job ended before the first look)"

# No Slurm client on PATH: a plain error before anything runs, exit 2, no results.
set +e
out="$(env PATH=/nonexistent "$vpsim" sweep "${axes[@]}" --backend slurm --out "$work/nosl" 2>&1)"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "without sbatch: exit $rc, expected 2"
echo "$out" | grep -q "Slurm is not installed: sbatch not found" || fail "without sbatch: $out"
[ ! -e "$work/nosl/results.csv" ] || fail "without sbatch: results.csv written"

awk -v a="$t0" -v b="$t1" 'BEGIN { printf "sweep on Slurm: 12 points in %.1f s\n", b - a }'
awk -v a="$t2" -v b="$t3" 'BEGIN { printf "sweep --no-wait on Slurm, then collect: 12 points in %.1f s\n", b - a }'
[ "$failures" -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok: vpsim sweep --backend slurm equals the local backend"
