#!/usr/bin/env bash
# scripts/build-pgo.sh: the instrumented build, the training runs that write the profile, then the
# optimised build, in that order; --lto in both builds; its usage errors; a training that writes no
# profile or fails stops it. Runs the script with stand-ins for cmake, ninja, dpkg-query and the
# built vpsim on PATH / in the build directory that log their calls (nothing is built or run).
#   tests/build_pgo_script_test.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src="$1"
work="$2"
rm -rf "$work"
mkdir -p "$work/bin"
log="$work/calls.log"
. "$src/tests/build_stand_ins.sh"
build_stand_ins "$work" "$log"
# The stand-in ninja "builds" a vpsim that logs its calls and, unless told otherwise, writes a
# profile file as an instrumented binary would.
cat > "$work/bin/ninja" <<EOF
#!/usr/bin/env bash
echo "ninja \$*" >> "$log"
cat > "\$2/vpsim" <<'INNER'
#!/usr/bin/env bash
echo "vpsim \$*" >> "$log"
[ -n "\${FAKE_TRAINING_FAILS:-}" ] && { echo "training failed" >&2; exit 1; }
[ -n "\${FAKE_NO_PROFILE:-}" ] || { mkdir -p "\$(dirname "\$0")/pgo-profile"; touch "\$(dirname "\$0")/pgo-profile/x.gcda"; }
exit 0
INNER
chmod +x "\$2/vpsim"
EOF
chmod +x "$work/bin/"*
export PATH="$work/bin:$PATH"
build="$work/build"
failures=0
fail() { echo "FAIL: $*" >&2; [ -f "$log" ] && sed 's/^/  /' "$log" >&2; failures=$((failures + 1)); }

# The calls in order: configure generate, build vpsim, training runs, configure use, build vpsim.
: > "$log"
if ! "$src/scripts/build-pgo.sh" "$build" -DVPSIM_DEBUG_INFO=full > /dev/null 2> "$work/err"; then
  fail "the plain run failed: $(cat "$work/err")"
else
  order="$(sed -E 's/^(cmake|ninja|vpsim).*/\1/' "$log" | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')"
  runs="$(grep -c '^vpsim run' "$log")"
  if [ "$order" != "cmakex1 ninjax1 vpsimx$runs cmakex1 ninjax1 " ] || [ "$runs" -lt 3 ]; then
    fail "calls out of order ($order)"
  elif ! sed -n 1p "$log" | grep -q -- "-DVPSIM_PGO=generate .*-DVPSIM_LTO=OFF -DVPSIM_DEBUG_INFO=full" ||
       ! grep '^cmake' "$log" | sed -n 2p | grep -q -- "-DVPSIM_PGO=use .*-DVPSIM_LTO=OFF -DVPSIM_DEBUG_INFO=full"; then
    fail "the builds were not configured generate then use with the arguments passed"
  elif grep '^ninja' "$log" | grep -qv ' vpsim$'; then
    fail "a build was not of the vpsim target alone"
  elif grep '^vpsim' "$log" | grep -qv -- '--quiet --no-progress$'; then
    fail "a training run was not quiet"
  else
    echo "ok: instrumented build, $runs training runs, optimised build"
  fi
fi

: > "$log"
if ! "$src/scripts/build-pgo.sh" --lto "$build" > /dev/null 2> "$work/err"; then
  fail "--lto failed: $(cat "$work/err")"
elif [ "$(grep '^cmake' "$log" | grep -c -- '-DVPSIM_LTO=ON')" != 2 ]; then
  fail "--lto did not reach both configures"
else
  echo "ok: --lto configures both builds with VPSIM_LTO=ON"
fi

# Usage errors: exit 2 before anything is configured.
for args in "--bogus" "$build -DVPSIM_PGO=use" "$build -DVPSIM_PGO_DIR=/tmp/x"; do
  : > "$log"
  # shellcheck disable=SC2086
  if "$src/scripts/build-pgo.sh" $args > /dev/null 2> "$work/err"; then
    fail "'$args' was accepted"
  elif [ -s "$log" ] || ! grep -q '^usage: scripts/build-pgo.sh' "$work/err"; then
    fail "'$args': not a usage error before any call ($(cat "$work/err"))"
  else
    echo "ok: '$args' is a usage error"
  fi
done

# A training that writes no profile, or that fails, stops before the optimised build.
for what in FAKE_NO_PROFILE FAKE_TRAINING_FAILS; do
  : > "$log"
  if env "$what=1" "$src/scripts/build-pgo.sh" "$build" > /dev/null 2> "$work/err"; then
    fail "$what: the script succeeded"
  elif grep -q -- '-DVPSIM_PGO=use' "$log"; then
    fail "$what: the optimised build was configured anyway"
  else
    echo "ok: $what stops the script: $(tail -n 1 "$work/err")"
  fi
done

[ "$failures" = 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
