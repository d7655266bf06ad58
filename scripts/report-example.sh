#!/usr/bin/env bash
# Regenerates docs/report-example.png: the HTML report (vpsim report, docs/report.md) of one
# `vpsim run --stats-interval` of examples/scenes/skinning.json, screenshotted by headless
# Chromium at 1200x1600; and docs/report-sweep-example.png: the report of the 3-scene sweep of
# tests/cli/report_panels.cmake, checked (a panel per scene, each drawn) and screenshotted by
# tests/report_panels_check.py; and the two screens of a zipped study's report (below).
#   scripts/report-example.sh [BUILD_DIR]     (default BUILD_DIR: build; built when it has no vpsim)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
"$root/scripts/deps.sh" python3-matplotlib chromium
[ -x "$build/vpsim" ] || "$root/scripts/build.sh" --target vpsim "$build"
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
# docs/report-zip-example.png and docs/report-zip-heatmap-example.png: the report of the zipped
# example study (examples/studies/engines_contexts_zip.json; tests/cli/report_zip.cmake), its
# first screen and the screen from its heatmap down (the heatmap and the bottleneck's causes),
# cut from one tall screenshot at the heatmap figure's top (found by a copy of the page with a
# script that writes it into the DOM).
vpsim="$(cd "$build" && pwd)/vpsim"
# Run in the work directory, so that the report names its sweep "zip", not a temporary path.
(cd "$work" && "$vpsim" sweep "$root/examples/studies/engines_contexts_zip.json" --jobs 2 --quiet --out zip &&
   "$vpsim" report zip -o zip.html)
/usr/bin/python3 "$root/tests/report_text_check.py" chromium "$work/zip.html"
sed 's#</body>#<script>window.addEventListener("load", () => { const p = document.createElement("pre"); p.id = "top"; p.textContent = document.querySelector("div.figure[data-kind=heatmap]").getBoundingClientRect().top; document.body.appendChild(p); });</script></body>#' \
  "$work/zip.html" >"$work/zip-probe.html"
chrome=(chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
        --disable-component-update --disable-sync --user-data-dir="$work/profile" --hide-scrollbars)
top="$("${chrome[@]}" --window-size=1200,1600 --virtual-time-budget=5000 --dump-dom "file://$work/zip-probe.html" 2>/dev/null |
       sed -n 's#.*<pre id="top">\([0-9.]*\)</pre>.*#\1#p')"
[ -n "$top" ] || { echo "report-example.sh: no heatmap figure in the zipped study's report" >&2; exit 1; }
"${chrome[@]}" --screenshot="$work/zip.png" --window-size=1200,12000 "file://$work/zip.html" 2>"$work/chromium.log"
/usr/bin/python3 - "$work/zip.png" "$top" "$root/docs" <<'PY'
import os, sys
from PIL import Image
shot, top, docs = sys.argv[1], int(float(sys.argv[2])) - 8, sys.argv[3]
im = Image.open(shot)
for name, y in (("report-zip-example.png", 0), ("report-zip-heatmap-example.png", top)):
    tmp = os.path.join(docs, "." + name + ".tmp.png")
    im.crop((0, y, 1200, y + 1600)).save(tmp)
    os.replace(tmp, os.path.join(docs, name))
    print("wrote", os.path.join(docs, name))
PY
