"""The plots: a metric against an axis (lines or bars, from zero), heatmaps, stall breakdowns, the
bottleneck's causes, and Figure, a sweep's panels; figures as PNG, SVG or PDF bytes, files written
atomically."""
import io
import math
import os
import tempfile

from .data import InputError, number, ordered
from .style import BUSY, CLASS_HATCH, CLASS_WORD, IDLE, MARKERS, PALETTE, STALL_COLOURS, UNIT_CYCLES, plt


# ----------------------------------------------------------------------------- plots


def mean(vs):
    return sum(vs) / len(vs)


def averaged_over(sw, rows, shown):
    """What points sharing every shown column differ in: "" when no two do, else e.g.
    "mean over vertex_alu.window (2, 4, 8)" or "mean over 3 scenes"."""
    # A zip is one axis: its members are shown with it, and averaged over together.
    shown_cols = set(shown) | {c for s in shown for c in sw.members(s)}
    factors = list(dict.fromkeys(sw.factor(c) for c in sw.axes))
    keys = [c for c in ["scene"] + factors + ["repeat"] if (c in sw.header or sw.is_zip(c)) and c not in shown_cols]
    groups = {}
    for r in rows:
        groups.setdefault(tuple(r[c] for c in shown), []).append(r)
    if all(len(g) == 1 for g in groups.values()):
        return ""
    varying = []
    for c in keys:
        vals = sw.ordered_values(rows, c)
        if len(vals) > 1:
            if sw.is_zip(c):
                varying.append(f"{c} ({'; '.join(vals[:6])}{'; ...' if len(vals) > 6 else ''})")
            elif c == "scene":
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


def categorical(sw, rows, x):
    """True when x is drawn as bars: a column whose values are not all numbers, scene/preset, or
    a zip whose first member is not a number that tells its steps apart."""
    if sw.is_zip(x):
        return sw.position(x, rows[0][x]) is None
    return x in ("scene", "preset") or not all(number(v) is not None for v in ordered(r[x] for r in rows))


def boxes_overlap(boxes, pad=1.0):
    """True when any two of the display-space boxes overlap (by more than pad pixels)."""
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if min(a.x1, b.x1) - max(a.x0, b.x0) > pad and min(a.y1, b.y1) - max(a.y0, b.y0) > pad:
                return True
    return False


def fit_ticklabels(ax):
    """Tick labels that do not overlap: the x labels level, else at 30 degrees, else upright;
    the y labels (horizontal bars) get smaller down to 7 points."""
    renderer = ax.figure.canvas.get_renderer()
    labels = [t for t in ax.get_xticklabels() if t.get_text()]
    for rotation, ha in ((0, "center"), (30, "right"), (90, "center")):
        for t in labels:
            t.set_rotation(rotation)
            t.set_ha(ha)
            t.set_rotation_mode("anchor" if rotation == 30 else "default")
        if not boxes_overlap([t.get_window_extent(renderer) for t in labels]):
            break
    labels = [t for t in ax.get_yticklabels() if t.get_text()]
    while labels and boxes_overlap([t.get_window_extent(renderer) for t in labels]) and labels[0].get_fontsize() > 7:
        for t in labels:
            t.set_fontsize(t.get_fontsize() - 0.5)


def draw_metric(ax, sw, rows, x, y, hue, zoom, title):
    """y against x in one panel: lines over a numeric x, grouped bars over a categorical one."""
    xs = sw.ordered_values(rows, x)
    numeric_x = not categorical(sw, rows, x)
    hues = sw.ordered_values(rows, hue) if hue else [None]
    allv = []
    width = 0.8 / max(1, len(hues))
    for k, h in enumerate(hues):
        px, py = [], []
        for i, xv in enumerate(xs):
            vals = [sw.value(r, y) for r in rows if r[x] == xv and (hue is None or r[hue] == h)]
            if vals:
                px.append(sw.position(x, xv) if numeric_x else i)
                py.append(mean(vals))
        allv += py
        label = (h if sw.is_zip(hue) else f"{hue.split('.')[-1]} = {h}") if hue else y
        colour, marker = PALETTE[k % len(PALETTE)], MARKERS[k % len(MARKERS)]
        if numeric_x:
            ax.plot(px, py, marker=marker, color=colour, label=label)
        else:
            ax.bar([p - 0.4 + width * (k + 0.5) for p in px], py, width=width * 0.95, color=colour, label=label,
                   edgecolor="white", linewidth=0.5)
    if not numeric_x:
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels([sw.tick(x, v) for v in xs], fontsize=8)
    elif len(xs) <= 16 or sw.is_zip(x):
        ax.set_xticks([sw.position(x, v) for v in xs])
        ax.set_xticklabels([sw.tick(x, v) for v in xs], fontsize=8)
    ax.set_xlabel(sw.axis_title(x))
    ax.set_ylabel(y)
    y_from_zero(ax, allv, zoom)
    ax.grid(True, axis="y", alpha=0.3)
    if hue and len(hues) > 1:
        if not numeric_x and not zoom:
            # Room above the bars for the legend's lines, so that it covers no bar.
            ax.set_ylim(top=ax.get_ylim()[1] * (1.12 + 0.09 * len(hues)))
        ax.legend(fontsize=7, loc="upper right" if not numeric_x else "best")
    ax.set_title(title, fontsize=9)
    return averaged_over(sw, rows, [c for c in (x, hue) if c])


def draw_heatmap(fig, ax, sw, rows, x, x2, y, title):
    xs, ys = sw.ordered_values(rows, x), sw.ordered_values(rows, x2)
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
    ax.set_xticklabels([sw.tick(x, v) for v in xs], fontsize=8)
    ax.set_yticks(range(len(ys)))
    ax.set_yticklabels([sw.tick(x2, v) for v in ys], fontsize=8)
    ax.set_xlabel(sw.axis_title(x))
    ax.set_ylabel(sw.axis_title(x2))
    finite = [v for line in grid for v in line if not math.isnan(v)]
    mid = (min(finite) + max(finite)) / 2 if finite else 0
    for i, line in enumerate(grid):
        for j, v in enumerate(line):
            if not math.isnan(v):
                ax.text(j, i, f"{v:.3g}", ha="center", va="center", fontsize=7,
                        color="white" if v < mid else "black")
    ax.set_title(title, fontsize=9)
    return averaged_over(sw, rows, [x, x2])


def stack_bars(ax, labels, parts, horizontal=False, fontsize=8):
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
        ax.set_yticklabels(labels, fontsize=fontsize)
        ax.invert_yaxis()
    else:
        ax.set_xticks(pos)
        ax.set_xticklabels(labels, fontsize=fontsize)


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
    return ", ".join(sw.label(k, r[k]) for k in g) or "the point"


def outside_legend(ax):
    """The legend beside the axes, outside the layout: the axes keep the figure's width and the
    saved image grows by the legend (bbox_inches="tight"), so the labels keep their room."""
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0)).set_in_layout(False)


def draw_stalls(ax, sw, rows, x, unit, colours, title):
    """A unit's busy / stalled / idle cycles per value of x (mean over the other points)."""
    cols = sw.unit_parts(unit)
    xs = sw.ordered_values(rows, x)
    parts = []
    for c in cols:
        part = UNIT_CYCLES.match(c).group(2)
        name, colour, hatch = colours.part(part, sw.stall_class(unit, part[8:]) if part.startswith("stalled.") else "")
        vals = [mean([sw.value(r, c) for r in rows if r[x] == xv]) for xv in xs]
        if any(vals):
            parts.append((name, colour, hatch, vals))
    stack_bars(ax, [sw.tick(x, v) if sw.is_zip(x) else sw.label(x, v) for v in xs], parts)
    if sw.is_zip(x):
        ax.set_xlabel(sw.axis_title(x))
    ax.set_ylabel(f"{unit} cycles")
    ax.set_ylim(bottom=0)
    ax.set_title(title, fontsize=9)
    outside_legend(ax)
    return averaged_over(sw, rows, [x])


def draw_causes(ax, sw, rows, colours, title):
    """Per point, the bottleneck's cause unit (where the chain of back-pressure and starvation
    ends): its busy, stalled-by-reason and idle fractions of the run, the bar named unit: reason."""
    labels, per_part, legend_parts = [], {}, {}
    order = []
    for i, r in enumerate(rows):
        unit, reason, _, _ = sw.cause(r)
        labels.append(point_label(sw, r) + f"\n→ {unit}: {reason}")
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
    # Horizontal bars: a label per point reads level however many points there are.
    stack_bars(ax, labels, parts, horizontal=True)
    ax.set_xlim(0, 1.0)
    ax.set_xlabel("fraction of the run's cycles")
    ax.set_title(title, fontsize=9)
    outside_legend(ax)


def fig_bytes(fig, fmt):
    buf = io.BytesIO()
    # Legends kept out of the layout (outside_legend) are still in the saved image.
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    fig.savefig(buf, format=fmt, dpi=100, bbox_inches="tight", bbox_extra_artists=legends,
                metadata={"Date": None} if fmt == "svg" else None)
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
            bars = any(categorical(sw, rows, kw["x"]) for _, rows in self.panels)
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
        ncols = 1 if self.kind == "causes" else min(n, 3)
        prow = (n + ncols - 1) // ncols
        nrows = prow * len(self.rows_of)
        wide, high = self.panel_size(max(range(n), key=lambda p: len(self.panels[p][1])))
        fig, axes = plt.subplots(nrows, ncols, figsize=(wide * ncols, high * nrows), squeeze=False)
        for m, metric in enumerate(self.rows_of):
            for p in range(n):
                self.draw(fig, axes[m * prow + p // ncols][p % ncols], p, metric)
            for p in range(n, prow * ncols):
                axes[m * prow + p // ncols][p % ncols].set_visible(False)
        fig.suptitle(self.title(), fontsize=10)
        fig.tight_layout()
        for ax in fig.axes:
            fit_ticklabels(ax)
        fig.tight_layout()
        return fig

    def panel_size(self, panel):
        """A panel's size in inches: a cause chart tall enough for a level label per point."""
        if self.kind == "causes":
            return 7.0, 1.3 + 0.42 * len(self.panels[panel][1])
        return (4.4 if self.kind == "stalls" else 4.6), 3.5

    def separate(self):
        """[(panel title, metric, figure)]: one figure per panel (the report's small multiples)."""
        out = []
        for metric in self.rows_of:
            for p, (title, _) in enumerate(self.panels):
                fig, ax = plt.subplots(figsize=self.panel_size(p))
                self.draw(fig, ax, p, metric)
                fig.tight_layout()
                fit_ticklabels(ax)
                fig.tight_layout()
                out.append((title, metric, fig))
        return out
