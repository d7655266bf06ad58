#!/bin/sh
# The vertex fetch RTL's mutation campaign (docs/vertex-fetch-rtl.md, "Mutation score"): N yosys
# mutants of rtl/vertex_fetch.sv, each cross-checked against the directed cases + RANDOM random
# cases (values and memory requests), and one that passes timed in the pipeline against the model
# unit with the RTL's timing parameters. Each mutant is a yosys netlist Verilated on its own
# (100 mutants: 617-741 s wall on a shared 2-core machine, 6-7 s a mutant).
# Usage: scripts/xcheck-vf-mutants.sh [BUILD] [OUT] [N] [RANDOM] [MUTANT_SEED]
# (defaults: build, xcheck-vf-mutants, 100, 20000, 1). Needs yosys (scripts/deps.sh yosys).
set -eu
build=${1:-build}
out=${2:-xcheck-vf-mutants}
n=${3:-100}
random=${4:-20000}
mseed=${5:-1}
mkdir -p "$out"
"$build/vpsim" xcheck --unit vertex_fetch --mutants "$n" --mutant-seed "$mseed" --random "$random" --seed 1 --jobs 2 \
  --rtl-cache "$out/rtl-cache" --mutants-dir "$out/mutants" | tee "$out/mutants.txt"
