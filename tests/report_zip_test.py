#!/usr/bin/python3
"""Reports that read a study's design (docs/report.md, "Zipped axes"), one behaviour per case, on a
synthetic sweep: 2 scenes x zip(vertex_alu.engines 1, 2, 3 with vertex_alu.contexts 6, 3, 2) x
vertex_alu.coissue (off, window), its study.json in the form `vpsim sweep` writes
("axes": [{"keys": [...], "values": [...]}, ...]).

  report_zip_test.py CASE PYTHON_DIR WORKDIR

CASE:
  one-axis   the report plots the zip as one axis, labelled with every member's value, and never
             a member against, or as the hue of, its partner
  heatmap    the report's heatmap crosses the zip with the independent axis (every cell drawn);
             vpsim plot refuses a member as the hue or heatmap axis of its own zip
  inferred   without study.json, axes whose values go together in every point are one axis; a
             full product's axes stay independent
  labels     bar charts sized to their labels: the cause chart's labels level and apart, its
             height growing with the points; a categorical bar chart's long labels turned until
             apart (and the overlap test sees the overlap of labels left level)
"""
import csv
import json
import os
import re
import shutil
import sys
import types

import numpy

STEPS = [(1, 6), (2, 3), (3, 2)]


def load(python_dir):
    sys.path.insert(0, python_dir)
    from vpsim.plot import cli, data, drawing, report, style
    return types.SimpleNamespace(Sweep=data.Sweep, Figure=drawing.Figure, main=cli.main, plt=style.plt,
                                 boxes_overlap=boxes_overlap, fit=getattr(drawing, "fit_ticklabels", lambda ax: None),
                                 sweep_report=report.sweep_report)


def boxes_overlap(boxes):
    """True when two of the display-space boxes share more than a pixel each way."""
    return any(min(a.x1, b.x1) - max(a.x0, b.x0) > 1 and min(a.y1, b.y1) - max(a.y0, b.y0) > 1
               for i, a in enumerate(boxes) for b in boxes[i + 1:])


def write_sweep(d, design=True):
    """results.csv (and study.json when design): cycles per vertex falls with the engines (the
    zip's first member) and a little with co-issue; the cause is the ALU."""
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    header = ["point", "scene", "repeat", "vertex_alu.engines", "vertex_alu.contexts", "vertex_alu.coissue", "cycles",
              "shaded", "cycles_per_vertex", "bottleneck.unit", "bottleneck.reason", "vertex_alu.busy",
              "vertex_alu.idle", "vertex_alu.stalled.dependency"]
    rows = []
    for s, base in (("a.json", 40.0), ("b.json", 90.0)):
        for e, c in STEPS:
            for co in ("off", "window"):
                cpv = base / e * (0.9 if co == "window" else 1.0)
                cycles = int(cpv * 1000)
                rows.append([f"{len(rows):016x}", s, 0, e, c, co, cycles, 1000, cycles / 1000, "vertex_alu",
                             "dependency", cycles // 2, cycles // 10, cycles - cycles // 2 - cycles // 10])
    with open(os.path.join(d, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    if design:
        with open(os.path.join(d, "study.json"), "w") as f:
            json.dump({"schema": "vpsim-study-resolved-1", "name": "zip", "scenes": ["a.json", "b.json"],
                       "base": {"sets": []},
                       "axes": [{"keys": ["vertex_alu.engines", "vertex_alu.contexts"],
                                 "values": [[str(e), str(c)] for e, c in STEPS]},
                                {"keys": ["vertex_alu.coissue"], "values": [["off"], ["window"]]}],
                       "repeats": 1, "metrics": []}, f)


BASE = {"vertex_alu.engines": 1, "vertex_alu.contexts": 3, "vertex_alu.coissue": "window"}
ZIP = "vertex_alu.engines & vertex_alu.contexts"


def headings(text):
    return [h for h in re.findall(r"<h3>(.*?)</h3>", text)]


def case_one_axis(m, work, check):
    d = os.path.join(work, "sweep")
    write_sweep(d)
    sw = m.Sweep(d, BASE)
    check(sw.varying_axes() == [ZIP, "vertex_alu.coissue"], f"two independent axes: {sw.varying_axes()}")
    text = m.sweep_report(types.SimpleNamespace(dir=d, where=[]), BASE).replace("&amp;", "&")
    hs = headings(text)
    check(any(h.startswith(f"cycles_per_vertex against {ZIP}, one line per vertex_alu.coissue") for h in hs),
          "a figure against the zip, one line per co-issue policy")
    for member in ("vertex_alu.engines", "vertex_alu.contexts"):
        alone = [h for h in hs if re.search(rf"(against|per|by|over) {re.escape(member)}(,|;| x|$)", h)]
        check(not alone, f"no figure against, per or by {member} alone: {alone}")
    check(not any("over vertex_alu.contexts" in h or "over vertex_alu.engines" in h for h in hs if "mean" in h),
          "no figure averages over a member of the zip")
    f = m.Figure(sw, "metric", "scene", x=ZIP, y="cycles_per_vertex", hue="vertex_alu.coissue", zoom=False)
    fig = f.single()
    ax = fig.axes[0]
    lines = [ln for ln in ax.get_lines() if len(ln.get_xdata()) > 1]
    check(len(lines) == 2 and all(list(ln.get_xdata()) == [1, 2, 3] for ln in lines),
          f"each co-issue line has the zip's three steps at engines 1, 2, 3: {[list(ln.get_xdata()) for ln in lines]}")
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    check(ticks == ["engines=1\ncontexts=6", "engines=2\ncontexts=3", "engines=3\ncontexts=2"],
          f"ticks name every member's value: {ticks}")
    check(ax.get_xlabel() == "vertex_alu.engines & contexts (zipped)", f"axis label: {ax.get_xlabel()}")
    m.plt.close(fig)
    f = m.Figure(sw, "metric", "scene", x="vertex_alu.coissue", y="cycles_per_vertex", hue=ZIP, zoom=False)
    fig = f.single()
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    check(legend == ["engines=1, contexts=6", "engines=2, contexts=3", "engines=3, contexts=2"],
          f"the zip as a hue: one entry per step, every member named: {legend}")
    m.plt.close(fig)


def case_heatmap(m, work, check):
    d = os.path.join(work, "sweep")
    write_sweep(d)
    sw = m.Sweep(d, BASE)
    text = m.sweep_report(types.SimpleNamespace(dir=d, where=[]), BASE).replace("&amp;", "&")
    heat = [h for h in headings(text) if " over " in h and " x " in h]
    check(len(heat) == 1 and heat[0].startswith(f"cycles_per_vertex over {ZIP} x vertex_alu.coissue"),
          f"one heatmap, the zip crossed with co-issue: {heat}")
    f = m.Figure(sw, "heatmap", "scene", x=ZIP, x2="vertex_alu.coissue", y="cycles_per_vertex")
    fig = f.single()
    grid = numpy.ma.filled(fig.axes[0].get_images()[0].get_array(), numpy.nan)
    check(grid.shape == (2, 3) and not numpy.isnan(grid).any(),
          f"every cell of the 3 x 2 heatmap drawn: {grid.tolist()}")
    m.plt.close(fig)
    for opt in ("--hue", "--heatmap"):
        out = os.path.join(work, f"partner{opt.strip('-')}.png")
        rc = m.main(["plot", d, "--x", "vertex_alu.engines", "--y", "cycles_per_vertex", opt, "vertex_alu.contexts",
                     "-o", out, "--base", os.path.join(work, "base.json")])
        check(rc == 2 and not os.path.exists(out), f"{opt} a zip partner of --x: exit {rc} (2), no output file")
    out = os.path.join(work, "zip.png")
    rc = m.main(["plot", d, "--x", "vertex_alu.contexts", "--y", "cycles_per_vertex", "--heatmap",
                 "vertex_alu.coissue", "-o", out, "--base", os.path.join(work, "base.json")])
    check(rc == 0 and os.path.getsize(out) > 0, f"--x a member, --heatmap an independent axis: exit {rc}")


def case_inferred(m, work, check):
    d = os.path.join(work, "sweep")
    write_sweep(d, design=False)
    sw = m.Sweep(d, BASE)
    check(sw.design == "inferred" and sw.varying_axes() == [ZIP, "vertex_alu.coissue"],
          f"no study.json: the zip inferred from the values ({sw.design}): {sw.varying_axes()}")
    text = m.sweep_report(types.SimpleNamespace(dir=d, where=[]), BASE)
    check("no study.json records the design" in text, "the report says the zip was inferred")
    # engines x coissue of the same points is a full product: independent.
    sw = m.Sweep(d, BASE, [("vertex_alu.engines", "1")])
    check(sw.varying_axes() == ["vertex_alu.coissue"], f"--where keeps one step: {sw.varying_axes()}")
    with open(os.path.join(d, "results.csv")) as f:
        rows = list(csv.reader(f))
    with open(os.path.join(d, "results.csv"), "w", newline="") as f:
        csv.writer(f).writerows([[c for k, c in enumerate(r) if k != 4] for r in rows])  # drop contexts
    sw = m.Sweep(d, BASE)
    check(sw.design == "none" and sw.varying_axes() == ["vertex_alu.engines", "vertex_alu.coissue"],
          f"a full product: independent axes ({sw.design}): {sw.varying_axes()}")


def label_boxes(fig, ax, axis):
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    labels = ax.get_yticklabels() if axis == "y" else ax.get_xticklabels()
    return [t for t in labels if t.get_text()], [t.get_window_extent(r) for t in labels if t.get_text()]


def case_labels(m, work, check):
    d = os.path.join(work, "sweep")
    write_sweep(d)
    sw = m.Sweep(d, BASE)
    f = m.Figure(sw, "causes", "scene")
    figs = f.separate()
    title, _, fig = figs[0]
    ax = fig.axes[0]
    labels, boxes = label_boxes(fig, ax, "y")
    check(len(labels) == 6 and all(t.get_rotation() == 0 and "coissue=" in t.get_text()
                                   and "vertex_alu: dependency" in t.get_text() for t in labels),
          f"the cause chart: a level label per point, naming it and its cause: {[t.get_text() for t in labels]}")
    check(not m.boxes_overlap(boxes), "the cause chart's labels do not overlap")
    check(min(t.get_fontsize() for t in labels) >= 7, f"labels at 7 points or more: {labels[0].get_fontsize()}")
    small = fig.get_size_inches()[1]
    big = m.Figure(m.Sweep(d, BASE), "causes", "none")  # 12 points in one panel
    check(big.panel_size(0)[1] > small + 2, f"a taller chart for more points: {big.panel_size(0)[1]} > {small}")
    for _, _, g in figs:
        m.plt.close(g)
    # A categorical bar chart with ten long labels: turned until apart.
    rows = [{"preset": f"a-long-preset-name-{k}", "cycles": str(100 + k)} for k in range(10)]
    stub = types.SimpleNamespace(value=lambda r, c: float(r[c]), ordered_values=lambda rs, x: [r[x] for r in rs],
                                 position=lambda x, v: None, is_zip=lambda x: False, tick=lambda x, v: v,
                                 axis_title=lambda x: x, label=lambda x, v: v, header=["preset", "cycles"],
                                 axes=["preset"], members=lambda x: [x], factor=lambda c: c)
    from vpsim.plot.drawing import draw_metric
    fig, ax = m.plt.subplots(figsize=(4.6, 3.5))
    draw_metric(ax, stub, rows, "preset", "cycles", None, False, "ten bars")
    fig.tight_layout()
    _, level = label_boxes(fig, ax, "x")
    check(m.boxes_overlap(level), "ten long labels left level overlap (the overlap test sees it)")
    m.fit(ax)
    labels, boxes = label_boxes(fig, ax, "x")
    check(not m.boxes_overlap(boxes) and labels[0].get_rotation() > 0,
          f"turned ({labels[0].get_rotation()} degrees), they do not")
    m.plt.close(fig)


def main(case, python_dir, work):
    m = load(python_dir)
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "base.json"), "w") as f:
        json.dump({"vertex_alu": {"engines": 1, "contexts": 3, "coissue": "window"}}, f)
    failures = []

    def check(cond, what):
        print(("ok: " if cond else "FAIL: ") + what)
        if not cond:
            failures.append(what)

    cases = {"one-axis": case_one_axis, "heatmap": case_heatmap, "inferred": case_inferred, "labels": case_labels}
    if case not in cases:
        sys.stderr.write(f"report_zip_test.py: unknown case {case}; cases: {', '.join(cases)}\n")
        return 2
    cases[case](m, work, check)
    print(f"{len(failures)} check(s) failed" if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.stderr.write(__doc__)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
