#!/usr/bin/env bash
# Rewrites model/presets/sensitivity.json: per preset, each assumed value that moves the calibration
# rate or a workload's cycles by more than 10 % at half or double (vpsim bench sensitivity
# examples/workloads --write; docs/calibration.md, "Sensitivity of assumed values"). The test
# "calibration: model/presets/sensitivity.json holds what bench sensitivity measures now" fails
# when a change moves any of them; run this when the change is intended and commit the file. vpsim
# embeds the file (the run summary's "assumptions" line), so the build runs again after it is written.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${VPSIM_BUILD_DIR:-$root/build}"
file="$root/model/presets/sensitivity.json"
"$root/scripts/build.sh" --target vpsim "$build" >&2
before="$(mktemp)"
trap 'rm -f "$before"' EXIT
[ -f "$file" ] && cp "$file" "$before"
cd "$root"
"$build/vpsim" bench sensitivity examples/workloads --write "$file"
if [ -s "$before" ]; then
  "$build/vpsim" bench sensitivity examples/workloads --check "$before" || true
fi
"$root/scripts/build.sh" --target vpsim "$build" >&2
git -C "$root" diff --stat -- model/presets/sensitivity.json || true
