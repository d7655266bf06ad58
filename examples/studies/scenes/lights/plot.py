#!/usr/bin/env python3
"""Plots the fixed-function lights study (examples/studies/ff_lights.json): cycles per vertex
against the number of lights, a line per light type, one panel per preset. The number of lights
is a property of the scene (TYPE_N.json), not a sweep axis, so `vpsim plot` cannot draw it.

  vpsim sweep examples/studies/ff_lights.json --out lights-nv20
  vpsim sweep examples/studies/ff_lights.json --preset nv25 --out lights-nv25
  /usr/bin/python3 examples/studies/scenes/lights/plot.py -o docs/studies/ff_lights.png \
      nv20=lights-nv20 nv25=lights-nv25

Prints the table of cycles per vertex (type x lights) per preset as Markdown.
"""
import argparse
import csv
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TYPES = ("directional", "point", "spot")


def read(directory):
    """{type: {lights: cycles_per_vertex}} from DIR/results.csv."""
    out = {t: {} for t in TYPES}
    with open(os.path.join(directory, "results.csv"), newline="") as f:
        for row in csv.DictReader(f):
            m = re.search(r"(directional|point|spot)_(\d+)\.json$", row["scene"])
            if not m:
                sys.exit(f"plot.py: {directory}: scene {row['scene']} is not TYPE_N.json")
            out[m.group(1)][int(m.group(2))] = float(row["cycles_per_vertex"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", metavar="PRESET=DIR", help="a sweep directory of the study and its preset")
    ap.add_argument("-o", "--output", required=True, help="the PNG to write")
    a = ap.parse_args()
    runs = []
    for r in a.runs:
        preset, _, directory = r.partition("=")
        if not directory:
            sys.exit(f"plot.py: {r}: expected PRESET=DIR")
        runs.append((preset, read(directory)))
    fig, axes = plt.subplots(1, len(runs), figsize=(5.5 * len(runs), 4.2), sharey=True, squeeze=False)
    for ax, (preset, data) in zip(axes[0], runs):
        for t, marker in zip(TYPES, "osD"):
            xs = sorted(data[t])
            ax.plot(xs, [data[t][x] for x in xs], marker=marker, label=t)
        ax.set_title(f"{preset}: fixed-function lighting")
        ax.set_xlabel("lights (diffuse; point and spot: attenuation (1, 0, 0), no range)")
        ax.set_xticks(range(1, 9))
        ax.grid(True, alpha=0.3)
        ax.legend()
    axes[0][0].set_ylabel("cycles per shaded vertex")
    fig.tight_layout()
    fig.savefig(a.output, dpi=100)
    for preset, data in runs:
        print(f"\n{preset}: cycles per vertex\n")
        print("| lights | " + " | ".join(str(n) for n in range(1, 9)) + " |")
        print("|---|" + "---:|" * 8)
        for t in TYPES:
            print(f"| {t} | " + " | ".join("%.2f" % data[t].get(n, float("nan")) for n in range(1, 9)) + " |")


if __name__ == "__main__":
    main()
