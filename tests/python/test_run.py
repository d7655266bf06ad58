"""vpsim.run: the timing model from Python gives what `vpsim run` gives."""
import json
import os

import pytest

import vpsim


def test_default_scene_stats_equal_cli(cli, tmp_path):
    out = tmp_path / "run"
    cli("run", "--out", str(out), "--quiet", "--no-progress")
    with open(out / "stats.json") as f:
        st = json.load(f)
    del st["summary"]
    r = vpsim.run()
    assert r.stats == st
    assert r.cycles == st["cycles"]


def test_cycles_equal_cli_json_with_preset_and_overrides(cli_json):
    want = cli_json("run", "--json", "--preset", "nv25", "--set", "memory.latency=60", "--set",
                    "output.order_queue=128", "--no-progress")
    r = vpsim.run(preset="nv25", overrides={"memory.latency": 60, "output.order_queue": 128})
    assert r.cycles == want["cycles"]
    assert r.bottleneck["text"] == want["bottleneck"]["text"]
    assert r.cycles != vpsim.run(preset="nv25").cycles  # the overrides reached the run


def test_scene_dict_equals_scene_file(src):
    path = os.path.join(src, "examples", "scenes", "strip.json")
    with open(path) as f:
        d = json.load(f)
    a = vpsim.run(path)
    b = vpsim.run(d, base_dir=os.path.dirname(path))
    assert a.stats == b.stats


def test_topology_file_and_dict_equal_cli(cli_json, src):
    path = os.path.join(src, "examples", "topologies", "two_vertex_fetch.json")
    want = cli_json("run", "--json", "--topology-file", path, "--no-progress")
    with open(path) as f:
        d = json.load(f)
    assert vpsim.run(topology=path).cycles == want["cycles"]
    assert vpsim.run(topology=d).stats == vpsim.run(topology=path).stats


def test_bad_override_raises_the_clis_message(cli):
    p = cli("run", "--set", "memory.latency=-3", "--no-progress", check=False)
    assert p.returncode == 2
    with pytest.raises(vpsim.InputError) as e:
        vpsim.run(overrides={"memory.latency": -3})
    assert "vpsim run: " + str(e.value) == p.stderr.strip()


def test_missing_scene_raises_the_clis_message(cli, tmp_path):
    missing = str(tmp_path / "nope.json")
    p = cli("run", missing, "--no-progress", check=False)
    assert p.returncode == 2
    with pytest.raises(vpsim.Error) as e:
        vpsim.run(missing)
    assert "vpsim run: " + str(e.value) == p.stderr.strip()


def test_malformed_scene_dict_is_a_scene_error_naming_the_member():
    with pytest.raises(vpsim.SceneError) as e:
        vpsim.run({"commands": [{"op": "NoSuchCommand"}]})
    assert "/commands/0" in str(e.value)


def test_dataframe_has_one_row_of_the_flat_metrics():
    r = vpsim.run()
    df = r.to_dataframe()
    assert len(df) == 1
    assert df["cycles"][0] == r.cycles
    u = r.stats["units"]["vertex_alu"]
    assert df["vertex_alu.busy"][0] == u["cycles"]["busy"]
    assert df["vertex_alu.stalled.dependency"][0] == u["cycles"]["stalled"]["dependency"]["cycles"]
    assert df["vertex_alu.vertices"][0] == u["counters"]["vertices"]["value"]


def test_stalls_frame_adds_up_to_each_units_stalled_total():
    r = vpsim.run()
    s = r.stalls()
    for unit, total in s.groupby("unit")["cycles"].sum().items():
        assert total == r.stats["units"][unit]["cycles"]["stalled_total"]


def test_params_in_force_follow_preset_and_overrides():
    p = vpsim.params(preset="nv25", overrides={"memory.latency": 77})
    assert p["memory"]["latency"] == 77
    assert vpsim.params()["memory"]["latency"] != 77
    assert "nv25" in [x["name"] for x in vpsim.presets()]
