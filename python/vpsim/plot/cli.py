"""vpsim's plots and HTML reports (docs/report.md), run by `vpsim plot` and `vpsim report`.

  python3 -m vpsim.plot plot DIR --x AXIS --y METRIC [--hue AXIS] [--heatmap AXIS2] [--stalls]
                [--where KEY=VALUE]... [--facet scene|none] [--zoom] -o FILE.png|.svg|.pdf
  python3 -m vpsim.plot report DIR [--where KEY=VALUE]... -o FILE.html
  python3 -m vpsim.plot correlate FIGURES.json -o FILE.png|.svg|.pdf   (`vpsim bench correlate --plot`)
  (plot, report: [--base PARAMS.json], the base parameters {"unit": {"param": value}}: which
  columns of results.csv are parameters, and each point's difference from the base)

DIR is a sweep directory (results.csv) or, for `report`, a `vpsim run --out` directory
(stats.json, config.json, timeseries.csv when the run had --stats-interval). Bad input: a
message on stderr naming the file, column or option, exit 2, and no output file.

Honest by construction: one panel per scene (small multiples) unless --facet none; a plot that
averages points says so in its title and names what it averages over; y axes start at zero
(--zoom: they do not, and the break is marked); categorical axes are bars; a per-vertex metric
gets total cycles beside it when the shaded count changes; the colours are Okabe and Ito's
colour-blind-safe palette, busy (blue) told apart from stalled (warm colours, hatched by class).
A study's zipped axes (its study.json) are one axis: hues, heatmaps and averages are over
independent axes only; tick labels are turned until they do not overlap.
"""
import argparse
import io
import os
import sys

from .data import InputError, Sweep, flat_params, parse_where, read_json
from .drawing import Figure, fig_bytes, write_atomic
from .report import cmd_report
from .style import FORMATS, PROG, matplotlib, plt

# ----------------------------------------------------------------------------- plot command


# ----------------------------------------------------------------------------- plot command


def cmd_plot(a, base):
    if not os.path.isfile(os.path.join(a.dir, "results.csv")):
        raise InputError(f"{a.dir}: no results.csv (vpsim plot reads a sweep directory; "
                         "vpsim report also takes a single run's --out directory)")
    ext = os.path.splitext(a.out)[1].lower().lstrip(".")
    if ext not in FORMATS:
        raise InputError(f"-o {a.out}: the plot is written as .png, .svg or .pdf (name it FILE.png, FILE.svg or "
                         "FILE.pdf)")
    if a.facet not in ("scene", "none"):
        raise InputError(f"--facet {a.facet}: expected scene (one panel per scene, the default) or none")
    sw = Sweep(a.dir, base, parse_where(a.where))
    sw.column(a.x, "axis", "--x")
    if a.hue:
        sw.column(a.hue, "axis", "--hue")
    if a.heatmap:
        sw.column(a.heatmap, "axis", "--heatmap")
    # A zip's members vary together: naming one plots the zip as one axis, and a member is
    # neither a hue nor a heatmap axis of its own zip.
    a.x = sw.factor(a.x)
    for opt, name in (("--hue", a.hue), ("--heatmap", a.heatmap)):
        if name and sw.factor(name) == a.x:
            others = [f for f in sw.varying_axes() if f != a.x]
            raise InputError(f"{opt} {name}: zipped with --x in {sw.design_file()} ({a.x} vary together, one axis), "
                             "so it cannot split or cross it; independent axes: " + (", ".join(others) or "none"))
    a.hue = sw.factor(a.hue) if a.hue else a.hue
    a.heatmap = sw.factor(a.heatmap) if a.heatmap else a.heatmap
    if a.heatmap and a.hue:
        raise InputError("--heatmap and --hue: a heatmap has no hue (give one of them)")
    if a.stalls and (a.heatmap or a.hue):
        raise InputError("--stalls: a stall breakdown takes neither --hue nor --heatmap")
    if a.stalls:
        if a.y == "bottleneck":
            if "bottleneck.unit" not in sw.header:
                raise InputError(f"--y bottleneck: {sw.path} has no bottleneck.unit column (a sweep's results.csv "
                                 "has it unless its metrics leave it out)")
            f = Figure(sw, "causes", a.facet)
        else:
            sw.unit_parts(a.y)
            f = Figure(sw, "stalls", a.facet, x=a.x, unit=a.y)
    else:
        sw.column(a.y, "metric", "--y")
        if a.y not in sw.metrics and a.y not in sw.unit_cols:
            raise InputError(f"--y {a.y}: not a numeric metric column of {sw.path}; metrics: "
                             + ", ".join(sw.metrics + sw.unit_cols))
        if a.heatmap:
            f = Figure(sw, "heatmap", a.facet, x=a.x, x2=a.heatmap, y=a.y)
        else:
            f = Figure(sw, "metric", a.facet, x=a.x, y=a.y, hue=a.hue, zoom=a.zoom)
    write_atomic(a.out, fig_bytes(f.single(), ext))


# ----------------------------------------------------------------------------- correlate command

FIT_COLOUR, HOLDOUT_COLOUR = "#0072B2", "#D55E00"  # Okabe & Ito blue / vermilion, with their own markers


def cmd_correlate(a, _base):
    """`vpsim bench correlate --json` as a chart: model against measurement, log-log, one point per
    figure (each in its own unit), fit and holdout told apart by colour and marker, upper bounds
    hollow, the y = x line and the ±tolerance band."""
    doc = read_json(a.figures)
    rows = doc.get("figures") if isinstance(doc, dict) else None
    if not isinstance(rows, list) or not rows:
        raise InputError(f"{a.figures}: no \"figures\" list (the output of vpsim bench correlate --json)")
    ext = os.path.splitext(a.out)[1].lower().lstrip(".")
    if ext not in FORMATS:
        raise InputError(f"-o {a.out}: the plot is written as .png, .svg or .pdf")
    tol = float(doc.get("tolerance", 0.15))
    pts = []
    for k, r in enumerate(rows):
        try:
            x, y = float(r["measured"]), float(r["model"])
            if not (x > 0 and y > 0):
                raise ValueError("measured and model must be positive on a log scale")
            pts.append((r["id"], x, y, r["set"], r["comparison"], r["unit"], bool(r["within"])))
        except (KeyError, TypeError, ValueError) as e:
            raise InputError(f"{a.figures}: /figures/{k}: {e}")
    lo = min(min(p[1], p[2]) for p in pts) / 2.0
    hi = max(max(p[1], p[2]) for p in pts) * 2.0
    fig, ax = plt.subplots(figsize=(8.5, 7.5))
    ax.set_xscale("log")
    ax.set_yscale("log")
    line = [lo, hi]
    ax.fill_between(line, [v * (1 - tol) for v in line], [v * (1 + tol) for v in line], color="#E5E5E5",
                    label=f"±{100 * tol:g} % of the measurement", zorder=0)
    ax.plot(line, line, color="#444444", linewidth=1, label="model = measurement", zorder=1)
    style = {("fit", "rate"): dict(marker="o", color=FIT_COLOUR, label="fit set: throughput test"),
             ("holdout", "rate"): dict(marker="D", color=HOLDOUT_COLOUR, label="holdout set: throughput test"),
             ("fit", "upper_bound"): dict(marker="^", color=FIT_COLOUR,
                                          label="fit set: game test, model is an upper bound (hollow)"),
             ("holdout", "upper_bound"): dict(marker="^", color=HOLDOUT_COLOUR,
                                              label="holdout set: game test, model is an upper bound (hollow)")}
    seen = set()
    for name, x, y, st, comp, unit, within in pts:
        s = style.get((st, comp), dict(marker="o", color="#000000", label=f"{st} {comp}"))
        hollow = comp == "upper_bound"
        ax.scatter([x], [y], s=70, marker=s["marker"], zorder=3, linewidths=1.5,
                   facecolors="none" if hollow else s["color"], edgecolors=s["color"],
                   label=None if (st, comp) in seen else s["label"])
        seen.add((st, comp))
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_aspect("equal")
    ax.apply_aspect()
    # Labels beside their points, moved down (in points) while they would overlap one placed before.
    placed = []
    marks = [ax.transData.transform((p[1], p[2])) for p in pts]
    for name, x, y, st, comp, unit, within in sorted(pts, key=lambda p: -p[2]):
        px, py = ax.transData.transform((x, y))
        dy = 3.0
        # Not over a label placed before, nor over another point's marker to the right.
        while (any(abs(px - qx) < 170 and abs(py + dy - qy) < 10 for qx, qy in placed) or
               any(2 < mx - px < 170 and abs(py + dy - my) < 8 for mx, my in marks)):
            dy -= 12.0
        placed.append((px, py + dy))
        ax.annotate(f"{name} ({unit})", (x, y), xytext=(7 if dy > -5 else 26, dy), textcoords="offset points", fontsize=7,
                    color="#222222", va="center",
                    arrowprops=dict(arrowstyle="-", color="#999999", linewidth=0.5) if dy < -5 else None)
    # Plain numbers at 1-2-5 steps on both axes (a log axis shows only powers of ten otherwise).
    steps = [m * 10.0 ** e for e in range(-3, 7) for m in (1, 2, 5) if lo <= m * 10.0 ** e <= hi]
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(matplotlib.ticker.FixedLocator(steps))
        axis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _pos: f"{v:g}"))
        axis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xlabel("measured on the real chip (each figure in its own unit: M triangles/s or frames/s)")
    ax.set_ylabel("model (the figure's unit)")
    ax.grid(True, which="major", color="#DDDDDD", linewidth=0.6)
    summ = doc.get("summary", {})

    def mae(key):
        v = summ.get(key, {}).get("mean_abs_error")
        return "n/a" if v is None else f"{100 * v:.0f} %"
    ax.set_title(f"vpsim bench correlate: {len(pts)} measured figures; mean absolute error "
                 f"fit {mae('fit')}, holdout {mae('holdout')} (throughput tests)", fontsize=10)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.09), ncol=2, fontsize=8, frameon=False)
    buf = io.BytesIO()
    fig.savefig(buf, format=ext, dpi=110, bbox_inches="tight")
    plt.close(fig)
    write_atomic(a.out, buf.getvalue())


class Parser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write(f"{PROG} {self.prog.split()[-1]}: {message}\n")
        sys.exit(2)


def main(argv):
    p = Parser(prog="vpsim.plot", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=Parser)
    pp = sub.add_parser("plot")
    pp.add_argument("dir")
    pp.add_argument("--x", required=True)
    pp.add_argument("--y", required=True)
    pp.add_argument("--hue")
    pp.add_argument("--heatmap")
    pp.add_argument("--stalls", action="store_true")
    pp.add_argument("--where", action="append", default=[])
    pp.add_argument("--facet", default="scene")
    pp.add_argument("--zoom", action="store_true")
    pp.add_argument("-o", dest="out", required=True)
    pp.add_argument("--base")
    pr = sub.add_parser("report")
    pr.add_argument("dir")
    pr.add_argument("--where", action="append", default=[])
    pr.add_argument("-o", dest="out", required=True)
    pr.add_argument("--base")
    pc = sub.add_parser("correlate")
    pc.add_argument("figures")
    pc.add_argument("-o", dest="out", required=True)
    pc.add_argument("--base")
    a = p.parse_args(argv)
    try:
        base = flat_params(read_json(a.base)) if a.base else {}
        {"plot": cmd_plot, "report": cmd_report, "correlate": cmd_correlate}[a.cmd](a, base)
    except InputError as e:
        sys.stderr.write(f"{PROG} {'bench correlate' if a.cmd == 'correlate' else a.cmd}: {e}\n")
        return 2
    return 0
