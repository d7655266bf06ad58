#!/usr/bin/env bash
# Rewrites tests/reference_stats.json: the cycles and summary metrics of every workload in
# examples/workloads/ on every preset (vpsim bench reference). The test
# "calibration: reference statistics" fails when a change moves any of them; run this when the
# change is intended and commit the file, so the commit shows which figures moved and by how much.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${VPSIM_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" --target vpsim "$build" >&2
before="$(mktemp)"
trap 'rm -f "$before"' EXIT
[ -f "$root/tests/reference_stats.json" ] && cp "$root/tests/reference_stats.json" "$before"
"$build/vpsim" bench reference "$root/examples/workloads" --write "$root/tests/reference_stats.json"
if [ -s "$before" ]; then
  "$build/vpsim" bench reference "$root/examples/workloads" --check "$before" || true
fi
git -C "$root" diff --stat -- tests/reference_stats.json || true
