"""vpsim.why: `vpsim why` in process ranks as the CLI does."""
import os

import pytest

import vpsim


def test_ranking_equals_cli_why(cli_json):
    want = cli_json("why", "--preset", "nv25", "--only", "output.*,memory.*", "--pairs", "2", "--json", "--jobs", "2")
    got = vpsim.why(preset="nv25", only=["output.*", "memory.*"], pairs=2)
    assert [(e["changes"], e["cycles"]) for e in got["ranking"]] == \
           [(e["changes"], e["cycles"]) for e in want["ranking"]]
    assert [(e["changes"], e["cycles"]) for e in got["pairs"]] == [(e["changes"], e["cycles"]) for e in want["pairs"]]
    assert got["agreement"] == want["agreement"]
    assert got["baseline"]["cycles"] == want["baseline"]["cycles"]


def test_order_queue_tops_nv25_as_the_issue_says():
    got = vpsim.why(preset="nv25", only=["output.order_queue", "vertex_fetch.fetch_window"], pairs=0)
    df = vpsim.why_dataframe(got)
    assert df["key"][0] == "output.order_queue"
    assert df["saved"][0] > 0
    assert df.set_index("key")["saved"]["vertex_fetch.fetch_window"] == 0


def test_a_factor_not_above_one_is_refused():
    with pytest.raises(vpsim.InputError, match="factor"):
        vpsim.why(factor=1.0)


def test_a_glob_matching_nothing_lists_the_keys():
    with pytest.raises(vpsim.InputError, match="matches no capacity"):
        vpsim.why(only=["nothing.*"])


def test_budget_window_equals_cli_why_budget(cli_json, src):
    scene = os.path.join(src, "examples", "scenes", "strip.json")
    want = cli_json("why", scene, "--budget", "8", "--only", "memory.*", "--pairs", "0", "--json", "--jobs", "2")
    got = vpsim.why(scene, budget=8, only=["memory.*"], pairs=0)
    assert not got["window"]["whole_scene"]
    for k in ("draws", "scene_draws", "references", "scene_references"):
        assert got["window"][k] == want["window"][k]
    assert [(e["changes"], e["cycles"]) for e in got["ranking"]] == \
           [(e["changes"], e["cycles"]) for e in want["ranking"]]
