#!/usr/bin/env bash
# Runs the three example studies (examples/studies/*.json) on the local backend, writes each
# one's HTML report (vpsim report) and a headless-Chromium screenshot of it to
# docs/studies/<study>.png, and prints each study's points and wall time.
#   scripts/study-reports.sh [BUILD_DIR] [JOBS]   (defaults: build, the cores)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
jobs="${2:-$(nproc)}"
"$root/scripts/deps.sh" python3-matplotlib chromium
[ -x "$build/vpsim" ] || "$root/scripts/build.sh" --target vpsim "$build"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$root/docs/studies"
for study in coissue_window_engines ptc_entries_index_order memory_latency_fetch_window; do
  t0="$(date +%s.%N)"
  "$build/vpsim" sweep "$root/examples/studies/$study.json" --jobs "$jobs" --quiet --out "$work/$study"
  t1="$(date +%s.%N)"
  points="$(($(wc -l < "$work/$study/results.csv") - 1))"
  "$build/vpsim" report "$work/$study" -o "$work/$study.html"
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$work/profile" --hide-scrollbars \
    --screenshot="$work/$study.png" --window-size=1200,2600 "file://$work/$study.html" 2>"$work/chromium.log" || {
    cat "$work/chromium.log" >&2
    exit 1
  }
  [ -s "$work/$study.png" ] || { echo "study-reports.sh: chromium wrote no screenshot of $study" >&2; exit 1; }
  cp "$work/$study.png" "$root/docs/studies/.$study.png.tmp"
  mv "$root/docs/studies/.$study.png.tmp" "$root/docs/studies/$study.png"
  awk -v s="$study" -v n="$points" -v a="$t0" -v b="$t1" -v j="$jobs" \
    'BEGIN { printf "%s: %d points in %.1f s (--jobs %d, %.2f points/s) -> docs/studies/%s.png\n", s, n, b - a, j, n / (b - a), s }'
done
