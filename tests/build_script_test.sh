#!/usr/bin/env bash
# scripts/build.sh configures when the build directory is new or when it is given cmake
# arguments that differ from the last configure's; otherwise it only builds. Runs build.sh with
# stand-ins for cmake, ninja and dpkg-query on PATH that log their calls (nothing is built).
# With --target it builds only the targets named (scripts/run.sh: --target vpsim).
#   tests/build_script_test.sh SOURCE_DIR WORK_DIR configure|targets
set -euo pipefail
src="$1"
work="$2"
what="$3"
case "$what" in configure|targets) ;; *) echo "build_script_test.sh: expected configure or targets, got '$what'" >&2; exit 2 ;; esac
rm -rf "$work"
mkdir -p "$work/bin"
log="$work/calls.log"
. "$src/tests/build_stand_ins.sh"
build_stand_ins "$work" "$log"
cat > "$work/bin/ninja" <<EOF
#!/usr/bin/env bash
echo "ninja \$*" >> "$log"
EOF
chmod +x "$work/bin/"*
export PATH="$work/bin:$PATH"
build="$work/build"
failures=0

# step <description> <expected number of cmake calls> build.sh-arguments...
step() {
  local what="$1" want="$2"
  shift 2
  : > "$log"
  "$src/scripts/build.sh" "$build" "$@" > /dev/null
  local got
  got="$(grep -c '^cmake' "$log" || true)"
  if [ "$got" != "$want" ] || ! grep -q '^ninja' "$log"; then
    echo "FAIL: $what: $got cmake calls (want $want); calls:" >&2
    cat "$log" >&2
    failures=$((failures + 1))
  else
    echo "ok: $what"
  fi
}

if [ "$what" = configure ]; then
step "a new build directory is configured" 1
grep -q '^ninja -C [^ ]* -j [0-9]*$' "$log" || { echo "FAIL: without --target, ninja was not asked for every target:" >&2; cat "$log" >&2; failures=$((failures + 1)); }
step "no arguments, existing directory: build only" 0
step "new arguments reconfigure" 1 -DVPSIM_SANITIZE=ON
grep -q -- "-DVPSIM_SANITIZE=ON" "$log" || { echo "FAIL: the arguments did not reach cmake" >&2; failures=$((failures + 1)); }
step "the same arguments again: build only" 0 -DVPSIM_SANITIZE=ON
step "no arguments keep the last configuration" 0
step "different arguments reconfigure" 1 -DVPSIM_SANITIZE=OFF "-DCMAKE_CXX_FLAGS=-O1 -g"
step "arguments with spaces compare exactly" 0 -DVPSIM_SANITIZE=OFF "-DCMAKE_CXX_FLAGS=-O1 -g"
step "a changed argument with spaces reconfigures" 1 -DVPSIM_SANITIZE=OFF "-DCMAKE_CXX_FLAGS=-O1  -g"
rm "$build/build.ninja"
step "a directory without build.ninja is configured again" 1 -DVPSIM_SANITIZE=OFF "-DCMAKE_CXX_FLAGS=-O1  -g"
fi

# --target (scripts/run.sh: --target vpsim): ninja builds only the targets named, configuring as before.
if [ "$what" = targets ]; then
step "a new build directory is configured" 1 -DVPSIM_SANITIZE=OFF "-DCMAKE_CXX_FLAGS=-O1  -g"
: > "$log"
"$src/scripts/build.sh" --target vpsim --target test_tess "$build" -DVPSIM_SANITIZE=OFF "-DCMAKE_CXX_FLAGS=-O1  -g" > /dev/null
if ! grep -q '^ninja -C [^ ]*/build -j [0-9]* vpsim test_tess$' "$log" || grep -q '^cmake' "$log"; then
  echo "FAIL: --target vpsim --target test_tess with the same arguments: calls:" >&2
  cat "$log" >&2
  failures=$((failures + 1))
else
  echo "ok: --target T --target U builds exactly T and U"
fi
if "$src/scripts/build.sh" --target > /dev/null 2>"$work/err"; then
  echo "FAIL: --target without a name was accepted" >&2; failures=$((failures + 1))
elif ! grep -q -- "--target needs a target name" "$work/err"; then
  echo "FAIL: --target without a name: no clear error" >&2; cat "$work/err" >&2; failures=$((failures + 1))
else
  echo "ok: --target without a name is refused"
fi
fi

[ "$failures" -eq 0 ] || exit 1
