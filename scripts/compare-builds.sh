#!/usr/bin/env bash
# Whether two builds of vpsim give the same results (docs/bench.md, "Same results"): every scene
# run by both at the default parameters, with two vertex ALU engines, and on the nv25 and nv20
# presets; each run's stats.json (without its host timing: host_seconds, cycles_per_host_second),
# vertices.json and exit status must be identical. A change meant to make the model faster must
# pass it on every example.
#   scripts/compare-builds.sh OLD_VPSIM NEW_VPSIM [SCENE...]
# Default scenes: the built-in default scene and every scene of examples/workloads,
# examples/scenes and examples/scenes/patches. Prints one line per run that differs, then
# "compare-builds: N comparisons, M differ". Exit status: 0 none differ, 1 some differ, 2 usage.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() { echo "usage: scripts/compare-builds.sh OLD_VPSIM NEW_VPSIM [SCENE...]" >&2; exit 2; }
[ $# -ge 2 ] || usage
old=$1 new=$2
shift 2
for b in "$old" "$new"; do
  [ -x "$b" ] && [ -f "$b" ] || { echo "compare-builds.sh: $b is not an executable file" >&2; exit 2; }
done
scenes=("$@")
if [ ${#scenes[@]} -eq 0 ]; then
  scenes=("")  # the built-in default scene
  for d in examples/workloads examples/scenes examples/scenes/patches; do
    for f in "$root/$d"/*.json; do scenes+=("$f"); done
  done
fi
for f in "${scenes[@]}"; do
  [ -z "$f" ] || [ -f "$f" ] || { echo "compare-builds.sh: no scene file $f" >&2; exit 2; }
done
configs=("" "--set vertex_alu.engines=2" "--preset nv25" "--preset nv20")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# stats.json without the fields that measure the host, keys sorted
canonical() {
  python3 - "$1" <<'EOF'
import json, sys
HOST = {"host_seconds", "cycles_per_host_second"}
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k not in HOST}
    if isinstance(o, list):
        return [strip(x) for x in o]
    return o
print(json.dumps(strip(json.load(open(sys.argv[1]))), sort_keys=True))
EOF
}
n=0 differ=0
for scene in "${scenes[@]}"; do
  for config in "${configs[@]}"; do
    for side in old new; do
      bin=$old
      [ $side = new ] && bin=$new
      rm -rf "${work:?}/$side"
      # (word splitting of $config and an empty $scene are meant)
      # shellcheck disable=SC2086
      "$bin" run $scene $config --out "$work/$side" --vertices --quiet --no-progress >"$work/$side.log" 2>&1
      echo $? >"$work/$side.rc"
    done
    n=$((n + 1))
    what="${scene:-the default scene}${config:+ $config}"
    if ! cmp -s "$work/old.rc" "$work/new.rc"; then
      echo "differs: $what: exit status $(cat "$work/old.rc") against $(cat "$work/new.rc")"
      differ=$((differ + 1))
      continue
    fi
    if [ "$(cat "$work/old.rc")" != 0 ]; then  # refused by both: with the same message
      cmp -s "$work/old.log" "$work/new.log" || { echo "differs: $what: its error message"; differ=$((differ + 1)); }
      continue
    fi
    if [ "$(canonical "$work/old/stats.json")" != "$(canonical "$work/new/stats.json")" ]; then
      echo "differs: $what: stats.json"
      differ=$((differ + 1))
    elif ! cmp -s "$work/old/vertices.json" "$work/new/vertices.json"; then
      echo "differs: $what: vertices.json"
      differ=$((differ + 1))
    fi
  done
done
echo "compare-builds: $n comparisons, $differ differ"
[ "$differ" -eq 0 ]
