#!/usr/bin/env bash
# The mutation-score campaign of docs/xcheck.md ("Mutation score"): N mutants of
# rtl/decl_decoder.sv (yosys mutate seed 1) against the default budget (corpus + 100k random
# arrays), then the same mutants against 1M random arrays (are the survivors killable at all?).
# Mutant builds are cached (OUT/cache), so the second pass only simulates.
#   scripts/xcheck-mutants.sh [BUILD_DIR] [OUT_DIR] [N]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
out=${2:-$build/xcheck-mutants}
n=${3:-40}
"$here/scripts/deps.sh" yosys
mkdir -p "$out"
echo "== $n mutants, default budget (corpus + 100000 random arrays, seed 1)"
"$build/vpsim" xcheck --mutants "$n" --mutant-seed 1 --rtl-cache "$out/cache" --mutants-dir "$out/m" | tee "$out/default.txt" || true
echo "== the same $n mutants, corpus + 1000000 random arrays"
"$build/vpsim" xcheck --mutants "$n" --mutant-seed 1 --rtl-cache "$out/cache" --mutants-dir "$out/m" --random 1000000 \
  --mutant-timeout 300 | tee "$out/1m.txt" || true
