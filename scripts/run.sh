#!/usr/bin/env bash
# The README's run command: installs what is missing, builds if needed, then runs the main
# job. Until `vpsim run` (the pipeline) exists, the main job decodes an example declaration
# and runs the RTL-vs-model cross-check on the corpus and 1,000,000 random arrays.
# Arguments are passed to `vpsim xcheck` (e.g. --random 10000 --seed 7).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${VPSIM_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh" "$build" >&2
echo "== vpsim decl examples/decl/two_streams.h"
"$build/vpsim" decl "$root/examples/decl/two_streams.h"
echo
echo "== vpsim xcheck --random 1000000 --seed 1 $*"
"$build/vpsim" xcheck --random 1000000 --seed 1 "$@"
