#!/usr/bin/env bash
# The README's run command: installs what is missing, builds vpsim if needed (the CLI only, not
# the test binaries: scripts/build.sh --target vpsim), then runs the main
# job: `vpsim run` on the built-in default scene (the SystemC timing model of the vertex
# pipeline; docs/run.md). Arguments are passed to `vpsim run`, e.g. a scene file,
# --set vertex_alu.engines=2, --out results --vertices, --trace run.json.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${VPSIM_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" --target vpsim "$build" >&2
exec "$build/vpsim" run "$@"
