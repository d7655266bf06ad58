#!/usr/bin/python3
"""Test helper for tests/cli/report.cmake: opens an HTML report in headless Chromium and checks
that it loads with no console error, that its DOM has at least MIN_IMAGES embedded plots (PNG or SVG), and
that its screenshot is a PNG of the window's size that is not one colour.

  report_browser_check.py CHROMIUM REPORT.html SHOT.png MIN_IMAGES
Exit 0 when every check holds, else 1 with the reasons.
"""
import os
import re
import subprocess
import sys
import tempfile

from PIL import Image

WIDTH, HEIGHT = 1200, 1600


def chromium(browser, extra, url):
    with tempfile.TemporaryDirectory(prefix="vpsim-chromium-") as profile:
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
               f"--window-size={WIDTH},{HEIGHT}"] + extra + [url]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout, p.stderr


def main(browser, report, shot, min_images):
    problems = []
    url = "file://" + os.path.abspath(report)
    rc, dom, log = chromium(browser, ["--dump-dom"], url)
    if rc != 0:
        problems.append(f"chromium --dump-dom exit {rc}")
    console = [line for line in log.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    errors = [line for line in console if "Uncaught" in line or "rror" in line]
    if errors:
        problems.append("console errors:\n  " + "\n  ".join(errors))
    images = re.findall(r'<img[^>]+src="data:image/(?:png|svg\+xml);base64,[A-Za-z0-9+/=]{100,}"', dom)
    if len(images) < min_images:
        problems.append(f"{len(images)} embedded PNG/SVG <img> elements in the DOM, expected at least {min_images}")
    if os.path.exists(shot):
        os.unlink(shot)
    rc, _, log = chromium(browser, [f"--screenshot={os.path.abspath(shot)}"], url)
    if rc != 0 or not os.path.exists(shot):
        problems.append(f"chromium --screenshot exit {rc}, no {shot}")
    else:
        with Image.open(shot) as im:
            if im.format != "PNG" or im.size != (WIDTH, HEIGHT):
                problems.append(f"screenshot {shot}: {im.format} {im.size}, expected PNG {(WIDTH, HEIGHT)}")
            colours = im.convert("RGB").getcolors(maxcolors=1 << 20)
            if colours is not None and len(colours) < 16:
                problems.append(f"screenshot {shot}: {len(colours)} colours: blank")
    if problems:
        sys.stderr.write(f"{report}:\n" + "\n".join(problems) + "\n")
        return 1
    print(f"ok: {report}: {len(images)} plots, no console error, screenshot {shot} {WIDTH}x{HEIGHT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])))
