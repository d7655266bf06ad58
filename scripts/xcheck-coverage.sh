#!/usr/bin/env bash
# RTL code coverage of rtl/decl_decoder.sv at three budgets (docs/xcheck.md, "RTL code coverage"):
# corpus only, corpus + 10k random arrays, corpus + 1M random arrays (seed 1). Each writes
# OUT/<budget>/ (coverage.dat, html/, holes.txt) and prints vpsim's summary.
#   scripts/xcheck-coverage.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
out=${2:-$build/xcheck-coverage}
"$here/scripts/deps.sh" lcov
mkdir -p "$out"
for n in 0 10000 1000000; do
  echo "== corpus + $n random arrays (seed 1)"
  "$build/vpsim" xcheck --coverage "$out/$n" --rtl-cache "$out/cache" --random "$n" --seed 1 |
    sed -n '/^RTL code coverage/,/^coverage data/p' | grep -v '^  not hit'
done
