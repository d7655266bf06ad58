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


def together(rows, a, b):
    """True when columns a and b both vary and each one's value determines the other's in every
    row (as a zip's members do; two axes of a full product never do)."""
    ab, ba = {}, {}
    for r in rows:
        if ab.setdefault(r[a], r[b]) != r[b] or ba.setdefault(r[b], r[a]) != r[a]:
            return False
    return len(ab) > 1


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
        all_rows = self.rows
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
        self.read_design(all_rows)
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

    def read_design(self, all_rows):
        """The study's design: which axes are zipped (vary together) and which are independent.
        From the sweep's study.json ("axes": [{"keys": [...]}, ...], a group of several keys a
        zip; also a study file's {"zip": [{"key": ...}, ...]}); without one, axes whose values
        determine each other in every point are taken as zipped (a full product never does).
        self.groups: the axis columns in groups, design order; self.zips: {name: members} for each
        group of which two or more members vary in the points kept, its name "a & b", each row
        given the group's value under that name ("engines=1, contexts=6")."""
        groups, self.design = None, "none"
        study = os.path.join(self.dir, "study.json")
        doc = read_json(study) if os.path.isfile(study) else None
        if isinstance(doc, dict) and isinstance(doc.get("axes"), list):
            groups = []
            for a in doc["axes"]:
                keys = a.get("keys") if isinstance(a, dict) else None
                if keys is None and isinstance(a, dict) and isinstance(a.get("zip"), list):
                    keys = [z.get("key") for z in a["zip"] if isinstance(z, dict)]
                if keys is None and isinstance(a, dict):
                    keys = [a.get("key")]
                members = [k for k in (keys or []) if k in self.axes]
                if members:
                    groups.append(members)
            self.design = "study.json"
        if groups is None:
            groups = []
            for c in self.axes:
                g = next((g for g in groups if together(all_rows, g[0], c)), None)
                if g is None:
                    groups.append([c])
                else:
                    g.append(c)
            if any(len(g) > 1 for g in groups):
                self.design = "inferred"
        grouped = [c for g in groups for c in g]
        self.groups = groups + [[c] for c in self.axes if c not in grouped]
        self.zips, self.zip_of, self.zip_pos = {}, {}, {}
        for g in self.groups:
            members = [c for c in g if len(set(r[c] for r in self.rows)) > 1]
            if len(members) < 2:
                continue
            name = " & ".join(members)
            self.zips[name] = members
            for c in g:
                self.zip_of[c] = name
            for r in self.rows:
                r[name] = ", ".join(f"{c.split('.')[-1]}={r[c]}" for c in members)
            # x at the first member's value when every member is a number and the first tells
            # the steps apart (a line), else the steps in the design's order (bars).
            steps = list(dict.fromkeys(r[name] for r in self.rows))
            lead = {}
            for r in self.rows:
                lead.setdefault(r[name], number(r[members[0]]))
            numeric = all(number(r[c]) is not None for r in self.rows for c in members)
            if numeric and len(set(lead.values())) == len(steps):
                self.zip_pos[name] = lead

    def design_file(self):
        """Where the design was read: the sweep's study.json, or the points themselves."""
        return (os.path.join(self.dir, "study.json") if self.design == "study.json"
                else f"{self.path} (their values go together in every point)")

    def factor(self, col):
        """The independent axis a column belongs to: its zip's name, or itself."""
        return self.zip_of.get(col, col)

    def is_zip(self, x):
        return x in self.zips

    def members(self, x):
        return self.zips.get(x, [x])

    def ordered_values(self, rows, x):
        """x's values in these rows, in axis order (a numeric zip by its first member)."""
        if x in self.zip_pos:
            return sorted(dict.fromkeys(r[x] for r in rows), key=lambda v: self.zip_pos[x][v])
        if x in self.zips:
            return list(dict.fromkeys(r[x] for r in rows))
        return ordered(r[x] for r in rows)

    def position(self, x, v):
        """Where value v sits on a numeric x axis (None: x is categorical)."""
        return self.zip_pos[x][v] if x in self.zip_pos else (None if x in self.zips else number(v))

    def label(self, x, v):
        """A value as a point's label: "engines=2" or, for a zip, "engines=2, contexts=3"."""
        return v if x in self.zips else f"{x.split('.')[-1]}={v}"

    def tick(self, x, v):
        """A value as a tick label: "2", or a zip's members on lines of their own."""
        return v.replace(", ", "\n") if x in self.zips else v

    def axis_title(self, x):
        if x in self.zips:
            # "vertex_alu.engines & contexts (zipped)": a unit named once.
            shown, unit = [], None
            for c in self.zips[x]:
                u = c.split(".")[0] if "." in c else None
                shown.append(c[len(u) + 1:] if u and u == unit else c)
                unit = u
            return " & ".join(shown) + " (zipped)"
        return x

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
        """The independent axes that vary: a zip of which two or more members vary is one axis
        (its name "a & b"), in the design's order."""
        out = []
        for g in self.groups:
            if g[0] in self.zip_of:
                out.append(self.zip_of[g[0]])
            else:
                out += [a for a in g if len(set(r[a] for r in self.rows)) > 1]
        return list(dict.fromkeys(out))

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
