#!/usr/bin/env bash
# The sanitizer pass: one clang tree (build-san/) built with -fsanitize=address,undefined at -O1
# (the CLI and the test executables at -O0; the libraries the fuzz harnesses link also carry
# libFuzzer's coverage instrumentation: CMakeLists.txt), its tests run under ASan and UBSan.
#   scripts/sanitize.sh [--ci] [BUILD_DIR]     (default BUILD_DIR: build-san)
# Without --ci, the whole pass, a nightly job: the whole tree built, every test of it but those
# labelled no_sanitizer (tests/CMakeLists.txt says which and why; 831 tests, 293 s of ctest after a
# 10-minute build on this 2-core machine kind, 6 December 2026), then the CLI under the sanitizers:
# a user's RTL loaded into the sanitized vpsim for both units, a cross-check, the SystemC bench and
# `vpsim run`. With --ci, what .ci/run runs: only the test executables built (the target
# vpsim_unit_tests: not the CLI, nor the RTL harnesses' executables, tests/CMakeLists.txt), and
# their tests run (the Catch2 cases and the C API's); the CLI checks, the script
# tests that drive the CLI and the RTL harnesses' tests run in the first pass, without the
# sanitizers, and in the whole pass.
# The fuzz harnesses of the same tree are scripts/fuzz.sh --build BUILD_DIR's (docs/fuzzing.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode=full
if [ "${1:-}" = "--ci" ]; then mode=ci; shift; fi
case "${1:-}" in -*) echo "usage: scripts/sanitize.sh [--ci] [BUILD_DIR]" >&2; exit 2 ;; esac
build="${1:-$root/build-san}"
[ $# -le 1 ] || { echo "usage: scripts/sanitize.sh [--ci] [BUILD_DIR]" >&2; exit 2; }

"$root/scripts/deps.sh" clang libclang-rt-14-dev
targets=()
[ "$mode" = ci ] && targets=(--target vpsim_unit_tests)
CC=clang CXX=clang++ "$root/scripts/build.sh" "${targets[@]}" "$build" -DVPSIM_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
echo "== sanitize.sh: ctest ($mode)"
# Left out in both modes: the no_sanitizer tests and the 100,000-array fast-path cross-check (a
# Catch2 test, found at test time, so not labelled). --ci leaves out the CLI checks (cli...), the
# script tests that drive the CLI (docs, calibration, report, real, anomalies, metamorphic, repo,
# capture: run) and the RTL harnesses' unit tests (xcheck, xcheck engine, vf xcheck, rtl loop, vf
# loop; ctest lists an executable it has not built as <target>_NOT_BUILT-<hash>), which --ci does
# not build. It also leaves out two random round trips that the same stage's fuzz harnesses check on
# every input they run (tests/fuzz: bytecode's validate, disassemble and assemble again; decl_tokens'
# text forms), 30 s of its unit tests: 10,000 random programs, and random declaration arrays.
exclude="^xcheck:Fast path: the RTL matches the golden model on 100,000"
if [ "$mode" = ci ]; then
  exclude="$exclude|^(cli|docs|calibration|report|real|anomalies|metamorphic|repo)[ :]|^capture: run"
  exclude="$exclude|^(xcheck|xcheck engine|vf xcheck|rtl loop|vf loop):|_NOT_BUILT-"
  exclude="$exclude|^golden:(10,000 random programs validate and round-trip|Text -> tokens -> text -> tokens is the identity on random arrays)"
fi
# One more job than cores: several tests wait on child processes part of the time.
(cd "$build" && ctest -j "$(( $(nproc) + 1 ))" --output-on-failure -LE no_sanitizer -E "$exclude")
[ "$mode" = ci ] && exit 0
echo "== sanitize.sh: the CLI under the sanitizers"
"$build/vpsim" xcheck --random 20000 --seed 2 --jobs 2
# A user's RTL loaded into the sanitized vpsim (the tests that build planted variants stay out above):
# rtl/ given as the user's own, Verilated once into this tree's cache, for both units.
"$build/vpsim" xcheck --rtl "$root/rtl/decl_decoder.sv" --rtl-cache "$build/rtl-cache" --random 2000 --seed 4
"$build/vpsim" xcheck --unit vertex_fetch --rtl "$root/rtl/vertex_fetch.sv" --rtl-cache "$build/rtl-cache" \
  --random 300 --seed 4
"$build/vpsim" xcheck --systemc --random 500 --seed 3
"$build/vpsim" run --no-progress
