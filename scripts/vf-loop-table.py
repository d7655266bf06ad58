#!/usr/bin/env python3
"""The vertex fetch RTL in the loop against the SystemC model unit, on every example scene and
workload (docs/vertex-fetch-rtl.md, "In the loop"): the model's cycles with its default
parameters, then with the RTL's timing parameters applied group by group (the cycle difference
taken apart), and the RTL's (`vpsim run --rtl vertex_fetch`). The last group must give the RTL's
cycles exactly: the script exits 1 on a scene where it does not.

Usage: scripts/vf-loop-table.py [--vpsim build/vpsim] [--preset NAME] [--markdown]
"""
import argparse
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The RTL's timing parameters (sc::vf::rtl_timing_params()), in the groups that explain the difference.
GROUPS = [
    ("tag", "one-word tag: cache_lines=1 line_bytes=16 prefetch_lines=0",
     ["vertex_fetch.cache_lines=1", "vertex_fetch.line_bytes=16", "vertex_fetch.prefetch_lines=0"]),
    ("latency", "issue and response registers: hit_latency=1 fill_latency=1",
     ["vertex_fetch.elements_per_cycle=1", "vertex_fetch.hit_latency=1", "vertex_fetch.fill_latency=1"]),
    ("convert", "data stage: convert_per_cycle=1 element_queue=64",
     ["vertex_fetch.convert_per_cycle=1", "vertex_fetch.element_queue=64"]),
    ("fifos", "RTL's buffering: max_misses=32 fetch_window=66",
     ["vertex_fetch.max_misses=32", "vertex_fetch.fetch_window=66"]),
]


def cycles(vpsim, scene, preset, sets, rtl=False):
    cmd = [vpsim, "run", scene, "--json", "--no-progress"]
    if preset:
        cmd += ["--preset", preset]
    for s in sets:
        cmd += ["--set", s]
    if rtl:
        cmd += ["--rtl", "vertex_fetch"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr}")
    return json.loads(p.stdout)["cycles"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--vpsim", default=os.path.join(ROOT, "build", "vpsim"))
    ap.add_argument("--preset", default="")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    scenes = sorted(glob.glob(os.path.join(ROOT, "examples/scenes/**/*.json"), recursive=True)) + sorted(
        glob.glob(os.path.join(ROOT, "examples/workloads/*.json")))
    head = ["scene", "model"] + [g[0] for g in GROUPS] + ["RTL", "RTL - model"]
    rows, bad = [], 0
    for s in scenes:
        base = ["fixed_function.max_vertex_blend_matrix_index=3"] if s.endswith("ff_blend_indexed.json") else []
        row = [os.path.relpath(s, ROOT), cycles(a.vpsim, s, a.preset, base)]
        sets = list(base)
        for _, _, g in GROUPS:
            sets += g
            row.append(cycles(a.vpsim, s, a.preset, sets))
        rtl = cycles(a.vpsim, s, a.preset, base, rtl=True)
        row += [rtl, f"{rtl - row[1]:+d} ({100.0 * (rtl - row[1]) / row[1]:+.2f} %)"]
        if row[-3] != rtl:
            bad += 1
            row[-1] += " NOT EQUAL"
        rows.append(row)
    if a.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rows:
            print("| " + " | ".join(f"{x:,}" if isinstance(x, int) else str(x) for x in r) + " |")
    else:
        w = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
        for r in [head] + rows:
            print("  ".join(str(x).rjust(n) if i else str(x).ljust(n) for i, (x, n) in enumerate(zip(r, w))))
    print(f"\ngroups, applied in turn: " + "; ".join(f"{n}: {d}" for n, d, _ in GROUPS))
    print(f"{len(rows) - bad} of {len(rows)} scenes: the model with every group has the RTL's cycles")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
