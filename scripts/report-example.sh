#!/usr/bin/env bash
# Regenerates docs/report-example.png: the HTML report (vpsim report, docs/report.md) of one
# `vpsim run --stats-interval` of examples/scenes/skinning.json, screenshotted by headless
# Chromium at 1200x1600; and docs/report-sweep-example.png: the report of the 3-scene sweep of
# tests/cli/report_panels.cmake, checked (a panel per scene, each drawn) and screenshotted by
# tests/report_panels_check.py.
#   scripts/report-example.sh [BUILD_DIR]     (default BUILD_DIR: build; built when it has no vpsim)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
"$root/scripts/deps.sh" python3-matplotlib chromium
[ -x "$build/vpsim" ] || "$root/scripts/build.sh" "$build"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$build/vpsim" run "$root/examples/scenes/skinning.json" --quiet --stats-interval 1000 --out "$work/run"
"$build/vpsim" report "$work/run" -o "$work/report.html"
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$work/profile" --hide-scrollbars \
  --screenshot="$work/report.png" --window-size=1200,1600 "file://$work/report.html" 2>"$work/chromium.log" || {
  cat "$work/chromium.log" >&2
  exit 1
}
[ -s "$work/report.png" ] || { echo "report-example.sh: chromium wrote no screenshot" >&2; exit 1; }
cp "$work/report.png" "$root/docs/.report-example.png.tmp"
mv "$root/docs/.report-example.png.tmp" "$root/docs/report-example.png"
echo "wrote $root/docs/report-example.png"
w="$root/examples/workloads"
"$build/vpsim" sweep --scene "$w/point_light.json" --scene "$w/toon.json" --scene "$w/skin4.json" \
  --axis vertex_alu.engines=1,2 --axis vertex_alu.coissue=off,window --quiet --out "$work/sweep"
"$build/vpsim" report "$work/sweep" -o "$work/sweep.html"
/usr/bin/python3 "$root/tests/report_panels_check.py" chromium "$work/sweep.html" "$work/sweep.png" \
  point_light.json,toon.json,skin4.json 6
cp "$work/sweep.png" "$root/docs/.report-sweep-example.png.tmp"
mv "$root/docs/.report-sweep-example.png.tmp" "$root/docs/report-sweep-example.png"
echo "wrote $root/docs/report-sweep-example.png"
