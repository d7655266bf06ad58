"""The input of the plots and reports: results.csv, the JSON files, --where filters and a sweep's
points grouped into panels (Sweep). Bad input raises InputError naming the file, column or option."""
import csv
import json
import math
import os
import re

from .style import CLASS_WORD, UNIT_CYCLES


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
