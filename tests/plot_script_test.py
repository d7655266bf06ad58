#!/usr/bin/python3
"""Unit tests of the plot package's (python/vpsim/plot) honesty rules (docs/report.md), on a synthetic sweep
whose numbers are chosen so each rule is visible:

- one panel per scene by default, and a title that names what a panel averages over;
- --where keeps only the matching points (and an unknown column or value is an error);
- y axes start at zero; --zoom does not, and marks the break;
- bars over a categorical axis, lines over a numeric one;
- total cycles beside cycles per vertex when the shaded count changes (and not when it does not);
- busy told apart from stalled (colour and hatch), the palette's colours all distinct;
- the stall plot of the bottleneck's cause draws the cause unit of each point;
- .png, .svg and .pdf outputs, and no output file on bad input.

  plot_script_test.py PYTHON_DIR WORKDIR   (PYTHON_DIR: the directory holding the vpsim package)
"""
import csv
import os
import sys
import types


def load(python_dir):
    """The names the tests use, from the package's modules."""
    sys.path.insert(0, python_dir)
    from vpsim.plot import cli, data, drawing, style
    return types.SimpleNamespace(BUSY=style.BUSY, IDLE=style.IDLE, PALETTE=style.PALETTE,
                                 STALL_COLOURS=style.STALL_COLOURS, plt=style.plt, InputError=data.InputError,
                                 Sweep=data.Sweep, parse_where=data.parse_where, Colours=drawing.Colours,
                                 Figure=drawing.Figure, main=cli.main)


def write_sweep(d):
    """3 scenes x engines (1, 2) x coissue (off, window); scene c shades fewer vertices with 2
    engines (so its cycles per vertex hide a change in total cycles)."""
    os.makedirs(d, exist_ok=True)
    header = ["point", "scene", "repeat", "vertex_alu.engines", "vertex_alu.coissue", "cycles", "shaded",
              "cycles_per_vertex", "bottleneck.unit", "bottleneck.reason", "vertex_alu.busy", "vertex_alu.idle",
              "vertex_alu.stalled.dependency", "vertex_fetch.busy", "vertex_fetch.idle",
              "vertex_fetch.stalled.miss_limit"]
    rows = []
    base = {"a.json": 41.0, "b.json": 19.5, "c.json": 91.6}
    for s, cpv in base.items():
        for e in (1, 2):
            for c in ("off", "window"):
                shaded = 1000 if s != "c.json" else (1000 if e == 1 else 250)
                v = cpv / e * (0.9 if c == "window" else 1.0)
                cycles = int(v * shaded)
                cause = ("vertex_fetch", "miss_limit") if s == "c.json" else ("vertex_alu", "dependency")
                rows.append([f"{len(rows):016x}", s, 0, e, c, cycles, shaded, cycles / shaded, cause[0], cause[1],
                             cycles // 2, cycles // 10, cycles - cycles // 2 - cycles // 10, cycles // 4,
                             cycles // 4, cycles - 2 * (cycles // 4)])
    with open(os.path.join(d, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def main(python_dir, work):
    m = load(python_dir)
    failures = []

    def check(cond, what):
        print(("ok: " if cond else "FAIL: ") + what)
        if not cond:
            failures.append(what)

    sw_dir = os.path.join(work, "sweep")
    write_sweep(sw_dir)
    base = {"vertex_alu.engines": 2, "vertex_alu.coissue": "window"}
    sw = m.Sweep(sw_dir, base)
    check(sw.scenes == ["a.json", "b.json", "c.json"], f"three scenes: {sw.scenes}")

    # One panel per scene, averaging stated.
    f = m.Figure(sw, "metric", "scene", x="vertex_alu.engines", y="cycles_per_vertex", hue=None, zoom=False)
    fig = f.single()
    axes = [a for a in fig.axes if a.get_visible()]
    titles = [a.get_title() for a in axes]
    check(len(f.panels) == 3 and [t for t in titles[:3]] == ["scene: a.json", "scene: b.json", "scene: c.json"],
          f"a panel per scene: {titles}")
    check("mean of up to 2 points over vertex_alu.coissue (off, window)" in f.title(),
          f"the title names the averaging: {f.title()}")
    check("one panel per scene" in f.title(), "the title says one panel per scene")
    # Total cycles beside cycles per vertex: scene c's shaded count changes with the engines.
    check(f.rows_of == ["cycles_per_vertex", "cycles"] and len(axes) == 6,
          f"total cycles row when the shaded count changes: {f.rows_of}, {len(axes)} panels")
    check("total cycles beside it" in f.title(), "the title says why total cycles are there")
    # Y from zero on every panel.
    check(all(a.get_ylim()[0] == 0 for a in axes), f"y from zero: {[a.get_ylim() for a in axes]}")
    m.plt.close(fig)
    # Every scene in one panel: the title says it is a mean over the 3 scenes.
    f = m.Figure(sw, "metric", "none", x="vertex_alu.engines", y="cycles_per_vertex", hue="vertex_alu.coissue",
                 zoom=False)
    m.plt.close(f.single())
    check(len(f.panels) == 1 and "over 3 scenes" in f.title(), f"--facet none states the blend: {f.title()}")
    check("one line per vertex_alu.coissue" in f.title(), f"lines over a numeric axis are named lines: {f.title()}")
    # Bars over a categorical axis with a hue: the heading says bars, never "one line per".
    f = m.Figure(sw, "metric", "scene", x="vertex_alu.coissue", y="cycles_per_vertex", hue="vertex_alu.engines",
                 zoom=False)
    fig = f.single()
    check("one bar per vertex_alu.engines at each vertex_alu.coissue" in f.title() and "line" not in f.title(),
          f"bars over a categorical axis are named bars: {f.title()}")
    check(len(fig.axes[0].patches) >= 2 and not fig.axes[0].lines, "and the chart draws bars")
    m.plt.close(fig)

    # --where: one scene, only engines=2; no averaging left with a hue.
    sw2 = m.Sweep(sw_dir, base, m.parse_where(["scene=a.json", "vertex_alu.engines=2"]))
    check(len(sw2.rows) == 2 and sw2.scenes == ["a.json"], f"--where keeps 2 points: {len(sw2.rows)}")
    f = m.Figure(sw2, "metric", "scene", x="vertex_alu.coissue", y="cycles_per_vertex", hue=None, zoom=False)
    fig = f.single()
    ax = fig.axes[0]
    check("mean" not in f.title() and "where scene=a.json, vertex_alu.engines=2" in f.title(),
          f"no averaging, the filter in the title: {f.title()}")
    # Bars over a categorical axis: two bars (patches), no data line.
    check(len(ax.patches) == 2 and len(ax.lines) == 0, f"bars for a categorical axis: {len(ax.patches)} bars, "
          f"{len(ax.lines)} lines")
    m.plt.close(fig)
    # Lines over a numeric axis; zoom breaks the axis and says so.
    sw3 = m.Sweep(sw_dir, base, m.parse_where(["scene=b.json", "vertex_alu.coissue=off"]))
    f = m.Figure(sw3, "metric", "scene", x="vertex_alu.engines", y="cycles_per_vertex", hue=None, zoom=True)
    fig = f.single()
    ax = fig.axes[0]
    check(len(ax.lines) >= 1 and len(ax.patches) == 0, "a line for a numeric axis")
    check(ax.get_ylim()[0] > 0 and "axis broken" in ax.get_ylabel(), f"--zoom marks the break: {ax.get_ylabel()!r}")
    check(f.rows_of == ["cycles_per_vertex"], "no total cycles row when the shaded count does not change")
    m.plt.close(fig)

    for bad, why in ((["nosuch=1"], "no column nosuch"), (["vertex_alu.engines=3"], "no point"), (["x"], "KEY=VALUE")):
        try:
            m.Sweep(sw_dir, base, m.parse_where(bad))
            check(False, f"--where {bad} refused")
        except m.InputError as e:
            check(why in str(e), f"--where {bad} refused: {e}")

    # Palette: distinct, and busy is not a stall colour; stall classes hatched.
    check(len(set(m.PALETTE)) == len(m.PALETTE), "palette colours distinct")
    check(m.BUSY not in m.STALL_COLOURS and m.IDLE not in m.STALL_COLOURS, "busy and idle are not stall colours")
    c = m.Colours()
    check(c.part("stalled.x", "back_pressure")[2] != c.part("stalled.y", "local")[2] != c.part("stalled.z", "starvation")[2],
          "stall classes hatched differently")
    check(c.part("stalled.x", "")[1] == c.part("stalled.x", "local")[1], "a reason keeps its colour")

    # The cause plot draws each point's cause unit (horizontal bars: a level label per point).
    f = m.Figure(sw, "causes", "scene")
    fig = f.single()
    labels = [t.get_text() for t in fig.axes[2].get_yticklabels()]
    check(all("vertex_fetch: miss_limit" in t for t in labels) and len(labels) == 4,
          f"scene c's cause is vertex_fetch: {labels}")
    check(any("stalled (class unknown): miss_limit" in t.get_text() for t in fig.axes[2].get_legend().get_texts()),
          "the cause panel shows the cause unit's own stall")
    m.plt.close(fig)

    # Output formats through the command line, and no file on bad input.
    for ext, magic in (("png", b"\x89PNG"), ("svg", b"<?xml"), ("pdf", b"%PDF")):
        out = os.path.join(work, f"p.{ext}")
        rc = m.main(["plot", sw_dir, "--x", "vertex_alu.engines", "--y", "cycles_per_vertex", "-o", out])
        with open(out, "rb") as fh:
            head = fh.read(8)
        check(rc == 0 and head.startswith(magic), f"plot -o p.{ext}: exit {rc}, {head!r}")
    out = os.path.join(work, "bad.gif")
    rc = m.main(["plot", sw_dir, "--x", "vertex_alu.engines", "--y", "cycles_per_vertex", "-o", out])
    check(rc == 2 and not os.path.exists(out), "plot -o bad.gif: exit 2, no file")
    out = os.path.join(work, "bad.png")
    rc = m.main(["plot", sw_dir, "--x", "vertex_alu.engines", "--y", "cycles_per_vertex", "--where", "scene=z.json",
                 "-o", out])
    check(rc == 2 and not os.path.exists(out), "plot --where scene=z.json: exit 2, no file")
    rc = m.main(["plot", sw_dir, "--x", "vertex_alu.engines", "--y", "bottleneck", "--stalls", "-o",
                 os.path.join(work, "causes.svg")])
    check(rc == 0, "plot --stalls --y bottleneck")

    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
