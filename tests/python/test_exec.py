"""vpsim.scene_exec: the functional executor from Python gives `vpsim scene-exec`'s vertices."""
import json
import math
import os
import struct

import numpy as np
import pytest

import vpsim


def bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def cli_float(v):
    if isinstance(v, str):  # "inf", "-inf", "nan:0x7FC00000"
        return float(v) if not v.startswith("nan") else math.nan
    return float(v)


def test_vertices_equal_cli_scene_exec_json(cli_json, src):
    path = os.path.join(src, "examples", "scenes", "strip.json")
    want = cli_json("scene-exec", path, "--json")
    got = vpsim.scene_exec(path)
    assert len(got.draws) == len(want["draws"])
    for g, w in zip(got.draws, want["draws"]):
        assert g["primitives"] == w["primitives"]
        assert g["unique_vertices"] == w["unique_vertices"]
        assert len(g["outputs"]) == len(w["outputs"])
        for row, v in zip(g["outputs"], w["outputs"]):
            assert [bits(x) for x in row[0:4]] == [bits(cli_float(x)) for x in v["oPos"]]
            assert [bits(x) for x in row[4:8]] == [bits(cli_float(x)) for x in v["oD0"]]


def test_fast_path_and_reference_give_the_same_bits():
    a = vpsim.scene_exec(fast=True)
    b = vpsim.scene_exec(fast=False)
    for x, y in zip(a.draws, b.draws):
        assert np.array_equal(x["outputs"].view(np.uint32), y["outputs"].view(np.uint32))
        assert x["indices"] == y["indices"]


def test_vertices_frame_has_a_row_per_reference():
    r = vpsim.scene_exec()
    v = r.vertices()
    assert len(v) == sum(d["references"] for d in r.draws)
    assert list(v.columns[3:]) == vpsim.OUTPUTS


def test_an_override_other_than_fixed_function_is_refused():
    with pytest.raises(vpsim.InputError, match="only fixed_function"):
        vpsim.scene_exec(overrides={"memory.latency": 60})


def test_counts_only_keeps_no_vertices_and_says_how_to_keep_them():
    r = vpsim.scene_exec(vertices=False)
    assert [d["references"] for d in r.draws] == [d["references"] for d in vpsim.scene_exec().draws]
    assert all("outputs" not in d for d in r.draws)
    with pytest.raises(vpsim.InputError, match="vertices=True"):
        r.vertices()
