#!/usr/bin/env bash
# Prints the workload suite's table (examples/workloads/README.md) in Markdown: for every
# examples/workloads/*.json, its description, the vertex ALU's instructions, slots, vector and
# scalar slots per shaded vertex, the shaded vertices and the co-issue rate with the default
# parameters. Every figure comes from a fresh `vpsim run SCENE --out DIR` (stats.json:
# units.vertex_alu.counters and summary.coissue_rate); nothing is typed in.
#
#   scripts/workloads-table.sh                    # uses $root/build/vpsim
#   VPSIM_BUILD_DIR=build-bench scripts/workloads-table.sh
#   scripts/workloads-table.sh --preset nv2a      # extra arguments go to every `vpsim run`
#
# It does not build vpsim.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
vpsim="${VPSIM_BUILD_DIR:-$root/build}/vpsim"
python=/usr/bin/python3
[ -x "$vpsim" ] || { echo "workloads-table.sh: $vpsim not found (build it first, or set VPSIM_BUILD_DIR)" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

shopt -s nullglob
scenes=("$root"/examples/workloads/*.json)
[ "${#scenes[@]}" -gt 0 ] || { echo "workloads-table.sh: no scenes in $root/examples/workloads" >&2; exit 2; }

echo "| file | description | index order | instructions / vertex | slots / vertex | vector slots | scalar slots | shaded vertices | co-issue |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|"
for scene in "${scenes[@]}"; do
  name="$(basename "$scene")"
  cap=""
  out="$tmp/${name%.json}"
  # A fixed-function workload the preset's caps refuse (exit 1, the message naming the
  # D3DCAPS8 member) is a row saying so, not a failure of the table.
  if ! "$vpsim" run "$scene" --out "$out" --quiet --no-progress "$@" >/dev/null 2>"$tmp/err"; then
    cap="$(grep -o -E 'MaxActiveLights|MaxVertexBlendMatrixIndex|MaxVertexBlendMatrices|MaxPointSize' "$tmp/err" | head -1 || true)"
    [ -n "$cap" ] || { cat "$tmp/err" >&2; exit 1; }
  fi
  "$python" - "$scene" "$out/stats.json" "$name" "${cap:-}" <<'EOF'
import json, sys
scene_file, stats_file, name, cap = sys.argv[1:5]
scene = json.load(open(scene_file))
description = scene.get("description", "")
orders = []
for b in scene.get("buffers", {}).values():
    if isinstance(b, dict) and "generator" in b and b.get("indices", "") is not None:
        orders.append(b.get("index_order", "raw") + (" (seed %d)" % b["seed"] if "seed" in b else ""))
order = ", ".join(orders) if orders else "non-indexed"
if any(c.get("op") in ("DrawRectPatch",) for c in scene.get("commands", [])):
    order = "patch"
if cap:
    print("| %s | %s | %s | refused: the preset's %s | | | | | |" % (name, description.replace("|", "\\|"), order, cap))
    sys.exit(0)
stats = json.load(open(stats_file))
c = {k: v["value"] for k, v in stats["units"]["vertex_alu"]["counters"].items()}
n = c["vertices"]
def per(k):
    return "%.2f" % (c[k] / n) if n else "-"
rate = stats["summary"]["coissue_rate"]
print("| %s | %s | %s | %s | %s | %s | %s | %s | %.1f %% |" % (
    name, description.replace("|", "\\|"), order, per("instructions"), per("slots"), per("vector_slots"),
    per("scalar_slots"), format(n, ","), 100 * rate))
EOF
done
