"""The worked study of docs/python.md, notebook-style (each "# %%" a cell): on GeForce4 Ti
(the nv25 preset) and the built-in default scene, how memory latency and the output unit's
order queue trade off, as a DataFrame and a plot.

    PYTHONPATH=<build or prefix>/share/vpsim/python /usr/bin/python3 examples/python/worked_study.py [OUT.png]
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import vpsim  # noqa: E402

# %% One run: the statistics are stats.json's, as a dict and a one-row DataFrame.
base = vpsim.run(preset="nv25")
print(f"nv25, default scene: {base.cycles:,} cycles; bottleneck: {base.bottleneck['text']}")

# %% A study: memory latency x order queue, 4 x 3 points, one DataFrame.
df = vpsim.study(preset="nv25", axes={"memory.latency": [30, 60, 120, 240], "output.order_queue": [32, 64, 128]})
df["cycles_per_vertex"] = df["cycles"] / df["vertex_alu.vertices"]
table = df.pivot(index="memory.latency", columns="output.order_queue", values="cycles_per_vertex")
print(table.round(2).to_string())

# %% What `why` says about the same machine: the top three relaxations.
ranking = vpsim.why_dataframe(vpsim.why(preset="nv25", only=["output.*", "memory.*"], pairs=0))
print(ranking.head(3).to_string(index=False))

# %% A plot from the DataFrame: cycles per vertex against latency, a line per order queue.
fig, ax = plt.subplots(figsize=(6, 4))
for q, g in df.groupby("output.order_queue"):
    ax.plot(g["memory.latency"], g["cycles_per_vertex"], marker="o", label=f"order queue {q}")
ax.set_xscale("log", base=2)
ax.set_xticks([30, 60, 120, 240], ["30", "60", "120", "240"])
ax.set_xlabel("memory latency (cycles)")
ax.set_ylabel("cycles per shaded vertex")
ax.set_title("nv25, default scene")
ax.legend()
fig.tight_layout()
out = sys.argv[1] if len(sys.argv) > 1 else "worked_study.png"
fig.savefig(out, dpi=100)
print(f"wrote {out}")
