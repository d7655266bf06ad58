#!/usr/bin/python3
"""Test helper (tests/cli/report.cmake, docs/report.md): a sweep report has one panel per scene
in every figure, each panel's SVG names its scene, and in headless Chromium every panel in the
first screen is drawn (its part of the screenshot is not blank).

  report_panels_check.py CHROMIUM REPORT.html SHOT.png SCENE[,SCENE...] [MIN_FIGURES]

How the panels are found on the screenshot: a copy of the report with a script appended (which
changes no layout) is loaded with --dump-dom at the same window size; the script writes every
panel's bounding box into the DOM. The screenshot is of the report itself.
Exit 0 when every check holds, else 1 with the reasons.
"""
import base64
import html
import json
import os
import re
import subprocess
import sys
import tempfile

from PIL import Image

WIDTH, HEIGHT = 1200, 1600
RECTS_SCRIPT = """<script>
window.addEventListener('load', () => {
  const r = [...document.querySelectorAll('img.panel')].map(e => {
    const b = e.getBoundingClientRect();
    return {panel: e.dataset.panel, x: b.left, y: b.top, w: b.width, h: b.height, ok: e.complete && e.naturalWidth > 0};
  });
  const p = document.createElement('pre'); p.id = 'vpsim-panel-rects'; p.textContent = JSON.stringify(r);
  document.body.appendChild(p);
});
</script>"""


def chromium(browser, extra, url):
    with tempfile.TemporaryDirectory(prefix="vpsim-chromium-") as profile:
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--hide-scrollbars", f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
               "--virtual-time-budget=5000", f"--window-size={WIDTH},{HEIGHT}"] + extra + [url]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
        return p.returncode, p.stdout, p.stderr


def main(browser, report, shot, scenes, min_figures):
    problems = []
    text = open(report, encoding="utf-8").read()
    figures = re.findall(r'<div class="figure" data-kind="([a-z]+)" data-panels="(\d+)">(.*?)</div></div>', text, re.S)
    if len(figures) < min_figures:
        problems.append(f"{len(figures)} figures, expected at least {min_figures}")
    for k, (kind, n, body) in enumerate(figures):
        panels = re.findall(r'<img class="panel" data-panel="([^"]*)"[^>]*src="data:image/svg\+xml;base64,([^"]+)"',
                            body)
        names = [html.unescape(p) for p, _ in panels]
        counts = {s: names.count(s) for s in set(names)}
        per_scene = len(set(counts.values())) == 1  # each scene the same number of panels (a row per metric)
        if sorted(counts) != sorted(scenes) or int(n) != len(scenes) or not per_scene:
            problems.append(f"figure {k} ({kind}): panels {names}, data-panels {n}; expected one per scene {scenes}")
        for name, data in panels:
            svg = base64.b64decode(data).decode("utf-8", "replace")
            if not svg.lstrip().startswith("<?xml") or "<svg" not in svg:
                problems.append(f"figure {k} panel {name}: not an SVG")
            elif f"scene: {html.unescape(name)}" not in html.unescape(svg):
                problems.append(f"figure {k} panel {name}: its SVG does not name the scene")
    with tempfile.TemporaryDirectory(prefix="vpsim-panels-") as tmp:
        probe = os.path.join(tmp, "probe.html")
        with open(probe, "w", encoding="utf-8") as f:
            f.write(text.replace("</body>", RECTS_SCRIPT + "</body>"))
        rc, dom, log = chromium(browser, ["--dump-dom"], "file://" + probe)
    errors = [line for line in log.splitlines() if "Uncaught" in line or ("CONSOLE" in line and "rror" in line)]
    if rc != 0 or errors:
        problems.append(f"chromium --dump-dom exit {rc}; console errors: {errors}")
    m = re.search(r'<pre id="vpsim-panel-rects">(.*?)</pre>', dom, re.S)
    rects = json.loads(html.unescape(m.group(1))) if m else []
    if not rects:
        problems.append("no panel boxes from the page (the probe script did not run)")
    if os.path.exists(shot):
        os.unlink(shot)
    rc, _, _ = chromium(browser, [f"--screenshot={os.path.abspath(shot)}"], "file://" + os.path.abspath(report))
    checked = 0
    if rc != 0 or not os.path.exists(shot):
        problems.append(f"chromium --screenshot exit {rc}, no {shot}")
    else:
        with Image.open(shot) as im:
            if im.format != "PNG" or im.size != (WIDTH, HEIGHT):
                problems.append(f"screenshot {shot}: {im.format} {im.size}, expected PNG {(WIDTH, HEIGHT)}")
            rgb = im.convert("RGB")
            for r in rects:
                if not r["ok"]:
                    problems.append(f"panel {r['panel']}: the image did not load")
                    continue
                box = (int(r["x"]), int(r["y"]), int(r["x"] + r["w"]), int(r["y"] + r["h"]))
                if box[3] > HEIGHT or box[2] > WIDTH or r["w"] < 100 or r["h"] < 80:
                    continue  # below the first screen (or too small to judge)
                crop = rgb.crop(box)
                px = list(crop.getdata())
                inked = sum(1 for p in px if sum(p) < 720) / len(px)
                colours = len(set(px))
                if inked < 0.02 or colours < 8:
                    problems.append(f"panel {r['panel']} at {box}: blank ({inked:.1%} inked, {colours} colours)")
                checked += 1
    if checked < len(scenes):
        problems.append(f"{checked} panels checked on the screenshot, expected at least {len(scenes)} (a row)")
    if problems:
        sys.stderr.write(f"{report}:\n" + "\n".join(problems) + "\n")
        return 1
    print(f"ok: {report}: {len(figures)} figures of one panel per scene ({', '.join(scenes)}); "
          f"{checked} panels drawn in the {WIDTH}x{HEIGHT} screenshot {shot}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(","),
                  int(sys.argv[5]) if len(sys.argv) > 5 else 1))
