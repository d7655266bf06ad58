#!/usr/bin/env bash
# scripts/compare-builds.sh: a build against itself agrees; a build whose stats.json or vertices
# differ by one value is named, scene and configuration, with exit status 1; bad arguments are
# exit 2. One small scene keeps it short.
#   tests/compare_builds_test.sh VPSIM SOURCE_DIR WORK_DIR
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: tests/compare_builds_test.sh VPSIM SOURCE_DIR WORK_DIR" >&2; exit 2; }
vpsim=$(realpath "$1") src=$(realpath "$2") work=$3
rm -rf "$work" && mkdir -p "$work" && work=$(realpath "$work")
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
scenes=("$src/examples/scenes/points.json")

out=$("$src/scripts/compare-builds.sh" "$vpsim" "$vpsim" "${scenes[@]}")
rc=$?
[ $rc -eq 0 ] || fail "a build against itself: exit $rc"
grep -q "compare-builds: 4 comparisons, 0 differ" <<<"$out" || fail "a build against itself: $out"

# A build that runs vpsim, then adds a cycle to points.json's stats at the nv20 preset.
cat >"$work/changed.sh" <<EOS
#!/usr/bin/env bash
"$vpsim" "\$@"
rc=\$?
case " \$* " in
  *points.json*"--preset nv20"*)
    out=""; prev=""
    for a in "\$@"; do [ "\$prev" = --out ] && out=\$a; prev=\$a; done
    python3 -c "import json,sys; p=sys.argv[1]; j=json.load(open(p)); j['summary']['cycles'] += 1; json.dump(j, open(p, 'w'))" "\$out/stats.json" ;;
esac
exit \$rc
EOS
chmod +x "$work/changed.sh"
out=$("$src/scripts/compare-builds.sh" "$vpsim" "$work/changed.sh" "${scenes[@]}")
rc=$?
[ $rc -eq 1 ] || fail "a changed build: exit $rc (want 1)"
grep -q "differs: .*points.json --preset nv20: stats.json" <<<"$out" || fail "the changed run is not named: $out"
grep -q "compare-builds: 4 comparisons, 1 differ" <<<"$out" || fail "a changed build: $out"

"$src/scripts/compare-builds.sh" "$vpsim" 2>"$work/usage.err"
rc=$?
[ $rc -eq 2 ] && grep -q "usage" "$work/usage.err" || fail "one build only: exit $rc"
"$src/scripts/compare-builds.sh" "$vpsim" "$work/none" 2>"$work/missing.err"
rc=$?
[ $rc -eq 2 ] && grep -q "is not an executable file" "$work/missing.err" || fail "a missing build: exit $rc"
"$src/scripts/compare-builds.sh" "$vpsim" "$vpsim" "$work/none.json" 2>"$work/scene.err"
rc=$?
[ $rc -eq 2 ] && grep -q "no scene file" "$work/scene.err" || fail "a missing scene: exit $rc"

[ $failures -eq 0 ] || exit 1
echo "ok: compare-builds agrees with itself, names a changed run, refuses bad arguments"
