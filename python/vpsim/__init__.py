"""vpsim's Python package: the plots and reports (vpsim.plot) and the Python API (docs/python.md):
vpsim.run, vpsim.scene_exec, vpsim.why, vpsim.study, vpsim.params, vpsim.presets, vpsim.golden.
The API's names load on first use, so vpsim.plot needs no compiled module."""

_API = {"run", "RunResult", "scene_exec", "ExecResult", "OUTPUTS", "why", "why_dataframe", "params", "presets",
        "spec", "flatten_stats", "Error", "InputError", "SceneError", "InternalError"}
__all__ = sorted(_API | {"study", "golden"})


def __getattr__(name):
    if name in _API:
        from . import api
        return getattr(api, name)
    if name == "study":
        from .studies import study
        return study
    if name == "golden":
        import importlib
        return importlib.import_module(".golden", __name__)
    raise AttributeError(f"module 'vpsim' has no attribute {name!r}")
