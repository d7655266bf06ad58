"""Studies in Python (docs/python.md, "Studies"): scenes x parameter axes x repeats, as
`vpsim sweep` expands them (docs/sweep.md: the first axis varies slowest, zipped axes vary
together, "preset" and "topology" may be axes), each point run in this process (vpsim.run), or
with jobs > 1 in worker processes, into one pandas DataFrame: a row per point, the columns
scene, repeat, the axis keys, then every metric (vpsim.api.flatten_stats)."""

import concurrent.futures
import itertools
import multiprocessing
import os

from . import _core
from .api import InputError, _sets, run


def _number(text):
    """An axis value's text as `vpsim sweep --axis` and study files give it: a number when it is one."""
    for conv in (int, float):
        try:
            return conv(text)
        except (TypeError, ValueError):
            pass
    return text


def _axis(key, values):
    """One axis or zipped group: (keys, [tuple of values per step])."""
    if isinstance(key, tuple):
        keys = list(key)
        steps = [tuple(v) for v in values]
        for i, v in enumerate(steps):
            if len(v) != len(keys):
                raise InputError(f"axes: {key}: step {i} has {len(v)} values for {len(keys)} zipped keys")
    else:
        keys = [key]
        steps = [(v,) for v in values]
    if not steps:
        raise InputError(f"axes: {key}: no values")
    return keys, steps


def _axes(axes):
    """axes: {"unit.param": [v, ...], ("a.x", "b.y"): [(x, y), ...]} (a tuple key: zipped), or
    a list of such pairs, or of `vpsim sweep --axis` strings ("memory.latency=40..320:40")."""
    if axes is None:
        return []
    items = axes.items() if isinstance(axes, dict) else axes
    out = []
    for item in items:
        if isinstance(item, str):
            keys, values = _core.parse_axis(item)
            out.append((list(keys), [tuple(_number(x) for x in v) for v in values]))
        else:
            out.append(_axis(*item))
    return out


def _point(args):
    scene, kw = args
    return run(scene, **kw).metrics


def _text(v):
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def study(scenes=None, axes=None, *, file=None, preset=None, overrides=None, topology=None, profile=None,
          tess_profile=None, repeats=1, draws=0, jobs=1, base_dir=None):
    """Runs a study into one DataFrame. scenes: a scene (None: the built-in default; a path; a
    dict) or a list of them. file: a study file (schema vpsim-study-1) instead of scenes/axes/
    preset/overrides/profile/repeats/draws (its "metrics" do not apply: select columns in pandas).
    jobs: worker processes (1: this one)."""
    import pandas as pd
    if file is not None:
        given = {"scenes": scenes, "axes": axes, "preset": preset, "overrides": overrides, "profile": profile,
                 "tess_profile": tess_profile}
        clash = [k for k, v in given.items() if v is not None] + (["repeats"] if repeats != 1 else []) + \
                (["draws"] if draws else [])
        if clash:
            raise InputError(f"file: the study file gives {', '.join(clash)}: not both")
        st = _core.load_study(os.fspath(file))
        scenes, preset, overrides = st["scenes"], st["preset"] or None, st["sets"]
        profile, tess_profile, repeats, draws = st["profile"], st["tess_profile"], st["repeats"], st["draws"]
        ax = [(a["keys"], [tuple(_number(x) for x in v) for v in a["values"]]) for a in st["axes"]]
    else:
        ax = _axes(axes)
    if scenes is None or isinstance(scenes, (str, dict, os.PathLike)):
        scenes = [scenes]
    if not isinstance(repeats, int) or repeats < 1:
        raise InputError(f"repeats: {repeats!r}: at least 1")
    if not isinstance(jobs, int) or jobs < 1:
        raise InputError(f"jobs: {jobs!r}: at least 1")
    base_sets = _sets(overrides)
    rows, work = [], []
    for scene in scenes:
        for combo in itertools.product(*[steps for _, steps in ax]):
            kw = {"preset": preset, "topology": topology, "profile": profile, "tess_profile": tess_profile,
                  "draws": draws, "base_dir": base_dir}
            sets = list(base_sets)
            if scene is None:
                name = "<default>"
            elif isinstance(scene, dict):
                name = str(scene.get("name", "<dict>"))
            else:
                name = os.fspath(scene)
            row = {"scene": name}
            for (keys, _), values in zip(ax, combo):
                for k, v in zip(keys, values):
                    row[k] = v
                    if k == "preset":
                        kw["preset"] = v
                    elif k == "topology":
                        kw["topology"] = v
                    else:
                        sets.append(f"{k}={_text(v)}")
            kw["overrides"] = sets
            for r in range(repeats):
                rows.append(dict(row, repeat=r))
                work.append((scene, kw))
    if jobs == 1 or len(work) < 2:
        metrics = [_point(w) for w in work]
    else:
        # Fresh interpreters (spawn): SystemC's kernel is one per process.
        ctx = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
            metrics = list(pool.map(_point, work))
    keys = [k for keys, _ in ax for k in keys]
    first = ["scene", "repeat"] + keys
    if not rows:
        return pd.DataFrame(columns=first)
    frame = pd.DataFrame([dict(r, **m) for r, m in zip(rows, metrics)])
    return frame[first + [c for c in frame.columns if c not in first]]

