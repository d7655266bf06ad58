#!/usr/bin/env bash
# Points per second of `vpsim sweep` (local backend) at --jobs 1 and --jobs 2, side by side:
# REPS rounds, each running the same study once per job count into a fresh directory (so every
# point runs), alternating the order; prints every run and the medians and their ratio.
#   scripts/bench-sweep.sh [BUILD_DIR] [REPS] [STUDY]
#   (defaults: build, 5, examples/studies/coissue_window_engines.json)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
reps="${2:-5}"
study="${3:-$root/examples/studies/coissue_window_engines.json}"
[ -x "$build/vpsim" ] || "$root/scripts/build.sh" --target vpsim "$build"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
one() {  # one JOBS ROUND -> prints points/s
  local out="$work/j$1r$2"
  "$build/vpsim" sweep "$study" --jobs "$1" --out "$out" 2>"$out.log" >/dev/null
  sed -n 's/.*, \([0-9.]*\) points\/s$/\1/p' "$out.log"
  rm -rf "$out"
}
r1=() r2=()
for ((i = 0; i < reps; i++)); do
  if ((i % 2 == 0)); then a="$(one 1 "$i")"; b="$(one 2 "$i")"; else b="$(one 2 "$i")"; a="$(one 1 "$i")"; fi
  echo "round $i: --jobs 1 $a points/s, --jobs 2 $b points/s"
  r1+=("$a") r2+=("$b")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
m1="$(median "${r1[@]}")"
m2="$(median "${r2[@]}")"
echo "$(basename "$study"): median of $reps: --jobs 1 $m1 points/s, --jobs 2 $m2 points/s, ratio $(awk -v a="$m1" -v b="$m2" 'BEGIN { printf "%.2f", b / a }') (nproc $(nproc))"
