#!/usr/bin/env bash
# The libFuzzer harnesses of tests/fuzz (docs/fuzzing.md): builds them with clang (ASan + UBSan)
# into build-fuzz/, collects seed inputs from examples/ and tb/corpus, runs every harness, and
# runs every regression input of tests/fuzz/regressions/<harness>/.
#
#   scripts/fuzz.sh --ci                  CI: each harness from a fresh corpus with a fixed seed (1)
#                                         and a fixed number of executions (the table ci_runs; one
#                                         harness per core at a time), so a CI run is the same every time
#                                         and a finding replays; then the regressions; fails on any
#                                         finding
#   scripts/fuzz.sh [--time S] [--jobs N] [--work DIR] [HARNESS...]
#                                         a campaign: S seconds per harness (default 600), N
#                                         parallel jobs each (default 1); the corpus of each
#                                         harness is kept in DIR/corpus/<harness> (default
#                                         build-fuzz/work) and grows from run to run
#   scripts/fuzz.sh --regressions         only the regression inputs
#   scripts/fuzz.sh --build-only          build the harnesses and collect the seeds
#   --build DIR                           use the harnesses of DIR, a tree configured with clang and
#                                         -DVPSIM_SANITIZE=ON (the sanitizer tree of .ci/run, which
#                                         builds them beside the tests), instead of build-fuzz/
#
# Findings (crash, sanitizer report, leak, timeout, out-of-memory, failed property) are saved
# as DIR/artifacts/<harness>/crash-* (leak-*, timeout-*, oom-*); replay one with
# build-fuzz/fuzz_<harness> FILE. libFuzzer prints its seed (INFO: Seed: N); -seed=N replays a run.
# A reproducer of a defect that other work is fixing is listed in tests/fuzz/known-defects.txt:
# it is run with the harness's known-defect filters off and reported, without failing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-fuzz"
own_build=1
harnesses=(decl_tokens decl_text bytecode asm scene params tess import ff topology)
declare -A max_len=([decl_tokens]=4097 [decl_text]=8192 [bytecode]=4097 [asm]=8192 [scene]=16384 [params]=4096 [tess]=385 [import]=16385 [ff]=4096 [topology]=16384)
# --ci: executions per harness: half of what the 15 s runs of CI made on 2 December 2026 (the full
# counts took 28-53 s each in the sanitizer tree of a 2-core machine, two harnesses at a time, 176 s
# for the stage on 6 December 2026; halved that day to keep .ci/run within 30 minutes). With the
# fixed seed these are the first half of the inputs the full counts ran. 120 s is a safety cap on a
# slower machine.
# import forks a reading child per input (tests/fuzz/fuzz_import.cpp): 150 executions, its 124
# seeds included (200 took 12 s of CPU, 4.6 user and 7.4 system, on 6 December 2026: 51 s of wall
# time at a load average of 13). ff and topology: what 15 s runs made on 6 December 2026, two at a
# time, under a load average of 17 (build-fuzz/).
# import and ff keep their counts: import's 150 are its 124 seeds and a few more, ff's take 4 s.
declare -A ci_runs=([decl_tokens]=8500 [decl_text]=27000 [bytecode]=320000 [asm]=187500 [scene]=12000 [params]=6200 [tess]=12500 [import]=150 [ff]=150 [topology]=3500)
# libFuzzer's RSS limit (MiB): the import harness forks a reading child per input, which would
# inherit libFuzzer's malloc hook (a child's large allocation saved as an oom- finding of the
# harness); the wall limits the child's memory itself (tests/fuzz/fuzz_import.cpp).
declare -A rss_limit=([import]=0)
ci_seed=1

mode=campaign
seconds=600
jobs=1
work=""
selected=()
while [ $# -gt 0 ]; do
  case "$1" in
    --ci) mode=ci; seconds=15 ;;
    --regressions) mode=regressions ;;
    --build-only) mode=build ;;
    --time|--jobs|--work|--build)
      if [ $# -lt 2 ] || [ -z "$2" ]; then echo "fuzz.sh: $1 needs a value" >&2; exit 2; fi
      case "$1" in
        --time) seconds="$2" ;;
        --jobs) jobs="$2" ;;
        --work) work="$2" ;;
        --build) build="$2"; own_build=0 ;;
      esac
      shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) selected+=("$1") ;;
  esac
  shift
done
case "$seconds" in ''|*[!0-9]*|0) echo "fuzz.sh: --time $seconds: expected a whole number of seconds above 0" >&2; exit 2 ;; esac
case "$jobs" in ''|*[!0-9]*|0) echo "fuzz.sh: --jobs $jobs: expected a whole number above 0" >&2; exit 2 ;; esac
for h in "${selected[@]}"; do
  case " ${harnesses[*]} " in *" $h "*) ;; *) echo "fuzz.sh: $h: no such harness; the harnesses: ${harnesses[*]}" >&2; exit 2 ;; esac
done
[ ${#selected[@]} -gt 0 ] && harnesses=("${selected[@]}")
if [ -z "$work" ]; then
  if [ "$mode" = ci ]; then work="$build/ci-work"; else work="$build/work"; fi
fi
mkdir -p "$work"
work="$(cd "$work" && pwd)"

start=$(date +%s)
# libmcpp's own leaks (tests/fuzz/lsan.supp) do not stop a campaign; any other leak does.
export LSAN_OPTIONS="suppressions=$root/tests/fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# ---- build ----
"$root/scripts/deps.sh" clang libclang-rt-14-dev
if [ "$own_build" = 1 ] && [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -G Ninja -S "$root" -B "$build" -DVPSIM_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
if [ ! -f "$build/build.ninja" ]; then
  echo "fuzz.sh: --build $build: not a configured build tree" >&2
  exit 2
fi
build="$(cd "$build" && pwd)"
# (the list is read whole before it is searched: with pipefail, grep -q leaving at the first match
# kills ninja with SIGPIPE once the list outgrows a pipe's buffer, and the pipeline then fails)
targets="$(ninja -C "$build" -t targets all 2>/dev/null || true)"
if ! grep -q '^fuzz_all:' <<<"$targets"; then
  echo "fuzz.sh: --build $build: no fuzz harnesses there (configure it with CC=clang CXX=clang++ -DVPSIM_SANITIZE=ON)" >&2
  exit 2
fi
ninja -C "$build" -j "$(nproc)" fuzz_all
echo "fuzz.sh: built in $(( $(date +%s) - start )) s"

# ---- seeds: rebuilt every run from the examples, never committed ----
seeds="$work/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
tool="$build/fuzz_seed_tool"
seed() {  # harness command file
  local out="$seeds/$1/$(basename "$3")"
  mkdir -p "$seeds/$1"
  "$tool" "$2" "$3" "$out" 2>/dev/null || rm -f "$out"
}
shopt -s nullglob
# The three converted groups run side by side (the seed tool's start-up under the sanitizers is most
# of their time: 28 s one after the other on 2 cores). Each group writes its own harnesses' folders in
# the same order as before, so a name that two files share ends as the later one's, as before.
(
  for f in "$root"/examples/decl/* "$root"/tb/corpus/* "$root"/examples/exec/*.decl "$root"/examples/shaders/corpus/*.decl; do
    seed decl_tokens decl "$f"
    case "$f" in *.decl|*.h) mkdir -p "$seeds/decl_text"; cp "$f" "$seeds/decl_text/" ;; esac
  done
) &
decl_seeds=$!
(
  for f in "$root"/examples/shaders/*.vsh "$root"/examples/shaders/corpus/*.vsh "$root"/examples/exec/*.vsh \
           "$root"/examples/workloads/shaders/*.vsh; do
    seed bytecode bytecode "$f"
    seed asm asm "$f"
  done
) &
shader_seeds=$!
for f in $(find "$root/examples" -name '*.json'); do
  seed scene scene "$f"
done
wait "$decl_seeds"
wait "$shader_seeds"
mkdir -p "$seeds/params" "$seeds/tess" "$seeds/topology" "$seeds/ff"
cp "$root"/model/sc/topology.json "$root"/examples/topologies/*.json "$seeds/topology/"
# ff: the bytes are the generator's numbers (tests/fuzz/ff_stream.h); any bytes make a scene.
python3 -c 'import random, sys
for i in range(8):
    r = random.Random(i)
    open("%s/stream%d" % (sys.argv[1], i), "wb").write(bytes(r.randrange(256) for _ in range(256 * (i + 1))))' "$seeds/ff"
for f in "$root"/model/presets/*.json; do { printf '\x80'; cat "$f"; } > "$seeds/params/$(basename "$f")"; done
printf '\x00vertex_alu.coissue=false\nmemory.latency=12\nmemory.bias=-7\nvertex_alu.policy=lru\nmemory.ratio=1e3\n' \
  > "$seeds/params/set_lines"
printf '\x80{"vertex_alu": {"engines": 4, "clock": 233.5}, "cache": {"entries": 0}}' > "$seeds/params/config"
# tess: control points 0..9 on a wavy sheet, then a few draws (see tests/fuzz/fuzz_tess.cpp).
python3 - "$seeds/tess" <<'EOF'
import struct, sys
cp = b"".join(struct.pack("<6f", x % 4, x // 4, (x * 7 % 5) / 5, 0, 0, 1) for x in range(10)) + bytes(16)
ops = [bytes([0x84, 0x33, 0x44, 0x04, 0x33, 0x04, 0x08, 0]),   # rect 4x4 cubic Bezier, handle 1
       bytes([0xC4, 0x33, 0x44, 0x04, 0x33, 0x04, 0x08, 0]),   # redraw handle 1 (NULL info)
       bytes([0x01, 0x23, 0x44, 0x04, 0x00, 0x00, 0x08, 0]),   # tri patch, 10 vertices
       bytes([0x06, 0, 0, 0, 0, 0, 0, 0]),                     # DeletePatch(1)
       bytes([0x03, 0x04, 0, 0, 0x09, 0x00, 0x00, 2])]         # N-patch list of 9 refs, 4 segments
open(sys.argv[1] + "/draws", "wb").write(bytes([0]) + cp + b"".join(ops))
EOF
# import: the small models of Debian's assimp-testmodels, each behind the byte that picks its
# format (the order of kFormats in tests/fuzz/fuzz_import.cpp).
python3 - "$seeds/import" <<'EOF'
import os, sys
formats = [".obj", ".ply", ".stl", ".off", ".dae", ".x", ".smd", ".ase", ".3ds", ".ms3d", ".b3d", ".md2", ".md3",
           ".mdl", ".mdc", ".ac", ".nff", ".raw"]
os.makedirs(sys.argv[1], exist_ok=True)
for d, _, files in os.walk("/usr/share/assimp/models"):
    for f in sorted(files):
        ext = os.path.splitext(f)[1].lower()
        p = os.path.join(d, f)
        if ext in formats and os.path.getsize(p) <= 16384:
            with open(p, "rb") as src, open(os.path.join(sys.argv[1], f"{formats.index(ext):02d}-{f}"), "wb") as out:
                out.write(bytes([formats.index(ext)]) + src.read())
EOF
for h in "${harnesses[@]}"; do mkdir -p "$seeds/$h"; done
echo "fuzz.sh: seeds: $(for h in "${harnesses[@]}"; do printf '%s %s  ' "$h" "$(ls "$seeds/$h" | wc -l)"; done)"
[ "$mode" = build ] && exit 0

failed=0
# ---- fuzzing ----
# One harness: its libFuzzer run, then its summary line in $logs/$h.summary and, on a finding,
# what to look at in $logs/$h.finding (printed by the caller, so parallel runs do not interleave).
fuzz_one() {
  local h="$1" corpus="$work/corpus/$1" art="$work/artifacts/$1" logs="$work/logs"
  mkdir -p "$corpus" "$art" "$logs"
  rm -f "$logs/$h.summary" "$logs/$h.finding"
  local before after rc t0 execs last log="$logs/$h.log" jobdir="$logs/$h.jobs"
  local regdir=()
  [ -d "$root/tests/fuzz/regressions/$h" ] && regdir=("$root/tests/fuzz/regressions/$h")
  before=$(ls "$art" | wc -l)
  local args=(-max_total_time="$seconds" -max_len="${max_len[$h]}" -timeout=10 -rss_limit_mb="${rss_limit[$h]:-2048}"
              -print_final_stats=1 -artifact_prefix="$art/")
  if [ "$mode" = ci ]; then
    args=(-seed="$ci_seed" -runs="${ci_runs[$h]}" -max_total_time=120 -max_len="${max_len[$h]}" -timeout=10
          -rss_limit_mb="${rss_limit[$h]:-2048}" -print_final_stats=1 -artifact_prefix="$art/")
  fi
  t0=$(date +%s)
  set +e
  rm -rf "$jobdir"  # -jobs: libFuzzer writes fuzz-N.log per job into its working directory
  if [ "$jobs" -gt 1 ]; then
    mkdir -p "$jobdir"
    (cd "$jobdir" && "$build/fuzz_$h" "${args[@]}" -jobs="$jobs" -workers="$jobs" "$corpus" "$seeds/$h" \
       "${regdir[@]}" > "$log" 2>&1)
  else
    "$build/fuzz_$h" "${args[@]}" "$corpus" "$seeds/$h" "${regdir[@]}" > "$log" 2>&1
  fi
  rc=$?
  set -e
  after=$(ls "$art" | wc -l)
  execs=$(grep -h 'stat::number_of_executed_units' "$log" "$jobdir"/fuzz-*.log 2>/dev/null | awk '{s+=$2} END {print s+0}')
  last=$(grep -h -E '^#[0-9]+' "$log" "$jobdir"/fuzz-*.log 2>/dev/null | grep -o 'cov: [0-9]* ft: [0-9]*' | tail -1 || true)
  echo "fuzz.sh: $h: $(( $(date +%s) - t0 )) s, $execs executions, ${last:-cov: ? ft: ?}, corpus $(ls "$corpus" | wc -l), rc $rc, findings $((after - before))" \
    > "$logs/$h.summary"
  if [ "$rc" -ne 0 ] || [ "$after" -gt "$before" ]; then
    {
      echo "fuzz.sh: $h: FINDING — see $log and $art"
      grep -h -E 'ERROR|property failed|SUMMARY|Test unit written' "$log" "$jobdir"/fuzz-*.log 2>/dev/null | head -20
      [ "$mode" = ci ] && echo "fuzz.sh: $h: the same run again: scripts/fuzz.sh --ci --build $build $h" \
        "(seed $ci_seed, ${ci_runs[$h]} executions from the seed inputs); the finding alone: $build/fuzz_$h $art/crash-*"
    } > "$logs/$h.finding"
  fi
}
report_one() {  # prints a harness's summary (and its finding); 1 on a finding or a run that stopped early
  local logs="$work/logs"
  if [ ! -f "$logs/$1.summary" ]; then
    echo "fuzz.sh: $1: the run stopped before its summary — see $logs/$1.log" >&2
    return 1
  fi
  cat "$logs/$1.summary"
  if [ -f "$logs/$1.finding" ]; then cat "$logs/$1.finding" >&2; return 1; fi
}
if [ "$mode" = ci ] || [ "$mode" = campaign ]; then
  [ "$mode" = ci ] && rm -rf "$work/corpus" "$work/artifacts" "$work/logs"
  mkdir -p "$work/logs"
  if [ "$mode" = ci ]; then
    # CI: each harness is one process with a fixed seed and number of executions, so they run
    # side by side, one per core; the results do not depend on the order.
    # The longest first (its executions are the slowest: tess 74 s in CI on 6 December 2026, the
    # others 4-24 s), so the short ones fill the other cores beside it instead of after it.
    slots="$(nproc 2>/dev/null || echo 2)"
    running=0
    ci_order=()
    for h in tess scene "${harnesses[@]}"; do
      case " ${ci_order[*]} " in *" $h "*) ;; *) case " ${harnesses[*]} " in *" $h "*) ci_order+=("$h") ;; esac ;; esac
    done
    for h in "${ci_order[@]}"; do
      if [ "$running" -ge "$slots" ]; then wait -n || true; running=$((running - 1)); fi
      fuzz_one "$h" &
      running=$((running + 1))
    done
    wait || true
  else
    for h in "${harnesses[@]}"; do fuzz_one "$h"; done
  fi
  for h in "${harnesses[@]}"; do report_one "$h" || failed=1; done
fi

# ---- regression inputs ----
known="$root/tests/fuzz/known-defects.txt"
is_known() { [ -f "$known" ] && awk -v h="$1" '!/^#/ && $1 == h { found = 1 } END { exit !found }' "$known"; }
for h in "${harnesses[@]}"; do
  dir="$root/tests/fuzz/regressions/$h"
  [ -d "$dir" ] || continue
  for f in "$dir"/*; do
    rel="${f#"$root"/}"
    set +e
    VPSIM_FUZZ_NO_FILTERS=1 "$build/fuzz_$h" -rss_limit_mb="${rss_limit[$h]:-2048}" -timeout=30 -runs=1 "$f" > "$work/regression.log" 2>&1
    rc=$?
    set -e
    if is_known "$rel"; then
      if [ $rc -eq 0 ]; then echo "fuzz.sh: $rel: known defect now passes — remove it from tests/fuzz/known-defects.txt and its filter"
      else echo "fuzz.sh: $rel: known defect, still open (not counted)"; fi
    elif [ $rc -ne 0 ]; then
      failed=1
      echo "fuzz.sh: $rel: REGRESSION FAILS" >&2
      grep -E 'ERROR|property failed|SUMMARY' "$work/regression.log" | head -5 >&2
    else
      echo "fuzz.sh: $rel: ok"
    fi
  done
done
echo "fuzz.sh: total $(( $(date +%s) - start )) s"
exit $failed
