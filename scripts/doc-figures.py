#!/usr/bin/python3
"""The figures quoted in the docs, regenerated from fresh runs, so they cannot go stale.

A quoted figure is marked in the Markdown by a comment right after the number:
    12,280<!-- fig:run.default.shaded --> shaded vertices
Each id is defined below: the `vpsim run` it comes from and how it is formatted. With --check
(the ctest "docs: quoted figures ...") every marked number must equal its fresh value; with
--write the numbers are replaced by the fresh values. A marker with an unknown id, an id defined
but quoted nowhere, or a marker not right after a number is an error.

  scripts/doc-figures.py [--vpsim BUILD/vpsim] (--check | --write | --list) [FILE.md ...]
  (default files: README.md and docs/*.md)
Exit status: 0 ok, 1 a figure is stale (each named with file:line, quoted and fresh), 2 bad input.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARK = re.compile(r"<!-- fig:([A-Za-z0-9_.\-]+) -->")
NUMBER_BEFORE = re.compile(r"([0-9][0-9,]*(?:\.[0-9]+)?)$")

# The runs the figures come from: name -> `vpsim run` arguments (the default scene unless given).
RUNS = {
    "default": [],
    "default.nv2a": ["--preset", "nv2a"],
    "default.nv25": ["--preset", "nv25"],
    "deep.lat50": ["--set", "vertex_fetch.fetch_window=64", "--set", "vertex_fetch.max_misses=32",
                   "--set", "output.order_queue=256", "--set", "memory.latency=50"],
    "deep.lat400": ["--set", "vertex_fetch.fetch_window=64", "--set", "vertex_fetch.max_misses=32",
                    "--set", "output.order_queue=256", "--set", "memory.latency=400"],
    "window1.lat50": ["--set", "vertex_fetch.fetch_window=1", "--set", "memory.latency=50"],
    "window1.lat400": ["--set", "vertex_fetch.fetch_window=1", "--set", "memory.latency=400"],
}


def unit_fraction(st, unit, part):
    c = st["units"][unit]["cycles"]
    v = c["busy"] if part == "busy" else c["stalled"][part]["cycles"]
    return 100.0 * v / st["cycles"]


def count(v):
    return f"{int(v):,}"


# id -> (run, function of that run's stats.json (and all runs) giving the quoted text)
FIGURES = {
    "run.default.shaded": ("default", lambda s, R: count(s["summary"]["shaded"])),
    "run.default.acmr": ("default", lambda s, R: f"{s['summary']['acmr']:.3f}"),
    "run.default.atvr": ("default", lambda s, R: f"{s['summary']['atvr']:.3f}"),
    "run.default.cycles": ("default", lambda s, R: count(s["cycles"])),
    "run.default.cpv": ("default", lambda s, R: f"{s['summary']['cycles_per_vertex']:.1f}"),
    "run.default.mvps": ("default", lambda s, R: f"{s['summary']['vertices_per_second'] / 1e6:.2f}"),
    "run.default.coissue": ("default", lambda s, R: f"{100 * s['summary']['coissue_rate']:.1f}"),
    "run.default.alu_issue": ("default", lambda s, R: f"{100 * s['summary']['alu_utilisation']:.1f}"),
    "run.default.alu_busy": ("default", lambda s, R: f"{unit_fraction(s, 'vertex_alu', 'busy'):.1f}"),
    "run.default.alu_dependency": ("default", lambda s, R: f"{unit_fraction(s, 'vertex_alu', 'dependency'):.1f}"),
    "run.nv2a.cpv": ("default.nv2a", lambda s, R: f"{s['summary']['cycles_per_vertex']:.1f}"),
    "run.decoder_cycles": ("default", lambda s, R: count(s["units"]["decl_decoder"]["cycles"]["busy"])),
    "run.deep.lat50.cycles": ("deep.lat50", lambda s, R: count(s["cycles"])),
    "run.deep.lat400.cycles": ("deep.lat400", lambda s, R: count(s["cycles"])),
    "run.deep.ratio": ("deep.lat400", lambda s, R: f"{s['cycles'] / R['deep.lat50']['cycles']:.4f}"),
    "run.window1.ratio": ("window1.lat400", lambda s, R: f"{s['cycles'] / R['window1.lat50']['cycles']:.2f}"),
    "compare.nv20.cpv": ("default", lambda s, R: f"{s['summary']['cycles_per_vertex']:.3f}"),
    "compare.nv2a.cpv": ("default.nv2a", lambda s, R: f"{s['summary']['cycles_per_vertex']:.3f}"),
    "compare.nv25.cpv": ("default.nv25", lambda s, R: f"{s['summary']['cycles_per_vertex']:.3f}"),
}


def run_all(vpsim, needed):
    out = {}
    with tempfile.TemporaryDirectory(prefix="vpsim-figures-") as tmp:
        for name in needed:
            d = os.path.join(tmp, name)
            p = subprocess.run([vpsim, "run", "--quiet", "--no-progress", "--out", d] + RUNS[name],
                               capture_output=True, text=True)
            if p.returncode != 0:
                sys.stderr.write(f"doc-figures: vpsim run {' '.join(RUNS[name])}: exit {p.returncode}\n{p.stderr}")
                sys.exit(2)
            with open(os.path.join(d, "stats.json")) as f:
                out[name] = json.load(f)
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vpsim", default=os.path.join(ROOT, "build", "vpsim"))
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--list", action="store_true")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args(argv)
    files = a.files or [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    quoted = []  # (file, line number, id, number, match span in the line)
    problems = []
    texts = {}
    for f in files:
        with open(f, encoding="utf-8") as fh:
            texts[f] = fh.read().split("\n")
        for i, line in enumerate(texts[f]):
            for m in MARK.finditer(line):
                fid = m.group(1)
                n = NUMBER_BEFORE.search(line[:m.start()])
                if fid not in FIGURES:
                    problems.append(f"{os.path.relpath(f, ROOT)}:{i + 1}: unknown figure id {fid} (defined: "
                                    f"{', '.join(sorted(FIGURES))})")
                elif not n:
                    problems.append(f"{os.path.relpath(f, ROOT)}:{i + 1}: fig:{fid} does not follow a number")
                else:
                    quoted.append((f, i, fid, n.group(1), n.start()))
    if not a.files:
        unused = sorted(set(FIGURES) - {q[2] for q in quoted})
        if unused:
            problems.append("figures defined but quoted nowhere: " + ", ".join(unused))
    if problems:
        sys.stderr.write("\n".join(problems) + "\n")
        return 2
    if a.list:
        for f, i, fid, num, _ in quoted:
            print(f"{os.path.relpath(f, ROOT)}:{i + 1}: {fid} = {num}  (vpsim run {' '.join(RUNS[FIGURES[fid][0]])})")
        return 0
    if not os.access(a.vpsim, os.X_OK):
        sys.stderr.write(f"doc-figures: {a.vpsim}: no vpsim binary (build it, or give --vpsim)\n")
        return 2
    needed = {FIGURES[q[2]][0] for q in quoted}
    if any(q[2] == "run.deep.ratio" for q in quoted):
        needed.add("deep.lat50")  # the ratio's denominator
    if any(q[2] == "run.window1.ratio" for q in quoted):
        needed.add("window1.lat50")
    needed = sorted(needed)
    runs = run_all(a.vpsim, needed)
    stale = 0
    # Replace from the end of each line so earlier positions stay valid.
    for f, i, fid, num, start in sorted(quoted, key=lambda q: (q[0], q[1], -q[4])):
        run, fn = FIGURES[fid]
        fresh = fn(runs[run], runs)
        if fresh == num:
            continue
        stale += 1
        print(f"{os.path.relpath(f, ROOT)}:{i + 1}: {fid}: the docs say {num}, a fresh run gives {fresh} "
              f"(vpsim run {' '.join(RUNS[run])})")
        if a.write:
            line = texts[f][i]
            texts[f][i] = line[:start] + fresh + line[start + len(num):]
    if a.write:
        for f, lines in texts.items():
            new = "\n".join(lines)
            with open(f, encoding="utf-8") as fh:
                if fh.read() == new:
                    continue
            tmp = f + ".tmp"
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(new)
            os.replace(tmp, f)
        print(f"doc-figures: {len(quoted)} quoted figures, {stale} rewritten")
        return 0
    print(f"doc-figures: {len(quoted)} quoted figures from {len(runs)} runs, {stale} stale")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
