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

export VPSIM_SLURM_DIR=/var/tmp/vpsim-slurm-sweep-test
export VPSIM_SLURM_PORT=16837
export VPSIM_SLURM_POLL=1
trap '"$src/scripts/slurm-local.sh" stop || true' EXIT
"$src/scripts/slurm-local.sh" start
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

# Resume: everything is done, so nothing is submitted.
rm -f "$work/slurm/slurm/job_id"
out="$("$vpsim" sweep "${axes[@]}" --backend slurm --out "$work/slurm" 2>&1)" || fail "the re-run exited $?"
echo "$out" | grep -q "0 run" || fail "the re-run ran points: $out"
[ ! -e "$work/slurm/slurm/job_id" ] || fail "the re-run submitted a job"

# No Slurm client on PATH: a plain error before anything runs, exit 2, no results.
set +e
out="$(env PATH=/nonexistent "$vpsim" sweep "${axes[@]}" --backend slurm --out "$work/nosl" 2>&1)"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "without sbatch: exit $rc, expected 2"
echo "$out" | grep -q "Slurm is not installed: sbatch not found" || fail "without sbatch: $out"
[ ! -e "$work/nosl/results.csv" ] || fail "without sbatch: results.csv written"

awk -v a="$t0" -v b="$t1" 'BEGIN { printf "sweep on Slurm: 12 points in %.1f s\n", b - a }'
[ "$failures" -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok: vpsim sweep --backend slurm equals the local backend"
