#!/usr/bin/env bash
# The function/timing property (issue 37; docs/fuzzing.md, "Function and timing"): every scene
# the functional model runs (vpsim scene-exec), the timing model runs too (vpsim run), with the
# same vertices and no internal error. A longer campaign of the ctests
# "timing: Function and timing: ..." (tests/test_function_timing.cpp): seeded fixed-function
# command streams of up to 400 commands (tests/fuzz/ff_stream.h), and the seed scenes plus,
# with --corpus, a directory of scenes (a scene fuzz campaign's corpus).
#
#   scripts/function-timing.sh [--seeds N] [--first S] [--streams M] [--corpus DIR]
#       N seeds from S (default 20 from 1), M streams each (default 100). Prints each seed's line
#       and the totals; exits 1 on the first finding (replay: VPSIM_TEST_SEED=<seed>
#       VPSIM_FUNCTION_TIMING_STREAMS=M build/tests/test_timing "Function and timing: seeded*").
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${VPSIM_BUILD_DIR:-$root/build}"
seeds=20 first=1 streams=100 corpus=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seeds|--first|--streams|--corpus)
      if [ $# -lt 2 ] || [ -z "$2" ]; then echo "function-timing.sh: $1 needs a value" >&2; exit 2; fi
      case "$1" in --seeds) seeds="$2" ;; --first) first="$2" ;; --streams) streams="$2" ;; --corpus) corpus="$2" ;; esac
      shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "function-timing.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
for v in "$seeds" "$first" "$streams"; do
  case "$v" in ''|*[!0-9]*) echo "function-timing.sh: $v: expected a whole number" >&2; exit 2 ;; esac
done
if [ -n "$corpus" ] && [ ! -d "$corpus" ]; then echo "function-timing.sh: --corpus $corpus: not a directory" >&2; exit 2; fi
ninja -C "$build" test_timing >/dev/null
bin="$build/tests/test_timing"
start=$(date +%s)
total_streams=0 total_ran=0 total_refs=0
for ((s = first; s < first + seeds; ++s)); do
  set +e
  out="$(VPSIM_TEST_SEED=$s VPSIM_FUNCTION_TIMING_STREAMS=$streams "$bin" "Function and timing: seeded*" 2>&1)"
  rc=$?
  set -e
  line="$(grep -m1 '^function/timing: seed' <<<"$out" || true)"
  if [ $rc -ne 0 ] || [ -z "$line" ]; then
    echo "$out" | tail -40 >&2
    echo "function-timing.sh: FINDING at seed $s (replay: VPSIM_TEST_SEED=$s VPSIM_FUNCTION_TIMING_STREAMS=$streams $bin \"Function and timing: seeded*\")" >&2
    exit 1
  fi
  echo "$line"
  ran=$(sed -E 's/.* ([0-9]+) ran in both.*/\1/' <<<"$line")
  refs=$(sed -E 's/.*\(([0-9]+) vertex references\).*/\1/' <<<"$line")
  total_streams=$((total_streams + streams)) total_ran=$((total_ran + ran)) total_refs=$((total_refs + refs))
done
if [ -n "$corpus" ]; then
  set +e
  out="$(VPSIM_FUNCTION_TIMING_DIR="$(cd "$corpus" && pwd)" "$bin" "Function and timing: every seed scene*" 2>&1)"
  rc=$?
  set -e
  grep -m1 '^function/timing: [0-9]' <<<"$out" || true
  if [ $rc -ne 0 ]; then echo "$out" | tail -60 >&2; echo "function-timing.sh: FINDING in the corpus" >&2; exit 1; fi
fi
echo "function-timing.sh: $seeds seeds x $streams streams: $total_streams streams, $total_ran ran in both ($total_refs vertex references), no finding, $(( $(date +%s) - start )) s"
