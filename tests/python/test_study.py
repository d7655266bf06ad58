"""vpsim.study: a study's points into one DataFrame, as `vpsim sweep` expands them."""
import os

import pytest

import vpsim

AXES = {"memory.latency": [60, 240], "vertex_alu.contexts": [2, 6]}


def test_rows_are_the_axes_product_first_axis_slowest():
    df = vpsim.study(axes=AXES)
    assert list(df["memory.latency"]) == [60, 60, 240, 240]
    assert list(df["vertex_alu.contexts"]) == [2, 6, 2, 6]
    assert list(df.columns[:4]) == ["scene", "repeat", "memory.latency", "vertex_alu.contexts"]


def test_each_row_equals_a_run_with_its_overrides():
    df = vpsim.study(axes=AXES)
    for _, row in df.iterrows():
        r = vpsim.run(overrides={"memory.latency": row["memory.latency"],
                                 "vertex_alu.contexts": row["vertex_alu.contexts"]})
        assert row["cycles"] == r.cycles


def test_zipped_axes_vary_together():
    df = vpsim.study(axes={("memory.latency", "vertex_fetch.fetch_window"): [(40, 4), (160, 16)]})
    assert list(zip(df["memory.latency"], df["vertex_fetch.fetch_window"])) == [(40, 4), (160, 16)]


def test_axis_strings_are_sweeps_axis_flags():
    df = vpsim.study(axes=["memory.latency=40..120:40"])
    assert list(df["memory.latency"]) == [40, 80, 120]


def test_preset_is_an_axis():
    df = vpsim.study(axes={"preset": ["nv20", "nv25"]})
    assert list(df["cycles"]) == [vpsim.run(preset="nv20").cycles, vpsim.run(preset="nv25").cycles]


def test_worker_processes_give_the_same_frame():
    serial = vpsim.study(axes=AXES)
    parallel = vpsim.study(axes=AXES, jobs=2)
    assert serial.equals(parallel)


def test_a_study_file_runs_its_points(src, tmp_path):
    f = tmp_path / "s.json"
    f.write_text('{"schema": "vpsim-study-1", "name": "t", "scenes": ["%s"], "base": {"preset": "nv25"},'
                 ' "axes": [{"key": "memory.latency", "values": [60, 120]}]}'
                 % os.path.join(src, "examples", "scenes", "strip.json"))
    df = vpsim.study(file=f)
    assert list(df["cycles"]) == [vpsim.run(os.path.join(src, "examples", "scenes", "strip.json"), preset="nv25",
                                            overrides={"memory.latency": v}).cycles for v in (60, 120)]


def test_a_study_file_with_axes_too_is_refused(tmp_path):
    with pytest.raises(vpsim.InputError, match="not both"):
        vpsim.study(file=tmp_path / "x.json", axes=AXES)


def test_an_unknown_axis_key_names_the_parameter():
    with pytest.raises(vpsim.InputError, match="memory.latencyy"):
        vpsim.study(axes={"memory.latencyy": [1]})
