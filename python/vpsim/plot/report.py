"""`vpsim report`: a self-contained HTML page (plots embedded as SVG) of a sweep directory or of a
`vpsim run --out` directory (docs/report.md)."""
import base64
import html
import json
import os

from .data import InputError, Sweep, flat_params, number, parse_where, read_csv, read_json, same_value
from .drawing import Colours, Figure, fig_bytes, point_label, stack_bars, write_atomic
from .style import BUSY, CLASS_WORD, IDLE, plt

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
    # A cause chart (a level label per point) gets a row of its own, a stall breakdown (its legend
    # beside it) half a row, so that their text is drawn near its natural size.
    per_row = min({"causes": 1, "stalls": 2}.get(f.kind, 3), len(f.panels))
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
            + "".join(f"; {html.escape(z)} zipped (vary together, one axis"
                      + (", as study.json records" if sw.design == "study.json" else
                         ": no study.json records the design, and their values go together in every point")
                      + ")" for z in axes if sw.is_zip(z))
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
