#!/usr/bin/env bash
# Renders the timing model's topology (model/sc/topology.json, or --topology-file T.json, as
# `vpsim run --topology-dot` writes it) to docs/timing-model-topology.svg with Graphviz.
# Installs graphviz if missing and builds vpsim if needed. Arguments go to `vpsim run`
# (e.g. --set vertex_fetch.input_buffers=12 to draw other capacities).
#   scripts/topology.sh [--out FILE.svg] [vpsim run options...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/docs/timing-model-topology.svg"
if [ "${1:-}" = "--out" ]; then out="$2"; shift 2; fi
"$root/scripts/deps.sh" graphviz
build="${VPSIM_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" --target vpsim "$build" >&2
dot_file="$(mktemp "${TMPDIR:-/tmp}/vpsim_topology.XXXXXX.dot")"
trap 'rm -f "$dot_file" "$out.tmp"' EXIT
"$build/vpsim" run --topology-dot "$dot_file" "$@"
dot -Tsvg "$dot_file" -o "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
