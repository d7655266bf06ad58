#!/bin/sh
# The vertex fetch RTL's mutation campaign (docs/vertex-fetch-rtl.md): N yosys mutants of
# rtl/vertex_fetch.sv, each cross-checked against the directed cases + RANDOM random cases.
# Usage: scripts/xcheck-vf-mutants.sh [BUILD] [OUT] [N] [RANDOM]
# (defaults: build, xcheck-vf-mutants, 40, 20000). Needs yosys (scripts/deps.sh yosys).
set -eu
build=${1:-build}
out=${2:-xcheck-vf-mutants}
n=${3:-40}
random=${4:-20000}
mkdir -p "$out"
"$build/vpsim" xcheck --unit vertex_fetch --mutants "$n" --random "$random" --seed 1 --jobs 2 \
  --mutants-dir "$out/mutants" | tee "$out/mutants.txt"
