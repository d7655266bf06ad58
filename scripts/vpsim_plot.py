#!/usr/bin/python3
"""vpsim's plots and HTML reports (docs/report.md), run by `vpsim plot` and `vpsim report`.

  vpsim_plot.py plot DIR --x AXIS --y METRIC [--hue AXIS] [--heatmap AXIS2] [--stalls]
                [--where KEY=VALUE]... [--facet scene|none] [--zoom] -o FILE.png|.svg|.pdf
  vpsim_plot.py report DIR [--where KEY=VALUE]... -o FILE.html
  vpsim_plot.py correlate FIGURES.json -o FILE.png|.svg|.pdf   (`vpsim bench correlate --plot`)
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
    matplotlib.rcParams["svg.fonttype"] = "none"  # SVG text stays text (searchable, smaller)
    matplotlib.rcParams["svg.hashsalt"] = "vpsim"  # reproducible SVG ids
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    from cycler import cycler
except ImportError as missing:
    sys.stderr.write(f"vpsim: the plots need matplotlib ({missing}); install Debian's python3-matplotlib "
                     "(scripts/deps.sh python3-matplotlib) and run with /usr/bin/python3\n")
    sys.exit(2)

PROG = "vpsim"
UNIT_CYCLES = re.compile(r"^([A-Za-z0-9_]+)\.(busy|idle|stalled\.[A-Za-z0-9_]+)$")
# Okabe & Ito's palette (colour-blind safe) for lines and bars, each with its own marker too.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#F0E442"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
# Cycle breakdowns: busy is blue, idle light grey, every stall reason a warm colour, hatched by
# its class, so busy and stalled differ in hue, lightness and texture.
BUSY, IDLE = "#0072B2", "#DDDDDD"
STALL_COLOURS = ["#D55E00", "#E69F00", "#CC79A7", "#F0E442", "#882255", "#DDCC77", "#AA4499", "#661100",
                 "#EE7733", "#999933", "#CC6677", "#EE3377"]
CLASS_HATCH = {"local": "", "back_pressure": "///", "starvation": "...", "": "xx"}
CLASS_WORD = {"local": "local", "back_pressure": "back-pressure", "starvation": "starvation", "": "class unknown"}
FORMATS = ("png", "svg", "pdf")
# Any other line plot (the time series) cycles through the palette, then the same with dashes.
matplotlib.rcParams["axes.prop_cycle"] = cycler(linestyle=["-", "--"]) * cycler(color=PALETTE)


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


def parse_where(items):
    """--where KEY=VALUE, repeatable: [(key, value)]."""
    out = []
    for w in items or []:
        if "=" not in w or w.startswith("="):
            raise InputError(f"--where {w}: expected KEY=VALUE (a column of results.csv and the value to keep)")
        k, v = w.split("=", 1)
        out.append((k, v))
    return out


class Sweep:
    """A sweep directory's results.csv (docs/report.md, "results.csv"), filtered by --where."""

    def __init__(self, directory, base, where=()):
        self.dir = directory
        self.path = os.path.join(directory, "results.csv")
        self.header, self.rows = read_csv(self.path)
        if not self.rows:
            raise InputError(f"{self.path}: no points (only a header)")
        self.base = base
        self.where = list(where)
        for k, v in self.where:
            if k not in self.header:
                raise InputError(f"--where {k}={v}: {self.path} has no column {k}; its columns: " + ", ".join(self.header))
            keep = [r for r in self.rows if same_value(r[k], v) or (k == "scene" and os.path.basename(r[k]) == v)]
            if not keep:
                raise InputError(f"--where {k}={v}: no point of {self.path} has it; its values: "
                                 + ", ".join(ordered(r[k] for r in self.rows)))
            self.rows = keep
        self.axes = [c for c in self.header if c in base or c == "preset"]
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
        self._point_stats = {}

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
        return [f"{a}={row[a]}" for a in self.axes if a in self.base and not same_value(row[a], self.base[a])]

    def point_stats(self, row):
        """The point's stats.json (DIR/points/<point>/stats.json) when the sweep kept it, else None."""
        h = row.get("point", "")
        if not re.fullmatch(r"[0-9a-f]{16}", h or ""):
            return None
        if h not in self._point_stats:
            path = os.path.join(self.dir, "points", h, "stats.json")
            self._point_stats[h] = read_json(path) if os.path.isfile(path) else None
        return self._point_stats[h]

    def stall_class(self, unit, reason):
        """A stall reason's class (local, back_pressure, starvation) from a point's stats.json."""
        for r in self.rows:
            st = self.point_stats(r)
            if st:
                info = st.get("units", {}).get(unit, {}).get("cycles", {}).get("stalled", {}).get(reason, {})
                return info.get("class", "")
        return ""

    def cause(self, row):
        """The bottleneck's cause of a point: (unit, reason, sentence, chain text)."""
        unit, reason = row.get("bottleneck.unit", ""), row.get("bottleneck.reason", "")
        text = row.get("bottleneck.text", "")
        chain = ""
        st = self.point_stats(row)
        if st:
            b = st.get("summary", {}).get("bottleneck", {})
            unit, reason, text = b.get("unit", unit), b.get("reason", reason), b.get("text", text)
            steps = []
            for c in b.get("chain", []):
                by = f" by {c['by']}" if c.get("by") else ""
                steps.append(f"{c.get('unit')}: {c.get('reason')} ({CLASS_WORD.get(c.get('class', ''), c.get('class'))}{by})")
            chain = " → ".join(steps)
        return unit, reason, text, chain

    def panels(self, facet):
        """[(title, rows)]: one per scene (facet "scene"), or one of every row ("none")."""
        if facet == "scene" and len(self.scenes) > 1:
            return [(f"scene: {s}", [r for r in self.rows if r.get("scene") == s]) for s in self.scenes]
        only = f"scene: {self.scenes[0]}" if len(self.scenes) == 1 else (
            f"all {len(self.scenes)} scenes" if self.scenes else "")
        return [(only, self.rows)]

    def where_text(self):
        return ("; where " + ", ".join(f"{k}={v}" for k, v in self.where)) if self.where else ""


# ----------------------------------------------------------------------------- plots


def mean(vs):
    return sum(vs) / len(vs)


def averaged_over(sw, rows, shown):
    """What points sharing every shown column differ in: "" when no two do, else e.g.
    "mean over vertex_alu.window (2, 4, 8)" or "mean over 3 scenes"."""
    keys = [c for c in ["scene"] + sw.axes + ["repeat"] if c in sw.header and c not in shown]
    groups = {}
    for r in rows:
        groups.setdefault(tuple(r[c] for c in shown), []).append(r)
    if all(len(g) == 1 for g in groups.values()):
        return ""
    varying = []
    for c in keys:
        vals = ordered(r[c] for r in rows)
        if len(vals) > 1:
            if c == "scene":
                varying.append(f"{len(vals)} scenes")
            elif c == "repeat":
                varying.append(f"{len(vals)} repeats")
            else:
                varying.append(f"{c} ({', '.join(vals[:6])}{', ...' if len(vals) > 6 else ''})")
    most = max(len(g) for g in groups.values())
    return f"mean of up to {most} points over " + (" and ".join(varying) if varying else "identical points")


def y_from_zero(ax, values, zoom):
    """A y axis from zero, or (zoom) from near the data with the break marked on the axis."""
    finite = [v for v in values if v is not None and not math.isnan(v)]
    if not finite:
        return
    lo, hi = min(finite), max(finite)
    if not zoom or lo <= 0:
        if lo >= 0:
            ax.set_ylim(0, hi * 1.08 if hi > 0 else 1)
        return
    pad = (hi - lo) * 0.15 or abs(hi) * 0.05 or 1
    bottom = max(0.0, lo - pad)
    ax.set_ylim(bottom, hi + pad)
    if bottom > 0:
        # Two short slanted strokes across the y axis near its foot: the axis is broken.
        kw = dict(transform=ax.transAxes, color="k", clip_on=False, linewidth=1)
        for dy in (0.0, 0.025):
            ax.plot((-0.02, 0.02), (0.02 + dy, 0.045 + dy), **kw)
        ax.set_ylabel(ax.get_ylabel() + f"\n(axis broken: starts at {bottom:.4g}, not 0)")


def categorical(rows, x):
    """True when x is drawn as bars: a column whose values are not all numbers, or scene/preset."""
    return x in ("scene", "preset") or not all(number(v) is not None for v in ordered(r[x] for r in rows))


def draw_metric(ax, sw, rows, x, y, hue, zoom, title):
    """y against x in one panel: lines over a numeric x, grouped bars over a categorical one."""
    xs = ordered(r[x] for r in rows)
    numeric_x = not categorical(rows, x)
    hues = ordered(r[hue] for r in rows) if hue else [None]
    allv = []
    width = 0.8 / max(1, len(hues))
    for k, h in enumerate(hues):
        px, py = [], []
        for i, xv in enumerate(xs):
            vals = [sw.value(r, y) for r in rows if r[x] == xv and (hue is None or r[hue] == h)]
            if vals:
                px.append(number(xv) if numeric_x else i)
                py.append(mean(vals))
        allv += py
        label = f"{hue.split('.')[-1]} = {h}" if hue else y
        colour, marker = PALETTE[k % len(PALETTE)], MARKERS[k % len(MARKERS)]
        if numeric_x:
            ax.plot(px, py, marker=marker, color=colour, label=label)
        else:
            ax.bar([p - 0.4 + width * (k + 0.5) for p in px], py, width=width * 0.95, color=colour, label=label,
                   edgecolor="white", linewidth=0.5)
    if not numeric_x:
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels(xs, rotation=20 if len(xs) > 3 else 0, ha="right" if len(xs) > 3 else "center", fontsize=8)
    elif len(xs) <= 16:
        ax.set_xticks([number(v) for v in xs])
        ax.set_xticklabels(xs, fontsize=8)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    y_from_zero(ax, allv, zoom)
    ax.grid(True, axis="y", alpha=0.3)
    if hue and len(hues) > 1:
        ax.legend(fontsize=7)
    ax.set_title(title, fontsize=9)
    return averaged_over(sw, rows, [c for c in (x, hue) if c])


def draw_heatmap(fig, ax, sw, rows, x, x2, y, title):
    xs, ys = ordered(r[x] for r in rows), ordered(r[x2] for r in rows)
    grid = []
    for yv in ys:
        line = []
        for xv in xs:
            vals = [sw.value(r, y) for r in rows if r[x] == xv and r[x2] == yv]
            line.append(mean(vals) if vals else float("nan"))
        grid.append(line)
    im = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
    fig.colorbar(im, ax=ax, label=y)
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels(xs, fontsize=8)
    ax.set_yticks(range(len(ys)))
    ax.set_yticklabels(ys, fontsize=8)
    ax.set_xlabel(x)
    ax.set_ylabel(x2)
    finite = [v for line in grid for v in line if not math.isnan(v)]
    mid = (min(finite) + max(finite)) / 2 if finite else 0
    for i, line in enumerate(grid):
        for j, v in enumerate(line):
            if not math.isnan(v):
                ax.text(j, i, f"{v:.3g}", ha="center", va="center", fontsize=7,
                        color="white" if v < mid else "black")
    ax.set_title(title, fontsize=9)
    return averaged_over(sw, rows, [x, x2])


def stack_bars(ax, labels, parts, horizontal=False):
    """parts: [(name, colour, hatch, [value per label])], stacked."""
    acc = [0.0] * len(labels)
    pos = list(range(len(labels)))
    for name, colour, hatch, vals in parts:
        kw = dict(color=colour, label=name, hatch=hatch or None, edgecolor="#333333" if hatch else colour,
                  linewidth=0.3)
        if horizontal:
            ax.barh(pos, vals, left=acc, **kw)
        else:
            ax.bar(pos, vals, bottom=acc, **kw)
        acc = [a + v for a, v in zip(acc, vals)]
    if horizontal:
        ax.set_yticks(pos)
        ax.set_yticklabels(labels)
        ax.invert_yaxis()
    else:
        ax.set_xticks(pos)
        ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=7)


class Colours:
    """A stall reason keeps its colour across every panel of a report."""

    def __init__(self):
        self.seen = {}

    def part(self, part, cls=""):
        if part == "busy":
            return "busy", BUSY, ""
        if part == "idle":
            return "idle", IDLE, ""
        reason = part.replace("stalled.", "")
        k = self.seen.setdefault(reason, len(self.seen))
        return (f"stalled ({CLASS_WORD.get(cls, cls)}): {reason}", STALL_COLOURS[k % len(STALL_COLOURS)],
                CLASS_HATCH.get(cls, "xx"))


def point_label(sw, r, skip=("scene",)):
    g = [k for k in sw.grouping() if k not in skip]
    return ", ".join(f"{k.split('.')[-1]}={r[k]}" for k in g) or "the point"


def draw_stalls(ax, sw, rows, x, unit, colours, title):
    """A unit's busy / stalled / idle cycles per value of x (mean over the other points)."""
    cols = sw.unit_parts(unit)
    xs = ordered(r[x] for r in rows)
    parts = []
    for c in cols:
        part = UNIT_CYCLES.match(c).group(2)
        name, colour, hatch = colours.part(part, sw.stall_class(unit, part[8:]) if part.startswith("stalled.") else "")
        vals = [mean([sw.value(r, c) for r in rows if r[x] == xv]) for xv in xs]
        if any(vals):
            parts.append((name, colour, hatch, vals))
    stack_bars(ax, [f"{x.split('.')[-1]}={v}" for v in xs], parts)
    ax.set_ylabel(f"{unit} cycles")
    ax.set_ylim(bottom=0)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return averaged_over(sw, rows, [x])


def draw_causes(ax, sw, rows, colours, title):
    """Per point, the bottleneck's cause unit (where the chain of back-pressure and starvation
    ends): its busy, stalled-by-reason and idle fractions of the run, the bar named unit: reason."""
    labels, per_part, legend_parts = [], {}, {}
    order = []
    for i, r in enumerate(rows):
        unit, reason, _, _ = sw.cause(r)
        labels.append(point_label(sw, r) + f"\n{unit}: {reason}")
        total = sw.value(r, "cycles") if "cycles" in sw.header else None
        if not unit or unit not in sw.units or not total:
            continue
        for c in sw.unit_parts(unit):
            part = UNIT_CYCLES.match(c).group(2)
            key = (part if part in ("busy", "idle") else part)
            cls = sw.stall_class(unit, part[8:]) if part.startswith("stalled.") else ""
            legend_parts[key] = colours.part(part, cls)
            if key not in per_part:
                per_part[key] = [0.0] * len(rows)
                order.append(key)
            per_part[key][i] += sw.value(r, c) / total
    # busy first, idle last, the stalls between
    keys = [k for k in order if k == "busy"] + [k for k in order if k not in ("busy", "idle")] + \
           [k for k in order if k == "idle"]
    parts = [legend_parts[k] + (per_part[k],) for k in keys if any(per_part[k])]
    stack_bars(ax, labels, parts)
    ax.set_ylim(0, 1.0)
    ax.set_ylabel("fraction of the run's cycles")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def fig_bytes(fig, fmt):
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=100, bbox_inches="tight", metadata={"Date": None} if fmt == "svg" else None)
    plt.close(fig)
    return buf.getvalue()


def png_bytes(fig):
    return fig_bytes(fig, "png")


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


def needs_total(sw, rows, y):
    """A per-vertex metric hides how much work changed when the shaded count does: then total
    cycles go beside it."""
    return ("per_vertex" in y and "cycles" in sw.metrics and y != "cycles" and "shaded" in sw.header
            and len(set(r["shaded"] for r in rows)) > 1)


class Figure:
    """One figure: a row of panels per drawn metric, a panel per scene (small multiples)."""

    def __init__(self, sw, kind, facet, **kw):
        self.sw, self.kind, self.facet, self.kw = sw, kind, facet, kw
        self.panels = sw.panels(facet)
        self.rows_of = [kw["y"]] if kind == "metric" else [kind]
        if kind == "metric" and any(needs_total(sw, rows, kw["y"]) for _, rows in self.panels):
            self.rows_of.append("cycles")
        self.colours = Colours()
        self.notes = []

    def title(self):
        kw, sw = self.kw, self.sw
        if self.kind == "metric":
            # The heading names the marks the chart draws: lines over a numeric axis, bars over a
            # categorical one (categorical() decides both).
            bars = any(categorical(rows, kw["x"]) for _, rows in self.panels)
            t = f"{kw['y']} against {kw['x']}"
            if kw.get("hue"):
                t += f", one bar per {kw['hue']} at each {kw['x']}" if bars else f", one line per {kw['hue']}"
            if len(self.rows_of) > 1:
                t += "; total cycles beside it (the shaded count changes)"
        elif self.kind == "heatmap":
            t = f"{kw['y']} over {kw['x']} x {kw['x2']}"
        elif self.kind == "stalls":
            t = f"{kw['unit']}: busy, stalled and idle cycles by {kw['x']}"
        else:
            t = "The bottleneck's cause per point: its unit's busy, stalled and idle cycles"
        if len(self.panels) > 1:
            t += "; one panel per scene"
        notes = sorted(set(n for n in self.notes if n))
        if notes:
            t += "; " + "; ".join(notes)
        return t + sw.where_text()

    def draw(self, fig, ax, panel, metric):
        title, rows = self.panels[panel]
        kw, sw = self.kw, self.sw
        if self.kind == "metric":
            self.notes.append(draw_metric(ax, sw, rows, kw["x"], metric, kw.get("hue"), kw.get("zoom"), title))
        elif self.kind == "heatmap":
            self.notes.append(draw_heatmap(fig, ax, sw, rows, kw["x"], kw["x2"], kw["y"], title))
        elif self.kind == "stalls":
            self.notes.append(draw_stalls(ax, sw, rows, kw["x"], kw["unit"], self.colours, title))
        else:
            draw_causes(ax, sw, rows, self.colours, title)

    def single(self):
        """Every panel in one matplotlib figure (vpsim plot)."""
        n = len(self.panels)
        ncols = min(n, 3)
        prow = (n + ncols - 1) // ncols
        nrows = prow * len(self.rows_of)
        wide = 6.5 if self.kind in ("stalls", "causes") else 5.0
        fig, axes = plt.subplots(nrows, ncols, figsize=(wide * ncols, 3.8 * nrows), squeeze=False)
        for m, metric in enumerate(self.rows_of):
            for p in range(n):
                self.draw(fig, axes[m * prow + p // ncols][p % ncols], p, metric)
            for p in range(n, prow * ncols):
                axes[m * prow + p // ncols][p % ncols].set_visible(False)
        fig.suptitle(self.title(), fontsize=10)
        fig.tight_layout()
        return fig

    def separate(self):
        """[(panel title, metric, figure)]: one figure per panel (the report's small multiples)."""
        out = []
        for metric in self.rows_of:
            for p, (title, _) in enumerate(self.panels):
                wide = 6.0 if self.kind in ("stalls", "causes") else 4.6
                fig, ax = plt.subplots(figsize=(wide, 3.5))
                self.draw(fig, ax, p, metric)
                fig.tight_layout()
                out.append((title, metric, fig))
        return out


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


# ----------------------------------------------------------------------------- report command

CSS = """
body { font-family: sans-serif; margin: 24px; color: #212529; max-width: 1150px; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 28px; border-bottom: 1px solid #dee2e6; }
table { border-collapse: collapse; font-size: 12px; margin: 8px 0; }
th, td { border: 1px solid #dee2e6; padding: 3px 6px; text-align: right; }
th { background: #f1f3f5; } td.t, th.t { text-align: left; }
img.plot { max-width: 100%; display: block; margin: 8px 0; }
h3 { font-size: 14px; margin: 18px 0 4px 0; font-weight: normal; }
.panels { display: flex; flex-wrap: wrap; gap: 4px; align-items: flex-start; }
img.panel { display: block; }
.note { color: #495057; font-size: 13px; }
"""


def img(fig, alt):
    """A figure as an embedded SVG image."""
    return (f'<img class="plot" alt="{html.escape(alt)}" '
            f'src="data:image/svg+xml;base64,{base64.b64encode(fig_bytes(fig, "svg")).decode()}">')


def panels_html(f):
    """A Figure's small multiples: a heading that states the panels and any averaging, then one
    embedded SVG per panel (data-panel: the scene), rows of up to three."""
    figs = f.separate()
    per_row = min(3, len(f.panels))
    width = min(1140 // per_row - 6, 760) if f.kind not in ("stalls", "causes") or per_row > 1 else 900
    out = [f'<div class="figure" data-kind="{f.kind}" data-panels="{len(f.panels)}">',
           f"<h3>{html.escape(f.title())}</h3>", '<div class="panels">']
    for title, metric, fig in figs:
        data = base64.b64encode(fig_bytes(fig, "svg")).decode()
        scene = title[len("scene: "):] if title.startswith("scene: ") else title
        out.append(f'<img class="panel" data-panel="{html.escape(scene)}" data-metric="{html.escape(metric)}" '
                   f'style="width:{width}px" alt="{html.escape(metric + " " + title)}" '
                   f'src="data:image/svg+xml;base64,{data}">')
    out.append("</div></div>")
    return "\n".join(out)


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
    sw = Sweep(a.dir, base, parse_where(a.where))
    main_metric = next((m for m in sw.study_metrics + ["cycles_per_vertex", "cycles"] if m in sw.metrics),
                       sw.metrics[0] if sw.metrics else None)
    if main_metric is None:
        raise InputError(f"{sw.path}: no numeric metric column to plot")
    plotted = ([main_metric] + [m for m in sw.study_metrics if m != main_metric][:2] if sw.study_metrics
               else [main_metric] + [m for m in ("alu_utilisation",) if m in sw.metrics and m != main_metric])
    axes = sw.varying_axes()
    body = [f'<p class="note">{len(sw.rows)} points from {html.escape(sw.path)}'
            + (f"; scenes: {html.escape(', '.join(sw.scenes))}" if sw.scenes else "")
            + (f"; axes: {html.escape(', '.join(axes))}" if axes else "; no parameter varies")
            + html.escape(sw.where_text()) + ". Each scene has its own panel; a panel that averages points says "
            "over what in its heading; y axes start at zero.</p>"]
    body.append("<h2>Plots</h2>")
    for x in axes:
        others = [o for o in axes if o != x]
        hue = others[0] if others else None
        for metric in plotted:
            body.append(panels_html(Figure(sw, "metric", "scene", x=x, y=metric, hue=hue, zoom=False)))
    if not axes and len(sw.scenes) > 1 and "scene" in sw.header:
        body.append(panels_html(Figure(sw, "metric", "none", x="scene", y=main_metric, hue=None, zoom=False)))
    if len(axes) >= 2:
        body.append(panels_html(Figure(sw, "heatmap", "scene", x=axes[0], x2=axes[1], y=main_metric)))
    # The bottleneck's cause per point: the unit where the chain of back-pressure and starvation
    # ends, with the chain followed to it.
    if "bottleneck.unit" in sw.header and "cycles" in sw.header:
        body.append("<h2>The bottleneck's cause</h2>")
        body.append(panels_html(Figure(sw, "causes", "scene")))
        crow = []
        for i, r in enumerate(sw.rows):
            unit, reason, text, chain = sw.cause(r)
            crow.append([str(i)] + ([r["scene"]] if sw.scenes else []) + [point_label(sw, r), f"{unit}: {reason}",
                                                                          chain or text])
        body.append(table(["point"] + (["scene"] if sw.scenes else []) + ["parameters", "cause",
                                                                          "chain followed (or the sentence)"], crow))
    # The breakdown of the units that stall most over the sweep (victims as well as causes).
    stalled = {u: sum(sw.value(r, c) for r in sw.rows for c in sw.unit_parts(u) if ".stalled." in c) for u in sw.units}
    top = [u for u in sorted(stalled, key=lambda k: -stalled[k])[:2] if stalled[u] > 0]
    if top and axes:
        body.append("<h2>The units that stall most</h2>")
        for u in top:
            body.append(panels_html(Figure(sw, "stalls", "scene", x=axes[0], unit=u)))
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
    chain = summary.get("bottleneck", {}).get("chain", [])
    if chain:
        body.append("<h2>The bottleneck traced to its cause</h2>")
        body.append(table(["step", "unit", "reason", "class", "by", "cycles"],
                          [[str(i + 1), c.get("unit", ""), c.get("reason", ""),
                            CLASS_WORD.get(c.get("class", ""), c.get("class", "")), c.get("by", "-"),
                            str(c.get("cycles", ""))] for i, c in enumerate(chain)]))
    # Per-unit busy / stalled / idle bars, as fractions of the run's cycles.
    units = [(u, g["cycles"]) for u, g in st["units"].items() if isinstance(g, dict) and g.get("cycles")]
    reasons = []
    for _, c in units:
        for r, info in c.get("stalled", {}).items():
            if (r, info.get("class", "")) not in reasons:
                reasons.append((r, info.get("class", "")))
    colours = Colours()
    parts = [("busy", BUSY, "", [c["busy"] / cycles if cycles else 0 for _, c in units])]
    for r, cls in reasons:
        vals = [c.get("stalled", {}).get(r, {}).get("cycles", 0) / cycles if cycles else 0 for _, c in units]
        if any(vals):
            parts.append(colours.part("stalled." + r, cls) + (vals,))
    parts.append(("idle", IDLE, "", [c["idle"] / cycles if cycles else 0 for _, c in units]))
    fig, ax = plt.subplots(figsize=(10, 0.45 * len(units) + 1.5))
    stack_bars(ax, [u for u, _ in units], parts, horizontal=True)
    ax.set_xlabel("fraction of the run's cycles")
    ax.set_xlim(0, 1)
    ax.set_title("Each unit's busy, stalled and idle cycles")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    body.append("<h2>Units</h2>")
    body.append(img(fig, "per-unit busy, stalled and idle cycles"))
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
            body.append(img(fig, "utilisation over time"))
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
                body.append(img(fig, "stalls over time"))
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
                body.append(img(fig, "channel occupancy over time"))
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
    if a.where and not os.path.isfile(os.path.join(a.dir, "results.csv")):
        raise InputError(f"--where: {a.dir} is not a sweep directory (no results.csv); a run has one point")
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
    p = Parser(prog="vpsim_plot.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
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


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
