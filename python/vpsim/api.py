"""vpsim's Python API (docs/python.md): scenes, topologies, presets and overrides in; the timing
model's statistics (stats.json's names, as dicts and pandas DataFrames), the functional
executor's vertices and `why`'s ranking out. The runs are the C++ core's (vpsim._core); studies
are in vpsim.study, the golden model's functions in vpsim.golden."""

import json
import os

from . import _core

Error = _core.Error  # every error of the API
InputError = _core.InputError  # bad input: a file, a parameter, a value (the CLI's exit status 2)
SceneError = _core.SceneError  # a malformed scene, or a scene command that failed (exit 1)
InternalError = _core.InternalError  # a bug in vpsim (exit 3)


def _value_text(v):
    """A parameter value as `--set` writes it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _sets(overrides):
    """{"memory.latency": 60} or ["memory.latency=60"] -> ["memory.latency=60"]."""
    if overrides is None:
        return []
    if isinstance(overrides, dict):
        return [f"{k}={_value_text(v)}" for k, v in overrides.items()]
    if isinstance(overrides, str):
        raise InputError(f"overrides: {overrides!r}: give a dict {{\"unit.param\": value}} or a list of "
                         "\"unit.param=value\" strings")
    return [str(s) for s in overrides]


def _strings(name, values):
    if values is None:
        return []
    if isinstance(values, str):
        return [values]
    return [str(v) for v in values]


def spec(scene=None, *, topology=None, preset=None, config=None, overrides=None, profile=None,
         tess_profile=None, draws=0, base_dir=None):
    """The inputs of a run, as `vpsim run` takes them. scene: None (the built-in default scene),
    a path, or a dict (a scene's JSON; its buffer files relative to base_dir, default the
    current directory). topology: None (the built-in pipeline), a path or a dict (a topology
    file's JSON). overrides: {"unit.param": value} (each a `--set`, after preset and config)."""
    s = _core.RunSpec()
    if isinstance(scene, dict):
        s.scene_json = json.dumps(scene)
        s.scene_base = os.fspath(base_dir) if base_dir is not None else os.getcwd()
        s.scene_name = str(scene.get("name", "<dict>"))
    elif scene is not None:
        s.scene_path = os.fspath(scene)
    if isinstance(topology, dict):
        s.topology_json = json.dumps(topology)
    elif topology is not None:
        s.topology_path = os.fspath(topology)
    s.preset = preset or ""
    s.config = os.fspath(config) if config is not None else ""
    s.sets = _sets(overrides)
    s.profile = _strings("profile", profile)
    s.tess_profile = _strings("tess_profile", tess_profile)
    if not isinstance(draws, int) or isinstance(draws, bool) or draws < 0:
        raise InputError(f"draws: {draws!r}: a count of draws (0: the whole scene)")
    s.draws = draws
    return s


def flatten_stats(stats):
    """stats.json's units as one flat dict: "cycles", "UNIT.busy", "UNIT.idle",
    "UNIT.stalled.REASON", "UNIT.stalled_total" (the names of `vpsim sweep`'s results.csv) and
    each counter as "UNIT.COUNTER"."""
    flat = {"cycles": stats["cycles"]}

    def put(k, v):
        if k in flat:
            raise InternalError(f"statistics: {k} twice")
        flat[k] = v

    for unit, g in stats["units"].items():
        c = g.get("cycles")
        if isinstance(c, dict):
            put(f"{unit}.busy", c["busy"])
            put(f"{unit}.idle", c["idle"])
            for reason, r in c["stalled"].items():
                put(f"{unit}.stalled.{reason}", r["cycles"])
            put(f"{unit}.stalled_total", c["stalled_total"])
        for name, counter in g.get("counters", {}).items():
            put(f"{unit}.{name}", counter["value"])
    return flat


class RunResult:
    """A timing-model run. stats: stats.json's content without its summary ({"schema",
    "cycles", "units"}, docs/stats.md); metrics: the same flattened; bottleneck: the summary's
    bottleneck ({"unit", "busy", "reason", "text"}); warnings: what `vpsim run` prints on
    stderr; host_seconds: how long the simulation took here."""

    def __init__(self, stats_json, bottleneck_json, warnings, host_seconds):
        self.stats = json.loads(stats_json)
        self.bottleneck = json.loads(bottleneck_json)
        self.warnings = list(warnings)
        self.host_seconds = host_seconds
        self.metrics = flatten_stats(self.stats)

    @property
    def cycles(self):
        return self.stats["cycles"]

    def to_dataframe(self):
        """One row: every metric a column."""
        import pandas as pd
        return pd.DataFrame([self.metrics])

    def stalls(self):
        """Every unit's stall reasons as a DataFrame: unit, reason, class, cycles, by."""
        import pandas as pd
        rows = []
        for unit, g in self.stats["units"].items():
            c = g.get("cycles")
            if not isinstance(c, dict):
                continue
            for reason, r in c["stalled"].items():
                rows.append({"unit": unit, "reason": reason, "class": r.get("class", ""),
                             "cycles": r["cycles"], "by": r.get("by", "")})
        return pd.DataFrame(rows, columns=["unit", "reason", "class", "cycles", "by"])

    def __repr__(self):
        return f"<vpsim.RunResult {self.cycles} cycles, bottleneck {self.bottleneck.get('unit', '')!r}>"


def run(scene=None, **kw):
    """Runs a scene on the timing model (`vpsim run`); the arguments are spec()'s. The GIL is
    released during the run; runs in one process take turns on SystemC's kernel."""
    return RunResult(*_core.run(spec(scene, **kw)))


OUTPUTS = (["oPos.x", "oPos.y", "oPos.z", "oPos.w", "oD0.x", "oD0.y", "oD0.z", "oD0.w",
            "oD1.x", "oD1.y", "oD1.z", "oD1.w", "oFog", "oPts"] +
           [f"oT{t}.{c}" for t in range(8) for c in "xyzw"])


class ExecResult:
    """The functional executor's result (`vpsim scene-exec`): scene, draws (a dict each:
    command, pointer, op, shader, type, primitives, references, unique_vertices, and with
    vertices=True "indices" and "outputs", a float32 numpy array of references x 46 in OUTPUTS'
    order), warnings."""

    def __init__(self, d, vertices):
        self.scene = d["scene"]
        self.warnings = list(d["warnings"])
        self.draws = d["draws"]
        self.kept_vertices = vertices
        import numpy as np
        for draw in self.draws:
            raw = draw.pop("outputs")
            if vertices:
                draw["outputs"] = np.frombuffer(raw, dtype=np.float32).reshape(-1, len(OUTPUTS))
            else:
                del draw["indices"]

    def to_dataframe(self):
        """A row per draw: its header without the vertices."""
        import pandas as pd
        return pd.DataFrame([{k: v for k, v in d.items() if k not in ("indices", "outputs")} for d in self.draws])

    def vertices(self):
        """A row per vertex reference (draw order): draw, reference, index and the 46 outputs."""
        import pandas as pd
        if not self.kept_vertices:
            raise InputError("vertices: this result kept no vertices (scene_exec(..., vertices=True) keeps them)")
        frames = []
        for n, d in enumerate(self.draws):
            f = pd.DataFrame(d["outputs"], columns=OUTPUTS)
            f.insert(0, "index", d["indices"])
            f.insert(0, "reference", range(len(f)))
            f.insert(0, "draw", n)
            frames.append(f)
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["draw", "reference", "index"] + OUTPUTS)


def scene_exec(scene=None, *, fast=True, vertices=True, preset=None, overrides=None, profile=None, tess_profile=None,
         draws=0, base_dir=None):
    """Runs a scene on the functional executor (`vpsim scene-exec`): the fast path, or with
    fast=False the reference interpreter (the same bits). preset and fixed_function.* overrides
    give the fixed-function caps; any other override is refused."""
    s = spec(scene, preset=preset, overrides=overrides, profile=profile, tess_profile=tess_profile, draws=draws,
             base_dir=base_dir)
    return ExecResult(_core.scene_exec(s, bool(fast), bool(vertices)), bool(vertices))


def why(scene=None, *, factor=2.0, only=None, pairs=4, moves=3, budget=1000000, **kw):
    """`vpsim why` in this process (docs/why.md): each capacity and rate x factor, each latency
    / factor, one at a time, ranked by the cycles they save; the top `pairs` two at a time.
    only: globs over the keys ("output.*"); budget: the references of the scene's window (0:
    all). Returns `vpsim why --json`'s shape as a dict (ranking, pairs, skipped, agreement)."""
    return json.loads(_core.why(spec(scene, **kw), float(factor), _strings("only", only), int(pairs), int(moves),
                                int(budget)))


def why_dataframe(result):
    """why()'s ranking as a DataFrame: key, from, to, cycles, saved, percent."""
    import pandas as pd
    rows = [{"key": e["changes"][0]["key"], "from": e["changes"][0]["from"], "to": e["changes"][0]["to"],
             "cycles": e["cycles"], "saved": e["saved"], "percent": e["percent"]} for e in result["ranking"]]
    return pd.DataFrame(rows, columns=["key", "from", "to", "cycles", "saved", "percent"])


def params(**kw):
    """The parameters in force ({"unit": {"param": value}}) for a topology, preset, config and
    overrides (spec()'s arguments without the scene)."""
    return json.loads(_core.params(spec(None, **kw)))


def presets():
    """The built-in hardware presets: a dict (name, chip, description) each."""
    return _core.presets()
