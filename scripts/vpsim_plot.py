#!/usr/bin/python3
"""vpsim's plots and HTML reports (docs/report.md), run by `vpsim plot` and `vpsim report`.

  vpsim_plot.py plot DIR --x AXIS --y METRIC [--hue AXIS] [--heatmap AXIS2] [--stalls] -o FILE.png
  vpsim_plot.py report DIR -o FILE.html
  vpsim_plot.py correlate FIGURES.json -o FILE.png|.svg|.pdf   (`vpsim bench correlate --plot`)
  (both: [--base PARAMS.json], the base parameters {"unit": {"param": value}}: which columns
  of results.csv are parameters, and each point's difference from the base)

DIR is a sweep directory (results.csv) or, for `report`, a `vpsim run --out` directory
(stats.json, config.json, timeseries.csv when the run had --stats-interval). Bad input: a
message on stderr naming the file, column or option, exit 2, and no output file.
"""
import argparse
import base64
import csv
import html
import io
import json
import math
import os
import re
import sys
import tempfile

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError as missing:
    sys.stderr.write(f"vpsim: the plots need matplotlib ({missing}); install Debian's python3-matplotlib "
                     "(scripts/deps.sh python3-matplotlib) and run with /usr/bin/python3\n")
    sys.exit(2)

PROG = "vpsim"
UNIT_CYCLES = re.compile(r"^([A-Za-z0-9_]+)\.(busy|idle|stalled\.[A-Za-z0-9_]+)$")
# Colours: busy, idle, then the stall reasons.
BUSY, IDLE = "#2b8a3e", "#ced4da"
STALL_COLOURS = ["#e8590c", "#c92a2a", "#862e9c", "#1864ab", "#f08c00", "#74b816", "#0b7285", "#a61e4d",
                 "#5f3dc4", "#ffd43b", "#364fc7", "#d6336c", "#087f5b", "#e67700", "#495057", "#66d9e8"]


class InputError(Exception):
    pass


# ----------------------------------------------------------------------------- input


def number(text):
    """The cell as a float when it is a number, else None."""
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def read_csv(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}")
    if not rows or not rows[0]:
        raise InputError(f"{path}: empty (no header line)")
    header = rows[0]
    body = [r for r in rows[1:] if r]
    for i, r in enumerate(body):
        if len(r) != len(header):
            raise InputError(f"{path}: line {i + 2} has {len(r)} fields, the header {len(header)}")
    return header, [dict(zip(header, r)) for r in body]


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}")
    except ValueError as e:
        raise InputError(f"{path}: not valid JSON: {e}")


def flat_params(params):
    """{"unit": {"param": v}} -> {"unit.param": v}."""
    out = {}
    for unit, table in (params or {}).items():
        if isinstance(table, dict):
            for k, v in table.items():
                out[f"{unit}.{k}"] = v
    return out


def same_value(text, base):
    if isinstance(base, bool):
        return text.strip().lower() in (("true", "1", "on") if base else ("false", "0", "off"))
    a, b = number(text), number(base)
    if a is not None and b is not None:
        return a == b
    return text.strip() == str(base).strip()


def order_key(values):
    """Sort key: numerically when every value is a number, else by first appearance."""
    if all(number(v) is not None for v in values):
        return lambda v: (number(v), v)
    first = {}
    for v in values:
        first.setdefault(v, len(first))
    return lambda v: first[v]


def ordered(values):
    vs = list(dict.fromkeys(values))
    return sorted(vs, key=order_key(vs))


class Sweep:
    """A sweep directory's results.csv (docs/report.md, "results.csv")."""

    def __init__(self, directory, base):
        self.dir = directory
        self.path = os.path.join(directory, "results.csv")
        self.header, self.rows = read_csv(self.path)
        if not self.rows:
            raise InputError(f"{self.path}: no points (only a header)")
        self.base = base
        self.axes = [c for c in self.header if c in base]
        self.unit_cols = [c for c in self.header if UNIT_CYCLES.match(c)]
        self.metrics = [c for c in self.header
                        if c not in self.axes and c not in ("scene", "point", "repeat") and c not in self.unit_cols
                        and all(number(r[c]) is not None for r in self.rows)]
        self.units = list(dict.fromkeys(UNIT_CYCLES.match(c).group(1) for c in self.unit_cols))
        if "scene" in self.header:
            # Scenes by file name where those are unique (labels and legends stay short).
            full = list(dict.fromkeys(r["scene"] for r in self.rows))
            short = {f: os.path.basename(f) for f in full}
            if len(set(short.values())) == len(full):
                for r in self.rows:
                    r["scene"] = short[r["scene"]]
        self.scenes = ordered(r.get("scene", "") for r in self.rows) if "scene" in self.header else []
        # The study's own metrics ("metrics" in study.json, exact names) are the ones it plots.
        self.study_metrics = []
        study = os.path.join(directory, "study.json")
        if os.path.isfile(study):
            named = read_json(study).get("metrics") or []
            self.study_metrics = [m for m in named if isinstance(m, str) and m in self.metrics]

    def column(self, name, what, option):
        if name not in self.header:
            raise InputError(f"{option} {name}: {self.path} has no such {what} column; its columns: "
                             + ", ".join(self.header))
        return name

    def value(self, row, metric):
        v = number(row[metric])
        if v is None:
            raise InputError(f"{self.path}: column {metric} is not a number in every row (\"{row[metric]}\")")
        return v

    def varying_axes(self):
        return [a for a in self.axes if len(set(r[a] for r in self.rows)) > 1]

    def grouping(self):
        """Axes and the scene, the things a point varies by (for labels)."""
        g = self.varying_axes()
        return (["scene"] if len(self.scenes) > 1 else []) + g

    def unit_parts(self, unit):
        parts = [c for c in self.unit_cols if UNIT_CYCLES.match(c).group(1) == unit]
        if not parts:
            raise InputError(f"--y {unit}: {self.path} has no cycle columns for this unit "
                             f"(<unit>.busy, <unit>.idle, <unit>.stalled.<reason>); units: "
                             + (", ".join(self.units) or "none"))
        return parts

    def diff(self, row):
        """The point's parameter values that differ from the base."""
        return [f"{a}={row[a]}" for a in self.axes if not same_value(row[a], self.base[a])]


# ----------------------------------------------------------------------------- plots


def mean(vs):
    return sum(vs) / len(vs)


def plot_lines(ax, sw, x, y, hue):
    xs = ordered(r[x] for r in sw.rows)
    numeric_x = all(number(v) is not None for v in xs)
    hues = ordered(r[hue] for r in sw.rows) if hue else [None]
    most = 1
    for h in hues:
        px, py = [], []
        for xv in xs:
            vals = [sw.value(r, y) for r in sw.rows if r[x] == xv and (hue is None or r[hue] == h)]
            if vals:
                most = max(most, len(vals))
                px.append(number(xv) if numeric_x else xs.index(xv))
                py.append(mean(vals))
        ax.plot(px, py, marker="o", label=f"{hue} = {h}" if hue else y)
    if not numeric_x:
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels(xs, rotation=30, ha="right")
    elif len(xs) <= 16:
        ax.set_xticks([number(v) for v in xs])
        ax.set_xticklabels(xs)
    ax.set_xlabel(x)
    ax.set_ylabel(y + (f" (mean of up to {most} points)" if most > 1 else ""))
    ax.grid(True, alpha=0.3)
    if hue:
        ax.legend(fontsize=8)
    ax.set_title(f"{y} against {x}" + (f" by {hue}" if hue else ""))


def plot_heatmap(fig, ax, sw, x, x2, y):
    xs, ys = ordered(r[x] for r in sw.rows), ordered(r[x2] for r in sw.rows)
    grid = []
    for yv in ys:
        line = []
        for xv in xs:
            vals = [sw.value(r, y) for r in sw.rows if r[x] == xv and r[x2] == yv]
            line.append(mean(vals) if vals else float("nan"))
        grid.append(line)
    im = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
    fig.colorbar(im, ax=ax, label=y)
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels(xs)
    ax.set_yticks(range(len(ys)))
    ax.set_yticklabels(ys)
    ax.set_xlabel(x)
    ax.set_ylabel(x2)
    finite = [v for line in grid for v in line if not math.isnan(v)]
    mid = (min(finite) + max(finite)) / 2 if finite else 0
    for i, line in enumerate(grid):
        for j, v in enumerate(line):
            if not math.isnan(v):
                ax.text(j, i, f"{v:.3g}", ha="center", va="center", fontsize=8,
                        color="white" if v < mid else "black")
    ax.set_title(f"{y} over {x} x {x2}")


def stack_bars(ax, labels, parts, horizontal=False):
    """parts: [(name, colour, [value per label])], stacked."""
    acc = [0.0] * len(labels)
    pos = list(range(len(labels)))
    for name, colour, vals in parts:
        if horizontal:
            ax.barh(pos, vals, left=acc, color=colour, label=name)
        else:
            ax.bar(pos, vals, bottom=acc, color=colour, label=name)
        acc = [a + v for a, v in zip(acc, vals)]
    if horizontal:
        ax.set_yticks(pos)
        ax.set_yticklabels(labels)
        ax.invert_yaxis()
    else:
        ax.set_xticks(pos)
        ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)


def part_colour(part, k):
    return BUSY if part == "busy" else IDLE if part == "idle" else STALL_COLOURS[k % len(STALL_COLOURS)]


def plot_stalls(ax, sw, x, unit):
    """A unit's busy / stalled / idle cycles per value of x (mean over the other points)."""
    cols = sw.unit_parts(unit)
    xs = ordered(r[x] for r in sw.rows)
    parts = []
    for k, c in enumerate(cols):
        part = UNIT_CYCLES.match(c).group(2)
        vals = [mean([sw.value(r, c) for r in sw.rows if r[x] == xv]) for xv in xs]
        parts.append((part.replace("stalled.", "stalled: "), part_colour(part, k), vals))
    stack_bars(ax, [f"{x}={v}" for v in xs], parts)
    ax.set_ylabel(f"{unit} cycles")
    ax.set_title(f"{unit}: busy, idle and stalled cycles by {x}")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def point_labels(sw):
    g = sw.grouping()
    return [", ".join(f"{k.split('.')[-1]}={r[k]}" for k in g) or f"point {i}" for i, r in enumerate(sw.rows)]


def plot_stalls_per_point(ax, sw, unit):
    cols = sw.unit_parts(unit)
    parts = []
    for k, c in enumerate(cols):
        part = UNIT_CYCLES.match(c).group(2)
        vals = [sw.value(r, c) for r in sw.rows]
        parts.append((part.replace("stalled.", "stalled: "), part_colour(part, k), vals))
    stack_bars(ax, point_labels(sw), parts)
    ax.set_ylabel(f"{unit} cycles")
    ax.set_title(f"{unit}: busy, idle and stalled cycles per point")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def png_bytes(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def write_atomic(path, data):
    """Writes the file whole or not at all (a temporary file renamed into place)."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".vpsim-", dir=folder)
    except OSError as e:
        raise InputError(f"{path}: cannot write: {e.strerror}")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as e:
        os.unlink(tmp)
        raise InputError(f"{path}: cannot write: {e.strerror}")


# ----------------------------------------------------------------------------- plot command


def cmd_plot(a, base):
    if not os.path.isfile(os.path.join(a.dir, "results.csv")):
        raise InputError(f"{a.dir}: no results.csv (vpsim plot reads a sweep directory; "
                         "vpsim report also takes a single run's --out directory)")
    sw = Sweep(a.dir, base)
    sw.column(a.x, "axis", "--x")
    if a.hue:
        sw.column(a.hue, "axis", "--hue")
    if a.heatmap:
        sw.column(a.heatmap, "axis", "--heatmap")
    if a.heatmap and a.hue:
        raise InputError("--heatmap and --hue: a heatmap has no hue (give one of them)")
    if a.stalls and (a.heatmap or a.hue):
        raise InputError("--stalls: a stall breakdown takes neither --hue nor --heatmap")
    if not a.stalls:
        sw.column(a.y, "metric", "--y")
        if a.y not in sw.metrics and a.y not in sw.unit_cols:
            raise InputError(f"--y {a.y}: not a numeric metric column of {sw.path}; metrics: "
                             + ", ".join(sw.metrics + sw.unit_cols))
    if not a.out.lower().endswith(".png"):
        raise InputError(f"-o {a.out}: the plot is a PNG file (name it FILE.png)")
    fig, ax = plt.subplots(figsize=(8, 5))
    if a.stalls:
        plot_stalls(ax, sw, a.x, a.y)
    elif a.heatmap:
        plot_heatmap(fig, ax, sw, a.x, a.heatmap, a.y)
    else:
        plot_lines(ax, sw, a.x, a.y, a.hue)
    write_atomic(a.out, png_bytes(fig))


# ----------------------------------------------------------------------------- report command

CSS = """
body { font-family: sans-serif; margin: 24px; color: #212529; max-width: 1150px; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 28px; border-bottom: 1px solid #dee2e6; }
table { border-collapse: collapse; font-size: 12px; margin: 8px 0; }
th, td { border: 1px solid #dee2e6; padding: 3px 6px; text-align: right; }
th { background: #f1f3f5; } td.t, th.t { text-align: left; }
img.plot { max-width: 100%; display: block; margin: 8px 0; }
.note { color: #495057; font-size: 13px; }
"""


def img(png, alt):
    return (f'<img class="plot" alt="{html.escape(alt)}" '
            f'src="data:image/png;base64,{base64.b64encode(png).decode()}">')


def fmt_cell(text):
    v = number(text)
    if v is None:
        return html.escape(text), "t"
    if v == int(v) and abs(v) < 1e15:
        return f"{int(v):,}", ""
    return f"{v:.4g}", ""


def table(header, rows):
    out = ["<table><tr>" + "".join(f'<th class="t">{html.escape(h)}</th>' for h in header) + "</tr>"]
    for r in rows:
        cells = []
        for c in r:
            text, cls = fmt_cell(str(c))
            cells.append(f'<td class="{cls}">{text}</td>' if cls else f"<td>{text}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    return "\n".join(out) + "</table>"


def page(title, body):
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{CSS}</style></head><body>\n<h1>{html.escape(title)}</h1>\n{body}\n</body></html>\n")


def sweep_report(a, base):
    sw = Sweep(a.dir, base)
    main_metric = next((m for m in sw.study_metrics + ["cycles_per_vertex", "cycles"] if m in sw.metrics),
                       sw.metrics[0] if sw.metrics else None)
    plotted = ([main_metric] + [m for m in sw.study_metrics if m != main_metric][:2] if sw.study_metrics
               else [main_metric] + [m for m in ("alu_utilisation",) if m in sw.metrics and m != main_metric])
    if main_metric is None:
        raise InputError(f"{sw.path}: no numeric metric column to plot")
    axes = sw.varying_axes()
    body = [f'<p class="note">{len(sw.rows)} points from {html.escape(sw.path)}'
            + (f"; scenes: {html.escape(', '.join(sw.scenes))}" if sw.scenes else "")
            + (f"; axes: {html.escape(', '.join(axes))}" if axes else "; no parameter varies") + "</p>"]
    body.append("<h2>Plots</h2>")
    hue_default = "scene" if len(sw.scenes) > 1 else None
    for i, x in enumerate(axes):
        others = [o for o in axes if o != x]
        hue = others[0] if others else hue_default
        for metric in plotted:
            fig, ax = plt.subplots(figsize=(8, 4.5))
            plot_lines(ax, sw, x, metric, hue)
            body.append(img(png_bytes(fig), f"{metric} against {x}"))
    if len(axes) >= 2:
        fig, ax = plt.subplots(figsize=(8, 5))
        plot_heatmap(fig, ax, sw, axes[0], axes[1], main_metric)
        body.append(img(png_bytes(fig), f"{main_metric} heatmap"))
    # The stall breakdown of the units that stall most over the sweep.
    stalled = {u: sum(sw.value(r, c) for r in sw.rows for c in sw.unit_parts(u) if ".stalled." in c) for u in sw.units}
    for u in sorted(stalled, key=lambda k: -stalled[k])[:2]:
        if stalled[u] > 0:
            fig, ax = plt.subplots(figsize=(9, 4.5))
            plot_stalls_per_point(ax, sw, u)
            body.append(img(png_bytes(fig), f"{u} stall breakdown"))
    body.append("<h2>Each point's difference from the base</h2>")
    body.append(table(["point"] + (["scene"] if sw.scenes else []) + ["parameters that differ from the base"],
                      [[str(i)] + ([r["scene"]] if sw.scenes else []) + [", ".join(sw.diff(r)) or "(the base)"]
                       for i, r in enumerate(sw.rows)]))
    cols = (["scene"] if "scene" in sw.header else []) + sw.axes + sw.metrics
    body.append("<h2>Results</h2>")
    body.append(table(["point"] + cols, [[str(i)] + [r[c] for c in cols] for i, r in enumerate(sw.rows)]))
    if sw.unit_cols:
        body.append("<h2>Per-unit cycles</h2>")
        body.append(table(["point"] + sw.unit_cols, [[str(i)] + [r[c] for c in sw.unit_cols]
                                                     for i, r in enumerate(sw.rows)]))
    return page(f"vpsim sweep report: {os.path.basename(os.path.abspath(a.dir))}", "\n".join(body))


def run_report(a, base):
    stats_path = os.path.join(a.dir, "stats.json")
    st = read_json(stats_path)
    if not isinstance(st, dict) or st.get("schema") != "vpsim-stats-1" or not isinstance(st.get("units"), dict):
        raise InputError(f"{stats_path}: not a vpsim stats.json (schema vpsim-stats-1)")
    cycles = st.get("cycles") or 0
    summary = st.get("summary", {})
    body = []
    scene = summary.get("scene", "")
    body.append(f'<p class="note">Scene {html.escape(str(scene))}: {cycles:,} cycles; '
                f"{html.escape(str(summary.get('bottleneck', {}).get('text', '')))}</p>")
    # Per-unit busy / stalled / idle bars, as fractions of the run's cycles.
    units = [(u, g["cycles"]) for u, g in st["units"].items() if isinstance(g, dict) and g.get("cycles")]
    reasons = []
    for _, c in units:
        for r in c.get("stalled", {}):
            if r not in reasons:
                reasons.append(r)
    parts = [("busy", BUSY, [c["busy"] / cycles if cycles else 0 for _, c in units])]
    for k, r in enumerate(reasons):
        vals = [c.get("stalled", {}).get(r, {}).get("cycles", 0) / cycles if cycles else 0 for _, c in units]
        if any(vals):
            parts.append((f"stalled: {r}", STALL_COLOURS[k % len(STALL_COLOURS)], vals))
    parts.append(("idle", IDLE, [c["idle"] / cycles if cycles else 0 for _, c in units]))
    fig, ax = plt.subplots(figsize=(10, 0.45 * len(units) + 1.5))
    stack_bars(ax, [u for u, _ in units], parts, horizontal=True)
    ax.set_xlabel("fraction of the run's cycles")
    ax.set_xlim(0, 1)
    ax.set_title("Each unit's busy, stalled and idle cycles")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    body.append("<h2>Units</h2>")
    body.append(img(png_bytes(fig), "per-unit busy, stalled and idle cycles"))
    ts_path = os.path.join(a.dir, "timeseries.csv")
    if os.path.isfile(ts_path):
        header, rows = read_csv(ts_path)
        for c in ("interval_begin", "interval_end"):
            if c not in header:
                raise InputError(f"{ts_path}: no {c} column")
        if rows:
            def col(name):
                v = []
                for r in rows:
                    n = number(r[name])
                    if n is None:
                        raise InputError(f"{ts_path}: column {name} is not a number (\"{r[name]}\")")
                    v.append(n)
                return v
            t0, t1 = col("interval_begin"), col("interval_end")
            length = [max(e - b, 1) for b, e in zip(t0, t1)]
            mid = [(b + e) / 2 for b, e in zip(t0, t1)]
            ts_units = [c[:-5] for c in header if c.endswith(".busy")]
            fig, ax = plt.subplots(figsize=(10, 4.5))
            for u in ts_units:
                ax.plot(mid, [b / n for b, n in zip(col(u + ".busy"), length)], label=u)
            ax.set_ylim(-0.02, 1.02)
            ax.set_xlabel("cycle")
            ax.set_ylabel("busy fraction of the interval")
            ax.set_title(f"Utilisation over time ({int(length[0])}-cycle intervals)")
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
            body.append("<h2>Over time</h2>")
            body.append(img(png_bytes(fig), "utilisation over time"))
            stall_cols = [c for c in header if ".stalled." in c and any(number(r[c]) for r in rows)]
            if stall_cols:
                fig, ax = plt.subplots(figsize=(10, 4.5))
                for c in stall_cols:
                    ax.plot(mid, [v / n for v, n in zip(col(c), length)], label=c)
                ax.set_ylim(-0.02, 1.02)
                ax.set_xlabel("cycle")
                ax.set_ylabel("stalled fraction of the interval")
                ax.set_title("Stalls over time")
                ax.grid(True, alpha=0.3)
                ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
                body.append(img(png_bytes(fig), "stalls over time"))
            occ = [c for c in header if c.endswith(".occupancy")]
            if occ:
                fig, ax = plt.subplots(figsize=(10, 4.5))
                for c in occ:
                    ax.plot(mid, col(c), label=c[:-10])
                ax.set_xlabel("cycle")
                ax.set_ylabel("mean items in the channel")
                ax.set_title("Channel occupancy over time")
                ax.grid(True, alpha=0.3)
                ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
                body.append(img(png_bytes(fig), "channel occupancy over time"))
    else:
        body.append('<p class="note">No timeseries.csv: run with --stats-interval N for utilisation over time.</p>')
    body.append("<h2>Summary</h2>")
    rows = [[k, json.dumps(v) if isinstance(v, (dict, list)) else str(v)] for k, v in summary.items()
            if not isinstance(v, (dict, list))]
    body.append(table(["metric", "value"], rows))
    body.append("<h2>Per-unit cycles</h2>")
    trows = []
    for u, c in units:
        stalls = ", ".join(f"{r} {v['cycles']:,}" for r, v in c.get("stalled", {}).items() if v.get("cycles"))
        trows.append([u, str(c["busy"]), str(c["idle"]), str(c.get("stalled_total", 0)), stalls or "-"])
    body.append(table(["unit", "busy", "idle", "stalled", "stalled by reason"], trows))
    cfg_path = os.path.join(a.dir, "config.json")
    if os.path.isfile(cfg_path):
        cfg = read_json(cfg_path)
        params = flat_params(cfg.get("params"))
        diff = [[k, str(v), str(base[k])] for k, v in params.items()
                if k in base and not same_value(json.dumps(v) if not isinstance(v, str) else v, base[k])]
        body.append("<h2>Configuration: the parameters that differ from the defaults</h2>")
        if cfg.get("preset"):
            body.append(f'<p class="note">preset {html.escape(str(cfg["preset"]))}</p>')
        body.append(table(["parameter", "value", "default"], diff) if diff else '<p class="note">none</p>')
    return page(f"vpsim run report: {scene or os.path.basename(os.path.abspath(a.dir))}", "\n".join(body))


def cmd_report(a, base):
    if not os.path.isdir(a.dir):
        raise InputError(f"{a.dir}: no such directory")
    if not a.out.lower().endswith((".html", ".htm")):
        raise InputError(f"-o {a.out}: the report is an HTML file (name it FILE.html)")
    if os.path.isfile(os.path.join(a.dir, "results.csv")):
        text = sweep_report(a, base)
    elif os.path.isfile(os.path.join(a.dir, "stats.json")):
        text = run_report(a, base)
    else:
        raise InputError(f"{a.dir}: neither a sweep directory (results.csv) nor a run's --out directory (stats.json)")
    write_atomic(a.out, text.encode())


# ----------------------------------------------------------------------------- correlate command

OK_COLOUR, OUT_COLOUR = "#1864ab", "#e8590c"  # blue / orange: told apart with any colour vision


def cmd_correlate(a, _base):
    """`vpsim bench correlate --json` as a chart: each figure's error against the published value,
    its tolerance band, in bars coloured by whether the error is within it."""
    doc = read_json(a.figures)
    rows = doc.get("figures") if isinstance(doc, dict) else None
    if not isinstance(rows, list) or not rows:
        raise InputError(f"{a.figures}: no \"figures\" list (the output of vpsim bench correlate --json)")
    ext = os.path.splitext(a.out)[1].lower().lstrip(".")
    if ext not in ("png", "svg", "pdf"):
        raise InputError(f"-o {a.out}: the plot is written as .png, .svg or .pdf")
    labels, errors, tols, colours = [], [], [], []
    for k, r in enumerate(rows):
        try:
            labels.append(f"{r['preset']}  {r['figure']}")
            errors.append(100.0 * float(r["error"]))
            tols.append(100.0 * float(r["tolerance"]))
            colours.append(OK_COLOUR if r["within_tolerance"] else OUT_COLOUR)
        except (KeyError, TypeError, ValueError) as e:
            raise InputError(f"{a.figures}: /figures/{k}: {e}")
    n = len(rows)
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.3 * n))
    ys = list(range(n))
    ax.barh(ys, [2 * t for t in tols], left=[-t for t in tols], height=0.8, color="#e9ecef",
            label="tolerance (± of the published value)")
    ax.barh(ys, errors, height=0.5, color=colours)
    ax.scatter(errors, ys, s=14, color=colours, zorder=3)  # a 0 % error (an exact figure) shows too
    ax.axvline(0, color="#495057", linewidth=0.8)
    span = max([abs(e) for e in errors] + tols + [1.0]) * 1.15
    ax.set_xlim(-span, span)
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("model against published (%)")
    out = sum(1 for c in colours if c == OUT_COLOUR)
    ax.set_title(f"vpsim bench correlate: {n} published figures, {out} outside tolerance "
                 f"(blue within, orange outside)", fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    buf = io.BytesIO()
    fig.savefig(buf, format=ext, dpi=100, bbox_inches="tight")
    plt.close(fig)
    write_atomic(a.out, buf.getvalue())


class Parser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write(f"{PROG} {self.prog.split()[-1]}: {message}\n")
        sys.exit(2)


def main(argv):
    p = Parser(prog="vpsim_plot.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=Parser)
    pp = sub.add_parser("plot")
    pp.add_argument("dir")
    pp.add_argument("--x", required=True)
    pp.add_argument("--y", required=True)
    pp.add_argument("--hue")
    pp.add_argument("--heatmap")
    pp.add_argument("--stalls", action="store_true")
    pp.add_argument("-o", dest="out", required=True)
    pp.add_argument("--base")
    pr = sub.add_parser("report")
    pr.add_argument("dir")
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


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
