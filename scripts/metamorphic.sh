#!/usr/bin/env bash
# The long version of the metamorphic suite (docs/calibration.md, "Metamorphic properties"):
# every workload of examples/workloads on every preset, every step of every property
# (`vpsim bench metamorphic --all`); CI runs one drawn step per property and workload (seed 1).
#   scripts/metamorphic.sh [BUILD_DIR] [--json]     (default BUILD_DIR: build; built when it has no vpsim)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
shift || true
[ -x "$build/vpsim" ] || "$root/scripts/build.sh" --target vpsim "$build"
t0="$(date +%s.%N)"
rc=0
"$build/vpsim" bench metamorphic "$root/examples/workloads" --all "$@" || rc=$?
t1="$(date +%s.%N)"
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "metamorphic.sh: %.1f s\n", b - a }' >&2
exit "$rc"
