"""The worked study of docs/python.md (examples/python/worked_study.py) runs as written: a study
into a DataFrame and a plot from it, written into the build directory."""
import os
import runpy
import sys


def test_worked_study_makes_its_dataframe_and_plot(src):
    script = os.path.join(src, "examples", "python", "worked_study.py")
    out = os.path.join(os.getcwd(), "worked_study.png")
    if os.path.exists(out):
        os.remove(out)
    argv = sys.argv
    sys.argv = [script, out]
    try:
        g = runpy.run_path(script, run_name="__main__")
    finally:
        sys.argv = argv
    df = g["df"]
    assert len(df) == 12
    # nv25's own values (latency 120, order queue 64) are the single run's point
    own = df[(df["memory.latency"] == 120) & (df["output.order_queue"] == 64)]
    assert list(own["cycles"]) == [g["base"].cycles]
    with open(out, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
