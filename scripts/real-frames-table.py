#!/usr/bin/env python3
"""Helpers of scripts/irrlicht.sh's study of real frames (docs/real-frames.md).

  real-frames-table.py split SCENE.json PREFIX
      A converted capture with both fixed-function and shader draws: PREFIX.ff.json keeps only its
      fixed-function draws, PREFIX.shader.json only its shader draws (every other command kept, so
      each draw sees the same state). A scene with one kind only: neither file (old ones removed).
  real-frames-table.py table WORK EXAMPLE...
      The markdown table of WORK/runs/EXAMPLE[.ff|.shader].PRESET.json (vpsim run --json) with
      WORK/runs/EXAMPLE.PRESET/stats.json and WORK/scenes/EXAMPLE.info.json (vpsim capture info
      --json), one row per example and preset.
"""
import glob
import json
import os
import sys

DRAWS = ("DrawPrimitive", "DrawIndexedPrimitive")


def draw_kinds(commands):
    """Each command's kind: 'ff' or 'shader' for a draw, None for the rest."""
    programs = {}
    current = "ff"
    kinds = []
    for c in commands:
        op = c.get("op")
        kind = None
        if op == "CreateVertexShader":
            programs[c["name"]] = c.get("function") is not None
        elif op == "SetVertexShader":
            current = "shader" if "shader" in c and programs.get(c["shader"]) else "ff"
        elif op in DRAWS:
            kind = current
        kinds.append(kind)
    return kinds


def split(scene_path, prefix):
    with open(scene_path) as f:
        scene = json.load(f)
    commands = scene["commands"]
    kinds = draw_kinds(commands)
    variants = {"ff": prefix + ".ff.json", "shader": prefix + ".shader.json"}
    for path in variants.values():
        if os.path.exists(path):
            os.remove(path)
    if not ("ff" in kinds and "shader" in kinds):
        return
    for keep, path in variants.items():
        part = dict(scene)
        part["commands"] = [c for c, k in zip(commands, kinds) if k is None or k == keep]
        with open(path + ".tmp", "w") as f:
            json.dump(part, f)
        os.replace(path + ".tmp", path)


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def unit_busy(stats, unit):
    """The unit's busy cycles in a stats.json (docs/stats.md)."""
    return stats.get("units", {}).get(unit, {}).get("cycles", {}).get("busy", 0)


def table(work, examples):
    rows = [
        "| example | preset | frames | draws/frame | vertices/frame | cycles/frame | bottleneck | "
        "constant loader busy | ALU waiting for constants | fixed-function draws alone | shader draws alone |",
        "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    for e in examples:
        info = load(os.path.join(work, "scenes", e + ".info.json"))
        for run_path in sorted(glob.glob(os.path.join(work, "runs", e + ".*.json"))):
            preset = os.path.basename(run_path)[len(e) + 1:-len(".json")]
            if "." in preset:
                continue  # a .ff / .shader variant: read below
            run = load(run_path)
            if not run:
                rows.append(f"| {e} | {preset} | run failed | | | | | | | | |")
                continue
            frames = len(info["frames"]) if info else 0
            stats = load(os.path.join(work, "runs", f"{e}.{preset}", "stats.json")) or {}
            cycles = run["cycles"]
            busy = unit_busy(stats, "constant_loader")
            pending = sum(s["cycles"] for s in run.get("stalls", [])
                          if s["unit"] == "vertex_alu" and s["reason"] == "constants_pending")

            def alone(kind):
                v = load(os.path.join(work, "runs", f"{e}.{kind}.{preset}.json"))
                return f"{v['cycles'] / frames:,.0f}" if v and frames else ""
            ff, sh = alone("ff"), alone("shader")
            if not ff and not sh:
                has_ff = bool(run.get("fixed_function", {}).get("draws"))
                ff, sh = ("all", "none") if has_ff else ("none", "all")
            b = run["bottleneck"]
            rows.append(
                f"| {e} | {preset} | {frames} | {run['draws'] / frames:,.1f} | "
                f"{run['references'] / frames:,.0f} | {cycles / frames:,.0f} | "
                f"{b['unit']} ({b['reason']}) | {100.0 * busy / cycles:.1f} % | "
                f"{100.0 * pending / cycles:.1f} % | {ff} | {sh} |")
    print("\n".join(rows))


def main(argv):
    if len(argv) >= 3 and argv[1] == "split":
        split(argv[2], argv[3])
    elif len(argv) >= 3 and argv[1] == "table":
        table(argv[2], argv[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
