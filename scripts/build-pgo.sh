#!/usr/bin/env bash
# Builds vpsim with GCC profile-guided optimisation of the timing model (docs/bench.md, "Compiler
# options"):
#   scripts/build-pgo.sh [--lto] [BUILD_DIR] [extra cmake arguments...]   (default BUILD_DIR: build-pgo)
# 1. an instrumented build (scripts/build.sh --target vpsim BUILD_DIR -DVPSIM_PGO=generate): the
#    timing model's libraries (vpsim_golden, vpsim_fast, vpsim_sc) count their branches and calls;
# 2. training: `vpsim run` on the default scene and example scenes with presets and parameter
#    variants (a few seconds), which writes the profile to BUILD_DIR/pgo-profile (an older profile
#    is removed first);
# 3. the optimised build (-DVPSIM_PGO=use): the same libraries compiled again with the profile.
# --lto adds link-time optimisation of those libraries (-DVPSIM_LTO=ON) to both builds. Use a build
# directory of its own: the default build/ stays a plain build. The results (cycles, statistics,
# vertices) are those of the plain build; only the host time changes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() { echo "usage: scripts/build-pgo.sh [--lto] [BUILD_DIR] [extra cmake arguments...]" >&2; exit 2; }
lto=OFF
if [ $# -gt 0 ] && [ "$1" = --lto ]; then lto=ON; shift; fi
case "${1:-}" in -h|--help) usage ;; --*) echo "build-pgo.sh: unknown option $1" >&2; usage ;; esac
build="${1:-$root/build-pgo}"
shift || true
for a in "$@"; do
  case "$a" in -DVPSIM_PGO=*|-DVPSIM_PGO:*|-DVPSIM_PGO_DIR*) echo "build-pgo.sh: $a: the script sets VPSIM_PGO itself" >&2; usage ;; esac
done
mkdir -p "$build"
build="$(cd "$build" && pwd)"
profile="$build/pgo-profile"

echo "== build-pgo.sh: instrumented build in $build" >&2
"$root/scripts/build.sh" --target vpsim "$build" -DVPSIM_PGO=generate -DVPSIM_PGO_DIR="$profile" -DVPSIM_LTO=$lto "$@"

echo "== build-pgo.sh: training runs (profile: $profile)" >&2
rm -rf "$profile"
vpsim="$build/vpsim"
log="$build/pgo-training.log"
: > "$log"
train() {
  echo "   vpsim run $*" >&2
  "$vpsim" run "$@" --quiet --no-progress >> "$log" 2>&1 || { echo "build-pgo.sh: a training run failed ($log):" >&2; tail -n 20 "$log" >&2; exit 1; }
}
train
train --preset nv25
train "$root/examples/scenes/skinning.json" --preset nv20
train "$root/examples/scenes/ff_lit.json"
train "$root/examples/scenes/patches/bezier.json" --set vertex_alu.engines=2
train "$root/examples/workloads/ff_point_4.json" --preset nv2a
train "$root/examples/workloads/skin4.json" --set vertex_alu.schedule=round_robin
train "$root/examples/workloads/shadow_volume.json"
[ -d "$profile" ] || { echo "build-pgo.sh: the training runs wrote no profile to $profile" >&2; exit 1; }

echo "== build-pgo.sh: optimised build" >&2
"$root/scripts/build.sh" --target vpsim "$build" -DVPSIM_PGO=use -DVPSIM_PGO_DIR="$profile" -DVPSIM_LTO=$lto "$@"
echo "build-pgo.sh: $vpsim (profile-guided$([ $lto = ON ] && echo ', link-time optimised'))" >&2
