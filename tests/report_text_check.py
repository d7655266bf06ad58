#!/usr/bin/python3
"""Test helper (tests/cli/report_zip.cmake, docs/report.md): every plot of a report is readable
as headless Chromium draws it: in every panel no two texts (tick labels, axis labels, titles,
legend entries, annotations) overlap, none is cut off by the image's edge, and none is drawn
smaller than MIN_PX CSS pixels.

  report_text_check.py CHROMIUM REPORT.html [MIN_PX]     (MIN_PX: default 8)

How the texts are measured: a copy of the report in which each panel's embedded SVG image is
put inline at the width the report gives the image (the same scale, the same fonts), with a
script that writes every text's box (getBoundingClientRect) and drawn font size into the DOM;
Chromium loads it with --dump-dom. Exit 0 when every check holds, else 1 with the reasons.
"""
import base64
import html
import json
import re
import subprocess
import sys
import tempfile

WIDTH, HEIGHT = 1200, 1600
BOXES_SCRIPT = """<script>
window.addEventListener('load', () => {
  const out = [...document.querySelectorAll('div.vpsim-probe')].map(d => {
    const svg = d.querySelector('svg');
    const box = svg.getBoundingClientRect();
    const scale = box.width / svg.viewBox.baseVal.width;
    const texts = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim()).map(t => {
      const b = t.getBoundingClientRect();
      return {t: t.textContent.trim(), x: b.left, y: b.top, w: b.width, h: b.height,
              px: parseFloat(getComputedStyle(t).fontSize) * scale};
    });
    return {panel: d.dataset.panel, kind: d.dataset.kind, texts: texts,
            box: {x: box.left, y: box.top, w: box.width, h: box.height}};
  });
  const p = document.createElement('pre'); p.id = 'vpsim-text-boxes'; p.textContent = JSON.stringify(out);
  document.body.appendChild(p);
});
</script>"""
# A sweep report's panels (<img class="panel" data-panel=... style="width:Wpx">) and a run
# report's plots (<img class="plot" alt=...>, at most the page's width).
PANEL = re.compile(r'<img class="(?:panel" data-panel="([^"]*)"[^>]*style="width:(\d+)px|plot" alt="([^"]*))"[^>]*'
                   r'src="data:image/svg\+xml;base64,([^"]+)">')


def probe_page(text):
    """The report with each panel image replaced by its SVG inline, as wide as the image."""
    out, kinds = [], {}
    for m in re.finditer(r'<div class="figure" data-kind="([a-z]+)"', text):
        kinds[m.start()] = m.group(1)

    def kind_at(pos):
        before = [k for k in kinds if k < pos]
        return kinds[max(before)] if before else ""

    last = 0
    for m in PANEL.finditer(text):
        svg = base64.b64decode(m.group(4)).decode("utf-8")
        svg = svg[svg.index("<svg"):]
        natural = re.search(r'<svg[^>]*? width="([0-9.]+)pt"', svg)
        width = f"{m.group(2)}px" if m.group(2) else f"min(100%, {float(natural.group(1)) * 4 / 3:.1f}px)"
        svg = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r'<svg\1 width="100%"', svg, count=1)
        out.append(text[last:m.start()])
        out.append(f'<div class="vpsim-probe" data-panel="{m.group(1) or m.group(3)}" '
                   f'data-kind="{kind_at(m.start()) if m.group(2) else "plot"}" style="width:{width}">{svg}</div>')
        last = m.end()
    out.append(text[last:])
    return "".join(out).replace("</body>", BOXES_SCRIPT + "</body>")


def overlap(a, b):
    """The boxes are line boxes (about 1.2 em high, rounded to pixels): lines of one label touch
    by their leading, so two texts overlap when they share more than a fifth of an em each way."""
    pad = 0.2 * min(a["px"], b["px"])
    return (min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"]) > pad and
            min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"]) > pad)


def main(browser, report, min_px):
    text = open(report, encoding="utf-8").read()
    problems = []
    with tempfile.TemporaryDirectory(prefix="vpsim-text-") as tmp:
        probe = f"{tmp}/probe.html"
        with open(probe, "w", encoding="utf-8") as f:
            f.write(probe_page(text))
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--hide-scrollbars", f"--user-data-dir={tmp}/profile", "--virtual-time-budget=5000",
               f"--window-size={WIDTH},{HEIGHT}", "--dump-dom", "file://" + probe]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    m = re.search(r'<pre id="vpsim-text-boxes">(.*?)</pre>', p.stdout, re.S)
    panels = json.loads(html.unescape(m.group(1))) if m else []
    if not panels:
        problems.append(f"no panels measured (chromium exit {p.returncode}; {p.stderr.strip()[-300:]})")
    texts = 0
    for k, pan in enumerate(panels):
        where = f"panel {k} ({pan['kind']}, {pan['panel']})"
        ts = pan["texts"]
        texts += len(ts)
        for i, a in enumerate(ts):
            box = pan["box"]
            if (a["x"] < box["x"] - 2 or a["y"] < box["y"] - 2 or a["x"] + a["w"] > box["x"] + box["w"] + 2
                    or a["y"] + a["h"] > box["y"] + box["h"] + 2):
                problems.append(f"{where}: '{a['t']}' is cut off (outside the image)")
            if a["px"] < min_px:
                problems.append(f"{where}: '{a['t']}' drawn at {a['px']:.1f} px (< {min_px})")
            for b in ts[i + 1:]:
                if overlap(a, b):
                    problems.append(f"{where}: '{a['t']}' overlaps '{b['t']}'")
    for line in problems[:40]:
        print("FAIL: " + line)
    if len(problems) > 40:
        print(f"... and {len(problems) - 40} more")
    print(f"{len(panels)} panels, {texts} texts: " + ("every text apart and at least "
                                                      f"{min_px} px" if not problems else f"{len(problems)} problems"))
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.stderr.write(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2], float(sys.argv[3]) if len(sys.argv) == 4 else 8.0))
