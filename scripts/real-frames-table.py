#!/usr/bin/env python3
"""Helpers of scripts/irrlicht.sh's study of real frames (docs/real-frames.md).

  real-frames-table.py split SCENE.json PREFIX
      A converted capture with both fixed-function and shader draws: PREFIX.ff.json keeps only its
      fixed-function draws, PREFIX.shader.json only its shader draws (every other command kept, so
      each draw sees the same state). A scene with one kind only: neither file (old ones removed).
  real-frames-table.py report WORK EXAMPLE...
      The markdown table of the captures: WORK/scenes/EXAMPLE.info.json (vpsim capture info --json)
      and WORK/captures/md5.txt (the recording and the one made again), one row per example.
  real-frames-table.py table WORK FRAMES EXAMPLE...
      The markdown table of WORK/runs/EXAMPLE[.ff|.shader].PRESET.json (vpsim run --json of a scene
      of FRAMES frames) with WORK/runs/EXAMPLE.PRESET/stats.json, one row per example and preset.
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


def report(work, examples):
    md5 = {}
    with open(os.path.join(work, "captures", "md5.txt")) as f:
        for line in f:
            digest, name = line.split()
            md5[name] = digest
    rows = [
        "| example | frames | draws/frame | vertices/frame | shader draws/frame | user-pointer draws/frame | "
        "constant vectors/frame | bytes/frame (Lock + user pointer) | capture MB | recorded twice |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for e in examples:
        info = load(os.path.join(work, "scenes", e + ".info.json"))
        if not info:
            rows.append(f"| {e} | no capture | | | | | | | | |")
            continue
        fr = info["frames"][1:]  # frame 0 holds the set-up too
        n = len(fr)

        def mean(key):
            return sum(f[key] for f in fr) / n
        a, b = md5.get(e + ".vpcap"), md5.get(e + ".again.vpcap")
        same = "identical" if a and a == b else "differ"
        size = os.path.getsize(os.path.join(work, "captures", e + ".vpcap")) / 1e6
        rows.append(
            f"| {e} | {len(info['frames'])} | {mean('draws'):,.1f} | {mean('vertices'):,.0f} | "
            f"{mean('shader_draws'):,.1f} | {mean('user_pointer_draws'):,.1f} | {mean('constant_vectors'):,.1f} | "
            f"{mean('buffer_bytes') + mean('user_pointer_bytes'):,.0f} | {size:,.1f} | {same} (md5 {a[:8] if a else '-'}) |")
    print("\n".join(rows))


def table(work, frames, examples):
    rows = [
        "| example | preset | frames | draws/frame | vertices/frame | cycles/frame | bottleneck | "
        "constant loader busy | ALU waiting for constants | fixed-function draws alone, cycles/frame | shader draws alone, cycles/frame |",
        "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    for e in examples:
        for run_path in sorted(glob.glob(os.path.join(work, "runs", e + ".*.json"))):
            preset = os.path.basename(run_path)[len(e) + 1:-len(".json")]
            if "." in preset:
                continue  # a .ff / .shader variant: read below
            run = load(run_path)
            if not run:
                rows.append(f"| {e} | {preset} | run failed | | | | | | | | |")
                continue
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
    elif len(argv) >= 3 and argv[1] == "report":
        report(argv[2], argv[3:])
    elif len(argv) >= 4 and argv[1] == "table":
        table(argv[2], int(argv[3]), argv[4:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
